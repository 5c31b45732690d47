//! The two top-down views vision works in, both sampled on the profile's reference grid.
//!
//! Conventions (`calibrate::rectify`): a [`RectifyGrid`] pixel `(i, j)` shows table point
//! `origin_mm + (i, j) * mm_per_px`. The **fine** view is the empty-table reference's own grid
//! (same origin, same scale, same interpolation), so a rectified frame and the reference are
//! sampled identically and the table's texture cancels exactly where nothing changed. The
//! **coarse** view takes every [`COARSE_STEP`]-th fine pixel: whole-ocean passes run there, and
//! only the regions where something changed are rectified finely.
//!
//! The maps depend on the profile only and are built once.

use super::VisionError;
use crate::calibrate::profile::Profile;
use crate::calibrate::rectify::{PlaneToPixels, RectifyGrid};
use crate::table::PointPx;
use opencv::core::{self, Mat, Rect, Scalar};
use opencv::imgproc;
use opencv::prelude::*;

/// Fine pixels per coarse pixel along each axis.
pub const COARSE_STEP: i32 = 2;

/// Precomputed warps from raw frames to the fine and coarse views.
#[derive(Debug)]
pub struct Rectification {
    pub fine: RectifyGrid,
    pub coarse: RectifyGrid,
    frame_width: i32,
    frame_height: i32,
    /// Fine maps (raw x, y per fine pixel) in OpenCV's fixed-point form (`CV_16SC2` +
    /// `CV_16UC1`): `remap` turns a float map into this form on every call, the same way
    /// ([`fixed_point`]), so a fine view is the same image either way, made faster.
    fine_map1: Mat,
    fine_map2: Mat,
    /// Coarse maps in OpenCV's fixed-point form (`CV_16SC2` + `CV_16UC1`).
    coarse_map1: Mat,
    coarse_map2: Mat,
    /// 255 where the fine / coarse pixel's source lies inside the raw frame.
    pub fine_valid: Mat,
    pub coarse_valid: Mat,
}

impl Rectification {
    /// The warps of `profile`'s table plane onto the fine grid `fine` and its coarse subsampling.
    pub fn new(profile: &Profile, fine: RectifyGrid) -> Result<Self, VisionError> {
        let (fw, fh) = (profile.image_size.width as i32, profile.image_size.height as i32);
        let rows = fine.height as i32;
        let cols = fine.width as i32;
        let (fine_map, fine_valid) = float_map(profile, &fine)?;
        let crows = (rows + COARSE_STEP - 1) / COARSE_STEP;
        let ccols = (cols + COARSE_STEP - 1) / COARSE_STEP;
        let mut coarse_float =
            Mat::new_rows_cols_with_default(crows, ccols, core::CV_32FC2, Scalar::all(-1.0))?;
        let mut coarse_valid =
            Mat::new_rows_cols_with_default(crows, ccols, core::CV_8UC1, Scalar::all(0.0))?;
        for j in 0..crows {
            let src = fine_map.at_row::<core::Vec2f>(j * COARSE_STEP)?;
            let srcv = fine_valid.at_row::<u8>(j * COARSE_STEP)?;
            let dst = coarse_float.at_row_mut::<core::Vec2f>(j)?;
            for (i, d) in dst.iter_mut().enumerate() {
                *d = src[i * COARSE_STEP as usize];
            }
            let dstv = coarse_valid.at_row_mut::<u8>(j)?;
            for (i, d) in dstv.iter_mut().enumerate() {
                *d = srcv[i * COARSE_STEP as usize];
            }
        }
        let (coarse_map1, coarse_map2) = fixed_point(&coarse_float)?;
        let (fine_map1, fine_map2) = fixed_point(&fine_map)?;
        let coarse = RectifyGrid {
            origin_mm: fine.origin_mm,
            mm_per_px: fine.mm_per_px * COARSE_STEP as f64,
            width: ccols as u32,
            height: crows as u32,
        };
        Ok(Self {
            fine,
            coarse,
            frame_width: fw,
            frame_height: fh,
            fine_map1,
            fine_map2,
            coarse_map1,
            coarse_map2,
            fine_valid,
            coarse_valid,
        })
    }

    fn check(&self, frame: &Mat) -> Result<(), VisionError> {
        if frame.cols() != self.frame_width || frame.rows() != self.frame_height {
            return Err(VisionError::FrameSize {
                width: frame.cols(),
                height: frame.rows(),
                expected_width: self.frame_width,
                expected_height: self.frame_height,
            });
        }
        if frame.typ() != core::CV_8UC3 {
            return Err(VisionError::FrameType);
        }
        Ok(())
    }

    /// The whole coarse view of a raw BGR frame.
    pub fn coarse_view(&self, frame: &Mat) -> Result<Mat, VisionError> {
        self.check(frame)?;
        let mut out = Mat::default();
        imgproc::remap(
            frame,
            &mut out,
            &self.coarse_map1,
            &self.coarse_map2,
            imgproc::INTER_LINEAR,
            core::BORDER_CONSTANT,
            Scalar::all(0.0),
        )?;
        Ok(out)
    }

    /// A rectangle of the fine view (fine pixel coordinates, clipped to the grid).
    pub fn fine_view(&self, frame: &Mat, rect: Rect) -> Result<Mat, VisionError> {
        self.check(frame)?;
        let rect = self.clip(rect);
        let map1 = Mat::roi(&self.fine_map1, rect)?;
        let map2 = Mat::roi(&self.fine_map2, rect)?;
        let mut out = Mat::default();
        imgproc::remap(
            frame,
            &mut out,
            &map1,
            &map2,
            imgproc::INTER_LINEAR,
            core::BORDER_CONSTANT,
            Scalar::all(0.0),
        )?;
        Ok(out)
    }

    /// `rect` clipped to the fine grid.
    pub fn clip(&self, rect: Rect) -> Rect {
        let x0 = rect.x.clamp(0, self.fine.width as i32);
        let y0 = rect.y.clamp(0, self.fine.height as i32);
        let x1 = (rect.x + rect.width).clamp(x0, self.fine.width as i32);
        let y1 = (rect.y + rect.height).clamp(y0, self.fine.height as i32);
        Rect::new(x0, y0, x1 - x0, y1 - y0)
    }
}

/// The raw frame's `(x, y)` at every fine pixel (`CV_32FC2`, -1 where the plane has none), and
/// 255 where that lies inside the frame (`CV_8UC1`).
fn float_map(profile: &Profile, fine: &RectifyGrid) -> Result<(Mat, Mat), VisionError> {
    let plane = PlaneToPixels::table(profile);
    let (fw, fh) = (profile.image_size.width as i32, profile.image_size.height as i32);
    let (rows, cols) = (fine.height as i32, fine.width as i32);
    let mut map = Mat::new_rows_cols_with_default(rows, cols, core::CV_32FC2, Scalar::all(-1.0))?;
    let mut valid = Mat::new_rows_cols_with_default(rows, cols, core::CV_8UC1, Scalar::all(0.0))?;
    for j in 0..rows {
        let m = map.at_row_mut::<core::Vec2f>(j)?;
        let v = valid.at_row_mut::<u8>(j)?;
        for i in 0..cols as usize {
            let Some(px) = plane.to_px(fine.px_to_mm(PointPx::new(i as f64, j as f64))) else {
                continue;
            };
            if !(px.x.is_finite() && px.y.is_finite()) {
                continue;
            }
            m[i] = core::Vec2f::from([px.x as f32, px.y as f32]);
            if px.x >= 0.0 && px.y >= 0.0 && px.x <= (fw - 1) as f64 && px.y <= (fh - 1) as f64 {
                v[i] = 255;
            }
        }
    }
    Ok((map, valid))
}

/// A float map in OpenCV's fixed-point form for [`imgproc::remap`]: whole pixels (`CV_16SC2`)
/// and interpolation table indices (`CV_16UC1`).
fn fixed_point(map: &Mat) -> Result<(Mat, Mat), VisionError> {
    let mut map1 = Mat::default();
    let mut map2 = Mat::default();
    imgproc::convert_maps(map, &Mat::default(), &mut map1, &mut map2, core::CV_16SC2, false)?;
    Ok((map1, map2))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::calibrate::profile::tests::sample_profile;
    use crate::table::PointMm;

    #[test]
    fn coarse_pixels_are_every_other_fine_pixel() {
        let profile = sample_profile();
        let grid = RectifyGrid::covering(PointMm::new(0.0, 0.0), PointMm::new(200.0, 150.0), 1.0).unwrap();
        let r = Rectification::new(&profile, grid).unwrap();
        // A frame whose colour encodes its pixel position.
        let mut frame = Mat::new_rows_cols_with_default(720, 1280, core::CV_8UC3, Scalar::all(0.0)).unwrap();
        for y in 0..720 {
            let row = frame.at_row_mut::<core::Vec3b>(y).unwrap();
            for (x, p) in row.iter_mut().enumerate() {
                *p = core::Vec3b::from([(x % 256) as u8, (y % 256) as u8, 128]);
            }
        }
        let coarse = r.coarse_view(&frame).unwrap();
        let fine = r.fine_view(&frame, Rect::new(0, 0, 201, 151)).unwrap();
        for &(i, j) in &[(10, 10), (40, 30), (90, 70)] {
            let c = *coarse.at_2d::<core::Vec3b>(j, i).unwrap();
            let f = *fine.at_2d::<core::Vec3b>(j * 2, i * 2).unwrap();
            for k in 0..3 {
                assert!((c[k] as i32 - f[k] as i32).abs() <= 1, "{c:?} {f:?}");
            }
        }
        assert_eq!(r.coarse.mm_per_px, 2.0);
        assert_eq!(r.coarse.width, 101);
    }

    #[test]
    fn a_fine_view_is_the_frame_remapped_by_the_float_map_pixel_for_pixel() {
        let profile = sample_profile();
        let grid =
            RectifyGrid::covering(PointMm::new(-40.0, -30.0), PointMm::new(260.0, 190.0), 0.7).unwrap();
        let r = Rectification::new(&profile, grid).unwrap();
        // Noise: every bit of the interpolation shows.
        let mut frame = Mat::new_rows_cols_with_default(720, 1280, core::CV_8UC3, Scalar::all(0.0)).unwrap();
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        for y in 0..720 {
            for p in frame.at_row_mut::<core::Vec3b>(y).unwrap() {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                *p = core::Vec3b::from([x as u8, (x >> 8) as u8, (x >> 16) as u8]);
            }
        }
        let (float, _) = float_map(&profile, &grid).unwrap();
        for rect in [
            Rect::new(0, 0, grid.width as i32, grid.height as i32),
            Rect::new(37, 21, 90, 64),
        ] {
            let fine = r.fine_view(&frame, rect).unwrap();
            let mut want = Mat::default();
            imgproc::remap(
                &frame,
                &mut want,
                &Mat::roi(&float, rect).unwrap(),
                &Mat::default(),
                imgproc::INTER_LINEAR,
                core::BORDER_CONSTANT,
                Scalar::all(0.0),
            )
            .unwrap();
            assert_eq!((fine.rows(), fine.cols()), (rect.height, rect.width));
            let mut differ = 0;
            let mut seen = 0;
            for y in 0..rect.height {
                let (a, b) = (
                    fine.at_row::<core::Vec3b>(y).unwrap(),
                    want.at_row::<core::Vec3b>(y).unwrap(),
                );
                differ += a.iter().zip(b).filter(|(p, q)| p != q).count();
                seen += a.iter().filter(|p| p.0 != [0, 0, 0]).count();
            }
            assert_eq!(differ, 0, "{rect:?}");
            assert!(
                seen > (rect.area() / 2) as usize,
                "{rect:?}: the frame shows there"
            );
        }
    }
}
