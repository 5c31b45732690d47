//! The camera: intrinsics from one board view or from several, and its pose over the table.
//!
//! Conventions: `table::Camera`'s — pose table -> camera (`Xc = R X + t`), table z into the table
//! (the camera centre has a negative z), intrinsics in pixels with OpenCV's 5-term distortion,
//! principal point of an estimated camera at `(width / 2, height / 2)` as
//! `Intrinsics::from_hfov` puts it. Board corners are given as table points (mm) and raw pixels.
//!
//! One view: the focal length follows from the board's homography (Zhang's two constraints on
//! the rotation's first two columns, with square pixels and the principal point at the image
//! centre). A view straight down cannot tell the focal length; a prior (a typical webcam's field
//! of view, [`ASSUMED_HFOV_DEG`]) is blended in with a weight that makes it count only when the
//! board is seen within a few degrees of straight on. Several views: OpenCV's `calibrateCamera`
//! with radial distortion.

use super::profile::FocalSource;
use crate::table::{Camera, Homography, Intrinsics, PointMm, PointPx, Pose};
use nalgebra::{Matrix3, Vector3};
use opencv::calib3d;
use opencv::core::{self, Mat, Point2f, Point3d, Point3f, Size, TermCriteria, Vector};
use opencv::prelude::*;

/// The field of view assumed when one view cannot tell the focal length (table.md: "a typical
/// webcam, about 70 degrees horizontal").
pub const ASSUMED_HFOV_DEG: f64 = 70.0;
/// The focal-length prior counts as much as the board's evidence when sin^2(tilt) equals this
/// (about 6 degrees of tilt); at 15 degrees the board outweighs it 40 to 1.
const FOCAL_PRIOR_TILT_SIN2: f64 = 0.01;
/// Plausible horizontal fields of view for a webcam; an estimate outside is not trusted.
const MIN_HFOV_DEG: f64 = 20.0;
const MAX_HFOV_DEG: f64 = 130.0;
/// A planar pose needs at least four points (IPPE); the board pipeline asks for more.
pub const MIN_POSE_POINTS: usize = 4;
/// With fewer views than this the principal point is held at the image centre, and k2 at 0.
const MIN_VIEWS_FOR_PRINCIPAL_POINT: usize = 4;
/// k2 (the fourth-order radial term) is fitted only when some corner lies at least this far out,
/// as a fraction of the half-diagonal: without corners near the frame's edges it is unconstrained
/// and extrapolates wildly (seen: k2 = -1.2 from views covering the middle of the frame).
const K2_MIN_COVERAGE: f64 = 0.75;

/// The pose or intrinsics could not be estimated.
#[derive(Debug, thiserror::Error)]
pub enum PoseError {
    #[error("need at least {MIN_POSE_POINTS} points for the camera pose, got {0}")]
    TooFewPoints(usize),
    #[error("the board seems to be seen from below the table; the corners are inconsistent")]
    BelowTable,
    #[error("calibrating the lens needs at least 2 board views with corners, got {0}")]
    TooFewViews(usize),
    #[error("the camera calibration did not converge (result not finite)")]
    NotConverged,
    #[error("OpenCV: {0}")]
    OpenCv(#[from] opencv::Error),
}

/// The focal length told by one board view.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FocalEstimate {
    pub f_px: f64,
    pub source: FocalSource,
}

/// A camera fitted to board corners, with its reprojection error.
#[derive(Debug, Clone, PartialEq)]
pub struct PoseFit {
    pub camera: Camera,
    /// RMS image distance between the corners and the camera's projection of them.
    pub rms_px: f64,
}

/// One board view: corners as table points and where they were seen (raw pixels).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct BoardView {
    pub table: Vec<PointMm>,
    pub image: Vec<PointPx>,
}

/// Intrinsics calibrated over several views.
#[derive(Debug, Clone, PartialEq)]
pub struct IntrinsicsFit {
    pub intrinsics: Intrinsics,
    /// OpenCV's overall RMS reprojection error over every view, px.
    pub rms_px: f64,
    pub views: usize,
}

/// Focal length (px) from a table -> pixel homography, for a camera with square pixels and its
/// principal point at the image centre.
pub fn focal_from_homography(h: &Homography, width: u32, height: u32) -> FocalEstimate {
    let w = width as f64;
    let prior_f = Intrinsics::from_hfov(width, height, ASSUMED_HFOV_DEG).fx / w;
    let prior = FocalEstimate {
        f_px: prior_f * w,
        source: FocalSource::AssumedFieldOfView,
    };
    // Pixel coordinates relative to the principal point, in units of the image width.
    let t = Matrix3::new(
        1.0 / w,
        0.0,
        -0.5,
        0.0,
        1.0 / w,
        -(height as f64) / (2.0 * w),
        0.0,
        0.0,
        1.0,
    );
    let a = t * h.matrix();
    let (a1, a2) = (a.column(0), a.column(1));
    let s = (a1.x * a1.x + a1.y * a1.y + a2.x * a2.x + a2.y * a2.y) / 2.0;
    if !(s.is_finite() && s > 0.0) {
        return prior;
    }
    // Each constraint reads c + u d = 0 with u = f^2 (f in image widths).
    let c1 = (a1.x * a2.x + a1.y * a2.y) / s;
    let d1 = a1.z * a2.z / s;
    let c2 = (a1.x * a1.x + a1.y * a1.y - a2.x * a2.x - a2.y * a2.y) / s;
    let d2 = (a1.z * a1.z - a2.z * a2.z) / s;
    let u0 = prior_f * prior_f;
    let prior_weight = (FOCAL_PRIOR_TILT_SIN2 / u0).powi(2);
    let data_weight = d1 * d1 + d2 * d2;
    let u = (-(c1 * d1 + c2 * d2) + prior_weight * u0) / (data_weight + prior_weight);
    if !(u.is_finite() && u > 0.0) {
        return prior;
    }
    let f = u.sqrt();
    let hfov = 2.0 * (0.5 / f).atan().to_degrees();
    if !(MIN_HFOV_DEG..=MAX_HFOV_DEG).contains(&hfov) {
        return prior;
    }
    FocalEstimate {
        f_px: f * w,
        source: if data_weight >= prior_weight {
            FocalSource::BoardView
        } else {
            FocalSource::AssumedFieldOfView
        },
    }
}

/// Intrinsics with square pixels, the principal point at the image centre, no distortion.
pub fn centred_intrinsics(width: u32, height: u32, f_px: f64) -> Intrinsics {
    Intrinsics {
        width,
        height,
        fx: f_px,
        fy: f_px,
        cx: width as f64 / 2.0,
        cy: height as f64 / 2.0,
        distortion: [0.0; 5],
    }
}

fn camera_matrix(k: &Intrinsics) -> Result<Mat, opencv::Error> {
    Mat::from_slice_2d(&[[k.fx, 0.0, k.cx], [0.0, k.fy, k.cy], [0.0, 0.0, 1.0]])
}

fn dist_coeffs(k: &Intrinsics) -> Result<Mat, opencv::Error> {
    Mat::from_slice(&k.distortion)?.try_clone()
}

fn vec3(m: &Mat) -> Result<[f64; 3], opencv::Error> {
    Ok([*m.at::<f64>(0)?, *m.at::<f64>(1)?, *m.at::<f64>(2)?])
}

/// The camera pose from board corners (table mm, raw px) for known intrinsics: IPPE (made for
/// planar targets) then Levenberg-Marquardt on the reprojection error.
pub fn solve_pose(view: &BoardView, intrinsics: &Intrinsics) -> Result<PoseFit, PoseError> {
    let n = view.table.len().min(view.image.len());
    if n < MIN_POSE_POINTS {
        return Err(PoseError::TooFewPoints(n));
    }
    let obj: Vector<Point3d> = view.table[..n]
        .iter()
        .map(|p| Point3d::new(p.x, p.y, 0.0))
        .collect();
    let img: Vector<core::Point2d> = view.image[..n]
        .iter()
        .map(|p| core::Point2d::new(p.x, p.y))
        .collect();
    let k = camera_matrix(intrinsics)?;
    let d = dist_coeffs(intrinsics)?;
    let mut rvec = Mat::default();
    let mut tvec = Mat::default();
    calib3d::solve_pnp(
        &obj,
        &img,
        &k,
        &d,
        &mut rvec,
        &mut tvec,
        false,
        calib3d::SOLVEPNP_IPPE,
    )?;
    calib3d::solve_pnp_refine_lm_def(&obj, &img, &k, &d, &mut rvec, &mut tvec)?;
    let camera = Camera {
        intrinsics: intrinsics.clone(),
        pose: Pose {
            rvec: vec3(&rvec)?,
            tvec: vec3(&tvec)?,
        },
    };
    let above = camera.pose.camera_centre().z < 0.0;
    if !above {
        return Err(PoseError::BelowTable);
    }
    let rms_px = reprojection_rms(&camera, view).ok_or(PoseError::BelowTable)?;
    Ok(PoseFit { camera, rms_px })
}

/// RMS image distance between a view's corners and the camera's projection of their table points.
pub fn reprojection_rms(camera: &Camera, view: &BoardView) -> Option<f64> {
    let n = view.table.len().min(view.image.len());
    if n == 0 {
        return Some(0.0);
    }
    let mut sum = 0.0;
    for (t, i) in view.table.iter().zip(&view.image) {
        let p = camera.project_table(*t)?;
        sum += p.distance(*i).powi(2);
    }
    Some((sum / n as f64).sqrt())
}

/// Intrinsics with radial distortion (k1, k2) from several board views of the same camera.
/// `f_guess_px` starts the focal length (e.g. from [`focal_from_homography`]).
pub fn calibrate_intrinsics(
    views: &[BoardView],
    width: u32,
    height: u32,
    f_guess_px: f64,
) -> Result<IntrinsicsFit, PoseError> {
    let used: Vec<&BoardView> = views
        .iter()
        .filter(|v| v.table.len().min(v.image.len()) >= MIN_POSE_POINTS)
        .collect();
    if used.len() < 2 {
        return Err(PoseError::TooFewViews(used.len()));
    }
    let mut flags = calib3d::CALIB_USE_INTRINSIC_GUESS
        | calib3d::CALIB_FIX_ASPECT_RATIO
        | calib3d::CALIB_ZERO_TANGENT_DIST
        | calib3d::CALIB_FIX_K3;
    if used.len() < MIN_VIEWS_FOR_PRINCIPAL_POINT {
        flags |= calib3d::CALIB_FIX_PRINCIPAL_POINT;
    }
    if used.len() < MIN_VIEWS_FOR_PRINCIPAL_POINT || coverage(&used, width, height) < K2_MIN_COVERAGE {
        flags |= calib3d::CALIB_FIX_K2;
    }
    run_calibrate_camera(&used, width, height, f_guess_px, flags)
}

/// One view's lens: the first radial term k1 (barrel or pincushion) fitted together with the
/// pose, the principal point held at the centre and square pixels; the focal length is fitted
/// too unless `fix_focal` (a view straight down cannot tell it).
pub fn single_view_lens(
    view: &BoardView,
    width: u32,
    height: u32,
    f_px: f64,
    fix_focal: bool,
) -> Result<IntrinsicsFit, PoseError> {
    let mut flags = calib3d::CALIB_USE_INTRINSIC_GUESS
        | calib3d::CALIB_FIX_PRINCIPAL_POINT
        | calib3d::CALIB_FIX_ASPECT_RATIO
        | calib3d::CALIB_ZERO_TANGENT_DIST
        | calib3d::CALIB_FIX_K2
        | calib3d::CALIB_FIX_K3;
    if fix_focal {
        flags |= calib3d::CALIB_FIX_FOCAL_LENGTH;
    }
    run_calibrate_camera(&[view], width, height, f_px, flags)
}

fn run_calibrate_camera(
    used: &[&BoardView],
    width: u32,
    height: u32,
    f_guess_px: f64,
    flags: i32,
) -> Result<IntrinsicsFit, PoseError> {
    if used
        .iter()
        .any(|v| v.table.len().min(v.image.len()) < MIN_POSE_POINTS)
        || used.is_empty()
    {
        return Err(PoseError::TooFewViews(used.len()));
    }
    let mut obj: Vector<Vector<Point3f>> = Vector::new();
    let mut img: Vector<Vector<Point2f>> = Vector::new();
    for v in used {
        obj.push(
            v.table
                .iter()
                .map(|p| Point3f::new(p.x as f32, p.y as f32, 0.0))
                .collect(),
        );
        img.push(
            v.image
                .iter()
                .map(|p| Point2f::new(p.x as f32, p.y as f32))
                .collect(),
        );
    }
    let guess = centred_intrinsics(width, height, f_guess_px);
    let mut k = camera_matrix(&guess)?;
    let mut d = Mat::from_slice(&[0.0f64; 5])?.try_clone()?;
    let mut rvecs: Vector<Mat> = Vector::new();
    let mut tvecs: Vector<Mat> = Vector::new();
    let criteria = TermCriteria::new(core::TermCriteria_COUNT + core::TermCriteria_EPS, 100, 1e-10)?;
    let rms_px = calib3d::calibrate_camera(
        &obj,
        &img,
        Size::new(width as i32, height as i32),
        &mut k,
        &mut d,
        &mut rvecs,
        &mut tvecs,
        flags,
        criteria,
    )?;
    let at = |r: i32, c: i32| k.at_2d::<f64>(r, c).copied();
    let mut distortion = [0.0; 5];
    for (i, v) in distortion.iter_mut().enumerate() {
        *v = *d.at::<f64>(i as i32)?;
    }
    let intrinsics = Intrinsics {
        width,
        height,
        fx: at(0, 0)?,
        fy: at(1, 1)?,
        cx: at(0, 2)?,
        cy: at(1, 2)?,
        distortion,
    };
    let finite = [intrinsics.fx, intrinsics.fy, intrinsics.cx, intrinsics.cy, rms_px]
        .iter()
        .chain(distortion.iter())
        .all(|v| v.is_finite());
    if !finite || intrinsics.fx <= 0.0 {
        return Err(PoseError::NotConverged);
    }
    Ok(IntrinsicsFit {
        intrinsics,
        rms_px,
        views: used.len(),
    })
}

/// How far out the views' corners reach: the largest distance from the image centre as a
/// fraction of the half-diagonal.
fn coverage(views: &[&BoardView], width: u32, height: u32) -> f64 {
    let (cx, cy) = (width as f64 / 2.0, height as f64 / 2.0);
    let half_diagonal = cx.hypot(cy);
    views
        .iter()
        .flat_map(|v| v.image.iter())
        .map(|p| (p.x - cx).hypot(p.y - cy) / half_diagonal)
        .fold(0.0, f64::max)
}

/// The tilt of the camera's optical axis from straight down, degrees.
pub fn tilt_deg(pose: &Pose) -> f64 {
    let axis = pose.rotation().inverse() * Vector3::new(0.0, 0.0, 1.0);
    axis.z.clamp(-1.0, 1.0).acos().to_degrees()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::table::PointMm3;

    fn camera(tilt_deg: f64, yaw_deg: f64, hfov: f64) -> Camera {
        let target = PointMm3::new(140.0, 100.0, 0.0);
        let d = 1000.0;
        let (t, y) = (tilt_deg.to_radians(), yaw_deg.to_radians());
        let eye = PointMm3::new(
            target.x - d * t.sin() * y.cos(),
            target.y - d * t.sin() * y.sin(),
            -d * t.cos(),
        );
        Camera {
            intrinsics: Intrinsics::from_hfov(1280, 720, hfov),
            pose: Pose::look_at(eye, target, Vector3::new(y.cos(), y.sin(), 0.0) * -1.0)
                .or_else(|| Pose::look_at(eye, target, Vector3::new(0.0, -1.0, 0.0)))
                .unwrap(),
        }
    }

    fn corners() -> Vec<PointMm> {
        (0..24)
            .map(|i| PointMm::new(40.0 * (i % 6 + 1) as f64, 40.0 * (i / 6 + 1) as f64))
            .collect()
    }

    #[test]
    fn focal_from_a_tilted_view() {
        for (tilt, yaw, hfov) in [(20.0, 0.0, 70.0), (35.0, 50.0, 60.0), (15.0, 130.0, 75.0)] {
            let cam = camera(tilt, yaw, hfov);
            let f = focal_from_homography(&cam.table_homography(), 1280, 720);
            assert_eq!(f.source, FocalSource::BoardView, "tilt {tilt}");
            let rel = (f.f_px - cam.intrinsics.fx).abs() / cam.intrinsics.fx;
            assert!(
                rel < 0.02,
                "tilt {tilt} yaw {yaw}: {} vs {}",
                f.f_px,
                cam.intrinsics.fx
            );
        }
    }

    #[test]
    fn straight_down_falls_back_to_the_assumed_webcam() {
        let cam = camera(0.0, 0.0, 60.0);
        let f = focal_from_homography(&cam.table_homography(), 1280, 720);
        assert_eq!(f.source, FocalSource::AssumedFieldOfView);
        let expect = Intrinsics::from_hfov(1280, 720, ASSUMED_HFOV_DEG).fx;
        assert!((f.f_px - expect).abs() / expect < 0.01);
    }

    #[test]
    fn pose_recovers_the_camera() {
        let cam = camera(30.0, 20.0, 70.0);
        let table = corners();
        let image: Vec<PointPx> = table.iter().map(|&p| cam.project_table(p).unwrap()).collect();
        let fit = solve_pose(&BoardView { table, image }, &cam.intrinsics).unwrap();
        assert!(fit.rms_px < 1e-3, "{}", fit.rms_px);
        let c = fit.camera.pose.camera_centre();
        let e = cam.pose.camera_centre();
        let err = ((c.x - e.x).powi(2) + (c.y - e.y).powi(2) + (c.z - e.z).powi(2)).sqrt();
        assert!(err < 0.1, "centre {c:?} vs {e:?}");
        assert!((tilt_deg(&fit.camera.pose) - 30.0).abs() < 0.01);
    }

    #[test]
    fn lens_calibration_from_several_views() {
        let mut views = Vec::new();
        let mut truth = None;
        // The board seen near the middle and near each corner of the frame.
        let aims = [
            (25.0, 0.0, 0.0, 0.0),
            (30.0, 90.0, 260.0, 150.0),
            (20.0, 200.0, -260.0, 150.0),
            (35.0, 300.0, 260.0, -150.0),
            (10.0, 45.0, -260.0, -150.0),
            (28.0, 150.0, 0.0, 160.0),
        ];
        for (tilt, yaw, dx, dy) in aims {
            let mut cam = camera(tilt, yaw, 65.0);
            // Moving the camera sideways (in its own frame) puts the board off-centre.
            cam.pose.tvec = [cam.pose.tvec[0] + dx, cam.pose.tvec[1] + dy, cam.pose.tvec[2]];
            cam.intrinsics.distortion = [-0.08, 0.02, 0.0, 0.0, 0.0];
            let table: Vec<PointMm> = corners();
            let image: Vec<PointPx> = table.iter().map(|&p| cam.project_table(p).unwrap()).collect();
            assert!(
                image
                    .iter()
                    .all(|p| p.x > 0.0 && p.y > 0.0 && p.x < 1280.0 && p.y < 720.0)
            );
            views.push(BoardView { table, image });
            truth = Some(cam);
        }
        let truth = truth.unwrap();
        let fit = calibrate_intrinsics(&views, 1280, 720, 900.0).unwrap();
        assert!(fit.rms_px < 0.01, "{}", fit.rms_px);
        assert!(
            (fit.intrinsics.fx - truth.intrinsics.fx).abs() < 2.0,
            "{:?}",
            fit.intrinsics
        );
        assert!(
            (fit.intrinsics.distortion[0] + 0.08).abs() < 0.01,
            "{:?}",
            fit.intrinsics
        );
        assert!(calibrate_intrinsics(&views[..1], 1280, 720, 900.0).is_err());
    }
}
