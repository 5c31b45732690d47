//! The rulebook's set-up: the octopus head in the middle of the ocean, the eight tentacles evenly
//! around it about two head-widths away, a ship with its anchor beside it for every player around
//! the tentacles (the Pink Pirate's ship with its Octo-Canon among them, spaced evenly), the Little
//! Octopus next to the head, the Nameless Island in the ocean; then the treasures are dropped over
//! the head and scatter across the ocean.
//!
//! Reading: "about 2 head distances away" is taken as the tentacles' centres lying about two head
//! diameters from the head's centre ([`TENTACLE_RING_NOMINAL_DIAMETERS`]), pulled in where the
//! ocean is too small to leave room for the ships outside them.

use super::SynthError;
use super::arrange::{Arranger, PLACEMENT_TRIES, Spot};
use super::layout::{Layout, PlacedPiece};
use super::play;
use super::random::{Purpose, chance, int_in, stream, uniform};
use super::scene::Scene;
use crate::table::report::DieTop;
use crate::table::{PieceKind, PointMm, Shape};

/// Tentacle ring radius in head diameters (rulebook: about two head distances away).
pub const TENTACLE_RING_NOMINAL_DIAMETERS: f64 = 2.0;
/// Smallest tentacle ring radius in head diameters.
pub const TENTACLE_RING_MIN_DIAMETERS: f64 = 1.15;
/// Room kept between the tentacles and the string for the ships, mm.
pub const SHIP_BAND_MM: f64 = 75.0;
/// Tentacles deviate from even spacing by up to this, degrees.
const TENTACLE_JITTER_DEG: f64 = 4.0;
/// Ships deviate from even spacing by up to this, degrees.
const SHIP_JITTER_DEG: f64 = 8.0;
/// Gap between a ship and its anchor (or the pirate ship and its canon), mm: "adjacent".
pub const ADJACENT_GAP_RANGE_MM: (f64, f64) = (0.8, 4.0);
/// Set-up attempts before giving up.
const SETUP_ATTEMPTS: u64 = 24;

/// The layout of frame 0: the set-up, the treasure drop, and the first turns of the game.
pub(crate) fn first_frame(scene: &Scene) -> Result<Layout, SynthError> {
    let mut last = String::new();
    for attempt in 0..SETUP_ATTEMPTS {
        let rng = stream(scene.spec.seed, Purpose::Layout, attempt);
        let mut a = Arranger::empty(scene, rng);
        match set_up(&mut a) {
            Ok(()) => {
                play::opening(&mut a);
                let counter = scene.counter(a.crab, 0)?;
                play::place_crab(&mut a, &counter);
                return Ok(a.into_layout(0, counter));
            }
            Err(reason) => last = reason,
        }
    }
    Err(SynthError::Layout {
        seed: scene.spec.seed,
        frame: 0,
        reason: last,
    })
}

/// Places every piece as the rulebook's set-up says, then drops the treasures into the ocean.
fn set_up(a: &mut Arranger<'_>) -> Result<(), String> {
    let scene = a.scene();
    let counter = scene.counter(0, 0).map_err(|e| e.to_string())?;
    play::place_crab(a, &counter);
    let head = *a
        .of_kind(PieceKind::OctopusHead)
        .first()
        .ok_or("no octopus head in the box")?;
    let head_d = 2.0 * a.fps[head].radius;
    let centre = a.ocean().centroid();
    let mut head_ok = false;
    for _ in 0..PLACEMENT_TRIES {
        let c = centre + PointMm::new(uniform(&mut a.rng, -25.0, 25.0), uniform(&mut a.rng, -25.0, 25.0));
        let ang = uniform(&mut a.rng, 0.0, std::f64::consts::TAU);
        let cand = a.on_table(head, c, ang);
        if a.try_put(head, cand, Spot::Ocean) {
            head_ok = true;
            break;
        }
    }
    if !head_ok {
        return Err("no room for the octopus head in the middle of the ocean".into());
    }
    let head_c = a.pieces[head].center_mm;

    // Tentacles: evenly around the head.
    let reach = min_reach(a, head_c);
    let little = a.of_kind(PieceKind::LittleOctopus).first().copied();
    let min_ring = head_d * TENTACLE_RING_MIN_DIAMETERS + if little.is_some() { 30.0 } else { 0.0 };
    let ring = (head_d * TENTACLE_RING_NOMINAL_DIAMETERS).min(reach - SHIP_BAND_MM);
    if ring < min_ring {
        return Err(format!(
            "the ocean is too small for the tentacle ring ({ring:.0} mm < {min_ring:.0} mm)"
        ));
    }
    let ring = uniform(&mut a.rng, min_ring.max(ring - 25.0), ring);
    let theta0 = uniform(&mut a.rng, 0.0, std::f64::consts::TAU);
    let tentacles = a.of_kind(PieceKind::Tentacle);
    let step = std::f64::consts::TAU / tentacles.len().max(1) as f64;
    for (k, &t) in tentacles.iter().enumerate() {
        let mut ok = false;
        for _ in 0..40 {
            let th = theta0
                + k as f64 * step
                + uniform(&mut a.rng, -TENTACLE_JITTER_DEG, TENTACLE_JITTER_DEG).to_radians();
            let r = ring + uniform(&mut a.rng, -6.0, 6.0);
            let c = head_c + PointMm::new(th.cos(), th.sin()) * r;
            // The bow of the band points away from the head: it hugs the head.
            let ang = th + std::f64::consts::FRAC_PI_2 + uniform(&mut a.rng, -0.15, 0.15);
            let cand = a.on_table(t, c, ang);
            if a.try_put(t, cand, Spot::Ocean) {
                ok = true;
                break;
            }
        }
        if !ok {
            return Err(format!("tentacle {} does not fit around the head", k + 1));
        }
    }

    // Little Octopus: next to the head, between two tentacles.
    if let Some(l) = little {
        let mut ok = false;
        for _ in 0..60 {
            let k = int_in(&mut a.rng, 0, tentacles.len().saturating_sub(1));
            let dir_a = theta0 + (k as f64 + 0.5) * step;
            let dir = PointMm::new(dir_a.cos(), dir_a.sin());
            let gap = uniform(&mut a.rng, 2.0, 8.0);
            let ang = uniform(&mut a.rng, 0.0, std::f64::consts::TAU);
            if a.put_at_gap(l, head, dir, gap, ang, Spot::Ocean) {
                ok = true;
                break;
            }
        }
        if !ok {
            return Err("no room for the Little Octopus next to the head".into());
        }
    }

    // Ships with their anchors (and the pirate ship with its canon), evenly around the tentacles.
    let ships: Vec<usize> = (0..a.pieces.len()).filter(|&i| a.is_ship(i)).collect();
    let n = ships.len().max(1);
    let phi0 = uniform(&mut a.rng, 0.0, std::f64::consts::TAU);
    let tentacle_reach = ring + 30.0;
    for (k, &s) in ships.iter().enumerate() {
        let partner = partner_of(a, s).ok_or("a ship without its anchor")?;
        let mut ok = false;
        for _ in 0..PLACEMENT_TRIES {
            let th = phi0
                + k as f64 * std::f64::consts::TAU / n as f64
                + uniform(&mut a.rng, -SHIP_JITTER_DEG, SHIP_JITTER_DEG).to_radians();
            let dir = PointMm::new(th.cos(), th.sin());
            let limit = ray_reach(a, head_c, dir);
            let r = uniform(
                &mut a.rng,
                tentacle_reach + 15.0,
                (limit - 20.0).max(tentacle_reach + 16.0),
            );
            let flip = if chance(&mut a.rng, 0.5) {
                std::f64::consts::PI
            } else {
                0.0
            };
            let ang = th + std::f64::consts::FRAC_PI_2 + flip + uniform(&mut a.rng, -0.4, 0.4);
            let cand = a.on_table(s, head_c + dir * r, ang);
            if !a.try_put(s, cand, Spot::Ocean) {
                continue;
            }
            if put_adjacent(a, partner, s) {
                ok = true;
                break;
            }
            a.placed[s] = false;
        }
        if !ok {
            return Err(format!("no room for ship {} and its anchor", a.pieces[s].id));
        }
    }

    // The Nameless Island: somewhere in the ocean.
    for isl in a.of_kind(PieceKind::Island) {
        if !a.scatter_in_ocean(isl) {
            return Err("no room for the Nameless Island".into());
        }
    }

    // The treasure drop: everything scatters across the ocean.
    for t in a.of_kind(PieceKind::Treasure) {
        if !a.scatter_in_ocean(t) {
            return Err(format!("no room for treasure {}", a.pieces[t].id));
        }
    }
    // The ink die waits outside the ocean at set-up (sometimes it has already been used).
    for d in a.of_kind(PieceKind::InkDie) {
        a.pieces[d].top = Some(if chance(&mut a.rng, 0.5) {
            DieTop::Black
        } else {
            DieTop::Red
        });
        let ok = if chance(&mut a.rng, 0.6) {
            a.put_outside(d)
        } else {
            false
        } || a.scatter_in_ocean(d);
        if !ok {
            return Err("no room for the ink die".into());
        }
    }
    Ok(())
}

/// The anchor of a ship, or the Octo-Canon of the pirate ship.
pub(crate) fn partner_of(a: &Arranger<'_>, ship: usize) -> Option<usize> {
    let p = &a.pieces[ship];
    match p.kind {
        PieceKind::PirateShip => a.of_kind(PieceKind::OctoCanon).first().copied(),
        _ => (0..a.pieces.len())
            .find(|&i| a.pieces[i].kind == PieceKind::Anchor && a.pieces[i].color == p.color),
    }
}

/// Puts `piece` adjacent to `host` (touching or nearly), on a random side.
pub(crate) fn put_adjacent(a: &mut Arranger<'_>, piece: usize, host: usize) -> bool {
    for _ in 0..60 {
        let th = uniform(&mut a.rng, 0.0, std::f64::consts::TAU);
        let gap = uniform(&mut a.rng, ADJACENT_GAP_RANGE_MM.0, ADJACENT_GAP_RANGE_MM.1);
        let ang = uniform(&mut a.rng, 0.0, std::f64::consts::TAU);
        if a.put_at_gap(
            piece,
            host,
            PointMm::new(th.cos(), th.sin()),
            gap,
            ang,
            Spot::Ocean,
        ) {
            return true;
        }
    }
    false
}

/// Smallest distance from `c` to the string over all directions.
fn min_reach(a: &Arranger<'_>, c: PointMm) -> f64 {
    (0..72)
        .map(|k| {
            let th = std::f64::consts::TAU * k as f64 / 72.0;
            ray_reach(a, c, PointMm::new(th.cos(), th.sin()))
        })
        .fold(f64::INFINITY, f64::min)
}

/// Distance from `c` along `dir` to the string's centre line.
pub(crate) fn ray_reach(a: &Arranger<'_>, c: PointMm, dir: PointMm) -> f64 {
    let mut best = f64::INFINITY;
    for (p, q) in a.ocean().edges() {
        let e = q - p;
        let denom = dir.cross(e);
        if denom.abs() < 1e-12 {
            continue;
        }
        let w = p - c;
        let t = w.cross(e) / denom;
        let u = w.cross(dir) / denom;
        if t > 0.0 && (0.0..=1.0).contains(&u) {
            best = best.min(t);
        }
    }
    best
}

/// A treasure's footprint size class: small pieces may be loaded crosswise.
pub(crate) fn is_elongated(a: &Arranger<'_>, i: usize) -> bool {
    matches!(
        a.scene().catalog.entry(&a.pieces[i].entry).map(|e| &e.shape),
        Some(Shape::Trapezoid { .. } | Shape::Box { .. } | Shape::LyingBottle { .. })
    )
}

/// A copy of `p` standing on ship `ship` at `centre`.
pub(crate) fn on_deck(
    p: &PlacedPiece,
    ship: &PlacedPiece,
    deck_mm: f64,
    centre: PointMm,
    angle: f64,
) -> PlacedPiece {
    PlacedPiece {
        center_mm: centre,
        angle_rad: angle,
        base_mm: deck_mm,
        loaded_on: Some(ship.id.clone()),
        on_island: false,
        ..p.clone()
    }
}
