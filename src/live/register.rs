//! Has the view moved since calibration, and the quick re-registration that keeps the game.
//!
//! The check: the frame is rectified onto the empty-table reference's grid with the current
//! profile, and ORB features of that view are matched to the reference's (the string, the
//! Octo-Counter, the table's own texture: the cues that are there whether or not pieces are).
//! Pieces have no partner in the empty reference and hands move, so a RANSAC homography keeps
//! only the table. If the view has not moved, it is the identity; the median displacement it
//! gives over the table is how far the table appears shifted, in millimetres.
//!
//! The re-registration: that homography *is* the correction from where the current profile puts
//! table points to where they really are. Composed with the profile's homography it gives a
//! profile for the moved view (and the camera pose is re-derived from it), on the same table
//! frame: the ocean, the counter and every tracked piece keep their coordinates, so the game goes
//! on.
//!
//! Conventions: reference-grid pixels (`RectifyGrid`: pixel `(i, j)` shows table point
//! `origin_mm + (i, j) * mm_per_px`); table millimetres; homographies as 3x3 matrices acting on
//! homogeneous column vectors; the profile's homography maps table mm to undistorted pixels.

use crate::calibrate::Profile;
use crate::calibrate::rectify::RectifyGrid;
use crate::table::{Homography, Pose};
use crate::vision::rectify::Rectification;
use nalgebra::{Matrix3, Rotation3, Vector3};
use opencv::core::{self, DMatch, KeyPoint, Mat, Point2f, Rect, Vector};
use opencv::prelude::*;
use opencv::{calib3d, features2d, imgproc};

/// ORB features detected per image.
const ORB_FEATURES: i32 = 1500;
/// FAST threshold of ORB's corner test, grey levels (low: a table's texture is faint).
const ORB_FAST_THRESHOLD: i32 = 6;
/// CLAHE clip limit and tiles per side.
const CLAHE_CLIP: f64 = 3.0;
const CLAHE_TILES: i32 = 8;
/// RANSAC reprojection threshold, reference-grid pixels.
const RANSAC_THRESHOLD_PX: f64 = 2.0;
/// Points per side of the lattice over the table on which the displacement is measured.
const SHIFT_LATTICE: usize = 12;

/// What one view check found.
#[derive(Debug, Clone, PartialEq)]
pub struct ViewCheck {
    /// Feature matches the correction agrees with (RANSAC inliers).
    pub inliers: usize,
    /// Median displacement of the table under the correction, mm (0 = not moved).
    pub shift_mm: f64,
    /// Table mm as the current profile sees them -> true table mm.
    pub correction_mm: Matrix3<f64>,
}

/// Why a view check could not conclude.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum RegisterError {
    #[error("too few table features matched the empty-table reference ({found}, need {needed})")]
    TooFewMatches { found: usize, needed: usize },
    #[error("the correction is degenerate")]
    Degenerate,
    #[error("OpenCV: {0}")]
    OpenCv(String),
}

impl From<opencv::Error> for RegisterError {
    fn from(e: opencv::Error) -> Self {
        RegisterError::OpenCv(e.to_string())
    }
}

/// Grey, with local contrast stretched (CLAHE): a table's texture is faint, and ORB's corner
/// test needs contrast to find it; the same stretch on both images keeps descriptors comparable.
fn grey(image: &Mat) -> Result<Mat, opencv::Error> {
    let mut g = Mat::default();
    imgproc::cvt_color_def(image, &mut g, imgproc::COLOR_BGR2GRAY)?;
    let mut clahe = imgproc::create_clahe(CLAHE_CLIP, core::Size::new(CLAHE_TILES, CLAHE_TILES))?;
    let mut out = Mat::default();
    clahe.apply(&g, &mut out)?;
    Ok(out)
}

/// Features of the reference, computed once per reference.
#[derive(Debug)]
pub struct ReferenceFeatures {
    keypoints: Vector<KeyPoint>,
    descriptors: Mat,
}

impl ReferenceFeatures {
    pub fn of(reference: &Mat, mask: &Mat) -> Result<Self, RegisterError> {
        let (keypoints, descriptors) = orb(&grey(reference)?, mask)?;
        Ok(Self {
            keypoints,
            descriptors,
        })
    }
}

fn orb(grey: &Mat, mask: &Mat) -> Result<(Vector<KeyPoint>, Mat), RegisterError> {
    let mut detector = features2d::ORB::create(
        ORB_FEATURES,
        1.2,
        8,
        31,
        0,
        2,
        features2d::ORB_ScoreType::HARRIS_SCORE,
        31,
        ORB_FAST_THRESHOLD,
    )?;
    let mut keypoints = Vector::<KeyPoint>::new();
    let mut descriptors = Mat::default();
    detector.detect_and_compute(grey, mask, &mut keypoints, &mut descriptors, false)?;
    Ok((keypoints, descriptors))
}

/// Checks a raw frame against the reference: see the module docs. `min_matches` is
/// [`super::config::VIEW_MIN_MATCHES`].
pub fn check_view(
    rect: &Rectification,
    frame: &Mat,
    reference: &ReferenceFeatures,
    min_matches: usize,
) -> Result<ViewCheck, RegisterError> {
    let grid = rect.fine;
    let full = Rect::new(0, 0, grid.width as i32, grid.height as i32);
    let view = rect
        .fine_view(frame, full)
        .map_err(|e| RegisterError::OpenCv(e.to_string()))?;
    let (keypoints, descriptors) = orb(&grey(&view)?, &rect.fine_valid)?;
    if keypoints.len() < min_matches || reference.keypoints.len() < min_matches {
        return Err(RegisterError::TooFewMatches {
            found: keypoints.len().min(reference.keypoints.len()),
            needed: min_matches,
        });
    }
    let matcher = features2d::BFMatcher::new(core::NORM_HAMMING, true)?;
    let mut matches = Vector::<DMatch>::new();
    matcher.train_match(
        &descriptors,
        &reference.descriptors,
        &mut matches,
        &Mat::default(),
    )?;
    if matches.len() < min_matches {
        return Err(RegisterError::TooFewMatches {
            found: matches.len(),
            needed: min_matches,
        });
    }
    let mut from = Vector::<Point2f>::new();
    let mut to = Vector::<Point2f>::new();
    for m in &matches {
        from.push(keypoints.get(m.query_idx as usize)?.pt());
        to.push(reference.keypoints.get(m.train_idx as usize)?.pt());
    }
    let mut inlier_mask = Mat::default();
    let h = calib3d::find_homography(&from, &to, &mut inlier_mask, calib3d::RANSAC, RANSAC_THRESHOLD_PX)?;
    if h.empty() {
        return Err(RegisterError::Degenerate);
    }
    let inliers = core::count_non_zero(&inlier_mask)? as usize;
    if inliers < min_matches {
        return Err(RegisterError::TooFewMatches {
            found: inliers,
            needed: min_matches,
        });
    }
    let mut h_px = Matrix3::zeros();
    for r in 0..3 {
        for c in 0..3 {
            h_px[(r, c)] = *h.at_2d::<f64>(r as i32, c as i32)?;
        }
    }
    let correction_mm = px_to_mm_correction(&grid, &h_px);
    let shift_mm = median_shift_mm(&grid, &correction_mm).ok_or(RegisterError::Degenerate)?;
    Ok(ViewCheck {
        inliers,
        shift_mm,
        correction_mm,
    })
}

/// A reference-grid pixel homography as a table-mm homography.
fn px_to_mm_correction(grid: &RectifyGrid, h_px: &Matrix3<f64>) -> Matrix3<f64> {
    let s = grid.mm_per_px;
    let (ox, oy) = (grid.origin_mm.x, grid.origin_mm.y);
    let a = Matrix3::new(s, 0.0, ox, 0.0, s, oy, 0.0, 0.0, 1.0);
    let a_inv = Matrix3::new(1.0 / s, 0.0, -ox / s, 0.0, 1.0 / s, -oy / s, 0.0, 0.0, 1.0);
    a * h_px * a_inv
}

fn apply(h: &Matrix3<f64>, x: f64, y: f64) -> Option<(f64, f64)> {
    let v = h * Vector3::new(x, y, 1.0);
    (v.z.abs() > 1e-12).then(|| (v.x / v.z, v.y / v.z))
}

/// The median distance a lattice of table points over the grid moves under `h`, mm.
fn median_shift_mm(grid: &RectifyGrid, h: &Matrix3<f64>) -> Option<f64> {
    let (min, max) = grid.bounds_mm();
    let mut d = Vec::with_capacity(SHIFT_LATTICE * SHIFT_LATTICE);
    for j in 0..SHIFT_LATTICE {
        for i in 0..SHIFT_LATTICE {
            let x = min.x + (max.x - min.x) * (i as f64 + 0.5) / SHIFT_LATTICE as f64;
            let y = min.y + (max.y - min.y) * (j as f64 + 0.5) / SHIFT_LATTICE as f64;
            let (u, v) = apply(h, x, y)?;
            d.push(((u - x).powi(2) + (v - y).powi(2)).sqrt());
        }
    }
    d.sort_by(f64::total_cmp);
    d.get(d.len() / 2).copied().filter(|v| v.is_finite())
}

/// The profile for the moved view: `correction_mm` (current-profile mm -> true mm, from
/// [`check_view`]) folded into the homography; the camera pose re-derived from it when the
/// profile has intrinsics. `None` when the correction cannot be inverted.
pub fn corrected_profile(profile: &Profile, correction_mm: &Matrix3<f64>) -> Option<Profile> {
    let inv = correction_mm.try_inverse()?;
    let h = profile.homography.matrix() * inv;
    let homography = Homography::try_new(h).ok()?;
    let mut out = profile.clone();
    out.homography = homography;
    if let Some(cam) = out.camera.as_mut() {
        cam.pose = pose_from_homography(&cam.intrinsics.matrix(), &h)?;
    }
    Some(out)
}

/// The pose `[R | t]` with `K [r1 r2 t] ~ h` (table z = 0 -> undistorted pixels), the rotation
/// made orthonormal; the table in front of the camera (t.z > 0).
fn pose_from_homography(k: &Matrix3<f64>, h: &Matrix3<f64>) -> Option<Pose> {
    let m = k.try_inverse()? * h;
    let (m1, m2, m3) = (m.column(0), m.column(1), m.column(2));
    let norm = (m1.norm() + m2.norm()) / 2.0;
    if norm <= 1e-12 {
        return None;
    }
    let mut lambda = 1.0 / norm;
    if m3.z * lambda < 0.0 {
        lambda = -lambda;
    }
    let r1: Vector3<f64> = m1 * lambda;
    let r2: Vector3<f64> = m2 * lambda;
    let r3 = r1.cross(&r2);
    let t: Vector3<f64> = m3 * lambda;
    let r = Matrix3::from_columns(&[r1, r2, r3]);
    let svd = r.svd(true, true);
    let (u, v_t) = (svd.u?, svd.v_t?);
    let mut rot = u * v_t;
    if rot.determinant() < 0.0 {
        rot = -rot;
    }
    Some(Pose::from_rotation(&Rotation3::from_matrix_unchecked(rot), t))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::table::PointMm;

    #[test]
    fn the_pose_comes_back_from_its_own_homography() {
        let profile = crate::capture::demo::shipped_demo_profile().unwrap();
        let cam = profile.camera.clone().unwrap();
        let h = *cam.table_homography().matrix();
        let pose = pose_from_homography(&cam.intrinsics.matrix(), &h).unwrap();
        for i in 0..3 {
            assert!(
                (pose.tvec[i] - cam.pose.tvec[i]).abs() < 1e-6,
                "{pose:?} {:?}",
                cam.pose
            );
            assert!(
                (pose.rvec[i] - cam.pose.rvec[i]).abs() < 1e-6,
                "{pose:?} {:?}",
                cam.pose
            );
        }
    }

    #[test]
    fn a_correction_moves_table_points_to_where_the_pixels_are() {
        let profile = crate::capture::demo::shipped_demo_profile().unwrap();
        // The view shows every point 5 mm further along x than the profile thinks.
        let correction = Matrix3::new(1.0, 0.0, 5.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0);
        let fixed = corrected_profile(&profile, &correction).unwrap();
        let p = PointMm::new(30.0, 40.0);
        let px = profile.mm_to_px(p).unwrap();
        let q = fixed.px_to_mm(px).unwrap();
        assert!((q.x - 35.0).abs() < 1e-6 && (q.y - 40.0).abs() < 1e-6, "{q:?}");
        let grid = profile.reference.as_ref().unwrap().grid;
        assert!((median_shift_mm(&grid, &correction).unwrap() - 5.0).abs() < 1e-9);
    }
}
