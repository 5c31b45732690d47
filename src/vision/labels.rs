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
}

impl Default for Balance {
    fn default() -> Self {
        Self { gains: [1.0; 3] }
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
        Some(Self { gains })
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
