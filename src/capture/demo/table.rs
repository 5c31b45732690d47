//! Where a piece may come to rest when the script changes the table, and the searches that find
//! such a spot: next to another piece at a given gap, just outside the string, on a ship's deck.
//!
//! Conventions: table frame, millimetres; angles in radians (`PlacedPiece::angle_rad`); a piece
//! "on the table" has `loaded_on == None` and `on_island == false`. Two pieces on the same
//! surface (the table, one ship's deck) keep at least [`MIN_GAP_MM`] between their footprints;
//! pieces on the table keep [`STRING_CLEARANCE_MM`] from the string's centre line (unless a
//! treasure is put across it on purpose, which the demo never does) and [`COUNTER_CLEARANCE_MM`]
//! from the stretch of string the Octo-Counter's beads and crab walk along; every piece stays
//! inside the image. The same rules as the renderer's own layouts, so rendered frames never show
//! pieces inside each other.

use crate::synth::{Layout, PlacedPiece, Scene};
use crate::table::polygon::{point_segment_distance, segment_segment_distance};
use crate::table::{PieceKind, PointMm, PointMm3, PolygonMm, Shape};
use rand::RngExt;
use rand_chacha::ChaCha8Rng;

/// Smallest gap between two pieces on the same surface, mm (touching, not inside each other).
pub const MIN_GAP_MM: f64 = 0.8;
/// Smallest distance from a footprint on the table to the string's centre line, mm (half the
/// cord plus a little).
pub const STRING_CLEARANCE_MM: f64 = 3.5;
/// Smallest distance from a footprint to the Octo-Counter's stretch of string, mm (half the crab
/// plus a little), so the crab can walk to the end.
pub const COUNTER_CLEARANCE_MM: f64 = 17.0;
/// Pieces stay this far inside the image, pixels.
pub const VISIBLE_MARGIN_PX: f64 = 4.0;
/// A loaded treasure may overhang its deck's edge by this much, mm.
pub const DECK_OVERHANG_MM: f64 = 2.0;
/// Gap of a piece put "adjacent" to another (a ship beside its anchor), mm.
pub const ADJACENT_GAP_MM: f64 = 1.5;
/// Angle between two bearings tried when the first choice is taken, degrees.
const BEARING_STEP_DEG: f64 = 7.5;
/// Bisection steps when putting a piece at an exact gap.
const GAP_BISECTION_STEPS: usize = 44;
/// A spot found by bisection is used when its gap is within this of the asked gap, mm.
const GAP_TOLERANCE_MM: f64 = 0.05;
/// Step along the string between two spots tried just outside it, mm.
const OUTSIDE_STEP_MM: f64 = 12.0;
/// How far along the string the search for a free spot outside it goes, each way, mm.
const OUTSIDE_SEARCH_MM: f64 = 720.0;
/// A piece put outside lies this much farther out than the clearance, mm.
const OUTSIDE_BEYOND_MM: f64 = 5.0;
/// Step between two deck positions tried along a ship, mm.
const DECK_STEP_MM: f64 = 2.0;
/// Deck positions are tried up to this fraction of the hull's length from its centre.
const DECK_REACH: f64 = 0.42;
/// Sampling step of the counter's stretch, mm, and how far it reaches past the end beads.
const COUNTER_STEP_MM: f64 = 5.0;
const COUNTER_MARGIN_MM: f64 = 8.0;
/// Random spots tried when scattering a treasure over the ocean.
const SCATTER_TRIES: usize = 600;

/// Where a piece on the table may lie.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Spot {
    /// Inside the ocean, clear of the string.
    Ocean,
    /// Outside the string, clear of it.
    Outside,
}

/// The fixed things of the demo's scene that every placement respects.
#[derive(Debug)]
pub(super) struct Table<'a> {
    pub scene: &'a Scene,
    /// The stretch of string the counter's beads and crab occupy, as an open polyline.
    counter_line: Vec<PointMm>,
}

impl<'a> Table<'a> {
    pub(super) fn new(scene: &'a Scene) -> Result<Self, crate::synth::SynthError> {
        let first = scene.counter(0, super::game::COUNTER_VARIANT)?;
        let last = scene.counter(scene.beads.len(), super::game::COUNTER_VARIANT)?;
        let arcs: Vec<f64> = [&first, &last]
            .iter()
            .flat_map(|c| c.beads.iter().map(|b| b.s_mm).chain([c.crab_s_mm]))
            .collect();
        let lo = arcs.iter().copied().fold(f64::INFINITY, f64::min) - COUNTER_MARGIN_MM;
        let hi = arcs.iter().copied().fold(f64::NEG_INFINITY, f64::max) + COUNTER_MARGIN_MM;
        let n = ((hi - lo) / COUNTER_STEP_MM).ceil().max(1.0) as usize;
        let counter_line = (0..=n)
            .map(|i| scene.string.point_at(lo + (hi - lo) * i as f64 / n as f64))
            .collect();
        Ok(Self { scene, counter_line })
    }

    pub(super) fn ocean(&self) -> &'a PolygonMm {
        self.scene.ocean()
    }

    /// Where the piece touches the table (or its deck); empty for a piece the catalog lacks.
    pub(super) fn footprint(&self, p: &PlacedPiece) -> PolygonMm {
        self.scene
            .catalog
            .entry(&p.entry)
            .map(|e| e.footprint(p.center_mm, p.angle_rad))
            .unwrap_or_default()
    }

    fn shape(&self, p: &PlacedPiece) -> Option<&'a Shape> {
        self.scene.catalog.entry(&p.entry).map(|e| &e.shape)
    }

    fn height(&self, p: &PlacedPiece) -> f64 {
        self.scene.catalog.entry(&p.entry).map_or(0.0, |e| e.height_mm)
    }

    fn radius(&self, p: &PlacedPiece) -> f64 {
        self.shape(p).map_or(0.0, Shape::bounding_radius_mm)
    }

    /// The gap between two pieces' footprints, mm.
    pub(super) fn gap(&self, a: &PlacedPiece, b: &PlacedPiece) -> f64 {
        self.footprint(a).gap(&self.footprint(b))
    }

    /// Distance from a footprint to the string's centre line; 0 when it crosses the string.
    fn string_clearance(&self, fp: &PolygonMm, centre: PointMm, radius: f64) -> f64 {
        let ocean = self.ocean();
        let reach = radius + STRING_CLEARANCE_MM + 50.0;
        let mut best = f64::INFINITY;
        for (c, d) in ocean.edges() {
            if point_segment_distance(centre, c, d) > reach {
                continue;
            }
            for (a, b) in fp.edges() {
                best = best.min(segment_segment_distance(a, b, c, d));
            }
        }
        best
    }

    /// Distance from a footprint to the counter's stretch; 0 when it touches it.
    fn counter_clearance(&self, fp: &PolygonMm, centre: PointMm, radius: f64) -> f64 {
        let reach = radius + COUNTER_CLEARANCE_MM + 20.0;
        let mut best = f64::INFINITY;
        for w in self.counter_line.windows(2) {
            if point_segment_distance(centre, w[0], w[1]) > reach {
                continue;
            }
            if fp.contains(w[0]) {
                return 0.0;
            }
            for (a, b) in fp.edges() {
                best = best.min(segment_segment_distance(a, b, w[0], w[1]));
            }
        }
        best
    }

    /// Whether the whole piece (its footprint at its base and at its top) is inside the image.
    pub(super) fn visible(&self, p: &PlacedPiece, fp: &PolygonMm) -> bool {
        let camera = &self.scene.camera;
        let h = self.height(p);
        let w = camera.intrinsics.width as f64;
        let hh = camera.intrinsics.height as f64;
        let m = VISIBLE_MARGIN_PX;
        fp.points().iter().all(|q| {
            [p.base_mm, p.base_mm + h].iter().all(|&z| {
                camera
                    .project(PointMm3::above(*q, z))
                    .is_some_and(|px| px.x >= m && px.y >= m && px.x <= w - 1.0 - m && px.y <= hh - 1.0 - m)
            })
        })
    }

    /// Whether `cand` keeps [`MIN_GAP_MM`] from every other piece on its surface.
    fn clear_of_others(&self, layout: &Layout, i: usize, cand: &PlacedPiece, fp: &PolygonMm) -> bool {
        let r = self.radius(cand);
        layout.pieces.iter().enumerate().all(|(j, q)| {
            if j == i || q.loaded_on != cand.loaded_on || q.on_island != cand.on_island {
                return true;
            }
            if q.center_mm.distance(cand.center_mm) > r + self.radius(q) + MIN_GAP_MM {
                return true;
            }
            fp.gap(&self.footprint(q)) >= MIN_GAP_MM
        })
    }

    /// Whether piece `i` of `layout` may lie on the table as `cand` at `spot`.
    pub(super) fn fits(&self, layout: &Layout, i: usize, cand: &PlacedPiece, spot: Spot) -> bool {
        let fp = self.footprint(cand);
        if fp.is_empty() || cand.loaded_on.is_some() || cand.on_island {
            return false;
        }
        let r = self.radius(cand);
        let inside = self.ocean().contains(cand.center_mm);
        if inside != (spot == Spot::Ocean)
            || self.string_clearance(&fp, cand.center_mm, r) < STRING_CLEARANCE_MM
        {
            return false;
        }
        if cand.kind != PieceKind::Crab
            && self.counter_clearance(&fp, cand.center_mm, r) < COUNTER_CLEARANCE_MM
        {
            return false;
        }
        self.visible(cand, &fp) && self.clear_of_others(layout, i, cand, &fp)
    }

    /// Whether piece `i` may stand as `cand` on the deck of the ship at index `ship`.
    pub(super) fn fits_deck(&self, layout: &Layout, i: usize, cand: &PlacedPiece, ship: usize) -> bool {
        let Some(s) = layout.pieces.get(ship) else {
            return false;
        };
        if cand.loaded_on.as_deref() != Some(s.id.as_str()) {
            return false;
        }
        let hull = self.footprint(s);
        let fp = self.footprint(cand);
        if fp.is_empty() || !hull.contains(cand.center_mm) {
            return false;
        }
        let on_deck = fp
            .points()
            .iter()
            .all(|&q| hull.contains(q) || hull.distance_to_outline(q) <= DECK_OVERHANG_MM);
        on_deck && self.visible(cand, &fp) && self.clear_of_others(layout, i, cand, &fp)
    }

    /// Piece `i` on the table at `centre`, turned by `angle`.
    pub(super) fn on_table(layout: &Layout, i: usize, centre: PointMm, angle: f64) -> Option<PlacedPiece> {
        layout.pieces.get(i).map(|p| PlacedPiece {
            center_mm: centre,
            angle_rad: angle,
            base_mm: 0.0,
            loaded_on: None,
            on_island: false,
            ..p.clone()
        })
    }

    /// Piece `i` in the ocean at `gap_mm` from the footprint `of` (centred at `of_centre`), in the
    /// direction `bearing_rad` from that centre or, when that spot is taken, the nearest free
    /// bearing. The piece keeps its angle. `None` when no bearing has room.
    pub(super) fn near(
        &self,
        layout: &Layout,
        i: usize,
        of: &PolygonMm,
        of_centre: PointMm,
        gap_mm: f64,
        bearing_rad: f64,
    ) -> Option<PlacedPiece> {
        let piece = layout.pieces.get(i)?;
        let shape = self.shape(piece)?;
        let angle = piece.angle_rad;
        let of_radius = of
            .points()
            .iter()
            .map(|p| p.distance(of_centre))
            .fold(0.0, f64::max);
        let steps = (180.0 / BEARING_STEP_DEG).floor() as i32;
        for k in 0..=2 * steps {
            let turn = if k % 2 == 1 { (k + 1) / 2 } else { -(k / 2) };
            let b = bearing_rad + (turn as f64 * BEARING_STEP_DEG).to_radians();
            let dir = PointMm::new(b.cos(), b.sin());
            let gap_at = |d: f64| of.gap(&shape.footprint(of_centre + dir * d, angle));
            let mut lo = 0.0;
            let mut hi = of_radius + shape.bounding_radius_mm() + gap_mm + 1.0;
            if gap_at(hi) < gap_mm {
                continue;
            }
            for _ in 0..GAP_BISECTION_STEPS {
                let mid = 0.5 * (lo + hi);
                if gap_at(mid) < gap_mm {
                    lo = mid;
                } else {
                    hi = mid;
                }
            }
            if (gap_at(hi) - gap_mm).abs() > GAP_TOLERANCE_MM {
                continue;
            }
            let cand = Self::on_table(layout, i, of_centre + dir * hi, angle)?;
            if self.fits(layout, i, &cand, Spot::Ocean) {
                return Some(cand);
            }
        }
        None
    }

    /// Piece `i` just outside the string, at the stretch of string nearest `near` or, when that
    /// is taken, the nearest free stretch.
    pub(super) fn outside(&self, layout: &Layout, i: usize, near: PointMm) -> Option<PlacedPiece> {
        let piece = layout.pieces.get(i)?;
        let out = self.radius(piece) + STRING_CLEARANCE_MM + OUTSIDE_BEYOND_MM;
        let string = &self.scene.string;
        let s0 = string.project(near);
        let steps = (OUTSIDE_SEARCH_MM / OUTSIDE_STEP_MM).floor() as i32;
        for k in 0..=2 * steps {
            let turn = if k % 2 == 1 { (k + 1) / 2 } else { -(k / 2) };
            let s = s0 + turn as f64 * OUTSIDE_STEP_MM;
            let c = string.point_at(s) + string.outward_normal_at(s) * out;
            let cand = Self::on_table(layout, i, c, piece.angle_rad)?;
            if self.fits(layout, i, &cand, Spot::Outside) {
                return Some(cand);
            }
        }
        None
    }

    /// Treasure `i` standing on the deck of the ship at index `ship`: along the ship's keel,
    /// nearest the middle first; long treasures lie across the deck.
    pub(super) fn on_deck(&self, layout: &Layout, i: usize, ship: usize) -> Option<PlacedPiece> {
        let piece = layout.pieces.get(i)?;
        let s = layout.pieces.get(ship)?;
        let entry = self.scene.catalog.entry(&s.entry)?;
        let Shape::Hull { length_mm, .. } = entry.shape else {
            return None;
        };
        let long = matches!(
            self.shape(piece),
            Some(Shape::Trapezoid { .. } | Shape::Box { .. } | Shape::LyingBottle { .. })
        );
        let angle = s.angle_rad + if long { std::f64::consts::FRAC_PI_2 } else { 0.0 };
        let steps = (DECK_REACH * length_mm / DECK_STEP_MM).floor() as i32;
        for k in 0..=2 * steps {
            let turn = if k % 2 == 1 { (k + 1) / 2 } else { -(k / 2) };
            let along = PointMm::new(turn as f64 * DECK_STEP_MM, 0.0).rotated(s.angle_rad);
            let cand = PlacedPiece {
                center_mm: s.center_mm + along,
                angle_rad: angle,
                base_mm: entry.height_mm,
                loaded_on: Some(s.id.clone()),
                on_island: false,
                ..piece.clone()
            };
            if self.fits_deck(layout, i, &cand, ship) {
                return Some(cand);
            }
        }
        None
    }

    /// Piece `i` somewhere at random in the ocean, clear of everything (a treasure dropped over
    /// the head at set-up).
    pub(super) fn scatter(&self, layout: &Layout, i: usize, rng: &mut ChaCha8Rng) -> Option<PlacedPiece> {
        let ocean = self.ocean();
        let (mut lo, mut hi) = (
            PointMm::new(f64::INFINITY, f64::INFINITY),
            PointMm::new(f64::NEG_INFINITY, f64::NEG_INFINITY),
        );
        for p in ocean.points() {
            lo = PointMm::new(lo.x.min(p.x), lo.y.min(p.y));
            hi = PointMm::new(hi.x.max(p.x), hi.y.max(p.y));
        }
        for _ in 0..SCATTER_TRIES {
            let c = PointMm::new(
                lo.x + (hi.x - lo.x) * rng.random::<f64>(),
                lo.y + (hi.y - lo.y) * rng.random::<f64>(),
            );
            let angle = std::f64::consts::TAU * rng.random::<f64>();
            let cand = Self::on_table(layout, i, c, angle)?;
            if self.fits(layout, i, &cand, Spot::Ocean) {
                return Some(cand);
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::crash_octopus::TreasureType;
    use crate::synth::SceneSpec;

    fn scene() -> Scene {
        let mut spec = SceneSpec::new(1, 3);
        spec.resolution = Some(crate::synth::Resolution::HD);
        spec.distortion = Some(false);
        spec.tilt_deg = Some(20.0);
        Scene::generate(&spec).unwrap()
    }

    #[test]
    fn near_puts_a_piece_at_the_asked_gap_and_never_inside_another() {
        let scene = scene();
        let table = Table::new(&scene).unwrap();
        let layout = scene.layout(0).unwrap();
        let ship = layout
            .pieces
            .iter()
            .position(|p| p.kind == PieceKind::Ship)
            .unwrap();
        let t = layout
            .pieces
            .iter()
            .position(|p| p.kind == PieceKind::Treasure && p.loaded_on.is_none())
            .unwrap();
        let of = table.footprint(&layout.pieces[ship]);
        let centre = layout.pieces[ship].center_mm;
        let towards = table.ocean().centroid() - centre;
        for gap in [2.0, 10.0, 35.0] {
            let cand = table
                .near(&layout, t, &of, centre, gap, towards.y.atan2(towards.x))
                .unwrap();
            let got = table.footprint(&cand).gap(&of);
            assert!((got - gap).abs() <= GAP_TOLERANCE_MM, "{got} vs {gap}");
            for (j, q) in layout.pieces.iter().enumerate() {
                if j != t && q.loaded_on.is_none() {
                    assert!(table.gap(&cand, q) >= MIN_GAP_MM, "{} inside {}", cand.id, q.id);
                }
            }
            assert!(table.ocean().contains(cand.center_mm));
        }
    }

    #[test]
    fn outside_and_deck_spots_keep_their_rules() {
        let scene = scene();
        let table = Table::new(&scene).unwrap();
        let layout = scene.layout(0).unwrap();
        let t = layout
            .pieces
            .iter()
            .position(|p| p.kind == PieceKind::Treasure && p.loaded_on.is_none())
            .unwrap();
        let out = table.outside(&layout, t, layout.pieces[t].center_mm).unwrap();
        assert!(!table.ocean().contains(out.center_mm));
        assert!(!table.footprint(&out).intersects_outline(table.ocean()));
        assert!(table.fits(&layout, t, &out, Spot::Outside));
        assert!(!table.fits(&layout, t, &out, Spot::Ocean));

        let ship = layout
            .pieces
            .iter()
            .position(|p| {
                p.kind == PieceKind::Ship
                    && !layout.pieces.iter().any(|q| q.loaded_on.as_ref() == Some(&p.id))
            })
            .unwrap();
        let mut l = layout.clone();
        for kind in [TreasureType::Gold, TreasureType::Gem, TreasureType::Captain] {
            let i = l
                .pieces
                .iter()
                .position(|p| p.treasure == Some(kind) && p.loaded_on.is_none())
                .unwrap();
            let cand = table.on_deck(&l, i, ship).unwrap();
            assert_eq!(cand.loaded_on.as_deref(), Some(l.pieces[ship].id.as_str()));
            assert!(table.footprint(&l.pieces[ship]).contains(cand.center_mm));
            l.pieces[i] = cand;
        }
        let deck: Vec<&PlacedPiece> = l
            .pieces
            .iter()
            .filter(|p| p.loaded_on.as_deref() == Some(l.pieces[ship].id.as_str()))
            .collect();
        assert_eq!(deck.len(), 3);
        for (k, a) in deck.iter().enumerate() {
            for b in &deck[k + 1..] {
                assert!(table.gap(a, b) >= MIN_GAP_MM);
            }
        }
    }
}
