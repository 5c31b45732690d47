//! The Octo-Counter on the string: 16 beads threaded on a stretch of the string and the crab
//! standing on the string between them.
//!
//! Conventions: along the string's arc length (see `string_loop.rs`) from the counter's start
//! (blue end) the items are `bead 0 .. bead crab-1, crab, bead crab .. bead 15`: crab = n means n
//! beads lie behind it on the start side. Beads touch or nearly touch. The crab walks sideways
//! along the string, so its long axis (its footprint's local x) follows the string.

use super::random::uniform;
use super::string_loop::StringLoop;
use crate::games::crash_octopus::{Bead, BeadSequence};
use crate::table::PointMm;
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

/// Largest gap between neighbouring beads, mm (beads slide and bunch up on the string).
pub const BEAD_GAP_MAX_MM: f64 = 1.2;
/// Gap between the crab and its neighbouring beads, mm.
pub const CRAB_GAP_RANGE_MM: (f64, f64) = (1.0, 4.0);
/// How far the crab may turn away from square across the string, degrees.
const CRAB_TURN_MAX_DEG: f64 = 8.0;

/// One bead as placed on the string.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BeadPlacement {
    /// Position in the sequence, 0 = first bead from the start (blue end).
    pub index: usize,
    pub bead: Bead,
    pub center_mm: PointMm,
    /// Arc length along the string's centre line.
    pub s_mm: f64,
}

/// The counter as laid out for one frame.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CounterLayout {
    pub beads: Vec<BeadPlacement>,
    /// Beads stepped over (0 = before the first bead).
    pub crab: usize,
    pub crab_center_mm: PointMm,
    /// Crab footprint angle, radians (long axis along the string).
    pub crab_angle_rad: f64,
    /// Arc length of the crab's centre.
    pub crab_s_mm: f64,
}

/// Lays the beads and the crab on `string` from arc length `start_mm`.
pub(crate) fn lay_counter(
    string: &StringLoop,
    start_mm: f64,
    beads: &BeadSequence,
    crab: usize,
    bead_diameter_mm: f64,
    crab_along_mm: f64,
    rng: &mut ChaCha8Rng,
) -> CounterLayout {
    let crab = crab.min(beads.len());
    let mut s = start_mm;
    let mut placed = Vec::with_capacity(beads.len());
    let mut crab_s = start_mm;
    let place_crab = |s: &mut f64, rng: &mut ChaCha8Rng| {
        *s += uniform(rng, CRAB_GAP_RANGE_MM.0, CRAB_GAP_RANGE_MM.1) + crab_along_mm / 2.0;
        let c = *s;
        *s += crab_along_mm / 2.0 + uniform(rng, CRAB_GAP_RANGE_MM.0, CRAB_GAP_RANGE_MM.1);
        c
    };
    for (i, &bead) in beads.0.iter().enumerate() {
        if i == crab {
            crab_s = place_crab(&mut s, rng);
        } else if i > 0 {
            s += uniform(rng, 0.0, BEAD_GAP_MAX_MM);
        }
        s += bead_diameter_mm / 2.0;
        placed.push(BeadPlacement {
            index: i,
            bead,
            center_mm: string.point_at(s),
            s_mm: s.rem_euclid(string.perimeter_mm.max(1e-9)),
        });
        s += bead_diameter_mm / 2.0;
    }
    if crab == beads.len() {
        crab_s = place_crab(&mut s, rng);
    }
    let t = string.tangent_at(crab_s);
    let turn = uniform(rng, -CRAB_TURN_MAX_DEG, CRAB_TURN_MAX_DEG).to_radians();
    CounterLayout {
        beads: placed,
        crab,
        crab_center_mm: string.point_at(crab_s),
        crab_angle_rad: t.y.atan2(t.x) + turn,
        crab_s_mm: crab_s.rem_euclid(string.perimeter_mm.max(1e-9)),
    }
}

/// Arc length the counter occupies with the crab anywhere on it (for keeping pieces clear).
pub(crate) fn counter_length_mm(beads: usize, bead_diameter_mm: f64, crab_along_mm: f64) -> f64 {
    beads as f64 * (bead_diameter_mm + BEAD_GAP_MAX_MM) + crab_along_mm + 2.0 * CRAB_GAP_RANGE_MM.1
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::synth::random::{Purpose, stream};
    use crate::synth::string_loop::LoopShape;

    #[test]
    fn crab_n_has_n_beads_behind_it() {
        let mut rng = stream(2, Purpose::StringLoop, 0);
        let string = StringLoop::from_shape(&LoopShape::sample(&mut rng), PointMm::new(0.0, 0.0), 4.0);
        let beads: BeadSequence = "BBBKBBBKBBKBBKKK".parse().unwrap();
        for crab in [0, 1, 7, 16] {
            let c = lay_counter(&string, 300.0, &beads, crab, 10.0, 26.0, &mut rng);
            let behind = c.beads.iter().filter(|b| b.s_mm < c.crab_s_mm).count();
            assert_eq!(behind, crab);
            for w in c.beads.windows(2) {
                let d = w[0].center_mm.distance(w[1].center_mm);
                assert!(
                    (9.5..=10.0 + BEAD_GAP_MAX_MM + 0.1).contains(&d) || w[1].index == crab,
                    "{d}"
                );
            }
            assert!(c.crab_center_mm.distance(string.point_at(c.crab_s_mm)) < 1e-9);
        }
    }
}
