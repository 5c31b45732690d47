//! Turns of the game between two frames, as the rulebook describes them: a treasure is flicked
//! onto a ship and loaded (the crab steps over one bead), flicks miss and move treasures, loaded
//! treasures topple into the ocean, a ship navigates to its flicked anchor, the octopus attacks
//! (the ink die lands near the head and a tentacle or the head moves next to it). Each frame also
//! holds deliberate near ties: two treasures at nearly equal gaps from one ship, both closer than
//! every other candidate treasure.

use super::SynthError;
use super::arrange::{Arranger, PLACEMENT_TRIES, Reserve, Spot};
use super::counter::CounterLayout;
use super::layout::{Layout, NearTie};
use super::random::{Purpose, chance, int_in, pick, shuffle, stream, uniform};
use super::scene::Scene;
use super::setup::{is_elongated, on_deck, partner_of, put_adjacent};
use crate::table::report::DieTop;
use crate::table::{PieceKind, PointMm, Shape};

/// Gap of a near tie's closest treasure from its ship, mm.
pub const NEAR_TIE_GAP_RANGE_MM: (f64, f64) = (4.0, 45.0);
/// Largest true margin between a near tie's runner-up and closest treasure, mm.
pub const NEAR_TIE_MARGIN_MAX_MM: f64 = 8.0;
/// Every other candidate treasure is at least this much farther from the ship than the runner-up.
pub const NEAR_TIE_CLEARANCE_MM: f64 = 6.0;
/// Most treasures that fit on one ship's deck in this renderer (no stacking).
pub const MAX_LOADED_PER_SHIP: usize = 3;
/// Layout stream index of frame k is this plus k (set-up attempts use the indices below).
const FRAME_STREAM_BASE: u64 = 1000;

/// The first turns after the drop (frame 0): a few loads, a treasure out of the ocean, one across
/// the string, one on the island, and the near ties.
pub(crate) fn opening(a: &mut Arranger<'_>) {
    let loads = int_in(&mut a.rng, 0, 2);
    for _ in 0..loads {
        load(a);
    }
    let outside = int_in(&mut a.rng, 1, 2);
    for _ in 0..outside {
        if let Some(t) = random_candidate(a) {
            a.put_outside(t);
        }
    }
    if chance(&mut a.rng, 0.35)
        && let Some(t) = random_candidate(a)
    {
        a.put_on_string(t);
    }
    if chance(&mut a.rng, 0.75) {
        onto_island(a);
    }
    near_ties(a);
}

/// The layout of frame `frame` (>= 1), one or more turns after `prev`.
pub(crate) fn next_frame(scene: &Scene, prev: &Layout, frame: usize) -> Result<Layout, SynthError> {
    let rng = stream(scene.spec.seed, Purpose::Layout, FRAME_STREAM_BASE + frame as u64);
    let mut a = Arranger::from_layout(scene, prev, rng);
    let loads = int_in(&mut a.rng, 1, 2);
    for _ in 0..loads {
        load(&mut a);
    }
    if chance(&mut a.rng, 0.15) {
        topple(&mut a);
    }
    if chance(&mut a.rng, 0.3) {
        navigate(&mut a);
    }
    if chance(&mut a.rng, 0.3) {
        attack(&mut a);
    }
    let flicks = int_in(&mut a.rng, 2, 4);
    for _ in 0..flicks {
        flick(&mut a);
    }
    if chance(&mut a.rng, 0.3) {
        onto_island(&mut a);
    }
    near_ties(&mut a);
    let counter = scene.counter(a.crab, frame as u64)?;
    place_crab(&mut a, &counter);
    Ok(a.into_layout(frame, counter))
}

/// Puts the crab piece where the counter layout says.
pub(crate) fn place_crab(a: &mut Arranger<'_>, counter: &CounterLayout) {
    for c in a.of_kind(PieceKind::Crab) {
        let cand = a.on_table(c, counter.crab_center_mm, counter.crab_angle_rad);
        a.force(c, cand);
    }
}

/// A random treasure lying in the ocean on the table.
fn random_candidate(a: &mut Arranger<'_>) -> Option<usize> {
    let c: Vec<usize> = (0..a.pieces.len()).filter(|&i| a.is_candidate(i)).collect();
    pick(&mut a.rng, &c).copied()
}

/// A flick that hits the ship: a treasure is loaded on a ship whose deck holds no treasure of
/// that type, and the crab steps over one bead (not for the Pink Pirate's steals).
fn load(a: &mut Arranger<'_>) -> bool {
    if a.crab >= a.scene().beads.len() {
        return false;
    }
    let mut ships: Vec<usize> = a.of_kind(PieceKind::Ship);
    if chance(&mut a.rng, 0.15) {
        ships.extend(a.of_kind(PieceKind::PirateShip));
    }
    shuffle(&mut a.rng, &mut ships);
    for s in ships {
        let ship_id = a.pieces[s].id.clone();
        let on_board: Vec<usize> = (0..a.pieces.len())
            .filter(|&i| a.placed[i] && a.pieces[i].loaded_on.as_deref() == Some(ship_id.as_str()))
            .collect();
        if on_board.len() >= MAX_LOADED_PER_SHIP {
            continue;
        }
        let types: Vec<_> = on_board.iter().filter_map(|&i| a.pieces[i].treasure).collect();
        let mut cands: Vec<usize> = (0..a.pieces.len())
            .filter(|&i| a.is_candidate(i) && a.pieces[i].treasure.is_some_and(|t| !types.contains(&t)))
            .collect();
        shuffle(&mut a.rng, &mut cands);
        for t in cands.into_iter().take(4) {
            if put_on_deck(a, t, s) {
                if a.pieces[s].kind == PieceKind::Ship {
                    a.crab += 1;
                }
                return true;
            }
        }
    }
    false
}

/// Tries to stand treasure `t` on the deck of ship `s`.
fn put_on_deck(a: &mut Arranger<'_>, t: usize, s: usize) -> bool {
    let Some(entry) = a.scene().catalog.entry(&a.pieces[s].entry) else {
        return false;
    };
    let (length, beam) = match entry.shape {
        Shape::Hull { length_mm, beam_mm } => (length_mm, beam_mm),
        _ => return false,
    };
    let deck = entry.height_mm;
    let ship = a.pieces[s].clone();
    let elongated = is_elongated(a, t);
    for _ in 0..80 {
        let u = uniform(&mut a.rng, -0.32 * length, 0.26 * length);
        let v = uniform(&mut a.rng, -0.2 * beam, 0.2 * beam);
        let c = PointMm::new(u, v).rotated(ship.angle_rad) + ship.center_mm;
        let ang = if elongated {
            ship.angle_rad
                + uniform(&mut a.rng, -0.3, 0.3)
                + if chance(&mut a.rng, 0.5) {
                    std::f64::consts::PI
                } else {
                    0.0
                }
        } else {
            uniform(&mut a.rng, 0.0, std::f64::consts::TAU)
        };
        let cand = on_deck(&a.pieces[t], &ship, deck, c, ang);
        if a.try_put(t, cand, Spot::Deck(s)) {
            return true;
        }
    }
    false
}

/// A loaded treasure falls off its ship into the ocean nearby.
fn topple(a: &mut Arranger<'_>) -> bool {
    let loaded: Vec<usize> = (0..a.pieces.len())
        .filter(|&i| a.placed[i] && a.pieces[i].loaded_on.is_some())
        .collect();
    let Some(&t) = pick(&mut a.rng, &loaded) else {
        return false;
    };
    let Some(s) = a.pieces[t].loaded_on.clone().and_then(|id| a.index(&id)) else {
        return false;
    };
    for _ in 0..60 {
        let th = uniform(&mut a.rng, 0.0, std::f64::consts::TAU);
        let gap = uniform(&mut a.rng, 2.0, 40.0);
        let ang = uniform(&mut a.rng, 0.0, std::f64::consts::TAU);
        if a.put_at_gap(t, s, PointMm::new(th.cos(), th.sin()), gap, ang, Spot::Ocean) {
            return true;
        }
    }
    false
}

/// Navigate: the anchor (or the Octo-Canon) is flicked across the ocean and the ship is moved
/// next to it, carrying its loaded treasures.
fn navigate(a: &mut Arranger<'_>) -> bool {
    let ships: Vec<usize> = (0..a.pieces.len()).filter(|&i| a.is_ship(i)).collect();
    let Some(&s) = pick(&mut a.rng, &ships) else {
        return false;
    };
    let Some(p) = partner_of(a, s) else {
        return false;
    };
    let ship_id = a.pieces[s].id.clone();
    let cargo: Vec<usize> = (0..a.pieces.len())
        .filter(|&i| a.placed[i] && a.pieces[i].loaded_on.as_deref() == Some(ship_id.as_str()))
        .collect();
    let mut all = vec![s, p];
    all.extend(&cargo);
    let saved = a.snapshot(&all);
    let old_ship = a.pieces[s].clone();
    for _ in 0..40 {
        let th = uniform(&mut a.rng, 0.0, std::f64::consts::TAU);
        let d = uniform(&mut a.rng, 60.0, 220.0);
        let c = a.pieces[p].center_mm + PointMm::new(th.cos(), th.sin()) * d;
        let ang = uniform(&mut a.rng, 0.0, std::f64::consts::TAU);
        let cand = a.on_table(p, c, ang);
        if !a.try_put(p, cand, Spot::Ocean) {
            continue;
        }
        let ship_angle = uniform(&mut a.rng, 0.0, std::f64::consts::TAU);
        a.pieces[s].angle_rad = ship_angle;
        a.fps[s] = a.table.footprint(&a.pieces[s]);
        let placed_ship = (0..20).any(|_| {
            let th = uniform(&mut a.rng, 0.0, std::f64::consts::TAU);
            let gap = uniform(
                &mut a.rng,
                super::setup::ADJACENT_GAP_RANGE_MM.0,
                super::setup::ADJACENT_GAP_RANGE_MM.1,
            );
            a.put_at_gap(
                s,
                p,
                PointMm::new(th.cos(), th.sin()),
                gap,
                ship_angle,
                Spot::Ocean,
            )
        });
        if placed_ship {
            let new_ship = a.pieces[s].clone();
            let turn = new_ship.angle_rad - old_ship.angle_rad;
            let mut ok = true;
            for &t in &cargo {
                let mut q = a.pieces[t].clone();
                q.center_mm = (q.center_mm - old_ship.center_mm).rotated(turn) + new_ship.center_mm;
                q.angle_rad += turn;
                if !a.try_put(t, q, Spot::Deck(s)) {
                    ok = false;
                    break;
                }
            }
            if ok {
                return true;
            }
        }
        a.restore(saved.clone());
    }
    a.restore(saved);
    false
}

/// An Octopus Attack: the ink die lands near the head; on black a tentacle is moved next to the
/// die, on red the head is.
fn attack(a: &mut Arranger<'_>) -> bool {
    let (Some(&d), Some(&head)) = (
        a.of_kind(PieceKind::InkDie).first(),
        a.of_kind(PieceKind::OctopusHead).first(),
    ) else {
        return false;
    };
    let top = if chance(&mut a.rng, 0.5) {
        DieTop::Black
    } else {
        DieTop::Red
    };
    let saved = a.snapshot(&[d]);
    a.pieces[d].top = Some(top);
    let landed = (0..40).any(|_| {
        let th = uniform(&mut a.rng, 0.0, std::f64::consts::TAU);
        let gap = uniform(&mut a.rng, 3.0, 45.0);
        let ang = uniform(&mut a.rng, 0.0, std::f64::consts::TAU);
        a.put_at_gap(d, head, PointMm::new(th.cos(), th.sin()), gap, ang, Spot::Ocean)
    });
    if !landed {
        a.restore(saved);
        return false;
    }
    let mover = match top {
        DieTop::Black => {
            let t = a.of_kind(PieceKind::Tentacle);
            pick(&mut a.rng, &t).copied()
        }
        DieTop::Red => Some(head),
    };
    if let Some(m) = mover {
        let saved = a.snapshot(&[m]);
        if !put_adjacent(a, m, d) {
            a.restore(saved);
        }
    }
    true
}

/// A flick: a treasure slides somewhere else; now and then out of the ocean or onto the string.
fn flick(a: &mut Arranger<'_>) -> bool {
    let Some(t) = random_candidate(a) else {
        return false;
    };
    let r: f64 = uniform(&mut a.rng, 0.0, 1.0);
    if r < 0.12 {
        a.put_outside(t)
    } else if r < 0.2 {
        a.put_on_string(t)
    } else {
        a.scatter_in_ocean(t)
    }
}

/// A treasure comes to rest on the Nameless Island.
fn onto_island(a: &mut Arranger<'_>) -> bool {
    let Some(&k) = a.of_kind(PieceKind::Island).first() else {
        return false;
    };
    let Some(t) = random_candidate(a) else {
        return false;
    };
    let island = a.pieces[k].clone();
    let Some(entry) = a.scene().catalog.entry(&island.entry) else {
        return false;
    };
    let (radius, height) = (entry.shape.bounding_radius_mm(), entry.height_mm);
    for _ in 0..PLACEMENT_TRIES / 3 {
        let c = island.center_mm
            + PointMm::new(uniform(&mut a.rng, -0.5, 0.5), uniform(&mut a.rng, -0.5, 0.5)) * radius;
        let ang = uniform(&mut a.rng, 0.0, std::f64::consts::TAU);
        let cand = super::layout::PlacedPiece {
            center_mm: c,
            angle_rad: ang,
            base_mm: height,
            loaded_on: None,
            on_island: true,
            ..a.pieces[t].clone()
        };
        if a.try_put(t, cand, Spot::Island(k)) {
            return true;
        }
    }
    false
}

/// Arranges one or two near ties (on different ships of flicking players).
fn near_ties(a: &mut Arranger<'_>) {
    a.reserves.clear();
    a.near_ties.clear();
    let mut ships = a.of_kind(PieceKind::Ship);
    shuffle(&mut a.rng, &mut ships);
    let want = if chance(&mut a.rng, 0.35) { 2 } else { 1 };
    for s in ships.into_iter().take(want) {
        near_tie(a, s);
    }
}

/// Two candidate treasures at gaps `g` and `g + margin` from ship `s` (margin 0..8 mm), every
/// other candidate treasure moved farther than `g + margin + NEAR_TIE_CLEARANCE_MM`.
fn near_tie(a: &mut Arranger<'_>, s: usize) -> bool {
    for _ in 0..12 {
        let taken: Vec<usize> = a.reserves.iter().flat_map(|r| r.except).collect();
        let mut cands: Vec<usize> = (0..a.pieces.len())
            .filter(|&i| a.is_candidate(i) && !taken.contains(&i))
            .collect();
        if cands.len() < 2 {
            return false;
        }
        shuffle(&mut a.rng, &mut cands);
        let (first, second) = (cands[0], cands[1]);
        let gap = uniform(&mut a.rng, NEAR_TIE_GAP_RANGE_MM.0, NEAR_TIE_GAP_RANGE_MM.1);
        let margin = uniform(&mut a.rng, 0.0, NEAR_TIE_MARGIN_MAX_MM);
        let others: Vec<usize> = cands[2..].to_vec();
        let mut all = vec![first, second];
        all.extend(&others);
        let saved = a.snapshot(&all);
        let th1 = uniform(&mut a.rng, 0.0, std::f64::consts::TAU);
        let th2 = th1 + uniform(&mut a.rng, 1.0, std::f64::consts::TAU - 1.0);
        let a1 = uniform(&mut a.rng, 0.0, std::f64::consts::TAU);
        let a2 = uniform(&mut a.rng, 0.0, std::f64::consts::TAU);
        let dir = |t: f64| PointMm::new(t.cos(), t.sin());
        if !a.put_at_gap(first, s, dir(th1), gap, a1, Spot::Ocean)
            || !a.put_at_gap(second, s, dir(th2), gap + margin, a2, Spot::Ocean)
        {
            a.restore(saved);
            continue;
        }
        let beyond = gap + margin + NEAR_TIE_CLEARANCE_MM;
        a.reserves.push(Reserve {
            ship: s,
            beyond_gap_mm: beyond,
            except: [first, second],
        });
        let mut ok = true;
        for o in others {
            if a.gap(o, s) <= beyond && !a.scatter_in_ocean(o) {
                ok = false;
                break;
            }
        }
        // Ties of other ships must still hold: none of their treasures moved, but check anyway.
        if ok {
            let g1 = a.gap(first, s);
            let g2 = a.gap(second, s);
            a.near_ties.push(NearTie {
                ship: a.pieces[s].id.clone(),
                closest: a.pieces[first].id.clone(),
                runner_up: a.pieces[second].id.clone(),
                closest_gap_mm: g1,
                runner_up_gap_mm: g2,
                margin_mm: g2 - g1,
            });
            return true;
        }
        a.reserves.pop();
        a.restore(saved);
    }
    false
}
