//! Foreground: what changed against the empty-table reference, and how.
//!
//! Conventions: both images are rectified on the same grid (`rectify.rs`), BGR 8-bit (gamma
//! encoded, as the camera gives them); the frame is first multiplied by the white-balance gains
//! that make its table match the reference's ([`Balance`]). Per pixel, with `f` the balanced
//! frame and `r` the reference, `s = f.r / r.r` is how much darker or brighter it is along the
//! table's own colour and `e = |f - s r|` how much its colour changed:
//! - [`Label::Table`]: same colour, about the same brightness (nothing there);
//! - [`Label::Shadow`]: the table's colour, darker, but not as dark as the darkest shadow can
//!   be (a shadow, or a grey piece's shaded side: vision does not decide here);
//! - [`Label::Piece`]: a colour change, or brighter than the table, or darker than any shadow;
//!   also a patch of shadow-like pixels that together lean further than the frame's shadows
//!   do (a brown chest on warm wood: [`relabel_warm_patches`]), or that nothing casts (a black
//!   piece on a grey table: [`super::caster`]); and a patch of table-labelled pixels that all
//!   change colour the same small way (a yellow goblet on tan wood: [`super::faint`]);
//! - [`Label::Outside`]: not seen by the camera, or masked (the Octo-Counter's stretch of string).

use super::caster::ShadowFall;
use super::scale::{count_px, length_px};
use opencv::core::{Mat, Vec3b};
use opencv::prelude::*;

/// Colour change (in 8-bit levels) that always counts, whatever the brightness.
pub const CHANGE_ABS: f32 = 16.0;
/// Colour change that counts, as a fraction of the table's colour vector (shadows are lit by a
/// bluer ambient light: their colour shifts a little).
pub const CHANGE_REL: f32 = 0.09;
/// Brighter than the table by more than this fraction: a piece.
pub const BRIGHTER: f32 = 0.13;
/// Darker than the table by more than this fraction: a shadow or a piece.
pub const DARKER: f32 = 0.12;
/// Darker than this fraction of the table: a piece (deeper than any shadow; gamma encoded).
pub const DARKEST_SHADOW: f32 = 0.4;
/// A colour change away from blue (see [`label`]) is a piece when it is at least this large
/// relative to the table's level...
pub const WARM_MIN_REL: f32 = 0.07;
/// ...its blue-versus-red-and-green part at least this large (relative)...
pub const WARM_MIN_SHIFT: f32 = 0.07;
/// ...and at least this many 8-bit levels (noise on dark tables).
pub const WARM_MIN_ABS: f32 = 8.0;
/// Ratios of table pixels used for the white balance are histogrammed in this range...
const GAIN_RANGE: (f32, f32) = (0.5, 2.0);
/// ...in bins this wide.
const GAIN_BIN: f32 = 0.01;
/// Every n-th coarse pixel in x and y is enough for the balance.
const GAIN_STRIDE: usize = 3;
/// Reference channels darker than this are too noisy for a ratio.
const GAIN_MIN_LEVEL: f32 = 24.0;
/// With the frame's shadow tint known (see [`Balance::shadow_tint`]), a colour change off the
/// plane of lit-and-shaded table colours counts when it is at least this many 8-bit levels...
pub const OFF_PLANE_ABS: f32 = 9.0;
/// ...plus this fraction of the table's level there.
pub const OFF_PLANE_REL: f32 = 0.035;
/// A shift in the plane away from the shadows' tint (warmer than the table, which no shadow
/// is) counts when it is at least this many levels...
pub const ANTI_TINT_ABS: f32 = 6.0;
/// ...plus this fraction of the table's level.
pub const ANTI_TINT_REL: f32 = 0.03;
/// Shadow candidates (coarse pixels) needed to estimate the tint; fewer and labels fall back
/// to the tint-free test.
const MIN_TINT_SAMPLES: usize = 40;
/// A tint whose shadow colours lie this close to the table's own direction (sine of the angle)
/// is no tint: the plane is not defined and labels use the tint-free test.
const MIN_TINT_ANGLE_SIN: f32 = 0.01;
/// Candidates for the tint: darker than the table by at least this much (a real shadow, not
/// the penumbra's edge)...
const TINT_SAMPLE_DARKER: f32 = 0.2;
/// ...and changed in colour by no more than this fraction of the table's level.
const TINT_SAMPLE_MAX_CHANGE: f32 = 0.12;

/// A shadow-labelled pixel is read again as a piece when the shadow-labelled pixels around it
/// (a square of this half-width, mm: about a chest's half-width) lie on average this
/// far past a full shadow's tint (see [`shadow_warmth`])...
pub const WARM_PATCH_RADIUS_MM: f64 = 6.0;
pub const WARM_PATCH_MEAN: f32 = 0.04;
/// ...when at least this much of it (mm²) is shadow-labelled (an average of fewer is noise)...
pub const WARM_PATCH_MIN_MM2: f64 = 40.0;
/// ...and it lies past a full shadow's tint itself by at least this much.
pub const WARM_PIXEL_MIN: f32 = 0.015;
/// Shadow pixels this close to a piece (mm, any direction; at least a pixel) are left out of that
/// test.
pub const WARM_NEAR_PIECE_MM: f64 = 2.0;

/// What a rectified pixel shows, next to the empty table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Label {
    Table = 0,
    Shadow = 1,
    Piece = 2,
    Outside = 3,
}

/// Per-channel gains that bring the frame's table to the reference's colour.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Balance {
    /// `[b, g, r]` multipliers for the frame.
    pub gains: [f32; 3],
    /// The colour of this frame's shadows relative to the lit table, `[b, g, r]` with mean 1
    /// (the room's fill light is usually bluer than its lamp): every shadow and penumbra then
    /// lies in the plane spanned by the table's colour and that colour times the tint, and what
    /// leaves the plane is a piece. `None` when the frame shows too few shadows to tell.
    pub shadow_tint: Option<[f32; 3]>,
    /// Which way this frame's shadows fall ([`super::caster`]): read by the coarse pass, so
    /// `None` before it, and when the shadows lie on no side of their pieces more than another.
    pub shadow_fall: Option<ShadowFall>,
}

impl Default for Balance {
    fn default() -> Self {
        Self {
            gains: [1.0; 3],
            shadow_tint: None,
            shadow_fall: None,
        }
    }
}

impl Balance {
    /// The most common frame/reference ratio per channel over pixels where `mask` is non-zero
    /// (the table away from the counter): pieces and shadows are a minority and do not move
    /// the mode. `None` when too few pixels could be used.
    pub fn estimate(frame: &Mat, reference: &Mat, mask: &Mat) -> Option<Self> {
        let bins = ((GAIN_RANGE.1 - GAIN_RANGE.0) / GAIN_BIN) as usize + 1;
        let mut hist = vec![[0u32; 3]; bins];
        let mut count = 0u32;
        for y in (0..frame.rows()).step_by(GAIN_STRIDE) {
            let f = frame.at_row::<Vec3b>(y).ok()?;
            let r = reference.at_row::<Vec3b>(y).ok()?;
            let m = mask.at_row::<u8>(y).ok()?;
            for x in (0..f.len().min(r.len()).min(m.len())).step_by(GAIN_STRIDE) {
                if m[x] == 0 {
                    continue;
                }
                let (fp, rp) = (f[x], r[x]);
                if (0..3).any(|c| (rp[c] as f32) < GAIN_MIN_LEVEL || fp[c] >= 254) {
                    continue;
                }
                count += 1;
                for c in 0..3 {
                    let ratio = fp[c] as f32 / rp[c] as f32;
                    if ratio >= GAIN_RANGE.0 && ratio <= GAIN_RANGE.1 {
                        let b = ((ratio - GAIN_RANGE.0) / GAIN_BIN) as usize;
                        hist[b.min(bins - 1)][c] += 1;
                    }
                }
            }
        }
        if count < 100 {
            return None;
        }
        let mut gains = [1.0f32; 3];
        for (c, g) in gains.iter_mut().enumerate() {
            // The mode of a lightly smoothed histogram; its ratio inverted is the gain.
            let smooth = |b: usize| {
                let lo = b.saturating_sub(2);
                let hi = (b + 2).min(bins - 1);
                (lo..=hi).map(|k| hist[k][c]).sum::<u32>()
            };
            let best = (0..bins).max_by_key(|&b| smooth(b)).unwrap_or(0);
            let ratio = GAIN_RANGE.0 + (best as f32 + 0.5) * GAIN_BIN;
            *g = 1.0 / ratio;
        }
        Some(Self {
            gains,
            shadow_tint: None,
            shadow_fall: None,
        })
    }

    /// Estimates [`Balance::shadow_tint`] from the frame's clear shadows (pixels where `mask` is
    /// non-zero, darker than the table and close to its colour): the median per-channel ratio
    /// of the balanced frame to the darkened reference.
    pub fn with_shadow_tint(mut self, frame: &Mat, reference: &Mat, mask: &Mat) -> Self {
        let mut ratios: [Vec<f32>; 3] = [Vec::new(), Vec::new(), Vec::new()];
        for y in (0..frame.rows()).step_by(GAIN_STRIDE.max(1) / 2 + 1) {
            let (Ok(f), Ok(r), Ok(m)) = (
                frame.at_row::<Vec3b>(y),
                reference.at_row::<Vec3b>(y),
                mask.at_row::<u8>(y),
            ) else {
                continue;
            };
            for x in 0..f.len().min(r.len()).min(m.len()) {
                if m[x] == 0 {
                    continue;
                }
                let fp = self.apply(f[x]);
                let rp = [r[x][0] as f32, r[x][1] as f32, r[x][2] as f32];
                if rp.iter().any(|&c| c < GAIN_MIN_LEVEL) {
                    continue;
                }
                let rr = dot(rp, rp);
                let s = dot(fp, rp) / rr;
                if !(DARKEST_SHADOW..=1.0 - TINT_SAMPLE_DARKER).contains(&s) {
                    continue;
                }
                let e = [fp[0] - s * rp[0], fp[1] - s * rp[1], fp[2] - s * rp[2]];
                if dot(e, e).sqrt() > TINT_SAMPLE_MAX_CHANGE * s * rr.sqrt() {
                    continue;
                }
                for c in 0..3 {
                    ratios[c].push(fp[c] / (s * rp[c]));
                }
            }
        }
        if ratios[0].len() < MIN_TINT_SAMPLES {
            return self;
        }
        let mut t = [1.0f32; 3];
        for c in 0..3 {
            let v = &mut ratios[c];
            let mid = v.len() / 2;
            let (_, m, _) = v.select_nth_unstable_by(mid, f32::total_cmp);
            t[c] = *m;
        }
        let mean = (t[0] + t[1] + t[2]) / 3.0;
        if mean > 0.0 {
            self.shadow_tint = Some(t.map(|v| v / mean));
        }
        self
    }

    pub fn apply(&self, p: Vec3b) -> [f32; 3] {
        [
            p[0] as f32 * self.gains[0],
            p[1] as f32 * self.gains[1],
            p[2] as f32 * self.gains[2],
        ]
    }
}

/// Whether a colour change `e` (of squared length `e2`, on a table level `level`) is a shift
/// away from blue, towards red and yellow (asked of pixels as dark as a shadow). A shadow is lit by the room's bluer ambient light
/// alone, so it never turns warmer than the table: a brown chest or a gold bar on a wooden
/// table, darker and of nearly its hue, is a piece, not a shadow.
fn warmer(e: [f32; 3], e2: f32, level: f32) -> bool {
    if level <= 1.0 || e2 < WARM_MIN_ABS * WARM_MIN_ABS {
        return false;
    }
    let rel = e2.sqrt() / level;
    let blue = (e[0] - 0.5 * (e[1] + e[2])) / level;
    rel > WARM_MIN_REL && blue < -WARM_MIN_SHIFT
}

fn dot(a: [f32; 3], b: [f32; 3]) -> f32 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

fn cross(a: [f32; 3], b: [f32; 3]) -> [f32; 3] {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}

/// Where a pixel's colour lies against the plane of the table's lit and shaded colours.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TintMetrics {
    /// Brightness along the table's colour (1 = as the empty table).
    pub s: f32,
    /// The table's level there times `s` (8-bit units): thresholds scale with it.
    pub level: f32,
    /// Distance off the plane, levels.
    pub off: f32,
    /// Position in the plane across the table's colour, towards the tint (levels; a shadow is
    /// positive, a warmer colour negative).
    pub w: f32,
    /// `w` of a full shadow as dark as this pixel.
    pub deepest: f32,
}

/// [`TintMetrics`] of a balanced frame pixel `f` over reference `r` with shadow tint `t`;
/// `None` when the reference is black or the tint is no tint.
// Inlined into the labelling loops: out of line it costs a few milliseconds a frame.
#[inline(always)]
pub fn tint_metrics(f: [f32; 3], r: [f32; 3], t: [f32; 3]) -> Option<TintMetrics> {
    TintedReference::new(r, t).map(|tr| tr.metrics(f))
}

/// The part of [`tint_metrics`] that depends on the reference pixel and the tint only. A
/// labeller compares each frame pixel with up to nine reference pixels
/// ([`super::region`]'s `label_near`): worked out once per reference pixel and frame, this
/// serves them all, and the metrics it gives are bit for bit [`tint_metrics`]'s.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TintedReference {
    r: [f32; 3],
    rr: f32,
    rn: f32,
    /// The normal of the plane of lit and shaded table colours, and its length.
    n: [f32; 3],
    nn: f32,
    /// The tinted reference's share along `r`, and its part across `r` with that part's length.
    qr: f32,
    qp: [f32; 3],
    qpn: f32,
}

impl TintedReference {
    /// `None` when the reference is black or the tint is no tint (see [`tint_metrics`]).
    #[inline(always)]
    pub fn new(r: [f32; 3], t: [f32; 3]) -> Option<Self> {
        let rr = dot(r, r);
        if rr < 1.0 {
            return None;
        }
        let q = [r[0] * t[0], r[1] * t[1], r[2] * t[2]];
        let n = cross(r, q);
        let nn = dot(n, n).sqrt();
        let rn = rr.sqrt();
        if nn < MIN_TINT_ANGLE_SIN * rn * dot(q, q).sqrt() {
            return None;
        }
        let qr = dot(q, r) / rr;
        let qp = [q[0] - qr * r[0], q[1] - qr * r[1], q[2] - qr * r[2]];
        let qpn = dot(qp, qp).sqrt();
        Some(Self {
            r,
            rr,
            rn,
            n,
            nn,
            qr,
            qp,
            qpn,
        })
    }

    /// The metrics of balanced frame pixel `f` over this reference pixel.
    #[inline(always)]
    pub fn metrics(&self, f: [f32; 3]) -> TintMetrics {
        let s = dot(f, self.r) / self.rr;
        TintMetrics {
            s,
            level: s.max(0.0) * self.rn,
            off: dot(f, self.n).abs() / self.nn,
            w: dot(f, self.qp) / self.qpn,
            deepest: s * self.qpn / self.qr.max(1e-3),
        }
    }
}

/// A reference pixel made ready to label frame pixels against ([`label_tinted`]), its
/// frame-independent part done once.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum PreparedReference {
    /// No tint measured: [`label`].
    Untinted([f32; 3]),
    /// A measured neutral tint, or a black reference: [`label_tinted`]'s neutral case.
    Neutral([f32; 3]),
    Tinted(TintedReference),
}

impl PreparedReference {
    #[inline(always)]
    pub fn new(r: [f32; 3], tint: Option<[f32; 3]>) -> Self {
        match tint {
            None => Self::Untinted(r),
            Some(t) => TintedReference::new(r, t).map_or(Self::Neutral(r), Self::Tinted),
        }
    }

    /// [`label_tinted`] of balanced frame pixel `f` over this reference pixel.
    #[inline(always)]
    pub fn label(&self, f: [f32; 3]) -> Label {
        match self {
            Self::Untinted(r) => label(f, *r),
            Self::Neutral(r) => label_neutral(f, *r),
            Self::Tinted(tr) => label_in_tint_plane(&tr.metrics(f)),
        }
    }
}

/// How far a pixel lies past the tint of a full shadow as dark as it, as a share of its level:
/// `(w - deepest) / level` of [`tint_metrics`]. A shadow lies at or below 0 (a penumbra is
/// part lit, so less tinted), give or take the table's grain; a dark piece whose colour leans
/// the way the shadows do (a brown chest on warm wood) lies past it. `None` without a tint.
pub fn shadow_warmth(f: [f32; 3], r: [f32; 3], tint: Option<[f32; 3]>) -> Option<f32> {
    let m = tint_metrics(f, r, tint?)?;
    (m.level > 1.0).then(|| (m.w - m.deepest) / m.level)
}

/// Whether pixel `p` of the `width`-wide `labels` lies within `d` pixels (a square) of a
/// [`Label::Piece`] pixel: where the blurred fine view lends a piece's colour to its neighbours.
pub fn near_a_piece(labels: &[Label], width: usize, p: usize, d: usize) -> bool {
    let height = labels.len() / width.max(1);
    let (x, y) = (p % width.max(1), p / width.max(1));
    let (x0, x1) = (x.saturating_sub(d), (x + d + 1).min(width));
    (y.saturating_sub(d)..(y + d + 1).min(height))
        .any(|yy| labels[yy * width + x0..yy * width + x1].contains(&Label::Piece))
}

/// Pixel by pixel, a dark piece whose colour leans the way the shadows do is within the grain's
/// noise of a shadow; over a patch it is not. Every [`Label::Shadow`] pixel whose
/// shadow-labelled neighbours (within [`WARM_PATCH_RADIUS_MM`], over at least [`WARM_PATCH_MIN_MM2`]
/// of them) average a `warmth` ([`shadow_warmth`]) of [`WARM_PATCH_MEAN`] or more, and whose
/// own warmth is at least [`WARM_PIXEL_MIN`], becomes [`Label::Piece`]. Shadow pixels within
/// [`WARM_NEAR_PIECE_MM`] of a piece take some of its colour (the fine view is blurred): they
/// neither count nor change. `warmth` holds a value for every shadow pixel of the `width`-wide
/// image (others are ignored). Returns the pixels relabelled.
pub fn relabel_warm_patches(
    labels: &mut [Label],
    warmth: &[f32],
    width: usize,
    mm_per_px: f64,
) -> Vec<usize> {
    if width == 0 || labels.len() != warmth.len() {
        return Vec::new();
    }
    let height = labels.len() / width;
    let near = length_px(WARM_NEAR_PIECE_MM, mm_per_px, 1);
    let near_piece = |p: usize| near_a_piece(labels, width, p, near);
    // The shadow pixels that count: their warmth, NaN elsewhere.
    let counted: Vec<f32> = (0..labels.len())
        .map(|p| {
            if labels[p] == Label::Shadow && warmth[p].is_finite() && !near_piece(p) {
                warmth[p]
            } else {
                f32::NAN
            }
        })
        .collect();
    if !counted.iter().any(|&v| v >= WARM_PIXEL_MIN) {
        return Vec::new();
    }
    // Summed-area tables of the counted pixels' warmth and number, (width + 1) x (height + 1).
    let stride = width + 1;
    let mut sum = vec![0.0f64; stride * (height + 1)];
    let mut count = vec![0u32; stride * (height + 1)];
    for y in 0..height {
        let (mut row_sum, mut row_count) = (0.0f64, 0u32);
        for x in 0..width {
            let v = counted[y * width + x];
            if v.is_finite() {
                row_sum += v as f64;
                row_count += 1;
            }
            let at = (y + 1) * stride + x + 1;
            sum[at] = sum[at - stride] + row_sum;
            count[at] = count[at - stride] + row_count;
        }
    }
    let r = length_px(WARM_PATCH_RADIUS_MM, mm_per_px, 1);
    let min_px = count_px(WARM_PATCH_MIN_MM2, mm_per_px);
    let mut changed = Vec::new();
    for (p, &v) in counted.iter().enumerate() {
        // NaN (not counted) fails this too.
        if v.is_nan() || v < WARM_PIXEL_MIN {
            continue;
        }
        let (x, y) = (p % width, p / width);
        let (x0, x1) = (x.saturating_sub(r), (x + r + 1).min(width));
        let (y0, y1) = (y.saturating_sub(r), (y + r + 1).min(height));
        let (a, b, c, d) = (
            y0 * stride + x0,
            y0 * stride + x1,
            y1 * stride + x0,
            y1 * stride + x1,
        );
        let n = (count[d] + count[a]).saturating_sub(count[b] + count[c]) as usize;
        if n >= min_px && (sum[d] + sum[a] - sum[b] - sum[c]) / n as f64 >= WARM_PATCH_MEAN as f64 {
            changed.push(p);
        }
    }
    for &p in &changed {
        labels[p] = Label::Piece;
    }
    changed
}

/// The label of one pixel (balanced frame `f`, reference `r`) knowing the frame's shadow
/// tint: the table lit, shaded or half shaded is `a r + b (r * tint)` with `a, b >= 0`; a colour
/// off that plane, or in it but warmer than the lit table, or bluer than the darkest shadow,
/// is a piece. Without a tint (or with a neutral one), [`label`].
pub fn label_tinted(f: [f32; 3], r: [f32; 3], tint: Option<[f32; 3]>) -> Label {
    PreparedReference::new(r, tint).label(f)
}

/// [`label_tinted`] of a pixel with a tint that is one, from its metrics.
#[inline(always)]
fn label_in_tint_plane(m: &TintMetrics) -> Label {
    if !(DARKEST_SHADOW..=1.0 + BRIGHTER).contains(&m.s) {
        return Label::Piece;
    }
    let noise = OFF_PLANE_ABS + OFF_PLANE_REL * m.level;
    if m.off > noise
        || m.w < -(ANTI_TINT_ABS + ANTI_TINT_REL * m.level)
        || m.w > 1.5 * m.deepest.abs() + noise
    {
        return Label::Piece;
    }
    if m.s < 1.0 - DARKER {
        Label::Shadow
    } else {
        Label::Table
    }
}

/// The label of one pixel when the frame's shadows are known to keep the table's colour (a
/// measured neutral tint): any colour change beyond the noise is a piece.
fn label_neutral(f: [f32; 3], r: [f32; 3]) -> Label {
    let rr = dot(r, r);
    if rr < 1.0 {
        return label(f, r);
    }
    let s = dot(f, r) / rr;
    if !(DARKEST_SHADOW..=1.0 + BRIGHTER).contains(&s) {
        return Label::Piece;
    }
    let e = [f[0] - s * r[0], f[1] - s * r[1], f[2] - s * r[2]];
    if dot(e, e).sqrt() > OFF_PLANE_ABS + OFF_PLANE_REL * s * rr.sqrt() {
        Label::Piece
    } else if s < 1.0 - DARKER {
        Label::Shadow
    } else {
        Label::Table
    }
}

/// The label of one pixel (balanced frame `f`, reference `r`).
pub fn label(f: [f32; 3], r: [f32; 3]) -> Label {
    let rr = r[0] * r[0] + r[1] * r[1] + r[2] * r[2];
    if rr < 1.0 {
        return if f[0] + f[1] + f[2] > 3.0 * CHANGE_ABS {
            Label::Piece
        } else {
            Label::Table
        };
    }
    let s = (f[0] * r[0] + f[1] * r[1] + f[2] * r[2]) / rr;
    let e = [f[0] - s * r[0], f[1] - s * r[1], f[2] - s * r[2]];
    let e2 = e[0] * e[0] + e[1] * e[1] + e[2] * e[2];
    let limit = CHANGE_ABS + CHANGE_REL * s.max(0.0) * rr.sqrt();
    if e2 > limit * limit
        || !(DARKEST_SHADOW..=1.0 + BRIGHTER).contains(&s)
        || (s < 1.0 - DARKER && warmer(e, e2, s * rr.sqrt()))
    {
        Label::Piece
    } else if s < 1.0 - DARKER {
        Label::Shadow
    } else {
        Label::Table
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// [`label_tinted`] as first written: every metric worked out from the pixel pair.
    fn plain_label_tinted(f: [f32; 3], r: [f32; 3], tint: Option<[f32; 3]>) -> Label {
        let Some(t) = tint else {
            return label(f, r);
        };
        let rr = dot(r, r);
        let q = [r[0] * t[0], r[1] * t[1], r[2] * t[2]];
        let n = cross(r, q);
        let nn = dot(n, n).sqrt();
        let rn = rr.sqrt();
        if rr < 1.0 || nn < MIN_TINT_ANGLE_SIN * rn * dot(q, q).sqrt() {
            return label_neutral(f, r);
        }
        let s = dot(f, r) / rr;
        let qr = dot(q, r) / rr;
        let qp = [q[0] - qr * r[0], q[1] - qr * r[1], q[2] - qr * r[2]];
        let qpn = dot(qp, qp).sqrt();
        let (level, off, w, deepest) = (
            s.max(0.0) * rn,
            dot(f, n).abs() / nn,
            dot(f, qp) / qpn,
            s * qpn / qr.max(1e-3),
        );
        if !(DARKEST_SHADOW..=1.0 + BRIGHTER).contains(&s) {
            return Label::Piece;
        }
        let noise = OFF_PLANE_ABS + OFF_PLANE_REL * level;
        if off > noise || w < -(ANTI_TINT_ABS + ANTI_TINT_REL * level) || w > 1.5 * deepest.abs() + noise {
            Label::Piece
        } else if s < 1.0 - DARKER {
            Label::Shadow
        } else {
            Label::Table
        }
    }

    fn level() -> impl Strategy<Value = f32> {
        (0u8..=255).prop_map(f32::from)
    }

    proptest! {
        #[test]
        fn a_prepared_reference_labels_as_the_plain_routine(
            r in [level(), level(), level()],
            // Frame pixels near the reference's colour (shadows, the table) and anywhere.
            (shade, jitter, anywhere) in (0.0f32..1.4, [-12.0f32..12.0, -12.0f32..12.0, -12.0f32..12.0], any::<bool>()),
            g in [level(), level(), level()],
            tint in prop::option::of(prop::sample::select(vec![
                [1.0f32, 1.0, 1.0],
                [0.964, 1.006, 1.030],
                [1.08, 0.98, 0.94],
                [1.0, 1.0, 1.0005],
            ])),
        ) {
            let f = if anywhere {
                g
            } else {
                [0, 1, 2].map(|c| (r[c] * shade + jitter[c]).max(0.0))
            };
            let prepared = PreparedReference::new(r, tint);
            prop_assert_eq!(prepared.label(f), plain_label_tinted(f, r, tint));
            prop_assert_eq!(label_tinted(f, r, tint), plain_label_tinted(f, r, tint));
            if let Some(t) = tint {
                let m = tint_metrics(f, r, t);
                prop_assert_eq!(m, TintedReference::new(r, t).map(|tr| tr.metrics(f)));
            }
        }
    }

    #[test]
    fn a_full_shadow_is_as_warm_as_its_tint_a_penumbra_less_and_a_brown_chest_more() {
        let wood = [93.0, 146.0, 178.0];
        // A tint normalised to mean 1, warmer than the table (bench scene 1's).
        let t = [0.964, 1.006, 1.030];
        let shade = |a: f32, b: f32| [0, 1, 2].map(|c| wood[c] * (a + b * t[c]));
        let full = shadow_warmth(shade(0.0, 0.6), wood, Some(t)).unwrap();
        assert!(full.abs() < 1e-4, "{full}");
        let penumbra = shadow_warmth(shade(0.3, 0.4), wood, Some(t)).unwrap();
        assert!(penumbra < full - 0.005, "{penumbra}");
        // Bench scene 1's chest in the shade: labelled shadow pixel by pixel.
        let chest = [58.0, 96.0, 136.0];
        assert_eq!(label_tinted(chest, wood, Some(t)), Label::Shadow);
        let warm = shadow_warmth(chest, wood, Some(t)).unwrap();
        assert!(warm > WARM_PATCH_MEAN, "{warm}");
        assert_eq!(shadow_warmth(chest, wood, None), None);
    }

    #[test]
    fn a_warm_patch_among_shadows_turns_to_piece_but_not_next_to_a_piece() {
        let (w, h) = (60, 40);
        let mut labels = vec![Label::Shadow; w * h];
        // The grain: a shadow's warmth wanders around 0, up to past the pixel threshold.
        let mut warmth: Vec<f32> = (0..w * h)
            .map(|p| 0.03 * (((p * 7919) % 13) as f32 / 6.0 - 1.0))
            .collect();
        // A chest (16 x 16 at x 10..26) lies past the tint; a piece stands at column 59.
        let chest = |p: usize| (10..26).contains(&(p % w)) && (12..28).contains(&(p / w));
        for p in 0..w * h {
            if chest(p) {
                warmth[p] = 0.06 + 0.01 * ((p % 3) as f32 - 1.0);
            }
            if p % w == w - 1 {
                labels[p] = Label::Piece;
            }
        }
        // Warm shadow right next to the piece (colour bled into it by the blur): taken as a
        // patch, it would turn the column next to the piece.
        for y in 0..h {
            for x in w - 5..w - 1 {
                warmth[y * w + x] = 0.08;
            }
        }
        let changed = relabel_warm_patches(&mut labels, &warmth, w, 1.0);
        assert!(!changed.is_empty());
        // Its pixels whose window is mostly chest (4 or more from its edges).
        let inner = (0..w * h).filter(|&p| (14..22).contains(&(p % w)) && (16..24).contains(&(p / w)));
        for p in inner {
            assert_eq!(labels[p], Label::Piece, "chest pixel {p}");
        }
        for (p, &l) in labels.iter().enumerate() {
            let (x, y) = (p % w, p / w);
            let far = !(6..30).contains(&x) || !(8..32).contains(&y);
            if far && x < w - 1 {
                assert_eq!(l, Label::Shadow, "shadow pixel ({x}, {y})");
            }
        }
        // Nothing to see without warmth.
        let mut plain = vec![Label::Shadow; w * h];
        assert!(relabel_warm_patches(&mut plain, &vec![f32::NAN; w * h], w, 1.0).is_empty());
    }

    #[test]
    fn a_warm_patch_is_measured_on_the_table_not_in_pixels() {
        // The same 16 mm chest seen at 2 mm a pixel: 8 x 8 pixels among shadows of no warmth.
        let (w, h) = (30, 20);
        let mut labels = vec![Label::Shadow; w * h];
        let chest = |p: usize| (5..13).contains(&(p % w)) && (6..14).contains(&(p / w));
        let warmth: Vec<f32> = (0..w * h).map(|p| if chest(p) { 0.06 } else { 0.0 }).collect();
        let changed = relabel_warm_patches(&mut labels, &warmth, w, 2.0);
        // Its middle turns (its square of 6 mm holds 49 mm² of warm shadow, at least the 40
        // needed); counted in pixels (a radius of 6, at least 40 of them) no pixel would.
        for p in (0..w * h).filter(|&p| (8..10).contains(&(p % w)) && (9..11).contains(&(p / w))) {
            assert_eq!(labels[p], Label::Piece, "chest pixel {p}");
        }
        assert!(changed.iter().all(|&p| chest(p)));
    }

    #[test]
    fn shadows_pieces_and_table() {
        let table = [150.0, 170.0, 200.0];
        let scaled = |k: f32| [table[0] * k, table[1] * k, table[2] * k];
        assert_eq!(label(table, table), Label::Table);
        assert_eq!(label(scaled(0.96), table), Label::Table);
        assert_eq!(label(scaled(0.6), table), Label::Shadow);
        // A bluish shadow (ambient light) is still a shadow.
        let s = scaled(0.6);
        assert_eq!(label([s[0] * 1.08, s[1], s[2] * 0.95], table), Label::Shadow);
        assert_eq!(label(scaled(0.25), table), Label::Piece, "black piece");
        // A brown chest on a wooden table: darker and nearly its hue, but warmer.
        let wood = [110.0, 160.0, 205.0];
        assert_eq!(label([49.0, 93.0, 146.0], wood), Label::Piece, "chest on wood");
        assert_eq!(label([66.0, 96.0, 123.0], wood), Label::Shadow, "shadow on wood");
        assert_eq!(label(scaled(1.3), table), Label::Piece, "white piece");
        assert_eq!(label([40.0, 140.0, 200.0], table), Label::Piece, "gold");
    }
}
