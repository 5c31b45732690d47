//! Faint pieces: a piece whose colour lies within the labeller's per-pixel noise of the table's
//! (a yellow goblet on a tan table) reads pixel by pixel as bare table. Over a patch it does
//! not: the table's grain changes colour every which way and averages out, a piece changes it
//! the same way everywhere.
//!
//! Conventions: fine view pixels, row-major, `width` wide; colours are balanced frame pixels
//! and reference pixels, BGR in 8-bit levels (see `labels.rs`). A pixel's *change* is
//! `e = f - s r` with `s = f.r / r.r`: its colour less the table's colour at its brightness,
//! so a pixel that is only lighter or darker than the table has none. Its *level* is `s |r|`.

use super::labels::{Label, near_a_piece};
use super::scale::{count_px, length_px};

/// A table pixel that changes colour by at least this share of its level is a candidate (the
/// grain makes one of about twenty table pixels one; a goblet on tan wood nearly all of its)...
pub const FAINT_PIXEL_MIN: f32 = 0.03;
/// ...and a candidate is read again as a piece when the candidates around it (a square of this
/// half-width, mm: about a goblet's radius)...
pub const FAINT_PATCH_RADIUS_MM: f64 = 6.0;
/// ...cover at least this much (mm²; an average of fewer is noise)...
pub const FAINT_PATCH_MIN_MM2: f64 = 40.0;
/// ...and change colour on average by at least this share of their level (the grain's
/// candidates, each its own way, mostly cancel; a goblet's on tan wood average about 0.07), and
/// its own change along theirs is at least [`FAINT_PIXEL_MIN`] of its level.
pub const FAINT_PATCH_MEAN: f32 = 0.05;
/// Table pixels this close to a piece (mm, any direction; at least a pixel) take some of its
/// colour (the fine view is blurred): they neither count nor change.
pub const FAINT_NEAR_PIECE_MM: f64 = 2.0;
/// References whose colour vector is shorter than this (8-bit levels) give no change worth
/// reading.
const MIN_REFERENCE_LEVEL: f32 = 24.0;

/// A pixel's change `e`, its brightness `s` along the reference and the reference's squared
/// length; `None` over a reference too dark to read a change against.
#[inline]
fn change_parts(f: [f32; 3], r: [f32; 3]) -> Option<([f32; 3], f32, f32)> {
    let rr = r[0] * r[0] + r[1] * r[1] + r[2] * r[2];
    if rr < MIN_REFERENCE_LEVEL * MIN_REFERENCE_LEVEL {
        return None;
    }
    let s = (f[0] * r[0] + f[1] * r[1] + f[2] * r[2]) / rr;
    Some(([f[0] - s * r[0], f[1] - s * r[1], f[2] - s * r[2]], s, rr))
}

/// A table pixel's colour change and level, for [`relabel_faint_patches`]; `None` over a
/// reference too dark to read a change against.
#[inline]
pub fn faint_change(f: [f32; 3], r: [f32; 3]) -> Option<[f32; 4]> {
    let (e, s, rr) = change_parts(f, r)?;
    Some([e[0], e[1], e[2], s.max(0.0) * rr.sqrt()])
}

/// Whether a table pixel changes colour by at least [`FAINT_PIXEL_MIN`] of its level
/// ([`faint_change`]): the labeller asks this of every table pixel, so it takes no root.
#[inline]
pub fn faint_candidate(f: [f32; 3], r: [f32; 3]) -> bool {
    change_parts(f, r).is_some_and(|(e, s, rr)| {
        let e2 = e[0] * e[0] + e[1] * e[1] + e[2] * e[2];
        s > 0.0 && e2 >= FAINT_PIXEL_MIN * FAINT_PIXEL_MIN * s * s * rr
    })
}

/// Reads table pixels again in patches. A [`Label::Table`] pixel becomes [`Label::Piece`] when
/// - it is a candidate: it changes colour by at least [`FAINT_PIXEL_MIN`] of its level
///   (`candidates[p]`, [`faint_candidate`]), and lies no closer than [`FAINT_NEAR_PIECE_MM`] to
///   a piece;
/// - such candidates over at least [`FAINT_PATCH_MIN_MM2`] lie within [`FAINT_PATCH_RADIUS_MM`] of it
///   (a square), and their mean change is at least [`FAINT_PATCH_MEAN`] of their mean level;
/// - its own change along that mean is at least [`FAINT_PIXEL_MIN`] of its level.
///
/// The table's grain makes a candidate of one pixel in twenty, in every direction; a faint
/// piece makes candidates of nearly all its pixels, all one way. `change_at(p)` gives a
/// candidate's [`faint_change`]. Returns the pixels relabelled, in order.
pub fn relabel_faint_patches(
    labels: &mut [Label],
    candidates: &[bool],
    width: usize,
    mm_per_px: f64,
    change_at: impl Fn(usize) -> Option<[f32; 4]>,
) -> Vec<usize> {
    if width == 0 || labels.len() != candidates.len() {
        return Vec::new();
    }
    let min_px = count_px(FAINT_PATCH_MIN_MM2, mm_per_px);
    let height = labels.len() / width;
    let is_candidate = |p: usize| candidates[p] && labels[p] == Label::Table;
    // Candidates per square, near pieces or not (an upper bound on those that count): a
    // summed-area table of one count, cheap beside the sums of changes it spares.
    let stride = width + 1;
    let mut count = vec![0u32; stride * (height + 1)];
    let mut all = Vec::new();
    for y in 0..height {
        let mut row = 0u32;
        for x in 0..width {
            let p = y * width + x;
            if is_candidate(p) {
                row += 1;
                all.push(p);
            }
            let at = (y + 1) * stride + x + 1;
            count[at] = count[at - stride] + row;
        }
    }
    if all.len() < min_px {
        return Vec::new();
    }
    let r = length_px(FAINT_PATCH_RADIUS_MM, mm_per_px, 1);
    let square = |p: usize| {
        let (x, y) = (p % width, p / width);
        (
            x.saturating_sub(r),
            (x + r + 1).min(width),
            y.saturating_sub(r),
            (y + r + 1).min(height),
        )
    };
    let dense: Vec<usize> = all
        .into_iter()
        .filter(|&p| {
            let (x0, x1, y0, y1) = square(p);
            (count[y1 * stride + x1] + count[y0 * stride + x0])
                .saturating_sub(count[y0 * stride + x1] + count[y1 * stride + x0]) as usize
                >= min_px
        })
        .collect();
    if dense.is_empty() {
        return Vec::new();
    }
    // Asked only of the pixels dense squares hold.
    let near = length_px(FAINT_NEAR_PIECE_MM, mm_per_px, 1);
    let near_piece = |q: usize| near_a_piece(labels, width, q, near);
    // Each candidate's change where it counts, worked out once (`None`: it does not count).
    let mut changes: Vec<Option<[f32; 4]>> = vec![None; labels.len()];
    let mut known = vec![false; labels.len()];
    let mut changed = Vec::new();
    for p in dense {
        let (x0, x1, y0, y1) = square(p);
        let mut sum = [0.0f64; 5];
        for y in y0..y1 {
            for q in y * width + x0..y * width + x1 {
                if !known[q] {
                    known[q] = true;
                    changes[q] = if is_candidate(q) && !near_piece(q) {
                        change_at(q)
                    } else {
                        None
                    };
                }
                if let Some(c) = changes[q] {
                    for (acc, v) in sum.iter_mut().zip(c) {
                        *acc += f64::from(v);
                    }
                    sum[4] += 1.0;
                }
            }
        }
        let n = sum[4];
        let Some(own) = changes[p] else {
            continue;
        };
        if n < min_px as f64 {
            continue;
        }
        let mean = [sum[0] / n, sum[1] / n, sum[2] / n];
        let mean_len = (mean[0] * mean[0] + mean[1] * mean[1] + mean[2] * mean[2]).sqrt();
        if mean_len <= 0.0 || mean_len < f64::from(FAINT_PATCH_MEAN) * sum[3] / n {
            continue;
        }
        let [e0, e1, e2, level] = own.map(f64::from);
        if (e0 * mean[0] + e1 * mean[1] + e2 * mean[2]) / mean_len >= f64::from(FAINT_PIXEL_MIN) * level {
            changed.push(p);
        }
    }
    for &p in &changed {
        labels[p] = Label::Piece;
    }
    changed
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// A tan table's reference colour (BGR), as the bench's light wood shows it.
    const TAN: [f32; 3] = [89.0, 146.0, 177.0];
    /// A yellow goblet's change on it (measured on bench scene 1, frame 2: the mean over the
    /// pixels of its body that the labeller reads as table).
    const GOBLET_CHANGE: [f32; 3] = [-15.6, 4.1, 4.9];

    /// An image of `w` x `h` table pixels: frame and reference colours per pixel.
    struct Scene {
        w: usize,
        frame: Vec<[f32; 3]>,
        reference: Vec<[f32; 3]>,
        labels: Vec<Label>,
    }

    impl Scene {
        fn table(w: usize, h: usize) -> Self {
            Self {
                w,
                frame: vec![TAN; w * h],
                reference: vec![TAN; w * h],
                labels: vec![Label::Table; w * h],
            }
        }

        /// Adds `e` to the frame inside the disc of radius `r` about `(cx, cy)`.
        fn disc(mut self, cx: f32, cy: f32, r: f32, e: [f32; 3]) -> Self {
            for (p, f) in self.frame.iter_mut().enumerate() {
                let (x, y) = ((p % self.w) as f32, (p / self.w) as f32);
                if (x - cx).hypot(y - cy) <= r {
                    for (v, d) in f.iter_mut().zip(e) {
                        *v += d;
                    }
                }
            }
            self
        }

        fn relabel(&mut self) -> Vec<usize> {
            let candidates: Vec<bool> = (0..self.frame.len())
                .map(|p| faint_candidate(self.frame[p], self.reference[p]))
                .collect();
            let (frame, reference) = (&self.frame, &self.reference);
            relabel_faint_patches(&mut self.labels, &candidates, self.w, 1.0, |p| {
                faint_change(frame[p], reference[p])
            })
        }

        fn at(&self, x: usize, y: usize) -> Label {
            self.labels[y * self.w + x]
        }
    }

    /// A small, fixed pseudo-random sequence in [-1, 1) (the tests must not depend on a seed).
    fn jitter(i: usize) -> f32 {
        let x = (i as u64)
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((x >> 40) as f32 / (1u64 << 24) as f32) * 2.0 - 1.0
    }

    #[test]
    fn a_goblet_that_reads_as_table_pixel_by_pixel_is_a_piece_as_a_patch() {
        let mut scene = Scene::table(60, 60).disc(30.0, 30.0, 11.0, GOBLET_CHANGE);
        // Pixel by pixel its change is within the labeller's noise: the pixels came to the
        // patch test as table, as they do in the bench scene.
        let changed = scene.relabel();
        assert!(changed.len() > 250, "{} relabelled", changed.len());
        assert_eq!(scene.at(30, 30), Label::Piece);
        assert_eq!(scene.at(30, 40), Label::Piece, "inside the rim");
        assert_eq!(scene.at(30, 43), Label::Table, "outside the disc");
        assert_eq!(scene.at(5, 5), Label::Table);
    }

    #[test]
    fn the_tables_grain_changes_colour_every_which_way_and_stays_table() {
        // Every pixel changes by 6 % of its level, more than a candidate needs, each its own way.
        let mut scene = Scene::table(60, 60);
        for (p, f) in scene.frame.iter_mut().enumerate() {
            let e = [jitter(3 * p), jitter(3 * p + 1), jitter(3 * p + 2)];
            let len = (e[0] * e[0] + e[1] * e[1] + e[2] * e[2]).sqrt().max(1e-3);
            for (v, d) in f.iter_mut().zip(e) {
                *v += d / len * 0.06 * 244.0;
            }
        }
        assert_eq!(scene.relabel(), Vec::<usize>::new());
    }

    #[test]
    fn lighter_or_darker_table_of_its_own_colour_is_no_change() {
        // A lamp brighter over one patch: the table's colour at another level, no change of hue.
        let mut scene = Scene::table(40, 40);
        for p in 0..scene.frame.len() {
            if p % 40 < 20 {
                scene.frame[p] = TAN.map(|v| v * 1.08);
            }
        }
        assert_eq!(scene.relabel(), Vec::<usize>::new());
    }

    #[test]
    fn too_small_a_patch_is_noise() {
        // A disc of 3 px radius holds about 29 pixels, fewer than a patch needs.
        let mut scene = Scene::table(40, 40).disc(20.0, 20.0, 3.0, [-30.0, 8.0, 10.0]);
        assert_eq!(scene.relabel(), Vec::<usize>::new());
    }

    #[test]
    fn table_pixels_next_to_a_piece_neither_count_nor_change() {
        let mut scene = Scene::table(60, 60).disc(30.0, 30.0, 11.0, GOBLET_CHANGE);
        // A piece across the disc's left half: the blurred view lends its colour to the pixels
        // beside it.
        for y in 0..60 {
            for x in 0..30 {
                scene.labels[y * 60 + x] = Label::Piece;
            }
        }
        let changed = scene.relabel();
        // The piece ends at column 29; the first column clear of it is relabelled.
        assert!(
            changed
                .iter()
                .any(|&p| p % 60 == 30 + FAINT_NEAR_PIECE_MM as usize)
        );
        assert!(
            changed
                .iter()
                .all(|&p| p % 60 > 29 + FAINT_NEAR_PIECE_MM as usize),
            "{changed:?}"
        );
    }

    #[test]
    fn shadows_and_pieces_are_not_read_again() {
        let mut scene = Scene::table(60, 60).disc(30.0, 30.0, 11.0, GOBLET_CHANGE);
        for l in scene.labels.iter_mut() {
            *l = Label::Shadow;
        }
        assert_eq!(scene.relabel(), Vec::<usize>::new());
        assert!(scene.labels.iter().all(|&l| l == Label::Shadow));
    }

    #[test]
    fn a_black_reference_gives_no_change() {
        assert_eq!(faint_change([40.0, 40.0, 40.0], [0.0, 0.0, 0.0]), None);
        assert!(!faint_candidate([40.0, 40.0, 40.0], [0.0, 0.0, 0.0]));
        assert_eq!(
            relabel_faint_patches(&mut [], &[], 0, 1.0, |_| None),
            Vec::<usize>::new()
        );
    }

    /// [`relabel_faint_patches`] as the rule reads: every table pixel's square summed afresh,
    /// with no count of candidates first. At 1 mm a pixel, as the tests call both, the
    /// thresholds in mm and mm² count pixels.
    fn plain_relabel(
        labels: &mut [Label],
        candidates: &[bool],
        width: usize,
        change_at: impl Fn(usize) -> Option<[f32; 4]>,
    ) -> Vec<usize> {
        let height = labels.len() / width;
        let (r, d) = (FAINT_PATCH_RADIUS_MM as i64, FAINT_NEAR_PIECE_MM as i64);
        let inside = |x: i64, y: i64| x >= 0 && y >= 0 && x < width as i64 && y < height as i64;
        let near_piece = |x: i64, y: i64| {
            (-d..=d).any(|dy| {
                (-d..=d).any(|dx| {
                    inside(x + dx, y + dy)
                        && labels[((y + dy) * width as i64 + x + dx) as usize] == Label::Piece
                })
            })
        };
        let counts = |x: i64, y: i64| {
            let p = (y * width as i64 + x) as usize;
            (candidates[p] && labels[p] == Label::Table && !near_piece(x, y))
                .then(|| change_at(p))
                .flatten()
        };
        let mut changed = Vec::new();
        for p in 0..labels.len() {
            let (x, y) = ((p % width) as i64, (p / width) as i64);
            let Some(own) = counts(x, y) else {
                continue;
            };
            let mut sum = [0.0f64; 5];
            for yy in y - r..=y + r {
                for xx in x - r..=x + r {
                    if let Some(c) = inside(xx, yy).then(|| counts(xx, yy)).flatten() {
                        for k in 0..4 {
                            sum[k] += f64::from(c[k]);
                        }
                        sum[4] += 1.0;
                    }
                }
            }
            let n = sum[4];
            if n < FAINT_PATCH_MIN_MM2 {
                continue;
            }
            let mean = [sum[0] / n, sum[1] / n, sum[2] / n];
            let len = (mean[0] * mean[0] + mean[1] * mean[1] + mean[2] * mean[2]).sqrt();
            if len <= 0.0 || len < f64::from(FAINT_PATCH_MEAN) * sum[3] / n {
                continue;
            }
            let along = (0..3).map(|k| f64::from(own[k]) * mean[k]).sum::<f64>() / len;
            if along >= f64::from(FAINT_PIXEL_MIN) * f64::from(own[3]) {
                changed.push(p);
            }
        }
        for &p in &changed {
            labels[p] = Label::Piece;
        }
        changed
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(48))]

        /// The fast routine (candidates counted first, changes worked out once) relabels the
        /// same pixels as the rule read plainly, on tables with faint patches, grain, pieces and
        /// shadows.
        #[test]
        fn the_fast_routine_relabels_as_the_plain_one(
            w in 8usize..40,
            h in 8usize..40,
            discs in proptest::collection::vec((0.0f32..40.0, 0.0f32..40.0, 2.0f32..14.0, -30.0f32..30.0, -30.0f32..30.0, -30.0f32..30.0), 0..4),
            grain in 0.0f32..20.0,
            others in proptest::collection::vec((0usize..1600, 0u8..3), 0..60),
            seed in 0usize..1000,
        ) {
            let mut scene = Scene::table(w, h);
            for (cx, cy, r, e0, e1, e2) in discs {
                scene = scene.disc(cx, cy, r, [e0, e1, e2]);
            }
            for p in 0..w * h {
                for c in 0..3 {
                    scene.frame[p][c] += grain * jitter(seed + 3 * p + c);
                }
            }
            for (p, l) in others {
                if p < w * h {
                    scene.labels[p] = [Label::Piece, Label::Shadow, Label::Outside][usize::from(l)];
                }
            }
            let candidates: Vec<bool> = (0..w * h).map(|p| faint_candidate(scene.frame[p], scene.reference[p])).collect();
            let (frame, reference) = (&scene.frame, &scene.reference);
            let change_at = |p: usize| faint_change(frame[p], reference[p]);
            let mut fast = scene.labels.clone();
            let mut plain = scene.labels.clone();
            let a = relabel_faint_patches(&mut fast, &candidates, w, 1.0, change_at);
            let b = plain_relabel(&mut plain, &candidates, w, change_at);
            prop_assert_eq!(a, b);
            prop_assert_eq!(fast, plain);
        }
    }
}
