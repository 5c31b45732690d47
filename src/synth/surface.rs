//! Table surfaces: wood planks, cloth, laminate, each with colour variation.
//!
//! A surface is a procedural albedo over table coordinates (millimetres, table frame), so its
//! texture stays on the table when the camera moves. Colours are linear RGB.

use super::light::{Rgb, mix, rgb8, scale};
use super::random::{Purpose, fbm, lattice, pick, stream, uniform, value_noise};
use serde::{Deserialize, Serialize};

/// Width of a wooden plank, mm.
pub const PLANK_WIDTH_RANGE_MM: (f64, f64) = (90.0, 180.0);
/// Width of the dark seam between planks, mm.
const SEAM_MM: f64 = 0.8;
/// Period of the wood's growth rings across the grain, mm.
const RING_PERIOD_MM: f32 = 5.5;

/// How much of a pattern of `period_mm` survives at `mm_per_px`: 1 above four pixels per period,
/// 0 below two (it would alias).
fn resolved(period_mm: f32, mm_per_px: f64) -> f32 {
    let px = period_mm / mm_per_px.max(1e-6) as f32;
    ((px - 2.0) / 2.0).clamp(0.0, 1.0)
}

/// The kind of table top.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SurfaceKind {
    /// Light wood (oak, pine, beech) in planks.
    Wood,
    /// Dark wood (walnut, stained) in planks.
    DarkWood,
    /// A tablecloth or felt mat.
    Cloth,
    /// Laminate or painted table top, nearly uniform.
    Laminate,
}

impl SurfaceKind {
    pub const ALL: [SurfaceKind; 4] = [
        SurfaceKind::Wood,
        SurfaceKind::DarkWood,
        SurfaceKind::Cloth,
        SurfaceKind::Laminate,
    ];
}

/// A table surface: its kind, base colour (sRGB, as written to `truth.json`) and texture knobs.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Surface {
    pub kind: SurfaceKind,
    /// Mean colour, sRGB.
    pub base_srgb: [u8; 3],
    /// Direction of the wood grain / cloth weave, degrees from table +x.
    pub grain_deg: f64,
    pub plank_width_mm: f64,
    /// Strength of the colour variation (1 = nominal).
    pub variation: f64,
    pub texture_seed: u32,
}

const WOOD_COLOURS: [[u8; 3]; 4] = [
    [0xC8, 0x9B, 0x6A],
    [0xD8, 0xB3, 0x84],
    [0xB5, 0x82, 0x4E],
    [0xCF, 0xA5, 0x7A],
];
const DARK_WOOD_COLOURS: [[u8; 3]; 3] = [[0x6B, 0x45, 0x2C], [0x5A, 0x3B, 0x26], [0x7A, 0x50, 0x33]];
const CLOTH_COLOURS: [[u8; 3]; 5] = [
    [0x8A, 0x8A, 0x86],
    [0xCF, 0xC3, 0xA8],
    [0x4A, 0x50, 0x58],
    [0x2F, 0x5E, 0x44],
    [0xB9, 0xB2, 0xA6],
];
const LAMINATE_COLOURS: [[u8; 3]; 4] = [
    [0xE6, 0xE4, 0xDE],
    [0xC9, 0xCA, 0xC6],
    [0xDD, 0xD6, 0xC8],
    [0xA9, 0xAC, 0xAB],
];

impl Surface {
    pub(crate) fn sample(seed: u64) -> Self {
        let mut rng = stream(seed, Purpose::Surface, 0);
        let kind = *pick(&mut rng, &SurfaceKind::ALL).unwrap_or(&SurfaceKind::Wood);
        let palette: &[[u8; 3]] = match kind {
            SurfaceKind::Wood => &WOOD_COLOURS,
            SurfaceKind::DarkWood => &DARK_WOOD_COLOURS,
            SurfaceKind::Cloth => &CLOTH_COLOURS,
            SurfaceKind::Laminate => &LAMINATE_COLOURS,
        };
        let base = *pick(&mut rng, palette).unwrap_or(&[0xC0, 0xA0, 0x80]);
        let jitter = |rng: &mut rand_chacha::ChaCha8Rng, v: u8| {
            (v as f64 + uniform(rng, -8.0, 8.0)).clamp(0.0, 255.0) as u8
        };
        let base_srgb = [
            jitter(&mut rng, base[0]),
            jitter(&mut rng, base[1]),
            jitter(&mut rng, base[2]),
        ];
        Self {
            kind,
            base_srgb,
            grain_deg: uniform(&mut rng, 0.0, 180.0),
            plank_width_mm: uniform(&mut rng, PLANK_WIDTH_RANGE_MM.0, PLANK_WIDTH_RANGE_MM.1),
            variation: uniform(&mut rng, 0.7, 1.3),
            texture_seed: (seed as u32) ^ 0x5EED_7AB1,
        }
    }

    /// The surface ready for per-pixel lookups (its constants computed once).
    pub(crate) fn texture(&self) -> Texture {
        let (sin, cos) = self.grain_deg.to_radians().sin_cos();
        Texture {
            kind: self.kind,
            base: rgb8(self.base_srgb[0], self.base_srgb[1], self.base_srgb[2]),
            sin,
            cos,
            plank_width_mm: self.plank_width_mm as f32,
            variation: self.variation as f32,
            seed: self.texture_seed,
        }
    }
}

/// A [`Surface`] prepared for rendering.
#[derive(Debug, Clone)]
pub(crate) struct Texture {
    kind: SurfaceKind,
    base: Rgb,
    sin: f64,
    cos: f64,
    plank_width_mm: f32,
    variation: f32,
    seed: u32,
}

impl Texture {
    /// The table's albedo (linear RGB) at a table point, seen by a pixel `mm_per_px` wide: detail
    /// finer than about two pixels fades to its mean, as a lens would blur it (no moire).
    pub(crate) fn albedo(&self, x: f64, y: f64, mm_per_px: f64) -> Rgb {
        let base = self.base;
        let (s, c) = (self.sin, self.cos);
        // u along the grain, v across.
        let u = (c * x + s * y) as f32;
        let v = (-s * x + c * y) as f32;
        let k = self.variation;
        let seed = self.seed;
        match self.kind {
            SurfaceKind::Wood | SurfaceKind::DarkWood => {
                let w = self.plank_width_mm;
                let plank = (v / w).floor();
                let in_plank = v - plank * w;
                let tone = 1.0 + k * 0.16 * (lattice(seed, plank as i32, 7) - 0.5);
                let pseed = seed.wrapping_add((plank as i32 as u32).wrapping_mul(0x9E37));
                let warp = fbm(pseed, u * 0.004, v * 0.05, 3);
                let rings = (std::f32::consts::TAU * (v + 45.0 * warp) / RING_PERIOD_MM).sin()
                    * resolved(RING_PERIOD_MM, mm_per_px);
                let streak = value_noise(pseed ^ 0xA5A5, u * 0.02, v * 0.6);
                let f = 0.5 + 0.22 * rings * warp + 0.28 * (streak - 0.5);
                let dark = scale(base, 0.72);
                let light = scale(base, 1.15);
                let mut col = scale(mix(dark, light, f.clamp(0.0, 1.0)), tone);
                // The seam darkens its share of the pixel.
                let seam = SEAM_MM.max(mm_per_px) as f32;
                if in_plank < seam || in_plank > w - seam {
                    col = scale(col, 1.0 - 0.45 * (SEAM_MM / mm_per_px.max(SEAM_MM)) as f32);
                }
                col
            }
            SurfaceKind::Cloth => {
                let mottle = fbm(seed, x as f32 * 0.012, y as f32 * 0.012, 3) - 0.5;
                let fine = (lattice(seed ^ 0x00C1_07A5, (u * 1.4) as i32, (v * 1.4) as i32) - 0.5)
                    * resolved(1.4, mm_per_px);
                let weave = value_noise(seed ^ 0x77, u * 0.9, v * 0.15) - 0.5;
                scale(base, 1.0 + k * (0.12 * mottle + 0.06 * fine + 0.05 * weave))
            }
            SurfaceKind::Laminate => {
                let mottle = fbm(seed, x as f32 * 0.006, y as f32 * 0.006, 2) - 0.5;
                let speckle = (lattice(seed ^ 0x5BEC, (x * 1.2) as i32, (y * 1.2) as i32) - 0.5)
                    * resolved(1.6, mm_per_px);
                scale(base, 1.0 + k * (0.06 * mottle + 0.03 * speckle))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_has_a_varied_plausible_albedo() {
        for kind in SurfaceKind::ALL {
            let mut s = Surface::sample(3);
            s.kind = kind;
            let s = s.texture();
            let samples: Vec<f32> = (0..400)
                .map(|i| {
                    let c = s.albedo(i as f64 * 3.7, (i * i % 97) as f64 * 5.1, 0.5);
                    (c[0] + c[1] + c[2]) / 3.0
                })
                .collect();
            let min = samples.iter().cloned().fold(f32::MAX, f32::min);
            let max = samples.iter().cloned().fold(f32::MIN, f32::max);
            assert!(min > 0.005 && max < 1.0, "{kind:?}: {min}..{max}");
            assert!(max - min > 0.005, "{kind:?} has no variation");
        }
    }

    #[test]
    fn sampling_is_deterministic() {
        assert_eq!(Surface::sample(11), Surface::sample(11));
    }
}
