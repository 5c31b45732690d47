//! The rulebook's examples, reconstructed on the default Ocean, and the property that random
//! legal play never joins two arms.
//!
//! Squares are [x, y] (x right, y down). Otto covers [3..5] x [3..5]; the sockets are
//! [3,2] (suckers left) and [5,2] (right) north, [6,3] (left) and [6,5] (right) east,
//! [5,6] (left) and [3,6] (right) south, [2,5] (left) and [2,3] (right) west.

use super::arm::Blocker;
use super::board::{Board, BoardLayout, Cell, Edge, Side};
use super::game::{Game, GameOptions};
use super::placement::{IllegalReason, Placement, check_placement, legal_placements};
use super::tile::{ArmTile, EndTile, Tile, TileKind};
use super::tile_set::TileSet;
use proptest::prelude::*;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use Edge::{E, N, S, W};
use Side::{Left as L, Right as R};

fn ocean() -> Board {
    Board::new(BoardLayout::default_layout().unwrap())
}

fn arm(x: u8, y: u8, from: Edge, to: Edge, suckers: Side) -> Placement {
    Placement {
        cell: Cell::new(x, y),
        tile: Tile::Arm(ArmTile::new(from, to, suckers).unwrap()),
    }
}

fn end(x: u8, y: u8, from: Edge, shell: bool) -> Placement {
    Placement {
        cell: Cell::new(x, y),
        tile: Tile::End(EndTile { from, shell }),
    }
}

fn bubbles(x: u8, y: u8) -> Placement {
    Placement {
        cell: Cell::new(x, y),
        tile: Tile::Bubbles,
    }
}

fn fish(species: &str, x: u8, y: u8) -> Placement {
    let set = TileSet::default_set().unwrap();
    Placement {
        cell: Cell::new(x, y),
        tile: Tile::Fish(set.fish(species).unwrap().tile()),
    }
}

/// Places every tile, failing the test on the first refusal.
fn play(board: &mut Board, placements: &[Placement]) -> Vec<u32> {
    placements
        .iter()
        .map(|p| match board.place(p.clone()) {
            Ok(points) => points.total,
            Err(e) => panic!("{p:?} should be legal: {e}"),
        })
        .collect()
}

fn c(x: u8, y: u8) -> Cell {
    Cell::new(x, y)
}

/// "Otto, however, loves this arm. Completing the arm with an End tile scores 6 for its number
/// of tiles. This is then doubled because the arm end holds a shell, and doubled again because
/// the End tile was placed on a Coral square. Making a grand total of 24 points!"
#[test]
fn shell_end_on_coral_completing_five_arm_tiles_scores_24() {
    let mut b = ocean();
    // From the north-west socket up, left along row 1, and up into the top-left corner.
    let arm_points = play(
        &mut b,
        &[
            arm(3, 2, S, N, L),
            arm(3, 1, S, W, L), // a left bend, suckers inside
            arm(2, 1, E, W, L),
            arm(1, 1, E, W, L),
            arm(0, 1, E, N, L), // a right bend, suckers outside
        ],
    );
    assert_eq!(arm_points, vec![1; 5]);
    let finish = end(0, 0, S, true);
    let points = check_placement(&b, &finish).unwrap();
    assert_eq!(points.arm_tiles, Some(5));
    assert_eq!(points.coral_multiplier, 2);
    assert_eq!(points.total, 24);
    assert_eq!(b.place(finish).unwrap().total, 24);
    assert!(b.arms()[0].is_completed());
}

/// "Placing this tile here would mean that a tile placed above it would either stop the arm to
/// the right extending or join both arms together!"
#[test]
fn incorrect_a_tile_above_would_stop_the_arm_to_the_right_or_join_both() {
    let mut b = ocean();
    play(
        &mut b,
        &[
            arm(5, 2, S, N, R),
            arm(5, 1, S, W, R), // the arm to the right now goes on at [4, 1]
            arm(3, 2, S, E, L), // the north-west arm goes on at [4, 2]
        ],
    );
    let here = arm(4, 2, W, N, L); // would send the north-west arm to [4, 1] too
    assert_eq!(
        check_placement(&b, &here),
        Err(IllegalReason::ArmsWouldMeet {
            socket_a: c(3, 2),
            socket_b: c(5, 2),
            cell: c(4, 1)
        })
    );
    // Turning the other way is fine.
    assert!(check_placement(&b, &arm(4, 2, W, S, L)).is_err()); // into Otto
    assert!(check_placement(&b, &end(4, 2, W, false)).is_ok());
}

/// "This arm is not long enough. It needs a minimum of 1 Arm tile before it can be completed by
/// an End tile."
#[test]
fn incorrect_an_arm_needs_an_arm_tile_before_its_end() {
    let mut b = ocean();
    assert_eq!(
        check_placement(&b, &end(3, 6, N, true)),
        Err(IllegalReason::EndBeforeArmTile { socket: c(3, 6) })
    );
    play(&mut b, &[arm(3, 6, N, S, R)]);
    assert_eq!(check_placement(&b, &end(3, 7, N, true)).unwrap().total, 4);
}

/// "This tile has suckers on the opposite side to the Arm tile it joins."
#[test]
fn incorrect_suckers_on_the_opposite_side() {
    let mut b = ocean();
    play(&mut b, &[arm(2, 3, E, W, R)]);
    assert_eq!(
        check_placement(&b, &arm(1, 3, E, W, L)),
        Err(IllegalReason::SuckersSwapSides {
            socket: c(2, 3),
            arm: R,
            tile: L
        })
    );
    // The first tile must carry on the suckers of Otto's own arm, too.
    assert!(matches!(
        check_placement(&b, &arm(3, 2, S, N, R)),
        Err(IllegalReason::SuckersSwapSides { .. })
    ));
    assert!(check_placement(&b, &arm(1, 3, E, W, R)).is_ok());
}

/// "The Angler Fish needs to be placed on one of the outer perimeter of squares."
#[test]
fn incorrect_angler_fish_off_the_outer_ring() {
    let mut b = ocean();
    assert_eq!(
        check_placement(&b, &fish("angler", 4, 2)),
        Err(IllegalReason::FishNotOnOuterRing {
            species: "angler".into(),
            cell: c(4, 2)
        })
    );
    // Other fish may go there.
    assert_eq!(check_placement(&b, &fish("shark", 4, 2)).unwrap().total, 2);
    play(&mut b, &[bubbles(4, 2), bubbles(4, 1)]);
    assert_eq!(check_placement(&b, &fish("angler", 4, 0)).unwrap().total, 3);
}

/// "This arm has not been completed by an End tile." An arm run into the edge of the Ocean can
/// never be: the Arm tile that does that may not be placed.
#[test]
fn incorrect_an_arm_that_could_never_be_completed() {
    let mut b = ocean();
    play(&mut b, &[arm(6, 3, W, E, L), arm(7, 3, W, E, L)]);
    assert_eq!(
        check_placement(&b, &arm(8, 3, W, E, L)),
        Err(IllegalReason::ArmBlocked {
            socket: c(6, 3),
            blocker: Blocker::EdgeOfOcean
        })
    );
    // Nor into another tile, nor into Otto, nor into another arm's way.
    play(
        &mut b,
        &[
            arm(6, 5, W, S, R),
            bubbles(6, 4),
            bubbles(7, 4),
            bubbles(7, 5),
            bubbles(7, 6),
        ],
    );
    assert_eq!(
        check_placement(&b, &arm(6, 6, N, E, R)),
        Err(IllegalReason::ArmBlocked {
            socket: c(6, 5),
            blocker: Blocker::Tile { cell: c(7, 6) }
        })
    );
    let mut b2 = ocean();
    play(&mut b2, &[arm(2, 3, E, S, R)]);
    assert_eq!(
        check_placement(&b2, &arm(2, 4, N, E, R)),
        Err(IllegalReason::ArmBlocked {
            socket: c(2, 3),
            blocker: Blocker::Otto
        })
    );
    assert_eq!(
        check_placement(&b, &arm(6, 6, N, W, R)),
        Err(IllegalReason::ArmsWouldMeet {
            socket_a: c(6, 5),
            socket_b: c(5, 6),
            cell: c(5, 6)
        })
    );
    // And no tile may stop an open arm.
    assert_eq!(
        check_placement(&b, &bubbles(8, 3)),
        Err(IllegalReason::ArmBlocked {
            socket: c(6, 3),
            blocker: Blocker::Tile { cell: c(8, 3) }
        })
    );
    assert!(check_placement(&b, &end(8, 3, W, false)).is_ok());
}

/// "This tile is not joined to a tile already in play."
#[test]
fn incorrect_a_tile_not_joined_to_a_tile_in_play() {
    let b = ocean();
    assert_eq!(
        check_placement(&b, &bubbles(7, 7)),
        Err(IllegalReason::NotAgainstATile { cell: c(7, 7) })
    );
    // Otto is a tile: the squares beside him are against it.
    assert!(check_placement(&b, &bubbles(6, 4)).is_ok());
}

/// "Placing this tile here would mean that the arm above (not yet started) would be unable to be
/// extended long enough (the minimum Arm tiles in length)."
#[test]
fn incorrect_an_unstarted_arm_left_too_short() {
    let mut b = ocean();
    play(
        &mut b,
        &[arm(2, 5, E, W, L), bubbles(4, 6), bubbles(2, 6), bubbles(4, 7)],
    );
    // The south-west socket [3, 6] has one free square left beside it: [3, 7].
    assert_eq!(
        check_placement(&b, &bubbles(3, 7)),
        Err(IllegalReason::NoRoomForArm { socket: c(3, 6) })
    );
    // A tile on the socket itself stops the arm before it starts.
    assert_eq!(
        check_placement(&b, &bubbles(3, 6)),
        Err(IllegalReason::SocketBlocked { socket: c(3, 6) })
    );
}

/// Two unstarted arms that each still have room, but only the same one square: the search, not
/// a local check, finds that they cannot both be completed.
#[test]
fn two_unstarted_arms_cannot_share_their_last_square() {
    let mut b = ocean();
    play(
        &mut b,
        &[
            bubbles(4, 2),
            bubbles(4, 1),
            bubbles(3, 1),
            bubbles(2, 4),
            bubbles(1, 4),
        ],
    );
    // [3, 2] can only finish through [2, 2]; [2, 3] through [1, 3] or [2, 2].
    assert_eq!(
        check_placement(&b, &bubbles(1, 3)),
        Err(IllegalReason::NoRoomForArm { socket: c(2, 3) })
    );
    // Starting the north-west arm toward [2, 2] leaves [2, 3] with [1, 3]: fine.
    let mut b2 = b.clone();
    play(&mut b2, &[arm(3, 2, S, W, L)]);
    // ... but then [1, 3] is the west arm's last square.
    assert!(matches!(
        check_placement(&b2, &bubbles(1, 3)),
        Err(IllegalReason::NoRoomForArm { socket }) if socket == c(2, 3)
    ));
}

#[test]
fn arm_and_end_tiles_go_only_where_an_arm_goes_on() {
    let mut b = ocean();
    assert_eq!(
        check_placement(&b, &arm(4, 2, S, N, L)),
        Err(IllegalReason::ArmNotAtOpenEnd { cell: c(4, 2) })
    );
    assert_eq!(
        check_placement(&b, &arm(3, 2, W, N, L)),
        Err(IllegalReason::OpenEndsDoNotJoin {
            socket: c(3, 2),
            cell: c(3, 2),
            expected: S,
            got: W
        })
    );
    assert_eq!(
        check_placement(&b, &end(4, 2, S, false)),
        Err(IllegalReason::EndNotAtOpenEnd { cell: c(4, 2) })
    );
    assert_eq!(
        check_placement(&b, &bubbles(4, 4)),
        Err(IllegalReason::OnOtto { cell: c(4, 4) })
    );
    play(&mut b, &[bubbles(4, 2)]);
    assert_eq!(
        check_placement(&b, &bubbles(4, 2)),
        Err(IllegalReason::SquareTaken { cell: c(4, 2) })
    );
    assert_eq!(
        check_placement(&b, &bubbles(9, 2)),
        Err(IllegalReason::OffTheOcean { cell: c(9, 2) })
    );
}

#[test]
fn seaweed_and_coral_bonuses_apply_to_any_tile() {
    let mut b = ocean();
    play(
        &mut b,
        &[
            arm(5, 2, S, N, R),
            arm(5, 1, S, E, R),
            arm(6, 1, W, E, R),
            arm(7, 1, W, N, R),
        ],
    );
    // [6, 0] is Seaweed: a Bubbles tile there scores 1.
    assert_eq!(check_placement(&b, &bubbles(6, 0)).unwrap().total, 1);
    // The End on [7, 0]: 1 + 4 Arm tiles.
    assert_eq!(check_placement(&b, &end(7, 0, S, false)).unwrap().total, 5);
    play(&mut b, &[end(7, 0, S, false)]);
    // Bubbles on Coral: 0 x 2.
    assert_eq!(check_placement(&b, &bubbles(8, 0)).unwrap().total, 0);
    assert_eq!(check_placement(&b, &fish("lionfish", 8, 0)).unwrap().total, 6);
}

#[test]
fn at_the_start_only_otto_is_in_play() {
    let b = ocean();
    // Each socket takes a straight arm one way only, and a curve bending toward its suckers.
    assert_eq!(legal_placements(&b, &TileKind::StraightArm).len(), 8);
    assert_eq!(legal_placements(&b, &TileKind::CurveSuckersInside).len(), 8);
    assert_eq!(legal_placements(&b, &TileKind::CurveSuckersOutside).len(), 8);
    assert!(legal_placements(&b, &TileKind::ShellEnd).is_empty());
    // Beside Otto, the four squares that are not sockets.
    let cells: Vec<Cell> = legal_placements(&b, &TileKind::Bubbles)
        .iter()
        .map(|p| p.cell)
        .collect();
    assert_eq!(cells, vec![c(4, 2), c(2, 4), c(6, 4), c(4, 6)]);
}

#[test]
fn a_board_saves_and_replays_its_placements() {
    let mut b = ocean();
    play(
        &mut b,
        &[arm(3, 2, S, N, L), fish("shark", 4, 2), end(3, 1, S, true)],
    );
    let json = serde_json::to_string(&b).unwrap();
    let back: Board = serde_json::from_str(&json).unwrap();
    assert_eq!(back, b);
    // A saved board with an illegal placement is refused.
    let bad = json.replace(
        "\"shell\":true",
        "\"shell\":true},{\"cell\":[7,7],\"tile\":\"bubbles\"",
    );
    assert!(serde_json::from_str::<Board>(&bad).is_err());
    // So is one whose layout does not make sense.
    let bad = json.replace("\"size\":[9,9]", "\"size\":[0,9]");
    assert!(bad != json);
    assert!(serde_json::from_str::<Board>(&bad).is_err());
}

/// Independently of the arm tracer: two adjacent tiles whose open edges face each other must be
/// consecutive tiles of the same arm, and every Arm and End tile belongs to an arm.
fn assert_no_joined_arms(b: &Board) {
    let layout = b.layout();
    let edges = |t: &Tile| -> Vec<Edge> {
        match t {
            Tile::Arm(a) => vec![a.from, a.to],
            Tile::End(e) => vec![e.from],
            _ => Vec::new(),
        }
    };
    let arm_of = |cell: Cell| -> Option<usize> { b.arms().iter().position(|a| a.covered().contains(&cell)) };
    for cell in layout.cells() {
        let Some(t) = b.tile_at(cell) else { continue };
        if matches!(t, Tile::Arm(_) | Tile::End(_)) {
            assert!(arm_of(cell).is_some(), "{cell} belongs to no arm");
        }
        for e in edges(t) {
            let Some(n) = layout.neighbour(cell, e) else {
                continue;
            };
            let Some(other) = b.tile_at(n) else { continue };
            if edges(other).contains(&e.opposite()) {
                assert_eq!(arm_of(cell), arm_of(n), "{cell} and {n} join two arms");
            }
        }
    }
    for a in b.arms() {
        assert!(
            a.is_completed() || a.open_end().is_some(),
            "arm {} is stuck",
            a.socket_cell
        );
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(16))]
    /// Random legal play from a seeded RNG never joins two arms, never strands one, and ends.
    #[test]
    fn random_legal_play_never_joins_two_arms(seed in any::<u64>(), players in 1usize..=4, simplified in any::<bool>()) {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let names = (0..players).map(|i| format!("p{i}")).collect();
        let mut game = Game::new(
            BoardLayout::default_layout().unwrap(),
            TileSet::default_set().unwrap(),
            names,
            GameOptions { open: false, simplified },
            &mut rng,
        ).unwrap();
        let mut turns = 0;
        while !game.is_over() {
            turns += 1;
            prop_assert!(turns < 2000, "the game did not end");
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
                assert_no_joined_arms(game.board());
            }
        }
        // At the end nobody can place anything.
        for p in 0..players {
            prop_assert!(!game.can_play(p));
        }
        let placed: u32 = game.players().iter().map(|p| p.tiles_placed).sum();
        let held: usize = game.players().iter().map(|p| p.hand.len()).sum();
        prop_assert_eq!(placed as usize + held + game.draw_pile_len(), 60);
        prop_assert_eq!(placed as usize, game.board().placed_count());
    }
}
