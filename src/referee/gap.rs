//! Gaps between footprints, with a bounding-circle early-out, and their uncertainty.
//!
//! Conventions (table.md): table frame, millimetres; a footprint is a closed polygon in either
//! winding; the **gap** between two pieces is the smallest distance between their footprints,
//! 0 when they touch or overlap. A piece reported without a footprint counts as the point at its
//! centre.
//!
//! [`gap_mm`] always equals [`PolygonMm::gap`] (a property test holds it to that); it is only
//! faster: two footprints whose bounding circles are apart cannot overlap, so the overlap test is
//! skipped; the gap of two footprints that do not touch is the smallest vertex-to-edge distance,
//! and a vertex farther from the other footprint's circle than the best gap so far is skipped.

use crate::table::{PieceReport, PointMm, PolygonMm};
use std::borrow::Cow;

/// Confidence below which a piece's position counts as no better than at this confidence
/// (keeps `1 / confidence` finite).
pub const MIN_CONFIDENCE: f64 = 0.1;

/// A footprint with its bounding circle, ready for many gap queries.
#[derive(Debug, Clone)]
pub struct Footprint<'a> {
    polygon: Cow<'a, PolygonMm>,
    centre: PointMm,
    radius_mm: f64,
}

impl<'a> Footprint<'a> {
    /// The footprint of `polygon`. The circle is centred on the vertices' bounding box.
    pub fn new(polygon: Cow<'a, PolygonMm>) -> Self {
        let pts = polygon.points();
        let (mut lo, mut hi) = (
            PointMm::new(f64::INFINITY, f64::INFINITY),
            PointMm::new(f64::NEG_INFINITY, f64::NEG_INFINITY),
        );
        for p in pts {
            lo = PointMm::new(lo.x.min(p.x), lo.y.min(p.y));
            hi = PointMm::new(hi.x.max(p.x), hi.y.max(p.y));
        }
        let centre = if pts.is_empty() {
            PointMm::default()
        } else {
            (lo + hi) * 0.5
        };
        let radius_mm = pts
            .iter()
            .map(|&p| (p - centre).dot(p - centre))
            .fold(0.0, f64::max)
            .sqrt();
        Self {
            polygon,
            centre,
            radius_mm,
        }
    }

    /// The footprint of a reported piece: its polygon, or the point at its centre when it has none.
    pub fn of_piece(piece: &'a PieceReport) -> Self {
        if piece.footprint_mm.is_empty() {
            Self::new(Cow::Owned(PolygonMm::new(vec![piece.center_mm])))
        } else {
            Self::new(Cow::Borrowed(&piece.footprint_mm))
        }
    }

    pub fn polygon(&self) -> &PolygonMm {
        &self.polygon
    }

    /// Centre of the bounding circle (not necessarily the piece's centre).
    pub fn circle_centre(&self) -> PointMm {
        self.centre
    }

    /// Radius of the bounding circle around [`Self::circle_centre`].
    pub fn circle_radius_mm(&self) -> f64 {
        self.radius_mm
    }
}

/// The gap between two footprints, mm: equal to `a.polygon().gap(b.polygon())`.
pub fn gap_mm(a: &Footprint<'_>, b: &Footprint<'_>) -> f64 {
    if a.polygon.is_empty() || b.polygon.is_empty() {
        return f64::INFINITY;
    }
    let apart = a.centre.distance(b.centre) > a.radius_mm + b.radius_mm;
    if !apart
        && (a.polygon.intersects_outline(&b.polygon)
            || a.polygon.contains(b.polygon.points()[0])
            || b.polygon.contains(a.polygon.points()[0]))
    {
        return 0.0;
    }
    // Apart (or near but not touching): the gap is a vertex-to-edge distance. Start from an
    // upper bound (two actual vertices) so that vertices facing away are skipped from the start.
    let pa = nearest_vertex(a.polygon.points(), b.centre);
    let pb = nearest_vertex(b.polygon.points(), a.centre);
    let upper_sq = (pa - pb).dot(pa - pb);
    let best_sq = vertices_to_edges(a, b, upper_sq);
    vertices_to_edges(b, a, best_sq).sqrt()
}

/// The vertex of `points` (not empty) nearest to `to`.
fn nearest_vertex(points: &[PointMm], to: PointMm) -> PointMm {
    let mut best = points[0];
    let mut best_sq = f64::INFINITY;
    for &p in points {
        let d = (p - to).dot(p - to);
        if d < best_sq {
            best_sq = d;
            best = p;
        }
    }
    best
}

/// Smallest squared distance from `from`'s vertices to `to`'s edges, or `best_sq` if none is
/// smaller. Squared distances and plain loops: `hypot` and iterator adaptors dominated the cost.
fn vertices_to_edges(from: &Footprint<'_>, to: &Footprint<'_>, mut best_sq: f64) -> f64 {
    let edges = to.polygon.points();
    let Some(&last) = edges.last() else {
        return best_sq;
    };
    for &p in from.polygon.points() {
        // Skip a vertex whose distance to `to`'s circle is already no better than the best.
        let reach = best_sq.sqrt() + to.radius_mm;
        if (p - to.centre).dot(p - to.centre) >= reach * reach {
            continue;
        }
        let mut a = last;
        for &b in edges {
            best_sq = best_sq.min(point_segment_distance_sq(p, a, b));
            a = b;
        }
    }
    best_sq
}

/// Squared distance from point `p` to segment `ab`.
pub fn point_segment_distance_sq(p: PointMm, a: PointMm, b: PointMm) -> f64 {
    let ab = b - a;
    let len2 = ab.dot(ab);
    let t = if len2 <= f64::EPSILON {
        0.0
    } else {
        ((p - a).dot(ab) / len2).clamp(0.0, 1.0)
    };
    let d = p - (a + ab * t);
    d.dot(d)
}

/// One sigma of a piece's position along any direction, mm: `sigma / confidence`.
pub fn piece_sigma_mm(position_sigma_mm: f64, confidence: f64) -> f64 {
    let c = if confidence.is_finite() {
        confidence.clamp(MIN_CONFIDENCE, 1.0)
    } else {
        MIN_CONFIDENCE
    };
    position_sigma_mm / c
}

/// One sigma of the gap between two pieces, mm: their position errors are independent.
pub fn gap_uncertainty_mm(position_sigma_mm: f64, confidence_a: f64, confidence_b: f64) -> f64 {
    piece_sigma_mm(position_sigma_mm, confidence_a).hypot(piece_sigma_mm(position_sigma_mm, confidence_b))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn fp(p: &PolygonMm) -> Footprint<'_> {
        Footprint::new(Cow::Borrowed(p))
    }

    fn square(x: f64, y: f64, s: f64) -> PolygonMm {
        PolygonMm::new(vec![
            PointMm::new(x, y),
            PointMm::new(x + s, y),
            PointMm::new(x + s, y + s),
            PointMm::new(x, y + s),
        ])
    }

    /// A star-ish polygon (possibly non-convex) around `(cx, cy)` from radii and a rotation.
    fn polygon(cx: f64, cy: f64, radii: &[f64], turn: f64) -> PolygonMm {
        let n = radii.len() as f64;
        PolygonMm::new(
            radii
                .iter()
                .enumerate()
                .map(|(i, r)| {
                    let a = turn + i as f64 / n * std::f64::consts::TAU;
                    PointMm::new(cx + r * a.cos(), cy + r * a.sin())
                })
                .collect(),
        )
    }

    fn arb_polygon() -> impl Strategy<Value = PolygonMm> {
        (
            -200.0..200.0f64,
            -200.0..200.0f64,
            prop::collection::vec(2.0..40.0f64, 3..12),
            0.0..6.3f64,
        )
            .prop_map(|(x, y, radii, turn)| polygon(x, y, &radii, turn))
    }

    #[test]
    fn gaps_of_known_shapes() {
        let a = square(0.0, 0.0, 10.0);
        let b = square(13.0, 0.0, 10.0);
        assert!((gap_mm(&fp(&a), &fp(&b)) - 3.0).abs() < 1e-12);
        let diag = square(13.0, 14.0, 10.0);
        assert!((gap_mm(&fp(&a), &fp(&diag)) - 5.0).abs() < 1e-12);
        let inner = square(2.0, 2.0, 2.0);
        assert_eq!(gap_mm(&fp(&a), &fp(&inner)), 0.0);
        let point = PolygonMm::new(vec![PointMm::new(15.0, 5.0)]);
        assert!((gap_mm(&fp(&a), &fp(&point)) - 5.0).abs() < 1e-12);
        assert_eq!(gap_mm(&fp(&a), &fp(&PolygonMm::default())), f64::INFINITY);
    }

    #[test]
    fn squared_segment_distance_matches_the_polygon_module() {
        let (a, b) = (PointMm::new(0.0, 0.0), PointMm::new(10.0, 0.0));
        for p in [
            PointMm::new(5.0, 3.0),
            PointMm::new(-3.0, 4.0),
            PointMm::new(13.0, -4.0),
        ] {
            let d = crate::table::polygon::point_segment_distance(p, a, b);
            assert!((point_segment_distance_sq(p, a, b) - d * d).abs() < 1e-9);
        }
        assert_eq!(point_segment_distance_sq(PointMm::new(3.0, 4.0), a, a), 25.0);
    }

    #[test]
    fn uncertainty_grows_as_confidence_falls() {
        let full = gap_uncertainty_mm(1.0, 1.0, 1.0);
        assert!((full - 2f64.sqrt()).abs() < 1e-12);
        assert!(gap_uncertainty_mm(1.0, 0.5, 1.0) > full);
        assert!((piece_sigma_mm(1.0, 0.0) - 10.0).abs() < 1e-12);
        assert!((piece_sigma_mm(1.0, f64::NAN) - 10.0).abs() < 1e-12);
    }

    proptest! {
        #[test]
        fn gap_equals_the_polygon_gap(a in arb_polygon(), b in arb_polygon()) {
            let fast = gap_mm(&fp(&a), &fp(&b));
            let slow = a.gap(&b);
            prop_assert!((fast - slow).abs() < 1e-9, "fast {fast} slow {slow}");
        }

        #[test]
        fn gaps_are_symmetric_and_zero_when_footprints_overlap(
            a in arb_polygon(), b in arb_polygon()
        ) {
            let ab = gap_mm(&fp(&a), &fp(&b));
            let ba = gap_mm(&fp(&b), &fp(&a));
            prop_assert!((ab - ba).abs() < 1e-9);
            prop_assert!(ab >= 0.0);
            // A shared point (a vertex of one inside the other) means an overlap.
            if b.contains(a.points()[0]) || a.contains(b.points()[0]) {
                prop_assert_eq!(ab, 0.0);
            }
            // Moving b onto a's vertex makes them touch (up to rounding of the move).
            let onto = b.translated(a.points()[0] - b.points()[0]);
            prop_assert!(gap_mm(&fp(&a), &fp(&onto)) < 1e-9);
        }
    }
}
