//! Closed polygons on the table plane: footprints and the ocean.
//!
//! A polygon is a list of vertices in order (either winding); the closing edge from the last vertex
//! back to the first is implied. All lengths are millimetres in the table frame.

use super::units::PointMm;
use serde::{Deserialize, Serialize};

/// A closed polygon in millimetres. Serialises as `[[x, y], ...]`.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(transparent)]
pub struct PolygonMm(pub Vec<PointMm>);

impl PolygonMm {
    pub fn new(points: Vec<PointMm>) -> Self {
        Self(points)
    }

    /// The bounding box (min, max), or `None` when empty.
    pub fn bounds(&self) -> Option<(PointMm, PointMm)> {
        bounds_of(&self.0)
    }

    pub fn points(&self) -> &[PointMm] {
        &self.0
    }

    pub fn len(&self) -> usize {
        self.0.len()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Edges as (start, end) pairs, the closing edge included.
    pub fn edges(&self) -> impl Iterator<Item = (PointMm, PointMm)> + '_ {
        let n = self.0.len();
        (0..n).map(move |i| (self.0[i], self.0[(i + 1) % n]))
    }

    /// Signed area (positive when counter-clockwise in a y-up frame).
    pub fn signed_area(&self) -> f64 {
        self.edges().map(|(a, b)| a.cross(b)).sum::<f64>() / 2.0
    }

    pub fn area(&self) -> f64 {
        self.signed_area().abs()
    }

    pub fn perimeter(&self) -> f64 {
        if self.0.len() < 2 {
            return 0.0;
        }
        self.edges().map(|(a, b)| a.distance(b)).sum()
    }

    /// Area centroid; the vertex mean for degenerate (zero-area) polygons.
    pub fn centroid(&self) -> PointMm {
        let n = self.0.len();
        if n == 0 {
            return PointMm::default();
        }
        let a = self.signed_area();
        if a.abs() < 1e-9 {
            let s = self.0.iter().fold(PointMm::default(), |acc, &p| acc + p);
            return s * (1.0 / n as f64);
        }
        let (mut cx, mut cy) = (0.0, 0.0);
        for (p, q) in self.edges() {
            let c = p.cross(q);
            cx += (p.x + q.x) * c;
            cy += (p.y + q.y) * c;
        }
        PointMm::new(cx / (6.0 * a), cy / (6.0 * a))
    }

    /// Even-odd point-in-polygon test. Points exactly on an edge may go either way.
    pub fn contains(&self, p: PointMm) -> bool {
        let mut inside = false;
        for (a, b) in self.edges() {
            if (a.y > p.y) != (b.y > p.y) {
                let x = a.x + (p.y - a.y) * (b.x - a.x) / (b.y - a.y);
                if p.x < x {
                    inside = !inside;
                }
            }
        }
        inside
    }

    /// Smallest distance from `p` to the polygon's outline (0 on the outline).
    pub fn distance_to_outline(&self, p: PointMm) -> f64 {
        self.edges()
            .map(|(a, b)| point_segment_distance(p, a, b))
            .fold(f64::INFINITY, f64::min)
    }

    /// Smallest distance between the two regions: 0 when they touch or overlap.
    /// Symmetric: `a.gap(b) == b.gap(a)`.
    pub fn gap(&self, other: &PolygonMm) -> f64 {
        if self.is_empty() || other.is_empty() {
            return f64::INFINITY;
        }
        if self.intersects_outline(other) || self.contains(other.0[0]) || other.contains(self.0[0]) {
            return 0.0;
        }
        let mut best = f64::INFINITY;
        for (a, b) in self.edges() {
            for (c, d) in other.edges() {
                best = best.min(segment_segment_distance(a, b, c, d));
            }
        }
        best
    }

    /// Whether any edge of `self` crosses any edge of `other`.
    pub fn intersects_outline(&self, other: &PolygonMm) -> bool {
        self.edges()
            .any(|(a, b)| other.edges().any(|(c, d)| segments_intersect(a, b, c, d)))
    }

    /// Whether the open polyline crosses this polygon's outline or lies partly inside it.
    pub fn crosses(&self, line: &PolygonMm) -> bool {
        let inside = self.0.iter().filter(|&&p| line.contains(p)).count();
        (inside > 0 && inside < self.0.len()) || self.intersects_outline(line)
    }

    /// The polygon moved by `d`.
    pub fn translated(&self, d: PointMm) -> PolygonMm {
        PolygonMm(self.0.iter().map(|&p| p + d).collect())
    }

    pub fn is_finite(&self) -> bool {
        self.0.iter().all(|p| p.is_finite())
    }
}

/// The bounding box (min, max) of some points, or `None` when there are none.
pub fn bounds_of<'a>(points: impl IntoIterator<Item = &'a PointMm>) -> Option<(PointMm, PointMm)> {
    let mut it = points.into_iter();
    let first = *it.next()?;
    Some(it.fold((first, first), |(lo, hi), p| {
        (
            PointMm::new(lo.x.min(p.x), lo.y.min(p.y)),
            PointMm::new(hi.x.max(p.x), hi.y.max(p.y)),
        )
    }))
}

/// Over the grid of points `step_mm` apart that fills the box `lo`..`hi` (cell centres): of
/// the points where `inside` holds, the share where `shared` holds too. 0 when none is inside,
/// or the box or the step is not finite and positive. Areas of overlap measured this way are
/// within a step's width of the polygons' own.
pub fn grid_share(
    lo: PointMm,
    hi: PointMm,
    step_mm: f64,
    inside: impl Fn(PointMm) -> bool,
    shared: impl Fn(PointMm) -> bool,
) -> f64 {
    if !(lo.is_finite() && hi.is_finite() && step_mm.is_finite() && step_mm > 0.0) {
        return 0.0;
    }
    let (mut n_inside, mut n_shared) = (0usize, 0usize);
    let mut y = lo.y + step_mm / 2.0;
    while y < hi.y {
        let mut x = lo.x + step_mm / 2.0;
        while x < hi.x {
            let p = PointMm::new(x, y);
            if inside(p) {
                n_inside += 1;
                n_shared += usize::from(shared(p));
            }
            x += step_mm;
        }
        y += step_mm;
    }
    if n_inside == 0 {
        0.0
    } else {
        n_shared as f64 / n_inside as f64
    }
}

/// Distance from point `p` to segment `ab`.
pub fn point_segment_distance(p: PointMm, a: PointMm, b: PointMm) -> f64 {
    let ab = b - a;
    let len2 = ab.dot(ab);
    if len2 <= f64::EPSILON {
        return p.distance(a);
    }
    let t = ((p - a).dot(ab) / len2).clamp(0.0, 1.0);
    p.distance(a + ab * t)
}

/// Whether closed segments `ab` and `cd` share a point.
pub fn segments_intersect(a: PointMm, b: PointMm, c: PointMm, d: PointMm) -> bool {
    let d1 = (b - a).cross(c - a);
    let d2 = (b - a).cross(d - a);
    let d3 = (d - c).cross(a - c);
    let d4 = (d - c).cross(b - c);
    if ((d1 > 0.0 && d2 < 0.0) || (d1 < 0.0 && d2 > 0.0))
        && ((d3 > 0.0 && d4 < 0.0) || (d3 < 0.0 && d4 > 0.0))
    {
        return true;
    }
    let on = |p: PointMm, q: PointMm, r: PointMm, cross: f64| {
        cross == 0.0
            && r.x >= p.x.min(q.x)
            && r.x <= p.x.max(q.x)
            && r.y >= p.y.min(q.y)
            && r.y <= p.y.max(q.y)
    };
    on(a, b, c, d1) || on(a, b, d, d2) || on(c, d, a, d3) || on(c, d, b, d4)
}

/// Smallest distance between segments `ab` and `cd` (0 if they intersect).
pub fn segment_segment_distance(a: PointMm, b: PointMm, c: PointMm, d: PointMm) -> f64 {
    if segments_intersect(a, b, c, d) {
        return 0.0;
    }
    point_segment_distance(a, c, d)
        .min(point_segment_distance(b, c, d))
        .min(point_segment_distance(c, a, b))
        .min(point_segment_distance(d, a, b))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounds_are_the_corners_of_the_enclosing_box() {
        let tilted = PolygonMm(vec![
            PointMm::new(0.0, -3.0),
            PointMm::new(5.0, 1.0),
            PointMm::new(-2.0, 4.0),
        ]);
        assert_eq!(
            tilted.bounds(),
            Some((PointMm::new(-2.0, -3.0), PointMm::new(5.0, 4.0)))
        );
        assert_eq!(PolygonMm(Vec::new()).bounds(), None);
    }

    fn square(x: f64, y: f64, s: f64) -> PolygonMm {
        PolygonMm(vec![
            PointMm::new(x, y),
            PointMm::new(x + s, y),
            PointMm::new(x + s, y + s),
            PointMm::new(x, y + s),
        ])
    }

    #[test]
    fn area_centroid_contains() {
        let s = square(0.0, 0.0, 10.0);
        assert!((s.area() - 100.0).abs() < 1e-9);
        assert!((s.perimeter() - 40.0).abs() < 1e-9);
        let c = s.centroid();
        assert!((c.x - 5.0).abs() < 1e-9 && (c.y - 5.0).abs() < 1e-9);
        assert!(s.contains(PointMm::new(5.0, 5.0)));
        assert!(!s.contains(PointMm::new(15.0, 5.0)));
    }

    #[test]
    fn gaps_between_squares() {
        let a = square(0.0, 0.0, 10.0);
        let b = square(13.0, 0.0, 10.0);
        assert!((a.gap(&b) - 3.0).abs() < 1e-9);
        assert!((b.gap(&a) - 3.0).abs() < 1e-9);
        let c = square(5.0, 5.0, 10.0);
        assert_eq!(a.gap(&c), 0.0);
        let inner = square(2.0, 2.0, 2.0);
        assert_eq!(a.gap(&inner), 0.0);
        let diag = square(13.0, 14.0, 10.0);
        assert!((a.gap(&diag) - 5.0).abs() < 1e-9);
    }

    #[test]
    fn a_grid_share_is_the_overlap_over_the_inside_and_zero_without_a_finite_box() {
        let (a, b) = (square(0.0, 0.0, 10.0), square(5.0, 0.0, 10.0));
        let (lo, hi) = a.bounds().unwrap();
        let share = grid_share(lo, hi, 0.5, |p| a.contains(p), |p| b.contains(p));
        assert!((share - 0.5).abs() < 0.03, "{share}");
        assert_eq!(grid_share(lo, hi, 0.5, |_| false, |_| true), 0.0);
        let far = PointMm::new(f64::INFINITY, 0.0);
        assert_eq!(grid_share(lo, far, 0.5, |_| true, |_| true), 0.0);
        assert_eq!(grid_share(lo, hi, 0.0, |_| true, |_| true), 0.0);
    }
}
