//! Calibrating from ChArUco board captures: the homography table -> pixels, the camera's
//! intrinsics (from this one view, or from several views with lens distortion) and its pose.
//!
//! Conventions: the board defines the table frame (`board.rs`); corners are matched to table
//! points by their ChArUco id. The homography maps table mm to **undistorted** pixels (with no
//! distortion model they are the raw pixels). Reprojection errors are RMS distances in pixels.

use super::CalibrateError;
use super::aruco::{self, BoardDetection};
use super::board::BoardSpec;
use super::homography::{self, HomographyFit};
use super::pose::{self, BoardView};
use super::profile::{FocalSource, Method};
use crate::table::{Camera, Homography, PointPx};
use opencv::core::Mat;
use opencv::prelude::*;

/// Fewer ChArUco corners than this (of the standard board's 24) is "too few corners seen": the
/// homography would rest on a corner of the board and extrapolate badly across the ocean.
pub const MIN_BOARD_CORNERS: usize = 8;

/// What one board capture (plus optional lens views) tells about the camera.
#[derive(Debug, Clone)]
pub struct BoardCalibration {
    pub method: Method,
    /// Table mm -> undistorted pixels, least squares over the corners.
    pub homography: Homography,
    /// Intrinsics and pose.
    pub camera: Camera,
    /// RMS of the homography over the board corners (undistorted px).
    pub reprojection_px: f64,
    /// RMS of the full camera model (pose + intrinsics + distortion) over the corners (raw px).
    pub pose_reprojection_px: f64,
    pub focal: FocalSource,
    /// Overall RMS of the lens calibration over every view (multi-view only).
    pub intrinsics_rms_px: Option<f64>,
    pub markers_seen: usize,
    pub corners_used: usize,
    /// The board capture's corners (raw pixels), for overlays.
    pub detection: BoardDetection,
    /// The board's white paper as the camera saw it (BGR): the colour of the light, for white
    /// balance. `None` if too little of the board could be sampled.
    pub white_bgr: Option<[f64; 3]>,
}

/// Board points sampled for the paper's colour: a grid this fine over the board.
const PAPER_SAMPLE_STEP_MM: f64 = 2.0;
/// The brightest fraction of the board samples is its white (white squares are half the board
/// minus the markers' black bits; edges and noise sit lower).
const PAPER_WHITE_FRACTION: f64 = 0.25;

/// The colour of the board's white, from the brightest samples over the board area.
fn paper_white(image: &Mat, camera: &Camera, spec: &BoardSpec) -> Option<[f64; 3]> {
    let (w, h) = spec.size_mm();
    let mut samples: Vec<[f64; 3]> = Vec::new();
    let nx = (w / PAPER_SAMPLE_STEP_MM) as usize;
    let ny = (h / PAPER_SAMPLE_STEP_MM) as usize;
    for i in 0..nx {
        for j in 0..ny {
            let p = crate::table::PointMm::new(
                (i as f64 + 0.5) * PAPER_SAMPLE_STEP_MM,
                (j as f64 + 0.5) * PAPER_SAMPLE_STEP_MM,
            );
            if let Some(px) = camera.project_table(p)
                && let Some(bgr) = super::colour::sample_bgr(image, px.x, px.y)
            {
                samples.push(bgr);
            }
        }
    }
    if samples.len() < 100 {
        return None;
    }
    samples.sort_by(|a, b| (b[0] + b[1] + b[2]).total_cmp(&(a[0] + a[1] + a[2])));
    let top = &samples[..((samples.len() as f64 * PAPER_WHITE_FRACTION) as usize).max(1)];
    let mut white = [0.0; 3];
    for (c, w) in white.iter_mut().enumerate() {
        let mut v: Vec<f64> = top.iter().map(|s| s[c]).collect();
        v.sort_by(f64::total_cmp);
        *w = v[v.len() / 2];
    }
    white.iter().all(|&v| v > 1.0).then_some(white)
}

/// One view's k1 is kept only for a clear barrel lens (k1 below minus this). From a single board
/// view k1 is known to about +-0.02 (measured over 40 synthetic scenes: undistorted lenses gave
/// -0.02..+0.04), and webcam lenses are barrel; a smaller or positive estimate is noise that
/// would only add error far from the board.
const MIN_SINGLE_VIEW_BARREL_K1: f64 = 0.02;
/// A single view's k1 beyond this is not a webcam's lens but a fit gone wrong.
const MAX_SINGLE_VIEW_K1: f64 = 0.5;

/// The camera from the board view alone: principal point at the centre, square pixels, the focal
/// length from the homography, and the first radial distortion term when the corners clearly
/// show a barrel lens (see [`MIN_SINGLE_VIEW_BARREL_K1`]).
fn one_view_intrinsics(view: &BoardView, width: u32, height: u32, f_px: f64) -> crate::table::Intrinsics {
    let plain = pose::centred_intrinsics(width, height, f_px);
    match pose::single_view_lens(view, width, height, f_px, true) {
        Ok(lens)
            if lens.intrinsics.distortion[0] < -MIN_SINGLE_VIEW_BARREL_K1
                && lens.intrinsics.distortion[0] > -MAX_SINGLE_VIEW_K1 =>
        {
            lens.intrinsics
        }
        _ => plain,
    }
}

/// Detects the board in one capture and returns its corners as a [`BoardView`], or the reason
/// the capture cannot be used.
pub fn board_view(spec: &BoardSpec, image: &Mat) -> Result<(BoardView, BoardDetection), CalibrateError> {
    if image.empty() {
        return Err(CalibrateError::EmptyImage);
    }
    let det = aruco::detect(spec, image)?;
    if det.corners.is_empty() {
        return Err(CalibrateError::NoBoard {
            markers: det.markers_seen,
        });
    }
    if det.corners.len() < MIN_BOARD_CORNERS {
        return Err(CalibrateError::TooFewCorners {
            corners: det.corners.len(),
            total: spec.corner_count(),
            needed: MIN_BOARD_CORNERS,
            markers: det.markers_seen,
        });
    }
    let view = BoardView {
        table: det.corners.iter().map(|(id, _)| spec.corner_mm(*id)).collect(),
        image: det.corners.iter().map(|(_, p)| *p).collect(),
    };
    Ok((view, det))
}

/// Calibrates from the board capture alone (focal length from the view, no distortion) or, when
/// `lens_views` are given, with intrinsics and distortion calibrated over the board capture plus
/// those views. Errors name which capture failed via [`CalibrateError::View`].
pub fn calibrate(
    spec: &BoardSpec,
    image: &Mat,
    lens_views: &[(String, Mat)],
) -> Result<BoardCalibration, CalibrateError> {
    let (view, detection) = board_view(spec, image)?;
    let (width, height) = (image.cols() as u32, image.rows() as u32);
    let raw_fit = homography::fit(&view.table, &view.image)?;
    let estimate = pose::focal_from_homography(&raw_fit.homography, width, height);

    let (intrinsics, focal, intrinsics_rms_px, method) = if lens_views.is_empty() {
        (
            one_view_intrinsics(&view, width, height, estimate.f_px),
            estimate.source,
            None,
            Method::Charuco,
        )
    } else {
        let mut views = vec![view.clone()];
        for (name, img) in lens_views {
            if (img.cols() as u32, img.rows() as u32) != (width, height) {
                return Err(CalibrateError::View {
                    name: name.clone(),
                    source: Box::new(CalibrateError::ViewSize {
                        width: img.cols(),
                        height: img.rows(),
                        expected_width: width,
                        expected_height: height,
                    }),
                });
            }
            let (v, _) = board_view(spec, img).map_err(|e| CalibrateError::View {
                name: name.clone(),
                source: Box::new(e),
            })?;
            views.push(v);
        }
        let fit = pose::calibrate_intrinsics(&views, width, height, estimate.f_px)?;
        (
            fit.intrinsics,
            FocalSource::MultiView,
            Some(fit.rms_px),
            Method::CharucoMultiView,
        )
    };

    let pose_fit = pose::solve_pose(&view, &intrinsics)?;
    let HomographyFit {
        homography,
        rms_px: reprojection_px,
        ..
    } = if intrinsics.has_distortion() {
        let undistorted: Vec<PointPx> = view
            .image
            .iter()
            .map(|&p| {
                let (x, y) = intrinsics.undistort_to_normalised(p);
                PointPx::new(
                    intrinsics.fx * x + intrinsics.cx,
                    intrinsics.fy * y + intrinsics.cy,
                )
            })
            .collect();
        homography::fit(&view.table, &undistorted)?
    } else {
        raw_fit
    };
    let white_bgr = paper_white(image, &pose_fit.camera, spec);
    Ok(BoardCalibration {
        white_bgr,
        method,
        homography,
        camera: pose_fit.camera,
        reprojection_px,
        pose_reprojection_px: pose_fit.rms_px,
        focal,
        intrinsics_rms_px,
        markers_seen: detection.markers_seen,
        corners_used: view.table.len(),
        detection,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::calibrate::testscene::{self, SceneCamera};
    use crate::table::PointMm;

    #[test]
    fn board_views_calibrate_to_sub_pixel_and_sub_mm() {
        let spec = BoardSpec::default();
        for (seed, tilt) in [(1u64, 0.0), (2, 15.0), (3, 28.0), (4, 35.0)] {
            let cam = SceneCamera::looking_at_board(tilt, 40.0 * seed as f64, 1000.0, 68.0).camera();
            let img = testscene::board_capture(&cam, &spec, seed);
            let cal = calibrate(&spec, &img, &[]).unwrap();
            assert_eq!(cal.corners_used, 24, "seed {seed}");
            assert!(cal.reprojection_px < 0.5, "seed {seed}: {}", cal.reprojection_px);
            let mut worst: f64 = 0.0;
            for x in (0..=280).step_by(20) {
                for y in (0..=200).step_by(20) {
                    let p = PointMm::new(x as f64, y as f64);
                    let px = cam.project_table(p).unwrap();
                    worst = worst.max(cal.homography.to_mm(px).unwrap().distance(p));
                }
            }
            assert!(worst < 1.0, "seed {seed} tilt {tilt}: worst {worst} mm");
        }
    }

    #[test]
    fn a_blank_table_has_no_board() {
        let spec = BoardSpec::default();
        let cam = SceneCamera::looking_at_board(20.0, 0.0, 1000.0, 68.0).camera();
        let img = testscene::blank_capture(&cam, 5);
        match calibrate(&spec, &img, &[]) {
            Err(CalibrateError::NoBoard { markers }) => assert_eq!(markers, 0),
            other => panic!("expected NoBoard, got {other:?}"),
        }
    }
}

#[cfg(test)]
mod lens_tests {
    use super::*;
    use crate::calibrate::testscene::{self, SceneCamera};
    use crate::table::PointMm;

    /// Worst table-point error (mm) over a grid of points the camera sees, mapping pixels back
    /// with the calibration.
    fn worst_error(cal: &BoardCalibration, cam: &crate::table::Camera) -> f64 {
        let mut worst: f64 = 0.0;
        for x in (-300..=580).step_by(20) {
            for y in (-250..=450).step_by(20) {
                let p = PointMm::new(x as f64, y as f64);
                let Some(px) = cam.project_table(p) else { continue };
                if px.x < 20.0 || px.y < 20.0 || px.x > 1260.0 || px.y > 700.0 {
                    continue;
                }
                let k = &cal.camera.intrinsics;
                let (nx, ny) = k.undistort_to_normalised(px);
                let ideal = PointPx::new(k.fx * nx + k.cx, k.fy * ny + k.cy);
                worst = worst.max(cal.homography.to_mm(ideal).unwrap().distance(p));
            }
        }
        worst
    }

    #[test]
    fn lens_views_undo_barrel_distortion() {
        let spec = BoardSpec::default();
        let distortion = [-0.12, 0.03, 0.0, 0.0, 0.0];
        let mut main = SceneCamera::looking_at_board(20.0, 30.0, 1100.0, 70.0);
        main.distortion = distortion;
        let cam = main.camera();
        let board = testscene::board_capture(&cam, &spec, 41);
        // The same camera, the board moved around: seen closer, off-centre, tilted.
        let mut lens = Vec::new();
        for (i, (tilt, yaw, dx, dy)) in [
            (25.0, 10.0, 330.0, 170.0),
            (30.0, 100.0, -330.0, 170.0),
            (20.0, 200.0, 330.0, -170.0),
            (35.0, 290.0, -330.0, -170.0),
            (15.0, 45.0, 0.0, 0.0),
        ]
        .into_iter()
        .enumerate()
        {
            let mut sc = SceneCamera::looking_at_board(tilt, yaw, 750.0, 70.0);
            sc.distortion = distortion;
            let mut c = sc.camera();
            c.pose.tvec = [c.pose.tvec[0] + dx, c.pose.tvec[1] + dy, c.pose.tvec[2]];
            lens.push((
                format!("view{i}"),
                testscene::board_capture(&c, &spec, 50 + i as u64),
            ));
        }
        let single = calibrate(&spec, &board, &[]).unwrap();
        let multi = calibrate(&spec, &board, &lens).unwrap();
        assert_eq!(multi.method, Method::CharucoMultiView);
        let (e1, e2) = (worst_error(&single, &cam), worst_error(&multi, &cam));
        assert!(multi.reprojection_px < 0.5 && multi.pose_reprojection_px < 0.5);
        assert!(
            (multi.camera.intrinsics.distortion[0] - distortion[0]).abs() < 0.03,
            "{:?}",
            multi.camera.intrinsics
        );
        assert!(
            e2 < 3.0 && e2 < e1 / 2.0,
            "single view {e1:.2} mm, with lens views {e2:.2} mm"
        );
    }
}
