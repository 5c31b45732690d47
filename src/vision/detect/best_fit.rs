//! The model that explains a seed best: every model whose colours the seed shows is fitted,
//! the close ones compared refined, and a contender that leaves a better rest taken instead.

use super::decks::{MAX_SHARE_ON_DECK, deck_covered, share_on};
use super::marks::{for_each_inside, mark_explained};
use super::model::{MIN_QUALITY, Model, moments};
use super::occluder::held_key;
use super::seeds::{
    bbox, deepest_pixel, largest_patch_centre_of, largest_seed_patch, mean_mm, min_seed_own_px, split,
};
use super::weights::{MapKey, W_OTHER, WINDOW_MARGIN_MM, Window, weight_map, window_around};
use super::{Detector, min_gain_px};
use crate::table::{PieceKind, PointMm, Shape};
use crate::vision::colour::ColourSet;
use crate::vision::fit::{Fit, PoseGrid, Precision, fit_pose, grid_poses, refine_pose, score_at};
use crate::vision::labels::Label;
use crate::vision::raster::WeightMap;
use crate::vision::region::Region;
use crate::vision::view::{Pose2, Viewpoint};
use std::collections::HashMap;

/// A seed mostly inside pieces found already holds a fit to
/// [`MIN_QUALITY_INSIDE`](super::MIN_QUALITY_INSIDE) only when at
/// least this share of the free piece pixels the fit holds inside those pieces show
/// their colours (compatible) and read best as none of the fitted model's: a goblet on the pink
/// pirate ship's deck shows none of its pink, and is held to [`MIN_QUALITY`] like a piece on the
/// table; nor is a white captain on the island's sand, whose pixels pass for pale sand but read
/// best as the captain's white.
const HOST_LIKE_MIN_SHARE: f64 = 0.25;
/// A piece of the table's hue, lighter than it (see [`Model::table_hue`]), must show its main
/// colour over this share of its silhouette: its second colour and the table's, weighed
/// lightly, would otherwise let it cover a piece of its second colour (the island over a green
/// anchor, its palm's colour).
pub(super) const TABLE_HUE_MIN_MAIN_SHARE: f64 = 0.25;
/// In [`Detector::best_fit`], up to this many models whose first fits explain at least this share
/// of the best one's gain are turned to their best angle before one is chosen.
const CONTENDERS: usize = 3;
const CONTENDER_SHARE: f64 = 0.75;
/// Contenders whose fits lie further apart than this (mm) are started again at each other's
/// centres (see [`Detector::best_fit`]).
const CROSS_START_MIN_MM: f64 = 6.0;
/// A contender explaining less than this share of its silhouette is also started where its
/// colours lie outside each other candidate's silhouette (see [`Detector::best_fit`]).
const CROSS_REST_MAX_QUALITY: f64 = 0.6;
/// Evenly spaced start angles per symmetry period for near-isotropic footprints.
pub(super) const ISOTROPIC_STARTS: usize = 6;
/// A two-coloured piece's second start (on its main colour) is tried when it lies at least this
/// far from the first.
const SECOND_START_MIN_MM: f64 = 3.0;
/// Spacing of the grid a round piece's failed fit is looked for again on, mm (a goblet's
/// footprint radius is 11 mm): [`refine_pose`] from the best of it reaches the piece...
const ROUND_GRID_STEP_MM: f64 = 4.0;
/// ...when its seed's own pixels cover less than this share of its footprint (a goblet's lit
/// rim: 0.35).
const CRESCENT_MAX_SHARE: f64 = 0.6;
/// A round or near-isotropic piece whose seed shows more of its colours than this many of its
/// footprints is also started at the seed's deepest point (see [`deepest_pixel`]): the seed
/// holds other pieces too (the octopus's head with its tentacles around it), and the centre of
/// all their pixels may lie between them, where the fit settles half on the head.
const SEED_OF_MANY_FOOTPRINTS: f64 = 1.5;
/// A contender this much better fitting (quality) than a seed's winner is weighed with what
/// it leaves (see [`Detector::look_ahead`]).
const LOOK_AHEAD_QUALITY: f64 = 0.05;
/// ...counting what it leaves only where a piece fits that well: a fragment a lowered floor lets
/// through (an anchor laid again on what a first one left of a chest) is no piece.
const LOOK_AHEAD_REST_QUALITY: f64 = 0.7;
/// The mark of pixels a contender explains while [`Detector::look_ahead`] weighs it.
const LOOKED_AHEAD: u16 = u16::MAX - 1;
/// Two treasures are of nearly one colour on a seed when at least this share of its pixels
/// compatible with either's colours are compatible with both ([`Detector::look_alike_contest`]).
const LOOK_ALIKE_SHARED_SHARE: f64 = 0.6;
/// ...and a rival is taken only when it explains at least this share of its silhouette in the
/// colours of both: a seed left beside a piece found already (a goblet's shaded side) may be
/// explained better by a goblet laid half over bare table than by a gold bar, and is neither.
const LOOK_ALIKE_TAKEN_QUALITY: f64 = 0.75;
/// See [`beats`].
pub(super) const CLOSE_GAIN_SHARE: f64 = 0.9;
const CLEARLY_BETTER_QUALITY: f64 = 0.25;
/// Models whose colours the seed shows in less than this share of the pixels of the model it
/// shows most are not fitted.
const PRUNE_BEST_SHARE: f64 = 0.3;
/// A piece dropped over its kind's count that fitted at least this well
/// ([`Detector::stands_for_dropped`])...
const DROPPED_MIN_QUALITY: f64 = 0.3;
/// ...leaves this the least quality a treasure of another kind needs where it stood: what the
/// box cannot hold more of was there, and a treasure may be what it was.
pub(super) const LOOK_ALIKE_MIN_QUALITY: f64 = 0.1;
/// Models whose seed pixels cover less than this share of their footprint are not fitted.
pub(super) const PRUNE_AREA_SHARE: f64 = 0.3;
/// ...and for a piece whose main colour looks like the table (a white captain on a pale table
/// shows little more than its hat), or of the table's hue when its seed with the shadows
/// beside it covers [`PRUNE_AREA_SHARE`] (see [`shaded_rest`]).
const PRUNE_AREA_SHARE_TABLE_LIKE: f64 = 0.12;
/// The least quality of a fit on a seed let through for the shadows beside it: the other
/// half of its silhouette must show the piece. Below it, the shaded side of an orange anchor
/// and its cast shadow read as a chest (`bench --seed 101`, scene 109).
const SHADED_SEED_MIN_QUALITY: f64 = 0.2;
/// A piece seen by its top (see [`Model::seen_by_top`]) must show its top's colour over at
/// least this share of the top's area (a quarter: on a pale grey table the rim of a captain's
/// navy hat, blurred into the table, reads as shadow).
const MIN_TOP_SHARE: f64 = 0.25;
/// ...unless its body alone explains at least this share of its silhouette (bare table weighing
/// as little as it does for such a piece): a white captain on a pale grey table shows only the
/// lit side of its body, a quarter to a third of its silhouette.
const BODY_SEEN_QUALITY: f64 = 0.25;
/// A piece placed by its body that way stands at most this share of its footprint inside a round
/// piece found already (the octopus's white eyes, leaning past its outline, look like one).
const MAX_SHARE_BODY_ON_SOLID: f64 = 0.1;
/// Height of the visible middle of such a top, as a share of the piece's height (the captain's
/// hat: brim at 0.80-0.84, crown up to 1).
const TOP_SEEN_AT: f64 = 0.9;

/// A seed's best fit (model index and fit), and another model's nearly as good
/// ([`Detection::runner_up`](super::Detection::runner_up)).
pub(super) struct Best {
    pub(super) model: usize,
    pub(super) fit: Fit,
    pub(super) runner_up: Option<(usize, Fit)>,
    /// See [`Detection::also_explains`](super::Detection::also_explains).
    pub(super) also_explains: ColourSet,
}

/// A model [`Detector::best_fit`] will fit to a seed: the seed's pixels of its colours (as
/// region indices and table points) and their centre, its window and weight map, and an upper
/// bound on the gain of any fit on that map ([`WeightMap::score_bound`]).
#[derive(Debug)]
struct Plan {
    pub(super) model: usize,
    pub(super) own: Vec<usize>,
    pub(super) pts: Vec<PointMm>,
    pub(super) seed_centre: PointMm,
    pub(super) win: Window,
    pub(super) map_key: MapKey,
    pub(super) bound: f64,
    /// The seed shows less than [`PRUNE_AREA_SHARE`] of the footprint in the model's colours, and
    /// was let through for shadows beside it ([`shaded_rest`]): its fit must reach
    /// [`SHADED_SEED_MIN_QUALITY`].
    pub(super) shaded: bool,
}

impl Detector {
    /// `quality_floor` for `fit` of `model`, or none when the free piece pixels it holds inside
    /// pieces found show those pieces' colours too little to be their leftovers
    /// ([`HOST_LIKE_MIN_SHARE`]). A pixel that reads best as one of `model`'s colours is the
    /// piece's own, whatever else it may pass for.
    pub(super) fn floor_for_fit(
        &self,
        model: &Model,
        region: &Region,
        explained: &[u16],
        fit: &Fit,
        quality_floor: f64,
    ) -> f64 {
        if quality_floor <= 0.0 {
            return quality_floor;
        }
        let (mut inside, mut host_like) = (0usize, 0usize);
        for_each_inside(region, &fit.silhouette.polygons, |p| {
            let c = self.covered.get(p).copied().unwrap_or(0);
            if c != 0 && explained[p] == 0 && region.labels[p] == Label::Piece {
                inside += 1;
                let colours = region.colours[p];
                if c & colours.compatible != 0 && !model.colours.contains_any(colours.best) {
                    host_like += 1;
                }
            }
        });
        if (host_like as f64) < HOST_LIKE_MIN_SHARE * inside as f64 {
            0.0
        } else {
            quality_floor
        }
    }

    /// The least quality `fit` of `model` needs on the current seed, with the seed's floor
    /// `quality_floor` (see [`floor_for`]) as [`Self::floor_for_fit`] holds it for this fit.
    pub(super) fn quality_needed(
        &self,
        model: &Model,
        region: &Region,
        explained: &[u16],
        fit: &Fit,
        quality_floor: f64,
    ) -> f64 {
        let quality_floor = self.floor_for_fit(model, region, explained, fit, quality_floor);
        let near = if self.near_pieces && model.paler_table {
            MIN_QUALITY
        } else {
            0.0
        };
        let needed = model.min_quality.max(floor_for(model, quality_floor)).max(near);
        if self.stands_for_dropped(model, fit) {
            needed.min(LOOK_ALIKE_MIN_QUALITY)
        } else {
            needed
        }
    }

    /// Whether `fit` of `model`, a treasure, stands where a piece of another kind was dropped
    /// over its count before this look, having fitted at least [`DROPPED_MIN_QUALITY`]: discs as
    /// large as their footprints ([`Model::footprint_radius_mm`]) would overlap. Such a fit needs only
    /// [`LOOK_ALIKE_MIN_QUALITY`] ([`Detector::quality_needed`]).
    pub(super) fn stands_for_dropped(&self, model: &Model, fit: &Fit) -> bool {
        model.kind == PieceKind::Treasure
            && self.dropped.iter().any(|d| {
                d.entry != model.entry
                    && d.quality >= DROPPED_MIN_QUALITY
                    && d.at.distance(fit.pose.center_mm) < model.footprint_radius_mm() + d.radius_mm
            })
    }

    /// The model that explains most of a seed, fitted; `None` when no model explains enough.
    pub(super) fn best_fit(
        &mut self,
        region: &Region,
        models: &[Model],
        view: &Viewpoint,
        explained: &[u16],
        seed: &[usize],
        quality_floor: f64,
    ) -> Option<Best> {
        let mut maps: HashMap<MapKey, WeightMap> = HashMap::new();
        let mut candidates: Vec<(usize, Fit, MapKey, usize)> = Vec::new();
        let mut plans: Vec<Plan> = Vec::new();
        let (sx0, sy0, sx1, sy1) = bbox(region, seed);
        // Models whose colours the seed shows far less than another model's are not tried.
        // Compatible, not only best, matches count: two pieces of nearly one colour (the
        // octopus's pink, the die's pink faces) must both be tried, and shape decides.
        let best_counts: Vec<usize> = models
            .iter()
            .enumerate()
            .map(|(mi, m)| {
                if self.is_excluded(mi) || (self.on_shadows && !m.shadow_like) {
                    return 0;
                }
                seed.iter()
                    .filter(|&&p| m.colours.contains_any(region.colours[p].compatible))
                    .count()
            })
            .collect();
        let max_best = best_counts.iter().copied().max().unwrap_or(0);
        for (mi, model) in models.iter().enumerate() {
            if best_counts[mi] == 0 || (best_counts[mi] as f64) < PRUNE_BEST_SHARE * max_best as f64 {
                continue;
            }
            // On shadows, a shadow-like piece's seed is its rim in its own dark colour, or its
            // lit faces in its other colour beside dark faces read as shadow (the ink die's red
            // sides round its black top): those must show that colour as their best, or any
            // pink piece's leftover pixels beside its shadow would seed a die.
            let colours = if self.on_shadows {
                model.primary
            } else {
                model.colours
            };
            let own: Vec<usize> = seed
                .iter()
                .copied()
                .filter(|&p| {
                    let c = region.colours[p];
                    colours.contains_any(c.compatible)
                        || (self.on_shadows && model.colours.contains_any(c.best))
                })
                .collect();
            let px_area = region.mm_per_px * region.mm_per_px;
            let fp_share = (own.len() as f64) * px_area / model.footprint_area_mm2;
            let shaded = !(model.table_like || self.on_shadows)
                && fp_share < PRUNE_AREA_SHARE
                && model.paler_table
                && shaded_rest(region, model, &own);
            let share = if model.table_like || self.on_shadows || shaded {
                PRUNE_AREA_SHARE_TABLE_LIKE
            } else {
                PRUNE_AREA_SHARE
            };
            if own.len() < min_seed_own_px(region)
                || (own.len() as f64) * px_area < share * model.footprint_area_mm2
            {
                continue;
            }
            let pts: Vec<PointMm> = own
                .iter()
                .map(|&p| region.px_to_mm((p % region.width) as f64, (p / region.width) as f64))
                .collect();
            let seed_centre = mean_mm(&pts);
            // The window must hold the whole silhouette wherever in the seed the piece is.
            let reach = model.reach_mm(view, seed_centre) + WINDOW_MARGIN_MM;
            let r = (reach / region.mm_per_px).ceil() as usize;
            let win = Window {
                x0: sx0.saturating_sub(r),
                y0: sy0.saturating_sub(r),
                x1: (sx1 + 1 + r).min(region.width),
                y1: (sy1 + 1 + r).min(region.height),
            };
            let map_key = (
                model.colours.0,
                model.table_weight.to_bits(),
                model.shadow_weight.to_bits(),
                held_key(model, &self.occluders),
                self.on_shadows && model.shadow_like,
                model.dark,
                win,
            );
            let map = maps.entry(map_key).or_insert_with(|| {
                weight_map(
                    region,
                    model,
                    explained,
                    None,
                    win,
                    self.on_shadows,
                    &self.occluders,
                )
            });
            // A silhouette with a mouth scores the mouth's losses back: the bound is the body's.
            let bound = if model.solid.mouth.is_none() {
                map.score_bound()
            } else {
                f64::INFINITY
            };
            plans.push(Plan {
                model: mi,
                own,
                pts,
                seed_centre,
                win,
                map_key,
                bound,
                shaded,
            });
        }
        // Fitted in order of how much they could explain at best: a model that cannot reach
        // [`CONTENDER_SHARE`] of a candidate already found never contends (the candidates are
        // ranked by gain below, and the contest ends at the first one out of reach), so it is
        // not fitted at all. Candidates keep the models' order, as ties in gain need.
        let mut order: Vec<usize> = (0..plans.len()).collect();
        order.sort_by(|&a, &b| plans[b].bound.total_cmp(&plans[a].bound));
        let mut top_so_far = f64::NEG_INFINITY;
        for k in order {
            let plan = &plans[k];
            if top_so_far > 0.0 && plan.bound < CONTENDER_SHARE * top_so_far {
                continue;
            }
            let Some(map) = maps.get(&plan.map_key) else {
                continue;
            };
            let model = &models[plan.model];
            let Some(fit) = self.fit_model(
                region,
                model,
                map,
                view,
                explained,
                seed,
                plan,
                quality_floor,
                None,
            ) else {
                continue;
            };
            top_so_far = top_so_far.max(fit.gain);
            candidates.push((plan.model, fit, plan.map_key, k));
        }
        candidates.sort_by_key(|c| c.0);
        candidates.sort_by(|a, b| b.1.gain.total_cmp(&a.1.gain));
        let top_gain = candidates.first()?.1.gain;
        // Contenders that settled apart start again where the others did: a seed holding two
        // pieces (a tentacle and the die beside it) may centre one model's starts between them,
        // where it settles short of pixels, while another model found the piece.
        let contenders = candidates
            .iter()
            .take(CONTENDERS)
            .take_while(|c| c.1.gain >= CONTENDER_SHARE * top_gain)
            .count();
        let centres: Vec<PointMm> = candidates.iter().map(|c| c.1.pose.center_mm).collect();
        for a in 0..contenders {
            let centre = centres[a];
            for (b, at) in centres.iter().enumerate() {
                if a == b || at.distance(centre) <= CROSS_START_MIN_MM {
                    continue;
                }
                let (mi, _, key, k) = candidates[a];
                // A contender that settled short of pixels also starts where its colours lie
                // outside another candidate's silhouette: with the die fitted beside it, what is
                // left is the tentacle, which started between the two.
                let rest = if candidates[a].1.quality() < CROSS_REST_MAX_QUALITY {
                    let mut covered = Vec::new();
                    for_each_inside(region, &candidates[b].1.silhouette.polygons, |p| covered.push(p));
                    covered.sort_unstable();
                    let outside: Vec<PointMm> = plans[k]
                        .own
                        .iter()
                        .zip(&plans[k].pts)
                        .filter(|(p, _)| covered.binary_search(p).is_err())
                        .map(|(_, &pt)| pt)
                        .collect();
                    (outside.len() >= min_seed_own_px(region))
                        .then(|| mean_mm(&outside))
                        .filter(|r| r.distance(centre) > CROSS_START_MIN_MM)
                } else {
                    None
                };
                let across = (b < contenders).then_some(*at);
                for start in across.into_iter().chain(rest) {
                    let Some(map) = maps.get(&key) else {
                        continue;
                    };
                    let again = self.fit_model(
                        region,
                        &models[mi],
                        map,
                        view,
                        explained,
                        seed,
                        &plans[k],
                        quality_floor,
                        Some(start),
                    );
                    if let Some(fit) = again.filter(|f| f.gain > candidates[a].1.gain) {
                        candidates[a].1 = fit;
                    }
                }
            }
        }
        candidates.sort_by_key(|c| c.0);
        candidates.sort_by(|a, b| b.1.gain.total_cmp(&a.1.gain));
        let top_gain = candidates.first()?.1.gain;
        // Models within reach of the best are compared refined: a piece that fits only at the
        // right turn (an anchor's outline) loses, unturned, to a plainer one of a like colour
        // (a chest) that fits badly anywhere.
        let mut contest: Vec<(usize, Fit, MapKey)> = Vec::new();
        // Sorted by gain, so the first one out of reach ends the contest.
        for (rank, (mi, fit, key, _)) in candidates.into_iter().enumerate() {
            if rank >= CONTENDERS || fit.gain < CONTENDER_SHARE * top_gain {
                break;
            }
            let model = &models[mi];
            let fit = match maps.get(&key) {
                Some(map) if !model.seen_by_top => refine_pose(
                    &model.solid,
                    map,
                    view,
                    fit.pose,
                    model.round,
                    Precision::COMPARE,
                    &mut self.scratch,
                )
                .filter(|f| f.quality() >= self.quality_needed(model, region, explained, f, quality_floor))
                .unwrap_or(fit),
                _ => fit,
            };
            contest.push((mi, fit, key));
        }
        // A treasure standing on a ship's deck is weighed with the deck it would cover.
        let weighed: Vec<f64> = contest
            .iter()
            .map(|(mi, fit, _)| {
                let model = &models[*mi];
                self.deck_under(model, view, fit).map_or(fit.gain, |deck| {
                    fit.gain
                        + f64::from(W_OTHER) * deck_covered(region, explained, model, fit, deck.mark) as f64
                })
            })
            .collect();
        let mut chosen = 0;
        for k in 1..contest.len() {
            if beats(&contest[k].1, weighed[k], &contest[chosen].1, weighed[chosen]) {
                chosen = k;
            }
        }
        let (picked, look_alike_colours) =
            self.look_alike_contest(region, models, view, explained, seed, &contest, &weighed, chosen);
        let chosen = self.look_ahead(
            region,
            models,
            view,
            explained,
            seed,
            quality_floor,
            &contest,
            picked,
        );
        // A look-alike taken explains the colours of both, unless looking ahead took another.
        let also_explains = if chosen == picked {
            look_alike_colours
        } else {
            ColourSet(0)
        };
        let runner_up = contest
            .iter()
            .enumerate()
            .filter(|&(k, c)| {
                k != chosen
                    && c.0 != contest[chosen].0
                    && c.1.gain >= CLOSE_GAIN_SHARE * contest[chosen].1.gain
            })
            .max_by(|a, b| a.1.1.gain.total_cmp(&b.1.1.gain))
            .map(|(_, c)| (c.0, c.1.clone()));
        let (mi, fit, key) = contest.into_iter().nth(chosen)?;
        let model = &models[mi];
        if model.seen_by_top {
            return Some(Best {
                model: mi,
                fit,
                runner_up,
                also_explains,
            });
        }
        // Enough to mark its pixels as explained; the final pose comes once every piece is found.
        let refined = maps.get(&key).and_then(|map| {
            refine_pose(
                &model.solid,
                map,
                view,
                fit.pose,
                model.round,
                Precision::COMPARE,
                &mut self.scratch,
            )
        });
        Some(Best {
            model: mi,
            fit: refined.unwrap_or(fit),
            runner_up,
            also_explains,
        })
    }

    /// Which of a seed's `contest`ants to take, `chosen` having won it, when the winner and a
    /// rival are treasures of nearly one colour ([`look_alike`]): each fit is weighed again with
    /// the pixels of either's colours counting for it as its own, and the rival that then
    /// explains more pixels, and at least [`LOOK_ALIKE_TAKEN_QUALITY`] of its silhouette, is
    /// taken; with it, the colours of both, which it explains
    /// ([`Detection::also_explains`](super::Detection::also_explains)).
    ///
    /// A goblet's top may read best as gold under one light, so that a gold bar laid across it
    /// and into its shadow explains more in gold's colours than the goblet in its own
    /// (`--seed 701` scene 715: 340 px against 280); in the colours both show, shape decides
    /// (396 against 344). By pixels alone, not by how much of itself each explains: a gold bar
    /// explaining more of itself and fewer pixels than the goblet it was chosen over is no
    /// reason to take it (`--seed 901` scene 929). `weighed` are the contestants' gains weighed
    /// with the decks they would cover, whose cost is kept.
    #[allow(clippy::too_many_arguments)]
    fn look_alike_contest(
        &mut self,
        region: &Region,
        models: &[Model],
        view: &Viewpoint,
        explained: &[u16],
        seed: &[usize],
        contest: &[(usize, Fit, MapKey)],
        weighed: &[f64],
        chosen: usize,
    ) -> (usize, ColourSet) {
        let unchanged = (chosen, ColourSet(0));
        let Some((winner_model, winner, _)) = contest.get(chosen) else {
            return unchanged;
        };
        let a = &models[*winner_model];
        if a.kind != PieceKind::Treasure || a.seen_by_top {
            return unchanged;
        }
        // The rival taken so far: its index, its gain in the colours of both, and those colours.
        let mut taken: Option<(usize, f64, ColourSet)> = None;
        for (k, (mi, fit, _)) in contest.iter().enumerate() {
            let b = &models[*mi];
            if k == chosen
                || b.kind != PieceKind::Treasure
                || b.seen_by_top
                || !look_alike(region, seed, a, b)
            {
                continue;
            }
            let both = ColourSet(a.colours.0 | b.colours.0);
            let (Some(wa), Some(wb)) = (
                self.weighed_in(region, a, both, view, explained, winner),
                self.weighed_in(region, b, both, view, explained, fit),
            ) else {
                continue;
            };
            let gain_a = wa.gain + weighed[chosen] - winner.gain;
            let gain_b = wb.gain + weighed[k] - fit.gain;
            if wb.quality() >= LOOK_ALIKE_TAKEN_QUALITY
                && gain_b > gain_a
                && taken.is_none_or(|(_, g, _)| gain_b > g)
            {
                taken = Some((k, gain_b, both));
            }
        }
        taken.map_or(unchanged, |(k, _, both)| (k, both))
    }

    /// `fit` of `model` scored again where its pixels show any of `colours`, as its own.
    fn weighed_in(
        &mut self,
        region: &Region,
        model: &Model,
        colours: ColourSet,
        view: &Viewpoint,
        explained: &[u16],
        fit: &Fit,
    ) -> Option<Fit> {
        let mut wider = model.clone();
        wider.colours = colours;
        let win = window_around(region, &fit.silhouette, WINDOW_MARGIN_MM);
        let map = weight_map(
            region,
            &wider,
            explained,
            None,
            win,
            self.on_shadows,
            &self.occluders,
        );
        score_at(&model.solid, &map, view, fit.pose, &mut self.scratch)
    }

    /// Which of a seed's `contest`ants (refined fits of different models) to take, `chosen`
    /// having won it: a contender that fits clearly better ([`LOOK_AHEAD_QUALITY`]) is taken
    /// instead when it and the best fit of what it leaves of the seed explain more than the
    /// winner and the best fit of what the winner leaves (each counted when it fits well:
    /// [`LOOK_AHEAD_REST_QUALITY`]). A larger piece laid across two smaller ones explains more
    /// than either (the pink pirate ship across two tentacles), but not more than both.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn look_ahead(
        &mut self,
        region: &Region,
        models: &[Model],
        view: &Viewpoint,
        explained: &[u16],
        seed: &[usize],
        quality_floor: f64,
        contest: &[(usize, Fit, MapKey)],
        chosen: usize,
    ) -> usize {
        let Some((winner_model, winner, _)) = contest.get(chosen) else {
            return chosen;
        };
        let rivals: Vec<usize> = (0..contest.len())
            .filter(|&k| {
                contest[k].0 != *winner_model
                    && contest[k].1.quality() >= winner.quality() + LOOK_AHEAD_QUALITY
            })
            .collect();
        if self.looking_ahead || rivals.is_empty() {
            return chosen;
        }
        self.looking_ahead = true;
        let with_rest = |k: usize, this: &mut Self| {
            let (mi, fit, _) = &contest[k];
            let mut left = explained.to_vec();
            mark_explained(
                region,
                &models[*mi],
                &fit.silhouette,
                &mut left,
                LOOKED_AHEAD,
                false,
            );
            let rest = split(region, seed, &left)
                .into_iter()
                .max_by_key(|c| c.len())
                .and_then(|rest| this.best_fit(region, models, view, &left, &rest, quality_floor));
            let rest = rest
                .filter(|b| b.fit.quality() >= LOOK_AHEAD_REST_QUALITY)
                .map_or(0.0, |b| b.fit.gain);
            fit.gain + rest
        };
        let mut best = (chosen, with_rest(chosen, self));
        for k in rivals {
            let total = with_rest(k, self);
            if total > best.1 {
                best = (k, total);
            }
        }
        self.looking_ahead = false;
        best.0
    }

    /// `model` fitted to a seed on its weight map, as [`Detector::best_fit`] plans it; `None`
    /// when no fit is good enough to be a candidate. Started from `start` alone when given (where
    /// another contender settled), else from the centre of its colours' pixels and the other
    /// starts below.
    #[allow(clippy::too_many_arguments)]
    fn fit_model(
        &mut self,
        region: &Region,
        model: &Model,
        map: &WeightMap,
        view: &Viewpoint,
        explained: &[u16],
        seed: &[usize],
        plan: &Plan,
        quality_floor: f64,
        start: Option<PointMm>,
    ) -> Option<Fit> {
        let (own, pts, seed_centre, win) = (&plan.own, &plan.pts, plan.seed_centre, plan.win);
        // A piece may show in several seeds (a captain's hat apart from its base): start
        // from all its free pixels within its reach.
        let centre = own_centre(
            region,
            model,
            explained,
            win,
            seed_centre,
            model.reach_mm(view, seed_centre),
        )
        .unwrap_or(seed_centre);
        let angles = start_angles(model, pts, centre, view);
        // A two-coloured piece beside a piece of its second colour (the ink die's pink faces
        // against a tentacle) is also started on its main colour's largest patch.
        let body = (model.secondary.0 != 0)
            .then(|| largest_patch_centre_of(region, model.primary, explained, win))
            .flatten()
            .filter(|b| b.distance(centre) > SECOND_START_MIN_MM);
        let px_area = region.mm_per_px * region.mm_per_px;
        let deep = ((model.round || model.isotropic)
            && own.len() as f64 * px_area > SEED_OF_MANY_FOOTPRINTS * model.footprint_area_mm2)
            .then(|| deepest_pixel(region.width, own))
            .flatten()
            .map(|p| region.px_to_mm((p % region.width) as f64, (p / region.width) as f64))
            .filter(|d| d.distance(centre) > SECOND_START_MIN_MM);
        let starts: Vec<PointMm> = match start {
            Some(at) => vec![at],
            None => std::iter::once(centre).chain(body).chain(deep).collect(),
        };
        let fit = starts
            .into_iter()
            .filter_map(|c| {
                fit_pose(
                    &model.solid,
                    map,
                    view,
                    c,
                    &angles,
                    self.base_mm,
                    &mut self.scratch,
                )
            })
            .max_by(|a, b| a.gain.total_cmp(&b.gain))?;
        // A seed left over beside a fitted piece may hold two pieces apart (a gold and a
        // goblet either side of the goblet fitted between them): the centre of its pixels
        // lies on neither. A fit failing there starts again on the seed's largest patch of
        // the model's colours, when the seed shows more of them than one silhouette holds.
        let floor_q = self.quality_needed(model, region, explained, &fit, quality_floor);
        let fit = if (fit.quality() < floor_q || fit.gain < min_gain_px(region.mm_per_px))
            && own.len() as f64 > fit.area_px
        {
            largest_seed_patch(region, model.colours, explained, seed)
                .filter(|patch| mean_mm(patch).distance(centre) > SECOND_START_MIN_MM)
                .and_then(|patch| {
                    let at = mean_mm(&patch);
                    let angles = start_angles(model, &patch, at, view);
                    fit_pose(
                        &model.solid,
                        map,
                        view,
                        at,
                        &angles,
                        self.base_mm,
                        &mut self.scratch,
                    )
                })
                .filter(|f| f.gain > fit.gain)
                .unwrap_or(fit)
        } else {
            fit
        };
        // A round piece that shows only a crescent (a goblet's lit rim, its mouth and shaded
        // side like the table) starts off its centre by most of its radius, where a local search
        // finds nothing better than hanging over bare table: when its seed shows less than
        // [`CRESCENT_MAX_SHARE`] of a footprint, it is looked for again on a grid over every
        // footprint centre that could show the seed's pixels.
        let crescent = own.len() as f64 * px_area < CRESCENT_MAX_SHARE * model.footprint_area_mm2;
        let fit = if model.round
            && crescent
            && (fit.quality() < floor_q || fit.gain < min_gain_px(region.mm_per_px))
        {
            self.round_from_grid(model, map, view, centre)
                .filter(|f| f.gain > fit.gain)
                .unwrap_or(fit)
        } else {
            fit
        };
        // A hull seen from above looks much the same turned end for end (the lean fills the
        // bow's taper): both ways round are refined and the better kept.
        let fit = if matches!(model.shape, Shape::Hull { .. }) {
            let turned = Pose2 {
                angle_rad: fit.pose.angle_rad + std::f64::consts::PI,
                ..fit.pose
            };
            [fit.pose, turned]
                .into_iter()
                .filter_map(|pose| {
                    refine_pose(
                        &model.solid,
                        map,
                        view,
                        pose,
                        false,
                        Precision::COMPARE,
                        &mut self.scratch,
                    )
                })
                .max_by(|a, b| a.gain.total_cmp(&b.gain))
                .unwrap_or(fit)
        } else {
            fit
        };
        let fit = if model.seen_by_top {
            match self.placed_by_top(region, model, map, view, explained, &fit) {
                Some(f) => f,
                // Its top does not show but its body does (a white captain on a mid-grey table,
                // where its hat reads as black): it is placed by its body.
                None if model.body_stands_out
                    && fit.quality() >= BODY_SEEN_QUALITY
                    && share_on(&model.footprint(&fit.pose), &self.solids) <= MAX_SHARE_BODY_ON_SOLID =>
                {
                    fit
                }
                None => return None,
            }
        } else {
            fit
        };
        let least = if plan.shaded { SHADED_SEED_MIN_QUALITY } else { 0.0 };
        if fit.quality()
            < self
                .quality_needed(model, region, explained, &fit, quality_floor)
                .max(least)
            || fit.gain < min_gain_px(region.mm_per_px)
        {
            return None;
        }
        if model.table_hue && main_colour_share(region, model, explained, &fit) < TABLE_HUE_MIN_MAIN_SHARE {
            return None;
        }
        if let (Some(twin), Some(l)) = (
            model.lighter_twin,
            median_lightness(region, model, explained, &fit),
        ) && l >= twin
        {
            return None;
        }
        if model.kind != PieceKind::Treasure
            && share_on(
                &model.footprint(&fit.pose),
                self.decks.iter().map(|d| &d.footprint),
            ) > MAX_SHARE_ON_DECK
        {
            return None;
        }
        Some(fit)
    }

    /// The best fit of round `model` from a grid of footprint centres within its radius of
    /// `centre` ([`ROUND_GRID_STEP_MM`] apart), refined.
    fn round_from_grid(
        &mut self,
        model: &Model,
        map: &WeightMap,
        view: &Viewpoint,
        centre: PointMm,
    ) -> Option<Fit> {
        let grid = PoseGrid {
            centre,
            radius_mm: model.footprint_radius_mm(),
            step_mm: ROUND_GRID_STEP_MM,
            turns: 1,
            base_mm: self.base_mm,
        };
        let best = grid_poses(&model.solid, map, view, &grid, &mut self.scratch)
            .into_iter()
            .next()?;
        refine_pose(
            &model.solid,
            map,
            view,
            best.pose,
            true,
            Precision::COMPARE,
            &mut self.scratch,
        )
    }

    /// A piece seen by its top, placed by it: the unexplained pixels of its second colour
    /// inside and around `fit`'s silhouette are its top, seen [`TOP_SEEN_AT`] of its height up;
    /// `None` when too few of them show.
    fn placed_by_top(
        &mut self,
        region: &Region,
        model: &Model,
        map: &WeightMap,
        view: &Viewpoint,
        explained: &[u16],
        fit: &Fit,
    ) -> Option<Fit> {
        let win = window_around(region, &fit.silhouette, WINDOW_MARGIN_MM);
        let (mut sx, mut sy, mut n) = (0.0, 0.0, 0usize);
        for j in win.y0..win.y1 {
            for i in win.x0..win.x1 {
                let p = j * region.width + i;
                if explained[p] == 0
                    && region.labels[p] == Label::Piece
                    && model.secondary.contains_any(region.colours[p].compatible)
                {
                    let q = region.px_to_mm(i as f64, j as f64);
                    sx += q.x;
                    sy += q.y;
                    n += 1;
                }
            }
        }
        let px_area = region.mm_per_px * region.mm_per_px;
        if (n as f64) * px_area < MIN_TOP_SHARE * model.top_area_mm2 {
            return None;
        }
        let seen = PointMm::new(sx / n as f64, sy / n as f64);
        let pose = Pose2 {
            center_mm: view.below(seen, fit.pose.base_mm + TOP_SEEN_AT * model.solid.height_mm),
            ..fit.pose
        };
        score_at(&model.solid, map, view, pose, &mut self.scratch)
    }
}

/// The share of a fit's silhouette (of its area) whose unexplained pixels show the model's main
/// colour.
fn main_colour_share(region: &Region, model: &Model, explained: &[u16], fit: &Fit) -> f64 {
    let mut n = 0usize;
    for_each_inside(region, &fit.silhouette.polygons, |p| {
        if explained[p] == 0
            && region.labels[p] == Label::Piece
            && model.primary.contains_any(region.colours[p].compatible)
        {
            n += 1;
        }
    });
    n as f64 / fit.area_px.max(1.0)
}

/// Median lightness of the free piece pixels of `model`'s main colour under `fit`, when the
/// region knows lightness and any show.
fn median_lightness(region: &Region, model: &Model, explained: &[u16], fit: &Fit) -> Option<f32> {
    let mut ls = Vec::new();
    for_each_inside(region, &fit.silhouette.polygons, |p| {
        if explained[p] == 0
            && region.labels[p] == Label::Piece
            && model.primary.contains_any(region.colours[p].compatible)
            && let Some(l) = region.lightness(p)
        {
            ls.push(l);
        }
    });
    if ls.is_empty() {
        return None;
    }
    let mid = ls.len() / 2;
    Some(*ls.select_nth_unstable_by(mid, f32::total_cmp).1)
}

/// The centre of the unexplained pixels of a model's colours within `radius_mm` of `around`.
fn own_centre(
    region: &Region,
    model: &Model,
    explained: &[u16],
    win: Window,
    around: PointMm,
    radius_mm: f64,
) -> Option<PointMm> {
    let (mut sx, mut sy, mut n) = (0.0, 0.0, 0usize);
    let r2 = radius_mm * radius_mm;
    for j in win.y0..win.y1 {
        for i in win.x0..win.x1 {
            let p = j * region.width + i;
            if explained[p] != 0
                || region.labels[p] != Label::Piece
                || !model.colours.contains_any(region.colours[p].compatible)
            {
                continue;
            }
            let q = region.px_to_mm(i as f64, j as f64);
            if (q - around).dot(q - around) <= r2 {
                sx += q.x;
                sy += q.y;
                n += 1;
            }
        }
    }
    (n > 0).then(|| PointMm::new(sx / n as f64, sy / n as f64))
}

/// Start angles for a model over a seed's pixels: the pixels' orientation with the lean's
/// stretch taken out, in every quarter turn the footprint may be in; evenly spread for
/// near-isotropic footprints.
fn start_angles(model: &Model, pts: &[PointMm], centre: PointMm, view: &Viewpoint) -> Vec<f64> {
    if model.round {
        return vec![0.0];
    }
    if model.isotropic {
        return (0..ISOTROPIC_STARTS)
            .map(|k| k as f64 * model.period / ISOTROPIC_STARTS as f64)
            .collect();
    }
    let mut m = moments(pts);
    // The silhouette is the footprint swept along the lean: remove the sweep's spread.
    let top = view.apparent(centre, model.solid.height_mm * 0.6);
    let lean = top - centre;
    let l2 = lean.dot(lean);
    if l2 > 1e-9 {
        let d = lean * (1.0 / l2.sqrt());
        let var = l2 / 12.0;
        m.xx = (m.xx - var * d.x * d.x).max(1e-6);
        m.xy -= var * d.x * d.y;
        m.yy = (m.yy - var * d.y * d.y).max(1e-6);
    }
    let phi = m.orientation();
    // A curved band's pixels are oriented along its chord only when seen from above: leaning,
    // its swept silhouette turns them, so it starts from the diagonals too.
    let step = if matches!(model.shape, Shape::CurvedBand { .. }) {
        std::f64::consts::FRAC_PI_4
    } else {
        std::f64::consts::FRAC_PI_2
    };
    let mut out = Vec::new();
    let mut k = 0.0;
    while k * step < model.period - 1e-9 {
        out.push(phi + k * step);
        k += 1.0;
    }
    out
}

/// Whether `own` (region pixels of `model`'s colours) and the shadow pixels within a footprint's
/// radius of their centre cover [`PRUNE_AREA_SHARE`] of `model`'s footprint: a brown chest on
/// warm wood shows its colour on its lit half only, its shaded half reads as the table in
/// shadow.
pub(super) fn shaded_rest(region: &Region, model: &Model, own: &[usize]) -> bool {
    if own.is_empty() {
        return false;
    }
    let w = region.width;
    let n = own.len() as f64;
    let (cx, cy) = own
        .iter()
        .fold((0.0, 0.0), |(x, y), &p| (x + (p % w) as f64, y + (p / w) as f64));
    let (cx, cy) = (cx / n, cy / n);
    let r = model.footprint_radius_mm() / region.mm_per_px;
    let (x0, x1) = (
        (cx - r).floor().max(0.0) as usize,
        ((cx + r).ceil() as usize).min(w.saturating_sub(1)),
    );
    let (y0, y1) = (
        (cy - r).floor().max(0.0) as usize,
        ((cy + r).ceil() as usize).min(region.height.saturating_sub(1)),
    );
    let mut shadows = 0usize;
    for j in y0..=y1 {
        for i in x0..=x1 {
            let (dx, dy) = (i as f64 - cx, j as f64 - cy);
            if dx * dx + dy * dy <= r * r && region.labels[j * w + i] == Label::Shadow {
                shadows += 1;
            }
        }
    }
    let px_area = region.mm_per_px * region.mm_per_px;
    (own.len() + shadows) as f64 * px_area >= PRUNE_AREA_SHARE * model.footprint_area_mm2
}

/// A seed's quality floor for `model`, scaled by how much lower than [`MIN_QUALITY`] its own
/// minimum is: a white captain on a pale table shows little more than its hat, and its quality
/// is low wherever it stands, among other pieces too.
pub(super) fn floor_for(model: &Model, floor: f64) -> f64 {
    floor * (model.min_quality / MIN_QUALITY).min(1.0)
}

/// Whether two models are of nearly one colour on `seed`: of its pixels compatible with either's
/// colours, at least [`LOOK_ALIKE_SHARED_SHARE`] are compatible with both.
fn look_alike(region: &Region, seed: &[usize], a: &Model, b: &Model) -> bool {
    let (mut either, mut both) = (0usize, 0usize);
    for &p in seed {
        let c = region.colours[p].compatible;
        match (a.colours.contains_any(c), b.colours.contains_any(c)) {
            (true, true) => {
                either += 1;
                both += 1;
            }
            (true, false) | (false, true) => either += 1,
            (false, false) => {}
        }
    }
    either > 0 && both as f64 >= LOOK_ALIKE_SHARED_SHARE * either as f64
}

/// Whether fit `a` of one model explains a seed better than fit `b` of another, by their gains
/// `gain_a` and `gain_b` (their own, or weighed afresh: see [`Detector::deck_under`]): more pixels,
/// unless the two explain nearly as many ([`CLOSE_GAIN_SHARE`]) and one fits clearly better
/// ([`CLEARLY_BETTER_QUALITY`]): a pirate ship whole beats the octopus head laid over it and
/// the table around it.
pub(super) fn beats(a: &Fit, gain_a: f64, b: &Fit, gain_b: f64) -> bool {
    let close = gain_a.min(gain_b) >= CLOSE_GAIN_SHARE * gain_a.max(gain_b);
    if close && (a.quality() - b.quality()).abs() >= CLEARLY_BETTER_QUALITY {
        a.quality() > b.quality()
    } else {
        gain_a > gain_b
    }
}
