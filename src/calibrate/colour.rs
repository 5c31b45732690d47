//! Colours judged against the table: white balance from the table itself, and the few colour
//! classes calibration needs (the blue string and beads, the black beads, the red-orange crab).
//!
//! Conventions: images are OpenCV BGR 8-bit; colours in code are `[b, g, r]` as `f64` 0..255.
//! The table is whatever most of a rectified view shows. [`WhiteBalance`] scales the channels so
//! that something known to be white comes out neutral: the board's paper when there was a board
//! (the table may be any colour: orange wood, green cloth), else the table itself with the
//! correction limited to [`MAX_TABLE_GAIN`] (grey world is wrong for a coloured table, a little
//! correction is still better than none). Scores are dimensionless and roughly independent of
//! brightness, so shadows change them little.

use opencv::core::{Mat, Vec3b};
use opencv::prelude::*;

/// Every n-th pixel in x and y is enough to estimate the table colour.
const BALANCE_STRIDE: usize = 3;
/// Added to the channel sum in the chroma scores, as a fraction of the table's channel sum, so
/// that dark pixels (black beads, whose noise has any hue) score near 0.
const CHROMA_SOFTENING_REL: f64 = 0.25;
/// Without a known white, channel gains from the table are clamped to `1 / MAX .. MAX`.
pub const MAX_TABLE_GAIN: f64 = 1.25;
/// A pixel is "blue" (string, blue beads) above this [`WhiteBalance::blueness`].
pub const BLUE_MIN: f64 = 0.3;
/// A pixel is "black" (black beads) below this fraction of the table's brightness.
pub const BLACK_MAX_REL: f64 = 0.35;
/// A pixel is "crab red-orange" above this [`WhiteBalance::redness`].
pub const RED_MIN: f64 = 0.3;

/// Per-channel gains that make the table neutral.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct WhiteBalance {
    /// The table's median colour, `[b, g, r]`.
    pub table_bgr: [f64; 3],
    /// Multiply a channel by its gain to balance it.
    pub gains: [f64; 3],
}

/// What a pixel looks like next to the table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ColourClass {
    Table,
    Blue,
    Black,
    Red,
    Other,
}

impl WhiteBalance {
    /// No correction: for a table that is already grey at `level`.
    pub fn neutral(level: f64) -> Self {
        Self {
            table_bgr: [level; 3],
            gains: [1.0; 3],
        }
    }

    /// From a BGR image where the table dominates; `valid` (8-bit, non-zero = use) may leave out
    /// parts outside the camera's view. Without a known white the table itself is taken as grey,
    /// with the correction limited to [`MAX_TABLE_GAIN`]; prefer [`Self::estimate_with_white`]
    /// with the profile's `white_bgr`. `None` when no pixel could be used.
    pub fn estimate(image: &Mat, valid: Option<&Mat>) -> Option<Self> {
        Self::estimate_with_white(image, valid, None)
    }

    /// As [`Self::estimate`], with `white` the colour of something white under the same light
    /// (the board's paper, `Profile::white_bgr`), when known.
    pub fn estimate_with_white(image: &Mat, valid: Option<&Mat>, white: Option<[f64; 3]>) -> Option<Self> {
        let mut chans: [Vec<u8>; 3] = [Vec::new(), Vec::new(), Vec::new()];
        for y in (0..image.rows()).step_by(BALANCE_STRIDE) {
            let row = image.at_row::<Vec3b>(y).ok()?;
            let vrow = match valid {
                Some(v) => Some(v.at_row::<u8>(y).ok()?),
                None => None,
            };
            for x in (0..row.len()).step_by(BALANCE_STRIDE) {
                if vrow.is_some_and(|v| v.get(x).copied().unwrap_or(0) == 0) {
                    continue;
                }
                let p = row[x];
                if p[0] == 0 && p[1] == 0 && p[2] == 0 {
                    continue;
                }
                for c in 0..3 {
                    chans[c].push(p[c]);
                }
            }
        }
        if chans[0].is_empty() {
            return None;
        }
        let mut table_bgr = [0.0; 3];
        for c in 0..3 {
            let v = &mut chans[c];
            let mid = v.len() / 2;
            let (_, m, _) = v.select_nth_unstable(mid);
            table_bgr[c] = (*m as f64).max(1.0);
        }
        let gains = match white {
            Some(w) if w.iter().all(|&v| v > 1.0) => {
                let grey = (w[0] + w[1] + w[2]) / 3.0;
                w.map(|v| grey / v)
            }
            _ => {
                let grey = (table_bgr[0] + table_bgr[1] + table_bgr[2]) / 3.0;
                table_bgr.map(|t| (grey / t).clamp(1.0 / MAX_TABLE_GAIN, MAX_TABLE_GAIN))
            }
        };
        Some(Self { table_bgr, gains })
    }

    /// The table's brightness after balancing (the reference for "dark").
    pub fn table_level(&self) -> f64 {
        (self.table_bgr[0] * self.gains[0]
            + self.table_bgr[1] * self.gains[1]
            + self.table_bgr[2] * self.gains[2])
            / 3.0
    }

    pub fn balance(&self, bgr: [f64; 3]) -> [f64; 3] {
        [
            bgr[0] * self.gains[0],
            bgr[1] * self.gains[1],
            bgr[2] * self.gains[2],
        ]
    }

    fn softening(&self) -> f64 {
        CHROMA_SOFTENING_REL * 3.0 * self.table_level()
    }

    /// How much bluer than grey a colour is: `3 (b - max(g, r)) / (b + g + r + s)` after
    /// balancing, `s` a quarter of the table's channel sum. The string scores about 1, blue beads
    /// about 1.1 (about 0.8 in shadow), the table and black beads about 0.
    pub fn blueness(&self, bgr: [f64; 3]) -> f64 {
        let [b, g, r] = self.balance(bgr);
        3.0 * (b - g.max(r)) / (b + g + r + self.softening())
    }

    /// How much redder than grey, like [`Self::blueness`]. The crab scores about 1.2.
    pub fn redness(&self, bgr: [f64; 3]) -> f64 {
        let [b, g, r] = self.balance(bgr);
        3.0 * (r - g.max(b)) / (b + g + r + self.softening())
    }

    /// Brightness relative to the table (1 = as bright as the table).
    pub fn relative_brightness(&self, bgr: [f64; 3]) -> f64 {
        let [b, g, r] = self.balance(bgr);
        (b + g + r) / (3.0 * self.table_level().max(1.0))
    }

    /// Distance between two colours' balanced chromaticities (`c / (b + g + r)`, Euclidean):
    /// 0 for the same hue and saturation whatever their brightness (a shadow), about 0.2 between
    /// a neutral grey and a brown wood.
    pub fn chroma_distance(&self, a: [f64; 3], b: [f64; 3]) -> f64 {
        let chroma = |c: [f64; 3]| {
            let c = self.balance(c);
            let sum = (c[0] + c[1] + c[2]).max(1.0);
            c.map(|v| v / sum)
        };
        let (ca, cb) = (chroma(a), chroma(b));
        ((ca[0] - cb[0]).powi(2) + (ca[1] - cb[1]).powi(2) + (ca[2] - cb[2]).powi(2)).sqrt()
    }

    pub fn classify(&self, bgr: [f64; 3]) -> ColourClass {
        if self.blueness(bgr) > BLUE_MIN {
            ColourClass::Blue
        } else if self.redness(bgr) > RED_MIN {
            ColourClass::Red
        } else if self.relative_brightness(bgr) < BLACK_MAX_REL {
            ColourClass::Black
        } else if self.relative_brightness(bgr) > 0.6 {
            ColourClass::Table
        } else {
            ColourClass::Other
        }
    }
}

/// Bilinear BGR sample at continuous pixel coordinates (integer = pixel centre); `None` outside
/// the image or on black (outside-the-view) pixels.
pub fn sample_bgr(image: &Mat, x: f64, y: f64) -> Option<[f64; 3]> {
    let (w, h) = (image.cols(), image.rows());
    if !(x >= 0.0 && y >= 0.0 && x <= (w - 1) as f64 && y <= (h - 1) as f64) {
        return None;
    }
    let (x0, y0) = (x.floor() as i32, y.floor() as i32);
    let (x1, y1) = ((x0 + 1).min(w - 1), (y0 + 1).min(h - 1));
    let (fx, fy) = (x - x0 as f64, y - y0 as f64);
    let at = |xx: i32, yy: i32| image.at_2d::<Vec3b>(yy, xx).ok().copied();
    let (a, b, c, d) = (at(x0, y0)?, at(x1, y0)?, at(x0, y1)?, at(x1, y1)?);
    if [a, b, c, d].iter().any(|p| p[0] == 0 && p[1] == 0 && p[2] == 0) {
        return None;
    }
    let mut out = [0.0; 3];
    for (ch, o) in out.iter_mut().enumerate() {
        let top = a[ch] as f64 * (1.0 - fx) + b[ch] as f64 * fx;
        let bottom = c[ch] as f64 * (1.0 - fx) + d[ch] as f64 * fx;
        *o = top * (1.0 - fy) + bottom * fy;
    }
    Some(out)
}

/// sRGB `#RRGGBB` bytes -> `[b, g, r]`.
pub fn bgr_of(rgb: [u8; 3]) -> [f64; 3] {
    [rgb[2] as f64, rgb[1] as f64, rgb[0] as f64]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn catalog_colours_classify_on_a_warm_table() {
        // A warm (wooden) table under warm light: everything shifted towards red.
        let tint = [0.8, 0.95, 1.15];
        let table = [150.0 * tint[0], 150.0 * tint[1], 150.0 * tint[2]];
        let wb = WhiteBalance {
            table_bgr: table,
            gains: {
                let g = (table[0] + table[1] + table[2]) / 3.0;
                table.map(|t| g / t)
            },
        };
        let lit = |rgb: [u8; 3], k: f64| {
            let c = bgr_of(rgb);
            [c[0] * tint[0] * k, c[1] * tint[1] * k, c[2] * tint[2] * k]
        };
        for k in [0.45, 0.7, 1.0] {
            let dark = lit([0x15, 0x15, 0x15], k);
            // Sensor noise on a black bead: any hue, never blue or red.
            for d in [[6.0, -4.0, -4.0], [-4.0, -4.0, 6.0]] {
                let noisy = [dark[0] + d[0], dark[1] + d[1], dark[2] + d[2]];
                assert_eq!(wb.classify(noisy), ColourClass::Black, "noisy black {k} {d:?}");
            }
            assert_eq!(
                wb.classify(lit([0x2C, 0x6F, 0xD6], k)),
                ColourClass::Blue,
                "string {k}"
            );
            assert_eq!(
                wb.classify(lit([0x1F, 0x4F, 0xBF], k)),
                ColourClass::Blue,
                "bead {k}"
            );
            assert_eq!(
                wb.classify(lit([0x15, 0x15, 0x15], k)),
                ColourClass::Black,
                "black {k}"
            );
            assert_eq!(
                wb.classify(lit([0xE2, 0x55, 0x2D], k)),
                ColourClass::Red,
                "crab {k}"
            );
        }
        assert_eq!(wb.classify(table), ColourClass::Table);
    }
}
