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

use super::colour::{ColourSet, PixelColours};
use super::fit::{Fit, PoseGrid, Precision, fit_pose, grid_poses, refine_pose, score_at};
use super::labels::Label;
use super::raster::{ScoreScratch, WeightMap};
use super::region::Region;
use super::solid::Solid;
use super::view::{Pose2, Silhouette, Viewpoint};
use crate::games::crash_octopus::{DieTop, PlayerColor, TreasureType};
use crate::table::polygon::grid_share;
use crate::table::{CatalogEntry, PieceKind, PointMm, PolygonMm, Shape};
use std::collections::HashMap;

/// Weight of a pixel that shows one of the model's colours as its best match.
const W_OWN_BEST: f32 = 1.0;
/// Weight of a pixel merely compatible with the model's colours.
const W_OWN_COMPATIBLE: f32 = 0.6;
/// Weight of bare table under the silhouette.
const W_TABLE: f32 = -1.0;
/// ...for pieces whose colour is close to the table's (a white captain on a white table).
const W_TABLE_LIKE: f32 = -0.25;
/// Weight of a shadow under the silhouette (the piece's own shaded side may look like one).
const W_SHADOW: f32 = -0.1;
/// Weight of a shadow pixel for a piece seen by its top: its body is the table's colour, and
/// its own shaded sides look like shadow on a pale table.
const W_SHADOW_SEEN_BY_TOP: f32 = 0.0;
/// Weight of a table pixel for a piece seen by its top: its body is the table's colour, and
/// its top has already placed it.
const W_TABLE_SEEN_BY_TOP: f32 = -0.1;
/// Weight of a shadow pixel showing a shadow-like piece's main colour as its best, for a piece
/// found on shadows (see [`Detection::on_shadows`])...
const W_SHADOW_LIKE_BEST: f32 = 0.5;
/// ...and merely compatible with it. Less than a piece pixel's: the piece's own cast shadow
/// shows its colour too, and must not pull the fit off the piece.
const W_SHADOW_LIKE_COMPATIBLE: f32 = 0.3;
/// Weight of a changed pixel of another colour that no piece explains yet.
const W_OTHER: f32 = -0.6;
/// Seeds smaller than this (fine pixels of the model's colours) are not fitted.
const MIN_SEED_OWN_PX: usize = 12;
/// A fit is accepted when its gain per silhouette pixel is at least this...
pub const MIN_QUALITY: f64 = 0.3;
/// ...for a piece whose main colour looks like the table (only its other colour stands out)...
pub const MIN_QUALITY_TABLE_LIKE: f64 = 0.06;
/// ...for a piece of the table's hue, richer than it (gold on light wood: its lit faces wash
/// out towards the table's colour, its shaded faces darken towards it)...
pub const MIN_QUALITY_PALER_TABLE: f64 = 0.1;
/// ...and for a piece seen mostly inside pieces already found (a treasure on a deck must fit
/// its own shape well, the rest of a ship's pixels do not).
pub const MIN_QUALITY_INSIDE: f64 = 0.55;
/// ...when at least this share of the free piece pixels a fit holds inside those pieces show
/// their colours (compatible) and read best as none of the fitted model's: a goblet on the pink
/// pirate ship's deck shows none of its pink, and is held to [`MIN_QUALITY`] like a piece on the
/// table; nor is a white captain on the island's sand, whose pixels pass for pale sand but read
/// best as the captain's white.
const HOST_LIKE_MIN_SHARE: f64 = 0.25;
/// ...and it explains at least this many pixels.
pub const MIN_GAIN_PX: f64 = 25.0;
/// A piece at least this much taller (mm) than a treasure hides it where the camera sees it in
/// front (a tentacle over a treasure beside it): there the treasure's silhouette counts neither
/// for nor against it, nor in its area (see [`Occluder`]).
const OCCLUDER_TALLER_MM: f64 = 12.0;
/// ...but at most this share of its silhouette is left out: it is judged on at least the rest,
/// as a fringe of the taller piece's colour beside it is no piece.
const HIDDEN_MAX_SHARE: f64 = 0.5;

/// What a piece found may hide others by ([`OCCLUDER_TALLER_MM`]).
#[derive(Debug, Clone, Copy)]
struct Occluder {
    height_mm: f64,
    /// Its main colour: it hides no piece sharing it, as a piece of its colour beside it cannot be
    /// told from it (an anchor fitted half over its ship would show only the ship).
    primary: ColourSet,
    /// Its footprint's centre, table frame, mm.
    centre_mm: PointMm,
    /// The way its silhouette leans (from the camera's nadir through its centre): it hides only
    /// beyond its centre that way, where what shows is its upper part and whatever the camera
    /// sees there lies behind it. On its near side it is its foot, which a short piece in front
    /// of it hides instead.
    away: PointMm,
    /// The colours of a part of it that stands high over its own footprint and hides, from any
    /// side, whatever treasure lies under it: the island's palm, whose crown spreads 40 mm up
    /// over the sand. Empty for other pieces.
    canopy: ColourSet,
}

impl Occluder {
    const NONE: Self = Self {
        height_mm: 0.0,
        primary: ColourSet(0),
        centre_mm: PointMm::new(0.0, 0.0),
        away: PointMm::new(0.0, 0.0),
        canopy: ColourSet(0),
    };

    fn of(model: &Model, pose: &Pose2, view: &Viewpoint) -> Self {
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
    /// anchor hugs its ship and is fitted with it ([`Detector::untangled_pair`]), and one let
    /// half hide slid off its ship's far side over the deck, beside a captain riding there.
    fn hides(&self, model: &Model) -> bool {
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
    fn hiding(&self, model: &Model) -> Option<Hiding<'_>> {
        let (behind, under) = (self.hides_behind(model), self.hides_under(model));
        (behind || under).then_some(Hiding {
            by: self,
            behind,
            under,
        })
    }

    /// Whether table point `p` lies on the side of it its silhouette leans to.
    fn leans_over(&self, p: PointMm) -> bool {
        (p - self.centre_mm).dot(self.away) > 0.0
    }
}

/// How one [`Occluder`] may hide one model ([`Occluder::hiding`]).
#[derive(Debug, Clone, Copy)]
struct Hiding<'a> {
    by: &'a Occluder,
    behind: bool,
    under: bool,
}

impl Hiding<'_> {
    /// Whether the model's pixel at table point `p`, which the occluder explains and which shows
    /// the colours `best` best, is hidden.
    fn at(&self, p: PointMm, best: u32) -> bool {
        (self.behind && self.by.leans_over(p)) || (self.under && self.by.canopy.contains_any(best))
    }
}
/// A piece of the table's hue, lighter than it (see [`Model::table_hue`]), must show its main
/// colour over this share of its silhouette: its second colour and the table's, weighed
/// lightly, would otherwise let it cover a piece of its second colour (the island over a green
/// anchor, its palm's colour).
const TABLE_HUE_MIN_MAIN_SHARE: f64 = 0.25;
/// A seed with more than this share of its pixels inside pieces found already holds a piece of
/// the table's hue (see [`Model::paler_table`]) to [`MIN_QUALITY`]: along a piece's edge, blends
/// of its colour with the table's look like it (a green hull's shaded side on light wood reads
/// as gold).
const NEAR_PIECES_SHARE: f64 = 0.25;
/// A footprint whose principal second moments differ by less than this ratio is turned through
/// evenly spaced start angles rather than from the pixels' orientation.
const ISOTROPY_RATIO: f64 = 1.35;
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
const ISOTROPIC_STARTS: usize = 6;
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
/// Turns (radians) from which a hull among other pieces is refitted once they are found.
const HULL_RETRY_TURNS: [f64; 5] = [
    0.0,
    std::f64::consts::FRAC_PI_6,
    -std::f64::consts::FRAC_PI_6,
    std::f64::consts::FRAC_PI_3,
    -std::f64::consts::FRAC_PI_3,
];
/// A piece other than a treasure is not taken where more than this share of its footprint lies
/// on a ship's or the island's: only treasures ride on them (an anchor's colour on a deck is a
/// load, a brown chest on an orange ship).
const MAX_SHARE_ON_DECK: f64 = 0.4;
/// Spacing of the points [`share_on`] samples a footprint at, mm.
const SHARE_SAMPLE_MM: f64 = 1.0;
/// A deck this far clear of a footprint's bounds cannot hold its sample points, mm (far more
/// than the rounding of a point-in-polygon test at a deck's edge).
const DECK_CLEAR_MM: f64 = 1.0;
/// Evenly spaced turns per symmetry period from which a piece against one of its colour is
/// refitted once the others' final poses are known.
const ROUND_AGAIN_STARTS: usize = 12;
/// A hull and a piece of its colour that explain at least these shares of their silhouettes are
/// taken as untangled already (a ship fitted over its anchor leaves one of them short).
const UNTANGLED_HULL_QUALITY: f64 = 0.8;
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
const UNTANGLE_GRID_RADIUS_MM: f64 = 16.0;
const UNTANGLE_GRID_STEP_MM: f64 = 4.0;
const UNTANGLE_GRID_TURNS: usize = 24;
const UNTANGLE_GRID_LINES: usize = 4;
const UNTANGLE_GRID_LINE_APART_RAD: f64 = 0.4;
/// Two poses closer than these are one way round.
const SAME_POSE_MM: f64 = 1.0;
const SAME_POSE_RAD: f64 = 0.05;
/// Pieces left unexplained by the final poses are looked at again when they show at least this
/// many pixels (a treasure's top is ~150).
const SECOND_LOOK_MIN_PX: usize = 150;
/// A deck's pixels darker than this share of its lit level (`b + g + r`) may show a load of
/// the deck's own hue (see [`Detector::deck_loads`]).
const DECK_LOAD_DARKER: f32 = 0.8;
/// The deck's own level is this quantile of its pixels' levels: its lit surface, which its
/// loads may cover more than half of.
const DECK_LIT_QUANTILE: f64 = 0.9;
/// The deck's top is taken this much shrunk towards the hull's centre (its rim shows the hull's
/// shaded side).
const DECK_TOP_SHRINK: f64 = 0.85;
/// A treasure with more than this share of its footprint inside a piece no treasure rides on
/// is not there (see [`drop_treasures_inside_pieces`]).
const MAX_SHARE_INSIDE_PIECE: f64 = 0.5;
/// A contender this much better fitting (quality) than a seed's winner is weighed with what
/// it leaves (see [`Detector::look_ahead`]).
const LOOK_AHEAD_QUALITY: f64 = 0.05;
/// ...counting what it leaves only where a piece fits that well: a fragment a lowered floor lets
/// through (an anchor laid again on what a first one left of a chest) is no piece.
const LOOK_AHEAD_REST_QUALITY: f64 = 0.7;
/// The mark of pixels a contender explains while [`Detector::look_ahead`] weighs it.
const LOOKED_AHEAD: u16 = u16::MAX - 1;
/// See [`beats`].
const CLOSE_GAIN_SHARE: f64 = 0.9;
const CLEARLY_BETTER_QUALITY: f64 = 0.25;
/// The die's top face is read inside this fraction of its outline (away from the edges).
const DIE_TOP_SHRINK: f64 = 0.7;
/// Models whose colours the seed shows in less than this share of the pixels of the model it
/// shows most are not fitted.
const PRUNE_BEST_SHARE: f64 = 0.3;
/// A piece dropped over its kind's count that fitted at least this well
/// ([`Detector::stands_for_dropped`])...
const DROPPED_MIN_QUALITY: f64 = 0.3;
/// ...leaves this the least quality a treasure of another kind needs where it stood: what the
/// box cannot hold more of was there, and a treasure may be what it was.
const LOOK_ALIKE_MIN_QUALITY: f64 = 0.1;
/// Models whose seed pixels cover less than this share of their footprint are not fitted.
const PRUNE_AREA_SHARE: f64 = 0.3;
/// ...and for a piece whose main colour looks like the table (a white captain on a pale table
/// shows little more than its hat), or of the table's hue when its seed with the shadows
/// beside it covers [`PRUNE_AREA_SHARE`] (see [`shaded_rest`]).
const PRUNE_AREA_SHARE_TABLE_LIKE: f64 = 0.12;
/// The least quality of a fit on a seed let through for the shadows beside it: the other
/// half of its silhouette must show the piece. Below it, the shaded side of an orange anchor
/// and its cast shadow read as a chest (`bench --seed 101`, scene 109).
const SHADED_SEED_MIN_QUALITY: f64 = 0.2;
/// Margin of the weight windows around a silhouette, mm.
const WINDOW_MARGIN_MM: f64 = 6.0;
/// Margin around a silhouette of [`refit_as`]'s window, mm: its pose may settle a few
/// millimetres from where the other model's did.
const REFIT_MARGIN_MM: f64 = 12.0;
/// Margin beyond a piece's reach (its silhouette turned about its centre) of [`repose`]'s
/// window, mm: ships fitted before their loads were found settled up to about 20 mm off.
const REPOSE_MARGIN_MM: f64 = 12.0;
/// How many of the best grid poses (one per angle) [`repose`] refines.
const REPOSE_STARTS: usize = 4;
/// Share of its gain by which a piece's new pose must beat its old one to replace it.
const REPOSE_MIN_GAIN_SHARE: f64 = 0.03;
/// Most pieces one region may hold (a guard against runaway loops).
const MAX_PIECES_PER_REGION: usize = 64;
/// The mark of pixels a kept piece explains ([`Detector::detect_around`]): above any detection's.
const KEPT: u16 = u16::MAX;
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

/// A catalog entry ready for fitting.
#[derive(Debug, Clone)]
pub struct Model {
    /// Index in the catalog.
    pub entry: usize,
    pub name: String,
    pub kind: PieceKind,
    pub treasure: Option<TreasureType>,
    pub color: Option<PlayerColor>,
    pub shape: Shape,
    pub solid: Solid,
    pub colours: ColourSet,
    /// The palette bits of its main colour and of its second colour.
    pub primary: ColourSet,
    pub secondary: ColourSet,
    /// Footprint does not change when turned.
    pub round: bool,
    /// Smallest turn that leaves the footprint unchanged, radians.
    pub period: f64,
    /// The footprint's principal moments are nearly equal (start angles are spread evenly).
    pub isotropic: bool,
    pub footprint_area_mm2: f64,
    /// Its main colour looks like the table: bare table counts less against it, and less of
    /// its footprint need show.
    pub table_like: bool,
    /// The table is a paler shade of its main colour (gold on light wood), or its colour as dim
    /// as the table passes for it (a chest on dark warm wood): a fit explaining less of its
    /// silhouette is accepted, clear of other pieces.
    pub paler_table: bool,
    /// Its main colour is the table's hue, lighter (see [`Model::with_table_hue`]): a fit must
    /// show that colour over [`TABLE_HUE_MIN_MAIN_SHARE`] of its silhouette.
    pub table_hue: bool,
    /// How much bare table under the silhouette counts against a fit.
    pub table_weight: f32,
    /// Weight of a shadow pixel under its silhouette.
    pub shadow_weight: f32,
    /// Its main colour is dark and neutral and the table is neutral: the piece looks like a
    /// shadow of the table (a black die on a grey table), and where a seed fits no piece, the
    /// shadow pixels of its colour may be counted for it (see [`Detection::on_shadows`]).
    pub shadow_like: bool,
    /// Size relative to the catalog's (taught; 1 by default).
    pub scale: f64,
    /// Lowest fit quality accepted.
    pub min_quality: f64,
    /// How many the game puts on the table (at most this many are reported per frame): the
    /// box's count unless [`crate::vision::in_play::InPlay`] says otherwise.
    pub count: u32,
    /// The game puts this piece on the table ([`crate::vision::in_play::InPlay`]): a model
    /// whose piece stays in the box is never fitted, nor anything turned into it.
    pub in_play: bool,
    /// The piece's main colour looks like the table and its second colour is its top (the
    /// captain's white body and navy hat on a pale table): it is found and placed by its top,
    /// whose apparent centre lies above the footprint centre along the camera's lean.
    pub seen_by_top: bool,
    /// Area of that top seen from above, mm² (its widest section).
    pub top_area_mm2: f64,
    /// Such a piece's body is still far lighter than the table (a white captain on a grey
    /// table): where its top does not show, it may be placed by its body.
    pub body_stands_out: bool,
    /// Catalog lightness of a lighter piece colour of the same hue (orange, for the brown
    /// chest): a fit whose pixels are on median that light is of the lighter piece.
    pub lighter_twin: Option<f32>,
    /// For a ship: the colours of the treasures whose catalog colour is of its hue (gold bars
    /// and goblets on the orange ship). Its lit deck shows them best as well as its own colour,
    /// so the ship's fit holds a lit load of such a colour whole, and its deck's pixels that show
    /// one best are looked at again ([`Detector::deck_loads`]).
    pub deck_kin: ColourSet,
}

impl Model {
    pub fn new(
        entry_index: usize,
        entry: &CatalogEntry,
        primary: ColourSet,
        secondary: ColourSet,
        table_like: bool,
    ) -> Self {
        let fp = entry.shape.local_footprint();
        let (period, round) = match entry.shape {
            Shape::HalfSphere { .. }
            | Shape::Sphere { .. }
            | Shape::Disc { .. }
            | Shape::FigureOnDisc { .. }
            | Shape::Cup { .. } => (std::f64::consts::TAU, true),
            Shape::Box { .. } | Shape::Trapezoid { .. } | Shape::Oval { .. } => (std::f64::consts::PI, false),
            Shape::Cube { .. } => (std::f64::consts::FRAC_PI_2, false),
            Shape::HexPrism { .. } => (std::f64::consts::FRAC_PI_3, false),
            _ => (std::f64::consts::TAU, false),
        };
        let m = moments(&fp);
        Self {
            entry: entry_index,
            name: entry.name.clone(),
            kind: entry.piece,
            treasure: entry.treasure,
            color: entry.color,
            shape: entry.shape.clone(),
            solid: Solid::of(entry),
            colours: ColourSet(primary.0 | secondary.0),
            primary,
            secondary,
            round,
            period,
            isotropic: m.ratio() < ISOTROPY_RATIO,
            footprint_area_mm2: PolygonMm::new(fp).area(),
            table_like,
            paler_table: false,
            table_hue: false,
            table_weight: if table_like { W_TABLE_LIKE } else { W_TABLE },
            shadow_weight: W_SHADOW,
            shadow_like: false,
            scale: 1.0,
            min_quality: if table_like {
                MIN_QUALITY_TABLE_LIKE
            } else {
                MIN_QUALITY
            },
            count: entry.count,
            in_play: true,
            seen_by_top: false,
            top_area_mm2: 0.0,
            body_stands_out: false,
            lighter_twin: None,
            deck_kin: ColourSet(0),
        }
        .with_top(table_like && secondary.0 != 0)
    }

    fn with_top(mut self, on: bool) -> Self {
        let top = self.solid.parts.last().map(|part| {
            part.sections
                .iter()
                .map(|s| PolygonMm::new(s.outline.clone()).area().abs())
                .fold(0.0, f64::max)
        });
        if let Some(area) = top.filter(|&a| on && a > 0.0 && self.solid.parts.len() > 1) {
            self.seen_by_top = true;
            self.top_area_mm2 = area;
            self.table_weight = W_TABLE_SEEN_BY_TOP;
            self.shadow_weight = W_SHADOW_SEEN_BY_TOP;
        }
        self
    }

    /// Marks the piece as looking like a shadow of the table (see [`Model::shadow_like`]).
    pub fn with_shadow_like(mut self, on: bool) -> Self {
        self.shadow_like = on;
        self
    }

    /// Marks the piece as of the table's hue and lighter than it (the island's sand on light
    /// wood): bare table under it counts as little, and as little of it need show, as for a
    /// table-like piece, when its second colour stands out (the palm; a one-coloured piece so
    /// weighed fits the table's grain); unlike a white captain it is not placed by its top.
    pub fn with_table_hue(mut self, on: bool) -> Self {
        if on && !self.table_like && self.secondary.0 != 0 {
            self.table_like = true;
            self.table_hue = true;
            self.table_weight = W_TABLE_LIKE;
            self.min_quality = MIN_QUALITY_TABLE_LIKE;
        }
        self
    }

    /// Marks the table as a paler shade of the piece's main colour: a fit explaining less of
    /// its silhouette is accepted (its washed-out faces look like the table).
    pub fn with_paler_table(mut self, on: bool) -> Self {
        if on && !self.table_like && !self.seen_by_top {
            self.paler_table = true;
            self.min_quality = MIN_QUALITY_PALER_TABLE;
        }
        self
    }

    /// Gives the piece the lightness of a lighter colour of its hue (see [`Model::lighter_twin`]).
    pub fn with_lighter_twin(mut self, lightness: Option<f32>) -> Self {
        self.lighter_twin = lightness;
        self
    }

    /// Marks the piece's body as far lighter than the table (see [`Model::body_stands_out`]).
    pub fn with_body_standing_out(mut self, on: bool) -> Self {
        self.body_stands_out = on;
        self
    }

    /// Makes the piece `scale` times the catalog's size (a real set's piece, taught).
    pub fn apply_size(&mut self, scale: f64) {
        if !(scale.is_finite() && scale > 0.2 && scale < 5.0) {
            return;
        }
        let k = scale / self.scale;
        self.solid.scale(k);
        self.footprint_area_mm2 *= k * k;
        self.top_area_mm2 *= k * k;
        self.scale = scale;
    }

    /// How far from its footprint centre the piece's silhouette can reach when standing near
    /// `at`: its footprint's radius plus the lean of its top.
    pub fn reach_mm(&self, view: &Viewpoint, at: PointMm) -> f64 {
        let lean = view.apparent(at, self.solid.top_mm()).distance(at);
        self.shape.bounding_radius_mm() * self.scale + lean
    }

    /// Treasures may stand on it (a ship's deck, the island); nothing else does.
    pub fn carries_treasures(&self) -> bool {
        matches!(
            self.kind,
            PieceKind::Ship | PieceKind::PirateShip | PieceKind::Island
        )
    }

    /// The radius of a disc as large as its footprint, mm: how far from the centre of what
    /// shows of it its own centre may lie.
    pub fn footprint_radius_mm(&self) -> f64 {
        (self.footprint_area_mm2 / std::f64::consts::PI).sqrt()
    }

    /// The footprint at `pose` (catalog outline at the model's size).
    pub fn footprint(&self, pose: &Pose2) -> PolygonMm {
        let (s, c) = pose.angle_rad.sin_cos();
        PolygonMm::new(
            self.shape
                .local_footprint()
                .into_iter()
                .map(|q| {
                    let q = q * self.scale;
                    PointMm::new(c * q.x - s * q.y, s * q.x + c * q.y) + pose.center_mm
                })
                .collect(),
        )
    }
}

/// Second moments of a point set (or polygon vertices) about its mean.
#[derive(Debug, Clone, Copy, Default)]
struct Moments {
    xx: f64,
    xy: f64,
    yy: f64,
}

impl Moments {
    fn ratio(&self) -> f64 {
        let tr = self.xx + self.yy;
        let det = self.xx * self.yy - self.xy * self.xy;
        let disc = (tr * tr / 4.0 - det).max(0.0).sqrt();
        let (l1, l2) = (tr / 2.0 + disc, (tr / 2.0 - disc).max(1e-9));
        l1 / l2
    }

    fn orientation(&self) -> f64 {
        0.5 * (2.0 * self.xy).atan2(self.xx - self.yy)
    }
}

fn moments(points: &[PointMm]) -> Moments {
    let n = points.len().max(1) as f64;
    let c = points.iter().fold(PointMm::default(), |a, &p| a + p) * (1.0 / n);
    let mut m = Moments::default();
    for &p in points {
        let d = p - c;
        m.xx += d.x * d.x / n;
        m.xy += d.x * d.y / n;
        m.yy += d.y * d.y / n;
    }
    m
}

/// A piece found in a region.
#[derive(Debug, Clone)]
pub struct Detection {
    /// Index into the models.
    pub model: usize,
    pub fit: Fit,
    /// The ink die's top colour.
    pub top: Option<DieTop>,
    /// Another model whose fit on the same seed explained nearly as many pixels
    /// ([`CLOSE_GAIN_SHARE`]), at its comparison pose: what the piece may be instead when the box
    /// holds fewer of its kind than were found (a black Octo-Canon taken for the ink die, while
    /// the real die is found elsewhere).
    pub runner_up: Option<(usize, Fit)>,
    /// A shadow-like piece ([`Model::shadow_like`]) found only once the shadow pixels of its
    /// colour counted for it (at first weighing, they count a little against every piece): a
    /// black die on a grey table reads as a shadow but for its rim. Its later fits count them
    /// too, and its pixels include them.
    pub on_shadows: bool,
}

/// A hull and another piece of its colour fitted together ([`Detector::untangled_pair`]).
struct Untangled {
    hull: Fit,
    other: Fit,
    /// When the other piece was not found before: the hull's gain at its pose before, on the
    /// same map (that piece's pixels counting for it).
    hull_alone: Option<f64>,
}

/// A seed's best fit (model index and fit), and another model's nearly as good
/// ([`Detection::runner_up`]).
struct Best {
    model: usize,
    fit: Fit,
    runner_up: Option<(usize, Fit)>,
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

/// What a weight map depends on besides the region: the model's colours, its table and
/// shadow weights (as bits), which pixels others explain it leaves out ([`held_key`]), whether the
/// shadow pixels of its colour count for it ([`Detection::on_shadows`]), and the window.
type MapKey = (u32, u32, u32, HeldKey, bool, Window);

/// A found piece that treasures ride on: a ship or the island.
#[derive(Debug)]
struct Deck {
    footprint: PolygonMm,
    /// Height of its top above the table (mm).
    height_mm: f64,
    /// What its pixels are marked with in `explained`.
    mark: u16,
    /// A ship's: its deck is its whole top, which a treasure standing on it covers. The island's
    /// palm may hide a treasure under it instead.
    ship: bool,
}

/// A window of region pixels, `[x0, x1) x [y0, y1)`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
struct Window {
    x0: usize,
    y0: usize,
    x1: usize,
    y1: usize,
}

/// A model [`Detector::best_fit`] will fit to a seed: the seed's pixels of its colours (as
/// region indices and table points) and their centre, its window and weight map, and an upper
/// bound on the gain of any fit on that map ([`WeightMap::score_bound`]).
#[derive(Debug)]
struct Plan {
    model: usize,
    own: Vec<usize>,
    pts: Vec<PointMm>,
    seed_centre: PointMm,
    win: Window,
    map_key: MapKey,
    bound: f64,
    /// The seed shows less than [`PRUNE_AREA_SHARE`] of the footprint in the model's colours, and
    /// was let through for shadows beside it ([`shaded_rest`]): its fit must reach
    /// [`SHADED_SEED_MIN_QUALITY`].
    shaded: bool,
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
            mark_explained(
                region,
                &models[d.model],
                &d.fit.silhouette,
                &mut self.kept_marks,
                KEPT,
                d.on_shadows,
            );
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
                s.len() >= SECOND_LOOK_MIN_PX
                    && s.iter().filter(|&&p| first_marks[p] != 0).count() as f64 >= MIN_GAIN_PX
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
            if seed.len() < MIN_SEED_OWN_PX {
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
                },
                on_shadows,
            )) = found
            else {
                continue;
            };
            let k = detections.len() as u16 + 1;
            let marked = mark_explained(region, &models[mi], &fit.silhouette, explained, k, on_shadows);
            if (marked as f64) < MIN_GAIN_PX {
                continue;
            }
            self.cover(region, &models[mi], &fit.silhouette);
            detections.push(Detection {
                model: mi,
                fit,
                top: None,
                runner_up,
                on_shadows,
            });
            // What the piece did not explain seeds the next ones.
            queue.extend(split(region, &seed, explained));
            queue.sort_by_key(|s| s.len());
        }
    }

    /// Treasures on a ship's deck that share its colour best (a brown chest on an orange deck:
    /// in shade the two are one hue) are marked as the ship's. On each ship's deck, pixels
    /// clearly darker than the deck's own ([`DECK_LOAD_DARKER`] of its lit level) that show
    /// a treasure's colour best, and pixels that show best a treasure's colour of the ship's hue
    /// ([`Model::deck_kin`]: a lit gold bar on the orange deck), are freed and looked at again,
    /// all together and patch by patch, fitted at the deck's height; what no treasure takes goes
    /// back to the ship.
    fn deck_loads(
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
            let mut deck: Vec<usize> = Vec::new();
            for_each_inside(region, std::slice::from_ref(&top), |p| {
                if explained[p] == hk {
                    deck.push(p);
                }
            });
            if deck.len() < MIN_SEED_OWN_PX {
                continue;
            }
            let level = |p: usize| region.bgr[p].iter().sum::<f32>();
            let mut levels: Vec<f32> = deck.iter().map(|&p| level(p)).collect();
            let lit_at = ((levels.len() - 1) as f64 * DECK_LIT_QUANTILE) as usize;
            let lit = *levels.select_nth_unstable_by(lit_at, f32::total_cmp).1;
            let kin = mh.deck_kin.0 & treasures.0;
            let freed: Vec<usize> = deck
                .into_iter()
                .filter(|&p| {
                    let best = region.colours[p].best;
                    (level(p) < DECK_LOAD_DARKER * lit && treasures.contains_any(best)) || best & kin != 0
                })
                .collect();
            if freed.len() < MIN_SEED_OWN_PX {
                continue;
            }
            for &p in &freed {
                explained[p] = 0;
            }
            // All of them are a seed too (the largest, tried first): a load's freed pixels may
            // be split by a row that reads as the deck's colour alone (a lit gold bar's ridge)
            // into patches too small to fit. Each patch is still tried once what fits all of
            // them has taken its pixels: another load may win the whole (a chest beside the
            // bar), and what it leaves splits again.
            let mut seeds = split(region, &freed, explained);
            if seeds.len() > 1 {
                seeds.push(freed.clone());
            }
            self.base_mm = pose.base_mm + height;
            self.grow(region, models, view, detections, explained, seeds);
            self.base_mm = 0.0;
            for &p in &freed {
                if explained[p] == 0 {
                    explained[p] = hk;
                }
            }
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
    fn untangle(
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
                if pair.other.quality() >= FREED_OTHER_QUALITY
                    && pair.hull.quality() >= mh.min_quality
                    && pair.hull_alone.is_some_and(|alone| total >= alone + MIN_GAIN_PX)
                    && freed.as_ref().is_none_or(|f| total > f.0)
                {
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
    /// the old ones (and [`MIN_GAIN_PX`]) and each fits as well as its model needs, else `None`.
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
        if new < old + (old.abs() * REPOSE_MIN_GAIN_SHARE).max(MIN_GAIN_PX) {
            return None;
        }
        // Each to its final pose with the other's new pixels explained.
        let mut moved = detections.to_vec();
        moved[h].fit = pair.hull;
        moved[a].fit = pair.other;
        let explained = remarked(region, models, &moved, &vec![0; region.len()]);
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
        let fh = refine_pose(
            &mh.solid,
            &map_h,
            view,
            hstart,
            false,
            Precision::COMPARE,
            &mut self.scratch,
        )?;
        let (_, map_a) = left_by(region, ma, &base, mh, &fh, hk, win);
        let fa = refine_pose(
            &ma.solid,
            &map_a,
            view,
            astart,
            false,
            Precision::COMPARE,
            &mut self.scratch,
        )?;
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

    /// `quality_floor` for `fit` of `model`, or none when the free piece pixels it holds inside
    /// pieces found show those pieces' colours too little to be their leftovers
    /// ([`HOST_LIKE_MIN_SHARE`]). A pixel that reads best as one of `model`'s colours is the
    /// piece's own, whatever else it may pass for.
    fn floor_for_fit(
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
    fn quality_needed(
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
    fn stands_for_dropped(&self, model: &Model, fit: &Fit) -> bool {
        model.kind == PieceKind::Treasure
            && self.dropped.iter().any(|d| {
                d.entry != model.entry
                    && d.quality >= DROPPED_MIN_QUALITY
                    && d.at.distance(fit.pose.center_mm) < model.footprint_radius_mm() + d.radius_mm
            })
    }

    /// The model that explains most of a seed, fitted; `None` when no model explains enough.
    fn best_fit(
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
            // On shadows, a shadow-like piece's seed is its rim in its own dark colour.
            let colours = if self.on_shadows {
                model.primary
            } else {
                model.colours
            };
            let own: Vec<usize> = seed
                .iter()
                .copied()
                .filter(|&p| colours.contains_any(region.colours[p].compatible))
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
            if own.len() < MIN_SEED_OWN_PX || (own.len() as f64) * px_area < share * model.footprint_area_mm2
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
                    (outside.len() >= MIN_SEED_OWN_PX)
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
        let chosen = self.look_ahead(
            region,
            models,
            view,
            explained,
            seed,
            quality_floor,
            &contest,
            chosen,
        );
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
        })
    }

    /// Which of a seed's `contest`ants (refined fits of different models) to take, `chosen`
    /// having won it: a contender that fits clearly better ([`LOOK_AHEAD_QUALITY`]) is taken
    /// instead when it and the best fit of what it leaves of the seed explain more than the
    /// winner and the best fit of what the winner leaves (each counted when it fits well:
    /// [`LOOK_AHEAD_REST_QUALITY`]). A larger piece laid across two smaller ones explains more
    /// than either (the pink pirate ship across two tentacles), but not more than both.
    #[allow(clippy::too_many_arguments)]
    fn look_ahead(
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
        let fit = if (fit.quality() < floor_q || fit.gain < MIN_GAIN_PX) && own.len() as f64 > fit.area_px {
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
        let fit = if model.round && crescent && (fit.quality() < floor_q || fit.gain < MIN_GAIN_PX) {
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
            || fit.gain < MIN_GAIN_PX
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
    fn deck_under(&self, model: &Model, view: &Viewpoint, fit: &Fit) -> Option<&Deck> {
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

    /// Treasures standing on a ship's deck or on the island: fitted again at that height (a
    /// treasure's base on the table cannot overlap a ship's).
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
            let host = hosts.iter().find(|(hull, _, ship)| {
                if *ship {
                    hull.contains(d.fit.pose.center_mm) || hull.gap(&fp) <= 0.0
                } else {
                    hull.contains(d.fit.pose.center_mm)
                }
            });
            let Some((hull, height, _)) = host else { continue };
            // Keep the treasure's middle where it was seen, now standing `height` up.
            let mid = model.solid.height_mm / 2.0;
            let seen = view.apparent(d.fit.pose.center_mm, d.fit.pose.base_mm + mid);
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
            {
                d.fit = f;
            }
        }
    }
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

/// The centre of the largest connected patch of unexplained pixels showing `model`'s colours
/// best in `win`.
fn largest_patch_centre(region: &Region, model: &Model, explained: &[u16], win: Window) -> Option<PointMm> {
    largest_patch_centre_of(region, model.colours, explained, win)
}

/// The centre of the largest patch of unexplained pixels in `win` that show `colours` best.
fn largest_patch_centre_of(
    region: &Region,
    colours: ColourSet,
    explained: &[u16],
    win: Window,
) -> Option<PointMm> {
    let mut pixels = Vec::new();
    for j in win.y0..win.y1 {
        for i in win.x0..win.x1 {
            let p = j * region.width + i;
            if explained[p] == 0
                && region.labels[p] == Label::Piece
                && colours.contains_any(region.colours[p].best)
            {
                pixels.push(p);
            }
        }
    }
    largest_patch(region, &pixels, explained).map(|patch| mean_mm(&patch))
}

/// The table points of the largest 8-connected patch of a seed's unexplained pixels that show
/// `colours` best.
fn largest_seed_patch(
    region: &Region,
    colours: ColourSet,
    explained: &[u16],
    seed: &[usize],
) -> Option<Vec<PointMm>> {
    let pixels: Vec<usize> = seed
        .iter()
        .copied()
        .filter(|&p| explained[p] == 0 && colours.contains_any(region.colours[p].best))
        .collect();
    largest_patch(region, &pixels, explained)
}

/// The table points of the largest 8-connected patch of the unexplained ones of `pixels`.
fn largest_patch(region: &Region, pixels: &[usize], explained: &[u16]) -> Option<Vec<PointMm>> {
    let patch = split(region, pixels, explained)
        .into_iter()
        .max_by_key(|c| c.len())?;
    Some(
        patch
            .iter()
            .map(|&p| region.px_to_mm((p % region.width) as f64, (p / region.width) as f64))
            .collect(),
    )
}

/// The pixel of `pixels` (indices into an image `width` wide) farthest from any pixel not among
/// them, by the 3-4 chamfer distance (within 8 % of the Euclidean one); the first such in row
/// order on a tie. The centre of the largest disc a seed holds: where a round piece among
/// others stands.
fn deepest_pixel(width: usize, pixels: &[usize]) -> Option<usize> {
    if pixels.is_empty() || width == 0 {
        return None;
    }
    let (x0, y0, x1, y1) = bbox_in(width, pixels);
    // One pixel of margin all round, never a member, so no neighbour lookup leaves the grid.
    let (w, h) = (x1 - x0 + 3, y1 - y0 + 3);
    let mut d = vec![0u32; w * h];
    for &p in pixels {
        d[(p / width - y0 + 1) * w + (p % width - x0 + 1)] = u32::MAX / 2;
    }
    for j in 1..h - 1 {
        for i in 1..w - 1 {
            let k = j * w + i;
            if d[k] != 0 {
                let n = (d[k - 1] + 3)
                    .min(d[k - w] + 3)
                    .min(d[k - w - 1] + 4)
                    .min(d[k - w + 1] + 4);
                d[k] = d[k].min(n);
            }
        }
    }
    let mut best: Option<(u32, usize)> = None;
    for j in (1..h - 1).rev() {
        for i in (1..w - 1).rev() {
            let k = j * w + i;
            if d[k] != 0 {
                let n = (d[k + 1] + 3)
                    .min(d[k + w] + 3)
                    .min(d[k + w + 1] + 4)
                    .min(d[k + w - 1] + 4);
                d[k] = d[k].min(n);
                if best.is_none_or(|(b, _)| d[k] >= b) {
                    best = Some((d[k], k));
                }
            }
        }
    }
    best.map(|(_, k)| (k / w - 1 + y0) * width + (k % w - 1 + x0))
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

/// The mean of some points (the origin for none).
fn mean_mm(points: &[PointMm]) -> PointMm {
    let sum = points.iter().fold(PointMm::default(), |a, &p| a + p);
    sum * (1.0 / points.len().max(1) as f64)
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

/// The model's weights over a window of the region. `own` = the detection being refitted: its
/// own pixels count for it, every other detection's pixels count neither way.
fn weight_map(
    region: &Region,
    model: &Model,
    explained: &[u16],
    own: Option<u16>,
    win: Window,
    on_shadows: bool,
    occluders: &[Occluder],
) -> WeightMap {
    let shadows_count = on_shadows && model.shadow_like;
    let (w, h) = (win.x1.saturating_sub(win.x0), win.y1.saturating_sub(win.y0));
    let mut out = Vec::with_capacity(w * h);
    // Row slices zipped, not indexed per pixel: a best fit builds a map per model it tries.
    for j in win.y0..win.y1 {
        let row = j * region.width + win.x0..j * region.width + win.x1.max(win.x0);
        let pixels = region.labels[row.clone()]
            .iter()
            .zip(&region.colours[row.clone()])
            .zip(&explained[row]);
        // A pixel another piece explains counts neither way; else by how well it shows `colours`:
        // as its best, merely compatible, or neither.
        let weigh = |c: &PixelColours, e: u16, colours: ColourSet, [best, compatible, neither]: [f32; 3]| {
            if e != 0 && Some(e) != own {
                0.0
            } else if colours.contains_any(c.best) {
                best
            } else if colours.contains_any(c.compatible) {
                compatible
            } else {
                neither
            }
        };
        out.extend(pixels.map(|((label, c), &e)| match label {
            Label::Piece => weigh(c, e, model.colours, [W_OWN_BEST, W_OWN_COMPATIBLE, W_OTHER]),
            Label::Table => model.table_weight,
            Label::Shadow if shadows_count => weigh(
                c,
                e,
                model.primary,
                [W_SHADOW_LIKE_BEST, W_SHADOW_LIKE_COMPATIBLE, model.shadow_weight],
            ),
            Label::Shadow => model.shadow_weight,
            Label::Outside => 0.0,
        }));
    }
    let map = WeightMap::new(
        w,
        h,
        region.px_to_mm(win.x0 as f64, win.y0 as f64),
        region.mm_per_px,
        &out,
    );
    // A carrier leaves out whatever others explain (its loads); a treasure leaves out what a
    // piece hiding it explains where it hides it (behind a taller piece, under the palm).
    let carrier = weighs_held(model);
    let hiding: Vec<Option<Hiding>> = occluders.iter().map(|o| o.hiding(model)).collect();
    let hides = |e: u16, i: usize, j: usize| {
        e != 0
            && Some(e) != own
            && (carrier
                || hiding
                    .get(usize::from(e) - 1)
                    .copied()
                    .flatten()
                    .is_some_and(|h| {
                        let best = region.colours[j * region.width + i].best;
                        h.at(region.px_to_mm(i as f64, j as f64), best)
                    }))
    };
    let mut held = Vec::new();
    if carrier || hiding.iter().any(Option::is_some) {
        held.reserve(w * h);
        for j in win.y0..win.y1 {
            for i in win.x0..win.x1 {
                held.push(hides(explained[j * region.width + i], i, j));
            }
        }
    }
    let map = if held.iter().any(|&h| h) {
        map.with_held(&held, if carrier { 1.0 } else { HIDDEN_MAX_SHARE })
    } else {
        map
    };
    if model.solid.mouth.is_none() {
        return map;
    }
    let mut neutral = Vec::with_capacity(w * h);
    for j in win.y0..win.y1 {
        let row = &region.labels[j * region.width + win.x0..j * region.width + win.x1];
        neutral.extend(row.iter().map(|l| matches!(l, Label::Table | Label::Shadow)));
    }
    map.with_neutral_mouths(&neutral)
}

/// Whether a model's fits leave what other pieces explain out of their area: a ship's loads
/// cover its deck (the island's treasures are few against its size).
fn weighs_held(model: &Model) -> bool {
    model.carries_treasures() && model.kind != PieceKind::Island
}

/// Whether `own` (region pixels of `model`'s colours) and the shadow pixels within a footprint's
/// radius of their centre cover [`PRUNE_AREA_SHARE`] of `model`'s footprint: a brown chest on
/// warm wood shows its colour on its lit half only, its shaded half reads as the table in
/// shadow.
fn shaded_rest(region: &Region, model: &Model, own: &[usize]) -> bool {
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
fn floor_for(model: &Model, floor: f64) -> f64 {
    floor * (model.min_quality / MIN_QUALITY).min(1.0)
}

/// Whether fit `a` of one model explains a seed better than fit `b` of another, by their gains
/// `gain_a` and `gain_b` (their own, or weighed afresh: see [`Detector::deck_under`]): more pixels,
/// unless the two explain nearly as many ([`CLOSE_GAIN_SHARE`]) and one fits clearly better
/// ([`CLEARLY_BETTER_QUALITY`]): a pirate ship whole beats the octopus head laid over it and
/// the table around it.
fn beats(a: &Fit, gain_a: f64, b: &Fit, gain_b: f64) -> bool {
    let close = gain_a.min(gain_b) >= CLOSE_GAIN_SHARE * gain_a.max(gain_b);
    if close && (a.quality() - b.quality()).abs() >= CLEARLY_BETTER_QUALITY {
        a.quality() > b.quality()
    } else {
        gain_a > gain_b
    }
}

/// How many pixels inside `fit`'s silhouette the deck marked `deck` explains that show none of
/// `model`'s colours, not even as compatible: the deck itself, which a treasure standing on it
/// would cover. Pixels that pass for the treasure too (a gold bar's shaded side on an orange
/// deck) are not counted.
fn deck_covered(region: &Region, explained: &[u16], model: &Model, fit: &Fit, deck: u16) -> usize {
    let mut covered = 0;
    for_each_inside(region, &fit.silhouette.polygons, |p| {
        if explained[p] == deck && !model.colours.contains_any(region.colours[p].compatible) {
            covered += 1;
        }
    });
    covered
}

/// The window holding a silhouette plus `margin_mm`.
fn window_around(region: &Region, sil: &super::view::Silhouette, margin_mm: f64) -> Window {
    let Some((lo, hi)) = sil.bounds() else {
        return Window {
            x0: 0,
            y0: 0,
            x1: region.width,
            y1: region.height,
        };
    };
    let (a, b) = (region.mm_to_px(lo), region.mm_to_px(hi));
    let m = margin_mm / region.mm_per_px;
    let clamp_x = |v: f64| v.clamp(0.0, region.width as f64) as usize;
    let clamp_y = |v: f64| v.clamp(0.0, region.height as f64) as usize;
    Window {
        x0: clamp_x((a.0 - m).floor()),
        y0: clamp_y((a.1 - m).floor()),
        x1: clamp_x((b.0 + m).ceil() + 1.0),
        y1: clamp_y((b.1 + m).ceil() + 1.0),
    }
}

/// Bounding box (inclusive) of region pixels.
fn bbox(region: &Region, pixels: &[usize]) -> (usize, usize, usize, usize) {
    bbox_in(region.width, pixels)
}

/// Bounding box (inclusive) of pixels of an image `width` wide (not 0).
fn bbox_in(width: usize, pixels: &[usize]) -> (usize, usize, usize, usize) {
    let (mut x0, mut y0, mut x1, mut y1) = (usize::MAX, usize::MAX, 0, 0);
    for &p in pixels {
        let (i, j) = (p % width, p / width);
        x0 = x0.min(i);
        y0 = y0.min(j);
        x1 = x1.max(i);
        y1 = y1.max(j);
    }
    (x0, y0, x1, y1)
}

/// The share of `footprint`'s area that lies on any of `decks` (sampled every
/// [`SHARE_SAMPLE_MM`]).
fn share_on<'a>(footprint: &PolygonMm, decks: impl IntoIterator<Item = &'a PolygonMm>) -> f64 {
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

/// `explained` marked afresh from the detections' silhouettes, in the order they were found.
fn remarked(region: &Region, models: &[Model], detections: &[Detection], kept_marks: &[u16]) -> Vec<u16> {
    let mut explained = kept_marks.to_vec();
    for (k, d) in detections.iter().enumerate() {
        mark_explained(
            region,
            &models[d.model],
            &d.fit.silhouette,
            &mut explained,
            k as u16 + 1,
            d.on_shadows,
        );
    }
    explained
}

/// Marks the pixels inside a fit's silhouette that show the model's colours best as explained
/// by `k` (a brown chest on an orange deck stays for the chest); returns how many were newly
/// marked.
fn mark_explained(
    region: &Region,
    model: &Model,
    sil: &Silhouette,
    explained: &mut [u16],
    k: u16,
    on_shadows: bool,
) -> usize {
    let shadows_count = on_shadows && model.shadow_like;
    let mut n = 0;
    for_each_inside(region, &sil.polygons, |p| {
        let own = match region.labels[p] {
            Label::Piece => model.colours.contains_any(region.colours[p].best),
            Label::Shadow => shadows_count && model.primary.contains_any(region.colours[p].best),
            Label::Table | Label::Outside => false,
        };
        if explained[p] == 0 && own {
            explained[p] = k;
            n += 1;
        }
    });
    n
}

/// The fit of `model` exactly at `pose`, with the pixels the `others` (model and pose) explain
/// counting neither way, as the detector would weigh it: for probes and tests that compare a
/// true pose with the one found. `None` when the silhouette falls off the region.
pub fn fit_at(
    region: &Region,
    model: &Model,
    view: &Viewpoint,
    pose: Pose2,
    others: &[(&Model, Pose2)],
) -> Option<Fit> {
    let mut explained = vec![0u16; region.len()];
    for (k, (m, p)) in others.iter().enumerate() {
        mark_explained(
            region,
            m,
            &Silhouette::of(&m.solid, p, view),
            &mut explained,
            k as u16 + 1,
            false,
        );
    }
    let occluders: Vec<Occluder> = others.iter().map(|(m, p)| Occluder::of(m, p, view)).collect();
    let sil = Silhouette::of(&model.solid, &pose, view);
    let win = window_around(region, &sil, WINDOW_MARGIN_MM);
    let at = |on_shadows: bool| {
        let map = weight_map(region, model, &explained, None, win, on_shadows, &occluders);
        score_at(&model.solid, &map, view, pose, &mut ScoreScratch::default())
    };
    // A shadow-like piece is weighed both ways, as the detector may.
    match (at(false), model.shadow_like.then(|| at(true)).flatten()) {
        (Some(a), Some(b)) if b.gain > a.gain => Some(b),
        (a, b) => a.or(b),
    }
}

/// `model` fitted where `at` was found, instead of `at`'s own model, the `others` found in the
/// same region explaining their pixels, placed to the final precision (it is reported as
/// found). `None` unless it fits well enough to be a piece of `model`. For when the box holds fewer of
/// `at`'s kind than were found and another model shares its main colour: a black Octo-Canon
/// beside a pink ship fits the ink die better (the die's pink faces take the ship's pixels), and
/// only the real die found elsewhere tells it is the canon.
pub fn refit_as(
    region: &Region,
    models: &[Model],
    view: &Viewpoint,
    model: usize,
    at: &Detection,
    others: &[&Detection],
) -> Option<Fit> {
    let m = models.get(model)?;
    let explained = explained_by(region, models, others);
    let start = at.fit.pose.center_mm;
    let base_mm = at.fit.pose.base_mm;
    let probe = Pose2 {
        center_mm: start,
        angle_rad: 0.0,
        base_mm,
    };
    let sil = Silhouette::of(&m.solid, &probe, view);
    let win = window_around(region, &sil, REFIT_MARGIN_MM);
    let on_shadows = at.on_shadows && m.shadow_like;
    let occluders = occluders_of(models, view, others.iter().copied());
    let map = weight_map(region, m, &explained, None, win, on_shadows, &occluders);
    let angles: Vec<f64> = if m.round {
        vec![0.0]
    } else {
        (0..ISOTROPIC_STARTS)
            .map(|k| k as f64 * m.period / ISOTROPIC_STARTS as f64)
            .collect()
    };
    let mut scratch = ScoreScratch::default();
    let found = fit_pose(&m.solid, &map, view, start, &angles, base_mm, &mut scratch)?;
    let fit = refine_pose(
        &m.solid,
        &map,
        view,
        found.pose,
        m.round,
        Precision::FINAL,
        &mut scratch,
    )?;
    (fit.quality() >= floor_for(m, MIN_QUALITY) && fit.gain >= MIN_GAIN_PX).then_some(fit)
}

/// What decides which pixels the pieces found leave out of `model`'s map, for one set of
/// `occluders`: whether it is a carrier ([`weighs_held`]), and if any of them hides it, its
/// height and main colour (which decide which hide it); models alike in both share maps.
type HeldKey = (u8, u64, u32);

fn held_key(model: &Model, occluders: &[Occluder]) -> HeldKey {
    if weighs_held(model) {
        (1, 0, 0)
    } else if occluders.iter().any(|o| o.hides(model)) {
        (2, model.solid.height_mm.to_bits(), model.primary.0)
    } else {
        (0, 0, 0)
    }
}

/// What piece `k` (marking its pixels `k + 1`) of `detections` may hide others by.
fn occluders_of<'a>(
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

/// Marks of the pixels `others` explain (piece `k` as `k + 1`), for fitting one more piece among them.
fn explained_by(region: &Region, models: &[Model], others: &[&Detection]) -> Vec<u16> {
    let mut explained = vec![0u16; region.len()];
    for (k, d) in others.iter().enumerate() {
        if let Some(o) = models.get(d.model) {
            let mark = u16::try_from(k + 1).unwrap_or(KEPT - 2);
            mark_explained(region, o, &d.fit.silhouette, &mut explained, mark, d.on_shadows);
        }
    }
    explained
}

/// `at` fitted afresh as its own model once the region's `others` are found and explain their
/// pixels: from the best poses of a grid about its centre (as [`Detector::untangle`]'s), within
/// [`REPOSE_MARGIN_MM`] beyond its reach. The new fit when it explains at least
/// [`REPOSE_MIN_GAIN_SHARE`] more than `at`'s pose does in the same light (and
/// [`MIN_GAIN_PX`]), else `None`. A ship is fitted before the treasures on its deck and the
/// anchor beside it are found, while their pixels still count against it; a pose turned or
/// slid off its hull may then explain more than the true one, which wins once they are found.
pub fn repose(
    region: &Region,
    models: &[Model],
    view: &Viewpoint,
    at: &Detection,
    others: &[&Detection],
) -> Option<Fit> {
    let m = models.get(at.model)?;
    let explained = explained_by(region, models, others);
    let pose = at.fit.pose;
    let (lo, hi) = at.fit.silhouette.bounds()?;
    // Room to turn about the centre as well as to slide.
    let reach_mm = (hi.x - lo.x).max(hi.y - lo.y) / 2.0;
    let win = window_around(region, &at.fit.silhouette, reach_mm + REPOSE_MARGIN_MM);
    let occluders = occluders_of(models, view, others.iter().copied());
    let map = weight_map(
        region,
        m,
        &explained,
        None,
        win,
        at.on_shadows && m.shadow_like,
        &occluders,
    );
    let mut scratch = ScoreScratch::default();
    let now = score_at(&m.solid, &map, view, pose, &mut scratch)?;
    // The best grid poses of a few angles start, as where a hull may lie across its anchor.
    let grid = PoseGrid {
        centre: pose.center_mm,
        radius_mm: UNTANGLE_GRID_RADIUS_MM,
        step_mm: UNTANGLE_GRID_STEP_MM,
        turns: UNTANGLE_GRID_TURNS,
        base_mm: pose.base_mm,
    };
    let best = grid_poses(&m.solid, &map, view, &grid, &mut scratch)
        .into_iter()
        .take(REPOSE_STARTS)
        .filter_map(|g| {
            refine_pose(
                &m.solid,
                &map,
                view,
                g.pose,
                m.round,
                Precision::COMPARE,
                &mut scratch,
            )
        })
        .max_by(|a, b| a.gain.total_cmp(&b.gain))?;
    let fit = refine_pose(
        &m.solid,
        &map,
        view,
        best.pose,
        m.round,
        Precision::FINAL,
        &mut scratch,
    )?;
    let better = fit.gain >= now.gain + (now.gain.abs() * REPOSE_MIN_GAIN_SHARE).max(MIN_GAIN_PX);
    (better && fit.quality() >= floor_for(m, MIN_QUALITY)).then_some(fit)
}

/// Drops the treasures standing more than [`MAX_SHARE_INSIDE_PIECE`] inside the footprint of a
/// round piece no treasure rides on (the octopus's head, the little octopus, the Octo-Canon):
/// two pieces cannot stand in one place, and the head's white eyes with their dark pupils,
/// leaning past its outline, look like a captain. Only round pieces count: their footprints
/// are sure, where a tentacle's or an anchor's fitted a little off may overlap a treasure
/// that touches it. Pieces `kept` from an earlier look count as found.
fn drop_treasures_inside_pieces(models: &[Model], detections: &mut Vec<Detection>, kept: &[Detection]) {
    let solid: Vec<PolygonMm> = detections
        .iter()
        .chain(kept)
        .filter(|d| is_solid(&models[d.model]))
        .map(|d| models[d.model].footprint(&d.fit.pose))
        .collect();
    if solid.is_empty() {
        return;
    }
    detections.retain(|d| {
        let m = &models[d.model];
        m.kind != PieceKind::Treasure || share_on(&m.footprint(&d.fit.pose), &solid) <= MAX_SHARE_INSIDE_PIECE
    });
}

/// A round piece no treasure rides on (the octopus's head, the little octopus, the Octo-Canon):
/// its footprint is sure, and no other piece stands in it.
fn is_solid(m: &Model) -> bool {
    m.round && m.kind != PieceKind::Treasure && !m.carries_treasures()
}

/// Calls `f` with every region pixel whose centre lies inside the union of `polygons`, once
/// each, row by row from the top and left to right along a row.
pub fn for_each_inside(region: &Region, polygons: &[Vec<PointMm>], mut f: impl FnMut(usize)) {
    // Per polygon and row, the run of columns whose centres lie inside: (row, first, last).
    let mut runs: Vec<(usize, usize, usize)> = Vec::new();
    let mut px: Vec<(f64, f64)> = Vec::new();
    for poly in polygons {
        px.clear();
        px.extend(poly.iter().map(|&q| region.mm_to_px(q)));
        let (ymin, ymax) = px.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), p| {
            (a.min(p.1), b.max(p.1))
        });
        if !(ymin.is_finite() && ymax.is_finite()) {
            continue;
        }
        let j0 = ymin.ceil().max(0.0) as usize;
        let j1 = (ymax.floor()).min(region.height as f64 - 1.0);
        if j1 < 0.0 {
            continue;
        }
        let j1 = j1 as usize;
        for j in j0..=j1 {
            let y = j as f64;
            let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
            let m = px.len();
            for e in 0..m {
                let (a, b) = (px[e], px[(e + 1) % m]);
                if (a.1 <= y) != (b.1 <= y) {
                    let x = a.0 + (y - a.1) * (b.0 - a.0) / (b.1 - a.1);
                    lo = lo.min(x);
                    hi = hi.max(x);
                }
            }
            if lo > hi {
                continue;
            }
            let i0 = lo.ceil().max(0.0) as usize;
            let i1 = hi.floor().min(region.width as f64 - 1.0);
            if i1 < 0.0 || i0 > i1 as usize {
                continue;
            }
            runs.push((j, i0, i1 as usize));
        }
    }
    // The polygons' runs merged row by row: each pixel once, without a mark per region pixel.
    if polygons.len() > 1 {
        runs.sort_unstable();
    }
    let mut k = 0;
    while k < runs.len() {
        let (j, first, mut last) = runs[k];
        k += 1;
        while k < runs.len() && runs[k].0 == j && runs[k].1 <= last + 1 {
            last = last.max(runs[k].2);
            k += 1;
        }
        for i in first..=last {
            f(j * region.width + i);
        }
    }
}

/// The ink die's top colour: the colour most pixels of its top face show (the top face is
/// never hidden from a camera above). A die that looks like a shadow of the table
/// ([`Model::shadow_like`]) may show its dark top as a shadow whole: when no pixel of the top
/// shows a colour, its shadow pixels of the dark colour read it.
pub fn die_top(region: &Region, model: &Model, fit: &Fit, view: &Viewpoint) -> Option<DieTop> {
    let top = model.solid.parts.first()?.sections.last()?;
    let pose = fit.pose;
    let (s, c) = pose.angle_rad.sin_cos();
    let pts: Vec<PointMm> = top
        .outline
        .iter()
        .map(|&q| {
            let q = q * DIE_TOP_SHRINK;
            let p = PointMm::new(c * q.x - s * q.y, s * q.x + c * q.y) + pose.center_mm;
            view.apparent(p, pose.base_mm + top.z_mm)
        })
        .collect();
    let (mut first, mut second, mut shaded_first) = (0usize, 0usize, 0usize);
    for_each_inside(region, &[pts], |p| {
        let b = region.colours[p].best;
        match region.labels[p] {
            Label::Piece if model.primary.contains_any(b) => first += 1,
            Label::Piece if model.secondary.contains_any(b) => second += 1,
            Label::Shadow if model.shadow_like && model.primary.contains_any(b) => shaded_first += 1,
            _ => {}
        }
    });
    // A die that looks like a shadow of the table shows its dark face as one, all of it at
    // times: its lighter faces never do.
    if first + second == 0 {
        first = shaded_first;
    }
    if first + second == 0 {
        return None;
    }
    Some(if first >= second {
        DieTop::Black
    } else {
        DieTop::Red
    })
}

/// The unexplained pixels of `pixels` (region indices), in 8-connected pieces of at least
/// [`MIN_SEED_OWN_PX`].
fn split(region: &Region, pixels: &[usize], explained: &[u16]) -> Vec<Vec<usize>> {
    let w = region.width;
    // Marks over the pixels' bounding box only: a seed is small beside its region.
    let Some((bx0, by0, bx1, by1)) =
        pixels
            .iter()
            .fold(None, |b: Option<(usize, usize, usize, usize)>, &p| {
                let (i, j) = (p % w, p / w);
                Some(b.map_or((i, j, i, j), |(x0, y0, x1, y1)| {
                    (x0.min(i), y0.min(j), x1.max(i), y1.max(j))
                }))
            })
    else {
        return Vec::new();
    };
    let (bw, bh) = (bx1 - bx0 + 1, by1 - by0 + 1);
    let slot = |p: usize| (p / w - by0) * bw + (p % w - bx0);
    let mut member = vec![false; bw * bh];
    for &p in pixels {
        if explained[p] == 0 {
            member[slot(p)] = true;
        }
    }
    let mut out = Vec::new();
    // Box coordinates on the stack: the fill divides by no width.
    let mut stack: Vec<(usize, usize)> = Vec::new();
    for &start in pixels {
        let s = slot(start);
        if !member[s] {
            continue;
        }
        let mut comp = Vec::new();
        member[s] = false;
        stack.push((start % w - bx0, start / w - by0));
        while let Some((i, j)) = stack.pop() {
            comp.push((by0 + j) * w + bx0 + i);
            for nj in j.saturating_sub(1)..=(j + 1).min(bh - 1) {
                for ni in i.saturating_sub(1)..=(i + 1).min(bw - 1) {
                    let q = nj * bw + ni;
                    if member[q] {
                        member[q] = false;
                        stack.push((ni, nj));
                    }
                }
            }
        }
        if comp.len() >= MIN_SEED_OWN_PX {
            out.push(comp);
        }
    }
    out
}

/// The largest 8-connected patch of changed pixels outside every detection's silhouette: its
/// size in pixels and its bounding box. Scattered leftovers (a piece's rim, a shadow's dark
/// core) stay small; a hand or an arm is one large patch.
fn unexplained<'a>(
    region: &Region,
    detections: impl Iterator<Item = &'a Detection>,
) -> (usize, Option<(usize, usize, usize, usize)>) {
    let mut covered = vec![false; region.len()];
    for d in detections {
        for_each_inside(region, &d.fit.silhouette.polygons, |p| covered[p] = true);
    }
    let pixels: Vec<usize> = (0..region.len())
        .filter(|&p| region.labels[p] == Label::Piece && !covered[p])
        .collect();
    let none = vec![0u16; region.len()];
    let Some(largest) = split(region, &pixels, &none).into_iter().max_by_key(|c| c.len()) else {
        return (0, None);
    };
    let (x0, y0, x1, y1) = bbox(region, &largest);
    (largest.len(), Some((x0, y0, x1, y1)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fit(gain: f64, area_px: f64) -> Fit {
        Fit {
            pose: Pose2 {
                center_mm: PointMm::default(),
                angle_rad: 0.0,
                base_mm: 0.0,
            },
            gain,
            area_px,
            silhouette: Silhouette::default(),
        }
    }

    /// A region `size` mm square at 1 mm/px, centred on the origin, of bare table: every pixel
    /// `bgr` bright, over a reference `ref_sum` bright.
    fn bare_table(size: usize, bgr: f32, ref_sum: f32) -> Region {
        use opencv::core::Rect;
        let half = size as f64 / 2.0;
        Region {
            rect: Rect::new(0, 0, size as i32, size as i32),
            width: size,
            height: size,
            origin_mm: PointMm::new(-half, -half),
            mm_per_px: 1.0,
            labels: vec![Label::Table; size * size],
            colours: vec![PixelColours::default(); size * size],
            bgr: vec![[bgr; 3]; size * size],
            ref_sum: vec![ref_sum; size * size],
            white: None,
        }
    }

    /// A region 80 mm square at 1 mm/px, centred on the origin, of bare table but for the
    /// Octo-Canon standing at the origin seen straight down: its disc is shadow-labelled in its
    /// own dark colour, but for a rim on the +x side read as piece (as a black canon on a grey
    /// table shows, bench scene 5).
    fn canon_read_as_shadow() -> (Region, Model) {
        use super::super::colour::{Palette, entry_colours};
        use crate::table::Catalog;
        use opencv::core::Rect;
        let catalog = Catalog::default_catalog();
        let (i, entry) = catalog
            .pieces
            .iter()
            .enumerate()
            .find(|(_, e)| e.piece == PieceKind::OctoCanon)
            .unwrap();
        let colours = entry_colours(&mut Palette::default(), entry, None);
        let model = Model::new(i, entry, colours.primary, colours.secondary, false);
        let (w, h) = (80usize, 80usize);
        let origin_mm = PointMm::new(-40.0, -40.0);
        let mut labels = vec![Label::Table; w * h];
        let mut pixel_colours = vec![PixelColours::default(); w * h];
        let radius = entry.shape.bounding_radius_mm();
        for p in 0..w * h {
            let q = PointMm::new(
                origin_mm.x + (p % w) as f64 + 0.5,
                origin_mm.y + (p / w) as f64 + 0.5,
            );
            let r = q.distance(PointMm::default());
            if r > radius {
                continue;
            }
            labels[p] = if r > radius - 3.0 && q.x > 0.0 {
                Label::Piece
            } else {
                Label::Shadow
            };
            pixel_colours[p] = PixelColours {
                best: colours.primary.0,
                compatible: colours.primary.0,
            };
        }
        let region = Region {
            rect: Rect::new(0, 0, w as i32, h as i32),
            width: w,
            height: h,
            origin_mm,
            mm_per_px: 1.0,
            labels,
            colours: pixel_colours,
            bgr: vec![[80.0; 3]; w * h],
            ref_sum: vec![390.0; w * h],
            white: None,
        };
        (region, model)
    }

    /// A region 140 mm square at 1 mm/px of bare table, the orange ship seen straight down
    /// at `ship`, a gold bar on its deck at `gold` (each pixel showing its piece's colour),
    /// and the two models.
    fn ship_with_a_load(ship: Pose2, gold: Pose2) -> (Region, Model, Model) {
        use super::super::colour::{Palette, entry_colours};
        use crate::table::Catalog;
        let catalog = Catalog::default_catalog();
        let mut palette = Palette::default();
        let mut model_of = |pick: &dyn Fn(&CatalogEntry) -> bool| {
            let (i, entry) = catalog.pieces.iter().enumerate().find(|(_, e)| pick(e)).unwrap();
            let colours = entry_colours(&mut palette, entry, None);
            Model::new(i, entry, colours.primary, colours.secondary, false)
        };
        let ship_model = model_of(&|e| e.piece == PieceKind::Ship && e.color == Some(PlayerColor::Orange));
        let gold_model = model_of(&|e| e.treasure == Some(TreasureType::Gold));
        let mut region = bare_table(140, 120.0, 390.0);
        let view = Viewpoint::orthographic();
        for (model, pose) in [(&ship_model, ship), (&gold_model, gold)] {
            let sil = Silhouette::of(&model.solid, &pose, &view);
            let mut inside = Vec::new();
            for_each_inside(&region, &sil.polygons, |p| inside.push(p));
            for p in inside {
                region.labels[p] = Label::Piece;
                region.colours[p] = PixelColours {
                    best: model.primary.0,
                    compatible: model.primary.0,
                };
            }
        }
        (region, ship_model, gold_model)
    }

    /// A region 60 mm square at 1 mm/px of bare table, with a strip of chest-coloured piece
    /// pixels 6 x 12 mm at the origin (a fifth of the chest's footprint), and shadow pixels where
    /// `shadow(x, y)` says; the chest model and the strip's pixels.
    fn chest_strip(shadow: impl Fn(f64, f64) -> bool) -> (Region, Model, Vec<usize>) {
        use super::super::colour::{Palette, entry_colours};
        use crate::table::Catalog;
        let catalog = Catalog::default_catalog();
        let (i, entry) = catalog
            .pieces
            .iter()
            .enumerate()
            .find(|(_, e)| e.treasure == Some(TreasureType::Chest))
            .unwrap();
        let colours = entry_colours(&mut Palette::default(), entry, None);
        let model = Model::new(i, entry, colours.primary, colours.secondary, false);
        let mut region = bare_table(60, 80.0, 300.0);
        let (w, origin_mm) = (region.width, region.origin_mm);
        let mut own = Vec::new();
        for p in 0..region.len() {
            let (x, y) = (origin_mm.x + (p % w) as f64, origin_mm.y + (p / w) as f64);
            if (-3.0..3.0).contains(&x) && (-6.0..6.0).contains(&y) {
                region.labels[p] = Label::Piece;
                region.colours[p] = PixelColours {
                    best: colours.primary.0,
                    compatible: colours.primary.0,
                };
                own.push(p);
            } else if shadow(x, y) {
                region.labels[p] = Label::Shadow;
            }
        }
        (region, model, own)
    }

    #[test]
    fn a_chest_seed_short_of_its_footprint_passes_only_with_shadows_beside_it() {
        let (region, model, own) = chest_strip(|x, y| x < 0.0 && x * x + y * y < 100.0);
        let share = own.len() as f64 / model.footprint_area_mm2;
        assert!(share < PRUNE_AREA_SHARE, "the strip alone is short: {share}");
        assert!(
            shaded_rest(&region, &model, &own),
            "its shaded half lies beside it"
        );
        let (region, model, own) = chest_strip(|_, _| false);
        assert!(!shaded_rest(&region, &model, &own), "no shadow at all");
        let (region, model, own) = chest_strip(|x, _| x > 25.0);
        assert!(
            !shaded_rest(&region, &model, &own),
            "shadow beyond the footprint's reach"
        );
        assert!(!shaded_rest(&region, &model, &[]), "no seed");
    }

    #[test]
    fn a_clearly_taller_piece_hides_only_a_treasure_of_another_colour_behind_it() {
        use super::super::colour::{Palette, entry_colours};
        use crate::table::Catalog;
        let catalog = Catalog::default_catalog();
        let mut palette = Palette::default();
        let mut model_of = |name: &str| {
            let (i, entry) = catalog
                .pieces
                .iter()
                .enumerate()
                .find(|(_, e)| e.name == name)
                .unwrap();
            let colours = entry_colours(&mut palette, entry, None);
            Model::new(i, entry, colours.primary, colours.secondary, false)
        };
        let (tentacle, captain, goblet, gem, gold, anchor) = (
            model_of("tentacle"),
            model_of("captain"),
            model_of("goblet"),
            model_of("gem"),
            model_of("gold"),
            model_of("anchor_orange"),
        );
        // Seen from a camera standing off towards -y: silhouettes lean towards +y.
        let view = Viewpoint {
            nadir_mm: PointMm::new(0.0, -800.0),
            height_mm: 1000.0,
        };
        let pose = Pose2 {
            center_mm: PointMm::new(0.0, 0.0),
            angle_rad: 0.0,
            base_mm: 0.0,
        };
        let over = Occluder::of(&tentacle, &pose, &view);
        assert!(over.hides(&gem) && over.hides(&gold));
        // An anchor is fitted with its ship, never on part of itself.
        assert!(!over.hides(&anchor));
        // A captain, 32 mm, hides a gem but not a goblet of 30 mm.
        let captain_over = Occluder::of(&captain, &pose, &view);
        assert!(captain_over.hides(&gem) && !captain_over.hides(&goblet));
        // A treasure of its own colour beside it could not be told from it.
        let gem_coloured = Occluder {
            primary: gem.primary,
            ..over
        };
        assert!(!gem_coloured.hides(&gem));
        // It hides on the side it leans to, not over its foot on the camera's side.
        assert!(over.leans_over(PointMm::new(3.0, 10.0)));
        assert!(!over.leans_over(PointMm::new(3.0, -10.0)));
        let (p_far, p_near) = (PointMm::new(3.0, 10.0), PointMm::new(3.0, -10.0));
        let any = u32::MAX;
        assert!(
            over.hiding(&gem).is_some_and(|h| h.at(p_far, any))
                && !over.hiding(&gem).is_some_and(|h| h.at(p_near, any))
        );
        // The island, 6 mm, hides a gem only under its palm, from any side.
        let island = model_of("island");
        let palm = Occluder::of(&island, &pose, &view);
        assert!(palm.hides(&gem) && !palm.hides(&anchor));
        assert!(
            palm.hiding(&gem)
                .is_some_and(|h| h.at(p_near, island.secondary.0))
        );
        assert!(!palm.hiding(&gem).is_some_and(|h| h.at(p_far, island.primary.0)));
        // A tentacle has no canopy to hide under.
        assert!(
            !over
                .hiding(&gem)
                .is_some_and(|h| h.at(p_near, island.secondary.0))
        );
    }

    #[test]
    fn a_lit_load_of_the_ships_hue_that_the_ship_holds_is_looked_for_again_on_its_deck() {
        let at = |x: f64| Pose2 {
            center_mm: PointMm::new(x, 0.0),
            angle_rad: 0.0,
            base_mm: 0.0,
        };
        let (mut region, ship_model, gold_model) = ship_with_a_load(at(0.0), at(10.0));
        // The bar's lit top reads as orange as much as gold, and is as light as the deck.
        let both = ship_model.primary.0 | gold_model.primary.0;
        for c in region
            .colours
            .iter_mut()
            .filter(|c| c.best == gold_model.primary.0)
        {
            *c = PixelColours {
                best: both,
                compatible: both,
            };
        }
        let found = |kin: ColourSet| {
            let ship = Model {
                deck_kin: kin,
                ..ship_model.clone()
            };
            let models = [ship, gold_model.clone()];
            Detector::default()
                .detect(&region, &models, &Viewpoint::orthographic())
                .detections
                .iter()
                .map(|d| (d.model, d.fit.pose.center_mm))
                .collect::<Vec<_>>()
        };
        // A ship whose colour no treasure shares holds the bar whole.
        let held = found(ColourSet(0));
        assert!(held.iter().all(|&(m, _)| m == 0), "{held:?}");
        // The orange ship's deck pixels that show gold best are looked at again.
        let freed = found(gold_model.primary);
        let gold: Vec<PointMm> = freed.iter().filter(|&&(m, _)| m == 1).map(|&(_, c)| c).collect();
        assert_eq!(gold.len(), 1, "{freed:?}");
        let off = gold[0].distance(at(10.0).center_mm);
        assert!(off < 1.5, "{off} mm off");
        assert_eq!(freed.iter().filter(|&&(m, _)| m == 0).count(), 1, "{freed:?}");
    }

    #[test]
    fn a_load_whose_freed_pixels_lie_apart_is_looked_for_whole() {
        let at = |x: f64| Pose2 {
            center_mm: PointMm::new(x, 0.0),
            angle_rad: 0.0,
            base_mm: 0.0,
        };
        let (mut region, ship_model, gold_model) = ship_with_a_load(at(0.0), at(10.0));
        let (orange, gold) = (ship_model.primary.0, gold_model.primary.0);
        // Only the bar's two ends read as gold as much as orange; its middle reads as orange
        // best (gold is a close second there). Each end is far less of a bar than a seed needs
        // ([`PRUNE_AREA_SHARE`]); the two together are not.
        let mut ends = [0usize; 2];
        for p in 0..region.len() {
            if region.colours[p].best == gold {
                let x = region
                    .px_to_mm((p % region.width) as f64, (p / region.width) as f64)
                    .x;
                let end = (x - 10.0).abs() > 8.0;
                if end {
                    ends[usize::from(x > 10.0)] += 1;
                }
                region.colours[p] = PixelColours {
                    best: if end { orange | gold } else { orange },
                    compatible: orange | gold,
                };
            }
        }
        let needed = PRUNE_AREA_SHARE * gold_model.footprint_area_mm2;
        assert!(
            ends.iter().all(|&n| (n as f64) < needed),
            "{ends:?} against {needed}"
        );
        assert!((ends[0] + ends[1]) as f64 >= needed, "{ends:?} against {needed}");
        let ship = Model {
            deck_kin: gold_model.primary,
            ..ship_model.clone()
        };
        let models = [ship, gold_model.clone()];
        let found = Detector::default().detect(&region, &models, &Viewpoint::orthographic());
        let bars: Vec<&Detection> = found.detections.iter().filter(|d| d.model == 1).collect();
        assert_eq!(bars.len(), 1, "{:?}", found.detections);
        let off = bars[0].fit.pose.center_mm.distance(at(10.0).center_mm);
        assert!(off < 1.5, "{off} mm off");
    }

    #[test]
    fn a_ship_turned_across_its_deck_is_fitted_again_where_it_lies_once_its_load_is_found() {
        let at = |x: f64, y: f64, deg: f64| Pose2 {
            center_mm: PointMm::new(x, y),
            angle_rad: deg.to_radians(),
            base_mm: 0.0,
        };
        let (ship, gold) = (at(0.0, 0.0, 30.0), at(3.0, 2.0, 30.0));
        let (region, ship_model, gold_model) = ship_with_a_load(ship, gold);
        let models = [ship_model, gold_model];
        let view = Viewpoint::orthographic();
        let detection = |model: usize, pose: Pose2| Detection {
            model,
            fit: score_at(
                &models[model].solid,
                &weight_map(
                    &region,
                    &models[model],
                    &vec![0; region.len()],
                    None,
                    Window {
                        x0: 0,
                        y0: 0,
                        x1: region.width,
                        y1: region.height,
                    },
                    false,
                    &[],
                ),
                &view,
                pose,
                &mut ScoreScratch::default(),
            )
            .unwrap(),
            top: None,
            runner_up: None,
            on_shadows: false,
        };
        let load = detection(1, gold);
        // Settled 10 mm off and turned 144 degrees, as seed 125 of `bench --seed 101` found it.
        let wrong = detection(0, at(8.0, 6.0, 174.0));
        let fit = repose(&region, &models, &view, &wrong, &[&load]).expect("a better pose");
        let off = fit.pose.center_mm.distance(ship.center_mm);
        let turn = (fit.pose.angle_rad - ship.angle_rad).rem_euclid(std::f64::consts::TAU);
        assert!(off < 1.0, "{off} mm off");
        assert!(turn.min(std::f64::consts::TAU - turn) < 0.05, "turned {turn} rad");
        // Where it lies it stays.
        let right = detection(0, ship);
        assert!(repose(&region, &models, &view, &right, &[&load]).is_none());
    }

    #[test]
    fn a_treasure_where_a_piece_of_another_kind_over_its_count_was_dropped_needs_a_tenth_of_its_outline() {
        let at = |x: f64| Pose2 {
            center_mm: PointMm::new(x, 0.0),
            angle_rad: 0.0,
            base_mm: 0.0,
        };
        let (region, ship, gold) = ship_with_a_load(at(0.0), at(30.0));
        let models = [ship, gold];
        let (ship_i, gold_i) = (0, 1);
        let dropped = |model: usize, x: f64, quality: f64| Detection {
            model,
            fit: Fit {
                pose: at(x),
                ..fit(quality * 100.0, 100.0)
            },
            top: None,
            runner_up: None,
            on_shadows: false,
        };
        let explained = vec![0u16; region.len()];
        let gold_here = Fit {
            pose: at(3.0),
            ..fit(12.0, 100.0)
        };
        let needed = |detector: &Detector, model: usize, f: &Fit| {
            detector.quality_needed(&models[model], &region, &explained, f, 0.0)
        };
        let mut detector = Detector::default();
        assert_eq!(needed(&detector, gold_i, &gold_here), MIN_QUALITY);
        // A second orange ship dropped where the gold bar lies: a tenth will do.
        detector.set_dropped(&models, [&dropped(ship_i, 0.0, 0.6)]);
        assert_eq!(needed(&detector, gold_i, &gold_here), LOOK_ALIKE_MIN_QUALITY);
        // Not for the ship itself, which is no treasure.
        let ship_here = Fit {
            pose: at(3.0),
            ..fit(12.0, 100.0)
        };
        assert_eq!(needed(&detector, ship_i, &ship_here), models[ship_i].min_quality);
        // Not where a fifth gold bar was dropped: that is the gold bar's own count.
        detector.set_dropped(&models, [&dropped(gold_i, 3.0, 0.6)]);
        assert_eq!(needed(&detector, gold_i, &gold_here), MIN_QUALITY);
        // Not when what was dropped fitted poorly, nor where their footprints could not overlap.
        detector.set_dropped(&models, [&dropped(ship_i, 0.0, 0.2)]);
        assert_eq!(needed(&detector, gold_i, &gold_here), MIN_QUALITY);
        let reach = models[ship_i].footprint_radius_mm() + models[gold_i].footprint_radius_mm();
        detector.set_dropped(&models, [&dropped(ship_i, 3.0 + reach + 1.0, 0.6)]);
        assert_eq!(needed(&detector, gold_i, &gold_here), MIN_QUALITY);
        // A first look at a region forgets what a second look at another was told.
        detector.set_dropped(&models, [&dropped(ship_i, 0.0, 0.6)]);
        detector.detect_excluding(&region, &models, &Viewpoint::orthographic(), &[false, false]);
        assert_eq!(needed(&detector, gold_i, &gold_here), MIN_QUALITY);
    }

    #[test]
    fn pixels_inside_a_found_piece_that_read_best_as_the_fitted_piece_are_not_its_hosts_leftovers() {
        let at = |x: f64| Pose2 {
            center_mm: PointMm::new(x, 0.0),
            angle_rad: 0.0,
            base_mm: 0.0,
        };
        let (region, ship, gold) = ship_with_a_load(at(0.0), at(3.0));
        let view = Viewpoint::orthographic();
        let gold_fit = fit_at(&region, &gold, &view, at(3.0), &[]).unwrap();
        let explained = vec![0u16; region.len()];
        // Every pixel lies inside the ship, found already.
        let detector = Detector {
            covered: vec![ship.colours.0; region.len()],
            ..Detector::default()
        };
        let floor_with = |detector: &Detector, best: u32| {
            let mut region = region.clone();
            for c in region.colours.iter_mut().filter(|c| c.best != 0) {
                *c = PixelColours {
                    best,
                    compatible: ship.colours.0 | gold.colours.0,
                };
            }
            detector.floor_for_fit(&gold, &region, &explained, &gold_fit, MIN_QUALITY_INSIDE)
        };
        // Pixels that pass for the ship and read best as it may be its leftovers.
        assert_eq!(floor_with(&detector, ship.colours.0), MIN_QUALITY_INSIDE);
        // Pixels that pass for the ship too but read best as the gold bar are the bar's own.
        assert_eq!(floor_with(&detector, gold.colours.0), 0.0);
        assert_eq!(floor_with(&detector, gold.colours.0 | ship.colours.0), 0.0);
    }

    #[test]
    fn a_shadow_like_piece_shown_as_shadow_but_for_its_rim_is_found_on_its_shadows() {
        let (region, model) = canon_read_as_shadow();
        let view = Viewpoint::orthographic();
        let mut detector = Detector::default();
        // On a table its colour does not resemble, its rim alone is too little of it.
        let plain = detector.detect(&region, std::slice::from_ref(&model), &view);
        assert!(plain.detections.is_empty(), "{:?}", plain.detections);
        let dark = model.with_shadow_like(true);
        let found = detector.detect(&region, std::slice::from_ref(&dark), &view);
        assert_eq!(found.detections.len(), 1, "{:?}", found.detections);
        let d = &found.detections[0];
        assert!(d.on_shadows);
        let off = d.fit.pose.center_mm.distance(PointMm::default());
        assert!(off < 1.0, "{off} mm off");
        assert_eq!(found.unexplained_px, 0);
    }

    #[test]
    fn a_shadow_like_die_whose_top_reads_as_shadow_shows_its_dark_face() {
        use super::super::colour::{Palette, entry_colours};
        use crate::table::Catalog;
        use opencv::core::Rect;
        let catalog = Catalog::default_catalog();
        let (i, entry) = catalog
            .pieces
            .iter()
            .enumerate()
            .find(|(_, e)| e.piece == PieceKind::InkDie)
            .unwrap();
        let colours = entry_colours(&mut Palette::default(), entry, None);
        let model = Model::new(i, entry, colours.primary, colours.secondary, false);
        let (w, h) = (60usize, 60usize);
        let origin_mm = PointMm::new(-30.0, -30.0);
        // The whole die reads as shadow in its dark colour (a black die on a grey table).
        let inside = |p: usize| {
            let (x, y) = (origin_mm.x + (p % w) as f64, origin_mm.y + (p / w) as f64);
            x.abs() < 9.0 && y.abs() < 9.0
        };
        let dark = PixelColours {
            best: colours.primary.0,
            compatible: colours.primary.0,
        };
        let region = |label: Label, c: PixelColours| Region {
            rect: Rect::new(0, 0, w as i32, h as i32),
            width: w,
            height: h,
            origin_mm,
            mm_per_px: 1.0,
            labels: (0..w * h)
                .map(|p| if inside(p) { label } else { Label::Table })
                .collect(),
            colours: (0..w * h)
                .map(|p| if inside(p) { c } else { PixelColours::default() })
                .collect(),
            bgr: vec![[60.0; 3]; w * h],
            ref_sum: vec![390.0; w * h],
            white: None,
        };
        let view = Viewpoint::orthographic();
        let at = fit(300.0, 324.0);
        let shaded = region(Label::Shadow, dark);
        assert_eq!(
            die_top(&shaded, &model.clone().with_shadow_like(true), &at, &view),
            Some(DieTop::Black)
        );
        // Where the die does not look like a shadow, a shadow on its top tells nothing.
        assert_eq!(die_top(&shaded, &model, &at, &view), None);
        // A top that shows its colours is read from them, as before.
        let red = PixelColours {
            best: colours.secondary.0,
            compatible: colours.secondary.0,
        };
        assert_eq!(
            die_top(
                &region(Label::Piece, red),
                &model.with_shadow_like(true),
                &at,
                &view
            ),
            Some(DieTop::Red)
        );
    }

    #[test]
    fn more_pixels_win_unless_as_many_fit_clearly_better() {
        // Bench scene 5: the pirate ship whole against the octopus head laid over it.
        let ship = fit(2880.0, 2880.0);
        let head = fit(2994.0, 5075.0);
        let wins = |a: &Fit, b: &Fit| beats(a, a.gain, b, b.gain) && !beats(b, b.gain, a, a.gain);
        assert!(wins(&ship, &head));
        // Far fewer pixels lose, however well they fit.
        let small = fit(1000.0, 1000.0);
        let big = fit(2000.0, 4000.0);
        assert!(wins(&big, &small));
        // Nearly as many, fitting about as well: the pixels decide.
        let (a, b) = (fit(2000.0, 2500.0), fit(1900.0, 2200.0));
        assert!(wins(&a, &b));
    }

    #[test]
    fn a_treasure_spread_over_a_deck_loses_once_the_deck_it_covers_counts_against_it() {
        // A goblet laid over a gold bar on a deck takes in the bar's blurred rim; the deck's
        // own pixels it covers count neither way, and it explains more.
        let goblet = fit(350.0, 620.0);
        let gold = fit(290.0, 380.0);
        assert!(beats(&goblet, goblet.gain, &gold, gold.gain));
        // 130 of the deck's pixels under it count as another piece's.
        let weighed = goblet.gain + f64::from(W_OTHER) * 130.0;
        assert!(beats(&gold, gold.gain, &goblet, weighed));
        assert!(!beats(&goblet, weighed, &gold, gold.gain));
    }

    #[test]
    fn a_treasure_seen_over_a_ships_deck_stands_on_it_and_not_on_the_islands() {
        let ship = Pose2 {
            center_mm: PointMm::new(0.0, 0.0),
            angle_rad: 0.0,
            base_mm: 0.0,
        };
        let (_, ship_model, gold_model) = ship_with_a_load(ship, ship);
        let view = Viewpoint::orthographic();
        let deck = |mark: u16, ship_deck: bool| Deck {
            footprint: ship_model.footprint(&ship),
            height_mm: ship_model.solid.height_mm,
            mark,
            ship: ship_deck,
        };
        let mut detector = Detector {
            decks: vec![deck(1, false), deck(2, true)],
            ..Detector::default()
        };
        let at = |x: f64| Fit {
            pose: Pose2 {
                center_mm: PointMm::new(x, 0.0),
                ..ship
            },
            ..fit(0.0, 1.0)
        };
        let mark = |d: &Detector, model: &Model, x: f64| d.deck_under(model, &view, &at(x)).map(|d| d.mark);
        // The island (whose palm may hide a treasure) is passed over: the ship's deck is found.
        assert_eq!(mark(&detector, &gold_model, 5.0), Some(2));
        assert_eq!(mark(&detector, &gold_model, 200.0), None);
        // Only treasures stand on decks.
        assert_eq!(mark(&detector, &ship_model, 5.0), None);
        // Looking for loads on a deck already ([`Detector::deck_loads`]): no deck under them.
        detector.base_mm = ship_model.solid.height_mm;
        assert_eq!(mark(&detector, &gold_model, 5.0), None);
    }

    #[test]
    fn a_treasure_fitted_on_the_table_inside_a_hull_stands_on_its_deck() {
        let ship = Pose2 {
            center_mm: PointMm::new(0.0, 0.0),
            angle_rad: 0.0,
            base_mm: 0.0,
        };
        let (_, ship_model, gold_model) = ship_with_a_load(ship, ship);
        let footprint = ship_model.footprint(&ship);
        let near_side = footprint.0.iter().map(|q| q.y).fold(f64::INFINITY, f64::min);
        let far_side = footprint.0.iter().map(|q| q.y).fold(f64::NEG_INFINITY, f64::max);
        let detector = Detector {
            decks: vec![Deck {
                footprint,
                height_mm: ship_model.solid.height_mm,
                mark: 1,
                ship: true,
            }],
            ..Detector::default()
        };
        // The camera 1 m up, 1 m off towards -y: a deck's height moves the point below a
        // treasure's middle ~2 % of a metre towards it, clear across the hull's near edge.
        let view = Viewpoint {
            nadir_mm: PointMm::new(0.0, -1000.0),
            height_mm: 1000.0,
        };
        let on_table_at = |y: f64| Fit {
            pose: Pose2 {
                center_mm: PointMm::new(5.0, y),
                ..ship
            },
            ..fit(0.0, 1.0)
        };
        let on_deck = |y: f64| detector.deck_under(&gold_model, &view, &on_table_at(y)).is_some();
        // Seen standing on the deck, its middle falls off the hull's near side; but its base
        // is inside the hull, where no treasure stands on the table.
        let just_inside = near_side + 2.0;
        let mid = gold_model.solid.height_mm / 2.0;
        let raised = view.below(
            view.apparent(on_table_at(just_inside).pose.center_mm, mid),
            ship_model.solid.height_mm + mid,
        );
        assert!(raised.y < near_side, "{raised:?} is still over the deck");
        assert!(on_deck(just_inside));
        // Beside the hull on the near side it stands on the table.
        assert!(!on_deck(near_side - 2.0));
        // Fitted on the table beyond the far side, it is a load seen leaning away: on the deck.
        assert!(on_deck(far_side + 5.0));
        // A fit already standing on something (at the deck's height) is judged by its middle.
        let raised_fit = Fit {
            pose: Pose2 {
                base_mm: ship_model.solid.height_mm,
                ..on_table_at(near_side - 2.0).pose
            },
            ..fit(0.0, 1.0)
        };
        assert!(detector.deck_under(&gold_model, &view, &raised_fit).is_none());
    }

    #[test]
    fn a_treasure_counts_the_deck_pixels_it_covers_that_show_none_of_its_colours() {
        let ship = Pose2 {
            center_mm: PointMm::new(0.0, 0.0),
            angle_rad: 0.0,
            base_mm: 0.0,
        };
        let gold = Pose2 {
            center_mm: PointMm::new(-10.0, 0.0),
            ..ship
        };
        let (mut region, ship_model, gold_model) = ship_with_a_load(ship, gold);
        let view = Viewpoint::orthographic();
        let mut explained = vec![0u16; region.labels.len()];
        let sil = Silhouette::of(&ship_model.solid, &ship, &view);
        let marked = mark_explained(&region, &ship_model, &sil, &mut explained, 1, false);
        assert!(marked > 0);
        let at = |pose: Pose2| Fit {
            silhouette: Silhouette::of(&gold_model.solid, &pose, &view),
            pose,
            ..fit(0.0, 1.0)
        };
        // Where the bar lies, it covers its own pixels only.
        assert_eq!(deck_covered(&region, &explained, &gold_model, &at(gold), 1), 0);
        // Slid along the deck, it covers the deck's.
        let slid = Pose2 {
            center_mm: PointMm::new(10.0, 0.0),
            ..gold
        };
        let covered = deck_covered(&region, &explained, &gold_model, &at(slid), 1);
        let area = {
            let mut n = 0;
            for_each_inside(&region, &at(slid).silhouette.polygons, |_| n += 1);
            n
        };
        assert!(covered > area / 2, "{covered} of {area}");
        // Only the deck marked so counts.
        assert_eq!(deck_covered(&region, &explained, &gold_model, &at(slid), 2), 0);
        // Deck pixels that pass for the treasure too do not count.
        for (p, e) in explained.iter().enumerate() {
            if *e == 1 {
                region.colours[p].compatible |= gold_model.primary.0;
            }
        }
        assert_eq!(deck_covered(&region, &explained, &gold_model, &at(slid), 1), 0);
    }

    /// The deepest pixel's Euclidean depth by brute force.
    fn deepest_by_brute_force(width: usize, height: usize, pixels: &[usize]) -> f64 {
        pixels
            .iter()
            .map(|&p| euclidean_depth(width, height, pixels, p))
            .fold(0.0, f64::max)
    }

    /// Euclidean distance from `at` to the nearest pixel outside the set (the image's border
    /// counts as outside).
    fn euclidean_depth(width: usize, height: usize, pixels: &[usize], at: usize) -> f64 {
        let member: std::collections::HashSet<usize> = pixels.iter().copied().collect();
        let (x, y) = ((at % width) as f64, (at / width) as f64);
        let mut best = f64::INFINITY;
        for j in -1..=height as i64 {
            for i in -1..=width as i64 {
                let inside = i >= 0 && j >= 0 && (i as usize) < width && (j as usize) < height;
                if !inside || !member.contains(&(j as usize * width + i as usize)) {
                    best = best.min(((i as f64 - x).powi(2) + (j as f64 - y).powi(2)).sqrt());
                }
            }
        }
        best
    }

    /// Pixels of a `width` x `height` image inside any of the discs `(x, y, r)`.
    fn discs(width: usize, height: usize, discs: &[(f64, f64, f64)]) -> Vec<usize> {
        (0..width * height)
            .filter(|&p| {
                let (x, y) = ((p % width) as f64, (p / width) as f64);
                discs
                    .iter()
                    .any(|&(cx, cy, r)| (x - cx).powi(2) + (y - cy).powi(2) <= r * r)
            })
            .collect()
    }

    #[test]
    fn the_deepest_pixel_of_a_head_among_tentacles_is_the_heads_centre() {
        // A disc of radius 12 at (20, 20) with two bands touching it, as wide as 8 pixels and
        // far longer: the centre of all the pixels lies off the disc's, the deepest does not.
        let (w, h) = (80, 40);
        let mut pixels = discs(w, h, &[(20.0, 20.0, 12.0)]);
        pixels.extend((0..w * h).filter(|&p| {
            let (x, y) = (p % w, p / w);
            (30..78).contains(&x) && ((4..12).contains(&y) || (28..36).contains(&y))
        }));
        pixels.sort_unstable();
        pixels.dedup();
        let deep = deepest_pixel(w, &pixels).unwrap();
        let (x, y) = ((deep % w) as f64, (deep / w) as f64);
        assert!((x - 20.0).hypot(y - 20.0) <= 1.5, "deepest at ({x}, {y})");
        let mean_x = pixels.iter().map(|&p| (p % w) as f64).sum::<f64>() / pixels.len() as f64;
        assert!(
            mean_x > 32.0,
            "the pixels' centre lies on the disc after all: x {mean_x}"
        );
    }

    /// [`split`] as first written: marks and neighbours by region index, a division apiece.
    fn split_plainly(width: usize, pixels: &[usize], explained: &[u16]) -> Vec<Vec<usize>> {
        let height = pixels.iter().map(|&p| p / width + 1).max().unwrap_or(0);
        let mut member = vec![false; width * height];
        for &p in pixels {
            member[p] = explained[p] == 0;
        }
        let mut out = Vec::new();
        for &start in pixels {
            if !member[start] {
                continue;
            }
            let (mut comp, mut stack) = (Vec::new(), vec![start]);
            member[start] = false;
            while let Some(p) = stack.pop() {
                comp.push(p);
                let (i, j) = ((p % width) as i64, (p / width) as i64);
                for dj in -1..=1 {
                    for di in -1..=1 {
                        let (ni, nj) = (i + di, j + dj);
                        if ni < 0 || nj < 0 || ni >= width as i64 || nj >= height as i64 {
                            continue;
                        }
                        let q = nj as usize * width + ni as usize;
                        if member[q] {
                            member[q] = false;
                            stack.push(q);
                        }
                    }
                }
            }
            if comp.len() >= MIN_SEED_OWN_PX {
                out.push(comp);
            }
        }
        out
    }

    proptest::proptest! {
        /// Random pixel sets (discs and loose pixels, some explained, in any order) split into
        /// the same patches, pixel for pixel and in the same order, as the plain routine splits
        /// them.
        #[test]
        fn a_seed_splits_as_the_plain_routine_splits_it(
            blobs in proptest::collection::vec((0.0f64..40.0, 0.0f64..40.0, 1.0f64..8.0), 0..5),
            loose in proptest::collection::vec(0usize..1600, 0..80),
            explained_every in 2usize..40,
            turn in 0usize..1600,
        ) {
            let region = bare_table(40, 200.0, 600.0);
            let mut pixels = discs(region.width, region.height, &blobs);
            pixels.extend(loose);
            pixels.sort_unstable();
            pixels.dedup();
            // Seeds come in any order (what a fit leaves of one): the patches follow it.
            let n = pixels.len().max(1);
            pixels.rotate_left(turn % n);
            let explained: Vec<u16> = (0..region.len()).map(|p| u16::from(p % explained_every == 0)).collect();
            proptest::prop_assert_eq!(
                split(&region, &pixels, &explained),
                split_plainly(region.width, &pixels, &explained)
            );
        }
    }

    #[test]
    fn no_pixels_have_no_deepest() {
        assert_eq!(deepest_pixel(10, &[]), None);
        assert_eq!(deepest_pixel(0, &[3]), None);
        assert_eq!(deepest_pixel(10, &[13]), Some(13));
    }

    proptest::proptest! {
        /// The chamfer distance's deepest pixel is as deep, by the Euclidean distance, as the
        /// deepest pixel found by brute force, to within the chamfer's 8 % and a pixel.
        #[test]
        fn the_deepest_pixel_is_as_deep_as_the_brute_forces(
            blobs in proptest::collection::vec((2.0f64..38.0, 2.0f64..28.0, 1.0f64..10.0), 1..5)
        ) {
            let (w, h) = (40, 30);
            let pixels = discs(w, h, &blobs);
            proptest::prop_assume!(!pixels.is_empty());
            let deep = deepest_pixel(w, &pixels).unwrap();
            proptest::prop_assert!(pixels.contains(&deep));
            let best = deepest_by_brute_force(w, h, &pixels);
            let got = euclidean_depth(w, h, &pixels, deep);
            proptest::prop_assert!(got >= best * 0.92 - 1.0, "depth {} against {}", got, best);
        }
    }

    fn square(x0: f64, y0: f64, side: f64) -> PolygonMm {
        PolygonMm::new(vec![
            PointMm::new(x0, y0),
            PointMm::new(x0 + side, y0),
            PointMm::new(x0 + side, y0 + side),
            PointMm::new(x0, y0 + side),
        ])
    }

    /// [`for_each_inside`] as first written: polygon by polygon, a mark per region pixel.
    fn plain_inside(region: &Region, polygons: &[Vec<PointMm>]) -> Vec<usize> {
        let mut inside = vec![false; region.len()];
        let mut out = Vec::new();
        for poly in polygons {
            let px: Vec<(f64, f64)> = poly.iter().map(|&q| region.mm_to_px(q)).collect();
            for j in 0..region.height {
                let y = j as f64;
                let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
                for e in 0..px.len() {
                    let (a, b) = (px[e], px[(e + 1) % px.len()]);
                    if (a.1 <= y) != (b.1 <= y) {
                        let x = a.0 + (y - a.1) * (b.0 - a.0) / (b.1 - a.1);
                        lo = lo.min(x);
                        hi = hi.max(x);
                    }
                }
                for i in 0..region.width {
                    let x = i as f64;
                    let p = j * region.width + i;
                    if lo <= hi && x >= lo.ceil() && x <= hi.floor() && !inside[p] {
                        inside[p] = true;
                        out.push(p);
                    }
                }
            }
        }
        out
    }

    #[test]
    fn every_pixel_inside_overlapping_polygons_is_visited_once_row_by_row() {
        let (region, _) = canon_read_as_shadow();
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = |scale: f64| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x >> 11) as f64 / (1u64 << 53) as f64 * scale
        };
        let (w, h) = (region.width as f64, region.height as f64);
        for _ in 0..300 {
            let polygons: Vec<Vec<PointMm>> = (0..1 + (next(4.0) as usize))
                .map(|_| {
                    let (cx, cy, r) = (
                        next(w * 1.2) - w * 0.1,
                        next(h * 1.2) - h * 0.1,
                        1.0 + next(w / 3.0),
                    );
                    let pts: Vec<PointMm> = (0..3 + next(6.0) as usize)
                        .map(|_| {
                            let a = next(std::f64::consts::TAU);
                            region.px_to_mm(cx + r * a.cos(), cy + r * a.sin())
                        })
                        .collect();
                    crate::vision::solid::convex_hull(&pts)
                })
                .collect();
            let mut seen = Vec::new();
            for_each_inside(&region, &polygons, |p| seen.push(p));
            let mut plain = plain_inside(&region, &polygons);
            assert!(seen.windows(2).all(|p| p[0] < p[1]), "not row by row, or twice");
            plain.sort_unstable();
            assert_eq!(seen, plain);
        }
    }

    #[test]
    fn share_on_a_deck_is_the_covered_share_of_the_footprint() {
        let piece = square(0.0, 0.0, 20.0);
        assert_eq!(share_on(&piece, &[]), 0.0);
        assert_eq!(share_on(&piece, &[square(-5.0, -5.0, 40.0)]), 1.0);
        assert_eq!(share_on(&piece, &[square(30.0, 0.0, 20.0)]), 0.0);
        let half = share_on(&piece, &[square(10.0, -10.0, 40.0)]);
        assert!((half - 0.5).abs() < 0.03, "{half}");
        // Two decks each holding a quarter: half in all.
        let two = share_on(&piece, &[square(-10.0, -10.0, 20.0), square(10.0, 10.0, 20.0)]);
        assert!((two - 0.5).abs() < 0.03, "{two}");
    }
}
