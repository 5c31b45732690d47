//! Decks: what rides on a ship or the island. Loads of the deck's hue are freed and looked for
//! again at the deck's height; a treasure that would cover a deck counts it against itself.

use super::marks::for_each_inside;
use super::model::Model;
use super::seeds::{min_seed_own_px, split};
use super::weights::weighs_held;
use super::{Detection, Detector};
use crate::table::polygon::grid_share;
use crate::table::{PieceKind, PointMm, PolygonMm};
use crate::vision::colour::{ColourSet, PixelColours};
use crate::vision::fit::Fit;
use crate::vision::labels::Label;
use crate::vision::region::Region;
use crate::vision::view::Viewpoint;

/// A piece other than a treasure is not taken where more than this share of its footprint lies
/// on a ship's or the island's: only treasures ride on them (an anchor's colour on a deck is a
/// load, a brown chest on an orange ship).
pub(super) const MAX_SHARE_ON_DECK: f64 = 0.4;
/// Spacing of the points [`share_on`] samples a footprint at, mm.
const SHARE_SAMPLE_MM: f64 = 1.0;
/// A deck this far clear of a footprint's bounds cannot hold its sample points, mm (far more
/// than the rounding of a point-in-polygon test at a deck's edge).
const DECK_CLEAR_MM: f64 = 1.0;
/// A deck's pixels darker than this share of its lit level (`b + g + r`) may show a load of
/// the deck's own hue (see [`Detector::deck_loads`]).
const DECK_LOAD_DARKER: f32 = 0.8;
/// The deck's own level is this quantile of its pixels' levels: its lit surface, which its
/// loads may cover more than half of.
const DECK_LIT_QUANTILE: f64 = 0.9;
/// The deck's top is taken this much shrunk towards the hull's centre (its rim shows the hull's
/// shaded side).
const DECK_TOP_SHRINK: f64 = 0.85;
/// A found piece that treasures ride on: a ship or the island.
#[derive(Debug)]
pub(super) struct Deck {
    pub(super) footprint: PolygonMm,
    /// Height of its top above the table (mm).
    pub(super) height_mm: f64,
    /// What its pixels are marked with in `explained`.
    pub(super) mark: u16,
    /// A ship's: its deck is its whole top, which a treasure standing on it covers. The island's
    /// palm may hide a treasure under it instead.
    pub(super) ship: bool,
}

impl Detector {
    /// Treasures on a ship's deck that share its colour best (a brown chest on an orange deck:
    /// in shade the two are one hue) are marked as the ship's. On each ship's deck, pixels
    /// clearly darker than the deck's own ([`DECK_LOAD_DARKER`] of its lit level) that show
    /// a treasure's colour best, and pixels that show best a treasure's colour of the ship's hue
    /// ([`Model::deck_kin`]: a lit gold bar on the orange deck), are freed and looked at again,
    /// all together and patch by patch, fitted at the deck's height; what no treasure takes goes
    /// back to the ship. So are the deck's unexplained pixels labelled bare table or shadow (the
    /// labels compare a pixel with the table the ship hides) that read best as a treasure's
    /// colour, as the pieces they are: what no treasure takes of them stays unexplained. Not on
    /// a hull that fits worse than another of the same ship in the region: the box's counts will
    /// drop it, and the table under it would be read as loads.
    pub(super) fn deck_loads(
        &mut self,
        region: &Region,
        models: &[Model],
        view: &Viewpoint,
        detections: &mut Vec<Detection>,
        explained: &mut [u16],
    ) {
        let treasures = models
            .iter()
            .enumerate()
            .filter(|(mi, m)| m.kind == PieceKind::Treasure && !self.is_excluded(*mi))
            .fold(ColourSet(0), |acc, (_, m)| ColourSet(acc.0 | m.colours.0));
        let hulls: Vec<usize> = (0..detections.len())
            .filter(|&k| weighs_held(&models[detections[k].model]))
            .collect();
        for h in hulls {
            let (mh, pose) = (&models[detections[h].model], detections[h].fit.pose);
            let height = mh.solid.height_mm;
            let top: Vec<PointMm> = mh
                .footprint(&pose)
                .0
                .iter()
                .map(|&q| view.apparent(pose.center_mm + (q - pose.center_mm) * DECK_TOP_SHRINK, height))
                .collect();
            let hk = h as u16 + 1;
            // A second hull of one ship, fitting worse than the first, is one the box's counts
            // will drop: what reads as a load only by its colour is not looked for on its deck.
            let outfitted = detections.iter().enumerate().any(|(k, d)| {
                k != h && models[d.model].entry == mh.entry && d.fit.quality() > detections[h].fit.quality()
            });
            let mut deck: Vec<usize> = Vec::new();
            // Pixels of the deck's top labelled bare table or shadow (against the table the
            // ship hides) that read best as a treasure's colour: a load as dark as that table or
            // its shadow (a brown chest on an orange deck over brown wood, a white captain's
            // shaded side over a pale table).
            let mut unread: Vec<(usize, PixelColours)> = Vec::new();
            for_each_inside(region, std::slice::from_ref(&top), |p| {
                if explained[p] == hk {
                    deck.push(p);
                } else if explained[p] == 0
                    && !outfitted
                    && matches!(region.labels[p], Label::Shadow | Label::Table)
                {
                    let c = region.read_colours(p);
                    if treasures.contains_any(c.best) {
                        unread.push((p, c));
                    }
                }
            });
            if deck.len() < min_seed_own_px(region) {
                continue;
            }
            unread.sort_unstable_by_key(|u| u.0);
            let level = |p: usize| region.bgr[p].iter().sum::<f32>();
            let mut levels: Vec<f32> = deck.iter().map(|&p| level(p)).collect();
            let lit_at = ((levels.len() - 1) as f64 * DECK_LIT_QUANTILE) as usize;
            let lit = *levels.select_nth_unstable_by(lit_at, f32::total_cmp).1;
            let kin = mh.deck_kin.0 & treasures.0;
            let mut freed: Vec<usize> = deck
                .into_iter()
                .filter(|&p| {
                    let best = region.colours[p].best;
                    (level(p) < DECK_LOAD_DARKER * lit && treasures.contains_any(best)) || best & kin != 0
                })
                .collect();
            if freed.len() + unread.len() < min_seed_own_px(region) {
                continue;
            }
            for &p in &freed {
                explained[p] = 0;
            }
            // Those pixels are pieces for the loads looked for here, read as they read.
            let relabelled;
            let seen = if unread.is_empty() {
                region
            } else {
                let mut r = region.clone();
                for &(p, c) in &unread {
                    r.labels[p] = Label::Piece;
                    r.colours[p] = c;
                }
                freed.extend(unread.iter().map(|u| u.0));
                freed.sort_unstable();
                relabelled = r;
                &relabelled
            };
            // All of them are a seed too (the largest, tried first): a load's freed pixels may
            // be split by a row that reads as the deck's colour alone (a lit gold bar's ridge)
            // into patches too small to fit. Each patch is still tried once what fits all of
            // them has taken its pixels: another load may win the whole (a chest beside the
            // bar), and what it leaves splits again.
            let mut seeds = split(seen, &freed, explained);
            if seeds.len() > 1 {
                seeds.push(freed.clone());
            }
            self.base_mm = pose.base_mm + height;
            self.grow(seen, models, view, detections, explained, seeds);
            self.base_mm = 0.0;
            for &p in &freed {
                if explained[p] == 0 && unread.binary_search_by_key(&p, |u| u.0).is_err() {
                    explained[p] = hk;
                }
            }
        }
    }

    /// The ship's deck under treasure `fit` (of `model`, looked for on the table), if any: the
    /// one on which the point below its middle, seen as standing on that deck, lies, or the one
    /// whose footprint holds the fit's own footprint centre. A treasure's base on the table
    /// cannot lie inside a ship's, so a fit there stands for a load; and a treasure taller than
    /// the load fitted at table height sits nearly where the load does (its upper part covers
    /// the load's raised silhouette), so its middle, seen at the deck's height, falls short of
    /// the deck towards the camera: a goblet over a gold bar near a green deck's edge (bench
    /// scene 25).
    ///
    /// Such a treasure would cover the deck, so when treasures are compared for a seed
    /// ([`Detector::best_fit`]) the deck's pixels inside a silhouette count against it
    /// ([`deck_covered`]). The fits themselves still leave them out, as any piece's pixels: counted
    /// there too (tried), they cost gold bars found on decks in the unseen bench sets.
    pub(super) fn deck_under(&self, model: &Model, view: &Viewpoint, fit: &Fit) -> Option<&Deck> {
        if model.kind != PieceKind::Treasure || self.base_mm != 0.0 {
            return None;
        }
        let mid = model.solid.height_mm / 2.0;
        let seen = view.apparent(fit.pose.center_mm, fit.pose.base_mm + mid);
        let on_table = fit.pose.base_mm == 0.0;
        self.decks.iter().find(|d| {
            d.ship
                && (d.footprint.contains(view.below(seen, d.height_mm + mid))
                    || (on_table && d.footprint.contains(fit.pose.center_mm)))
        })
    }
}

/// How many pixels inside `fit`'s silhouette the deck marked `deck` explains that show none of
/// `model`'s colours, not even as compatible: the deck itself, which a treasure standing on it
/// would cover. Pixels that pass for the treasure too (a gold bar's shaded side on an orange
/// deck) are not counted.
pub(super) fn deck_covered(region: &Region, explained: &[u16], model: &Model, fit: &Fit, deck: u16) -> usize {
    let mut covered = 0;
    for_each_inside(region, &fit.silhouette.polygons, |p| {
        if explained[p] == deck && !model.colours.contains_any(region.colours[p].compatible) {
            covered += 1;
        }
    });
    covered
}

/// The share of `footprint`'s area that lies on any of `decks` (sampled every
/// [`SHARE_SAMPLE_MM`]).
pub(super) fn share_on<'a>(footprint: &PolygonMm, decks: impl IntoIterator<Item = &'a PolygonMm>) -> f64 {
    let Some((lo, hi)) = footprint.bounds() else {
        return 0.0;
    };
    // A deck whose bounds keep clear of the footprint's holds none of its sample points: most
    // candidates are nowhere near a ship, and need no sampling at all.
    let m = DECK_CLEAR_MM;
    let decks: Vec<&PolygonMm> = decks
        .into_iter()
        .filter(|d| {
            d.bounds().is_some_and(|(a, b)| {
                a.x - m <= hi.x && lo.x <= b.x + m && a.y - m <= hi.y && lo.y <= b.y + m
            })
        })
        .collect();
    if decks.is_empty() {
        return 0.0;
    }
    grid_share(
        lo,
        hi,
        SHARE_SAMPLE_MM,
        |q| footprint.contains(q),
        |q| decks.iter().any(|d| d.contains(q)),
    )
}
