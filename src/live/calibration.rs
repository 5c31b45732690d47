//! What the live referee needs from a calibration: the profile and its empty-table reference,
//! and the two ways it is adjusted without calibrating again (frames of another size, a view that
//! moved a little).
//!
//! Conventions: the profile's homography maps table millimetres to undistorted camera pixels
//! (`table::homography`); the reference is the rectified empty table, BGR 8-bit, on the grid the
//! profile's `reference.grid` gives (table millimetres, not camera pixels — so it does not depend
//! on the camera's resolution).

use super::error::LiveError;
use crate::calibrate::Profile;
use crate::table::Homography;
use nalgebra::Matrix3;
use opencv::core::{Mat, Vector};
use opencv::imgcodecs;
use opencv::prelude::*;
use std::path::Path;

/// A profile with its empty-table reference image.
#[derive(Debug)]
pub struct LiveCalibration {
    pub profile: Profile,
    /// The rectified empty table, BGR 8-bit, on the profile's reference grid.
    pub reference: Mat,
}

impl Clone for LiveCalibration {
    fn clone(&self) -> Self {
        Self {
            profile: self.profile.clone(),
            // A deep copy: the reference is adapted (relit) in place of a copy, never shared.
            reference: self.reference.try_clone().unwrap_or_default(),
        }
    }
}

impl LiveCalibration {
    /// Reads a profile and the reference image it names (next to it). Errors name the file and
    /// the field.
    pub fn load(path: &Path) -> Result<Self, LiveError> {
        let profile = Profile::load(path)?;
        let reference_path = profile
            .reference_path(path)
            .ok_or_else(|| LiveError::NoReference {
                path: path.to_path_buf(),
            })?;
        let bad = |message: String| LiveError::Reference {
            path: reference_path.clone(),
            profile: path.to_path_buf(),
            message,
        };
        let bytes = crate::fsutil::read_input(&reference_path).map_err(|e| bad(e.to_string()))?;
        let reference = imgcodecs::imdecode(&Vector::<u8>::from_slice(&bytes), imgcodecs::IMREAD_COLOR)
            .map_err(|e| bad(format!("not a readable image ({e})")))?;
        if reference.empty() {
            return Err(bad("not a readable image (expected a PNG)".into()));
        }
        Ok(Self { profile, reference })
    }

    /// The built-in demo's calibration (compiled in: works from any directory).
    pub fn demo() -> Result<Self, LiveError> {
        let path = Path::new(crate::calibrate::profile::DEMO_PROFILE);
        let profile = crate::capture::demo::shipped_demo_profile().map_err(|e| LiveError::Reference {
            path: path.to_path_buf(),
            profile: path.to_path_buf(),
            message: e.to_string(),
        })?;
        let reference = imgcodecs::imdecode(
            &Vector::<u8>::from_slice(crate::capture::demo::DEMO_REFERENCE_PNG),
            imgcodecs::IMREAD_COLOR,
        )
        .map_err(crate::vision::VisionError::from)?;
        Ok(Self { profile, reference })
    }

    /// The calibration for frames of `width` x `height` when they have the calibrated frames'
    /// shape (aspect ratios within `aspect_tolerance`): the camera's pixels are scaled, the table
    /// side (reference, ocean, counter) stays. `None` when the shapes differ.
    pub fn scaled_to(&self, width: u32, height: u32, aspect_tolerance: f64) -> Option<Self> {
        let (w0, h0) = (self.profile.image_size.width, self.profile.image_size.height);
        if width == 0 || height == 0 || w0 == 0 || h0 == 0 {
            return None;
        }
        let sx = f64::from(width) / f64::from(w0);
        let sy = f64::from(height) / f64::from(h0);
        if ((sx - sy) / sx.max(sy)).abs() > aspect_tolerance {
            return None;
        }
        let mut profile = self.profile.clone();
        let scale = Matrix3::new(sx, 0.0, 0.0, 0.0, sy, 0.0, 0.0, 0.0, 1.0);
        profile.homography = Homography::try_new(scale * self.profile.homography.matrix()).ok()?;
        if let Some(cam) = profile.camera.as_mut() {
            cam.intrinsics = cam.intrinsics.scaled_to(width, height);
        }
        profile.image_size.width = width;
        profile.image_size.height = height;
        let s = (sx + sy) / 2.0;
        profile.mm_per_px /= s;
        profile.reprojection_px *= s;
        Some(Self {
            profile,
            reference: self.reference.try_clone().ok()?,
        })
    }

    /// The frame size the calibration is for, (width, height) pixels.
    pub fn frame_size(&self) -> (u32, u32) {
        (self.profile.image_size.width, self.profile.image_size.height)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::table::PointMm;

    fn demo() -> LiveCalibration {
        LiveCalibration::demo().unwrap()
    }

    #[test]
    fn scaling_keeps_table_points_on_the_scaled_pixels() {
        let cal = demo();
        let (w, h) = cal.frame_size();
        let half = cal.scaled_to(w / 2, h / 2, 0.01).unwrap();
        let p = PointMm::new(100.0, -50.0);
        let a = cal.profile.mm_to_px(p).unwrap();
        let b = half.profile.mm_to_px(p).unwrap();
        assert!(
            (a.x / 2.0 - b.x).abs() < 1e-6 && (a.y / 2.0 - b.y).abs() < 1e-6,
            "{a:?} {b:?}"
        );
        assert_eq!(half.frame_size(), (w / 2, h / 2));
        assert!(
            cal.scaled_to(w / 2, w / 2, 0.01).is_none(),
            "another shape is refused"
        );
    }

    #[test]
    fn loading_names_a_missing_reference() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("p.json");
        std::fs::write(&path, crate::capture::demo::DEMO_PROFILE_JSON).unwrap();
        let e = LiveCalibration::load(&path).unwrap_err().to_string();
        assert!(e.contains("demo_reference.png") && e.contains("reference"), "{e}");
        std::fs::write(
            dir.path().join("demo_reference.png"),
            crate::capture::demo::DEMO_REFERENCE_PNG,
        )
        .unwrap();
        let cal = LiveCalibration::load(&path).unwrap();
        assert!(!cal.reference.empty());
    }
}
