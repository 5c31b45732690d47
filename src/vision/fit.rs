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
//! of a millimetre. Neither search scores one position twice (see [`Seen`]).

use super::raster::{ScoreScratch, WeightMap};
use super::solid::{Solid, convex_hull_of_rings};
use super::view::{Pose2, Silhouette, Viewpoint};
use crate::table::{PointMm, PolygonMm};

/// First step of the per-angle translation search, mm (it goes down to a quarter of it).
const QUICK_STEP_MM: f64 = 1.0;
/// Start angles whose translation is searched (the best-scoring ones as they start): this
/// many, or one in [`SEARCHED_SHARE`] of the starts when more are given.
const SEARCHED_STARTS: usize = 2;
const SEARCHED_SHARE: usize = 3;
/// First translation step of the joint search, mm.
const JOINT_STEP_MM: f64 = 0.5;
/// Smallest translation step of a full fit, mm.
const STEP_MIN_MM: f64 = 0.125;
/// First angle step of the joint search, and the smallest, radians.
const ANGLE_STEP_START: f64 = 0.05;
const ANGLE_STEP_MIN: f64 = 0.003;
/// The smallest angle step when comparing models and ways round, radians (two halvings short of
/// the start: a few tenths of a millimetre at a ship's ends).
const ANGLE_STEP_COMPARE: f64 = 0.0125;
/// Most pattern-search moves per step size.
const MAX_MOVES: usize = 12;
/// A moved silhouette is recomputed (its lean) after moving this far, mm.
const RECOMPUTE_AFTER_MM: f64 = 2.0;
/// Scan-line spacing of [`union_area_mm2`], mm.
const AREA_SCAN_MM: f64 = 0.5;

/// Where a refinement stops: its smallest translation and angle steps.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Precision {
    pub step_mm: f64,
    pub angle_rad: f64,
}

impl Precision {
    /// Enough to compare models and ways round (a few tenths of a millimetre off at worst).
    pub const COMPARE: Self = Self {
        step_mm: JOINT_STEP_MM,
        angle_rad: ANGLE_STEP_COMPARE,
    };
    /// Enough to rank ways round against each other before the best is compared (one pass of
    /// half-millimetre moves and the coarsest turns).
    pub const SCREEN: Self = Self {
        step_mm: JOINT_STEP_MM,
        angle_rad: ANGLE_STEP_START,
    };
    /// A piece's final pose.
    pub const FINAL: Self = Self {
        step_mm: STEP_MIN_MM,
        angle_rad: ANGLE_STEP_MIN,
    };
}

/// A fitted pose and how well it explains the pixels.
#[derive(Debug, Clone, PartialEq)]
pub struct Fit {
    pub pose: Pose2,
    /// Integral of the weights over the silhouette (pixels).
    pub gain: f64,
    /// The silhouette's area in fine pixels (less a neutral mouth and, for a hull, what other
    /// pieces explain: see [`area_px`]).
    pub area_px: f64,
    pub silhouette: Silhouette,
}

impl Fit {
    /// Gain per silhouette pixel: about the share of the silhouette that shows the piece (a
    /// cup's mouth left out where the map leaves it neutral).
    pub fn quality(&self) -> f64 {
        if self.area_px > 0.0 {
            self.gain / self.area_px
        } else {
            0.0
        }
    }

    /// Gain times quality: what pieces competing for a count or a spot are weighed by, so that
    /// one explaining many pixels and fitting them well wins (a ship on the water beats a ship's
    /// colour seen on the island's palm).
    pub fn score(&self) -> f64 {
        self.gain * self.quality()
    }

    /// A fit at `pose` whose silhouette scored `gain` on `map` (its area measured on the map).
    fn measured(
        pose: Pose2,
        gain: f64,
        silhouette: Silhouette,
        map: &WeightMap,
        scratch: &mut ScoreScratch,
    ) -> Self {
        let area_px = area_px(&silhouette, map, scratch);
        Self {
            pose,
            gain,
            area_px,
            silhouette,
        }
    }
}

/// The area centroid of the convex hull of a silhouette (a cheap, stable centre).
pub fn silhouette_centre(sil: &Silhouette) -> Option<PointMm> {
    let pts: Vec<PointMm> = sil.polygons.iter().flatten().copied().collect();
    // Each polygon is a convex ring already: their hull merges them ([`convex_hull_of_rings`]).
    let ends: Vec<usize> = sil
        .polygons
        .iter()
        .scan(0, |end, p| {
            *end += p.len();
            Some(*end)
        })
        .collect();
    let hull = convex_hull_of_rings(&pts, &ends);
    (hull.len() >= 3).then(|| PolygonMm::new(hull).centroid())
}

/// Area of a silhouette (the union of its polygons) in map pixels, less the pixels of its
/// mouth that count neither way ([`WeightMap::score_silhouette`]) and those other pieces
/// explain, where the map knows them ([`WeightMap::held_px`]).
fn area_px(sil: &Silhouette, map: &WeightMap, scratch: &mut ScoreScratch) -> f64 {
    let area = union_area_mm2(&sil.polygons) / (map.mm_per_px * map.mm_per_px);
    let held = map.held_px(sil, scratch).min(map.held_max_share() * area);
    (area - map.neutral_mouth_px(sil, scratch) - held).max(0.0)
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
/// (table mm) with each of `angles`, and returns the best fit, placed to a quarter millimetre
/// (enough to tell models apart; [`refine_pose`] takes it further).
pub fn fit_pose(
    solid: &Solid,
    map: &WeightMap,
    view: &Viewpoint,
    start: PointMm,
    angles: &[f64],
    base_mm: f64,
    scratch: &mut ScoreScratch,
) -> Option<Fit> {
    // Each start angle: put the silhouette's centre on `start` and score it as it is.
    let mut starts: Vec<(f64, Pose2, Silhouette, PointMm)> = Vec::with_capacity(angles.len());
    for &angle in angles {
        let pose = Pose2 {
            center_mm: start,
            angle_rad: angle,
            base_mm,
        };
        let sil = Silhouette::of(solid, &pose, view);
        let Some(c) = silhouette_centre(&sil) else {
            continue;
        };
        let shift = start - c;
        let score = map.score_silhouette(&sil, shift, scratch);
        starts.push((score, pose, sil, shift));
    }
    starts.sort_by(|a, b| b.0.total_cmp(&a.0));
    let mut best: Option<(f64, Pose2, Silhouette)> = None;
    let searched = SEARCHED_STARTS.max(starts.len() / SEARCHED_SHARE);
    for (_, pose, sil, shift) in starts.into_iter().take(searched) {
        let pose = Pose2 {
            center_mm: pose.center_mm + shift,
            ..pose
        };
        let (pose, gain, sil) = translate_search(solid, map, view, pose, &sil, shift, QUICK_STEP_MM, scratch);
        if best.as_ref().is_none_or(|b| gain > b.0) {
            best = Some((gain, pose, sil));
        }
    }
    let (gain, pose, silhouette) = best?;
    Some(Fit::measured(pose, gain, silhouette, map, scratch))
}

/// Where a coarse pose search looks and how finely: footprint centres on a square grid of
/// `step_mm` within `radius_mm` of a centre, at `turns` angles evenly spread over a full turn.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PoseGrid {
    pub centre: PointMm,
    pub radius_mm: f64,
    pub step_mm: f64,
    pub turns: usize,
    pub base_mm: f64,
}

/// A pose of a [`PoseGrid`] and its score.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct GridPose {
    pub pose: Pose2,
    pub score: f64,
}

/// The best grid pose of each angle of `grid`, best first: starts for [`refine_pose`] when a
/// pose may lie far from any start a local search would walk from (a ship fitted across its
/// anchor). Each angle's silhouette is computed once, at the grid's centre, and moved; its spans
/// are found there once and moved too ([`WeightMap::score_moved`]).
pub fn grid_poses(
    solid: &Solid,
    map: &WeightMap,
    view: &Viewpoint,
    grid: &PoseGrid,
    scratch: &mut ScoreScratch,
) -> Vec<GridPose> {
    let n = (grid.radius_mm / grid.step_mm).floor().max(0.0) as i64;
    let r2 = grid.radius_mm * grid.radius_mm + 1e-9;
    let mut out = Vec::with_capacity(grid.turns);
    for t in 0..grid.turns {
        let pose = Pose2 {
            center_mm: grid.centre,
            angle_rad: t as f64 * std::f64::consts::TAU / grid.turns as f64,
            base_mm: grid.base_mm,
        };
        let sil = Silhouette::of(solid, &pose, view);
        if sil.polygons.is_empty() {
            continue;
        }
        let mut spans = map.spans_of(&sil, PointMm::default(), scratch);
        let mut best: Option<(f64, PointMm)> = None;
        for j in -n..=n {
            for i in -n..=n {
                let d = PointMm::new(i as f64 * grid.step_mm, j as f64 * grid.step_mm);
                if d.dot(d) > r2 {
                    continue;
                }
                let score = map.score_moved(&sil, &mut spans, d, scratch);
                if best.is_none_or(|b| score > b.0) {
                    best = Some((score, d));
                }
            }
        }
        if let Some((score, d)) = best {
            out.push(GridPose {
                pose: Pose2 {
                    center_mm: grid.centre + d,
                    ..pose
                },
                score,
            });
        }
    }
    out.sort_by(|a, b| b.score.total_cmp(&a.score));
    out
}

/// Refines a pose already close to the truth (translation and, unless round, angle) down to
/// `precision`.
#[allow(clippy::too_many_arguments)]
pub fn refine_pose(
    solid: &Solid,
    map: &WeightMap,
    view: &Viewpoint,
    pose: Pose2,
    round: bool,
    precision: Precision,
    scratch: &mut ScoreScratch,
) -> Option<Fit> {
    let sil = Silhouette::of(solid, &pose, view);
    if sil.polygons.is_empty() {
        return None;
    }
    let (pose, gain, silhouette) = joint_search(solid, map, view, pose, sil, round, precision, scratch);
    Some(Fit::measured(pose, gain, silhouette, map, scratch))
}

/// The fit of `solid` exactly at `pose` (no search): for a pose found another way.
pub fn score_at(
    solid: &Solid,
    map: &WeightMap,
    view: &Viewpoint,
    pose: Pose2,
    scratch: &mut ScoreScratch,
) -> Option<Fit> {
    let silhouette = Silhouette::of(solid, &pose, view);
    if silhouette.polygons.is_empty() {
        return None;
    }
    let gain = map.score_silhouette(&silhouette, PointMm::default(), scratch);
    Some(Fit::measured(pose, gain, silhouette, map, scratch))
}

/// The four moves of a translation search; `i ^ 1` is the way back of move `i`.
const FOUR: [(f64, f64); 4] = [(1.0, 0.0), (-1.0, 0.0), (0.0, 1.0), (0.0, -1.0)];

/// Pattern search over the translation of a silhouette computed at `pose - offset` (it is moved,
/// not recomputed), from `step` down to `step / 4`; returns the pose, its exact score and its
/// silhouette (recomputed at the end).
#[allow(clippy::too_many_arguments)]
fn translate_search(
    solid: &Solid,
    map: &WeightMap,
    view: &Viewpoint,
    pose: Pose2,
    sil: &Silhouette,
    offset: PointMm,
    step: f64,
    scratch: &mut ScoreScratch,
) -> (Pose2, f64, Silhouette) {
    let mut off = offset;
    let mut spans = map.spans_of(sil, off, scratch);
    let mut best = map.score_moved(sil, &mut spans, off, scratch);
    let mut seen = Seen::default();
    let mut step = step;
    let stop = step / 4.0 - 1e-9;
    while step >= stop {
        // The way back of the last move leads where the score was lower: not tried.
        let mut back: Option<usize> = None;
        for _ in 0..MAX_MOVES {
            let mut moved = false;
            for (i, (dx, dy)) in FOUR.into_iter().enumerate() {
                if back == Some(i) {
                    continue;
                }
                let d = PointMm::new(dx * step, dy * step);
                let to = off + d;
                let sc = seen.score(Seen::at(to), || map.score_moved(sil, &mut spans, to, scratch));
                if sc > best + 1e-9 {
                    best = sc;
                    off = off + d;
                    moved = true;
                    back = Some(i ^ 1);
                }
            }
            if !moved {
                break;
            }
        }
        step /= 2.0;
    }
    let moved = Pose2 {
        center_mm: pose.center_mm + (off - offset),
        ..pose
    };
    let exact = Silhouette::of(solid, &moved, view);
    let score = map.score_silhouette(&exact, PointMm::default(), scratch);
    (moved, score, exact)
}

/// Pattern search over translation and (unless round) angle together, from half a millimetre
/// and [`ANGLE_STEP_START`] down to `precision`. Translations move the current silhouette;
/// angle trials and accepted moves of more than a millimetre recompute it.
#[allow(clippy::too_many_arguments)]
fn joint_search(
    solid: &Solid,
    map: &WeightMap,
    view: &Viewpoint,
    pose: Pose2,
    sil: Silhouette,
    round: bool,
    precision: Precision,
    scratch: &mut ScoreScratch,
) -> (Pose2, f64, Silhouette) {
    let min_step = precision.step_mm;
    let mut cur = pose;
    let mut sil = sil;
    // The silhouette was computed at `cur.center_mm - off`.
    let mut off = PointMm::default();
    let mut spans = map.spans_of(&sil, off, scratch);
    let mut best = map.score_moved(&sil, &mut spans, off, scratch);
    // Translations of the current silhouette, and turns (silhouettes of their own) by pose.
    let mut moves = Seen::default();
    let mut turns = Seen::default();
    let mut step = JOINT_STEP_MM;
    let mut astep = if round { 0.0 } else { ANGLE_STEP_START };
    let astop = precision.angle_rad;
    while step >= min_step - 1e-9 || (!round && astep >= astop - 1e-9) {
        // As in `translate_search`; a turn changes the silhouette and forgets it.
        let mut back: Option<usize> = None;
        for _ in 0..MAX_MOVES {
            let mut moved = false;
            if step >= min_step - 1e-9 {
                for (i, (dx, dy)) in FOUR.into_iter().enumerate() {
                    if back == Some(i) {
                        continue;
                    }
                    let d = PointMm::new(dx * step, dy * step);
                    let to = off + d;
                    let sc = moves.score(Seen::at(to), || map.score_moved(&sil, &mut spans, to, scratch));
                    if sc > best + 1e-9 {
                        best = sc;
                        off = off + d;
                        cur.center_mm = cur.center_mm + d;
                        moved = true;
                        back = Some(i ^ 1);
                    }
                }
            }
            if !round && astep >= astop - 1e-9 {
                for a in [astep, -astep] {
                    let trial = Pose2 {
                        angle_rad: cur.angle_rad + a,
                        ..cur
                    };
                    let key = Seen::turned(&trial);
                    // A turn's spans are found to score it, and kept should the turn be taken.
                    let (sc, ts) = match turns.get(key) {
                        Some(sc) => (sc, None),
                        None => {
                            let ts = Silhouette::of(solid, &trial, view);
                            let mut ts_spans = map.spans_of(&ts, PointMm::default(), scratch);
                            let sc = map.score_moved(&ts, &mut ts_spans, PointMm::default(), scratch);
                            turns.insert(key, sc);
                            (sc, Some((ts, ts_spans)))
                        }
                    };
                    if sc > best + 1e-9 {
                        best = sc;
                        cur = trial;
                        (sil, spans) = match ts {
                            Some(found) => found,
                            None => {
                                let ts = Silhouette::of(solid, &trial, view);
                                let ts_spans = map.spans_of(&ts, PointMm::default(), scratch);
                                (ts, ts_spans)
                            }
                        };
                        moves.clear();
                        off = PointMm::default();
                        moved = true;
                        back = None;
                    }
                }
            }
            if off.norm() > RECOMPUTE_AFTER_MM {
                sil = Silhouette::of(solid, &cur, view);
                moves.clear();
                off = PointMm::default();
                spans = map.spans_of(&sil, off, scratch);
                best = map.score_moved(&sil, &mut spans, off, scratch);
                back = None;
            }
            if !moved {
                break;
            }
        }
        step /= 2.0;
        astep /= 2.0;
    }
    let exact = Silhouette::of(solid, &cur, view);
    let score = map.score_silhouette(&exact, PointMm::default(), scratch);
    (cur, score, exact)
}

/// Scores a pattern search has already computed, by the exact position they were computed at.
/// After a move, the search tries again the neighbours it tried before the move (from its new
/// place, they are the same points); a score is a pure function of the silhouette and its
/// position, so looking it up changes no decision and saves a silhouette and a score. Callers
/// keep one per silhouette being moved and [`Seen::clear`] it when the silhouette changes.
#[derive(Debug, Default)]
struct Seen {
    entries: Vec<([u64; 3], f64)>,
}

impl Seen {
    /// The key of an offset of the silhouette being moved.
    fn at(offset: PointMm) -> [u64; 3] {
        [offset.x.to_bits(), offset.y.to_bits(), 0]
    }

    /// The key of a pose whose silhouette is computed afresh.
    fn turned(pose: &Pose2) -> [u64; 3] {
        [
            pose.center_mm.x.to_bits(),
            pose.center_mm.y.to_bits(),
            pose.angle_rad.to_bits(),
        ]
    }

    fn get(&self, key: [u64; 3]) -> Option<f64> {
        self.entries.iter().find(|(k, _)| *k == key).map(|&(_, s)| s)
    }

    fn insert(&mut self, key: [u64; 3], score: f64) {
        self.entries.push((key, score));
    }

    /// The score at `key`, computed by `score` the first time it is asked for.
    fn score(&mut self, key: [u64; 3], score: impl FnOnce() -> f64) -> f64 {
        self.get(key).unwrap_or_else(|| {
            let s = score();
            self.insert(key, s);
            s
        })
    }

    fn clear(&mut self) {
        self.entries.clear();
    }
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
        WeightMap::new(w, h, origin, 1.0, &weights)
    }

    /// A camera 700 mm up, its nadir 600 mm off the scene: pieces near the origin lean.
    fn leaning_view() -> Viewpoint {
        Viewpoint {
            nadir_mm: PointMm::new(0.0, -600.0),
            height_mm: 700.0,
        }
    }

    #[test]
    fn held_pixels_leave_the_area_up_to_the_maps_share() {
        // A 10 x 10 mm square on a 1 mm map, its pixels' edges, whose left half another piece holds.
        let (w, h) = (20usize, 20usize);
        let square = vec![
            PointMm::new(4.5, 4.5),
            PointMm::new(14.5, 4.5),
            PointMm::new(14.5, 14.5),
            PointMm::new(4.5, 14.5),
        ];
        let sil = Silhouette {
            polygons: vec![square],
            mouth: None,
        };
        let held: Vec<bool> = (0..w * h).map(|p| p % w < 10).collect();
        let plain = WeightMap::new(w, h, PointMm::new(0.0, 0.0), 1.0, &vec![1.0; w * h]);
        let mut s = ScoreScratch::default();
        let area = |map: &WeightMap, s: &mut ScoreScratch| area_px(&sil, map, s);
        assert!((area(&plain, &mut s) - 100.0).abs() < 1e-6);
        // Half the square held: all of it leaves the area when the map allows it...
        let all = plain.clone().with_held(&held, 1.0);
        assert!((area(&all, &mut s) - 50.0).abs() < 1e-6);
        // ...a fifth only when the map allows no more.
        let capped = plain.with_held(&held, 0.2);
        assert!((area(&capped, &mut s) - 80.0).abs() < 1e-6);
    }

    #[test]
    fn union_area_counts_overlaps_once() {
        let sq = |x: f64| {
            vec![
                PointMm::new(x, 0.0),
                PointMm::new(x + 10.0, 0.0),
                PointMm::new(x + 10.0, 10.0),
                PointMm::new(x, 10.0),
            ]
        };
        let a = union_area_mm2(&[sq(0.0), sq(5.0)]);
        assert!((a - 150.0).abs() < 1e-6, "{a}");
    }

    #[test]
    fn recovers_a_leaning_pose() {
        let cat = Catalog::default_catalog();
        let view = leaning_view();
        for (name, angle) in [
            ("chest", 0.7),
            ("goblet", 0.0),
            ("ship_blue", -2.0),
            ("tentacle", 2.5),
        ] {
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
            let angles: Vec<f64> = if round {
                vec![0.0]
            } else {
                vec![angle + 0.15, angle + 0.15 + std::f64::consts::PI]
            };
            let found = fit_pose(&solid, &map, &view, start, &angles, 0.0, &mut s).unwrap();
            let fit = refine_pose(&solid, &map, &view, found.pose, round, Precision::FINAL, &mut s).unwrap();
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

    #[test]
    fn the_pose_grid_lands_within_a_step_of_a_hull_far_from_its_centre() {
        let cat = Catalog::default_catalog();
        let view = leaning_view();
        let solid = Solid::of(cat.entry("ship_orange").unwrap());
        let truth = Pose2 {
            center_mm: PointMm::new(40.0, 30.0),
            angle_rad: 0.9,
            base_mm: 0.0,
        };
        let map = painted(
            &Silhouette::of(&solid, &truth, &view),
            PointMm::new(-40.0, -50.0),
            160,
            160,
        );
        let mut s = ScoreScratch::default();
        // 13 mm and 40 degrees off, as a ship fitted across its anchor.
        let grid = PoseGrid {
            centre: truth.center_mm + PointMm::new(-9.0, 9.5),
            radius_mm: 16.0,
            step_mm: 4.0,
            turns: 24,
            base_mm: 0.0,
        };
        let best = grid_poses(&solid, &map, &view, &grid, &mut s)[0];
        // Within a grid step and half a turn step of the truth...
        assert!(best.pose.center_mm.distance(truth.center_mm) <= 4.0, "{best:?}");
        let da = (best.pose.angle_rad - truth.angle_rad).rem_euclid(std::f64::consts::TAU);
        assert!(
            da.min(std::f64::consts::TAU - da) <= std::f64::consts::PI / 24.0,
            "{best:?}"
        );
        // ...which a refinement finishes.
        let fit = refine_pose(&solid, &map, &view, best.pose, false, Precision::FINAL, &mut s).unwrap();
        assert!(
            fit.pose.center_mm.distance(truth.center_mm) < 0.5,
            "{:?}",
            fit.pose
        );
        let da = (fit.pose.angle_rad - truth.angle_rad).rem_euclid(std::f64::consts::TAU);
        assert!(da.min(std::f64::consts::TAU - da) < 0.03, "{:?}", fit.pose);
    }
}
