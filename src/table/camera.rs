//! The pinhole camera model shared by the renderer, calibration and vision.
//!
//! Conventions (OpenCV's, so a pose from `solvePnP` drops straight in):
//! - **Pose direction**: table -> camera. A table point `X` (mm, table frame, z into the table)
//!   maps to camera coordinates `Xc = R * X + t`; `R` is given as a Rodrigues vector `rvec`.
//!   The camera centre in the table frame is `C = -R^T * t`.
//! - Camera frame: x right, y down, z forward (along the optical axis). A camera above the table
//!   looking down has its z axis pointing roughly along the table's +z (into the table).
//! - Heights: a point `h` mm above the table has table z = `-h`.
//! - Intrinsics: `fx, fy, cx, cy` in pixels; distortion `[k1, k2, p1, p2, k3]` as OpenCV's 5-term
//!   model, applied to normalised coordinates before the focal lengths.

use super::homography::Homography;
use super::units::{PointMm, PointMm3, PointPx};
use nalgebra::{Matrix3, Rotation3, UnitQuaternion, Vector3};
use serde::{Deserialize, Serialize};

/// Undistortion stops after this many fixed-point iterations.
const UNDISTORT_ITERATIONS: usize = 20;
/// A point closer to the camera plane than this (mm) is treated as not visible.
const MIN_DEPTH_MM: f64 = 1e-6;

/// Pinhole intrinsics with OpenCV's 5-term distortion.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Intrinsics {
    pub width: u32,
    pub height: u32,
    pub fx: f64,
    pub fy: f64,
    pub cx: f64,
    pub cy: f64,
    /// `[k1, k2, p1, p2, k3]`.
    #[serde(default)]
    pub distortion: [f64; 5],
}

impl Intrinsics {
    /// Square pixels, centre at the image centre, no distortion, from a horizontal field of view.
    pub fn from_hfov(width: u32, height: u32, hfov_deg: f64) -> Self {
        let f = (width as f64 / 2.0) / (hfov_deg.to_radians() / 2.0).tan();
        Self {
            width,
            height,
            fx: f,
            fy: f,
            cx: width as f64 / 2.0,
            cy: height as f64 / 2.0,
            distortion: [0.0; 5],
        }
    }

    pub fn matrix(&self) -> Matrix3<f64> {
        Matrix3::new(self.fx, 0.0, self.cx, 0.0, self.fy, self.cy, 0.0, 0.0, 1.0)
    }

    pub fn has_distortion(&self) -> bool {
        self.distortion.iter().any(|&k| k != 0.0)
    }

    /// Normalised (undistorted) image coordinates -> distorted pixel.
    pub fn distort_normalised(&self, x: f64, y: f64) -> PointPx {
        let [k1, k2, p1, p2, k3] = self.distortion;
        let r2 = x * x + y * y;
        let radial = 1.0 + k1 * r2 + k2 * r2 * r2 + k3 * r2 * r2 * r2;
        let xd = x * radial + 2.0 * p1 * x * y + p2 * (r2 + 2.0 * x * x);
        let yd = y * radial + p1 * (r2 + 2.0 * y * y) + 2.0 * p2 * x * y;
        PointPx::new(self.fx * xd + self.cx, self.fy * yd + self.cy)
    }

    /// Distorted pixel -> normalised undistorted coordinates (iterative inverse, as OpenCV's
    /// `undistortPoints`).
    pub fn undistort_to_normalised(&self, p: PointPx) -> (f64, f64) {
        let xd = (p.x - self.cx) / self.fx;
        let yd = (p.y - self.cy) / self.fy;
        if !self.has_distortion() {
            return (xd, yd);
        }
        let [k1, k2, p1, p2, k3] = self.distortion;
        let (mut x, mut y) = (xd, yd);
        for _ in 0..UNDISTORT_ITERATIONS {
            let r2 = x * x + y * y;
            let radial = 1.0 + k1 * r2 + k2 * r2 * r2 + k3 * r2 * r2 * r2;
            let dx = 2.0 * p1 * x * y + p2 * (r2 + 2.0 * x * x);
            let dy = p1 * (r2 + 2.0 * y * y) + 2.0 * p2 * x * y;
            x = (xd - dx) / radial;
            y = (yd - dy) / radial;
        }
        (x, y)
    }

    /// The same camera at another resolution (scales focal lengths and centre).
    pub fn scaled_to(&self, width: u32, height: u32) -> Self {
        let sx = width as f64 / self.width as f64;
        let sy = height as f64 / self.height as f64;
        Self {
            width,
            height,
            fx: self.fx * sx,
            fy: self.fy * sy,
            cx: self.cx * sx,
            cy: self.cy * sy,
            distortion: self.distortion,
        }
    }
}

/// Rigid transform table -> camera (see the module conventions).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Pose {
    /// Rodrigues rotation vector (radians).
    pub rvec: [f64; 3],
    /// Translation, mm.
    pub tvec: [f64; 3],
}

impl Pose {
    pub fn from_rotation(rotation: &Rotation3<f64>, t: Vector3<f64>) -> Self {
        // Through the quaternion: `Rotation3::scaled_axis` loses the axis at 180 degrees (a
        // camera looking straight down is often turned half a turn about its optical axis).
        let r = UnitQuaternion::from_rotation_matrix(rotation).scaled_axis();
        Self {
            rvec: [r.x, r.y, r.z],
            tvec: [t.x, t.y, t.z],
        }
    }

    pub fn rotation(&self) -> Rotation3<f64> {
        Rotation3::new(Vector3::new(self.rvec[0], self.rvec[1], self.rvec[2]))
    }

    pub fn translation(&self) -> Vector3<f64> {
        Vector3::new(self.tvec[0], self.tvec[1], self.tvec[2])
    }

    /// The camera centre in the table frame (its z is negative: above the table).
    pub fn camera_centre(&self) -> PointMm3 {
        let c = -(self.rotation().inverse() * self.translation());
        PointMm3::new(c.x, c.y, c.z)
    }

    /// A camera at `eye` (table frame, z negative above the table) looking at `target`, with the
    /// image's "up" as close as possible to `up_hint` (a table-frame direction).
    pub fn look_at(eye: PointMm3, target: PointMm3, up_hint: Vector3<f64>) -> Option<Self> {
        let eye_v = Vector3::new(eye.x, eye.y, eye.z);
        let target_v = Vector3::new(target.x, target.y, target.z);
        let z = (target_v - eye_v).try_normalize(1e-12)?;
        // Camera y points down in the image, i.e. opposite to "up".
        let x = (-up_hint).cross(&z).try_normalize(1e-12)?;
        let y = z.cross(&x);
        // Rows of R are the camera axes expressed in the table frame.
        let r = Matrix3::from_rows(&[x.transpose(), y.transpose(), z.transpose()]);
        let rotation = Rotation3::from_matrix_unchecked(r);
        let t = -(r * eye_v);
        Some(Self::from_rotation(&rotation, t))
    }
}

/// A calibrated camera: intrinsics plus its pose over the table.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Camera {
    pub intrinsics: Intrinsics,
    pub pose: Pose,
}

impl Camera {
    /// Camera coordinates of a table point.
    pub fn to_camera(&self, p: PointMm3) -> Vector3<f64> {
        self.pose.rotation() * Vector3::new(p.x, p.y, p.z) + self.pose.translation()
    }

    /// Projects a 3D table point to a (distorted) pixel. `None` when it is behind the camera.
    pub fn project(&self, p: PointMm3) -> Option<PointPx> {
        let c = self.to_camera(p);
        if c.z <= MIN_DEPTH_MM {
            return None;
        }
        Some(self.intrinsics.distort_normalised(c.x / c.z, c.y / c.z))
    }

    /// Projects a point on the table (height 0).
    pub fn project_table(&self, p: PointMm) -> Option<PointPx> {
        self.project(PointMm3::above(p, 0.0))
    }

    /// The table point that lies `height_mm` above the table and is seen at pixel `px`, returned
    /// as its position on the table plane (the point straight below it). `None` when the ray
    /// through `px` does not meet that plane in front of the camera.
    pub fn unproject_at_height(&self, px: PointPx, height_mm: f64) -> Option<PointMm> {
        let (xn, yn) = self.intrinsics.undistort_to_normalised(px);
        let r_inv = self.pose.rotation().inverse();
        let dir = r_inv * Vector3::new(xn, yn, 1.0);
        let c = self.pose.camera_centre();
        let target_z = -height_mm;
        if dir.z.abs() < 1e-12 {
            return None;
        }
        let s = (target_z - c.z) / dir.z;
        if s <= 0.0 {
            return None;
        }
        Some(PointMm::new(c.x + s * dir.x, c.y + s * dir.y))
    }

    /// Where a point at `height_mm` above table point `p` appears, moved back to the table
    /// plane along the camera ray: the parallax shift a flat-table rectification would see.
    pub fn apparent_table_position(&self, p: PointMm, height_mm: f64) -> Option<PointMm> {
        let px = self.project(PointMm3::above(p, height_mm))?;
        self.unproject_at_height(px, 0.0)
    }

    /// The plane homography table (z = 0) -> pixels, ignoring lens distortion.
    pub fn table_homography(&self) -> Homography {
        let r = self.pose.rotation().into_inner();
        let t = self.pose.translation();
        let m = Matrix3::from_columns(&[r.column(0).into_owned(), r.column(1).into_owned(), t]);
        Homography::new(self.intrinsics.matrix() * m)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn overhead(tilt_deg: f64) -> Camera {
        let target = PointMm3::new(300.0, 200.0, 0.0);
        let d = 900.0;
        let tilt = tilt_deg.to_radians();
        let eye = PointMm3::new(target.x, target.y - d * tilt.sin(), -d * tilt.cos());
        Camera {
            intrinsics: Intrinsics::from_hfov(1280, 720, 70.0),
            pose: Pose::look_at(eye, target, Vector3::new(0.0, -1.0, 0.0)).unwrap(),
        }
    }

    #[test]
    fn look_at_centres_the_target() {
        for tilt in [0.0, 20.0, 35.0] {
            let cam = overhead(tilt);
            let px = cam.project_table(PointMm::new(300.0, 200.0)).unwrap();
            assert!(
                (px.x - 640.0).abs() < 1e-6 && (px.y - 360.0).abs() < 1e-6,
                "{px:?}"
            );
            let c = cam.pose.camera_centre();
            assert!(c.z < 0.0, "camera is above the table");
        }
    }

    #[test]
    fn project_unproject_round_trip_with_distortion() {
        let mut cam = overhead(30.0);
        cam.intrinsics.distortion = [-0.12, 0.05, 0.001, -0.0005, 0.0];
        for &(x, y, h) in &[(100.0, 50.0, 0.0), (500.0, 400.0, 20.0), (250.0, 260.0, 45.0)] {
            let p = PointMm::new(x, y);
            let px = cam.project(PointMm3::above(p, h)).unwrap();
            let back = cam.unproject_at_height(px, h).unwrap();
            assert!(back.distance(p) < 1e-6, "{p:?} -> {px:?} -> {back:?}");
        }
    }

    #[test]
    fn tall_points_lean_away_from_the_camera() {
        let cam = overhead(30.0);
        let c = cam.pose.camera_centre().on_table();
        let p = PointMm::new(300.0, 400.0);
        let seen = cam.apparent_table_position(p, 20.0).unwrap();
        assert!(seen.distance(c) > p.distance(c));
    }

    #[test]
    fn half_turn_rotations_survive_the_rotation_vector() {
        let r = Rotation3::from_matrix_unchecked(Matrix3::new(-1.0, 0.0, 0.0, 0.0, -1.0, 0.0, 0.0, 0.0, 1.0));
        let pose = Pose::from_rotation(&r, Vector3::new(1.0, 2.0, 900.0));
        assert!((pose.rotation().matrix() - r.matrix()).norm() < 1e-9);
    }

    #[test]
    fn homography_matches_projection_without_distortion() {
        let cam = overhead(25.0);
        let h = cam.table_homography();
        let p = PointMm::new(123.0, 321.0);
        let a = cam.project_table(p).unwrap();
        let b = h.to_px(p).unwrap();
        assert!(a.distance(b) < 1e-6);
    }
}
