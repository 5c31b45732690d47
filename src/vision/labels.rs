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
//! - [`Label::Outside`]: not seen by the camera, or masked (the Octo-Counter's stretch of string).

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
}

impl Default for Balance {
    fn default() -> Self {
        Self {
            gains: [1.0; 3],
            shadow_tint: None,
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
pub fn tint_metrics(f: [f32; 3], r: [f32; 3], t: [f32; 3]) -> Option<TintMetrics> {
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
    let s = dot(f, r) / rr;
    let qr = dot(q, r) / rr;
    let qp = [q[0] - qr * r[0], q[1] - qr * r[1], q[2] - qr * r[2]];
    let qpn = dot(qp, qp).sqrt();
    Some(TintMetrics {
        s,
        level: s.max(0.0) * rn,
        off: dot(f, n).abs() / nn,
        w: dot(f, qp) / qpn,
        deepest: s * qpn / qr.max(1e-3),
    })
}

/// The label of one pixel (balanced frame `f`, reference `r`) knowing the frame's shadow
/// tint: the table lit, shaded or half shaded is `a r + b (r * tint)` with `a, b >= 0`; a colour
/// off that plane, or in it but warmer than the lit table, or bluer than the darkest shadow,
/// is a piece. Without a tint (or with a neutral one), [`label`].
pub fn label_tinted(f: [f32; 3], r: [f32; 3], tint: Option<[f32; 3]>) -> Label {
    let Some(t) = tint else {
        return label(f, r);
    };
    let Some(m) = tint_metrics(f, r, t) else {
        // A measured neutral tint: shadows keep the table's colour exactly.
        return label_neutral(f, r);
    };
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

/// The label of one pixel when the frame's shadows are known to keep the table's colour: any
/// colour change beyond the noise is a piece.
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
