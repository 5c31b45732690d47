//! A closed curve on the table parameterised by arc length: the string's centre line.
//!
//! Conventions: points in mm (table frame) — or any 2D unit, the maths does not care. Arc length
//! `s` runs from vertex 0 in vertex order and wraps at the perimeter; the closing edge from the
//! last vertex to the first is part of the curve. The left normal is the tangent turned by +90
//! degrees in the (x, y) plane: `(-ty, tx)`.

use crate::table::{PointMm, PolygonMm};

/// A closed polyline with cumulative arc lengths.
#[derive(Debug, Clone, PartialEq)]
pub struct ClosedCurve {
    points: Vec<PointMm>,
    /// `cumulative[i]` = arc length at vertex `i`; one more entry for the closed end.
    cumulative: Vec<f64>,
}

impl ClosedCurve {
    /// `None` with fewer than 3 distinct points or a zero length. Repeated consecutive points are
    /// dropped.
    pub fn new(points: &[PointMm]) -> Option<Self> {
        let mut pts: Vec<PointMm> = Vec::with_capacity(points.len());
        for &p in points {
            if !p.is_finite() {
                return None;
            }
            if pts.last().is_none_or(|q: &PointMm| q.distance(p) > 1e-9) {
                pts.push(p);
            }
        }
        while pts.len() > 1 && pts[0].distance(pts[pts.len() - 1]) <= 1e-9 {
            pts.pop();
        }
        if pts.len() < 3 {
            return None;
        }
        let mut cumulative = Vec::with_capacity(pts.len() + 1);
        let mut s = 0.0;
        cumulative.push(0.0);
        for i in 0..pts.len() {
            s += pts[i].distance(pts[(i + 1) % pts.len()]);
            cumulative.push(s);
        }
        (s > 0.0).then_some(Self {
            points: pts,
            cumulative,
        })
    }

    pub fn from_polygon(p: &PolygonMm) -> Option<Self> {
        Self::new(p.points())
    }

    pub fn points(&self) -> &[PointMm] {
        &self.points
    }

    pub fn perimeter(&self) -> f64 {
        self.cumulative[self.points.len()]
    }

    /// Arc length wrapped into `[0, perimeter)`.
    pub fn wrap(&self, s: f64) -> f64 {
        s.rem_euclid(self.perimeter())
    }

    /// Index of the segment holding arc length `s` and the fraction along it.
    fn locate(&self, s: f64) -> (usize, f64) {
        let s = self.wrap(s);
        let i = match self.cumulative.binary_search_by(|c| c.total_cmp(&s)) {
            Ok(i) => i.min(self.points.len() - 1),
            Err(i) => i.saturating_sub(1).min(self.points.len() - 1),
        };
        let len = self.cumulative[i + 1] - self.cumulative[i];
        let f = if len > 0.0 {
            (s - self.cumulative[i]) / len
        } else {
            0.0
        };
        (i, f.clamp(0.0, 1.0))
    }

    pub fn point_at(&self, s: f64) -> PointMm {
        let (i, f) = self.locate(s);
        let a = self.points[i];
        let b = self.points[(i + 1) % self.points.len()];
        a + (b - a) * f
    }

    /// Unit tangent at `s`, averaged over `±half_window` of arc so corners do not jump.
    pub fn tangent_at(&self, s: f64, half_window: f64) -> PointMm {
        let h = half_window.max(1e-6);
        let d = self.point_at(s + h) - self.point_at(s - h);
        let n = d.norm();
        if n > 0.0 {
            d * (1.0 / n)
        } else {
            PointMm::new(1.0, 0.0)
        }
    }

    /// Unit left normal at `s` (see the module conventions).
    pub fn normal_at(&self, s: f64, half_window: f64) -> PointMm {
        let t = self.tangent_at(s, half_window);
        PointMm::new(-t.y, t.x)
    }

    /// The arc length of the curve point closest to `p`, and the distance to it.
    pub fn project(&self, p: PointMm) -> (f64, f64) {
        let n = self.points.len();
        let mut best = (0.0, f64::INFINITY);
        for i in 0..n {
            let a = self.points[i];
            let b = self.points[(i + 1) % n];
            let ab = b - a;
            let len2 = ab.dot(ab);
            let f = if len2 > 0.0 {
                ((p - a).dot(ab) / len2).clamp(0.0, 1.0)
            } else {
                0.0
            };
            let d = p.distance(a + ab * f);
            if d < best.1 {
                best = (self.cumulative[i] + f * len2.sqrt(), d);
            }
        }
        best
    }

    /// Vertices about `step` apart along the arc, starting at vertex 0 (the step is adjusted so
    /// the loop divides evenly).
    pub fn resampled(&self, step: f64) -> Vec<PointMm> {
        let p = self.perimeter();
        let n = ((p / step.max(1e-6)).round() as usize).max(3);
        (0..n).map(|k| self.point_at(p * k as f64 / n as f64)).collect()
    }

    /// The same loop with vertex order reversed, starting at the same vertex.
    pub fn reversed(&self) -> Self {
        let mut pts = self.points.clone();
        pts[1..].reverse();
        Self::new(&pts).unwrap_or_else(|| self.clone())
    }

    /// Signed area (positive when the vertex order turns from +x towards +y).
    pub fn signed_area(&self) -> f64 {
        PolygonMm::new(self.points.clone()).signed_area()
    }

    pub fn to_polygon(&self) -> PolygonMm {
        PolygonMm::new(self.points.clone())
    }
}

/// Circular moving average of a closed sequence of points over `2 * half + 1` neighbours.
pub fn smooth_closed(points: &[PointMm], half: usize) -> Vec<PointMm> {
    let n = points.len();
    if n == 0 || half == 0 {
        return points.to_vec();
    }
    let k = (2 * half + 1) as f64;
    (0..n)
        .map(|i| {
            let mut acc = PointMm::default();
            for d in 0..=2 * half {
                let j = (i as isize + d as isize - half as isize).rem_euclid(n as isize);
                acc = acc + points[j as usize];
            }
            acc * (1.0 / k)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn circle(r: f64, n: usize) -> ClosedCurve {
        let pts: Vec<PointMm> = (0..n)
            .map(|k| {
                let a = std::f64::consts::TAU * k as f64 / n as f64;
                PointMm::new(r * a.cos(), r * a.sin())
            })
            .collect();
        ClosedCurve::new(&pts).unwrap()
    }

    #[test]
    fn arc_length_and_projection() {
        let c = circle(100.0, 720);
        assert!((c.perimeter() - std::f64::consts::TAU * 100.0).abs() < 0.1);
        let q = c.point_at(c.perimeter() / 4.0);
        assert!(q.distance(PointMm::new(0.0, 100.0)) < 0.1, "{q:?}");
        let (s, d) = c.project(PointMm::new(0.0, 90.0));
        assert!((s - c.perimeter() / 4.0).abs() < 0.2 && (d - 10.0).abs() < 0.1);
        // Counter-clockwise in (x, y): the left normal points inwards.
        let n = c.normal_at(0.0, 2.0);
        assert!(n.distance(PointMm::new(-1.0, 0.0)) < 1e-3, "{n:?}");
        assert!(c.signed_area() > 0.0 && c.reversed().signed_area() < 0.0);
        assert!((c.point_at(-1.0).distance(c.point_at(c.perimeter() - 1.0))) < 1e-9);
    }

    #[test]
    fn resampling_keeps_the_shape() {
        let c = circle(200.0, 360);
        let r = c.resampled(10.0);
        assert_eq!(r.len(), 126);
        assert!(r.iter().all(|p| (p.norm() - 200.0).abs() < 0.05));
        let s = smooth_closed(&r, 1);
        assert!(s.iter().all(|p| (p.norm() - 200.0).abs() < 0.2));
        assert!(ClosedCurve::new(&r[..2]).is_none());
    }
}
