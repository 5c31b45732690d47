//! Per-frame cost of the referee on a full Crash Octopus table: 4 players, 20 treasures (4 of them
//! loaded), the head, 8 tentacles, anchors, the die and the crab, with the default catalog's
//! footprints and a 240-vertex ocean. `cargo bench --bench referee`.

use criterion::{Criterion, criterion_group, criterion_main};
use octoref::games::crash_octopus::{PlayerColor, TreasureType};
use octoref::referee::{FrameReport, GameContext, classify_pieces, rule};
use octoref::table::{Catalog, CounterReport, OceanReport, PieceKind, PieceReport, PointMm, PolygonMm};
use std::f64::consts::TAU;
use std::hint::black_box;

const OCEAN_VERTICES: usize = 240;

fn ocean() -> PolygonMm {
    // An irregular loop about 2.2 m long around (0, 0).
    PolygonMm::new(
        (0..OCEAN_VERTICES)
            .map(|i| {
                let a = i as f64 / OCEAN_VERTICES as f64 * TAU;
                let r = 340.0 + 25.0 * (3.0 * a).sin() + 15.0 * (5.0 * a + 1.0).cos();
                PointMm::new(1.2 * r * a.cos(), r * a.sin())
            })
            .collect(),
    )
}

fn place(
    cat: &Catalog,
    id: String,
    kind: PieceKind,
    color: Option<PlayerColor>,
    treasure: Option<TreasureType>,
    at: PointMm,
    angle: f64,
) -> PieceReport {
    let entry = match treasure {
        Some(t) => cat.treasure(t),
        None => cat.piece(kind, color),
    };
    PieceReport {
        id,
        piece: kind,
        treasure,
        color,
        center_mm: at,
        footprint_mm: entry.map(|e| e.footprint(at, angle)).unwrap_or_default(),
        angle_deg: Some(angle.to_degrees()),
        in_ocean: false,
        on_string: false,
        loaded_on: None,
        on_island: false,
        top: None,
        confidence: 0.95,
    }
}

fn table() -> FrameReport {
    let cat = Catalog::default_catalog();
    let mut pieces = Vec::new();
    let mut n = 0;
    let mut next_id = || {
        n += 1;
        format!("p{n}")
    };
    pieces.push(place(
        &cat,
        next_id(),
        PieceKind::OctopusHead,
        None,
        None,
        PointMm::default(),
        0.0,
    ));
    for k in 0..8 {
        let a = k as f64 / 8.0 * TAU;
        let at = PointMm::new(160.0 * a.cos(), 160.0 * a.sin());
        pieces.push(place(&cat, next_id(), PieceKind::Tentacle, None, None, at, a));
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
        let ship = place(&cat, next_id(), PieceKind::Ship, Some(c), None, at, a + 1.5);
        let anchor_at = at + PointMm::new(35.0 * a.cos(), 35.0 * a.sin());
        ships.push(ship.clone());
        pieces.push(ship);
        pieces.push(place(
            &cat,
            next_id(),
            PieceKind::Anchor,
            Some(c),
            None,
            anchor_at,
            a,
        ));
    }
    for i in 0..20 {
        let t = TreasureType::ALL[i % 5];
        if let Some(ship) = ships.get(i) {
            // The first four treasures stand on the four ships.
            let mut p = place(
                &cat,
                next_id(),
                PieceKind::Treasure,
                None,
                Some(t),
                ship.center_mm,
                0.0,
            );
            p.loaded_on = Some(ship.id.clone());
            pieces.push(p);
        } else {
            let a = i as f64 * 2.39996;
            let r = 70.0 + 14.0 * i as f64;
            let at = PointMm::new(1.1 * r * a.cos(), 0.9 * r * a.sin());
            pieces.push(place(&cat, next_id(), PieceKind::Treasure, None, Some(t), at, a));
        }
    }
    pieces.push(place(
        &cat,
        next_id(),
        PieceKind::InkDie,
        None,
        None,
        PointMm::new(520.0, 0.0),
        0.3,
    ));
    pieces.push(place(
        &cat,
        next_id(),
        PieceKind::Crab,
        None,
        None,
        PointMm::new(0.0, -340.0),
        0.0,
    ));
    FrameReport {
        image: "bench".into(),
        ocean: OceanReport::new(ocean()),
        pieces,
        counter: Some(CounterReport::new(
            "BBBKBBBKBBKBBKKK".parse().unwrap_or_default(),
            3,
        )),
        obstructed: false,
        view_moved: false,
        rulings: None,
    }
}

fn bench(c: &mut Criterion) {
    let frame = table();
    let mut ctx = GameContext::with_players(vec![
        PlayerColor::Orange,
        PlayerColor::Green,
        PlayerColor::Blue,
        PlayerColor::Purple,
    ]);
    ctx.active = Some(PlayerColor::Green);
    c.bench_function("referee::rule (32 pieces, 4 players)", |b| {
        b.iter(|| rule(black_box(&frame.reading()), black_box(&ctx)))
    });
    c.bench_function("referee::classify_pieces (32 pieces, 240-vertex ocean)", |b| {
        b.iter(|| {
            let mut pieces = frame.pieces.clone();
            classify_pieces(black_box(&mut pieces), black_box(&frame.ocean.polygon_mm));
            pieces
        })
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
