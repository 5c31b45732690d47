//! A hull and a piece of its colour (a ship and its anchor) fitted again together, when fitted
//! one after the other they settled across each other.

use super::marks::{mark_explained, remarked};
use super::model::Model;
use super::occluder::occluders_of;
use super::refit::REPOSE_MIN_GAIN_SHARE;
use super::seeds::largest_patch_centre;
use super::weights::{WINDOW_MARGIN_MM, Window, weight_map, window_around};
use super::{Detection, Detector, min_gain_px};
use crate::table::{PieceKind, PointMm, Shape};
use crate::vision::colour::ColourSet;
use crate::vision::fit::{Fit, PoseGrid, Precision, fit_pose, grid_poses, refine_pose, score_at};
use crate::vision::raster::{ScoreScratch, WeightMap};
use crate::vision::region::Region;
use crate::vision::view::{Pose2, Viewpoint};

/// Turns (radians) from which a hull among other pieces is refitted once they are found.
pub(super) const HULL_RETRY_TURNS: [f64; 5] = [
    0.0,
    std::f64::consts::FRAC_PI_6,
    -std::f64::consts::FRAC_PI_6,
    std::f64::consts::FRAC_PI_3,
    -std::f64::consts::FRAC_PI_3,
];
/// Evenly spaced turns per symmetry period from which a piece against one of its colour is
/// refitted once the others' final poses are known.
pub(super) const ROUND_AGAIN_STARTS: usize = 12;
/// A hull and a piece of its colour that explain at least these shares of their silhouettes are
/// taken as untangled already (a ship fitted over its anchor leaves one of them short).
pub(super) const UNTANGLED_HULL_QUALITY: f64 = 0.8;
const UNTANGLED_OTHER_QUALITY: f64 = 0.9;
/// A piece of a hull's colour found by untangling it from the hull that held it all must
/// explain at least this share of its silhouette: a blue anchor beside its ship, a goblet
/// leaning on the hull over its shank, explains 0.75.
const FREED_OTHER_QUALITY: f64 = 0.7;
/// The hull's ways round (best alone first) for which the other piece is fitted on what is left.
const UNTANGLE_WAYS_TRIED: usize = 6;
/// Slides (mm, along the hull's length) of the hull's starts when it is untangled: a ship fitted
/// over its anchor sits that far towards it, further than a refinement walks (scene 26's green
/// ship, slid 22 mm onto its anchor, its captain at the bow read as the anchor).
const UNTANGLE_SLIDES_MM: [f64; 6] = [-8.0, 8.0, -16.0, 16.0, -24.0, 24.0];
/// The coarse grid of hull poses also tried when a hull is untangled: centres every
/// [`UNTANGLE_GRID_STEP_MM`] within [`UNTANGLE_GRID_RADIUS_MM`] of its fit, at
/// [`UNTANGLE_GRID_TURNS`] angles a turn. The best poses of [`UNTANGLE_GRID_LINES`] lines at
/// least [`UNTANGLE_GRID_LINE_APART_RAD`] apart are refined: the hull alone explains most
/// pixels lying across its anchor, so the best few poses by themselves all lie along that
/// wrong line (bench scenes 15 and 24: ~35-40 degrees and ~8-13 mm off).
pub(super) const UNTANGLE_GRID_RADIUS_MM: f64 = 16.0;
pub(super) const UNTANGLE_GRID_STEP_MM: f64 = 4.0;
pub(super) const UNTANGLE_GRID_TURNS: usize = 24;
const UNTANGLE_GRID_LINES: usize = 4;
const UNTANGLE_GRID_LINE_APART_RAD: f64 = 0.4;
/// Two poses closer than these are one way round.
const SAME_POSE_MM: f64 = 1.0;
const SAME_POSE_RAD: f64 = 0.05;
/// The mark of the pixels a piece fitted beside a hull explains ([`Detector::hull_beside`]): no
/// detection's (theirs count from 1) and not a kept piece's.
const BESIDE: u16 = u16::MAX - 1;
/// A hull and another piece of its colour fitted together ([`Detector::untangled_pair`]).
struct Untangled {
    pub(super) hull: Fit,
    pub(super) other: Fit,
    /// When the other piece was not found before: the hull's gain at its pose before, on the
    /// same map (that piece's pixels counting for it).
    pub(super) hull_alone: Option<f64>,
}

impl Untangled {
    /// Whether a hull freed from a piece it held whole (found no other way) is taken with it:
    /// the piece fits as well as a freed one must ([`FREED_OTHER_QUALITY`]), the hull as its
    /// model needs, and the two explain clearly more than the hull alone.
    fn frees(&self, mh: &Model, mm_per_px: f64) -> bool {
        let total = self.hull.gain + self.other.gain;
        self.other.quality() >= FREED_OTHER_QUALITY
            && self.hull.quality() >= mh.min_quality
            && self
                .hull_alone
                .is_some_and(|alone| total >= alone + min_gain_px(mm_per_px))
    }
}

impl Detector {
    /// A ship fitted turned over its anchor (one colour) leaves its own bow or stern unexplained,
    /// and the anchor is then found there. For a hull and a piece of its colour that touch, the
    /// hull is fitted again from each of its retry turns and their reverses with the other's
    /// pixels counting for it, the other is fitted all the way round on what that hull leaves,
    /// and the pair that explains most pixels between them is kept. Ways round are ranked at
    /// [`Precision::SCREEN`]; only the best pair is taken to comparison precision.
    ///
    /// A hull may also have held all of its anchor, which was then never found (an orange ship
    /// fitted across its anchor, its own deck covered by loads): a hull that fits poorly
    /// ([`UNTANGLED_HULL_QUALITY`]) with no piece of its colour found in the region is untangled
    /// from each model of its colour not found there, and the pair is kept when it explains
    /// clearly more than the hull alone and that piece fits well ([`FREED_OTHER_QUALITY`]).
    pub(super) fn untangle(
        &mut self,
        region: &Region,
        models: &[Model],
        view: &Viewpoint,
        detections: &mut Vec<Detection>,
        explained: &[u16],
    ) {
        let n = detections.len();
        let tangles_with = |mh: &Model, ma: &Model| {
            !(ma.seen_by_top
                || ma.round
                || ma.kind == PieceKind::Treasure
                || matches!(ma.shape, Shape::Hull { .. })
                || !mh.colours.contains_any(ma.colours.0))
        };
        for h in 0..n {
            let mh = &models[detections[h].model];
            if mh.seen_by_top || !matches!(mh.shape, Shape::Hull { .. }) {
                continue;
            }
            let mut partnered = false;
            for a in 0..n {
                let ma = &models[detections[a].model];
                if a == h || !tangles_with(mh, ma) {
                    continue;
                }
                partnered = true;
                let hpose = detections[h].fit.pose;
                let reach = mh.reach_mm(view, hpose.center_mm) + ma.reach_mm(view, hpose.center_mm);
                if detections[a].fit.pose.center_mm.distance(hpose.center_mm) > reach
                    || (detections[h].fit.quality() >= UNTANGLED_HULL_QUALITY
                        && detections[a].fit.quality() >= UNTANGLED_OTHER_QUALITY)
                {
                    continue;
                }
                let Some(pair) = self.untangled_pair(region, view, detections, explained, h, mh, ma, Some(a))
                else {
                    continue;
                };
                if pair.other.quality() >= ma.min_quality && pair.hull.quality() >= mh.min_quality {
                    detections[h].fit = pair.hull;
                    detections[a].fit = pair.other;
                }
            }
            if partnered || detections[h].fit.quality() >= UNTANGLED_HULL_QUALITY {
                continue;
            }
            let mut freed: Option<(f64, usize, Untangled)> = None;
            for (mi, ma) in models.iter().enumerate() {
                if self.is_excluded(mi) || !tangles_with(mh, ma) {
                    continue;
                }
                let Some(pair) = self.untangled_pair(region, view, detections, explained, h, mh, ma, None)
                else {
                    continue;
                };
                let total = pair.hull.gain + pair.other.gain;
                if pair.frees(mh, region.mm_per_px) && freed.as_ref().is_none_or(|f| total > f.0) {
                    freed = Some((total, mi, pair));
                }
            }
            if let Some((_, mi, pair)) = freed {
                detections[h].fit = pair.hull;
                detections.push(Detection {
                    model: mi,
                    fit: pair.other,
                    top: None,
                    runner_up: None,
                    on_shadows: false,
                    also_explains: ColourSet(0),
                });
            }
        }
    }

    /// Hull `h` and piece `a` of its colour (a ship and its anchor) among one region's
    /// `detections`, all found, fitted again together as [`Detector::untangle`] fits them, with
    /// every other piece's pixels explained: the treasures on a ship's deck are found after it
    /// and its anchor are untangled, and while their pixels still counted against it the pair
    /// may have settled with the ship turned across its anchor. The pair's new fits (final
    /// precision) when between them they explain at least [`REPOSE_MIN_GAIN_SHARE`] more than
    /// the old ones (and [`MIN_GAIN_MM2`](super::MIN_GAIN_MM2)) and each fits as well as its model
    /// needs, else `None`.
    pub fn repose_pair(
        &mut self,
        region: &Region,
        models: &[Model],
        view: &Viewpoint,
        detections: &[Detection],
        h: usize,
        a: usize,
    ) -> Option<(Fit, Fit)> {
        let (mh, ma) = (
            models.get(detections.get(h)?.model)?,
            models.get(detections.get(a)?.model)?,
        );
        let explained = remarked(region, models, detections, &vec![0; region.len()]);
        let pair = self.untangled_pair(region, view, detections, &explained, h, mh, ma, Some(a))?;
        if pair.hull.quality() < mh.min_quality || pair.other.quality() < ma.min_quality {
            return None;
        }
        // The old pair weighed as `untangled_pair` weighs the new one.
        let (hk, ak) = (h as u16 + 1, a as u16 + 1);
        let base: Vec<u16> = explained
            .iter()
            .map(|&e| if e == hk || e == ak { 0 } else { e })
            .collect();
        let hpose = detections[h].fit.pose;
        let reach = mh.reach_mm(view, hpose.center_mm) + ma.reach_mm(view, hpose.center_mm);
        let win = window_around(region, &detections[h].fit.silhouette, WINDOW_MARGIN_MM + reach);
        let map_h = weight_map(region, mh, &base, None, win, false, &[]);
        let old_h = score_at(&mh.solid, &map_h, view, hpose, &mut self.scratch)?;
        let (_, map_a) = left_by(region, ma, &base, mh, &old_h, hk, win);
        let old_a = score_at(&ma.solid, &map_a, view, detections[a].fit.pose, &mut self.scratch)?;
        let (old, new) = (old_h.gain + old_a.gain, pair.hull.gain + pair.other.gain);
        if new < old + (old.abs() * REPOSE_MIN_GAIN_SHARE).max(min_gain_px(region.mm_per_px)) {
            return None;
        }
        let mut moved = detections.to_vec();
        moved[h].fit = pair.hull;
        moved[a].fit = pair.other;
        self.final_pair(region, models, view, &moved, h, a)
    }

    /// Hull `h` among one region's `detections`, all found, that holds the whole of a piece of
    /// model `mi` of its colour (a ship fitted across its anchor while its loads still counted
    /// for it), freed from it as [`Detector::untangle`] frees one at first look, with every
    /// other piece's pixels explained, and the hull fitted again beside the piece when that
    /// explains more between them ([`Detector::hull_beside`]). The hull's new fit and the
    /// piece's, final precision, when the piece fits as well as a freed one must
    /// ([`FREED_OTHER_QUALITY`]) and the two explain clearly more than the hull alone, else
    /// `None`.
    pub fn free_partner(
        &mut self,
        region: &Region,
        models: &[Model],
        view: &Viewpoint,
        detections: &[Detection],
        h: usize,
        mi: usize,
    ) -> Option<(Fit, Fit)> {
        let (mh, ma) = (models.get(detections.get(h)?.model)?, models.get(mi)?);
        let explained = remarked(region, models, detections, &vec![0; region.len()]);
        let mut pair = self.untangled_pair(region, view, detections, &explained, h, mh, ma, None)?;
        let total = pair.hull.gain + pair.other.gain;
        let beside = self.hull_beside(
            region,
            view,
            detections,
            &explained,
            h,
            mh,
            ma,
            &pair.other,
            pair.hull.pose,
        );
        if let Some((hull, other)) = beside.filter(|(hull, other)| hull.gain + other.gain > total) {
            pair.hull = hull;
            pair.other = other;
        }
        if !pair.frees(mh, region.mm_per_px) {
            return None;
        }
        let mut moved = detections.to_vec();
        moved[h].fit = pair.hull;
        moved.push(Detection {
            model: mi,
            fit: pair.other,
            top: None,
            runner_up: None,
            on_shadows: false,
            also_explains: ColourSet(0),
        });
        let a = moved.len() - 1;
        self.final_pair(region, models, view, &moved, h, a)
    }

    /// Hull `h` fitted again with `other` (a piece of model `ma` fitted beside it) explaining
    /// its pixels, from `hpose` and from the hull's pose before, each slid along its length
    /// ([`UNTANGLE_SLIDES_MM`]), then `other` again on what the hull leaves; both to
    /// [`Precision::COMPARE`]. The gains of the two add up to what they explain between them,
    /// each pixel once at most, as an untangled pair's do.
    ///
    /// Why: an untangled pair's hull is fitted first, with the other's pixels counting for it,
    /// and a hull slid over its anchor keeps them (`--seed 701` scene 728: the green ship 19 mm
    /// towards its anchor, the anchor found beside it explaining 0.29 of itself); with the
    /// anchor's pixels taken, the hull slides back where it lies.
    #[allow(clippy::too_many_arguments)]
    fn hull_beside(
        &mut self,
        region: &Region,
        view: &Viewpoint,
        detections: &[Detection],
        explained: &[u16],
        h: usize,
        mh: &Model,
        ma: &Model,
        other: &Fit,
        hpose: Pose2,
    ) -> Option<(Fit, Fit)> {
        let before = &detections.get(h)?.fit;
        let hk = h as u16 + 1;
        let base: Vec<u16> = explained.iter().map(|&e| if e == hk { 0 } else { e }).collect();
        let reach = mh.reach_mm(view, hpose.center_mm) + ma.reach_mm(view, hpose.center_mm);
        let win = window_around(region, &before.silhouette, WINDOW_MARGIN_MM + reach);
        let (_, map_h) = left_by(region, mh, &base, ma, other, BESIDE, win);
        let starts = [hpose, before.pose].into_iter().flat_map(|p| {
            let axis = PointMm::new(p.angle_rad.cos(), p.angle_rad.sin());
            std::iter::once(0.0)
                .chain(UNTANGLE_SLIDES_MM)
                .map(move |d| Pose2 {
                    center_mm: p.center_mm + axis * d,
                    ..p
                })
        });
        let mut best: Option<Fit> = None;
        for start in starts {
            let Some(f) = refine_pose(
                &mh.solid,
                &map_h,
                view,
                start,
                false,
                Precision::SCREEN,
                &mut self.scratch,
            ) else {
                continue;
            };
            if best.as_ref().is_none_or(|b| f.gain > b.gain) {
                best = Some(f);
            }
        }
        let pair = PairStarts {
            hull: best?.pose,
            other: other.pose,
        };
        self.compare_pair(region, view, &base, mh, &map_h, ma, pair, hk, win)
    }

    /// Hull `h` and piece `a` of `moved` (one region's pieces, the two just fitted together),
    /// each to its final pose with the other's new pixels explained.
    fn final_pair(
        &mut self,
        region: &Region,
        models: &[Model],
        view: &Viewpoint,
        moved: &[Detection],
        h: usize,
        a: usize,
    ) -> Option<(Fit, Fit)> {
        let (mh, ma) = (models.get(moved.get(h)?.model)?, models.get(moved.get(a)?.model)?);
        let explained = remarked(region, models, moved, &vec![0; region.len()]);
        let occluders = occluders_of(models, view, moved.iter());
        let mut last = |k: usize, m: &Model| {
            let win = window_around(region, &moved[k].fit.silhouette, WINDOW_MARGIN_MM);
            let map = weight_map(region, m, &explained, Some(k as u16 + 1), win, false, &occluders);
            refine_pose(
                &m.solid,
                &map,
                view,
                moved[k].fit.pose,
                m.round,
                Precision::FINAL,
                &mut self.scratch,
            )
        };
        Some((last(h, mh)?, last(a, ma)?))
    }

    /// Hull `h` and a piece of model `ma` (detection `a`, or none yet) fitted together as
    /// [`Detector::untangle`] says, at [`Precision::COMPARE`].
    #[allow(clippy::too_many_arguments)]
    fn untangled_pair(
        &mut self,
        region: &Region,
        view: &Viewpoint,
        detections: &[Detection],
        explained: &[u16],
        h: usize,
        mh: &Model,
        ma: &Model,
        a: Option<usize>,
    ) -> Option<Untangled> {
        let hpose = detections[h].fit.pose;
        let reach = mh.reach_mm(view, hpose.center_mm) + ma.reach_mm(view, hpose.center_mm);
        let hk = h as u16 + 1;
        let ak = a.map(|a| a as u16 + 1);
        let base: Vec<u16> = explained
            .iter()
            .map(|&e| if e == hk || Some(e) == ak { 0 } else { e })
            .collect();
        let win = window_around(region, &detections[h].fit.silhouette, WINDOW_MARGIN_MM + reach);
        let map_h = weight_map(region, mh, &base, None, win, false, &[]);
        let angles: Vec<f64> = (0..ROUND_AGAIN_STARTS)
            .map(|t| t as f64 * ma.period / ROUND_AGAIN_STARTS as f64)
            .collect();
        // Each way round of the hull, best first; ways that settle on one pose count once.
        let mut hulls: Vec<Fit> = Vec::new();
        let axis = PointMm::new(hpose.angle_rad.cos(), hpose.angle_rad.sin());
        let turns = HULL_RETRY_TURNS
            .iter()
            .flat_map(|&t| [(0.0, t), (0.0, t + std::f64::consts::PI)]);
        let slides = UNTANGLE_SLIDES_MM
            .iter()
            .flat_map(|&d| [(d, 0.0), (d, std::f64::consts::PI)]);
        // Fitted across the other piece, a hull may lie turned and moved further than
        // any turn or slide of it reaches: the best grid poses of a few clearly
        // different lines start too.
        let grid = PoseGrid {
            centre: hpose.center_mm,
            radius_mm: UNTANGLE_GRID_RADIUS_MM,
            step_mm: UNTANGLE_GRID_STEP_MM,
            turns: UNTANGLE_GRID_TURNS,
            base_mm: hpose.base_mm,
        };
        let mut lines: Vec<Pose2> = Vec::with_capacity(UNTANGLE_GRID_LINES);
        for g in grid_poses(&mh.solid, &map_h, view, &grid, &mut self.scratch) {
            if lines.len() >= UNTANGLE_GRID_LINES {
                break;
            }
            if lines.iter().all(|l| {
                let turn = (l.angle_rad - g.pose.angle_rad).rem_euclid(std::f64::consts::PI);
                turn.min(std::f64::consts::PI - turn) >= UNTANGLE_GRID_LINE_APART_RAD
            }) {
                lines.push(g.pose);
            }
        }
        let moved = turns.chain(slides).map(|(slide, turn)| Pose2 {
            angle_rad: hpose.angle_rad + turn,
            center_mm: hpose.center_mm + axis * slide,
            ..hpose
        });
        let refined = |start: Pose2, scratch: &mut ScoreScratch| {
            refine_pose(&mh.solid, &map_h, view, start, false, Precision::SCREEN, scratch)
        };
        for start in moved {
            let Some(fh) = refined(start, &mut self.scratch) else {
                continue;
            };
            if !hulls.iter().any(|o| same_pose(&o.pose, &fh.pose, mh.period)) {
                hulls.push(fh);
            }
        }
        hulls.sort_by(|x, y| y.gain.total_cmp(&x.gain));
        hulls.truncate(UNTANGLE_WAYS_TRIED);
        // The grid's lines are tried whatever the hull alone scores there.
        for start in lines {
            let Some(fh) = refined(start, &mut self.scratch) else {
                continue;
            };
            if !hulls.iter().any(|o| same_pose(&o.pose, &fh.pose, mh.period)) {
                hulls.push(fh);
            }
        }
        let mut best: Option<(f64, Pose2, Pose2)> = None;
        for fh in &hulls {
            let Some(fa) = self.fit_on_what_is_left(region, ma, view, &base, mh, fh, hk, win, &angles) else {
                continue;
            };
            let total = fh.gain + fa.gain;
            if best.as_ref().is_none_or(|b| total > b.0) {
                best = Some((total, fh.pose, fa.pose));
            }
        }
        let (_, hstart, astart) = best?;
        let pair = PairStarts {
            hull: hstart,
            other: astart,
        };
        let (fh, fa) = self.compare_pair(region, view, &base, mh, &map_h, ma, pair, hk, win)?;
        let hull_alone = match a {
            Some(_) => None,
            None => Some(
                refine_pose(
                    &mh.solid,
                    &map_h,
                    view,
                    hpose,
                    false,
                    Precision::COMPARE,
                    &mut self.scratch,
                )
                .map_or(0.0, |f| f.gain),
            ),
        };
        Some(Untangled {
            hull: fh,
            other: fa,
            hull_alone,
        })
    }

    /// A hull and the piece beside it refined to [`Precision::COMPARE`] from `pair`: the hull
    /// first on `map_h`, then the other on what the refined hull leaves of `base`, so that the
    /// two gains add up to what they explain between them, each pixel once at most.
    #[allow(clippy::too_many_arguments)]
    fn compare_pair(
        &mut self,
        region: &Region,
        view: &Viewpoint,
        base: &[u16],
        mh: &Model,
        map_h: &WeightMap,
        ma: &Model,
        pair: PairStarts,
        hk: u16,
        win: Window,
    ) -> Option<(Fit, Fit)> {
        let hull = refine_pose(
            &mh.solid,
            map_h,
            view,
            pair.hull,
            false,
            Precision::COMPARE,
            &mut self.scratch,
        )?;
        let (_, map_a) = left_by(region, ma, base, mh, &hull, hk, win);
        let other = refine_pose(
            &ma.solid,
            &map_a,
            view,
            pair.other,
            false,
            Precision::COMPARE,
            &mut self.scratch,
        )?;
        Some((hull, other))
    }

    /// `model` fitted all the way round (`angles`) at the largest patch of its colours that
    /// `base` leaves once `hull`'s fit is marked as piece `hk`, to the quarter millimetre.
    #[allow(clippy::too_many_arguments)]
    fn fit_on_what_is_left(
        &mut self,
        region: &Region,
        model: &Model,
        view: &Viewpoint,
        base: &[u16],
        hull: &Model,
        hull_fit: &Fit,
        hk: u16,
        win: Window,
        angles: &[f64],
    ) -> Option<Fit> {
        let (left, map) = left_by(region, model, base, hull, hull_fit, hk, win);
        let centre = largest_patch_centre(region, model, &left, win)?;
        fit_pose(&model.solid, &map, view, centre, angles, 0.0, &mut self.scratch)
    }
}

/// Where a hull and the piece beside it start their last refinement.
#[derive(Clone, Copy)]
struct PairStarts {
    hull: Pose2,
    other: Pose2,
}

/// What `base` leaves once `hull`'s fit is marked as piece `hk`, and `model`'s weights on it in
/// `win`.
fn left_by(
    region: &Region,
    model: &Model,
    base: &[u16],
    hull: &Model,
    hull_fit: &Fit,
    hk: u16,
    win: Window,
) -> (Vec<u16>, WeightMap) {
    let mut left = base.to_vec();
    mark_explained(region, hull, &hull_fit.silhouette, &mut left, hk, false);
    let map = weight_map(region, model, &left, None, win, false, &[]);
    (left, map)
}

/// Whether two poses of a piece with symmetry `period` are one and the same way round.
fn same_pose(a: &Pose2, b: &Pose2, period: f64) -> bool {
    let turn = (a.angle_rad - b.angle_rad).rem_euclid(period);
    a.center_mm.distance(b.center_mm) < SAME_POSE_MM && turn.min(period - turn) < SAME_POSE_RAD
}
