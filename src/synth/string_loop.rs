//! The blue string loop: a smooth, irregular, ellipse-like closed curve laid on the table.
//!
//! Conventions: points in the table frame, millimetres. The centre line is a closed polyline with
//! vertices about [`VERTEX_SPACING_MM`] apart; the closing edge is implied. Arc length `s` runs
//! from vertex 0 in vertex order and wraps at the perimeter. The Octo-Counter runs along
//! increasing `s` (start = blue end first).

use super::random::uniform;
use crate::table::{PointMm, PolygonMm};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

/// Length of the laid loop (its centre line), mm. The physical string is ~2.4 m; users lay
/// part of it doubled or tied, so the ocean's perimeter is somewhat shorter or equal.
pub const PERIMETER_RANGE_MM: (f64, f64) = (1900.0, 2400.0);
/// Short axis / long axis of the underlying ellipse: never a circle, never a sausage.
pub const ASPECT_RANGE: (f64, f64) = (0.55, 0.85);
/// Largest relative amplitude of each of the 2nd..4th harmonic wobbles of the radius.
pub const WOBBLE_MAX: f64 = 0.06;
/// Spacing of the centre line's vertices, mm (chord error < 0.1 mm at 20 cm curvature radius).
pub const VERTEX_SPACING_MM: f64 = 10.0;
/// Samples used to measure the raw curve before resampling it by arc length.
const DENSE_SAMPLES: usize = 4096;

/// The string's centre line.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StringLoop {
    /// Closed centre line (vertex order = counter direction).
    pub centre_line_mm: PolygonMm,
    pub perimeter_mm: f64,
    /// Cord thickness, mm.
    pub thickness_mm: f64,
    /// Arc length at each vertex.
    #[serde(skip)]
    cumulative: Vec<f64>,
}

/// The shape parameters of a loop before it is placed.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct LoopShape {
    pub perimeter_mm: f64,
    pub aspect: f64,
    /// `(amplitude, phase)` of harmonics 2, 3, 4.
    pub wobble: [(f64, f64); 3],
    /// Rotation of the long axis from table +x, radians.
    pub rotation: f64,
}

impl LoopShape {
    pub(crate) fn sample(rng: &mut ChaCha8Rng) -> Self {
        let mut wobble = [(0.0, 0.0); 3];
        for w in &mut wobble {
            *w = (
                uniform(rng, 0.0, WOBBLE_MAX),
                uniform(rng, 0.0, std::f64::consts::TAU),
            );
        }
        Self {
            perimeter_mm: uniform(rng, PERIMETER_RANGE_MM.0, PERIMETER_RANGE_MM.1),
            aspect: uniform(rng, ASPECT_RANGE.0, ASPECT_RANGE.1),
            wobble,
            rotation: uniform(rng, 0.0, std::f64::consts::PI),
        }
    }
}

impl StringLoop {
    /// The loop of `shape` centred (by its parameter origin) on `centre`.
    pub(crate) fn from_shape(shape: &LoopShape, centre: PointMm, thickness_mm: f64) -> Self {
        let raw: Vec<PointMm> = (0..DENSE_SAMPLES)
            .map(|i| {
                let phi = std::f64::consts::TAU * i as f64 / DENSE_SAMPLES as f64;
                let mut r = 1.0;
                for (k, &(amp, phase)) in shape.wobble.iter().enumerate() {
                    r += amp * ((k as f64 + 2.0) * phi + phase).cos();
                }
                PointMm::new(r * phi.cos(), shape.aspect * r * phi.sin())
            })
            .collect();
        let raw_perimeter = PolygonMm(raw.clone()).perimeter();
        let k = shape.perimeter_mm / raw_perimeter.max(1e-9);
        let placed: Vec<PointMm> = raw
            .iter()
            .map(|&p| (p * k).rotated(shape.rotation) + centre)
            .collect();
        let n = (shape.perimeter_mm / VERTEX_SPACING_MM).round().max(16.0) as usize;
        let dense = Self::with_points(placed, thickness_mm);
        let points = (0..n)
            .map(|i| dense.point_at(dense.perimeter_mm * i as f64 / n as f64))
            .collect();
        Self::with_points(points, thickness_mm)
    }

    /// A loop through these points (closed), e.g. read back from `truth.json`.
    pub fn with_points(points: Vec<PointMm>, thickness_mm: f64) -> Self {
        let poly = PolygonMm(points);
        let mut cumulative = Vec::with_capacity(poly.len() + 1);
        let mut s = 0.0;
        cumulative.push(0.0);
        for (a, b) in poly.edges() {
            s += a.distance(b);
            cumulative.push(s);
        }
        Self {
            centre_line_mm: poly,
            perimeter_mm: s,
            thickness_mm,
            cumulative,
        }
    }

    fn ensure_cumulative(&self) -> std::borrow::Cow<'_, [f64]> {
        if self.cumulative.len() == self.centre_line_mm.len() + 1 {
            std::borrow::Cow::Borrowed(&self.cumulative)
        } else {
            std::borrow::Cow::Owned(
                Self::with_points(self.centre_line_mm.0.clone(), self.thickness_mm).cumulative,
            )
        }
    }

    /// The point at arc length `s` (wraps around).
    pub fn point_at(&self, s: f64) -> PointMm {
        self.locate(s).0
    }

    /// The unit tangent (direction of increasing `s`) at arc length `s`.
    pub fn tangent_at(&self, s: f64) -> PointMm {
        self.locate(s).1
    }

    fn locate(&self, s: f64) -> (PointMm, PointMm) {
        let pts = self.centre_line_mm.points();
        let n = pts.len();
        if n < 2 || self.perimeter_mm <= 0.0 {
            return (pts.first().copied().unwrap_or_default(), PointMm::new(1.0, 0.0));
        }
        let cum = self.ensure_cumulative();
        let s = s.rem_euclid(self.perimeter_mm);
        let i = match cum.binary_search_by(|c| c.total_cmp(&s)) {
            Ok(i) => i.min(n - 1),
            Err(i) => i.saturating_sub(1).min(n - 1),
        };
        let a = pts[i];
        let b = pts[(i + 1) % n];
        let len = cum[i + 1] - cum[i];
        let t = if len > 0.0 { (s - cum[i]) / len } else { 0.0 };
        let d = b - a;
        let tangent = if len > 0.0 {
            d * (1.0 / len)
        } else {
            PointMm::new(1.0, 0.0)
        };
        (a + d * t, tangent)
    }

    /// The unit normal pointing out of the ocean at arc length `s`.
    pub fn outward_normal_at(&self, s: f64) -> PointMm {
        let t = self.tangent_at(s);
        // For a counter-clockwise loop (positive signed area, y up) the outside is on the right.
        let right = PointMm::new(t.y, -t.x);
        if self.centre_line_mm.signed_area() > 0.0 {
            right
        } else {
            right * -1.0
        }
    }

    /// The ocean: the region inside the centre line.
    pub fn ocean(&self) -> &PolygonMm {
        &self.centre_line_mm
    }

    /// Arc length of the centre line point nearest to `p`.
    pub fn project(&self, p: PointMm) -> f64 {
        let pts = self.centre_line_mm.points();
        let n = pts.len();
        let cum = self.ensure_cumulative();
        let mut best = (f64::INFINITY, 0.0);
        for i in 0..n {
            let a = pts[i];
            let b = pts[(i + 1) % n];
            let d = b - a;
            let len2 = d.dot(d);
            let t = if len2 > 0.0 {
                ((p - a).dot(d) / len2).clamp(0.0, 1.0)
            } else {
                0.0
            };
            let q = a + d * t;
            let dist = q.distance(p);
            if dist < best.0 {
                best = (dist, cum[i] + t * len2.sqrt());
            }
        }
        best.1
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::synth::random::{Purpose, stream};

    #[test]
    fn loops_have_the_requested_perimeter_and_are_not_circles() {
        for seed in 0..20 {
            let mut rng = stream(seed, Purpose::StringLoop, 0);
            let shape = LoopShape::sample(&mut rng);
            let l = StringLoop::from_shape(&shape, PointMm::new(140.0, 100.0), 4.0);
            assert!(
                (l.perimeter_mm - shape.perimeter_mm).abs() < 5.0,
                "{}",
                l.perimeter_mm
            );
            let c = l.ocean().centroid();
            let radii: Vec<f64> = l.ocean().points().iter().map(|p| p.distance(c)).collect();
            let max = radii.iter().cloned().fold(0.0, f64::max);
            let min = radii.iter().cloned().fold(f64::MAX, f64::min);
            assert!(min / max < 0.9, "too round: {min} / {max}");
            assert!(l.ocean().contains(c));
        }
    }

    #[test]
    fn arc_length_walks_along_the_line() {
        let mut rng = stream(5, Purpose::StringLoop, 0);
        let l = StringLoop::from_shape(&LoopShape::sample(&mut rng), PointMm::new(0.0, 0.0), 4.0);
        let a = l.point_at(100.0);
        let b = l.point_at(110.0);
        assert!((a.distance(b) - 10.0).abs() < 0.2);
        assert!((l.project(a) - 100.0).abs() < 0.5);
        assert!(l.point_at(l.perimeter_mm + 100.0).distance(a) < 1e-9);
        let out = l.point_at(100.0) + l.outward_normal_at(100.0) * 20.0;
        assert!(!l.ocean().contains(out));
        let inside = l.point_at(100.0) - l.outward_normal_at(100.0) * 20.0;
        assert!(l.ocean().contains(inside));
    }
}
