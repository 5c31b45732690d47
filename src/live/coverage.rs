//! What the empty-table reference never saw, as the camera sees it now.
//!
//! The reference is the table rectified from the calibration's view; where that view did not
//! reach, it is black. After the camera moved and was re-registered, the new view may reach a
//! strip of table beyond the old one: there the rectified frame shows table and the reference
//! black, and vision would take the strip for something large at the edge of the view (an arm).
//! The strip says nothing about pieces (the reference has no table there to compare with), so
//! the frame's pixels that show it are blacked out before vision sees them, exactly as the
//! reference is. A piece in the strip is outside what was calibrated either way.
//!
//! Conventions: raw camera pixels; table millimetres; the reference on its `RectifyGrid`.

use crate::calibrate::Profile;
use crate::table::PointPx;
use opencv::core::{self, Mat, Point, Scalar, Size, Vec3b};
use opencv::imgproc;
use opencv::prelude::*;

/// The unseen area is grown by this many raw pixels (the reference's own edge is blended with
/// black over a pixel or two).
const GROW_PX: i32 = 2;
/// Fewer unseen pixels inside the grid than this and nothing is masked (the calibration's own
/// view: the reference's edge and the view's coincide).
const MIN_UNSEEN_PX: i32 = 200;

/// Raw pixels (255) whose table point lies on the reference's grid where the reference is black;
/// `None` when there are (almost) none, the usual case.
pub fn unseen_mask(profile: &Profile, reference: &Mat) -> Result<Option<Mat>, opencv::Error> {
    let Some(grid) = profile.reference.as_ref().map(|r| r.grid) else {
        return Ok(None);
    };
    let (w, h) = (profile.image_size.width as i32, profile.image_size.height as i32);
    let mut mask = Mat::new_rows_cols_with_default(h, w, core::CV_8UC1, Scalar::all(0.0))?;
    let mut count = 0;
    for y in 0..h {
        let row = mask.at_row_mut::<u8>(y)?;
        for (x, m) in row.iter_mut().enumerate() {
            let Some(p) = profile.px_to_mm(PointPx::new(x as f64, f64::from(y))) else {
                continue;
            };
            let g = grid.mm_to_px(p);
            let (i, j) = (g.x.round() as i32, g.y.round() as i32);
            if i < 0 || j < 0 || i >= reference.cols() || j >= reference.rows() {
                continue;
            }
            let v = reference.at_2d::<Vec3b>(j, i)?;
            if v[0] == 0 && v[1] == 0 && v[2] == 0 {
                *m = 255;
                count += 1;
            }
        }
    }
    if count < MIN_UNSEEN_PX {
        return Ok(None);
    }
    let kernel = imgproc::get_structuring_element(
        imgproc::MORPH_RECT,
        Size::new(2 * GROW_PX + 1, 2 * GROW_PX + 1),
        Point::new(-1, -1),
    )?;
    let mut grown = Mat::default();
    imgproc::dilate(
        &mask,
        &mut grown,
        &kernel,
        Point::new(-1, -1),
        1,
        core::BORDER_CONSTANT,
        Scalar::all(0.0),
    )?;
    Ok(Some(grown))
}

/// `frame` with the `unseen` pixels black (a copy; the caller's frame is left alone).
pub fn black_out(frame: &Mat, unseen: &Mat) -> Result<Mat, opencv::Error> {
    let mut out = frame.try_clone()?;
    out.set_to(&Scalar::all(0.0), unseen)?;
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_calibrated_view_has_nothing_unseen_and_a_blind_strip_is_found() {
        let cal = crate::live::LiveCalibration::demo().unwrap();
        assert!(unseen_mask(&cal.profile, &cal.reference).unwrap().is_none());
        // A reference whose left 60 columns the calibration never saw.
        let mut reference = cal.reference.try_clone().unwrap();
        let strip = core::Rect::new(0, 0, 60, reference.rows());
        Mat::roi_mut(&mut reference, strip)
            .unwrap()
            .set_to_def(&Scalar::all(0.0))
            .unwrap();
        let mask = unseen_mask(&cal.profile, &reference).unwrap().expect("a strip");
        let grid = cal.profile.reference.as_ref().unwrap().grid;
        // Every masked pixel shows a table point in (or within a few pixels of) the strip.
        let mut inside = 0;
        for y in (0..mask.rows()).step_by(7) {
            for x in (0..mask.cols()).step_by(7) {
                if *mask.at_2d::<u8>(y, x).unwrap() == 0 {
                    continue;
                }
                let p = cal
                    .profile
                    .px_to_mm(PointPx::new(f64::from(x), f64::from(y)))
                    .unwrap();
                let g = grid.mm_to_px(p);
                assert!(g.x < 70.0, "{g:?}");
                inside += 1;
            }
        }
        assert!(inside > 20, "{inside}");
        let frame =
            Mat::new_rows_cols_with_default(mask.rows(), mask.cols(), core::CV_8UC3, Scalar::all(90.0))
                .unwrap();
        let out = black_out(&frame, &mask).unwrap();
        assert_eq!(
            core::count_non_zero(&mask).unwrap(),
            (mask.rows() * mask.cols()) - {
                let mut g = Mat::default();
                imgproc::cvt_color_def(&out, &mut g, imgproc::COLOR_BGR2GRAY).unwrap();
                core::count_non_zero(&g).unwrap()
            }
        );
    }
}
