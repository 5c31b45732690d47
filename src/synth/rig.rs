//! The camera rig: a webcam on a stand or shelf above the table.
//!
//! Conventions (`table::camera`): pose table -> camera, table z into the table, so the camera at
//! height `H` has table z = `-H`. **Tilt** is the angle between the optical axis and the vertical;
//! **yaw** is the table-plane direction (degrees from +x towards +y) the camera looks towards
//! when tilted, which is also "up" in the image. The optical axis meets the table at the target
//! point, which appears at the principal point.

use crate::table::{Camera, Intrinsics, PointMm, PointMm3, Pose};
use nalgebra::Vector3;

/// Camera height above the table, mm.
pub const HEIGHT_RANGE_MM: (f64, f64) = (650.0, 1100.0);
/// Tilt of the optical axis from vertical, degrees.
pub const TILT_RANGE_DEG: (f64, f64) = (0.0, 35.0);
/// Horizontal field of view, degrees.
pub const HFOV_RANGE_DEG: (f64, f64) = (55.0, 75.0);
/// Share of scenes whose lens has radial distortion (when the spec does not say).
pub const DISTORTION_PROBABILITY: f64 = 0.5;
/// Radial distortion `k1` (barrel, as most webcams), `k2`, and the largest tangential term.
pub const K1_RANGE: (f64, f64) = (-0.15, -0.02);
pub const K2_RANGE: (f64, f64) = (0.0, 0.04);
pub const TANGENTIAL_MAX: f64 = 0.001;
/// Share of scenes at 1920x1080 (the rest at 1280x720) when the spec does not say.
pub const FULL_HD_PROBABILITY: f64 = 0.25;
/// The ocean (plus [`OCEAN_VIEW_MARGIN_MM`] around it) keeps this fraction of the image width
/// away from every image border.
pub const VIEW_MARGIN_FRACTION: f64 = 0.03;
/// Table band around the string that must be in view too: room for treasures just outside it.
pub const OCEAN_VIEW_MARGIN_MM: f64 = 45.0;
/// The board's squares must be at least this many pixels wide everywhere (else the printed board
/// is too small to read at that distance and the user is told to move the camera closer).
pub const BOARD_MIN_SQUARE_PX: f64 = 30.0;
/// Bisection steps when searching the lowest camera height that sees the whole ocean.
const HEIGHT_SEARCH_STEPS: usize = 24;

/// The camera at `height_mm` above the table, tilted by `tilt_deg` towards `yaw_deg`, whose
/// optical axis meets the table at `target`.
pub fn camera_looking_at(
    intrinsics: Intrinsics,
    target: PointMm,
    height_mm: f64,
    tilt_deg: f64,
    yaw_deg: f64,
) -> Option<Camera> {
    let (s, c) = yaw_deg.to_radians().sin_cos();
    let forward = PointMm::new(c, s);
    let back = height_mm * tilt_deg.to_radians().tan();
    let eye_xy = target - forward * back;
    let eye = PointMm3::new(eye_xy.x, eye_xy.y, -height_mm);
    let pose = Pose::look_at(eye, PointMm3::above(target, 0.0), Vector3::new(c, s, 0.0))?;
    Some(Camera { intrinsics, pose })
}

/// Whether a 3D table point is seen at least `margin_px` inside the image.
pub fn in_view(camera: &Camera, p: PointMm3, margin_px: f64) -> bool {
    let w = camera.intrinsics.width as f64;
    let h = camera.intrinsics.height as f64;
    match camera.project(p) {
        Some(px) => {
            px.x >= margin_px
                && px.y >= margin_px
                && px.x <= w - 1.0 - margin_px
                && px.y <= h - 1.0 - margin_px
        }
        None => false,
    }
}

/// The lowest camera height in `range` from which `fits` holds, found by bisection (`fits` must
/// hold from some height up, as seeing more table is monotonic in height). `None` when even the
/// highest camera fails.
pub(crate) fn lowest_fitting_height(range: (f64, f64), fits: impl Fn(f64) -> bool) -> Option<f64> {
    let (mut lo, mut hi) = range;
    if !fits(hi) {
        return None;
    }
    if fits(lo) {
        return Some(lo);
    }
    for _ in 0..HEIGHT_SEARCH_STEPS {
        let mid = 0.5 * (lo + hi);
        if fits(mid) {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    Some(hi)
}

/// The smallest size, in pixels, of one square of a board lying on the table frame's origin.
pub fn board_square_px(camera: &Camera, board_w_mm: f64, board_h_mm: f64, square_mm: f64) -> f64 {
    let mut min = f64::INFINITY;
    for &(x, y) in &[
        (0.0, 0.0),
        (board_w_mm, 0.0),
        (0.0, board_h_mm),
        (board_w_mm, board_h_mm),
    ] {
        let cx = if x > 0.0 { x - square_mm } else { x + square_mm };
        let cy = if y > 0.0 { y - square_mm } else { y + square_mm };
        let p = |a: f64, b: f64| camera.project_table(PointMm::new(a, b));
        if let (Some(o), Some(px), Some(py)) = (p(x, y), p(cx, y), p(x, cy)) {
            min = min.min(o.distance(px)).min(o.distance(py));
        } else {
            return 0.0;
        }
    }
    min
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tilted_camera_sits_back_from_its_target() {
        let k = Intrinsics::from_hfov(1280, 720, 70.0);
        let target = PointMm::new(140.0, 100.0);
        let cam = camera_looking_at(k, target, 900.0, 30.0, 90.0).unwrap();
        let c = cam.pose.camera_centre();
        assert!((c.z + 900.0).abs() < 1e-6, "{c:?}");
        assert!((c.y - (100.0 - 900.0 * 30f64.to_radians().tan())).abs() < 1e-6);
        let px = cam.project_table(target).unwrap();
        assert!((px.x - 640.0).abs() < 1e-6 && (px.y - 360.0).abs() < 1e-6);
        // Looking towards +y: farther table points appear higher in the image.
        let far = cam.project_table(PointMm::new(140.0, 300.0)).unwrap();
        assert!(far.y < 360.0);
    }

    #[test]
    fn height_search_finds_the_threshold() {
        let h = lowest_fitting_height(HEIGHT_RANGE_MM, |h| h >= 812.5).unwrap();
        assert!((h - 812.5).abs() < 0.1);
        assert!(lowest_fitting_height(HEIGHT_RANGE_MM, |_| false).is_none());
    }
}
