//! The plane homography between the table (mm) and the camera image (px).
//!
//! Direction: the stored matrix maps table -> pixels, `[u v w]^T = H [x y 1]^T`. Its inverse maps
//! pixels back to the table plane (z = 0). Lens distortion is not part of a homography: callers
//! undistort pixels first when the profile has distortion.

use super::units::{PointMm, PointPx};
use nalgebra::{Matrix3, Vector3};
use serde::{Deserialize, Serialize};

/// Below this |w| a point maps to infinity (it lies on the horizon line).
const MIN_W: f64 = 1e-12;

/// Table (mm) -> image (px) plane homography and its inverse.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(try_from = "[[f64; 3]; 3]", into = "[[f64; 3]; 3]")]
pub struct Homography {
    to_px: Matrix3<f64>,
    to_mm: Matrix3<f64>,
}

/// A matrix that cannot be a plane homography.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("the homography matrix is singular or not finite")]
pub struct SingularHomography;

impl Homography {
    /// From a table -> pixel matrix. A singular matrix gets a zero inverse, so every
    /// `to_mm` returns `None`; prefer [`Homography::try_new`] for data from outside.
    pub fn new(to_px: Matrix3<f64>) -> Self {
        Self::try_new(to_px).unwrap_or(Self {
            to_px,
            to_mm: Matrix3::zeros(),
        })
    }

    pub fn try_new(to_px: Matrix3<f64>) -> Result<Self, SingularHomography> {
        if !to_px.iter().all(|v| v.is_finite()) {
            return Err(SingularHomography);
        }
        let to_mm = to_px.try_inverse().ok_or(SingularHomography)?;
        if !to_mm.iter().all(|v| v.is_finite()) {
            return Err(SingularHomography);
        }
        Ok(Self { to_px, to_mm })
    }

    pub fn matrix(&self) -> &Matrix3<f64> {
        &self.to_px
    }

    pub fn inverse_matrix(&self) -> &Matrix3<f64> {
        &self.to_mm
    }

    pub fn to_px(&self, p: PointMm) -> Option<PointPx> {
        apply(&self.to_px, p.x, p.y).map(|(x, y)| PointPx::new(x, y))
    }

    pub fn to_mm(&self, p: PointPx) -> Option<PointMm> {
        apply(&self.to_mm, p.x, p.y).map(|(x, y)| PointMm::new(x, y))
    }

    /// Millimetres per pixel around table point `p`: the mean length, in mm, of a one-pixel step
    /// in x and in y of the image at that point.
    pub fn mm_per_px_at(&self, p: PointMm) -> Option<f64> {
        let px = self.to_px(p)?;
        let a = self.to_mm(PointPx::new(px.x + 1.0, px.y))?;
        let b = self.to_mm(PointPx::new(px.x, px.y + 1.0))?;
        Some((a.distance(p) + b.distance(p)) / 2.0)
    }
}

fn apply(m: &Matrix3<f64>, x: f64, y: f64) -> Option<(f64, f64)> {
    let v = m * Vector3::new(x, y, 1.0);
    if v.z.abs() < MIN_W || !v.iter().all(|c| c.is_finite()) {
        return None;
    }
    Some((v.x / v.z, v.y / v.z))
}

impl TryFrom<[[f64; 3]; 3]> for Homography {
    type Error = SingularHomography;
    fn try_from(rows: [[f64; 3]; 3]) -> Result<Self, Self::Error> {
        let m = Matrix3::from_fn(|r, c| rows[r][c]);
        Self::try_new(m)
    }
}

impl From<Homography> for [[f64; 3]; 3] {
    fn from(h: Homography) -> Self {
        let m = h.to_px;
        [
            [m[(0, 0)], m[(0, 1)], m[(0, 2)]],
            [m[(1, 0)], m[(1, 1)], m[(1, 2)]],
            [m[(2, 0)], m[(2, 1)], m[(2, 2)]],
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_and_serde() {
        let m = Matrix3::new(1.8, 0.1, 300.0, -0.05, 1.7, 120.0, 0.0001, 0.0002, 1.0);
        let h = Homography::new(m);
        let p = PointMm::new(40.0, 80.0);
        let back = h.to_mm(h.to_px(p).unwrap()).unwrap();
        assert!(back.distance(p) < 1e-9);
        let json = serde_json::to_string(&h).unwrap();
        let h2: Homography = serde_json::from_str(&json).unwrap();
        assert!((h2.matrix() - h.matrix()).norm() < 1e-12);
        assert!(serde_json::from_str::<Homography>("[[0,0,0],[0,0,0],[0,0,0]]").is_err());
    }
}
