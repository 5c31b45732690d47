//! Fitting one piece's pose (footprint centre and angle) to what the camera saw.
//!
//! Conventions: table frame, millimetres, radians (angle from +x towards +y, as the catalog's
//! footprints). The evidence is a [`WeightMap`] over the fine view: positive where a pixel
//! shows the piece's colour, negative where it shows bare table or another piece, zero where it
//! cannot tell (a shadow, a pixel another piece already explains). The fit maximises the
//! silhouette's integral over those weights: the solid seen from the camera (`view.rs`) must
//! cover the piece's pixels and nothing else. Its footprint is then where the piece touches the
//! table, parallax included.
//!
//! Search: from a start point and a few start angles, a pattern search over the translation
//! (the silhouette is moved, not recomputed: a few millimetres change the lean by hundredths of
//! a millimetre), then over translation and angle together, shrinking the steps to an eighth
//! of a millimetre.

use super::raster::{ScoreScratch, WeightMap};
use super::solid::{Solid, convex_hull};
use super::view::{Pose2, Silhouette, Viewpoint};
use crate::table::{PointMm, PolygonMm};

/// First translation step, mm, and the smallest.
const STEP_START_MM: f64 = 2.0;
const STEP_MIN_MM: f64 = 0.125;
/// First angle step of the joint search, and the smallest, radians.
const ANGLE_STEP_START: f64 = 0.06;
const ANGLE_STEP_MIN: f64 = 0.004;
/// Most pattern-search moves per step size.
const MAX_MOVES: usize = 12;
/// Start angles refined jointly (the best ones after the translation-only search).
const REFINED_STARTS: usize = 2;
/// Scan-line spacing of [`union_area_mm2`], mm.
const AREA_SCAN_MM: f64 = 0.25;

/// A fitted pose and how well it explains the pixels.
#[derive(Debug, Clone, PartialEq)]
pub struct Fit {
    pub pose: Pose2,
    /// Integral of the weights over the silhouette (pixels).
    pub gain: f64,
    /// The silhouette's area in fine pixels.
    pub area_px: f64,
    pub silhouette: Silhouette,
}

impl Fit {
    /// Gain per silhouette pixel: about the share of the silhouette that shows the piece.
    pub fn quality(&self) -> f64 {
        if self.area_px > 0.0 { self.gain / self.area_px } else { 0.0 }
    }
}

/// The area centroid of the convex hull of a silhouette (a cheap, stable centre).
pub fn silhouette_centre(sil: &Silhouette) -> Option<PointMm> {
    let pts: Vec<PointMm> = sil.polygons.iter().flatten().copied().collect();
    let hull = convex_hull(&pts);
    (hull.len() >= 3).then(|| PolygonMm::new(hull).centroid())
}

/// Area of a silhouette (the union of its polygons) in map pixels.
fn area_px(sil: &Silhouette, map: &WeightMap) -> f64 {
    union_area_mm2(&sil.polygons) / (map.mm_per_px * map.mm_per_px)
}

/// Area of a union of convex polygons, mm², by horizontal scan lines every [`AREA_SCAN_MM`].
pub fn union_area_mm2(polygons: &[Vec<PointMm>]) -> f64 {
    let (mut ymin, mut ymax) = (f64::INFINITY, f64::NEG_INFINITY);
    for p in polygons.iter().flatten() {
        ymin = ymin.min(p.y);
        ymax = ymax.max(p.y);
    }
    if !(ymin.is_finite() && ymax.is_finite()) {
        return 0.0;
    }
    let mut total = 0.0;
    let mut spans: Vec<(f64, f64)> = Vec::with_capacity(polygons.len());
    let mut y = ymin + AREA_SCAN_MM / 2.0;
    while y < ymax {
        spans.clear();
        for poly in polygons {
            let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
            let n = poly.len();
            for e in 0..n {
                let (a, b) = (poly[e], poly[(e + 1) % n]);
                if (a.y <= y) != (b.y <= y) {
                    let x = a.x + (y - a.y) * (b.x - a.x) / (b.y - a.y);
                    lo = lo.min(x);
                    hi = hi.max(x);
                }
            }
            if lo < hi {
                spans.push((lo, hi));
            }
        }
        spans.sort_by(|a, b| a.0.total_cmp(&b.0));
        let mut cur: Option<(f64, f64)> = None;
        for &(a, b) in &spans {
            cur = match cur {
                Some((c, d)) if a <= d => Some((c, d.max(b))),
                Some((c, d)) => {
                    total += d - c;
                    Some((a, b))
                }
                None => Some((a, b)),
            };
        }
        if let Some((c, d)) = cur {
            total += d - c;
        }
        y += AREA_SCAN_MM;
    }
    total * AREA_SCAN_MM
}

/// Searches the pose of `solid` standing `base_mm` up, starting at footprint centre `start`
/// (table mm) with each of `angles`, and returns the best fit.
pub fn fit_pose(
    solid: &Solid,
    map: &WeightMap,
    view: &Viewpoint,
    start: PointMm,
    angles: &[f64],
    base_mm: f64,
    round: bool,
    scratch: &mut ScoreScratch,
) -> Option<Fit> {
    let mut starts: Vec<(f64, Pose2)> = Vec::with_capacity(angles.len());
    for &angle in angles {
        let mut pose = Pose2 {
            center_mm: start,
            angle_rad: angle,
            base_mm,
        };
        // Start where the silhouette's centre (not the footprint's) lies on `start`.
        let sil = Silhouette::of(solid, &pose, view);
        if let Some(c) = silhouette_centre(&sil) {
            pose.center_mm = start - (c - start);
        }
        let (pose, gain) = translate_search(solid, map, view, pose, scratch);
        starts.push((gain, pose));
    }
    starts.sort_by(|a, b| b.0.total_cmp(&a.0));
    let mut best: Option<(f64, Pose2)> = None;
    for &(_, pose) in starts.iter().take(if round { 1 } else { REFINED_STARTS }) {
        let (pose, gain) = if round {
            // Recompute the lean at the new centre once more.
            translate_search(solid, map, view, pose, scratch)
        } else {
            joint_search(solid, map, view, pose, scratch)
        };
        if best.is_none_or(|b| gain > b.0) {
            best = Some((gain, pose));
        }
    }
    let (gain, pose) = best?;
    let silhouette = Silhouette::of(solid, &pose, view);
    let area = area_px(&silhouette, map);
    Some(Fit {
        pose,
        gain,
        area_px: area,
        silhouette,
    })
}

/// Refines a pose already close to the truth (translation and, unless round, angle).
pub fn refine_pose(
    solid: &Solid,
    map: &WeightMap,
    view: &Viewpoint,
    pose: Pose2,
    round: bool,
    scratch: &mut ScoreScratch,
) -> Option<Fit> {
    let (pose, gain) = if round {
        let (p, _) = translate_search(solid, map, view, pose, scratch);
        translate_search(solid, map, view, p, scratch)
    } else {
        joint_search(solid, map, view, pose, scratch)
    };
    let silhouette = Silhouette::of(solid, &pose, view);
    if silhouette.polygons.is_empty() {
        return None;
    }
    let area = area_px(&silhouette, map);
    Some(Fit {
        pose,
        gain,
        area_px: area,
        silhouette,
    })
}

/// Pattern search over the translation only (silhouette computed once at the start).
fn translate_search(
    solid: &Solid,
    map: &WeightMap,
    view: &Viewpoint,
    pose: Pose2,
    scratch: &mut ScoreScratch,
) -> (Pose2, f64) {
    let sil = Silhouette::of(solid, &pose, view);
    let mut offset = PointMm::default();
    let mut best = map.score(&sil.polygons, offset, scratch);
    let mut step = STEP_START_MM;
    while step >= STEP_MIN_MM {
        for _ in 0..MAX_MOVES {
            let mut moved = false;
            for d in [
                PointMm::new(step, 0.0),
                PointMm::new(-step, 0.0),
                PointMm::new(0.0, step),
                PointMm::new(0.0, -step),
            ] {
                let s = map.score(&sil.polygons, offset + d, scratch);
                if s > best + 1e-9 {
                    best = s;
                    offset = offset + d;
                    moved = true;
                }
            }
            if !moved {
                break;
            }
        }
        step /= 2.0;
    }
    // The lean at the moved centre: close to the moved silhouette's; re-score exactly.
    let moved = Pose2 {
        center_mm: pose.center_mm + offset,
        ..pose
    };
    let exact = map.score(&Silhouette::of(solid, &moved, view).polygons, PointMm::default(), scratch);
    (moved, exact)
}

/// Pattern search over translation and angle together.
fn joint_search(
    solid: &Solid,
    map: &WeightMap,
    view: &Viewpoint,
    pose: Pose2,
    scratch: &mut ScoreScratch,
) -> (Pose2, f64) {
    let eval = |p: &Pose2, s: &mut ScoreScratch| map.score(&Silhouette::of(solid, p, view).polygons, PointMm::default(), s);
    let mut cur = pose;
    let mut best = eval(&cur, scratch);
    let mut step = STEP_START_MM / 2.0;
    let mut astep = ANGLE_STEP_START;
    while step >= STEP_MIN_MM || astep >= ANGLE_STEP_MIN {
        for _ in 0..MAX_MOVES {
            let mut moved = false;
            let mut trials: Vec<Pose2> = Vec::with_capacity(6);
            if step >= STEP_MIN_MM {
                for d in [
                    PointMm::new(step, 0.0),
                    PointMm::new(-step, 0.0),
                    PointMm::new(0.0, step),
                    PointMm::new(0.0, -step),
                ] {
                    trials.push(Pose2 {
                        center_mm: cur.center_mm + d,
                        ..cur
                    });
                }
            }
            if astep >= ANGLE_STEP_MIN {
                for a in [astep, -astep] {
                    trials.push(Pose2 {
                        angle_rad: cur.angle_rad + a,
                        ..cur
                    });
                }
            }
            for t in trials {
                let s = eval(&t, scratch);
                if s > best + 1e-9 {
                    best = s;
                    cur = t;
                    moved = true;
                }
            }
            if !moved {
                break;
            }
        }
        step /= 2.0;
        astep /= 2.0;
    }
    (cur, best)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::table::Catalog;

    /// A weight map painted with a silhouette: +1 inside, -1 outside (by pixel centre).
    fn painted(sil: &Silhouette, origin: PointMm, w: usize, h: usize) -> WeightMap {
        let mut weights = vec![-1.0f32; w * h];
        for j in 0..h {
            for i in 0..w {
                let c = PointMm::new(origin.x + i as f64, origin.y + j as f64);
                if sil.polygons.iter().any(|p| PolygonMm::new(p.clone()).contains(c)) {
                    weights[j * w + i] = 1.0;
                }
            }
        }
        WeightMap::new(w, h, origin, 1.0, weights)
    }

    #[test]
    fn union_area_counts_overlaps_once() {
        let sq = |x: f64| vec![
            PointMm::new(x, 0.0),
            PointMm::new(x + 10.0, 0.0),
            PointMm::new(x + 10.0, 10.0),
            PointMm::new(x, 10.0),
        ];
        let a = union_area_mm2(&[sq(0.0), sq(5.0)]);
        assert!((a - 150.0).abs() < 1e-6, "{a}");
    }

    #[test]
    fn recovers_a_leaning_pose() {
        let cat = Catalog::default_catalog();
        let view = Viewpoint {
            nadir_mm: PointMm::new(0.0, -600.0),
            height_mm: 700.0,
        };
        for (name, angle) in [("chest", 0.7), ("goblet", 0.0), ("ship_blue", -2.0), ("tentacle", 2.5)] {
            let e = cat.entry(name).unwrap();
            let solid = Solid::of(e);
            let truth = Pose2 {
                center_mm: PointMm::new(40.3, 30.6),
                angle_rad: angle,
                base_mm: 0.0,
            };
            let sil = Silhouette::of(&solid, &truth, &view);
            let map = painted(&sil, PointMm::new(-40.0, -40.0), 160, 160);
            let mut s = ScoreScratch::default();
            let round = e.shape.is_round();
            let start = silhouette_centre(&sil).unwrap() + PointMm::new(2.0, -3.0);
            let angles: Vec<f64> = if round { vec![0.0] } else { vec![angle + 0.15, angle + 0.15 + std::f64::consts::PI] };
            let fit = fit_pose(&solid, &map, &view, start, &angles, 0.0, round, &mut s).unwrap();
            let err = fit.pose.center_mm.distance(truth.center_mm);
            assert!(err < 0.5, "{name}: {err} {:?}", fit.pose);
            if !round {
                let da = (fit.pose.angle_rad - angle).rem_euclid(std::f64::consts::TAU);
                let da = da.min(std::f64::consts::TAU - da);
                assert!(da < 0.03, "{name}: angle off by {da}");
            }
            assert!(fit.quality() > 0.9, "{name}: {}", fit.quality());
        }
    }
}
