//! Light and colour: the key light (a lamp or a window, treated as directional), the ambient fill,
//! their colour temperature, and the camera's partial white balance.
//!
//! Conventions: colours are **linear** RGB `[r, g, b]` in `0..1` inside the renderer; catalog
//! colours are sRGB and converted with [`srgb_to_linear`]. Directions are in the table frame
//! (z into the table, so "up" is `-z`). Angles in degrees in this public struct (it is written to
//! `truth.json`), radians inside.

use super::random::{Purpose, chance, stream, uniform};
use crate::table::catalog::Srgb;
use nalgebra::Vector3;
use serde::{Deserialize, Serialize};

/// Linear RGB.
pub type Rgb = [f32; 3];

/// Key-light elevation above the table, degrees.
pub const ELEVATION_RANGE_DEG: (f64, f64) = (35.0, 78.0);
/// Key-light intensity (1 = a white page just below clipping when fully lit).
pub const KEY_RANGE: (f64, f64) = (0.55, 0.85);
/// Ambient (fill) intensity.
pub const AMBIENT_RANGE: (f64, f64) = (0.18, 0.35);
/// Colour temperature of the light, kelvin (warm bulbs to daylight).
pub const TEMPERATURE_RANGE_K: (f64, f64) = (2900.0, 6500.0);
/// How much of the light's colour the camera's auto white balance removes.
pub const WHITE_BALANCE_RANGE: (f64, f64) = (0.6, 0.92);
/// Largest brightness change across one metre of table (a lamp is not infinitely far).
pub const GRADIENT_PER_M: f64 = 0.25;
/// Contact shadow strength (see [`Light::contact_shadow`]).
pub const CONTACT_SHADOW_RANGE: (f64, f64) = (0.35, 0.65);
/// The white balance's reference temperature: the camera aims to render this light as neutral.
const NEUTRAL_K: f64 = 5500.0;
/// The ambient fill is bluer than the key (sky light, bounced light).
const AMBIENT_SHIFT_K: f64 = 1500.0;

/// The lighting of a scene (and, with a fault, of one frame).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Light {
    /// Direction towards the key light in the table plane, degrees from +x towards +y.
    pub azimuth_deg: f64,
    /// Key light elevation above the table, degrees.
    pub elevation_deg: f64,
    pub key_intensity: f64,
    pub ambient_intensity: f64,
    pub temperature_k: f64,
    /// 0 = the camera keeps the light's colour, 1 = fully corrected to neutral.
    pub white_balance: f64,
    /// Relative brightness change per metre along table x and y.
    pub gradient_per_m: [f64; 2],
    /// Table point where the gradient is 1 (the ocean's centre).
    pub gradient_origin_mm: [f64; 2],
    /// Overall brightness factor (1 normally; a lighting-change fault sets it).
    #[serde(default = "one")]
    pub brightness: f64,
    /// Colour cast multipliers on top of the light's colour (`[1, 1, 1]` normally).
    #[serde(default = "white")]
    pub cast: [f64; 3],
    /// Share of the ambient light a piece's base takes from the table right next to it (contact
    /// shadows; stronger under diffuse light).
    #[serde(default = "contact_default")]
    pub contact_shadow: f64,
}

fn contact_default() -> f64 {
    (CONTACT_SHADOW_RANGE.0 + CONTACT_SHADOW_RANGE.1) / 2.0
}

fn one() -> f64 {
    1.0
}
fn white() -> [f64; 3] {
    [1.0; 3]
}

impl Light {
    /// A random light for scene `seed`, with the gradient centred on `origin_mm`.
    pub(crate) fn sample(seed: u64, origin_mm: [f64; 2]) -> Self {
        let mut rng = stream(seed, Purpose::Light, 0);
        let g = uniform(&mut rng, 0.0, GRADIENT_PER_M);
        let ga = uniform(&mut rng, 0.0, std::f64::consts::TAU);
        let warm = chance(&mut rng, 0.45);
        let temperature_k = if warm {
            uniform(&mut rng, TEMPERATURE_RANGE_K.0, 4000.0)
        } else {
            uniform(&mut rng, 4000.0, TEMPERATURE_RANGE_K.1)
        };
        Self {
            azimuth_deg: uniform(&mut rng, 0.0, 360.0),
            elevation_deg: uniform(&mut rng, ELEVATION_RANGE_DEG.0, ELEVATION_RANGE_DEG.1),
            key_intensity: uniform(&mut rng, KEY_RANGE.0, KEY_RANGE.1),
            ambient_intensity: uniform(&mut rng, AMBIENT_RANGE.0, AMBIENT_RANGE.1),
            temperature_k,
            white_balance: uniform(&mut rng, WHITE_BALANCE_RANGE.0, WHITE_BALANCE_RANGE.1),
            gradient_per_m: [g * ga.cos(), g * ga.sin()],
            gradient_origin_mm: origin_mm,
            brightness: 1.0,
            cast: [1.0; 3],
            contact_shadow: uniform(&mut rng, CONTACT_SHADOW_RANGE.0, CONTACT_SHADOW_RANGE.1),
        }
    }

    /// Unit vector from a surface point towards the key light (table frame, `z < 0`).
    pub fn to_light(&self) -> Vector3<f64> {
        let az = self.azimuth_deg.to_radians();
        let el = self.elevation_deg.to_radians();
        Vector3::new(el.cos() * az.cos(), el.cos() * az.sin(), -el.sin())
    }

    /// The colour the camera records for a white surface under a light of this temperature, after
    /// its partial white balance and the fault cast.
    fn tint(&self, kelvin: f64) -> [f64; 3] {
        let light = kelvin_to_linear(kelvin);
        let neutral = kelvin_to_linear(NEUTRAL_K);
        let mut out = [0.0; 3];
        for c in 0..3 {
            let rel = light[c] / neutral[c];
            out[c] = rel.powf(1.0 - self.white_balance) * self.cast[c] * self.brightness;
        }
        // Keep the luminance of the tint at the brightness: colour, not exposure, changes.
        let lum = 0.2126 * out[0] + 0.7152 * out[1] + 0.0722 * out[2];
        if lum > 0.0 {
            for v in &mut out {
                *v *= self.brightness / lum;
            }
        }
        out
    }

    /// Key light colour and intensity as recorded (linear RGB).
    pub fn key_rgb(&self) -> Rgb {
        let t = self.tint(self.temperature_k);
        t.map(|v| (v * self.key_intensity) as f32)
    }

    /// Ambient light colour and intensity as recorded (linear RGB).
    pub fn ambient_rgb(&self) -> Rgb {
        let t = self.tint(self.temperature_k + AMBIENT_SHIFT_K);
        t.map(|v| (v * self.ambient_intensity) as f32)
    }

    /// Illumination factor at a table point (the gradient of a near lamp).
    pub fn falloff(&self, x_mm: f64, y_mm: f64) -> f32 {
        let dx = (x_mm - self.gradient_origin_mm[0]) / 1000.0;
        let dy = (y_mm - self.gradient_origin_mm[1]) / 1000.0;
        (1.0 + self.gradient_per_m[0] * dx + self.gradient_per_m[1] * dy).clamp(0.5, 1.5) as f32
    }
}

/// A blackbody's colour (Tanner Helland's fit), linear RGB normalised to green = 1.
pub fn kelvin_to_linear(kelvin: f64) -> [f64; 3] {
    let t = kelvin.clamp(1000.0, 40000.0) / 100.0;
    let r = if t <= 66.0 {
        255.0
    } else {
        329.698_727_446 * (t - 60.0).powf(-0.133_204_759_2)
    };
    let g = if t <= 66.0 {
        99.470_802_586_1 * t.ln() - 161.119_568_166_1
    } else {
        288.122_169_528_3 * (t - 60.0).powf(-0.075_514_849_2)
    };
    let b = if t >= 66.0 {
        255.0
    } else if t <= 19.0 {
        0.0
    } else {
        138.517_731_223_1 * (t - 10.0).ln() - 305.044_792_730_7
    };
    let lin = |v: f64| srgb_channel_to_linear((v.clamp(1.0, 255.0) / 255.0) as f32) as f64;
    let (lr, lg, lb) = (lin(r), lin(g), lin(b));
    [lr / lg, 1.0, lb / lg]
}

/// One sRGB channel (0..1) to linear.
pub fn srgb_channel_to_linear(v: f32) -> f32 {
    if v <= 0.04045 {
        v / 12.92
    } else {
        ((v + 0.055) / 1.055).powf(2.4)
    }
}

/// One linear channel (0..1) to sRGB (0..1).
pub fn linear_channel_to_srgb(v: f32) -> f32 {
    let v = v.clamp(0.0, 1.0);
    if v <= 0.003_130_8 {
        v * 12.92
    } else {
        1.055 * v.powf(1.0 / 2.4) - 0.055
    }
}

/// A catalog colour as linear RGB.
pub fn srgb_to_linear(c: Srgb) -> Rgb {
    c.0.map(|b| srgb_channel_to_linear(b as f32 / 255.0))
}

/// An sRGB triple given as bytes, as linear RGB.
pub fn rgb8(r: u8, g: u8, b: u8) -> Rgb {
    srgb_to_linear(Srgb([r, g, b]))
}

/// Linear colour scaled by `k`.
pub fn scale(c: Rgb, k: f32) -> Rgb {
    [c[0] * k, c[1] * k, c[2] * k]
}

/// Linear mix `a * (1 - t) + b * t`.
pub fn mix(a: Rgb, b: Rgb, t: f32) -> Rgb {
    [
        a[0] + (b[0] - a[0]) * t,
        a[1] + (b[1] - a[1]) * t,
        a[2] + (b[2] - a[2]) * t,
    ]
}

/// Lookup table linear (0..1 in `LUT_SIZE` steps) -> sRGB byte.
#[derive(Debug, Clone)]
pub(crate) struct SrgbLut(Vec<u8>);

const LUT_SIZE: usize = 4096;

impl SrgbLut {
    pub(crate) fn new() -> Self {
        Self(
            (0..LUT_SIZE)
                .map(|i| {
                    let v = i as f32 / (LUT_SIZE - 1) as f32;
                    (linear_channel_to_srgb(v) * 255.0).round() as u8
                })
                .collect(),
        )
    }

    pub(crate) fn encode(&self, v: f32) -> u8 {
        let i = (v.clamp(0.0, 1.0) * (LUT_SIZE - 1) as f32 + 0.5) as usize;
        self.0.get(i).copied().unwrap_or(255)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn warm_light_is_redder_than_daylight() {
        let warm = kelvin_to_linear(3000.0);
        let day = kelvin_to_linear(6500.0);
        assert!(warm[0] > day[0] && warm[2] < day[2]);
    }

    #[test]
    fn white_balance_removes_most_of_the_tint() {
        let mut l = Light::sample(1, [0.0, 0.0]);
        l.temperature_k = 3000.0;
        l.white_balance = 0.0;
        let raw = l.key_rgb();
        l.white_balance = 0.9;
        let balanced = l.key_rgb();
        let ratio = |c: Rgb| c[0] / c[2];
        assert!(ratio(raw) > ratio(balanced) && ratio(balanced) > 1.0);
    }

    #[test]
    fn srgb_round_trip() {
        let lut = SrgbLut::new();
        for b in [0u8, 1, 17, 128, 200, 255] {
            let lin = srgb_channel_to_linear(b as f32 / 255.0);
            assert_eq!(lut.encode(lin), b);
        }
    }

    #[test]
    fn light_points_up() {
        let l = Light::sample(3, [0.0, 0.0]);
        let d = l.to_light();
        assert!(d.z < 0.0 && (d.norm() - 1.0).abs() < 1e-9);
    }
}
