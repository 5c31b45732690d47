//! Otto rules: the cost of judging placements, which the app does live for every square.
//!
//! `cargo bench --bench otto_rules`. The position is a seeded random game stopped after 30 tiles.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use criterion::{Criterion, criterion_group, criterion_main};
use octoref::games::otto::{
    Board, BoardLayout, Cell, Game, GameOptions, Placement, Tile, TileKind, TileSet, check_placement,
    legal_placements,
};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::hint::black_box;

/// Tiles on the Ocean in the benchmarked position.
const TILES_PLACED: usize = 30;

fn mid_game_board() -> Board {
    let mut rng = ChaCha8Rng::seed_from_u64(2024);
    let mut game = Game::new(
        BoardLayout::default_layout().unwrap(),
        TileSet::default_set().unwrap(),
        vec!["a".into(), "b".into()],
        GameOptions::default(),
        &mut rng,
    )
    .unwrap();
    while game.board().placed_count() < TILES_PLACED && !game.is_over() {
        let me = game.current_player();
        let options: Vec<(usize, Placement)> = game
            .playable(me)
            .into_iter()
            .enumerate()
            .flat_map(|(i, ps)| ps.into_iter().map(move |p| (i, p)))
            .collect();
        if options.is_empty() {
            game.pass(&mut rng).unwrap();
        } else {
            let (i, p) = options[rng.random_range(0..options.len())].clone();
            game.place(i, p, &mut rng).unwrap();
        }
    }
    game.board().clone()
}

fn bench(c: &mut Criterion) {
    let board = mid_game_board();
    let cells: Vec<Cell> = board.layout().cells().collect();
    // A legal placement runs every check, the completion search included.
    let legal = legal_placements(&board, &TileKind::Bubbles)[0].clone();
    c.bench_function("check_placement: one legal square", |b| {
        b.iter(|| black_box(check_placement(black_box(&board), &legal)))
    });
    c.bench_function("check_placement: Bubbles on all 81 squares (one UI frame)", |b| {
        b.iter(|| {
            cells
                .iter()
                .filter(|&&cell| {
                    check_placement(
                        &board,
                        &Placement {
                            cell,
                            tile: Tile::Bubbles,
                        },
                    )
                    .is_ok()
                })
                .count()
        })
    });
    c.bench_function("legal_placements: every kind in the box", |b| {
        let kinds: Vec<TileKind> = TileSet::default_set()
            .unwrap()
            .kinds()
            .into_iter()
            .map(|(k, _)| k)
            .collect();
        b.iter(|| {
            kinds
                .iter()
                .map(|k| legal_placements(&board, k).len())
                .sum::<usize>()
        })
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
