//! The one adapter between octoref and OpenCV's ArUco API.
//!
//! Today this is OpenCV 4.6's contrib API (`cv::aruco::CharucoBoard::create`, `detectMarkers`,
//! `interpolateCornersCharuco`). Moving to 4.7+'s objdetect API (`CharucoDetector`) touches only
//! this file. Everything outside speaks [`BoardSpec`], [`PointPx`] and plain structs.
//!
//! Pixel convention: OpenCV's, integer coordinates are pixel centres. OpenCV 4.6 leaves the
//! ChArUco corners where a coarse sub-pixel pass stopped (its minimum accuracy is 0.1 px and it
//! starts from integer marker corners), which measured about half a pixel right and down of the
//! true corners on rendered boards; [`detect`] therefore refines every corner again with a strict
//! `cornerSubPix`, which brings them within a few hundredths of a pixel on average.

use super::board::BoardSpec;
use crate::table::PointPx;
use opencv::core::{Mat, Point2f, Ptr, Size, TermCriteria, Vector};
use opencv::prelude::*;
use opencv::{aruco, core, imgproc};

/// OpenCV failed inside the ArUco adapter.
#[derive(Debug, thiserror::Error)]
pub enum ArucoError {
    #[error("unsupported ArUco dictionary {0:?}; expected DICT_4X4_50")]
    Dictionary(String),
    #[error("OpenCV: {0}")]
    OpenCv(#[from] opencv::Error),
}

/// The final corner refinement: half window = this fraction of the distance to the nearest other
/// corner (about one square), clamped to [`MIN_SUBPIX_HALF_WINDOW`, `MAX_SUBPIX_HALF_WINDOW`] px,
/// so the window stays inside the four squares around the corner.
const SUBPIX_WINDOW_FRACTION: f64 = 0.1;
const MIN_SUBPIX_HALF_WINDOW: i32 = 2;
const MAX_SUBPIX_HALF_WINDOW: i32 = 5;
const SUBPIX_MAX_ITERATIONS: i32 = 100;
const SUBPIX_EPSILON_PX: f64 = 1e-4;

/// Markers and ChArUco corners found in one image.
#[derive(Debug, Clone, Default)]
pub struct BoardDetection {
    /// How many ArUco markers were seen.
    pub markers_seen: usize,
    /// Marker ids with their four corners (OpenCV's order: clockwise from top-left of the marker).
    pub markers: Vec<(i32, [PointPx; 4])>,
    /// Interpolated ChArUco corners: (corner id, sub-pixel position).
    pub corners: Vec<(usize, PointPx)>,
}

fn dictionary(spec: &BoardSpec) -> Result<Ptr<aruco::Dictionary>, ArucoError> {
    if spec.dictionary != "DICT_4X4_50" {
        return Err(ArucoError::Dictionary(spec.dictionary.clone()));
    }
    Ok(aruco::get_predefined_dictionary(
        aruco::PREDEFINED_DICTIONARY_NAME::DICT_4X4_50,
    )?)
}

fn board(spec: &BoardSpec) -> Result<Ptr<aruco::CharucoBoard>, ArucoError> {
    let dict = dictionary(spec)?;
    Ok(aruco::CharucoBoard::create(
        spec.squares_x as i32,
        spec.squares_y as i32,
        spec.square_mm as f32,
        spec.marker_mm as f32,
        &dict,
    )?)
}

/// Draws the board (black and white, 8-bit grey) at `px_per_mm`, with a white margin of
/// `margin_px` on every side. The board area's top-left pixel is the table-frame origin and image
/// y runs along table y (OpenCV 4.6 draws it so; the detection test checks it).
pub fn draw_board(spec: &BoardSpec, px_per_mm: f64, margin_px: i32) -> Result<Mat, ArucoError> {
    let mut b = board(spec)?;
    let (w_mm, h_mm) = spec.size_mm();
    let w = (w_mm * px_per_mm).round() as i32;
    let h = (h_mm * px_per_mm).round() as i32;
    let mut inner = Mat::default();
    b.draw(Size::new(w, h), &mut inner, 0, 1)?;
    let mut out = Mat::default();
    core::copy_make_border(
        &inner,
        &mut out,
        margin_px,
        margin_px,
        margin_px,
        margin_px,
        core::BORDER_CONSTANT,
        core::Scalar::all(255.0),
    )?;
    Ok(out)
}

/// Finds the board's markers and ChArUco corners in an 8-bit grey or BGR image.
pub fn detect(spec: &BoardSpec, image: &Mat) -> Result<BoardDetection, ArucoError> {
    let grey = if image.channels() == 1 {
        image.clone()
    } else {
        let mut g = Mat::default();
        imgproc::cvt_color_def(image, &mut g, imgproc::COLOR_BGR2GRAY)?;
        g
    };
    let dict = dictionary(spec)?;
    let mut corners: Vector<Vector<Point2f>> = Vector::new();
    let mut ids: Vector<i32> = Vector::new();
    let params = aruco::DetectorParameters::create()?;
    let mut rejected: Vector<Vector<Point2f>> = Vector::new();
    aruco::detect_markers(&grey, &dict, &mut corners, &mut ids, &params, &mut rejected)?;
    let mut det = BoardDetection {
        markers_seen: ids.len(),
        ..Default::default()
    };
    for (id, quad) in ids.iter().zip(corners.iter()) {
        if quad.len() == 4 {
            let p = |i: usize| {
                let q = quad.get(i).unwrap_or_default();
                PointPx::new(q.x as f64, q.y as f64)
            };
            det.markers.push((id, [p(0), p(1), p(2), p(3)]));
        }
    }
    if ids.is_empty() {
        return Ok(det);
    }
    let b = board(spec)?;
    let mut ch_corners: Vector<Point2f> = Vector::new();
    let mut ch_ids: Vector<i32> = Vector::new();
    aruco::interpolate_corners_charuco_def(&corners, &ids, &grey, &b, &mut ch_corners, &mut ch_ids)?;
    let found: Vec<(i32, Point2f)> = ch_ids.iter().zip(ch_corners.iter()).collect();
    for (k, &(id, c)) in found.iter().enumerate() {
        if id < 0 {
            continue;
        }
        let nearest = found
            .iter()
            .enumerate()
            .filter(|(j, _)| *j != k)
            .map(|(_, (_, o))| ((o.x - c.x) as f64).hypot((o.y - c.y) as f64))
            .fold(f64::INFINITY, f64::min);
        let half = if nearest.is_finite() {
            ((nearest * SUBPIX_WINDOW_FRACTION).round() as i32)
                .clamp(MIN_SUBPIX_HALF_WINDOW, MAX_SUBPIX_HALF_WINDOW)
        } else {
            MIN_SUBPIX_HALF_WINDOW
        };
        let mut one: Vector<Point2f> = Vector::from_slice(&[c]);
        let inside = c.x >= (half + 2) as f32
            && c.y >= (half + 2) as f32
            && c.x < (grey.cols() - half - 2) as f32
            && c.y < (grey.rows() - half - 2) as f32;
        if inside {
            imgproc::corner_sub_pix(
                &grey,
                &mut one,
                Size::new(half, half),
                Size::new(-1, -1),
                TermCriteria::new(
                    core::TermCriteria_COUNT + core::TermCriteria_EPS,
                    SUBPIX_MAX_ITERATIONS,
                    SUBPIX_EPSILON_PX,
                )?,
            )?;
        }
        let r = one.get(0).unwrap_or(c);
        det.corners
            .push((id as usize, PointPx::new(r.x as f64, r.y as f64)));
    }
    det.corners.sort_by_key(|(id, _)| *id);
    Ok(det)
}

/// OpenCV's object point (mm) of ChArUco corner `id`, as the board defines it.
pub fn opencv_corner_object_point(spec: &BoardSpec, id: usize) -> Result<[f64; 3], ArucoError> {
    let b = board(spec)?;
    let pts = b.chessboard_corners();
    let p = pts.get(id)?;
    Ok([p.x as f64, p.y as f64, p.z as f64])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn object_points_match_board_spec() {
        let spec = BoardSpec::default();
        for id in 0..spec.corner_count() {
            let p = opencv_corner_object_point(&spec, id).unwrap();
            let q = spec.corner_mm(id);
            assert!(
                (p[0] - q.x).abs() < 1e-3 && (p[1] - q.y).abs() < 1e-3,
                "corner {id}: {p:?} vs {q:?}"
            );
        }
    }

    #[test]
    fn drawn_board_is_detected_in_table_frame_layout() {
        let spec = BoardSpec::default();
        let px_per_mm = 3.0;
        let margin = 60;
        let img = draw_board(&spec, px_per_mm, margin).unwrap();
        let det = detect(&spec, &img).unwrap();
        assert_eq!(det.markers_seen, 17, "7x5 board has 17 markers");
        assert_eq!(det.corners.len(), spec.corner_count());
        for (id, px) in &det.corners {
            let mm = spec.corner_mm(*id);
            let ex = mm.x * px_per_mm + margin as f64;
            let ey = mm.y * px_per_mm + margin as f64;
            assert!(
                (px.x - ex).abs() < 2.0 && (px.y - ey).abs() < 2.0,
                "corner {id} at {px:?}, expected ({ex}, {ey})"
            );
        }
    }
}
