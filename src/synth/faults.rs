//! Faults a frame can carry, for the reliability tests: a hand over the ocean, a lighting change,
//! a camera nudge, pieces pushed out of view.
//!
//! A caller asks for faults with [`Faults`]; `Scene::frame` turns the request into concrete
//! [`RenderOptions`] (the hand's pose, the changed light, the moved camera) and a changed layout,
//! and the truth says `obstructed` / `view_moved` accordingly.

use super::light::{Light, Rgb, rgb8};
use super::mesh::{Material, Part, V3};
use super::random::{Purpose, pick, stream, uniform};
use super::string_loop::StringLoop;
use crate::table::{Camera, PointMm, PointMm3, Pose};
use nalgebra::{Rotation3, Unit, Vector3};
use serde::{Deserialize, Serialize};

/// Height of the palm above the table, mm.
pub const HAND_HEIGHT_RANGE_MM: (f64, f64) = (40.0, 170.0);
/// How far the fingertips reach inside the string, mm.
pub const HAND_REACH_RANGE_MM: (f64, f64) = (60.0, 220.0);
/// Default camera nudge when a caller asks for one without sizes: rotation (deg), shift (mm).
pub const NUDGE_DEFAULT: (f64, f64) = (1.5, 12.0);
/// Skin tones, sRGB.
const SKIN_TONES: [[u8; 3]; 5] = [
    [0xF1, 0xC2, 0x9F],
    [0xE0, 0xA8, 0x7E],
    [0xC6, 0x8B, 0x62],
    [0x8D, 0x5B, 0x3C],
    [0x5C, 0x3A, 0x26],
];

/// What a caller wants to go wrong in a frame.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Faults {
    /// A hand and forearm reaching over the ocean.
    #[serde(default)]
    pub hand: bool,
    #[serde(default)]
    pub lighting: Option<LightingChange>,
    #[serde(default)]
    pub camera_nudge: Option<CameraNudge>,
    /// How many pieces (treasures first, then the die and anchors) are pushed out of the view.
    #[serde(default)]
    pub pushed_out: usize,
}

impl Faults {
    pub fn none() -> Self {
        Self::default()
    }

    pub fn is_empty(&self) -> bool {
        *self == Self::default()
    }
}

/// The room's light changes (a lamp switched on, a cloud, a curtain).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LightingChange {
    /// Multiplies the light's intensity.
    pub brightness: f64,
    /// Multiplies the light's colour per channel (r, g, b).
    pub cast: [f64; 3],
}

/// The camera (or the table) is bumped: a rotation about a random axis through the camera centre
/// and a shift along a random direction.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CameraNudge {
    pub rotation_deg: f64,
    pub translation_mm: f64,
}

impl Default for CameraNudge {
    fn default() -> Self {
        Self {
            rotation_deg: NUDGE_DEFAULT.0,
            translation_mm: NUDGE_DEFAULT.1,
        }
    }
}

/// A hand over the table: the arm comes in from `shoulder_mm` (outside the view, high up) to the
/// wrist, and the fingers point at `fingertip_mm`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Hand {
    pub fingertip_mm: PointMm,
    /// Height of the palm above the table.
    pub height_mm: f64,
    /// Direction the arm comes from, radians from +x (table plane).
    pub from_angle_rad: f64,
    pub skin_srgb: [u8; 3],
}

impl Hand {
    /// A random hand reaching into the ocean from outside it.
    pub(crate) fn sample(seed: u64, frame: u64, string: &StringLoop) -> Self {
        let mut rng = stream(seed, Purpose::Faults, frame * 16 + 1);
        let s = uniform(&mut rng, 0.0, string.perimeter_mm);
        let edge = string.point_at(s);
        let inward = string.outward_normal_at(s) * -1.0;
        let reach = uniform(&mut rng, HAND_REACH_RANGE_MM.0, HAND_REACH_RANGE_MM.1);
        let fingertip = edge + inward * reach;
        let from = inward * -1.0;
        Self {
            fingertip_mm: fingertip,
            height_mm: uniform(&mut rng, HAND_HEIGHT_RANGE_MM.0, HAND_HEIGHT_RANGE_MM.1),
            from_angle_rad: from.y.atan2(from.x) + uniform(&mut rng, -0.3, 0.3),
            skin_srgb: *pick(&mut rng, &SKIN_TONES).unwrap_or(&SKIN_TONES[0]),
        }
    }

    /// The hand and forearm as solids (table frame).
    pub(crate) fn parts(&self) -> Vec<Part> {
        let skin: Rgb = rgb8(self.skin_srgb[0], self.skin_srgb[1], self.skin_srgb[2]);
        let (s, c) = self.from_angle_rad.sin_cos();
        let back = V3::new(c, s, 0.0); // towards the shoulder
        let side = V3::new(-s, c, 0.0);
        let up = V3::new(0.0, 0.0, -1.0);
        let tip = V3::new(self.fingertip_mm.x, self.fingertip_mm.y, -self.height_mm);
        let palm_centre = tip + back * 85.0 + up * 8.0;
        let wrist = palm_centre + back * 45.0 + up * 10.0;
        let elbow = wrist + back * 260.0 + up * 120.0;
        let shoulder = elbow + back * 300.0 + up * 160.0;
        let mut p = Part::new(Material::SKIN);
        // Palm: a flattened ellipsoid oriented along the arm.
        let mut palm = Part::new(Material::SKIN);
        palm.ellipsoid(V3::zeros(), V3::new(45.0, 40.0, 14.0), skin, 8, 16);
        let angle = (-back).y.atan2((-back).x);
        let palm = lift(
            palm.placed(PointMm::new(palm_centre.x, palm_centre.y), angle, 0.0),
            palm_centre.z,
        );
        p.extend(palm);
        for (k, len) in [(-1.5, 58.0), (-0.5, 68.0), (0.5, 64.0), (1.5, 52.0)] {
            let base = palm_centre - back * 35.0 + side * (k * 17.0);
            let end = base - back * len + up * -12.0;
            p.capsule(base, end, 7.5, skin, 10);
        }
        let thumb_base = palm_centre + side * 38.0 + back * 10.0;
        p.capsule(
            thumb_base,
            thumb_base - back * 35.0 + side * 18.0 + up * -8.0,
            9.0,
            skin,
            10,
        );
        p.capsule(wrist, elbow, 32.0, skin, 14);
        p.capsule(elbow, shoulder, 42.0, skin, 14);
        vec![p]
    }
}

/// A part built around local z = 0 moved so that local z = 0 sits at table z `z`.
fn lift(mut part: Part, z: f64) -> Part {
    for t in &mut part.tris {
        for v in &mut t.p {
            v.z += z;
        }
    }
    part
}

impl LightingChange {
    /// A random change for frame `frame` of scene `seed`: 25-60 % brighter or darker, warmer or
    /// cooler.
    pub fn random(seed: u64, frame: u64) -> Self {
        let mut rng = stream(seed, Purpose::Faults, frame * 16 + 2);
        let brighter = uniform(&mut rng, 0.0, 1.0) < 0.5;
        let brightness = if brighter {
            uniform(&mut rng, 1.25, 1.6)
        } else {
            uniform(&mut rng, 0.45, 0.75)
        };
        let warm = uniform(&mut rng, -0.12, 0.12);
        Self {
            brightness,
            cast: [1.0 + warm, 1.0, 1.0 - warm],
        }
    }

    pub fn apply(&self, light: &Light) -> Light {
        let mut l = light.clone();
        l.brightness *= self.brightness;
        for (c, k) in l.cast.iter_mut().zip(self.cast) {
            *c *= k;
        }
        l
    }
}

impl CameraNudge {
    /// The camera rotated about its own centre by `rotation_deg` around a random axis and moved by
    /// `translation_mm` in a random direction (deterministic from `seed`, `frame`).
    pub fn apply(&self, camera: &Camera, seed: u64, frame: u64) -> Camera {
        let mut rng = stream(seed, Purpose::Faults, frame * 16 + 3);
        let axis = Vector3::new(
            uniform(&mut rng, -1.0, 1.0),
            uniform(&mut rng, -1.0, 1.0),
            uniform(&mut rng, -1.0, 1.0),
        );
        let axis = Unit::try_new(axis, 1e-9).unwrap_or(Vector3::x_axis());
        let dir = Vector3::new(
            uniform(&mut rng, -1.0, 1.0),
            uniform(&mut rng, -1.0, 1.0),
            uniform(&mut rng, -0.3, 0.3),
        )
        .try_normalize(1e-9)
        .unwrap_or(Vector3::x());
        let r = camera.pose.rotation();
        let c = camera.pose.camera_centre();
        let centre = Vector3::new(c.x, c.y, c.z) + dir * self.translation_mm;
        // Rotate the camera about its own axes: R' = dR * R.
        let dr = Rotation3::from_axis_angle(&axis, self.rotation_deg.to_radians());
        let r2 = dr * r;
        let t2 = -(r2 * centre);
        Camera {
            intrinsics: camera.intrinsics.clone(),
            pose: Pose::from_rotation(&r2, t2),
        }
    }
}

/// Whether any point of the hand's solids is seen inside the ocean's outline in the image.
pub(crate) fn hand_covers_ocean(parts: &[Part], camera: &Camera, ocean: &crate::table::PolygonMm) -> bool {
    let ocean_px: Vec<PointMm> = ocean
        .points()
        .iter()
        .filter_map(|p| camera.project_table(*p))
        .map(|p| PointMm::new(p.x, p.y))
        .collect();
    let poly = crate::table::PolygonMm(ocean_px);
    let (w, h) = (camera.intrinsics.width as f64, camera.intrinsics.height as f64);
    parts
        .iter()
        .flat_map(|p| p.tris.iter())
        .flat_map(|t| t.p.iter())
        .any(|v| {
            camera.project(PointMm3::new(v.x, v.y, v.z)).is_some_and(|px| {
                px.x >= 0.0 && px.y >= 0.0 && px.x < w && px.y < h && poly.contains(PointMm::new(px.x, px.y))
            })
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::synth::random::{Purpose, stream};
    use crate::synth::string_loop::LoopShape;

    #[test]
    fn the_hand_is_above_the_table_and_over_the_ocean() {
        let mut rng = stream(4, Purpose::StringLoop, 0);
        let string = StringLoop::from_shape(&LoopShape::sample(&mut rng), PointMm::new(0.0, 0.0), 4.0);
        let hand = Hand::sample(4, 0, &string);
        assert!(string.ocean().contains(hand.fingertip_mm));
        let parts = hand.parts();
        for t in parts.iter().flat_map(|p| p.tris.iter()) {
            for v in &t.p {
                assert!(v.z < -10.0, "hand touches the table: {v:?}");
            }
        }
    }

    #[test]
    fn a_nudge_moves_the_camera_by_the_asked_amount() {
        let k = crate::table::Intrinsics::from_hfov(1280, 720, 70.0);
        let cam = crate::synth::rig::camera_looking_at(k, PointMm::new(0.0, 0.0), 900.0, 20.0, 30.0).unwrap();
        let moved = CameraNudge::default().apply(&cam, 1, 0);
        let a = cam.pose.camera_centre();
        let b = moved.pose.camera_centre();
        let d = ((a.x - b.x).powi(2) + (a.y - b.y).powi(2) + (a.z - b.z).powi(2)).sqrt();
        assert!((d - NUDGE_DEFAULT.1).abs() < 1e-6, "{d}");
        let angle = (moved.pose.rotation() * cam.pose.rotation().inverse())
            .angle()
            .to_degrees();
        assert!((angle - NUDGE_DEFAULT.0).abs() < 1e-6, "{angle}");
    }
}
