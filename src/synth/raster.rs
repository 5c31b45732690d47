//! The z-buffered triangle rasteriser and the table pass.
//!
//! Conventions: the canvas is an **undistorted** pinhole image; pixel `(u, v)` has its centre at
//! integer coordinates (OpenCV's convention, so projected truth and detected corners agree). The
//! canvas may be larger than the output frame and shifted by `offset_px` (when lens distortion is
//! remapped afterwards, see `sensor.rs`). Depth is the camera-frame z in millimetres; `INFINITY`
//! means "nothing but the table". Colours are linear RGB.

use super::light::{Light, Rgb};
use super::mesh::{Part, Tri, V3, triangulate};
use crate::table::{Camera, PointMm, PolygonMm};
use nalgebra::Matrix3;

/// Triangles whose vertices come closer than this to the camera plane are dropped.
const NEAR_MM: f64 = 10.0;

/// Where the canvas lies relative to the camera's output frame.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct CanvasGeometry {
    pub width: usize,
    pub height: usize,
    /// Canvas pixel = output pixel (undistorted) + offset.
    pub offset_px: [f64; 2],
}

/// The camera as seen by the rasteriser: undistorted projection into the canvas.
#[derive(Debug, Clone)]
pub(crate) struct View {
    r: Matrix3<f64>,
    t: V3,
    fx: f64,
    fy: f64,
    cx: f64,
    cy: f64,
    /// Camera centre in the table frame.
    pub eye: V3,
    /// Canvas pixel -> table plane (homogeneous).
    to_table: Matrix3<f64>,
}

impl View {
    pub(crate) fn new(camera: &Camera, canvas: CanvasGeometry) -> Self {
        let r = camera.pose.rotation().into_inner();
        let t = camera.pose.translation();
        let k = &camera.intrinsics;
        let (fx, fy) = (k.fx, k.fy);
        let cx = k.cx + canvas.offset_px[0];
        let cy = k.cy + canvas.offset_px[1];
        let kmat = Matrix3::new(fx, 0.0, cx, 0.0, fy, cy, 0.0, 0.0, 1.0);
        let h = kmat * Matrix3::from_columns(&[r.column(0).into_owned(), r.column(1).into_owned(), t]);
        let to_table = h.try_inverse().unwrap_or_else(Matrix3::zeros);
        let eye = -(r.transpose() * t);
        Self {
            r,
            t,
            fx,
            fy,
            cx,
            cy,
            eye,
            to_table,
        }
    }

    /// Canvas pixel and depth (mm) of a table-frame point; `None` behind or too near the camera.
    pub(crate) fn project(&self, p: &V3) -> Option<[f64; 3]> {
        let c = self.r * p + self.t;
        if c.z < NEAR_MM {
            return None;
        }
        Some([self.fx * c.x / c.z + self.cx, self.fy * c.y / c.z + self.cy, c.z])
    }

    /// The table point (z = 0) seen at canvas pixel `(u, v)`.
    pub(crate) fn pixel_to_table(&self, u: f64, v: f64) -> Option<PointMm> {
        let m = &self.to_table;
        let x = m[(0, 0)] * u + m[(0, 1)] * v + m[(0, 2)];
        let y = m[(1, 0)] * u + m[(1, 1)] * v + m[(1, 2)];
        let w = m[(2, 0)] * u + m[(2, 1)] * v + m[(2, 2)];
        if w.abs() < 1e-12 {
            return None;
        }
        Some(PointMm::new(x / w, y / w))
    }

    /// Approximate pixels per millimetre on the table around `p`.
    pub(crate) fn px_per_mm_at(&self, p: PointMm) -> f64 {
        let a = self.project(&V3::new(p.x, p.y, 0.0));
        let b = self.project(&V3::new(p.x + 1.0, p.y, 0.0));
        match (a, b) {
            (Some(a), Some(b)) => (a[0] - b[0]).hypot(a[1] - b[1]),
            _ => 1.0,
        }
    }
}

/// The light as the shader needs it.
#[derive(Debug, Clone)]
pub(crate) struct Shading<'a> {
    pub to_light: V3,
    pub key: Rgb,
    pub ambient: Rgb,
    pub light: &'a Light,
}

impl<'a> Shading<'a> {
    pub(crate) fn new(light: &'a Light) -> Self {
        Self {
            to_light: light.to_light(),
            key: light.key_rgb(),
            ambient: light.ambient_rgb(),
            light,
        }
    }
}

/// Colour, depth and shadow buffers of one canvas.
#[derive(Debug, Clone)]
pub(crate) struct Raster {
    pub width: usize,
    pub height: usize,
    pub colour: Vec<Rgb>,
    pub depth: Vec<f32>,
    /// Fraction of the key light blocked on the table (0 = lit, 1 = full shadow), blurred.
    pub shadow: Vec<f32>,
    /// Fraction of the ambient light blocked on the table next to pieces (contact shadows).
    pub occlusion: Vec<f32>,
}

impl Raster {
    pub(crate) fn new(width: usize, height: usize) -> Self {
        let n = width * height;
        Self {
            width,
            height,
            colour: vec![[0.0; 3]; n],
            depth: vec![f32::INFINITY; n],
            shadow: vec![0.0; n],
            occlusion: vec![0.0; n],
        }
    }

    /// Rasterises the footprints of pieces standing on the table into the (unblurred) occlusion
    /// mask: blurred, it darkens the ambient light around their bases.
    pub(crate) fn occlude(&mut self, view: &View, footprints: &[PolygonMm]) {
        for fp in footprints {
            let pts: Vec<[f64; 3]> = fp
                .points()
                .iter()
                .filter_map(|p| view.project(&V3::new(p.x, p.y, 0.0)))
                .collect();
            if pts.len() != fp.len() || pts.len() < 3 {
                continue;
            }
            for [a, b, c] in triangulate(fp.points()) {
                fill_triangle(
                    &mut self.occlusion,
                    self.width,
                    self.height,
                    [pts[a], pts[b], pts[c]],
                );
            }
        }
    }

    /// Rasterises the planar shadows that `parts` cast on the table into the (unblurred) mask.
    pub(crate) fn cast_shadows(&mut self, view: &View, to_light: &V3, parts: &[Part]) {
        let down = -to_light;
        if down.z < 1e-3 {
            return;
        }
        for part in parts.iter().filter(|p| p.material.casts_shadow) {
            for t in &part.tris {
                let q = t.p.map(|p| p - down * (p.z / down.z));
                let (Some(a), Some(b), Some(c)) =
                    (view.project(&q[0]), view.project(&q[1]), view.project(&q[2]))
                else {
                    continue;
                };
                fill_triangle(&mut self.shadow, self.width, self.height, [a, b, c]);
            }
        }
    }

    /// Draws one part with Lambert + ambient + a specular highlight.
    pub(crate) fn draw_part(&mut self, view: &View, shading: &Shading<'_>, part: &Part) {
        let m = part.material;
        let l = shading.to_light;
        let (width, height) = (self.width, self.height);
        for_each_fragment(view, part, width, height, |f| {
            let idx = f.idx;
            if f.z >= self.depth[idx] {
                return;
            }
            let t = f.tri;
            let pw = f.perspective_weights();
            let pos = t.p[0] * pw[0] + t.p[1] * pw[1] + t.p[2] * pw[2];
            let mut n = (t.n[0] * pw[0] + t.n[1] * pw[1] + t.n[2] * pw[2])
                .try_normalize(1e-12)
                .unwrap_or(t.n[0]);
            let to_eye = (view.eye - pos)
                .try_normalize(1e-12)
                .unwrap_or(V3::new(0.0, 0.0, -1.0));
            if !m.cull && n.dot(&to_eye) < 0.0 {
                n = -n;
            }
            let lit = if m.receives_shadow {
                1.0 - self.shadow[idx]
            } else {
                1.0
            };
            let diffuse = (n.dot(&l).max(0.0) as f32) * lit;
            let half = (l + to_eye).try_normalize(1e-12).unwrap_or(n);
            let spec = if diffuse > 0.0 {
                m.specular * (n.dot(&half).max(0.0) as f32).powi(m.shininess) * lit
            } else {
                0.0
            };
            let fall = shading.light.falloff(pos.x, pos.y);
            self.colour[idx] = std::array::from_fn(|ch| {
                (t.colour[ch] * (shading.ambient[ch] + shading.key[ch] * diffuse) + shading.key[ch] * spec)
                    * fall
            });
            self.depth[idx] = f.z;
        });
    }

    /// Shades every pixel where only the table is seen. `albedo(x, y, mm_per_px)` gives the
    /// table's colour at a table point as seen by a pixel of that size; where `supersample(x, y)` is true the pixel averages an 8 x 8 grid of samples
    /// (the printed board needs it for sub-pixel corners).
    pub(crate) fn draw_table(
        &mut self,
        view: &View,
        shading: &Shading<'_>,
        albedo: &dyn Fn(f64, f64, f64) -> Rgb,
        supersample: &dyn Fn(f64, f64) -> bool,
    ) {
        const SUB: usize = 8;
        let cos_table = (-shading.to_light.z).max(0.0) as f32;
        for y in 0..self.height {
            for x in 0..self.width {
                let idx = y * self.width + x;
                if self.depth[idx].is_finite() {
                    continue;
                }
                let Some(p) = view.pixel_to_table(x as f64, y as f64) else {
                    continue;
                };
                let mm_per_px = view
                    .pixel_to_table(x as f64 + 1.0, y as f64)
                    .map(|q| (q - p).dot(q - p).sqrt())
                    .unwrap_or(1.0);
                let a = if supersample(p.x, p.y) {
                    let mut acc = [0.0f32; 3];
                    for sy in 0..SUB {
                        for sx in 0..SUB {
                            let u = x as f64 + (sx as f64 + 0.5) / SUB as f64 - 0.5;
                            let v = y as f64 + (sy as f64 + 0.5) / SUB as f64 - 0.5;
                            if let Some(q) = view.pixel_to_table(u, v) {
                                let c = albedo(q.x, q.y, mm_per_px / SUB as f64);
                                for (a, v) in acc.iter_mut().zip(c) {
                                    *a += v;
                                }
                            }
                        }
                    }
                    acc.map(|v| v / (SUB * SUB) as f32)
                } else {
                    albedo(p.x, p.y, mm_per_px)
                };
                let lit = cos_table * (1.0 - self.shadow[idx]);
                let open = 1.0 - self.occlusion[idx];
                let fall = shading.light.falloff(p.x, p.y);
                self.colour[idx] = std::array::from_fn(|ch| {
                    a[ch] * (shading.ambient[ch] * open + shading.key[ch] * lit) * fall
                });
            }
        }
    }
}

/// One canvas pixel a triangle covers: its index, depth and barycentric weights.
struct Fragment<'a> {
    idx: usize,
    z: f32,
    tri: &'a Tri,
    /// Screen-space barycentric weights of the triangle's vertices.
    w: [f64; 3],
    inv_z: [f64; 3],
    iz: f64,
}

impl Fragment<'_> {
    /// The vertices' weights corrected for perspective (they sum to 1 in the triangle's plane).
    fn perspective_weights(&self) -> [f64; 3] {
        std::array::from_fn(|k| self.w[k] * self.inv_z[k] / self.iz)
    }
}

/// Calls `f` for every canvas pixel whose centre lies inside one of `part`'s triangles (back
/// faces skipped where the material culls them), in triangle order, with no depth test.
fn for_each_fragment(view: &View, part: &Part, width: usize, height: usize, mut f: impl FnMut(Fragment<'_>)) {
    for t in &part.tris {
        if part.material.cull {
            let n = t.n[0] + t.n[1] + t.n[2];
            let c = (t.p[0] + t.p[1] + t.p[2]) / 3.0;
            if n.dot(&(view.eye - c)) < 0.0 {
                continue;
            }
        }
        let (Some(a), Some(b), Some(c)) = (
            view.project(&t.p[0]),
            view.project(&t.p[1]),
            view.project(&t.p[2]),
        ) else {
            continue;
        };
        let pr = [a, b, c];
        let area = edge(pr[0], pr[1], pr[2]);
        if area.abs() < 1e-9 {
            continue;
        }
        let Some((x0, x1, y0, y1)) = bbox(&pr, width, height) else {
            continue;
        };
        let inv_z = [1.0 / pr[0][2], 1.0 / pr[1][2], 1.0 / pr[2][2]];
        for y in y0..=y1 {
            let py = y as f64;
            for x in x0..=x1 {
                let p = [x as f64, py, 0.0];
                let w0 = edge(pr[1], pr[2], p) / area;
                let w1 = edge(pr[2], pr[0], p) / area;
                let w2 = 1.0 - w0 - w1;
                if w0 < 0.0 || w1 < 0.0 || w2 < 0.0 {
                    continue;
                }
                let iz = w0 * inv_z[0] + w1 * inv_z[1] + w2 * inv_z[2];
                f(Fragment {
                    idx: y * width + x,
                    z: (1.0 / iz) as f32,
                    tri: t,
                    w: [w0, w1, w2],
                    inv_z,
                    iz,
                });
            }
        }
    }
}

/// What share of each piece's image the camera sees: `pieces[i]` are piece `i`'s parts, and
/// `occluders` everything else that can stand in front of a piece (the counter, a hand). A
/// piece's share is the pixels where it is the nearest surface over the pixels it covers alone
/// (on the canvas); 1 for a piece covering no canvas pixel. Depth ties go to what comes first,
/// occluders before pieces, as in a rendered frame.
pub(crate) fn seen_shares(
    view: &View,
    width: usize,
    height: usize,
    occluders: &[Part],
    pieces: &[Vec<Part>],
) -> Vec<f64> {
    const NOBODY: u32 = u32::MAX;
    let n = width * height;
    let mut depth = vec![f32::INFINITY; n];
    let mut owner = vec![NOBODY; n];
    let mut draw = |part: &Part, id: u32| {
        for_each_fragment(view, part, width, height, |f| {
            if f.z < depth[f.idx] {
                depth[f.idx] = f.z;
                owner[f.idx] = id;
            }
        });
    };
    for part in occluders {
        draw(part, NOBODY);
    }
    for (i, parts) in pieces.iter().enumerate() {
        for part in parts {
            draw(part, i as u32);
        }
    }
    // `stamp[idx] == i + 1` once piece i's coverage has counted pixel idx.
    let mut stamp = vec![0u32; n];
    pieces
        .iter()
        .enumerate()
        .map(|(i, parts)| {
            let (mut covered, mut seen) = (0usize, 0usize);
            for part in parts {
                for_each_fragment(view, part, width, height, |f| {
                    if stamp[f.idx] != i as u32 + 1 {
                        stamp[f.idx] = i as u32 + 1;
                        covered += 1;
                        if owner[f.idx] == i as u32 {
                            seen += 1;
                        }
                    }
                });
            }
            if covered == 0 {
                1.0
            } else {
                seen as f64 / covered as f64
            }
        })
        .collect()
}

/// Twice the signed area of triangle `a b c` in the image plane.
fn edge(a: [f64; 3], b: [f64; 3], c: [f64; 3]) -> f64 {
    (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])
}

/// The pixel box of a projected triangle clipped to the canvas; `None` when off-canvas.
fn bbox(pr: &[[f64; 3]; 3], width: usize, height: usize) -> Option<(usize, usize, usize, usize)> {
    let minx = pr.iter().map(|p| p[0]).fold(f64::INFINITY, f64::min).ceil();
    let maxx = pr.iter().map(|p| p[0]).fold(f64::NEG_INFINITY, f64::max).floor();
    let miny = pr.iter().map(|p| p[1]).fold(f64::INFINITY, f64::min).ceil();
    let maxy = pr.iter().map(|p| p[1]).fold(f64::NEG_INFINITY, f64::max).floor();
    if !(minx.is_finite() && maxx.is_finite() && miny.is_finite() && maxy.is_finite()) {
        return None;
    }
    if maxx < 0.0 || maxy < 0.0 || minx > (width - 1) as f64 || miny > (height - 1) as f64 {
        return None;
    }
    let x0 = minx.max(0.0) as usize;
    let y0 = miny.max(0.0) as usize;
    let x1 = (maxx.min((width - 1) as f64)) as usize;
    let y1 = (maxy.min((height - 1) as f64)) as usize;
    if x0 > x1 || y0 > y1 {
        return None;
    }
    Some((x0, x1, y0, y1))
}

/// Sets every pixel whose centre lies inside the triangle to 1.
fn fill_triangle(mask: &mut [f32], width: usize, height: usize, pr: [[f64; 3]; 3]) {
    let area = edge(pr[0], pr[1], pr[2]);
    if area.abs() < 1e-9 {
        return;
    }
    let Some((x0, x1, y0, y1)) = bbox(&pr, width, height) else {
        return;
    };
    for y in y0..=y1 {
        for x in x0..=x1 {
            let p = [x as f64, y as f64, 0.0];
            let w0 = edge(pr[1], pr[2], p) / area;
            let w1 = edge(pr[2], pr[0], p) / area;
            if w0 >= 0.0 && w1 >= 0.0 && w0 + w1 <= 1.0 {
                mask[y * width + x] = 1.0;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::synth::mesh::{Material, Prism};
    use crate::table::{Intrinsics, PointMm3, Pose};

    fn straight_down() -> Camera {
        Camera {
            intrinsics: Intrinsics::from_hfov(320, 240, 60.0),
            pose: Pose::look_at(
                PointMm3::new(0.0, 0.0, -500.0),
                PointMm3::new(0.0, 0.0, 0.0),
                V3::new(0.0, -1.0, 0.0),
            )
            .unwrap(),
        }
    }

    /// A square prism of half-side `half` mm and height `h` mm standing on the table at `at`.
    fn block(at: PointMm, half: f64, h: f64) -> Part {
        let sq = [
            PointMm::new(-half, -half),
            PointMm::new(half, -half),
            PointMm::new(half, half),
            PointMm::new(-half, half),
        ];
        let mut part = Part::new(Material::MATTE);
        part.prism(&Prism::new(&sq, 0.0, h, [0.5; 3]));
        part.placed(at, 0.0, 0.0)
    }

    #[test]
    fn a_piece_under_a_taller_one_is_seen_where_it_shows_and_one_alone_is_seen_whole() {
        let cam = straight_down();
        let canvas = CanvasGeometry {
            width: 320,
            height: 240,
            offset_px: [0.0, 0.0],
        };
        let view = View::new(&cam, canvas);
        let origin = PointMm::new(0.0, 0.0);
        // A flat 40 mm square with a 20 mm tower in its middle (seen from straight above, the
        // tower hides a quarter of it), a 10 mm square alone, and a counter part hiding nothing.
        let flat = vec![block(origin, 20.0, 1.0)];
        let tower = vec![block(origin, 10.0, 10.0)];
        let alone = vec![block(PointMm::new(60.0, 0.0), 5.0, 3.0)];
        let shares = seen_shares(
            &view,
            320,
            240,
            &[],
            &[flat.clone(), tower.clone(), alone.clone()],
        );
        assert!((shares[0] - 0.75).abs() < 0.03, "{shares:?}");
        assert_eq!(shares[1], 1.0);
        assert_eq!(shares[2], 1.0);
        // An occluder above the lone square (a hand) hides all of it.
        let hand = block(PointMm::new(60.0, 0.0), 8.0, 20.0);
        let shares = seen_shares(&view, 320, 240, &[hand], &[flat, tower, alone]);
        assert_eq!(shares[2], 0.0, "{shares:?}");
        assert!((shares[0] - 0.75).abs() < 0.03, "{shares:?}");
    }

    #[test]
    fn a_box_covers_its_projected_footprint() {
        let cam = straight_down();
        let view = View::new(
            &cam,
            CanvasGeometry {
                width: 320,
                height: 240,
                offset_px: [0.0, 0.0],
            },
        );
        let sq = [
            PointMm::new(-20.0, -20.0),
            PointMm::new(20.0, -20.0),
            PointMm::new(20.0, 20.0),
            PointMm::new(-20.0, 20.0),
        ];
        let mut part = Part::new(Material::MATTE);
        part.prism(&Prism::new(&sq, 0.0, 1.0, [0.5; 3]));
        let part = part.placed(PointMm::new(0.0, 0.0), 0.0, 0.0);
        let mut r = Raster::new(320, 240);
        let light = Light::sample(1, [0.0, 0.0]);
        let shading = Shading::new(&light);
        r.draw_part(&view, &shading, &part);
        let inside = cam.project_table(PointMm::new(15.0, -15.0)).unwrap();
        let outside = cam.project_table(PointMm::new(25.0, 0.0)).unwrap();
        let at = |p: crate::table::PointPx| r.depth[p.y.round() as usize * 320 + p.x.round() as usize];
        assert!(at(inside).is_finite());
        assert!(at(outside).is_infinite());
        let p = view.pixel_to_table(inside.x, inside.y).unwrap();
        assert!(p.distance(PointMm::new(15.0, -15.0)) < 1e-6);
    }
}
