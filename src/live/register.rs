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
//! profile for the moved view, on the same table frame: the ocean, the counter and every tracked
//! piece keep their coordinates, so the game goes on. A first correction that is only rigid (the
//! string's shift and turn, when the table has too few features) leaves the perspective of a
//! tilted camera (several mm at the table's edges): [`refine_profile`] then aligns the whole
//! table densely to the reference (`align`) for the full homography, and the camera pose is
//! solved again from it (PnP), so heights above the table keep their parallax.
//!
//! Conventions: reference-grid pixels (`RectifyGrid`: pixel `(i, j)` shows table point
//! `origin_mm + (i, j) * mm_per_px`); table millimetres; homographies as 3x3 matrices acting on
//! homogeneous column vectors; the profile's homography maps table mm to undistorted pixels.

use super::align::{AlignError, Alignment, align};
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
/// The most a believable correction may stretch or squash the table (largest relative change of
/// a lattice point's distance from the grid's centre). A bumped camera or table moves and turns
/// the table under the camera and tilts the view a little (the faults tests' bump, 1.5 degrees
/// and 12 mm, changes distances over the demo's grid by 2.8 % at most); it never stretches it.
/// Chance matches on a table with little texture do: on still synthetic tables (`octoref synth`
/// seeds 1, 3, 8, 36 frames) RANSAC found 25-50 "inliers" among 190-320 matches for corrections
/// that stretch it by 6 % to thousands of times, read as the view moved by 50-320 mm. (Where one
/// comes closer, the string check overrules it: see the worker's `check_view`.)
const MAX_STRETCH: f64 = 0.06;

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
    #[error(
        "the features' correction stretches the table by {stretch_percent:.0} % (a moved view is never stretched): chance matches"
    )]
    Implausible { stretch_percent: f64 },
    #[error("OpenCV: {0}")]
    OpenCv(String),
    #[error(transparent)]
    Align(#[from] AlignError),
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
    let stretch = max_stretch(&grid, &correction_mm).ok_or(RegisterError::Degenerate)?;
    tracing::debug!(
        "view check: {} features, {} of the reference's; {} matches, {inliers} agree; shift {shift_mm:.1} mm, stretch {:.1} %",
        keypoints.len(),
        reference.keypoints.len(),
        matches.len(),
        stretch * 100.0,
    );
    if stretch > MAX_STRETCH {
        return Err(RegisterError::Implausible {
            stretch_percent: stretch * 100.0,
        });
    }
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

/// The lattice of `SHIFT_LATTICE` x `SHIFT_LATTICE` table points (mm, cell centres) over the
/// grid on which a correction is measured.
fn lattice_mm(grid: &RectifyGrid) -> impl Iterator<Item = (f64, f64)> {
    let (min, max) = grid.bounds_mm();
    (0..SHIFT_LATTICE).flat_map(move |j| {
        (0..SHIFT_LATTICE).map(move |i| {
            (
                min.x + (max.x - min.x) * (i as f64 + 0.5) / SHIFT_LATTICE as f64,
                min.y + (max.y - min.y) * (j as f64 + 0.5) / SHIFT_LATTICE as f64,
            )
        })
    })
}

/// The median distance a lattice of table points over the grid moves under `h`, mm.
fn median_shift_mm(grid: &RectifyGrid, h: &Matrix3<f64>) -> Option<f64> {
    let mut d = Vec::with_capacity(SHIFT_LATTICE * SHIFT_LATTICE);
    for (x, y) in lattice_mm(grid) {
        let (u, v) = apply(h, x, y)?;
        d.push(((u - x).powi(2) + (v - y).powi(2)).sqrt());
    }
    d.sort_by(f64::total_cmp);
    d.get(d.len() / 2).copied().filter(|v| v.is_finite())
}

/// How much `h` stretches or squashes the table: the largest relative change, over a lattice
/// of table points, of a point's distance from the grid's centre (0 for a rigid motion).
fn max_stretch(grid: &RectifyGrid, h: &Matrix3<f64>) -> Option<f64> {
    let (min, max) = grid.bounds_mm();
    let (cx, cy) = ((min.x + max.x) / 2.0, (min.y + max.y) / 2.0);
    let (ux, uy) = apply(h, cx, cy)?;
    let mut worst: f64 = 0.0;
    for (x, y) in lattice_mm(grid) {
        let (u, v) = apply(h, x, y)?;
        let before = (x - cx).hypot(y - cy);
        let after = (u - ux).hypot(v - uy);
        worst = worst.max((after / before - 1.0).abs());
    }
    worst.is_finite().then_some(worst)
}

/// The profile for the moved view: `correction_mm` (current-profile mm -> true mm, from
/// [`check_view`]) folded into the homography; the camera pose re-solved from it when the
/// profile has intrinsics. `None` when the correction cannot be inverted.
pub fn corrected_profile(profile: &Profile, correction_mm: &Matrix3<f64>) -> Option<Profile> {
    let inv = correction_mm.try_inverse()?;
    profile_with_homography(profile, &(profile.homography.matrix() * inv))
}

/// `profile` with the table homography `h` (table mm -> undistorted pixels); when the profile has
/// a camera, its pose is solved again for `h` (PnP over a lattice of table points mapped by `h`,
/// the intrinsics kept), so heights above the table (parallax) stay right. `None` when `h` is
/// degenerate or no pose explains it.
pub fn profile_with_homography(profile: &Profile, h: &Matrix3<f64>) -> Option<Profile> {
    let homography = Homography::try_new(*h).ok()?;
    let mut out = profile.clone();
    out.homography = homography;
    let grid = profile.reference.as_ref().map(|r| r.grid);
    if let Some(cam) = out.camera.as_mut() {
        let k = cam.intrinsics.matrix();
        let guess = pose_from_homography(&k, h)?;
        cam.pose = match grid {
            Some(grid) => solve_pose(&k, h, &grid, &guess).unwrap_or(guess),
            None => guess,
        };
    }
    Some(out)
}

/// Points per side of the lattice of table points the pose is solved from.
const POSE_LATTICE: usize = 9;

/// The pose whose projection of the table plane best matches `h` over the grid's area
/// (iterative PnP from `guess`, no lens distortion: `h` maps to undistorted pixels).
fn solve_pose(k: &Matrix3<f64>, h: &Matrix3<f64>, grid: &RectifyGrid, guess: &Pose) -> Option<Pose> {
    let (min, max) = grid.bounds_mm();
    let mut object = Vector::<core::Point3d>::new();
    let mut image = Vector::<core::Point2d>::new();
    for j in 0..POSE_LATTICE {
        for i in 0..POSE_LATTICE {
            let x = min.x + (max.x - min.x) * (i as f64 + 0.5) / POSE_LATTICE as f64;
            let y = min.y + (max.y - min.y) * (j as f64 + 0.5) / POSE_LATTICE as f64;
            let (u, v) = apply(h, x, y)?;
            object.push(core::Point3d::new(x, y, 0.0));
            image.push(core::Point2d::new(u, v));
        }
    }
    let km = Mat::from_slice_2d(&[
        [k[(0, 0)], k[(0, 1)], k[(0, 2)]],
        [k[(1, 0)], k[(1, 1)], k[(1, 2)]],
        [k[(2, 0)], k[(2, 1)], k[(2, 2)]],
    ])
    .ok()?;
    let mut rvec = Mat::from_slice(&guess.rvec).ok()?.try_clone().ok()?;
    let mut tvec = Mat::from_slice(&guess.tvec).ok()?.try_clone().ok()?;
    let ok = calib3d::solve_pnp(
        &object,
        &image,
        &km,
        &Mat::default(),
        &mut rvec,
        &mut tvec,
        true,
        calib3d::SOLVEPNP_ITERATIVE,
    )
    .ok()?;
    let read = |m: &Mat| -> Option<[f64; 3]> {
        let mut v = [0.0; 3];
        for (i, x) in v.iter_mut().enumerate() {
            *x = *m.at::<f64>(i as i32).ok()?;
        }
        v.iter().all(|x| x.is_finite()).then_some(v)
    };
    let pose = Pose {
        rvec: read(&rvec)?,
        tvec: read(&tvec)?,
    };
    // The table in front of the camera.
    (ok && pose.camera_centre().z < 0.0).then_some(pose)
}

/// What a dense re-registration found.
#[derive(Debug, Clone)]
pub struct Refined {
    /// The profile for the view as the camera sees it now.
    pub profile: Profile,
    pub alignment: Alignment,
}

/// Re-fits `profile` (close to right: within a few mm, e.g. after [`corrected_profile`]) to the
/// camera's current view of the table: `frame` is rectified with it onto the `reference`'s grid,
/// aligned densely to the empty-table `reference` (a full homography, see `align`), and the
/// alignment folded into the profile's homography (and camera pose).
pub fn refine_profile(profile: &Profile, reference: &Mat, frame: &Mat) -> Result<Refined, RegisterError> {
    let grid = profile
        .reference
        .as_ref()
        .map(|r| r.grid)
        .ok_or(RegisterError::Degenerate)?;
    let rect = Rectification::new(profile, grid).map_err(|e| RegisterError::OpenCv(e.to_string()))?;
    let full = Rect::new(0, 0, grid.width as i32, grid.height as i32);
    let view = rect
        .fine_view(frame, full)
        .map_err(|e| RegisterError::OpenCv(e.to_string()))?;
    let alignment = align(reference, &view, &rect.fine_valid, Matrix3::identity())?;
    // Reference pixel q shows table point A q; the view shows it at W q, which the profile puts
    // at table point A W q, seen at pixel H A W q. So the table maps to pixels by H A W A^-1.
    let a = grid_to_mm(&grid);
    let a_inv = a.try_inverse().ok_or(RegisterError::Degenerate)?;
    let h = profile.homography.matrix() * a * alignment.reference_to_view * a_inv;
    let profile = profile_with_homography(profile, &h).ok_or(RegisterError::Degenerate)?;
    Ok(Refined { profile, alignment })
}

/// Reference-grid pixels -> table mm.
fn grid_to_mm(grid: &RectifyGrid) -> Matrix3<f64> {
    let s = grid.mm_per_px;
    Matrix3::new(s, 0.0, grid.origin_mm.x, 0.0, s, grid.origin_mm.y, 0.0, 0.0, 1.0)
}

/// How far table points over the grid's area move between two profiles' views, mm: the median
/// and the largest over a lattice (a pixel seen by `a` is read as a table point by `b`).
pub fn profile_shift_mm(a: &Profile, b: &Profile, grid: &RectifyGrid) -> Option<(f64, f64)> {
    let (min, max) = grid.bounds_mm();
    let mut d = Vec::with_capacity(SHIFT_LATTICE * SHIFT_LATTICE);
    for j in 0..SHIFT_LATTICE {
        for i in 0..SHIFT_LATTICE {
            let x = min.x + (max.x - min.x) * (i as f64 + 0.5) / SHIFT_LATTICE as f64;
            let y = min.y + (max.y - min.y) * (j as f64 + 0.5) / SHIFT_LATTICE as f64;
            let p = crate::table::PointMm::new(x, y);
            let q = b.px_to_mm(a.mm_to_px(p)?)?;
            d.push(p.distance(q));
        }
    }
    d.sort_by(f64::total_cmp);
    Some((*d.get(d.len() / 2)?, *d.last()?))
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
    use crate::live::config::VIEW_MOVED_MM;
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
    fn a_new_homography_gets_the_pose_that_explains_it() {
        let profile = crate::capture::demo::shipped_demo_profile().unwrap();
        let cam = profile.camera.clone().unwrap();
        // The camera bumped: turned 1.5 degrees about a slanted axis and moved 12 mm.
        let turn = Rotation3::from_axis_angle(
            &nalgebra::Unit::new_normalize(Vector3::new(0.3, -0.8, 0.5)),
            1.5_f64.to_radians(),
        );
        let r = turn * cam.pose.rotation();
        let c = cam.pose.camera_centre();
        let centre = Vector3::new(c.x + 8.0, c.y - 6.0, c.z + 6.0);
        let moved = crate::table::Camera {
            intrinsics: cam.intrinsics.clone(),
            pose: Pose::from_rotation(&r, -(r * centre)),
        };
        let h = *moved.table_homography().matrix();
        let out = profile_with_homography(&profile, &h).unwrap();
        let pose = &out.camera.as_ref().unwrap().pose;
        for i in 0..3 {
            assert!(
                (pose.rvec[i] - moved.pose.rvec[i]).abs() < 1e-6,
                "{pose:?} {:?}",
                moved.pose
            );
            assert!(
                (pose.tvec[i] - moved.pose.tvec[i]).abs() < 1e-3,
                "{pose:?} {:?}",
                moved.pose
            );
        }
        let p = PointMm::new(120.0, -60.0);
        let px = moved.project_table(p).unwrap();
        assert!(out.px_to_mm(px).unwrap().distance(p) < 1e-6);
    }

    #[test]
    fn a_bump_moves_the_table_without_stretching_it_and_chance_matches_stretch_it() {
        let profile = crate::capture::demo::shipped_demo_profile().unwrap();
        let cam = profile.camera.clone().unwrap();
        let grid = profile.reference.as_ref().unwrap().grid;
        // The camera bumped as the faults tests bump it: 1.5 degrees, 12 mm.
        let turn = Rotation3::from_axis_angle(
            &nalgebra::Unit::new_normalize(Vector3::new(0.3, -0.8, 0.5)),
            1.5_f64.to_radians(),
        );
        let r = turn * cam.pose.rotation();
        let c = cam.pose.camera_centre();
        let moved = crate::table::Camera {
            intrinsics: cam.intrinsics.clone(),
            pose: Pose::from_rotation(&r, -(r * Vector3::new(c.x + 8.0, c.y - 6.0, c.z + 6.0))),
        };
        let h = *cam.table_homography().matrix();
        let correction = moved.table_homography().matrix().try_inverse().unwrap() * h;
        assert!(median_shift_mm(&grid, &correction).unwrap() > VIEW_MOVED_MM);
        let stretch = max_stretch(&grid, &correction).unwrap();
        assert!(stretch < MAX_STRETCH, "{stretch}");
        // The correction (reference-grid pixels) chance matches gave on a still synthetic table
        // (`octoref synth --seed 3`, frame 11, calibrated by `octoref calibrate`): 79 mm "moved".
        let chance_px = Matrix3::new(0.823, 0.032, -6.57, -0.240, 0.936, 12.42, -2.4e-4, -1.37e-4, 1.0);
        let chance = px_to_mm_correction(&grid, &chance_px);
        assert!(max_stretch(&grid, &chance).unwrap() > MAX_STRETCH);
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
