//! Per-frame cost of tracking a full Crash Octopus table: 4 players (ships and anchors), 20
//! treasures (4 of them loaded), the head, 8 tentacles, the die and the crab — 39 pieces, listed
//! in a new order under new labels with ±1.5 mm of jitter every frame, as vision would give them.
//! `cargo bench --bench tracking` (add `--profile dev` to reuse the test build's dependencies).

use criterion::{Criterion, criterion_group, criterion_main};
use octoref::games::crash_octopus::{PlayerColor, TreasureType};
use octoref::referee::GameContext;
use octoref::table::{Catalog, OceanReport, PieceKind, PieceReport, PointMm, PolygonMm};
use octoref::vision::tracking::{Committer, FrameObservation, TrackArea, Tracker, TrackerConfig};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::f64::consts::TAU;
use std::hint::black_box;

/// Distinct jittered frames cycled through.
const FRAMES: usize = 256;

fn ocean() -> PolygonMm {
    PolygonMm::new(
        (0..240)
            .map(|i| {
                let a = f64::from(i) / 240.0 * TAU;
                let r = 340.0 + 25.0 * (3.0 * a).sin() + 15.0 * (5.0 * a + 1.0).cos();
                PointMm::new(1.2 * r * a.cos(), r * a.sin())
            })
            .collect(),
    )
}

/// (kind, colour, treasure, centre, angle in radians, index of the ship it stands on)
type Placed = (
    PieceKind,
    Option<PlayerColor>,
    Option<TreasureType>,
    PointMm,
    f64,
    Option<usize>,
);

fn table() -> Vec<Placed> {
    let mut t: Vec<Placed> = vec![(PieceKind::OctopusHead, None, None, PointMm::default(), 0.0, None)];
    for k in 0..8 {
        let a = f64::from(k) / 8.0 * TAU;
        t.push((
            PieceKind::Tentacle,
            None,
            None,
            PointMm::new(160.0 * a.cos(), 160.0 * a.sin()),
            a,
            None,
        ));
    }
    let players = [
        PlayerColor::Orange,
        PlayerColor::Green,
        PlayerColor::Blue,
        PlayerColor::Purple,
    ];
    let mut ships = Vec::new();
    for (k, &c) in players.iter().enumerate() {
        let a = (k as f64 + 0.5) / 4.0 * TAU;
        let at = PointMm::new(290.0 * a.cos(), 240.0 * a.sin());
        ships.push((t.len(), at));
        t.push((PieceKind::Ship, Some(c), None, at, a + 1.5, None));
        let anchor = at + PointMm::new(45.0 * a.cos(), 45.0 * a.sin());
        t.push((PieceKind::Anchor, Some(c), None, anchor, a, None));
    }
    for i in 0..20 {
        let kind = Some(TreasureType::ALL[i % 5]);
        match ships.get(i) {
            Some(&(s, at)) => t.push((PieceKind::Treasure, None, kind, at, 0.0, Some(s))),
            None => {
                let a = i as f64 * 2.39996;
                let r = 70.0 + 14.0 * i as f64;
                let at = PointMm::new(1.1 * r * a.cos(), 0.9 * r * a.sin());
                t.push((PieceKind::Treasure, None, kind, at, a, None));
            }
        }
    }
    t.push((PieceKind::InkDie, None, None, PointMm::new(520.0, 0.0), 0.3, None));
    t.push((PieceKind::Crab, None, None, PointMm::new(0.0, -340.0), 0.0, None));
    t
}

fn frames(catalog: &Catalog) -> Vec<FrameObservation> {
    let table = table();
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    (0..FRAMES)
        .map(|f| {
            let mut order: Vec<usize> = (0..table.len()).collect();
            for i in (1..order.len()).rev() {
                order.swap(i, rng.random_range(0..=i));
            }
            let label = |i: usize| format!("v{f}_{}", order.iter().position(|&j| j == i).unwrap_or(0));
            let pieces = order
                .iter()
                .map(|&i| {
                    let (kind, color, treasure, at, angle, on) = table[i];
                    let at = at + PointMm::new(rng.random_range(-1.5..1.5), rng.random_range(-1.5..1.5));
                    let entry = match treasure {
                        Some(t) => catalog.treasure(t),
                        None => catalog.piece(kind, color),
                    };
                    PieceReport {
                        id: label(i),
                        piece: kind,
                        treasure,
                        color,
                        center_mm: at,
                        footprint_mm: entry.map(|e| e.footprint(at, angle)).unwrap_or_default(),
                        angle_deg: Some(angle.to_degrees()),
                        in_ocean: false,
                        on_string: false,
                        loaded_on: on.map(label),
                        on_island: false,
                        top: None,
                        confidence: 0.95,
                    }
                })
                .collect();
            FrameObservation {
                seq: f as u64 + 1,
                pieces,
                ..FrameObservation::default()
            }
        })
        .collect()
}

fn bench(c: &mut Criterion) {
    let catalog = Catalog::default_catalog();
    let mut frames = frames(&catalog);
    let area = TrackArea {
        view_mm: Vec::new(),
        ocean_mm: ocean(),
    };
    let Ok(mut tracker) = Tracker::new(catalog, area, TrackerConfig::default()) else {
        return;
    };
    // Warm up: every piece confirmed and settled.
    let mut seq = 0;
    let mut state = None;
    for f in frames.iter_mut().take(20) {
        seq += 1;
        f.seq = seq;
        state = tracker.update(f).ok();
    }
    c.bench_function("Tracker::update (39 pieces)", |b| {
        b.iter(|| {
            seq += 1;
            let f = &mut frames[seq as usize % FRAMES];
            f.seq = seq;
            black_box(tracker.update(black_box(f)).ok())
        })
    });
    let ctx = GameContext::with_players(vec![
        PlayerColor::Orange,
        PlayerColor::Green,
        PlayerColor::Blue,
        PlayerColor::Purple,
    ]);
    let (Some(state), Ok(committer)) = (state, Committer::new(OceanReport::new(ocean()), ctx)) else {
        return;
    };
    assert!(
        state.settled && state.pieces.len() == 39,
        "the warmed-up table must be settled"
    );
    // A reading every frame: the cost of a frame on which a reading is due.
    let mut committer = committer.with_reading_interval(1);
    let mut state = state;
    c.bench_function("Committer::feed, reading due (39 pieces, 4 players)", |b| {
        b.iter(|| {
            state.frames_still += 1;
            black_box(committer.feed(black_box(&state)).ok())
        })
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
