//! Which pieces explain a region's changed pixels, and where they stand.
//!
//! Every catalog entry is a [`Model`]: its solid, its colours, how its footprint may turn. In a
//! region, the changed pixels not yet explained fall into connected **seeds**; every model whose
//! colours a seed shows is fitted there (`fit.rs`), and the fit that explains most pixels is
//! accepted, its pixels marked as explained, and the search goes on with what is left. Touching
//! pieces of different colours separate by colour; touching pieces of one colour (an anchor at
//! its ship) separate because a model of fixed size cannot cover both, and the remainder seeds
//! the next piece. A seed no model explains is fitted once more by the pieces that look like a
//! shadow of the table ([`Model::shadow_like`]), with the shadow pixels of their colour counting
//! for them. Last, every piece is fitted again with the other pieces' pixels neither for nor
//! against it (a loaded treasure hides part of its ship).
//!
//! Conventions: table frame, millimetres, radians; region pixels as `region.rs`.
//!
//! Parts: [`Model`] (`model.rs`); the weight maps fits run on (`weights.rs`) and what pieces
//! hide of others there (`occluder.rs`); seeds and fit starts (`seeds.rs`); the model that
//! explains a seed best (`best_fit.rs`); a hull and its anchor fitted together (`untangle.rs`);
//! loads on decks (`decks.rs`); which pixels each piece explains (`marks.rs`); fits outside a
//! region's first look (`refit.rs`); the ink die's top (`die.rs`). Here: the search itself, seed
//! by seed ([`Detector::detect`]), and the pieces' final poses.

mod best_fit;
mod decks;
mod die;
mod marks;
mod model;
mod occluder;
mod refit;
mod seeds;
#[cfg(test)]
mod tests;
mod untangle;
mod weights;

use super::colour::ColourSet;
use super::fit::{Fit, Precision, fit_pose, refine_pose};
use super::labels::Label;
use super::raster::ScoreScratch;
use super::region::Region;
use super::view::{Pose2, Silhouette, Viewpoint};
use crate::games::crash_octopus::DieTop;
use crate::table::{PieceKind, PointMm, PolygonMm, Shape};
use crate::vision::scale::count_px;
use best_fit::Best;
use decks::Deck;
pub use die::die_top;
pub use marks::for_each_inside;
use marks::{drop_treasures_inside_pieces, mark_detection, remarked};
use model::is_solid;
pub use model::{
    MIN_GAIN_MM2, MIN_QUALITY, MIN_QUALITY_INSIDE, MIN_QUALITY_PALER_TABLE, MIN_QUALITY_TABLE_LIKE, Model,
    min_gain_px,
};
use occluder::{Occluder, occluders_of};
pub use refit::{SeenBy, fit_at, refit_as, repose};
use seeds::{min_seed_own_px, split, unexplained};
use untangle::{HULL_RETRY_TURNS, ROUND_AGAIN_STARTS, UNTANGLED_HULL_QUALITY};
use weights::{WINDOW_MARGIN_MM, weight_map, window_around};

/// A seed with more than this share of its pixels inside pieces found already holds a piece of
/// the table's hue (see [`Model::paler_table`]) to [`MIN_QUALITY`]: along a piece's edge, blends
/// of its colour with the table's look like it (a green hull's shaded side on light wood reads
/// as gold).
const NEAR_PIECES_SHARE: f64 = 0.25;
/// Pieces left unexplained by the final poses are looked at again when they show at least this
/// much (mm²; a treasure's top is ~150).
const SECOND_LOOK_MIN_MM2: f64 = 150.0;
/// A treasure fitted on the table beside a ship is taken on its deck when the fit there explains
/// at least its quality less this ([`Detector::rebase`]): the two explain much the same pixels
/// (scene 730's gold bar: 0.89 on the table, 0.86 on the deck).
const REBASE_BESIDE_QUALITY_SLACK: f64 = 0.05;
/// Most pieces one region may hold (a guard against runaway loops).
const MAX_PIECES_PER_REGION: usize = 64;
/// The mark of pixels a kept piece explains ([`Detector::detect_around`]): above any detection's.
const KEPT: u16 = u16::MAX;
/// A piece found in a region.
#[derive(Debug, Clone)]
pub struct Detection {
    /// Index into the models.
    pub model: usize,
    pub fit: Fit,
    /// The ink die's top colour.
    pub top: Option<DieTop>,
    /// Another model whose fit on the same seed explained nearly as many pixels
    /// ([`CLOSE_GAIN_SHARE`](best_fit::CLOSE_GAIN_SHARE)), at its comparison pose: what the piece may be instead when the box
    /// holds fewer of its kind than were found (a black Octo-Canon taken for the ink die, while
    /// the real die is found elsewhere).
    pub runner_up: Option<(usize, Fit)>,
    /// A shadow-like piece ([`Model::shadow_like`]) found only once the shadow pixels of its
    /// colour counted for it (at first weighing, they count a little against every piece): a
    /// black die on a grey table reads as a shadow but for its rim. Its later fits count them
    /// too, and its pixels include them.
    pub on_shadows: bool,
    /// Colours besides its model's whose pixels under its silhouette it explains: a treasure
    /// taken over a look-alike of nearly one colour in the colours of both (a goblet whose top
    /// reads best as gold: see [`Detector::look_alike_contest`](best_fit)). Without them, what
    /// reads best as the look-alike's colour would seed that piece again where it stands.
    pub also_explains: ColourSet,
}

/// Reusable state for one frame's detection.
#[derive(Debug, Default)]
pub struct Detector {
    scratch: ScoreScratch,
    /// Seeds are being fitted again with shadow pixels counting for shadow-like pieces.
    on_shadows: bool,
    /// The seed being fitted lies partly inside pieces found already (see
    /// [`NEAR_PIECES_SHARE`]).
    near_pieces: bool,
    /// A best fit is weighing what a contender would leave (see [`Detector::look_ahead`]).
    looking_ahead: bool,
    /// Models not tried in the current call (see [`Detector::detect_excluding`]).
    excluded: Vec<bool>,
    /// Pieces kept from an earlier look at the region (see [`Detector::detect_around`]): their
    /// decks carry treasures found now.
    kept: Vec<Detection>,
    /// Pixels they explain ([`KEPT`]; 0 elsewhere): these count neither way and seed nothing.
    kept_marks: Vec<u16>,
    /// Per region pixel, the colours of the pieces found so far (and kept) whose silhouettes
    /// cover it; 0 where none does.
    covered: Vec<u32>,
    /// The pieces found so far in the current call that treasures ride on.
    decks: Vec<Deck>,
    /// ...and of the round ones nothing rides on (see [`is_solid`]).
    solids: Vec<PolygonMm>,
    /// Per detection found so far in the current call (id - 1), what it may hide others by.
    occluders: Vec<Occluder>,
    /// Height (mm) at which [`Detector::best_fit`] fits: 0 on the table, a deck's height when
    /// looking for loads on it.
    base_mm: f64,
    /// Pieces dropped from the region for being over their kind's count, before this second
    /// look at it ([`Detector::set_dropped`]); none on a first look.
    dropped: Vec<Dropped>,
}

/// A piece dropped from a region over its kind's count.
#[derive(Debug, Clone, Copy)]
struct Dropped {
    /// Its centre, table mm.
    at: PointMm,
    /// Its fit's [`Fit::quality`].
    quality: f64,
    /// Its catalog entry.
    entry: usize,
    /// Its model's [`Model::footprint_radius_mm`].
    radius_mm: f64,
}

/// What a region held.
#[derive(Debug, Clone, Default)]
pub struct RegionResult {
    pub detections: Vec<Detection>,
    /// The largest connected patch of changed pixels no accepted piece's silhouette covers.
    pub unexplained_px: usize,
    /// Their bounding box in region pixels, when any.
    pub unexplained_box: Option<(usize, usize, usize, usize)>,
}

impl Detector {
    /// Whether model `mi` is not tried in the current call.
    fn is_excluded(&self, mi: usize) -> bool {
        self.excluded.get(mi).copied().unwrap_or(false)
    }

    /// Finds the pieces in `region`.
    pub fn detect(&mut self, region: &Region, models: &[Model], view: &Viewpoint) -> RegionResult {
        self.detect_excluding(region, models, view, &[])
    }

    /// Finds the pieces in `region` without trying the models marked in `excluded` (by model
    /// index; missing entries are tried): pieces the frame already holds as many of as the box
    /// has.
    pub fn detect_excluding(
        &mut self,
        region: &Region,
        models: &[Model],
        view: &Viewpoint,
        excluded: &[bool],
    ) -> RegionResult {
        self.dropped.clear();
        self.detect_around(region, models, view, excluded, &[])
    }

    /// Tells the next [`Detector::detect_around`] which pieces were dropped from the region over
    /// their kind's count (until the next [`Detector::detect_excluding`]): where one fitted
    /// well, a treasure of another kind is accepted on less of its outline
    /// ([`Detector::stands_for_dropped`]). A goblet behind a tentacle shows a sliver of its cup,
    /// which a gold bar fits better; with the box's four gold bars found elsewhere, the sliver
    /// is the goblet.
    pub fn set_dropped<'a>(&mut self, models: &[Model], dropped: impl IntoIterator<Item = &'a Detection>) {
        self.dropped = dropped
            .into_iter()
            .filter_map(|d| {
                let m = models.get(d.model)?;
                Some(Dropped {
                    at: d.fit.pose.center_mm,
                    quality: d.fit.quality(),
                    entry: m.entry,
                    radius_mm: m.footprint_radius_mm(),
                })
            })
            .collect();
    }

    /// Like [`Detector::detect_excluding`], around pieces `kept` from an earlier look at the
    /// region: their pixels are explained before anything is fitted (they weigh nothing and
    /// seed nothing), and they are not part of the result.
    pub fn detect_around(
        &mut self,
        region: &Region,
        models: &[Model],
        view: &Viewpoint,
        excluded: &[bool],
        kept: &[Detection],
    ) -> RegionResult {
        self.excluded = excluded.to_vec();
        let n = region.len();
        self.kept = kept.to_vec();
        self.kept_marks = vec![0; n];
        self.covered = vec![0; n];
        for d in kept {
            mark_detection(region, &models[d.model], d, &mut self.kept_marks, KEPT);
            self.cover(region, &models[d.model], &d.fit.silhouette);
        }
        // 0 = unexplained; k + 1 = explained by detection k; [`KEPT`] by a kept piece.
        let mut explained: Vec<u16> = self.kept_marks.clone();
        let mut detections: Vec<Detection> = Vec::new();
        let all: Vec<usize> = (0..n).filter(|&p| region.labels[p] == Label::Piece).collect();
        let queue = split(region, &all, &explained);
        self.grow(region, models, view, &mut detections, &mut explained, queue);
        let first_marks = explained.clone();
        // Every piece is refined to its final pose, with the others' pixels counting neither
        // way. A piece against one of its colour is fitted once more against the others' final
        // silhouettes: the first marks came from their comparison poses, which may hold some of
        // its pixels (an anchor against its ship).
        let mut alike = self.finish(region, models, view, &mut detections, &explained, None);
        let poor_hull = detections.iter().any(|d| {
            matches!(models[d.model].shape, Shape::Hull { .. }) && d.fit.quality() < UNTANGLED_HULL_QUALITY
        });
        if alike.iter().any(|&t| t) || poor_hull {
            self.untangle(region, models, view, &mut detections, &explained);
            explained = remarked(region, models, &detections, &self.kept_marks);
            // A piece freed from a hull is refined against the others' final silhouettes too.
            alike.resize(detections.len(), true);
            self.finish(region, models, view, &mut detections, &explained, Some(&alike));
        }
        // A second look at what the final poses leave: a piece whose pixels a neighbour held
        // from its first, rougher pose (an anchor at its ship's side) was turned down then.
        // Only seeds holding such freed pixels are new; the rest were turned down as they are.
        explained = remarked(region, models, &detections, &self.kept_marks);
        let found = detections.len();
        let left: Vec<Vec<usize>> = split(region, &all, &explained)
            .into_iter()
            .filter(|s| {
                s.len() >= count_px(SECOND_LOOK_MIN_MM2, region.mm_per_px)
                    && s.iter().filter(|&&p| first_marks[p] != 0).count() as f64
                        >= min_gain_px(region.mm_per_px)
            })
            .collect();
        if !left.is_empty() {
            self.grow(region, models, view, &mut detections, &mut explained, left);
            if detections.len() > found {
                let new: Vec<bool> = (0..detections.len()).map(|k| k >= found).collect();
                self.finish(region, models, view, &mut detections, &explained, Some(&new));
                explained = remarked(region, models, &detections, &self.kept_marks);
            }
        }
        self.deck_loads(region, models, view, &mut detections, &mut explained);
        self.rebase(region, models, view, &mut detections, &explained);
        drop_treasures_inside_pieces(models, &mut detections, kept);
        for d in &mut detections {
            if models[d.model].kind == PieceKind::InkDie {
                d.top = die_top(region, &models[d.model], &d.fit, view);
            }
        }
        let (unexplained_px, unexplained_box) = unexplained(region, detections.iter().chain(kept));
        RegionResult {
            detections,
            unexplained_px,
            unexplained_box,
        }
    }

    /// Takes seeds (largest first) and fits the model that explains most of each, marking its
    /// pixels in `explained` (as detection k + 1) and its silhouette in `covered`; what a piece
    /// leaves of its seed seeds the next ones.
    #[allow(clippy::too_many_arguments)]
    fn grow(
        &mut self,
        region: &Region,
        models: &[Model],
        view: &Viewpoint,
        detections: &mut Vec<Detection>,
        explained: &mut [u16],
        mut queue: Vec<Vec<usize>>,
    ) {
        // Largest seeds last, so they are taken first.
        queue.sort_by_key(|s| s.len());
        while let Some(seed) = queue.pop() {
            if detections.len() >= MAX_PIECES_PER_REGION {
                break;
            }
            let seed: Vec<usize> = seed.into_iter().filter(|&p| explained[p] == 0).collect();
            if seed.len() < min_seed_own_px(region) {
                continue;
            }
            let inside = seed.iter().filter(|&&p| self.covered[p] != 0).count();
            let floor = if 2 * inside >= seed.len() {
                MIN_QUALITY_INSIDE
            } else {
                0.0
            };
            self.near_pieces = inside as f64 > NEAR_PIECES_SHARE * seed.len() as f64;
            self.decks = detections
                .iter()
                .enumerate()
                .map(|(k, d)| (k as u16 + 1, d))
                .chain(self.kept.iter().map(|d| (KEPT, d)))
                .filter(|(_, d)| models[d.model].carries_treasures())
                .map(|(mark, d)| {
                    let m = &models[d.model];
                    Deck {
                        footprint: m.footprint(&d.fit.pose),
                        height_mm: d.fit.pose.base_mm + m.solid.height_mm,
                        mark,
                        ship: m.kind != PieceKind::Island,
                    }
                })
                .collect();
            self.solids = detections
                .iter()
                .chain(&self.kept)
                .filter(|d| is_solid(&models[d.model]))
                .map(|d| models[d.model].footprint(&d.fit.pose))
                .collect();
            self.occluders = occluders_of(models, view, detections.iter());
            let found = match self.best_fit(region, models, view, explained, &seed, floor) {
                Some(found) => Some((found, false)),
                None if models
                    .iter()
                    .enumerate()
                    .any(|(mi, m)| m.shadow_like && !self.is_excluded(mi)) =>
                {
                    self.on_shadows = true;
                    let found = self.best_fit(region, models, view, explained, &seed, floor);
                    self.on_shadows = false;
                    found.map(|f| (f, true))
                }
                None => None,
            };
            let Some((
                Best {
                    model: mi,
                    fit,
                    runner_up,
                    also_explains,
                },
                on_shadows,
            )) = found
            else {
                continue;
            };
            let k = detections.len() as u16 + 1;
            let detection = Detection {
                model: mi,
                fit,
                top: None,
                runner_up,
                on_shadows,
                also_explains,
            };
            let marked = mark_detection(region, &models[mi], &detection, explained, k);
            if (marked as f64) < min_gain_px(region.mm_per_px) {
                continue;
            }
            self.cover(region, &models[mi], &detection.fit.silhouette);
            detections.push(detection);
            // What the piece did not explain seeds the next ones.
            queue.extend(split(region, &seed, explained));
            queue.sort_by_key(|s| s.len());
        }
    }

    /// Refines every piece not placed by its top to its final pose, on a map of its window where
    /// the other pieces' `explained` pixels count neither way; with `only`, just the pieces it
    /// marks. Returns which pieces touch a piece that shares one of their colours.
    ///
    /// The first pass tries a ship among its anchor and loads turned back from them too (it may
    /// have been fitted turned towards them). The second, once the others' pixels are marked from
    /// their final poses, tries its pieces all the way round: a piece against one of its colour
    /// (an anchor at its ship) may have been turned by the pixels the other held when it was
    /// found.
    fn finish(
        &mut self,
        region: &Region,
        models: &[Model],
        view: &Viewpoint,
        detections: &mut [Detection],
        explained: &[u16],
        only: Option<&[bool]>,
    ) -> Vec<bool> {
        let boxes: Vec<Option<(PointMm, PointMm)>> =
            detections.iter().map(|d| d.fit.silhouette.bounds()).collect();
        let near = |j: usize, k: usize| match (&boxes[j], &boxes[k]) {
            (Some((a0, a1)), Some((b0, b1))) => {
                let m = WINDOW_MARGIN_MM;
                j != k && !(a1.x + m < b0.x || b1.x + m < a0.x || a1.y + m < b0.y || b1.y + m < a0.y)
            }
            _ => false,
        };
        let n = detections.len();
        let occluders = occluders_of(models, view, detections.iter());
        let touching: Vec<bool> = (0..n).map(|k| (0..n).any(|j| near(j, k))).collect();
        let alike: Vec<bool> = (0..n)
            .map(|k| {
                let colours = models[detections[k].model].colours;
                (0..n).any(|j| near(j, k) && colours.contains_any(models[detections[j].model].colours.0))
            })
            .collect();
        for k in 0..n {
            let model = &models[detections[k].model];
            if model.seen_by_top || only.is_some_and(|o| !o.get(k).copied().unwrap_or(false)) {
                continue;
            }
            let pose = detections[k].fit.pose;
            let hull_retry = only.is_none() && touching[k] && matches!(model.shape, Shape::Hull { .. });
            let margin = if hull_retry {
                WINDOW_MARGIN_MM + model.reach_mm(view, pose.center_mm)
            } else {
                WINDOW_MARGIN_MM
            };
            let win = window_around(region, &detections[k].fit.silhouette, margin);
            let map = weight_map(
                region,
                model,
                explained,
                Some(k as u16 + 1),
                win,
                detections[k].on_shadows,
                &occluders,
            );
            let (solid, round) = (&model.solid, model.round);
            let compare = |pose: Pose2, scratch: &mut ScoreScratch| {
                refine_pose(solid, &map, view, pose, round, Precision::COMPARE, scratch)
            };
            let start = if hull_retry {
                HULL_RETRY_TURNS
                    .iter()
                    .filter_map(|&turn| {
                        let start = Pose2 {
                            angle_rad: pose.angle_rad + turn,
                            ..pose
                        };
                        compare(start, &mut self.scratch)
                    })
                    .max_by(|a, b| a.gain.total_cmp(&b.gain))
                    .map_or(pose, |f| f.pose)
            } else if only.is_some() && !round {
                let angles: Vec<f64> = (1..ROUND_AGAIN_STARTS)
                    .map(|t| pose.angle_rad + t as f64 * model.period / ROUND_AGAIN_STARTS as f64)
                    .collect();
                let turned = fit_pose(
                    solid,
                    &map,
                    view,
                    pose.center_mm,
                    &angles,
                    pose.base_mm,
                    &mut self.scratch,
                )
                .and_then(|f| compare(f.pose, &mut self.scratch));
                [compare(pose, &mut self.scratch), turned]
                    .into_iter()
                    .flatten()
                    .max_by(|a, b| a.gain.total_cmp(&b.gain))
                    .map_or(pose, |f| f.pose)
            } else {
                pose
            };
            if let Some(f) = refine_pose(
                solid,
                &map,
                view,
                start,
                round,
                Precision::FINAL,
                &mut self.scratch,
            ) {
                detections[k].fit = f;
            }
        }
        alike
    }

    /// Marks `sil` as covered by a piece of `model`'s colours.
    fn cover(&mut self, region: &Region, model: &Model, sil: &Silhouette) {
        let colours = model.colours.0;
        let covered = &mut self.covered;
        for_each_inside(region, &sil.polygons, |p| {
            if let Some(c) = covered.get_mut(p) {
                *c |= colours;
            }
        });
    }

    /// Treasures standing on a ship's deck or on the island: fitted again at that height (a
    /// treasure's base on the table cannot overlap a ship's). So is a treasure fitted on the
    /// table beside a ship whose middle, seen as standing on the deck, lies over it: from a low,
    /// tilted camera a load's image leans off its deck, and fitted at table height it stood
    /// 19 mm from where it rode, touching the hull, a loose treasure called closest
    /// (`bench --seed 701`, scene 730). It is taken on the deck when the fit there is about as
    /// good ([`REBASE_BESIDE_QUALITY_SLACK`]) and stands on it.
    fn rebase(
        &mut self,
        region: &Region,
        models: &[Model],
        view: &Viewpoint,
        detections: &mut [Detection],
        explained: &[u16],
    ) {
        let hosts: Vec<(PolygonMm, f64, bool)> = detections
            .iter()
            .chain(&self.kept)
            .filter(|d| models[d.model].carries_treasures())
            .map(|d| {
                let m = &models[d.model];
                (
                    m.footprint(&d.fit.pose),
                    m.solid.height_mm,
                    m.kind != PieceKind::Island,
                )
            })
            .collect();
        let occluders = occluders_of(models, view, detections.iter());
        for (k, d) in detections.iter_mut().enumerate() {
            let model = &models[d.model];
            if model.kind != PieceKind::Treasure {
                continue;
            }
            let fp = model.footprint(&d.fit.pose);
            let mid = model.solid.height_mm / 2.0;
            let seen = view.apparent(d.fit.pose.center_mm, d.fit.pose.base_mm + mid);
            let on = hosts.iter().find(|(hull, _, ship)| {
                if *ship {
                    hull.contains(d.fit.pose.center_mm) || hull.gap(&fp) <= 0.0
                } else {
                    hull.contains(d.fit.pose.center_mm)
                }
            });
            let beside = || {
                hosts.iter().find(|(hull, height, ship)| {
                    *ship && d.fit.pose.base_mm == 0.0 && hull.contains(view.below(seen, mid + height))
                })
            };
            let (host, least_quality) = match on {
                Some(h) => (Some(h), f64::NEG_INFINITY),
                None => (beside(), d.fit.quality() - REBASE_BESIDE_QUALITY_SLACK),
            };
            let Some((hull, height, _)) = host else { continue };
            // Keep the treasure's middle where it was seen, now standing `height` up.
            let start = Pose2 {
                center_mm: view.below(seen, mid + height),
                base_mm: *height,
                ..d.fit.pose
            };
            let win = window_around(region, &d.fit.silhouette, WINDOW_MARGIN_MM + 2.0 * *height);
            let map = weight_map(
                region,
                model,
                explained,
                Some(k as u16 + 1),
                win,
                d.on_shadows,
                &occluders,
            );
            if let Some(f) = refine_pose(
                &model.solid,
                &map,
                view,
                start,
                model.round,
                Precision::FINAL,
                &mut self.scratch,
            ) && hull.contains(f.pose.center_mm)
                && f.quality() >= least_quality
            {
                d.fit = f;
            }
        }
    }
}
