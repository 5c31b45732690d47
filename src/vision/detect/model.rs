//! A catalog entry as detection sees it: its solid, its colours and how they look on this table,
//! how its footprint may turn, and the weights its fits give table and shadow pixels.

use crate::games::crash_octopus::{PlayerColor, TreasureType};
use crate::table::{CatalogEntry, PieceKind, PointMm, PolygonMm, Shape};
use crate::vision::colour::ColourSet;
use crate::vision::scale::area_px;
use crate::vision::solid::Solid;
use crate::vision::view::{Pose2, Viewpoint};

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
/// ...and it explains at least this much (mm²: see [`min_gain_px`]).
pub const MIN_GAIN_MM2: f64 = 25.0;

/// [`MIN_GAIN_MM2`] in the pixels of a view `mm_per_px` millimetres a pixel (a fit's gain counts
/// pixels).
pub fn min_gain_px(mm_per_px: f64) -> f64 {
    area_px(MIN_GAIN_MM2, mm_per_px)
}
/// A footprint whose principal second moments differ by less than this ratio is turned through
/// evenly spaced start angles rather than from the pixels' orientation.
const ISOTROPY_RATIO: f64 = 1.35;
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
    /// Its colour as dim as the table passes for it (a chest on dark warm wood): its lit top
    /// may read as the table inside the shadow of its sides ([`crate::vision::rims`]).
    pub shaded_like_table: bool,
    /// Its main colour is the table's hue, lighter (see [`Model::with_table_hue`]): a fit must
    /// show that colour over [`TABLE_HUE_MIN_MAIN_SHARE`](super::best_fit::TABLE_HUE_MIN_MAIN_SHARE) of its silhouette.
    pub table_hue: bool,
    /// How much bare table under the silhouette counts against a fit.
    pub table_weight: f32,
    /// Weight of a shadow pixel under its silhouette.
    pub shadow_weight: f32,
    /// Its main colour is dark and neutral and the table is neutral: the piece looks like a
    /// shadow of the table (a black die on a grey table), and where a seed fits no piece, the
    /// shadow pixels of its colour may be counted for it (see [`Detection::on_shadows`](super::Detection::on_shadows)).
    pub shadow_like: bool,
    /// The piece is dark and neutral (the ink die, the Octo-Canon), on any table: along its
    /// outline the camera blends it with the table into colours of other pieces (the canon's
    /// rim on warm wood reads as a chest's brown), which then count neither way for it.
    pub dark: bool,
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
    /// one best are looked at again ([`Detector::deck_loads`](super::Detector::deck_loads)).
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
            shaded_like_table: false,
            table_hue: false,
            table_weight: if table_like { W_TABLE_LIKE } else { W_TABLE },
            shadow_weight: W_SHADOW,
            shadow_like: false,
            dark: false,
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

    /// Marks the piece as dark (see [`Model::dark`]).
    pub fn with_dark(mut self, on: bool) -> Self {
        self.dark = on;
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

    /// Marks the piece's colour as passing for the table when as dim as it (see
    /// [`Model::shaded_like_table`]).
    pub fn with_shaded_like_table(mut self, on: bool) -> Self {
        self.shaded_like_table = on;
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
pub(super) struct Moments {
    pub(super) xx: f64,
    pub(super) xy: f64,
    pub(super) yy: f64,
}

impl Moments {
    fn ratio(&self) -> f64 {
        let tr = self.xx + self.yy;
        let det = self.xx * self.yy - self.xy * self.xy;
        let disc = (tr * tr / 4.0 - det).max(0.0).sqrt();
        let (l1, l2) = (tr / 2.0 + disc, (tr / 2.0 - disc).max(1e-9));
        l1 / l2
    }

    pub(super) fn orientation(&self) -> f64 {
        0.5 * (2.0 * self.xy).atan2(self.xx - self.yy)
    }
}

pub(super) fn moments(points: &[PointMm]) -> Moments {
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

/// A round piece no treasure rides on (the octopus's head, the little octopus, the Octo-Canon):
/// its footprint is sure, and no other piece stands in it.
pub(super) fn is_solid(m: &Model) -> bool {
    m.round && m.kind != PieceKind::Treasure && !m.carries_treasures()
}
