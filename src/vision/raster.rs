//! Scoring a silhouette against a weight image, with sub-pixel precision.
//!
//! Conventions: a [`WeightMap`] covers a rectangle of the fine view; pixel `(i, j)` (column,
//! row, from the map's corner) covers `[i - 0.5, i + 0.5] x [j - 0.5, j + 0.5]` in map pixel
//! coordinates and shows table point `origin_mm + (i, j) * mm_per_px`. A silhouette is a union
//! of convex polygons in table mm. Its score is the integral of the weights over its area,
//! sampled on two sub-rows per pixel row and integrated exactly along each sub-row (partial
//! pixels count in proportion), so the score moves smoothly as the silhouette moves by a
//! fraction of a pixel.

use super::view::Silhouette;
use crate::table::PointMm;

/// Sub-rows per pixel row.
const SUB_ROWS: usize = 2;

/// Weights over a rectangle of the fine view, with row prefix sums.
#[derive(Debug, Clone, PartialEq)]
pub struct WeightMap {
    pub width: usize,
    pub height: usize,
    pub origin_mm: PointMm,
    pub mm_per_px: f64,
    weights: Vec<f32>,
    /// Per row: `width + 1` prefix sums (`prefix[j][i]` = sum of weights `0..i`).
    prefix: Vec<f32>,
    /// What a cup's inside may show, when silhouettes with a mouth are scored on this map.
    mouths: Option<Box<MouthLayers>>,
    /// 1 where another piece already explains the pixel, when the map is told (see
    /// [`WeightMap::with_held`]).
    held: Option<Box<WeightMap>>,
}

/// The layers of a [`WeightMap`] that leave a cup's mouth neutral.
#[derive(Debug, Clone, PartialEq)]
struct MouthLayers {
    /// The weights of the pixels that show bare table or shadow, 0 elsewhere.
    losses: WeightMap,
    /// 1 where a pixel shows bare table or shadow, 0 elsewhere.
    neutral_px: WeightMap,
}

/// Reusable buffers for [`WeightMap::score`].
#[derive(Debug, Default, Clone)]
pub struct ScoreScratch {
    lo: Vec<f64>,
    hi: Vec<f64>,
    intervals: Vec<Vec<(f64, f64)>>,
    px: Vec<(f64, f64)>,
}

impl WeightMap {
    pub fn new(width: usize, height: usize, origin_mm: PointMm, mm_per_px: f64, weights: Vec<f32>) -> Self {
        let mut prefix = vec![0.0f32; height * (width + 1)];
        for j in 0..height {
            let row = &weights[j * width..(j + 1) * width];
            let p = &mut prefix[j * (width + 1)..(j + 1) * (width + 1)];
            let mut acc = 0.0f32;
            for (i, &w) in row.iter().enumerate() {
                p[i] = acc;
                acc += w;
            }
            p[width] = acc;
        }
        Self {
            width,
            height,
            origin_mm,
            mm_per_px,
            weights,
            prefix,
            mouths: None,
            held: None,
        }
    }

    /// The map, also told which of its pixels other pieces already explain (`held[p]`), so
    /// that [`WeightMap::held_px`] can leave them out of a silhouette's area: a ship carrying
    /// four treasures shows its colours on half its silhouette at best, and is judged on the
    /// rest.
    pub fn with_held(mut self, held: &[bool]) -> Self {
        let count = (0..self.weights.len())
            .map(|i| {
                if held.get(i).copied().unwrap_or(false) {
                    1.0
                } else {
                    0.0
                }
            })
            .collect();
        self.held = Some(Box::new(Self::new(
            self.width,
            self.height,
            self.origin_mm,
            self.mm_per_px,
            count,
        )));
        self
    }

    /// Pixels inside the silhouette that other pieces explain; 0 when the map was not told
    /// ([`WeightMap::with_held`]).
    pub fn held_px(&self, sil: &Silhouette, scratch: &mut ScoreScratch) -> f64 {
        self.held
            .as_ref()
            .map_or(0.0, |h| h.score(&sil.polygons, PointMm::default(), scratch))
    }

    /// The map, also told which of its pixels a cup's inside could show (`neutral[p]` is 1
    /// where pixel `p` shows bare table or a shadow, 0 elsewhere), so that those pixels count
    /// neither way inside a silhouette's mouth ([`WeightMap::score_silhouette`]).
    pub fn with_neutral_mouths(mut self, neutral: &[bool]) -> Self {
        let at = |i: usize| neutral.get(i).copied().unwrap_or(false);
        let losses = (0..self.weights.len())
            .map(|i| if at(i) { self.weights[i] } else { 0.0 })
            .collect();
        let count = (0..self.weights.len())
            .map(|i| if at(i) { 1.0 } else { 0.0 })
            .collect();
        let layer = |w| Self::new(self.width, self.height, self.origin_mm, self.mm_per_px, w);
        self.mouths = Some(Box::new(MouthLayers {
            losses: layer(losses),
            neutral_px: layer(count),
        }));
        self
    }

    /// The score of a silhouette moved by `offset`: [`WeightMap::score`] of its polygons, less
    /// what bare table and shadow inside its mouth cost when the map knows them. Inside a cup's
    /// mouth the camera sees the cup's own shaded inside: table or shadow there is no evidence
    /// against the cup, while the piece's colour seen there still counts for it.
    pub fn score_silhouette(&self, sil: &Silhouette, offset: PointMm, scratch: &mut ScoreScratch) -> f64 {
        let body = self.score(&sil.polygons, offset, scratch);
        match (&sil.mouth, &self.mouths) {
            (Some(mouth), Some(layers)) => {
                body - layers.losses.score(std::slice::from_ref(mouth), offset, scratch)
            }
            _ => body,
        }
    }

    /// Pixels inside the silhouette's mouth that count neither way (see
    /// [`WeightMap::score_silhouette`]); 0 when the map does not know them.
    pub fn neutral_mouth_px(&self, sil: &Silhouette, scratch: &mut ScoreScratch) -> f64 {
        match (&sil.mouth, &self.mouths) {
            (Some(mouth), Some(layers)) => {
                layers
                    .neutral_px
                    .score(std::slice::from_ref(mouth), PointMm::default(), scratch)
            }
            _ => 0.0,
        }
    }

    pub fn weight(&self, i: usize, j: usize) -> f32 {
        self.weights[j * self.width + i]
    }

    /// Integral of row `j`'s weights from `t = -0.5` (the row's left edge) to `t`.
    fn row_integral(&self, j: usize, t: f64) -> f64 {
        let w = self.width;
        let t = t.clamp(-0.5, w as f64 - 0.5);
        let u = t + 0.5;
        let k = (u.floor() as usize).min(w);
        let frac = u - k as f64;
        let base = self.prefix[j * (w + 1) + k] as f64;
        if k < w {
            base + frac * self.weights[j * w + k] as f64
        } else {
            base
        }
    }

    /// Map pixel coordinates of a table point.
    pub fn to_px(&self, p: PointMm) -> (f64, f64) {
        (
            (p.x - self.origin_mm.x) / self.mm_per_px,
            (p.y - self.origin_mm.y) / self.mm_per_px,
        )
    }

    /// The integral of the weights over the union of `polygons` moved by `offset` (table mm),
    /// in pixels (one fully covered pixel of weight 1 scores 1).
    pub fn score(&self, polygons: &[Vec<PointMm>], offset: PointMm, scratch: &mut ScoreScratch) -> f64 {
        let n_sub = self.height * SUB_ROWS;
        if n_sub == 0 || polygons.is_empty() {
            return 0.0;
        }
        // One polygon needs no union: its spans are integrated as they are found.
        let single = polygons.len() == 1;
        if !single && scratch.intervals.len() < n_sub {
            scratch.intervals.resize(n_sub, Vec::new());
        }
        let inv = 1.0 / self.mm_per_px;
        let (ox, oy) = (
            (offset.x - self.origin_mm.x) * inv,
            (offset.y - self.origin_mm.y) * inv,
        );
        let mut total = 0.0;
        let mut k_min = n_sub;
        let mut k_max = 0usize;
        for poly in polygons {
            scratch.px.clear();
            scratch
                .px
                .extend(poly.iter().map(|&q| (q.x * inv + ox, q.y * inv + oy)));
            let (ymin, ymax) = scratch
                .px
                .iter()
                .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), p| {
                    (a.min(p.1), b.max(p.1))
                });
            if !(ymin.is_finite() && ymax.is_finite()) {
                continue;
            }
            let Some((k0, k1)) = sub_row_range(ymin, ymax, n_sub) else {
                continue;
            };
            let len = k1 - k0 + 1;
            scratch.lo.clear();
            scratch.lo.resize(len, f64::INFINITY);
            scratch.hi.clear();
            scratch.hi.resize(len, f64::NEG_INFINITY);
            let m = scratch.px.len();
            for e in 0..m {
                let (x0, y0) = scratch.px[e];
                let (x1, y1) = scratch.px[(e + 1) % m];
                let (ya, yb) = if y0 < y1 { (y0, y1) } else { (y1, y0) };
                let Some((ka, kb)) = sub_row_range(ya, yb, n_sub) else {
                    continue;
                };
                let ka = ka.max(k0);
                let kb = kb.min(k1);
                if ka > kb {
                    continue;
                }
                let dy = y1 - y0;
                if dy.abs() < 1e-12 {
                    for idx in ka - k0..=kb - k0 {
                        scratch.lo[idx] = scratch.lo[idx].min(x0.min(x1));
                        scratch.hi[idx] = scratch.hi[idx].max(x0.max(x1));
                    }
                    continue;
                }
                let slope = (x1 - x0) / dy;
                for k in ka..=kb {
                    let x = x0 + (sub_row_y(k) - y0) * slope;
                    let idx = k - k0;
                    if x < scratch.lo[idx] {
                        scratch.lo[idx] = x;
                    }
                    if x > scratch.hi[idx] {
                        scratch.hi[idx] = x;
                    }
                }
            }
            for k in k0..=k1 {
                let (a, b) = (scratch.lo[k - k0], scratch.hi[k - k0]);
                if a < b {
                    if single {
                        let j = k / SUB_ROWS;
                        total += self.row_integral(j, b) - self.row_integral(j, a);
                    } else {
                        scratch.intervals[k].push((a, b));
                    }
                }
            }
            k_min = k_min.min(k0);
            k_max = k_max.max(k1);
        }
        if single || k_min > k_max {
            return total / SUB_ROWS as f64;
        }
        for k in k_min..=k_max {
            let iv = &mut scratch.intervals[k];
            if iv.is_empty() {
                continue;
            }
            let j = k / SUB_ROWS;
            if iv.len() > 1 {
                iv.sort_by(|a, b| a.0.total_cmp(&b.0));
            }
            let (mut a, mut b) = iv[0];
            for &(c, d) in iv.iter().skip(1) {
                if c <= b {
                    b = b.max(d);
                } else {
                    total += self.row_integral(j, b) - self.row_integral(j, a);
                    a = c;
                    b = d;
                }
            }
            total += self.row_integral(j, b) - self.row_integral(j, a);
            iv.clear();
        }
        total / SUB_ROWS as f64
    }
}

/// The y of sub-row `k` (pixel row `k / 2`, at -0.25 and +0.25 from its centre).
fn sub_row_y(k: usize) -> f64 {
    (k / SUB_ROWS) as f64 + ((k % SUB_ROWS) as f64 + 0.5) / SUB_ROWS as f64 - 0.5
}

/// The sub-rows whose y lies in `[ya, yb]`, clipped to the map.
fn sub_row_range(ya: f64, yb: f64, n_sub: usize) -> Option<(usize, usize)> {
    // Sub-row k sits at y = (k + 0.5) / SUB_ROWS - 0.5.
    let s = SUB_ROWS as f64;
    let ka = ((ya + 0.5) * s - 0.5).ceil().max(0.0);
    let kb = ((yb + 0.5) * s - 0.5).floor().min(n_sub as f64 - 1.0);
    (ka <= kb && ka.is_finite() && kb.is_finite()).then_some((ka as usize, kb as usize))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ones(w: usize, h: usize) -> WeightMap {
        WeightMap::new(w, h, PointMm::new(0.0, 0.0), 1.0, vec![1.0; w * h])
    }

    fn square(x: f64, y: f64, s: f64) -> Vec<PointMm> {
        vec![
            PointMm::new(x, y),
            PointMm::new(x + s, y),
            PointMm::new(x + s, y + s),
            PointMm::new(x, y + s),
        ]
    }

    #[test]
    fn areas_of_polygons_inside_the_map() {
        let m = ones(40, 40);
        let mut s = ScoreScratch::default();
        let a = m.score(&[square(10.0, 10.0, 8.0)], PointMm::default(), &mut s);
        assert!((a - 64.0).abs() < 1e-6, "{a}");
        // Sub-pixel moves change the score smoothly (0.8 px outside the map edge at -0.5).
        let b = m.score(&[square(-1.3, 10.0, 10.0)], PointMm::new(0.0, 0.0), &mut s);
        assert!((b - 92.0).abs() < 1e-6, "{b}");
        // A triangle.
        let tri = vec![
            PointMm::new(5.0, 5.0),
            PointMm::new(25.0, 5.0),
            PointMm::new(5.0, 25.0),
        ];
        let t = m.score(&[tri], PointMm::default(), &mut s);
        assert!((t - 200.0).abs() < 2.0, "{t}");
        // A union counts overlaps once.
        let u = m.score(
            &[square(10.0, 10.0, 8.0), square(14.0, 10.0, 8.0)],
            PointMm::default(),
            &mut s,
        );
        assert!((u - 96.0).abs() < 1e-6, "{u}");
    }

    #[test]
    fn weights_are_integrated() {
        let mut w = vec![0.0f32; 20 * 20];
        for j in 0..20 {
            for i in 10..20 {
                w[j * 20 + i] = 1.0;
            }
        }
        let m = WeightMap::new(20, 20, PointMm::new(0.0, 0.0), 1.0, w);
        let mut s = ScoreScratch::default();
        // Covers columns 7.5..11.5 on rows 4.5..8.5: 2 columns (9.5..11.5) of weight 1.
        let v = m.score(&[square(7.5, 4.5, 4.0)], PointMm::default(), &mut s);
        assert!((v - 8.0).abs() < 1e-6, "{v}");
        let v2 = m.score(&[square(7.5, 4.5, 4.0)], PointMm::new(0.25, 0.0), &mut s);
        assert!((v2 - 9.0).abs() < 1e-6, "{v2}");
    }

    #[test]
    fn bare_table_in_a_mouth_counts_neither_way_and_the_piece_seen_there_still_counts() {
        // Bare table (-1) everywhere but a 4 x 4 patch of the piece's colour (+1) at 8..12.
        let (w, h) = (20, 20);
        let piece = |i: usize, j: usize| (8..12).contains(&i) && (8..12).contains(&j);
        let weights: Vec<f32> = (0..w * h)
            .map(|p| if piece(p % w, p / w) { 1.0 } else { -1.0 })
            .collect();
        let neutral: Vec<bool> = (0..w * h).map(|p| !piece(p % w, p / w)).collect();
        let plain = WeightMap::new(w, h, PointMm::new(0.0, 0.0), 1.0, weights);
        let cup = plain.clone().with_neutral_mouths(&neutral);
        // Pixel (i, j) covers [i - 0.5, i + 0.5]: the body covers pixels 2..18, the mouth 6..14.
        let sil = Silhouette {
            polygons: vec![square(1.5, 1.5, 16.0)],
            mouth: Some(square(5.5, 5.5, 8.0)),
        };
        let mut s = ScoreScratch::default();
        // Body: 16 piece pixels, 240 table. Mouth: the same 16 piece pixels, 48 table.
        let body = plain.score_silhouette(&sil, PointMm::default(), &mut s);
        assert!((body - (16.0 - 240.0)).abs() < 1e-6, "{body}");
        let with_mouth = cup.score_silhouette(&sil, PointMm::default(), &mut s);
        assert!((with_mouth - (16.0 - 192.0)).abs() < 1e-6, "{with_mouth}");
        assert!((cup.neutral_mouth_px(&sil, &mut s) - 48.0).abs() < 1e-6);
        assert_eq!(plain.neutral_mouth_px(&sil, &mut s), 0.0);
        // Without a mouth the silhouette scores as its polygons on either map.
        let solid = Silhouette {
            mouth: None,
            ..sil.clone()
        };
        let v = cup.score_silhouette(&solid, PointMm::default(), &mut s);
        assert!((v - body).abs() < 1e-6, "{v}");
    }

    #[test]
    fn held_pixels_are_counted_inside_a_silhouette_and_leave_the_score_alone() {
        // A 6 x 6 patch other pieces explain (weight 0 there, as the detector weighs it), at 4..10.
        let (w, h) = (20, 20);
        let held: Vec<bool> = (0..w * h)
            .map(|p| (4..10).contains(&(p % w)) && (4..10).contains(&(p / w)))
            .collect();
        let weights: Vec<f32> = held.iter().map(|&x| if x { 0.0 } else { 1.0 }).collect();
        let plain = WeightMap::new(w, h, PointMm::new(0.0, 0.0), 1.0, weights);
        let ship = plain.clone().with_held(&held);
        // Pixels 7..15 square: 3 x 3 of the held patch inside (pixels 7, 8, 9).
        let sil = Silhouette {
            polygons: vec![square(6.5, 6.5, 8.0)],
            mouth: None,
        };
        let mut s = ScoreScratch::default();
        assert!((ship.held_px(&sil, &mut s) - 9.0).abs() < 1e-6);
        assert_eq!(plain.held_px(&sil, &mut s), 0.0);
        let (a, b) = (
            plain.score_silhouette(&sil, PointMm::default(), &mut s),
            ship.score_silhouette(&sil, PointMm::default(), &mut s),
        );
        assert!((a - 55.0).abs() < 1e-6 && (a - b).abs() < 1e-9, "{a} {b}");
    }
}
