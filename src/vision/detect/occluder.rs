//! Pieces that may hide others: a taller piece hides what stands behind it from the camera, the
//! island's palm what stands under it. A hidden piece's fit leaves those pixels out of its area.

use super::Detection;
use super::model::Model;
use super::weights::weighs_held;
use crate::table::{PieceKind, PointMm};
use crate::vision::colour::ColourSet;
use crate::vision::view::{Pose2, Viewpoint};

/// A piece at least this much taller (mm) than a treasure hides it where the camera sees it in
/// front (a tentacle over a treasure beside it): there the treasure's silhouette counts neither
/// for nor against it, nor in its area (see [`Occluder`]).
const OCCLUDER_TALLER_MM: f64 = 12.0;
/// ...but at most this share of its silhouette is left out: it is judged on at least the rest,
/// as a fringe of the taller piece's colour beside it is no piece.
pub(super) const HIDDEN_MAX_SHARE: f64 = 0.5;

/// What a piece found may hide others by ([`OCCLUDER_TALLER_MM`]).
#[derive(Debug, Clone, Copy)]
pub(super) struct Occluder {
    pub(super) height_mm: f64,
    /// Its main colour: it hides no piece sharing it, as a piece of its colour beside it cannot be
    /// told from it (an anchor fitted half over its ship would show only the ship).
    pub(super) primary: ColourSet,
    /// Its footprint's centre, table frame, mm.
    pub(super) centre_mm: PointMm,
    /// The way its silhouette leans (from the camera's nadir through its centre): it hides only
    /// beyond its centre that way, where what shows is its upper part and whatever the camera
    /// sees there lies behind it. On its near side it is its foot, which a short piece in front
    /// of it hides instead.
    pub(super) away: PointMm,
    /// The colours of a part of it that stands high over its own footprint and hides, from any
    /// side, whatever treasure lies under it: the island's palm, whose crown spreads 40 mm up
    /// over the sand. Empty for other pieces.
    pub(super) canopy: ColourSet,
}

impl Occluder {
    const NONE: Self = Self {
        height_mm: 0.0,
        primary: ColourSet(0),
        centre_mm: PointMm::new(0.0, 0.0),
        away: PointMm::new(0.0, 0.0),
        canopy: ColourSet(0),
    };

    pub(super) fn of(model: &Model, pose: &Pose2, view: &Viewpoint) -> Self {
        Self {
            height_mm: model.solid.height_mm,
            primary: model.primary,
            centre_mm: pose.center_mm,
            away: pose.center_mm - view.nadir_mm,
            canopy: if model.kind == PieceKind::Island {
                model.secondary
            } else {
                ColourSet(0)
            },
        }
    }

    /// Whether it may hide `model` at all. Only treasures are judged on what shows of them: an
    /// anchor hugs its ship and is fitted with it ([`Detector::untangled_pair`](super::Detector::untangled_pair)), and one let
    /// half hide slid off its ship's far side over the deck, beside a captain riding there.
    pub(super) fn hides(&self, model: &Model) -> bool {
        self.hides_behind(model) || self.hides_under(model)
    }

    /// Whether it may hide `model` behind itself, on the side it leans to.
    fn hides_behind(&self, model: &Model) -> bool {
        model.kind == PieceKind::Treasure
            && self.height_mm >= model.solid.height_mm + OCCLUDER_TALLER_MM
            && !self.primary.contains_any(model.primary.0)
    }

    /// Whether it may hide `model` under its canopy.
    fn hides_under(&self, model: &Model) -> bool {
        model.kind == PieceKind::Treasure && self.canopy.0 != 0 && !self.canopy.contains_any(model.primary.0)
    }

    /// How it may hide `model`, decided once per map; `None` when it cannot.
    pub(super) fn hiding(&self, model: &Model) -> Option<Hiding<'_>> {
        let (behind, under) = (self.hides_behind(model), self.hides_under(model));
        (behind || under).then_some(Hiding {
            by: self,
            behind,
            under,
        })
    }

    /// Whether table point `p` lies on the side of it its silhouette leans to.
    pub(super) fn leans_over(&self, p: PointMm) -> bool {
        (p - self.centre_mm).dot(self.away) > 0.0
    }
}

/// How one [`Occluder`] may hide one model ([`Occluder::hiding`]).
#[derive(Debug, Clone, Copy)]
pub(super) struct Hiding<'a> {
    pub(super) by: &'a Occluder,
    pub(super) behind: bool,
    pub(super) under: bool,
}

impl Hiding<'_> {
    /// Whether the model's pixel at table point `p`, which the occluder explains and which shows
    /// the colours `best` best, is hidden.
    pub(super) fn at(&self, p: PointMm, best: u32) -> bool {
        (self.behind && self.by.leans_over(p)) || (self.under && self.by.canopy.contains_any(best))
    }
}
/// What decides which pixels the pieces found leave out of `model`'s map, for one set of
/// `occluders`: whether it is a carrier ([`weighs_held`]), and if any of them hides it, its
/// height and main colour (which decide which hide it); models alike in both share maps.
pub(super) type HeldKey = (u8, u64, u32);

pub(super) fn held_key(model: &Model, occluders: &[Occluder]) -> HeldKey {
    if weighs_held(model) {
        (1, 0, 0)
    } else if occluders.iter().any(|o| o.hides(model)) {
        (2, model.solid.height_mm.to_bits(), model.primary.0)
    } else {
        (0, 0, 0)
    }
}

/// What piece `k` (marking its pixels `k + 1`) of `detections` may hide others by.
pub(super) fn occluders_of<'a>(
    models: &[Model],
    view: &Viewpoint,
    detections: impl Iterator<Item = &'a Detection>,
) -> Vec<Occluder> {
    detections
        .map(|d| {
            models
                .get(d.model)
                .map_or(Occluder::NONE, |m| Occluder::of(m, &d.fit.pose, view))
        })
        .collect()
}
