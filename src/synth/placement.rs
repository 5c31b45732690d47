//! Placing pieces without interpenetration: footprints, gaps, the string, the counter, the view.
//!
//! Conventions: table frame, millimetres. Two pieces standing on the same surface (the table, one
//! ship's deck, the island) keep at least [`MIN_GAP_MM`] between their footprints. Pieces in the
//! ocean keep [`STRING_CLEARANCE_MM`] from the string's centre line unless they are placed on the
//! string on purpose; nothing comes within [`COUNTER_CLEARANCE_MM`] of the Octo-Counter's stretch.

use super::layout::PlacedPiece;
use super::pieces::{PALM_TRUNK_RADIUS_MM, palm_base};
use super::scene::Scene;
use crate::table::polygon::segment_segment_distance;
use crate::table::{Camera, PieceKind, PointMm, PointMm3, PolygonMm, Shape};

/// Smallest gap between two pieces on the same surface, mm (touching, not interpenetrating).
pub const MIN_GAP_MM: f64 = 0.8;
/// Smallest distance from a footprint in the ocean to the string's centre line, mm (half the cord
/// plus a little).
pub const STRING_CLEARANCE_MM: f64 = 3.5;
/// Smallest distance from any footprint to the Octo-Counter's stretch of string, mm (half the
/// crab plus a little).
pub const COUNTER_CLEARANCE_MM: f64 = 17.0;
/// Pieces that must be visible stay this far inside the image, pixels.
pub const VISIBLE_MARGIN_PX: f64 = 4.0;
/// Loaded treasures may overhang the deck's edge by this much, mm.
pub const DECK_OVERHANG_MM: f64 = 2.0;
/// Treasures on the island keep this far inside its edge, mm.
pub const ISLAND_EDGE_MM: f64 = 2.0;
/// Sampling step of the counter's stretch, mm.
const COUNTER_STEP_MM: f64 = 5.0;
/// Bisection steps when placing a piece at an exact gap.
const GAP_BISECTION_STEPS: usize = 48;

/// The fixed things of a scene that placements must respect.
#[derive(Debug)]
pub(crate) struct Table<'a> {
    pub scene: &'a Scene,
    /// The counter's stretch of string as an open polyline, with a margin at both ends.
    counter_line: Vec<PointMm>,
}

/// A piece's footprint with its bounding circle, for quick rejection.
#[derive(Debug, Clone)]
pub(crate) struct Footprint {
    pub poly: PolygonMm,
    pub centre: PointMm,
    pub radius: f64,
}

impl Footprint {
    pub(crate) fn gap(&self, other: &Footprint) -> f64 {
        let d = self.centre.distance(other.centre) - self.radius - other.radius;
        if d > 0.0 {
            return d; // a lower bound is enough when it is already large
        }
        self.poly.gap(&other.poly)
    }

    /// Exact gap (no bounding-circle shortcut).
    pub(crate) fn exact_gap(&self, other: &Footprint) -> f64 {
        self.poly.gap(&other.poly)
    }
}

impl<'a> Table<'a> {
    pub(crate) fn new(scene: &'a Scene) -> Self {
        let len = super::counter::counter_length_mm(
            scene.beads.len(),
            scene.catalog.string.bead_diameter_mm,
            crab_along_mm(scene),
        );
        let start = scene.counter_start_mm - 5.0;
        let n = ((len + 10.0) / COUNTER_STEP_MM).ceil() as usize + 1;
        let counter_line = (0..=n)
            .map(|i| scene.string.point_at(start + i as f64 * COUNTER_STEP_MM))
            .collect();
        Self { scene, counter_line }
    }

    pub(crate) fn footprint(&self, p: &PlacedPiece) -> Footprint {
        match self.scene.catalog.entry(&p.entry) {
            Some(e) => Footprint {
                poly: e.footprint(p.center_mm, p.angle_rad),
                centre: p.center_mm,
                radius: e.shape.bounding_radius_mm(),
            },
            None => Footprint {
                poly: PolygonMm::default(),
                centre: p.center_mm,
                radius: 0.0,
            },
        }
    }

    pub(crate) fn height(&self, p: &PlacedPiece) -> f64 {
        self.scene
            .catalog
            .entry(&p.entry)
            .map(|e| e.height_mm)
            .unwrap_or(0.0)
    }

    /// Distance from a footprint's outline to the string's centre line; 0 when they cross.
    pub(crate) fn string_distance(&self, fp: &Footprint) -> f64 {
        let line = self.scene.string.centre_line_mm.points();
        let n = line.len();
        let pairs = (0..n).map(|i| (line[i], line[(i + 1) % n]));
        outline_to_segments(fp, pairs)
    }

    /// Distance from a footprint's outline to the counter's stretch; 0 when they cross.
    pub(crate) fn counter_distance(&self, fp: &Footprint) -> f64 {
        let pairs = self.counter_line.windows(2).map(|w| (w[0], w[1]));
        let d = outline_to_segments(fp, pairs);
        if self.counter_line.iter().any(|&q| fp.poly.contains(q)) {
            0.0
        } else {
            d
        }
    }

    /// Whether the whole piece (its footprint at its base and at its top) is in view.
    pub(crate) fn visible(&self, camera: &Camera, p: &PlacedPiece, fp: &Footprint) -> bool {
        let h = self.height(p);
        let w = camera.intrinsics.width as f64;
        let hh = camera.intrinsics.height as f64;
        let m = VISIBLE_MARGIN_PX;
        fp.poly.points().iter().all(|q| {
            [p.base_mm, p.base_mm + h].iter().all(|&z| {
                camera
                    .project(PointMm3::above(*q, z))
                    .is_some_and(|px| px.x >= m && px.y >= m && px.x <= w - 1.0 - m && px.y <= hh - 1.0 - m)
            })
        })
    }

    /// Whether no part of the piece can be seen.
    pub(crate) fn out_of_view(&self, camera: &Camera, p: &PlacedPiece, fp: &Footprint) -> bool {
        let h = self.height(p);
        let w = camera.intrinsics.width as f64;
        let hh = camera.intrinsics.height as f64;
        let margin = 10.0;
        fp.poly.points().iter().all(|q| {
            [p.base_mm, p.base_mm + h]
                .iter()
                .all(|&z| match camera.project(PointMm3::above(*q, z)) {
                    Some(px) => px.x < -margin || px.y < -margin || px.x > w + margin || px.y > hh + margin,
                    None => true,
                })
        })
    }

    /// The island's palm trunk as a footprint (treasures on the island keep clear of it).
    pub(crate) fn palm(&self, island: &PlacedPiece) -> Option<Footprint> {
        let e = self.scene.catalog.entry(&island.entry)?;
        let Shape::Blob { diameter_mm } = e.shape else {
            return None;
        };
        let c = palm_base(diameter_mm).rotated(island.angle_rad) + island.center_mm;
        let r = PALM_TRUNK_RADIUS_MM + 1.0;
        let poly = PolygonMm(
            (0..12)
                .map(|i| {
                    let a = std::f64::consts::TAU * i as f64 / 12.0;
                    c + PointMm::new(r * a.cos(), r * a.sin())
                })
                .collect(),
        );
        Some(Footprint {
            poly,
            centre: c,
            radius: r,
        })
    }

    /// The centre that puts a piece of `kind` (footprint given by `shape_at`) at exactly
    /// `gap_mm` from `fixed`, moving from `fixed`'s centre along `dir` (unit vector).
    pub(crate) fn centre_at_gap(
        fixed: &Footprint,
        dir: PointMm,
        gap_mm: f64,
        radius: f64,
        shape_at: impl Fn(PointMm) -> PolygonMm,
    ) -> Option<PointMm> {
        let mut lo = 0.0;
        let mut hi = fixed.radius + radius + gap_mm + 1.0;
        let gap = |d: f64| fixed.poly.gap(&shape_at(fixed.centre + dir * d));
        if gap(hi) < gap_mm {
            return None;
        }
        for _ in 0..GAP_BISECTION_STEPS {
            let mid = 0.5 * (lo + hi);
            if gap(mid) < gap_mm {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        let c = fixed.centre + dir * hi;
        ((gap(hi) - gap_mm).abs() < 0.01).then_some(c)
    }
}

/// The crab's extent along the string.
pub(crate) fn crab_along_mm(scene: &Scene) -> f64 {
    match scene.catalog.piece(PieceKind::Crab, None).map(|e| &e.shape) {
        Some(Shape::Oval { length_mm, .. }) => *length_mm,
        Some(s) => 2.0 * s.bounding_radius_mm(),
        None => 26.0,
    }
}

fn outline_to_segments(fp: &Footprint, pairs: impl Iterator<Item = (PointMm, PointMm)>) -> f64 {
    let mut best = f64::INFINITY;
    let reach = fp.radius + 60.0;
    for (c, d) in pairs {
        if crate::table::polygon::point_segment_distance(fp.centre, c, d) > reach.max(best + fp.radius) {
            continue;
        }
        for (a, b) in fp.poly.edges() {
            best = best.min(segment_segment_distance(a, b, c, d));
            if best == 0.0 {
                return 0.0;
            }
        }
    }
    best
}
