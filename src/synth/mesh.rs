//! Triangulated solids for the rasteriser.
//!
//! Conventions: a solid is built in its **local frame** `(x, y, h)`: `x, y` in the piece's own
//! footprint frame (as `Shape::local_footprint`), `h` millimetres **up** from the table. Normals are
//! given explicitly (outward), never inferred from the winding, because `(x, y, h)` is left-handed
//! once mapped into the table frame. [`Part::placed`] maps a local solid into the table frame
//! (turned by the piece's angle, moved to its centre, lifted by its base height: table `z = -h`).

use super::light::Rgb;
use crate::table::PointMm;
use nalgebra::Vector3;

pub(crate) type V3 = Vector3<f64>;

/// One triangle with per-vertex normals and one colour (linear RGB albedo).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Tri {
    pub p: [V3; 3],
    pub n: [V3; 3],
    pub colour: Rgb,
}

/// How a part reacts to light.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Material {
    /// Strength of the specular highlight (plastic ~0.2, paper 0).
    pub specular: f32,
    pub shininess: i32,
    /// Low parts lying on the table (string, beads, crab, the board) are darkened by the planar
    /// shadows cast on the table.
    pub receives_shadow: bool,
    pub casts_shadow: bool,
    /// Skip triangles facing away from the camera (closed solids only).
    pub cull: bool,
}

impl Material {
    pub(crate) const PLASTIC: Material = Material {
        specular: 0.18,
        shininess: 24,
        receives_shadow: false,
        casts_shadow: true,
        cull: true,
    };
    pub(crate) const MATTE: Material = Material {
        specular: 0.04,
        shininess: 8,
        receives_shadow: false,
        casts_shadow: true,
        cull: true,
    };
    pub(crate) const SKIN: Material = Material {
        specular: 0.06,
        shininess: 10,
        receives_shadow: false,
        casts_shadow: true,
        cull: true,
    };

    pub(crate) fn receiving(self) -> Material {
        Material {
            receives_shadow: true,
            ..self
        }
    }

    pub(crate) fn two_sided(self) -> Material {
        Material { cull: false, ..self }
    }
}

/// A solid with one material.
#[derive(Debug, Clone)]
pub(crate) struct Part {
    pub tris: Vec<Tri>,
    pub material: Material,
}

impl Part {
    pub(crate) fn new(material: Material) -> Self {
        Self {
            tris: Vec::new(),
            material,
        }
    }

    /// This local-frame part placed on the table: turned by `angle` radians, moved to `center`,
    /// lifted by `base_mm`.
    pub(crate) fn placed(mut self, center: PointMm, angle: f64, base_mm: f64) -> Part {
        let (s, c) = angle.sin_cos();
        let point = |p: V3| {
            V3::new(
                c * p.x - s * p.y + center.x,
                s * p.x + c * p.y + center.y,
                -(p.z + base_mm),
            )
        };
        let normal = |n: V3| V3::new(c * n.x - s * n.y, s * n.x + c * n.y, -n.z);
        for t in &mut self.tris {
            t.p = t.p.map(point);
            t.n = t.n.map(normal);
        }
        self
    }

    /// Adds one triangle with explicit vertex normals.
    pub(crate) fn tri(&mut self, p: [V3; 3], n: [V3; 3], colour: Rgb) {
        self.tris.push(Tri { p, n, colour });
    }

    /// A quad `a b c d` (in order around its outline) as two triangles with per-vertex normals.
    pub(crate) fn quad(&mut self, p: [V3; 4], n: [V3; 4], colour: Rgb) {
        self.tri([p[0], p[1], p[2]], [n[0], n[1], n[2]], colour);
        self.tri([p[0], p[2], p[3]], [n[0], n[2], n[3]], colour);
    }

    pub(crate) fn extend(&mut self, other: Part) {
        self.tris.extend(other.tris);
    }

    /// A prism standing on `outline` from `h0` to `h1`. `top_outline` (same vertex count) gives a
    /// tapered top; `smooth` shades the sides as a round surface. The top is capped with `top`
    /// when given; the bottom is never visible and is not built.
    pub(crate) fn prism(&mut self, spec: &Prism<'_>) {
        let mut bottom: Vec<PointMm> = spec.outline.to_vec();
        let mut top: Vec<PointMm> = spec
            .top_outline
            .map(|t| t.to_vec())
            .unwrap_or_else(|| bottom.clone());
        if bottom.len() < 3 || top.len() != bottom.len() {
            return;
        }
        if signed_area(&bottom) < 0.0 {
            bottom.reverse();
            top.reverse();
        }
        let n = bottom.len();
        let (h0, h1) = (spec.h0, spec.h1);
        // Outward horizontal normal of each edge of a counter-clockwise outline (x right, y up).
        let edge_normal = |i: usize| {
            let a = bottom[i];
            let b = bottom[(i + 1) % n];
            let d = b - a;
            V3::new(d.y, -d.x, 0.0)
                .try_normalize(1e-12)
                .unwrap_or(V3::new(1.0, 0.0, 0.0))
        };
        let face_normal = |i: usize| {
            let j = (i + 1) % n;
            let b0 = V3::new(bottom[i].x, bottom[i].y, h0);
            let b1 = V3::new(bottom[j].x, bottom[j].y, h0);
            let t0 = V3::new(top[i].x, top[i].y, h1);
            let out = edge_normal(i);
            let mut f = (b1 - b0).cross(&(t0 - b0));
            if f.dot(&out) < 0.0 {
                f = -f;
            }
            f.try_normalize(1e-12).unwrap_or(out)
        };
        let faces: Vec<V3> = (0..n).map(face_normal).collect();
        for i in 0..n {
            let j = (i + 1) % n;
            let p = [
                V3::new(bottom[i].x, bottom[i].y, h0),
                V3::new(bottom[j].x, bottom[j].y, h0),
                V3::new(top[j].x, top[j].y, h1),
                V3::new(top[i].x, top[i].y, h1),
            ];
            let nn = if spec.smooth {
                let ni = (faces[i] + faces[(i + n - 1) % n]).normalize();
                let nj = (faces[i] + faces[j]).normalize();
                [ni, nj, nj, ni]
            } else {
                [faces[i]; 4]
            };
            self.quad(p, nn, spec.side);
        }
        if let Some(top_colour) = spec.top {
            let up = V3::new(0.0, 0.0, 1.0);
            for [a, b, c] in triangulate(&top) {
                let p = [
                    V3::new(top[a].x, top[a].y, h1),
                    V3::new(top[b].x, top[b].y, h1),
                    V3::new(top[c].x, top[c].y, h1),
                ];
                self.tri(p, [up; 3], top_colour);
            }
        }
    }

    /// Upper half of an ellipsoid with semi-axes `radii.x, radii.y` standing at height `base`,
    /// `radii.z` tall, with `rings x segs` facets.
    pub(crate) fn dome(&mut self, radii: V3, base: f64, colour: Rgb, (rings, segs): (usize, usize)) {
        let (rx, ry, height) = (radii.x, radii.y, radii.z);
        let at = |ti: usize, si: usize| {
            let theta = std::f64::consts::FRAC_PI_2 * ti as f64 / rings as f64;
            let phi = std::f64::consts::TAU * si as f64 / segs as f64;
            let p = V3::new(
                rx * theta.sin() * phi.cos(),
                ry * theta.sin() * phi.sin(),
                base + height * theta.cos(),
            );
            let n = V3::new(p.x / (rx * rx), p.y / (ry * ry), (p.z - base) / (height * height));
            (p, n.try_normalize(1e-12).unwrap_or(V3::new(0.0, 0.0, 1.0)))
        };
        self.grid(rings, segs, colour, at);
    }

    /// A full ellipsoid centred at `c` with semi-axes `r`.
    pub(crate) fn ellipsoid(&mut self, c: V3, r: V3, colour: Rgb, rings: usize, segs: usize) {
        let at = |ti: usize, si: usize| {
            let theta = std::f64::consts::PI * ti as f64 / rings as f64;
            let phi = std::f64::consts::TAU * si as f64 / segs as f64;
            let d = V3::new(theta.sin() * phi.cos(), theta.sin() * phi.sin(), theta.cos());
            let p = c + V3::new(r.x * d.x, r.y * d.y, r.z * d.z);
            let n = V3::new(d.x / r.x, d.y / r.y, d.z / r.z);
            (p, n.try_normalize(1e-12).unwrap_or(d))
        };
        self.grid(rings, segs, colour, at);
    }

    /// A (rings x segs) parametric patch: `at(ring, seg)` gives point and normal; segs wrap.
    fn grid(&mut self, rings: usize, segs: usize, colour: Rgb, at: impl Fn(usize, usize) -> (V3, V3)) {
        for ti in 0..rings {
            for si in 0..segs {
                let (p00, n00) = at(ti, si);
                let (p01, n01) = at(ti, (si + 1) % segs);
                let (p10, n10) = at(ti + 1, si);
                let (p11, n11) = at(ti + 1, (si + 1) % segs);
                if (p00 - p01).norm_squared() > 1e-12 {
                    self.tri([p00, p10, p01], [n00, n10, n01], colour);
                }
                if (p10 - p11).norm_squared() > 1e-12 {
                    self.tri([p01, p10, p11], [n01, n10, n11], colour);
                }
            }
        }
    }

    /// A round frustum (cylinder when `r0 == r1`) on the local origin from `h0` to `h1`.
    pub(crate) fn frustum(
        &mut self,
        (r0, r1): (f64, f64),
        (h0, h1): (f64, f64),
        side: Rgb,
        top: Option<Rgb>,
        segs: usize,
    ) {
        let ring = |r: f64| -> Vec<PointMm> {
            (0..segs)
                .map(|i| {
                    let a = std::f64::consts::TAU * i as f64 / segs as f64;
                    PointMm::new(r * a.cos(), r * a.sin())
                })
                .collect()
        };
        let bottom = ring(r0);
        let upper = ring(r1);
        self.prism(&Prism {
            outline: &bottom,
            top_outline: Some(&upper),
            h0,
            h1,
            side,
            top,
            smooth: true,
        });
    }

    /// A cylinder of radius `r` between two points (for arms and fingers), with round ends.
    pub(crate) fn capsule(&mut self, a: V3, b: V3, r: f64, colour: Rgb, segs: usize) {
        let axis = b - a;
        let len = axis.norm();
        if len < 1e-9 {
            return;
        }
        let w = axis / len;
        let helper = if w.z.abs() < 0.9 {
            V3::new(0.0, 0.0, 1.0)
        } else {
            V3::new(1.0, 0.0, 0.0)
        };
        let u = w.cross(&helper).normalize();
        let v = w.cross(&u);
        for i in 0..segs {
            let a0 = std::f64::consts::TAU * i as f64 / segs as f64;
            let a1 = std::f64::consts::TAU * (i + 1) as f64 / segs as f64;
            let n0 = u * a0.cos() + v * a0.sin();
            let n1 = u * a1.cos() + v * a1.sin();
            self.quad(
                [a + n0 * r, a + n1 * r, b + n1 * r, b + n0 * r],
                [n0, n1, n1, n0],
                colour,
            );
        }
        self.ellipsoid(a, V3::new(r, r, r), colour, 4, segs);
        self.ellipsoid(b, V3::new(r, r, r), colour, 4, segs);
    }

    /// A tube of radius `r` along a closed 3D polyline (the string).
    pub(crate) fn closed_tube(&mut self, path: &[V3], r: f64, colour: Rgb, sides: usize) {
        let n = path.len();
        if n < 3 {
            return;
        }
        let frame = |i: usize| {
            let t = (path[(i + 1) % n] - path[(i + n - 1) % n])
                .try_normalize(1e-12)
                .unwrap_or(V3::new(1.0, 0.0, 0.0));
            let up = V3::new(0.0, 0.0, 1.0);
            let side = t
                .cross(&up)
                .try_normalize(1e-12)
                .unwrap_or(V3::new(0.0, 1.0, 0.0));
            let normal = side.cross(&t);
            (side, normal)
        };
        let frames: Vec<(V3, V3)> = (0..n).map(frame).collect();
        for i in 0..n {
            let j = (i + 1) % n;
            for k in 0..sides {
                let a0 = std::f64::consts::TAU * k as f64 / sides as f64;
                let a1 = std::f64::consts::TAU * (k + 1) as f64 / sides as f64;
                let dir = |f: (V3, V3), a: f64| f.0 * a.cos() + f.1 * a.sin();
                let (ni0, ni1) = (dir(frames[i], a0), dir(frames[i], a1));
                let (nj0, nj1) = (dir(frames[j], a0), dir(frames[j], a1));
                self.quad(
                    [
                        path[i] + ni0 * r,
                        path[i] + ni1 * r,
                        path[j] + nj1 * r,
                        path[j] + nj0 * r,
                    ],
                    [ni0, ni1, nj1, nj0],
                    colour,
                );
            }
        }
    }

    /// A solid of revolution about the local x axis at height `axis_h`: `profile` is `(x, radius)`
    /// from one end to the other (radius 0 at a closed end).
    pub(crate) fn lathe_x(&mut self, profile: &[(f64, f64)], axis_h: f64, colour: Rgb, segs: usize) {
        if profile.len() < 2 {
            return;
        }
        let at = |k: usize, s: usize| {
            let (x, r) = profile[k];
            let a = std::f64::consts::TAU * s as f64 / segs as f64;
            let radial = V3::new(0.0, a.cos(), a.sin());
            let prev = profile[k.saturating_sub(1)];
            let next = profile[(k + 1).min(profile.len() - 1)];
            // Profile slope dr/dx tilts the normal along x.
            let slope = (next.1 - prev.1) / (next.0 - prev.0).abs().max(1e-9);
            let n = (radial - V3::new(slope * (next.0 - prev.0).signum(), 0.0, 0.0))
                .try_normalize(1e-12)
                .unwrap_or(radial);
            (V3::new(x, r * a.cos(), axis_h + r * a.sin()), n)
        };
        self.grid(profile.len() - 1, segs, colour, at);
    }
}

/// Parameters of [`Part::prism`].
#[derive(Debug, Clone)]
pub(crate) struct Prism<'a> {
    pub outline: &'a [PointMm],
    pub top_outline: Option<&'a [PointMm]>,
    pub h0: f64,
    pub h1: f64,
    pub side: Rgb,
    pub top: Option<Rgb>,
    pub smooth: bool,
}

impl<'a> Prism<'a> {
    pub(crate) fn new(outline: &'a [PointMm], h0: f64, h1: f64, colour: Rgb) -> Self {
        Self {
            outline,
            top_outline: None,
            h0,
            h1,
            side: colour,
            top: Some(colour),
            smooth: false,
        }
    }
}

/// Signed area of a polygon (positive counter-clockwise with y up).
pub(crate) fn signed_area(p: &[PointMm]) -> f64 {
    let n = p.len();
    (0..n).map(|i| p[i].cross(p[(i + 1) % n])).sum::<f64>() / 2.0
}

/// The outline shrunk towards its centroid by `inset` millimetres (approximately: each vertex moves
/// `inset` along the direction to the vertex mean).
pub(crate) fn inset(outline: &[PointMm], inset_mm: f64) -> Vec<PointMm> {
    let n = outline.len().max(1) as f64;
    let c = outline.iter().fold(PointMm::default(), |a, &p| a + p) * (1.0 / n);
    outline
        .iter()
        .map(|&p| {
            let d = p - c;
            let len = d.norm();
            if len <= inset_mm || len < 1e-9 {
                c + d * 0.1
            } else {
                c + d * ((len - inset_mm) / len)
            }
        })
        .collect()
}

/// Ear-clipping triangulation of a simple polygon (either winding). Returns vertex index triples.
pub(crate) fn triangulate(poly: &[PointMm]) -> Vec<[usize; 3]> {
    let n = poly.len();
    if n < 3 {
        return Vec::new();
    }
    let ccw = signed_area(poly) > 0.0;
    let mut idx: Vec<usize> = (0..n).collect();
    if !ccw {
        idx.reverse();
    }
    let mut out = Vec::with_capacity(n - 2);
    let mut guard = 0;
    while idx.len() > 3 && guard < n * n {
        guard += 1;
        let m = idx.len();
        let mut clipped = false;
        for i in 0..m {
            let (ia, ib, ic) = (idx[(i + m - 1) % m], idx[i], idx[(i + 1) % m]);
            let (a, b, c) = (poly[ia], poly[ib], poly[ic]);
            if (b - a).cross(c - b) <= 1e-12 {
                continue; // reflex or degenerate corner
            }
            let contains_other = idx
                .iter()
                .any(|&k| k != ia && k != ib && k != ic && point_in_triangle(poly[k], a, b, c));
            if contains_other {
                continue;
            }
            out.push([ia, ib, ic]);
            idx.remove(i);
            clipped = true;
            break;
        }
        if !clipped {
            break;
        }
    }
    if idx.len() == 3 {
        out.push([idx[0], idx[1], idx[2]]);
    } else if idx.len() > 3 {
        // Not simple (should not happen for catalog outlines): fan the rest.
        for k in 1..idx.len() - 1 {
            out.push([idx[0], idx[k], idx[k + 1]]);
        }
    }
    out
}

fn point_in_triangle(p: PointMm, a: PointMm, b: PointMm, c: PointMm) -> bool {
    let d1 = (b - a).cross(p - a);
    let d2 = (c - b).cross(p - b);
    let d3 = (a - c).cross(p - c);
    d1 >= 0.0 && d2 >= 0.0 && d3 >= 0.0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::table::{Catalog, PieceKind};

    fn area(tris: &[[usize; 3]], p: &[PointMm]) -> f64 {
        tris.iter()
            .map(|t| ((p[t[1]] - p[t[0]]).cross(p[t[2]] - p[t[0]]) / 2.0).abs())
            .sum()
    }

    #[test]
    fn triangulation_covers_concave_outlines() {
        let c = Catalog::default_catalog();
        for kind in [
            PieceKind::Anchor,
            PieceKind::Tentacle,
            PieceKind::Ship,
            PieceKind::Island,
        ] {
            let e = c.piece(kind, None).unwrap();
            let outline = e.shape.local_footprint();
            let tris = triangulate(&outline);
            assert_eq!(tris.len(), outline.len() - 2, "{kind}");
            let a = area(&tris, &outline);
            assert!((a - signed_area(&outline).abs()).abs() < 1e-6, "{kind}: {a}");
        }
    }

    #[test]
    fn placed_parts_stand_above_the_table() {
        let mut p = Part::new(Material::PLASTIC);
        p.dome(V3::new(10.0, 10.0, 5.0), 0.0, [0.5; 3], (4, 8));
        let p = p.placed(PointMm::new(100.0, 50.0), 0.3, 18.0);
        for t in &p.tris {
            for (v, n) in t.p.iter().zip(t.n.iter()) {
                assert!(v.z <= -18.0 + 1e-9 && v.z >= -23.0 - 1e-9);
                assert!((v.x - 100.0).hypot(v.y - 50.0) <= 10.0 + 1e-9);
                // Dome normals point up (negative table z) or sideways.
                assert!(n.z <= 1e-9);
            }
        }
    }

    #[test]
    fn prism_side_normals_point_outwards() {
        let sq = [
            PointMm::new(-1.0, -1.0),
            PointMm::new(-1.0, 1.0),
            PointMm::new(1.0, 1.0),
            PointMm::new(1.0, -1.0),
        ];
        let mut p = Part::new(Material::PLASTIC);
        p.prism(&Prism::new(&sq, 0.0, 2.0, [1.0; 3]));
        for t in &p.tris {
            let c = (t.p[0] + t.p[1] + t.p[2]) / 3.0;
            let outward = V3::new(c.x, c.y, c.z - 1.0);
            assert!(t.n[0].dot(&outward) > 0.0, "{:?}", t);
        }
    }
}
