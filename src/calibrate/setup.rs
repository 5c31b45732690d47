//! Putting a calibration together: a profile from the board (or four points), then the set-up
//! capture's ocean, Octo-Counter and empty-table reference added to it.
//!
//! Conventions: as `profile.rs`. The reference image covers the ocean's bounding box plus
//! [`REFERENCE_MARGIN_MM`] at [`REFERENCE_MM_PER_PX`]; the search for the string covers what the
//! camera sees of the table, at most [`SEARCH_LIMIT_MM`] from the board's centre.

use super::board::BoardSpec;
use super::charuco::BoardCalibration;
use super::colour::WhiteBalance;
use super::counter::{self, CounterError, CounterReading};
use super::homography::HomographyFit;
use super::ocean::{self, OceanFit};
use super::pose;
use super::profile::{
    CalibrationSource, FORMAT_VERSION, FocalSource, ImageSize, Method, Profile, ReferenceImage, now_rfc3339,
};
use super::rectify::{self, Rectified, Rectifier, RectifyGrid};
use super::{CalibrateError, curve::ClosedCurve};
use crate::table::{PointMm, PointPx, PolygonMm};
use opencv::core::Mat;
use opencv::prelude::*;
use std::collections::BTreeMap;

/// Scale of the empty-table reference (vision's working scale).
pub const REFERENCE_MM_PER_PX: f64 = 1.0;
/// Table shown around the ocean in the reference.
pub const REFERENCE_MARGIN_MM: f64 = 80.0;
/// Scale the string is searched at.
pub const SEARCH_MM_PER_PX: f64 = 1.0;
/// The string is looked for at most this far from the board's centre.
pub const SEARCH_LIMIT_MM: f64 = 1500.0;

/// A profile for a board calibration (no ocean yet).
pub fn profile_from_board(cal: &BoardCalibration, spec: &BoardSpec) -> Profile {
    let k = &cal.camera.intrinsics;
    let mut p = Profile {
        format_version: FORMAT_VERSION,
        created: now_rfc3339(),
        method: cal.method,
        image_size: ImageSize {
            width: k.width,
            height: k.height,
        },
        homography: cal.homography.clone(),
        camera: Some(cal.camera.clone()),
        reprojection_px: cal.reprojection_px,
        mm_per_px: 0.0,
        board: Some(spec.clone()),
        source: CalibrationSource {
            markers_seen: cal.markers_seen,
            corners_used: cal.corners_used,
            focal: Some(cal.focal),
            ..Default::default()
        },
        ocean: None,
        counter: None,
        reference: None,
        taught: BTreeMap::new(),
        white_bgr: cal.white_bgr,
    };
    p.mm_per_px = scale(&p).centre;
    p
}

/// A profile from four clicked corners of a `rect_mm` rectangle. The camera is estimated from
/// those four points too (focal length from their homography, pose by IPPE): rougher than from
/// the board, but it lets heights be corrected; `None` when the points cannot give one.
pub fn profile_from_four_points(
    fit: &HomographyFit,
    points_px: [PointPx; 4],
    rect_mm: [f64; 2],
    width: u32,
    height: u32,
) -> Profile {
    let estimate = pose::focal_from_homography(&fit.homography, width, height);
    let view = pose::BoardView {
        table: vec![
            PointMm::new(0.0, 0.0),
            PointMm::new(rect_mm[0], 0.0),
            PointMm::new(rect_mm[0], rect_mm[1]),
            PointMm::new(0.0, rect_mm[1]),
        ],
        image: points_px.to_vec(),
    };
    let intrinsics = pose::centred_intrinsics(width, height, estimate.f_px);
    let camera = pose::solve_pose(&view, &intrinsics).ok().map(|f| f.camera);
    let mut p = Profile {
        format_version: FORMAT_VERSION,
        created: now_rfc3339(),
        method: Method::FourPoints,
        image_size: ImageSize { width, height },
        homography: fit.homography.clone(),
        reprojection_px: fit.rms_px,
        mm_per_px: 0.0,
        board: None,
        source: CalibrationSource {
            points_px: Some(points_px),
            rect_mm: Some(rect_mm),
            focal: camera.as_ref().map(|_| estimate.source),
            ..Default::default()
        },
        camera,
        ocean: None,
        counter: None,
        reference: None,
        taught: BTreeMap::new(),
        white_bgr: None,
    };
    p.mm_per_px = scale(&p).centre;
    p
}

/// Millimetres per pixel on the table at the image centre and around its edges.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Scale {
    pub centre: f64,
    /// Smallest and largest over the middles of the four edges and the four corners that see
    /// the table.
    pub edge_min: f64,
    pub edge_max: f64,
}

pub fn scale(profile: &Profile) -> Scale {
    let (w, h) = (
        (profile.image_size.width - 1) as f64,
        (profile.image_size.height - 1) as f64,
    );
    let at = |x: f64, y: f64| -> Option<f64> {
        let ideal = profile.undistort(PointPx::new(x, y));
        let p = profile.homography.to_mm(ideal)?;
        let m = profile.homography.mm_per_px_at(p)?;
        (m.is_finite() && m > 0.0).then_some(m)
    };
    let centre = at(w / 2.0, h / 2.0).unwrap_or(f64::NAN);
    let edges: Vec<f64> = [
        (w / 2.0, 0.0),
        (w / 2.0, h),
        (0.0, h / 2.0),
        (w, h / 2.0),
        (0.0, 0.0),
        (w, 0.0),
        (0.0, h),
        (w, h),
    ]
    .iter()
    .filter_map(|&(x, y)| at(x, y))
    .collect();
    Scale {
        centre,
        edge_min: edges.iter().copied().fold(f64::INFINITY, f64::min),
        edge_max: edges.iter().copied().fold(f64::NEG_INFINITY, f64::max),
    }
}

/// What the empty set-up capture gave.
#[derive(Debug)]
pub struct SetupReading {
    pub ocean: OceanFit,
    /// The counter, or why it could not be read (the profile is still usable without it).
    pub counter: Result<CounterReading, CounterError>,
    /// The rectified empty table around the ocean.
    pub reference: Rectified,
    pub white_balance: WhiteBalance,
}

/// Where the table the calibration is about lies: the board's centre, else the middle of the
/// image on the table.
fn table_centre(profile: &Profile) -> PointMm {
    if let Some(b) = &profile.board {
        let (w, h) = b.size_mm();
        return PointMm::new(w / 2.0, h / 2.0);
    }
    if let Some([w, h]) = profile.source.rect_mm {
        return PointMm::new(w / 2.0, h / 2.0);
    }
    let c = PointPx::new(
        profile.image_size.width as f64 / 2.0,
        profile.image_size.height as f64 / 2.0,
    );
    profile.px_to_mm(c).unwrap_or_default()
}

/// Finds the ocean, reads the counter and rectifies the empty table, then records all three in
/// `profile` (the reference under `reference_file`, relative to the profile). The ocean polygon
/// is turned to run from the counter's start when the counter was read.
pub fn add_setup(
    profile: &mut Profile,
    empty: &Mat,
    bead_count: usize,
    reference_file: &str,
) -> Result<SetupReading, CalibrateError> {
    if empty.empty() {
        return Err(CalibrateError::EmptyImage);
    }
    let (w, h) = (empty.cols() as u32, empty.rows() as u32);
    if (w, h) != (profile.image_size.width, profile.image_size.height) {
        return Err(CalibrateError::ViewSize {
            width: empty.cols(),
            height: empty.rows(),
            expected_width: profile.image_size.width,
            expected_height: profile.image_size.height,
        });
    }
    let centre = table_centre(profile);
    let (min, max) = rectify::visible_table_bounds(profile, centre, SEARCH_LIMIT_MM)
        .ok_or(CalibrateError::Ocean(ocean::OceanError::NoLoop { blue_mm2: 0.0 }))?;
    let grid = RectifyGrid::covering(min, max, SEARCH_MM_PER_PX)?;
    let rectifier = Rectifier::new(profile, grid)?;
    let view = rectifier.rectify(empty)?;
    let valid = rectifier.valid_mask();
    let wb = WhiteBalance::estimate_with_white(&view.image, Some(valid), profile.white_bgr)
        .ok_or(CalibrateError::Ocean(ocean::OceanError::NoLoop { blue_mm2: 0.0 }))?;
    let mut fit = ocean::find_ocean(&view, valid, &wb, profile)?;
    let mut counter = counter::read_counter(&view, &fit.polygon_mm, profile, &wb, bead_count);
    if let Ok(reading) = &counter
        && !reading.forward
        && let Some(line) = ClosedCurve::from_polygon(&fit.polygon_mm)
    {
        let reversed = line.reversed();
        counter = Ok(reading.on_reversed_string(line.perimeter()));
        fit.polygon_mm = PolygonMm::new(reversed.points().to_vec());
    }

    let (mut lo, mut hi) = (
        PointMm::new(f64::INFINITY, f64::INFINITY),
        PointMm::new(f64::NEG_INFINITY, f64::NEG_INFINITY),
    );
    for p in fit.polygon_mm.points() {
        lo = PointMm::new(lo.x.min(p.x), lo.y.min(p.y));
        hi = PointMm::new(hi.x.max(p.x), hi.y.max(p.y));
    }
    let margin = PointMm::new(REFERENCE_MARGIN_MM, REFERENCE_MARGIN_MM);
    let ref_grid = RectifyGrid::covering(lo - margin, hi + margin, REFERENCE_MM_PER_PX)?;
    let reference = Rectifier::new(profile, ref_grid)?.rectify(empty)?;

    profile.ocean = Some(fit.report());
    profile.counter = match &counter {
        Ok(r) => r.layout(&fit.polygon_mm),
        Err(_) => None,
    };
    profile.reference = Some(ReferenceImage {
        file: reference_file.to_string(),
        grid: ref_grid,
    });
    Ok(SetupReading {
        ocean: fit,
        counter,
        reference,
        white_balance: wb,
    })
}

/// Whether a profile's focal length was measured rather than assumed.
pub fn focal_measured(profile: &Profile) -> bool {
    !matches!(profile.source.focal, Some(FocalSource::AssumedFieldOfView))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::calibrate::charuco;
    use crate::calibrate::testscene::{SceneCamera, StringScene, board_capture};

    #[test]
    fn board_then_setup_gives_ocean_counter_and_reference() {
        let spec = BoardSpec::default();
        for (seed, tilt, seq, crab) in [
            (11u64, 0.0, "BBBKBBBKBBKBBKKK", 0usize),
            (12, 25.0, "BBKKBKBBBKBBKBKK", 5),
            (13, 35.0, "BKBKBBBKKBBBKBKK", 16),
        ] {
            let mut sc = SceneCamera::looking_at_board(tilt, seed as f64 * 70.0, 1150.0, 70.0);
            sc.target = crate::table::PointMm3::new(140.0, 100.0, 0.0);
            let cam = sc.camera();
            let board = board_capture(&cam, &spec, seed);
            let cal = charuco::calibrate(&spec, &board, &[]).unwrap();
            let mut profile = profile_from_board(&cal, &spec);
            let scene = StringScene::new(seed, seq, crab);
            let empty = scene.capture(&cam, seed + 100);
            let got = add_setup(&mut profile, &empty, 16, "ref.png").unwrap();
            // Ocean line against the true centre line.
            let truth = ClosedCurve::new(&scene.line).unwrap();
            let d: Vec<f64> = got
                .ocean
                .polygon_mm
                .points()
                .iter()
                .map(|&p| truth.project(p).1)
                .collect();
            let mean = d.iter().sum::<f64>() / d.len() as f64;
            let max = d.iter().copied().fold(0.0, f64::max);
            assert!(
                mean < 1.5 && max < 5.0,
                "seed {seed}: mean {mean:.2} max {max:.2}"
            );
            let c = got.counter.as_ref().unwrap();
            assert_eq!(c.beads.to_string(), seq, "seed {seed}");
            assert_eq!(c.crab, scene.crab, "seed {seed}");
            assert_eq!(scene.crab, crab);
            assert!(c.start_certain);
            let layout = profile.counter.as_ref().unwrap();
            for ((_, truth), got) in scene.beads.iter().zip(&layout.bead_positions_mm) {
                assert!(
                    truth.distance(*got) < 4.0,
                    "seed {seed}: bead {truth:?} read at {got:?}"
                );
            }
            assert!(profile.reference.is_some());
            assert!(got.reference.image.cols() > 600);

            // Later in the game the crab has walked: the profile's layout finds it.
            let moved = (crab + 7) % 17;
            let frame = StringScene::new(seed, seq, moved).capture(&cam, seed + 200);
            let grid = profile.reference.as_ref().unwrap().grid;
            let view = crate::calibrate::rectify::Rectifier::new(&profile, grid)
                .unwrap()
                .rectify(&frame)
                .unwrap();
            let wb = WhiteBalance::estimate_with_white(&view.image, None, profile.white_bgr).unwrap();
            let ocean = &profile.ocean.as_ref().unwrap().polygon_mm;
            let now = counter::locate_crab(&view, ocean, &profile, &wb, layout).unwrap();
            assert_eq!(now.crab, moved, "seed {seed}");
            assert_eq!(now.beads.to_string(), seq);
        }
    }
}
#[cfg(test)]
mod robustness {
    use super::*;
    use crate::calibrate::charuco;
    use crate::calibrate::testscene::{SceneCamera, StringScene, board_capture};

    #[test]
    fn ocean_and_counter_survive_things_across_the_string_and_shadows() {
        let spec = BoardSpec::default();
        let cam = SceneCamera::looking_at_board(18.0, 250.0, 1150.0, 70.0).camera();
        let cal = charuco::calibrate(&spec, &board_capture(&cam, &spec, 21), &[]).unwrap();
        let mut profile = profile_from_board(&cal, &spec);
        let mut scene = StringScene::new(21, "BBBKBBBKBBKBBKKK", 3);
        let line = ClosedCurve::new(&scene.line).unwrap();
        // A 40 mm wide box lying across the string far from the counter, and two shadows: one
        // over the string, one over the counter.
        let (far, _) = line.project(scene.beads[8].1);
        let s_box = far + line.perimeter() / 2.0;
        let t = line.tangent_at(s_box, 2.0);
        scene.occluders.push((
            line.point_at(s_box),
            40.0,
            t.y.atan2(t.x) + std::f64::consts::FRAC_PI_2,
        ));
        scene.shadows.push((line.point_at(s_box + 300.0), 60.0, 0.5));
        scene.shadows.push((scene.beads[5].1, 45.0, 0.6));
        let empty = scene.capture(&cam, 22);
        let got = add_setup(&mut profile, &empty, 16, "ref.png").unwrap();
        let d: Vec<f64> = got
            .ocean
            .polygon_mm
            .points()
            .iter()
            .map(|&p| line.project(p).1)
            .collect();
        let mean = d.iter().sum::<f64>() / d.len() as f64;
        let max = d.iter().copied().fold(0.0, f64::max);
        assert!(mean < 1.0 && max < 4.0, "mean {mean:.2} max {max:.2}");
        assert!(
            got.ocean.longest_gap_mm >= 14.0,
            "the box hid the cord: {}",
            got.ocean.longest_gap_mm
        );
        let c = got.counter.unwrap();
        assert_eq!(c.beads.to_string(), "BBBKBBBKBBKBBKKK");
        assert_eq!(c.crab, 3);
    }

    #[test]
    fn an_open_string_is_not_an_ocean() {
        let spec = BoardSpec::default();
        let cam = SceneCamera::looking_at_board(10.0, 0.0, 1150.0, 70.0).camera();
        let cal = charuco::calibrate(&spec, &board_capture(&cam, &spec, 31), &[]).unwrap();
        let mut profile = profile_from_board(&cal, &spec);
        let mut scene = StringScene::new(31, "BBBKBBBKBBKBBKKK", 0);
        // A 120 mm gap: the loop is not closed.
        let line = ClosedCurve::new(&scene.line).unwrap();
        let (s0, _) = line.project(scene.beads[0].1);
        let s_gap = line.wrap(s0 + line.perimeter() / 2.0);
        let keep: Vec<PointMm> = scene
            .line
            .iter()
            .copied()
            .filter(|&p| {
                let d = line.wrap(line.project(p).0 - s_gap);
                d.min(line.perimeter() - d) > 60.0
            })
            .collect();
        // Rotate so the gap falls between the last point and the first.
        let cut = (1..keep.len())
            .max_by(|&a, &b| {
                keep[a]
                    .distance(keep[a - 1])
                    .total_cmp(&keep[b].distance(keep[b - 1]))
            })
            .unwrap();
        scene.line = keep[cut..].iter().chain(&keep[..cut]).copied().collect();
        scene.closed = false;
        let empty = scene.capture(&cam, 32);
        let e = add_setup(&mut profile, &empty, 16, "ref.png").unwrap_err();
        assert!(e.to_string().contains("no closed string loop"), "{e}");
    }
}
