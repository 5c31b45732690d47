//! Rulebook scenarios played through [`Game::apply`], and whole random games.

use super::actions::Action;
use super::advanced::PowerUse;
use super::cube::{Orientation, PivotAngle, Position};
use super::data::OctocubeData;
use super::game::{Board, CubeLocation, Event, Game, Pending, RuleError, Stage, Version};
use super::kids::Placement;
use super::play_area::{Cell, Direction, PlayArea, Space};
use super::scoring::score_final;
use super::setup::{GameOptions, new_game};
use super::tile::{AbyssTile, ObjectTile, Power, Tile};
use proptest::prelude::*;
use rand::SeedableRng;
use rand::seq::IndexedRandom;
use rand_chacha::ChaCha8Rng;

const NAMES: [&str; 4] = ["Ana", "Ben", "Cy", "Di"];

fn data() -> &'static OctocubeData {
    OctocubeData::builtin().unwrap()
}

fn game(version: Version, players: usize, seed: u64) -> Game {
    new_game(
        data(),
        &GameOptions {
            version,
            players: NAMES[..players].iter().map(|s| s.to_string()).collect(),
            first_player: Some(0),
        },
        &mut ChaCha8Rng::seed_from_u64(seed),
    )
    .unwrap()
}

fn t(s: &str) -> Tile {
    s.parse().unwrap()
}

fn stack(tiles: &[&str]) -> Space {
    Space::Stack(tiles.iter().map(|s| t(s)).collect())
}

fn abyss(power: Power, power_side_up: bool) -> Space {
    Space::Abyss(AbyssTile { power, power_side_up })
}

/// A game whose play area is replaced by `rows` (the tile census is not meaningful then).
fn custom(version: Version, players: usize, rows: Vec<Vec<Space>>) -> Game {
    let mut g = game(version, players, 0);
    g.play_area = PlayArea::from_rows(rows).unwrap();
    g
}

/// A 3 x 3 area of one-coin stacks, with `centre` in the middle.
fn small(version: Version, players: usize, centre: Space) -> Game {
    let c = || stack(&["coin"]);
    custom(
        version,
        players,
        vec![vec![c(), c(), c()], vec![c(), centre, c()], vec![c(), c(), c()]],
    )
}

fn enter(g: &mut Game, x: u8, y: u8) -> Vec<Event> {
    g.apply(&Action::Enter {
        cell: Cell::new(x, y),
        orientation: Orientation::identity(),
    })
    .unwrap()
}

fn roll(g: &mut Game, d: Direction) -> Result<Vec<Event>, RuleError> {
    g.apply(&Action::Roll {
        direction: d,
        abyss: None,
        orientation: None,
    })
}

fn pass(g: &mut Game) {
    g.apply(&Action::Pass).unwrap();
}

// ---------------------------------------------------------------------------------------------
// Entering, magnetism, rolling

#[test]
fn a_cube_enters_only_on_an_unoccupied_edge_space() {
    let mut g = game(Version::Basic, 4, 1);
    let o = Orientation::identity();
    assert_eq!(
        g.apply(&Action::Enter {
            cell: Cell::new(1, 1),
            orientation: o
        }),
        Err(RuleError::NotAnEdgeSpace {
            cell: Cell::new(1, 1)
        })
    );
    assert_eq!(
        g.apply(&Action::Enter {
            cell: Cell::new(9, 0),
            orientation: o
        }),
        Err(RuleError::OutsidePlayArea {
            cell: Cell::new(9, 0)
        })
    );
    assert_eq!(roll(&mut g, Direction::East), Err(RuleError::MustEnter));
    assert_eq!(g.apply(&Action::Pass), Err(RuleError::MustEnter));
    enter(&mut g, 0, 0);
    assert_eq!(g.current, 1);
    assert_eq!(
        g.apply(&Action::Enter {
            cell: Cell::new(0, 0),
            orientation: o
        }),
        Err(RuleError::Occupied {
            cell: Cell::new(0, 0)
        })
    );
}

#[test]
fn a_cube_coming_to_rest_takes_the_top_tile_onto_its_empty_bottom_face() {
    let mut g = small(Version::Basic, 2, stack(&["coin"]));
    g.play_area = PlayArea::from_rows(vec![
        vec![
            stack(&["pearl/white", "diamond/green"]),
            stack(&["amphora/white", "sextant/green"]),
            stack(&["coin"]),
        ],
        vec![stack(&["coin"]), stack(&["coin"]), stack(&["coin"])],
        vec![stack(&["coin"]), stack(&["coin"]), stack(&["coin"])],
    ])
    .unwrap();
    let ev = enter(&mut g, 0, 0);
    assert!(ev.contains(&Event::Took {
        player: 0,
        cell: Cell::new(0, 0),
        tile: t("diamond/green"),
        position: Position::Bottom
    }));
    assert_eq!(
        g.players[0].cube.tile_at(Position::Bottom),
        Some(t("diamond/green"))
    );
    assert_eq!(g.play_area.space(Cell::new(0, 0)).unwrap().height(), 1);
    assert!(g.players[0].took_from_space);
}

#[test]
fn rulebook_roll_example_the_tile_goes_with_the_cube_and_the_new_one_sticks() {
    // 1. The blue tile is magnetised to the cube. 2. Roll. 3. On the new space the orange tile
    // also magnetises.
    let mut g = custom(
        Version::Basic,
        2,
        vec![
            vec![
                stack(&["coin", "pearl/light_blue"]),
                stack(&["coin", "amphora/white"]),
            ],
            vec![stack(&["coin"]), stack(&["coin"])],
        ],
    );
    enter(&mut g, 0, 0);
    enter(&mut g, 1, 1);
    let ev = roll(&mut g, Direction::North).unwrap_err();
    assert_eq!(
        ev,
        RuleError::OffTheEdge {
            cell: Cell::new(0, 0),
            direction: Direction::North
        }
    );
    let ev = roll(&mut g, Direction::East).unwrap();
    let cube = &g.players[0].cube;
    // Rolling east: the bottom face (light blue pearl) goes to the west side.
    assert_eq!(cube.tile_at(Position::West), Some(t("pearl/light_blue")));
    assert_eq!(cube.tile_at(Position::Bottom), Some(t("amphora/white")));
    assert!(ev.contains(&Event::Rolled {
        player: 0,
        from: Cell::new(0, 0),
        to: Cell::new(1, 0),
        direction: Direction::East
    }));
    assert_eq!(g.play_area.space(Cell::new(0, 0)), Some(&stack(&["coin"])));
    assert_eq!(g.play_area.space(Cell::new(1, 0)), Some(&stack(&["coin"])));
}

#[test]
fn a_cube_with_a_tile_on_its_bottom_face_takes_nothing() {
    let mut g = custom(
        Version::Basic,
        2,
        vec![
            vec![stack(&["coin", "pearl/white"]), stack(&["coin", "amphora/white"])],
            vec![stack(&["coin"]), stack(&["coin"])],
        ],
    );
    // Enter on a face that already holds a tile (allowed): nothing is taken.
    g.players[0]
        .cube
        .attach(Position::Bottom, t("diamond/white"))
        .unwrap();
    let ev = enter(&mut g, 0, 0);
    assert!(!ev.iter().any(|e| matches!(e, Event::Took { .. })));
    assert_eq!(g.play_area.space(Cell::new(0, 0)).unwrap().height(), 2);
    enter(&mut g, 1, 1);
    // Rolling east puts the east face at the bottom: give it a tile too.
    g.players[0]
        .cube
        .attach(Position::East, t("sextant/green"))
        .unwrap();
    roll(&mut g, Direction::East).unwrap();
    assert_eq!(
        g.players[0].cube.tile_at(Position::Bottom),
        Some(t("sextant/green"))
    );
    assert_eq!(g.play_area.space(Cell::new(1, 0)).unwrap().height(), 2);
}

#[test]
fn a_roll_needs_an_unoccupied_adjacent_space() {
    let mut g = game(Version::Basic, 4, 2);
    enter(&mut g, 0, 0);
    enter(&mut g, 1, 0);
    enter(&mut g, 0, 1);
    pass_or_enter(&mut g);
    assert_eq!(g.current, 0);
    assert_eq!(
        roll(&mut g, Direction::East),
        Err(RuleError::Occupied {
            cell: Cell::new(1, 0)
        })
    );
    assert_eq!(
        roll(&mut g, Direction::South),
        Err(RuleError::Occupied {
            cell: Cell::new(0, 1)
        })
    );
    assert!(!g.legal_actions().iter().any(|a| matches!(a, Action::Roll { .. })));
}

fn pass_or_enter(g: &mut Game) {
    if g.current_player().cube_cell().is_none() {
        let c = *g.free_edge_cells().last().unwrap();
        enter(g, c.x, c.y);
    } else {
        pass(g);
    }
}

#[test]
fn leaving_an_emptied_stack_places_an_abyss_tile() {
    let mut g = custom(
        Version::Basic,
        2,
        vec![
            vec![stack(&["pearl/white"]), stack(&["coin"])],
            vec![stack(&["coin"]), stack(&["coin"])],
        ],
    );
    let supply = g.abyss_supply.len();
    enter(&mut g, 0, 0);
    // The stack is empty under the cube, but the Abyss tile comes only when the cube leaves.
    assert_eq!(g.play_area.space(Cell::new(0, 0)), Some(&Space::Stack(vec![])));
    enter(&mut g, 1, 1);
    let ev = roll(&mut g, Direction::East).unwrap();
    assert!(matches!(
        g.play_area.space(Cell::new(0, 0)),
        Some(Space::Abyss(_))
    ));
    assert_eq!(g.abyss_supply.len(), supply - 1);
    assert!(
        ev.iter()
            .any(|e| matches!(e, Event::AbyssPlaced { cell, .. } if *cell == Cell::new(0, 0)))
    );
    // Nothing to collect on an Abyss tile: come back with an empty bottom face.
    pass(&mut g);
    g.apply(&Action::Pivot {
        angle: PivotAngle::Half,
    })
    .unwrap(); // the empty east face to the west
    pass(&mut g);
    roll(&mut g, Direction::West).unwrap();
    assert_eq!(g.players[0].cube.tile_at(Position::Bottom), None);
    assert_eq!(g.players[0].cube.tile_count(), 2);
    assert!(matches!(
        g.play_area.space(Cell::new(0, 0)),
        Some(Space::Abyss(_))
    ));
}

// ---------------------------------------------------------------------------------------------
// Abyss tile A's second roll

#[test]
fn abyss_a_gives_a_second_roll_with_three_or_four_players() {
    let mut g = small(Version::Basic, 3, abyss(Power::A, false));
    enter(&mut g, 1, 0);
    enter(&mut g, 0, 0);
    enter(&mut g, 2, 2);
    let ev = roll(&mut g, Direction::South).unwrap();
    assert!(ev.contains(&Event::SecondRoll { player: 0 }));
    assert_eq!(g.pending, Some(Pending::SecondRoll));
    assert_eq!(g.current, 0);
    assert!(matches!(g.apply(&Action::Pass), Err(RuleError::NotNow(_))));
    let ev = roll(&mut g, Direction::West).unwrap();
    assert!(!ev.contains(&Event::SecondRoll { player: 0 }));
    assert_eq!(g.current, 1);
    assert_eq!(g.players[0].cube_cell(), Some(Cell::new(0, 1)));

    // Declining the second roll ends the turn.
    let mut g = small(Version::Basic, 4, abyss(Power::A, false));
    enter(&mut g, 1, 0);
    pass_or_enter(&mut g);
    pass_or_enter(&mut g);
    pass_or_enter(&mut g);
    roll(&mut g, Direction::South).unwrap();
    g.apply(&Action::EndTurn).unwrap();
    assert_eq!(g.current, 1);
    assert_eq!(g.players[0].cube_cell(), Some(Cell::new(1, 1)));
}

#[test]
fn abyss_a_gives_no_second_roll_with_two_players() {
    let mut g = small(Version::Basic, 2, abyss(Power::A, false));
    enter(&mut g, 1, 0);
    enter(&mut g, 0, 0);
    roll(&mut g, Direction::South).unwrap();
    assert_eq!(g.pending, None);
    assert_eq!(g.current, 1);
    assert!(matches!(g.apply(&Action::EndTurn), Err(RuleError::NotNow(_))));
}

// ---------------------------------------------------------------------------------------------
// Pivot and Score

#[test]
fn pivot_turns_the_sides_and_keeps_top_and_bottom() {
    let mut g = small(Version::Basic, 2, stack(&["coin"]));
    enter(&mut g, 0, 0);
    enter(&mut g, 2, 2);
    let cube = &mut g.players[0].cube;
    cube.attach(Position::North, t("pearl/white")).unwrap();
    cube.attach(Position::Top, t("amphora/white")).unwrap();
    g.apply(&Action::Pivot {
        angle: PivotAngle::Quarter,
    })
    .unwrap();
    let cube = &g.players[0].cube;
    assert_eq!(cube.tile_at(Position::East), Some(t("pearl/white")));
    assert_eq!(cube.tile_at(Position::Top), Some(t("amphora/white")));
    assert_eq!(cube.tile_at(Position::Bottom), Some(t("coin")));
    assert_eq!(g.players[0].cube_cell(), Some(Cell::new(0, 0)));
    assert!(
        serde_json::from_str::<Action>(r#"{"pivot": {"angle": 45}}"#).is_err(),
        "only 90, 180, 270"
    );
}

#[test]
fn rulebook_score_example_coin_three_starfish_and_an_amphora_leave_the_pearl() {
    let mut g = small(Version::Basic, 2, stack(&["coin"]));
    *g.play_area.space_mut(Cell::new(0, 0)).unwrap() = stack(&["coin", "starfish/white"]);
    enter(&mut g, 0, 0); // takes starfish/white onto the bottom
    enter(&mut g, 2, 2);
    let cube = &mut g.players[0].cube;
    cube.attach(Position::Top, t("coin")).unwrap();
    cube.attach(Position::North, t("starfish/green")).unwrap();
    cube.attach(Position::East, t("starfish/dark_blue")).unwrap();
    cube.attach(Position::South, t("amphora/light_blue")).unwrap();
    cube.attach(Position::West, t("pearl/green")).unwrap();
    let ev = g
        .apply(&Action::Score {
            collect: vec![
                Position::Top,
                Position::Bottom,
                Position::North,
                Position::East,
                Position::South,
            ],
            abyss: None,
        })
        .unwrap();
    let p = &g.players[0];
    assert_eq!(p.vp_tokens, 4);
    assert_eq!(p.coins, 1);
    assert_eq!(p.location, CubeLocation::PersonalArea);
    assert_eq!(p.cube.tile_count(), 1);
    assert_eq!(p.cube.tile_at(Position::West), Some(t("pearl/green")));
    let Board::Basic(board) = &p.board else { panic!() };
    assert_eq!(board.object_total(super::tile::Object::Starfish), 3);
    assert_eq!(board.object_total(super::tile::Object::Amphora), 1);
    assert_eq!(board.object_total(super::tile::Object::Pearl), 0);
    assert!(
        ev.iter()
            .any(|e| matches!(e, Event::Scored { score, .. } if score.vp == 4))
    );
    // The cube stays in the personal area until the next turn: then it must enter.
    pass(&mut g);
    assert_eq!(g.apply(&Action::Pass), Err(RuleError::MustEnter));
}

#[test]
fn score_refuses_empty_or_repeated_faces() {
    let mut g = small(Version::Basic, 2, stack(&["coin"]));
    enter(&mut g, 0, 0);
    enter(&mut g, 2, 2);
    assert_eq!(
        g.apply(&Action::Score {
            collect: vec![Position::Top],
            abyss: None
        }),
        Err(RuleError::NoTileThere {
            position: Position::Top
        })
    );
    assert_eq!(
        g.apply(&Action::Score {
            collect: vec![Position::Bottom, Position::Bottom],
            abyss: None
        }),
        Err(RuleError::ListedTwice {
            position: Position::Bottom
        })
    );
    // Collecting nothing is allowed: the cube goes home with its tile.
    g.apply(&Action::Score {
        collect: vec![],
        abyss: None,
    })
    .unwrap();
    assert_eq!(g.players[0].cube.tile_count(), 1);
    assert_eq!(g.players[0].vp_tokens, 0);
}

#[test]
fn a_refused_action_changes_nothing() {
    let mut g = game(Version::Basic, 3, 5);
    enter(&mut g, 0, 0);
    let before = g.clone();
    assert!(
        g.apply(&Action::Enter {
            cell: Cell::new(0, 0),
            orientation: Orientation::identity()
        })
        .is_err()
    );
    assert!(roll(&mut g, Direction::North).is_err());
    assert_eq!(g, before);
}

// ---------------------------------------------------------------------------------------------
// End of the game

#[test]
fn placing_the_last_abyss_tile_ends_the_game_after_the_round_with_a_last_score() {
    let mut g = custom(
        Version::Basic,
        3,
        vec![
            vec![
                stack(&["pearl/white"]),
                stack(&["coin", "coin"]),
                stack(&["diamond/green"]),
            ],
            vec![stack(&["coin"]), stack(&["coin"]), stack(&["coin"])],
            vec![
                stack(&["coin"]),
                stack(&["coin"]),
                stack(&["starfish/white", "starfish/green"]),
            ],
        ],
    );
    g.abyss_supply.truncate(1);
    g.first_player = 1;
    g.current = 1;
    enter(&mut g, 2, 2); // Ben takes starfish/green
    enter(&mut g, 2, 0); // Cy takes diamond/green (emptied)
    enter(&mut g, 0, 0); // Ana, last in round: takes pearl/white (emptied)
    assert_eq!(g.round, 2);
    assert_eq!(g.current, 1);
    pass(&mut g); // Ben
    let ev = roll(&mut g, Direction::South).unwrap(); // Cy leaves [2,0]: last Abyss tile
    assert!(ev.contains(&Event::EndTriggered));
    assert_eq!(g.stage, Stage::FinalRound);
    assert_eq!(g.current, 0);
    // Ana finishes the round; her roll empties a stack but the supply is empty.
    let ev = roll(&mut g, Direction::East).unwrap();
    assert!(ev.contains(&Event::NoAbyssLeft {
        cell: Cell::new(0, 0)
    }));
    assert!(ev.contains(&Event::GameOver));
    assert!(g.is_over());
    // Last score: everyone collected everything.
    assert!(g.players.iter().all(|p| p.cube.tile_count() == 0));
    assert!(g.players.iter().all(|p| p.location == CubeLocation::PersonalArea));
    let last: Vec<_> = ev
        .iter()
        .filter(|e| matches!(e, Event::LastScore { .. }))
        .collect();
    assert_eq!(last.len(), 3);
    assert_eq!(g.apply(&Action::Pass), Err(RuleError::GameOver));
    let s = score_final(&g.final_input()).unwrap();
    let ben = s.players.iter().find(|p| p.name == "Ben").unwrap();
    assert_eq!(ben.object_tiles, 1);
}

// ---------------------------------------------------------------------------------------------
// Kids version

#[test]
fn kids_roll_needs_an_empty_bottom_face_and_a_full_cube_is_retrieved() {
    let mut g = small(Version::Kids, 2, stack(&["pearl/green"]));
    enter(&mut g, 0, 0); // takes the coin
    enter(&mut g, 2, 2);
    assert!(matches!(
        g.apply(&Action::Pass),
        Err(RuleError::WrongVersion { .. })
    ));
    assert!(matches!(
        g.apply(&Action::Pivot {
            angle: PivotAngle::Half
        }),
        Err(RuleError::WrongVersion { .. })
    ));
    // Rolling east would put the (empty) east face down: fine. Give it a tile to force a turn.
    g.players[0]
        .cube
        .attach(Position::East, t("amphora/white"))
        .unwrap();
    assert!(matches!(
        roll(&mut g, Direction::East),
        Err(RuleError::Invalid(_))
    ));
    let turned = g.legal_actions();
    assert!(turned.iter().all(|a| match a {
        Action::Roll {
            orientation: Some(o),
            direction,
            ..
        } => {
            let mut c = g.players[0].cube.clone();
            c.roll(*direction);
            c.orientation = *o;
            c.tile_at(Position::Bottom).is_none()
        }
        Action::Retrieve { .. } => true,
        _ => false,
    }));
    // Fill four more faces so that the next tile completes the cube.
    let cube = &mut g.players[0].cube;
    for p in [Position::Top, Position::North, Position::South] {
        cube.attach(p, t("starfish/white")).unwrap();
    }
    // Faces: bottom coin, east amphora, top/north/south starfish; west empty.
    let o = g
        .legal_actions()
        .into_iter()
        .find(|a| {
            matches!(
                a,
                Action::Roll {
                    direction: Direction::East,
                    ..
                }
            )
        })
        .unwrap();
    g.apply(&o).unwrap();
    assert!(g.players[0].cube.is_full());
    assert_eq!(g.pending, Some(Pending::MustRetrieve));
    assert!(matches!(roll(&mut g, Direction::West), Err(RuleError::NotNow(_))));
    let ev = g.apply(&Action::retrieve_default()).unwrap();
    let Some(Event::Retrieved {
        placed,
        coins,
        leftovers,
        ..
    }) = ev.iter().find(|e| matches!(e, Event::Retrieved { .. }))
    else {
        panic!("{ev:?}")
    };
    // One coin from entering, one from the roll.
    assert_eq!(*coins, 2);
    // starfish/white x3: exact (9), starfish any (4), white any (0); amphora/white: amphora any.
    assert_eq!(placed.len(), 4, "{placed:?}");
    assert!(leftovers.is_empty());
    assert_eq!(g.players[0].coins, 2);
    assert_eq!(g.players[0].cube.tile_count(), 0);
    assert_eq!(g.current, 1);
}

#[test]
fn kids_leftovers_replace_an_abyss_tile_or_top_the_shortest_stack() {
    let mut g = custom(
        Version::Kids,
        2,
        vec![
            vec![stack(&["coin", "coin"]), abyss(Power::B, false)],
            vec![stack(&["coin"]), stack(&["coin", "coin", "coin"])],
        ],
    );
    let supply = g.abyss_supply.len();
    enter(&mut g, 0, 0);
    enter(&mut g, 1, 1);
    let three_sextants = |g: &mut Game, seat: usize| {
        for p in [Position::Top, Position::North, Position::East] {
            g.players[seat].cube.attach(p, t("sextant/white")).unwrap();
        }
    };
    // Three sextant/white: "sextant, any colour" and "white, any object" take two; one is left.
    three_sextants(&mut g, 0);
    let err = g
        .apply(&Action::Retrieve {
            placements: None,
            leftover_order: None,
            leftover_to: Some(Cell::new(0, 1)),
            abyss: None,
        })
        .unwrap_err();
    assert!(matches!(err, RuleError::Invalid(m) if m.contains("[1, 0]")));
    let ev = g.apply(&Action::retrieve_default()).unwrap();
    assert!(
        ev.iter()
            .any(|e| matches!(e, Event::AbyssReturned { cell, .. } if *cell == Cell::new(1, 0)))
    );
    assert_eq!(
        g.play_area.space(Cell::new(1, 0)),
        Some(&stack(&["sextant/white"]))
    );
    assert_eq!(g.abyss_supply.len(), supply + 1);
    assert_eq!(g.players[0].coins, 1);

    // No Abyss tile left in the play area: Ben's leftover tops a shortest unoccupied stack
    // (height 1: [0,0], [1,0], [0,1]; not his own [1,1], which still has 2).
    three_sextants(&mut g, 1);
    let to = |c| Action::Retrieve {
        placements: None,
        leftover_order: None,
        leftover_to: Some(c),
        abyss: None,
    };
    assert!(g.apply(&to(Cell::new(1, 1))).is_err());
    let ev = g.apply(&to(Cell::new(0, 1))).unwrap();
    assert!(
        ev.iter()
            .any(|e| matches!(e, Event::Retrieved { leftovers_to: Some(c), .. } if *c == Cell::new(0, 1)))
    );
    assert_eq!(
        g.play_area.space(Cell::new(0, 1)),
        Some(&stack(&["coin", "sextant/white"]))
    );
}

#[test]
fn kids_explicit_placements_are_checked() {
    let mut g = small(Version::Kids, 2, stack(&["coin"]));
    enter(&mut g, 0, 0);
    enter(&mut g, 2, 2);
    g.players[0].cube.attach(Position::Top, t("pearl/green")).unwrap();
    let bad = |space| Action::Retrieve {
        placements: Some(vec![Placement {
            position: Position::Top,
            space,
        }]),
        leftover_order: None,
        leftover_to: None,
        abyss: None,
    };
    assert!(matches!(g.apply(&bad(0)), Err(RuleError::Invalid(m)) if m.contains("does not match")));
    assert!(matches!(g.apply(&bad(99)), Err(RuleError::Invalid(m)) if m.contains("does not exist")));
    // Placing nothing while the pearl fits is refused.
    let none = Action::Retrieve {
        placements: Some(vec![]),
        leftover_order: None,
        leftover_to: None,
        abyss: None,
    };
    assert!(matches!(g.apply(&none), Err(RuleError::Invalid(m)) if m.contains("must be placed")));
    g.apply(&bad(12)).unwrap(); // pearl/green exact
    let Board::Kids(k) = &g.players[0].board else {
        panic!()
    };
    assert_eq!(
        k.spaces[12].tile,
        Some("pearl/green".parse::<ObjectTile>().unwrap())
    );
}

#[test]
fn kids_game_ends_after_the_round_of_a_complete_board_and_coins_break_ties() {
    let mut g = small(Version::Kids, 3, stack(&["coin"]));
    // Give Ben a board one tile short of complete.
    let Board::Kids(k) = &mut g.players[1].board else {
        panic!()
    };
    let specs: Vec<_> = k.spaces.iter().map(|s| s.spec).collect();
    for (i, s) in specs.iter().enumerate().skip(1) {
        let o = s.object.unwrap_or(super::tile::Object::Diamond);
        let b = s.background.unwrap_or(super::tile::Background::Green);
        k.spaces[i].tile = Some(ObjectTile::new(o, b));
    }
    enter(&mut g, 0, 0);
    enter(&mut g, 2, 0);
    g.players[1]
        .cube
        .attach(Position::Top, t("sextant/white"))
        .unwrap();
    enter(&mut g, 0, 2);
    // Round 2: Ana rolls; Ben retrieves and completes his board.
    roll(&mut g, Direction::East).unwrap();
    let ev = g.apply(&Action::retrieve_default()).unwrap();
    assert!(ev.contains(&Event::EndTriggered));
    assert!(!g.is_over());
    assert!(
        g.kids_winners().is_empty(),
        "not decided before the round is over"
    );
    let ev = roll(&mut g, Direction::North).unwrap(); // Cy: last of the round
    assert!(ev.contains(&Event::GameOver));
    assert!(!ev.iter().any(|e| matches!(e, Event::LastScore { .. })));
    assert_eq!(g.kids_winners(), vec![1]);
}

// ---------------------------------------------------------------------------------------------
// Advanced version: the Abyss powers

fn advanced_with(power: Power) -> Game {
    let mut g = custom(
        Version::Advanced,
        2,
        vec![
            vec![
                stack(&["coin", "pearl/white"]),
                abyss(power, true),
                stack(&["coin", "diamond/green"]),
            ],
            vec![
                stack(&["coin", "amphora/dark_blue"]),
                stack(&["sextant/green"]),
                stack(&["coin"]),
            ],
            vec![
                stack(&["coin"]),
                stack(&["coin"]),
                stack(&["coin", "starfish/white"]),
            ],
        ],
    );
    enter(&mut g, 0, 0); // Ana takes pearl/white
    enter(&mut g, 2, 2); // Ben takes starfish/white
    g
}

fn power(g: &mut Game, effect: PowerUse) -> Result<Vec<Event>, RuleError> {
    g.apply(&Action::Power {
        at: Cell::new(1, 0),
        effect,
        abyss: None,
    })
}

#[test]
fn power_a_rolls_and_an_adjacent_power_replaces_the_action() {
    let mut g = advanced_with(Power::A);
    assert!(
        matches!(power(&mut g, PowerUse::Relocate { cell: Cell::new(1, 1) }), Err(RuleError::Invalid(m)) if m.contains("power A"))
    );
    power(
        &mut g,
        PowerUse::Roll {
            direction: Direction::South,
        },
    )
    .unwrap();
    assert_eq!(g.players[0].cube_cell(), Some(Cell::new(0, 1)));
    assert_eq!(g.current, 1);
    assert!(
        g.players[0]
            .cube
            .tiles()
            .any(|(_, t)| t == "amphora/dark_blue".parse().unwrap())
    );
    // Not adjacent: Ben at [2,2] cannot use the tile at [1,0].
    assert!(
        power(
            &mut g,
            PowerUse::Roll {
                direction: Direction::West
            }
        )
        .is_err()
    );
}

#[test]
fn rolling_onto_a_power_tile_offers_its_power() {
    let mut g = advanced_with(Power::C);
    let ev = roll(&mut g, Direction::East).unwrap();
    assert!(ev.contains(&Event::PowerAvailable {
        player: 0,
        cell: Cell::new(1, 0),
        power: Power::C
    }));
    assert_eq!(
        g.pending,
        Some(Pending::LandedOnPower {
            cell: Cell::new(1, 0)
        })
    );
    // C: move the cube anywhere, orientation unchanged; it comes to rest (magnetism).
    let before = g.players[0].cube.orientation;
    power(
        &mut g,
        PowerUse::Relocate {
            cell: Cell::new(2, 0),
        },
    )
    .unwrap();
    assert_eq!(g.players[0].cube_cell(), Some(Cell::new(2, 0)));
    assert_eq!(g.players[0].cube.orientation, before);
    assert_eq!(g.current, 1);
}

#[test]
fn power_b_swaps_the_top_tile_with_a_board_tile() {
    let mut g = advanced_with(Power::B);
    let pearl: ObjectTile = "pearl/white".parse().unwrap();
    let diamond: ObjectTile = "diamond/white".parse().unwrap();
    assert!(
        power(&mut g, PowerUse::SwapTopWithBoard { board_tile: diamond }).is_err(),
        "no top tile"
    );
    g.players[0]
        .cube
        .attach(Position::Top, Tile::Object(pearl))
        .unwrap();
    assert!(
        power(&mut g, PowerUse::SwapTopWithBoard { board_tile: diamond }).is_err(),
        "no board tile"
    );
    if let Board::Basic(b) = &mut g.players[0].board {
        b.add(diamond);
    }
    power(&mut g, PowerUse::SwapTopWithBoard { board_tile: diamond }).unwrap();
    assert_eq!(
        g.players[0].cube.tile_at(Position::Top),
        Some(Tile::Object(diamond))
    );
    let Board::Basic(b) = &g.players[0].board else {
        panic!()
    };
    assert_eq!(
        (
            b.get(pearl.object, pearl.background),
            b.get(diamond.object, diamond.background)
        ),
        (1, 0)
    );
}

#[test]
fn power_d_takes_a_visible_tile_onto_the_top_face() {
    let mut g = advanced_with(Power::D);
    let ev = power(
        &mut g,
        PowerUse::TakeTile {
            cell: Cell::new(1, 1),
        },
    )
    .unwrap();
    assert_eq!(g.players[0].cube.tile_at(Position::Top), Some(t("sextant/green")));
    // That emptied the stack: an Abyss tile goes there.
    assert!(
        ev.iter()
            .any(|e| matches!(e, Event::AbyssPlaced { cell, .. } if *cell == Cell::new(1, 1)))
    );
    pass(&mut g);
    // The top face is now taken: D cannot be used again; a tile under a cube is not visible.
    assert!(
        power(
            &mut g,
            PowerUse::TakeTile {
                cell: Cell::new(2, 0)
            }
        )
        .is_err()
    );
}

#[test]
fn power_e_reorients_and_the_new_bottom_face_takes_a_tile() {
    let mut g = advanced_with(Power::E);
    let o = Orientation::identity().rolled(Direction::North);
    power(&mut g, PowerUse::Reorient { orientation: o }).unwrap();
    let cube = &g.players[0].cube;
    assert_eq!(cube.orientation, o);
    assert_eq!(cube.tile_at(Position::South), Some(t("pearl/white")));
    assert_eq!(cube.tile_at(Position::Bottom), Some(t("coin")));
}

#[test]
fn power_f_swaps_an_adjacent_tile_with_a_board_tile() {
    let mut g = advanced_with(Power::F);
    let diamond: ObjectTile = "diamond/white".parse().unwrap();
    if let Board::Basic(b) = &mut g.players[0].board {
        b.add(diamond);
    }
    // [0,1]'s top is amphora/dark_blue.
    power(
        &mut g,
        PowerUse::SwapAdjacentWithBoard {
            cell: Cell::new(0, 1),
            board_tile: diamond,
        },
    )
    .unwrap();
    assert_eq!(
        g.play_area.space(Cell::new(0, 1)),
        Some(&stack(&["coin", "diamond/white"]))
    );
    let Board::Basic(b) = &g.players[0].board else {
        panic!()
    };
    assert_eq!(
        b.get(super::tile::Object::Amphora, super::tile::Background::DarkBlue),
        1
    );
    assert_eq!(b.total(), 1);
}

#[test]
fn power_g_swaps_cubes_and_power_i_swaps_top_tiles() {
    let mut g = advanced_with(Power::G);
    power(&mut g, PowerUse::SwapCubes { seat: 1 }).unwrap();
    assert_eq!(g.players[0].cube_cell(), Some(Cell::new(2, 2)));
    assert_eq!(g.players[1].cube_cell(), Some(Cell::new(0, 0)));
    // Each keeps its tiles; both had a tile on the bottom, so nothing more is taken.
    assert_eq!(g.players[0].cube.tile_count(), 1);

    let mut g = advanced_with(Power::I);
    assert!(power(&mut g, PowerUse::SwapTopTiles { seat: 1 }).is_err());
    g.players[0].cube.attach(Position::Top, t("coin")).unwrap();
    g.players[1].cube.attach(Position::Top, t("pearl/green")).unwrap();
    assert!(power(&mut g, PowerUse::SwapTopTiles { seat: 0 }).is_err());
    power(&mut g, PowerUse::SwapTopTiles { seat: 1 }).unwrap();
    assert_eq!(g.players[0].cube.tile_at(Position::Top), Some(t("pearl/green")));
    assert_eq!(g.players[1].cube.tile_at(Position::Top), Some(t("coin")));
}

#[test]
fn power_h_swaps_two_unoccupied_stacks() {
    let mut g = advanced_with(Power::H);
    assert!(matches!(
        power(
            &mut g,
            PowerUse::SwapStacks {
                a: Cell::new(0, 0),
                b: Cell::new(2, 0)
            }
        ),
        Err(RuleError::Occupied { .. })
    ));
    power(
        &mut g,
        PowerUse::SwapStacks {
            a: Cell::new(1, 1),
            b: Cell::new(2, 0),
        },
    )
    .unwrap();
    assert_eq!(
        g.play_area.space(Cell::new(1, 1)),
        Some(&stack(&["coin", "diamond/green"]))
    );
    assert_eq!(
        g.play_area.space(Cell::new(2, 0)),
        Some(&stack(&["sextant/green"]))
    );
}

#[test]
fn powers_are_only_for_the_advanced_version() {
    let mut g = small(Version::Basic, 2, abyss(Power::C, false));
    enter(&mut g, 1, 0);
    enter(&mut g, 2, 2);
    assert!(matches!(
        g.apply(&Action::Power {
            at: Cell::new(1, 1),
            effect: PowerUse::Relocate {
                cell: Cell::new(0, 0)
            },
            abyss: None
        }),
        Err(RuleError::WrongVersion { .. })
    ));
}

// ---------------------------------------------------------------------------------------------
// Whole random games

/// Plays random legal actions: an action kind is drawn first, then one of its variants, so that
/// numerous variants (entry orientations, power targets) do not crowd out the rolls.
fn play_random(
    g: &mut Game,
    rng: &mut ChaCha8Rng,
    max_actions: usize,
    mut check: impl FnMut(&Game),
) -> usize {
    let tiles = g.tile_census().total();
    for n in 0..max_actions {
        if g.is_over() {
            return n;
        }
        let actions = g.legal_actions();
        assert!(!actions.is_empty(), "no legal action: {g:?}");
        let mut kinds: Vec<std::mem::Discriminant<Action>> =
            actions.iter().map(std::mem::discriminant).collect();
        kinds.dedup();
        let kind = *kinds.choose(rng).unwrap();
        let of_kind: Vec<&Action> = actions
            .iter()
            .filter(|a| std::mem::discriminant(*a) == kind)
            .collect();
        let action = (*of_kind.choose(rng).unwrap()).clone();
        if let Err(e) = g.apply(&action) {
            panic!("legal action {action:?} refused: {e}");
        }
        assert_eq!(g.tile_census().total(), tiles, "after {action:?}");
        assert_eq!(g.abyss_count(), data().abyss.tiles.len());
        for p in &g.players {
            assert!(p.cube.tile_count() <= 6);
        }
        check(g);
    }
    max_actions
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 12, ..ProptestConfig::default() })]

    #[test]
    fn tiles_are_conserved_across_a_whole_random_basic_game(seed in any::<u64>(), players in 2usize..=4) {
        let mut g = game(Version::Basic, players, seed);
        let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x5eed);
        prop_assert_eq!(g.tile_census().total(), 84);
        let turns = play_random(&mut g, &mut rng, 50_000, |_| {});
        prop_assert!(g.is_over(), "not over after {} actions", turns);
        prop_assert!(g.abyss_supply.is_empty());
        prop_assert!(g.players.iter().all(|p| p.cube.tile_count() == 0));
        let census = g.tile_census();
        prop_assert_eq!(census.total(), 84);
        prop_assert_eq!(census.cubes, 0);
        // The end-of-game figures are always a valid scoring input.
        let score = score_final(&g.final_input()).unwrap();
        prop_assert!(!score.winners.is_empty());
        let vp: u32 = g.players.iter().map(|p| p.vp_tokens).sum();
        prop_assert_eq!(vp, score.players.iter().map(|p| p.vp_tokens).sum::<u32>());
    }

    #[test]
    fn tiles_are_conserved_across_a_whole_random_advanced_game(seed in any::<u64>(), players in 2usize..=4) {
        // Half the games use a set with power I instead of H (the box holds 8 of the 9 powers).
        let mut set = data().clone();
        if seed % 2 == 1 {
            set.abyss.tiles.retain(|p| *p != Power::H);
            set.abyss.tiles.push(Power::I);
        }
        let mut g = new_game(
            &set,
            &GameOptions {
                version: Version::Advanced,
                players: NAMES[..players].iter().map(|s| s.to_string()).collect(),
                first_player: None,
            },
            &mut ChaCha8Rng::seed_from_u64(seed),
        )
        .unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0xadd);
        play_random(&mut g, &mut rng, 50_000, |_| {});
        prop_assert!(g.is_over());
        prop_assert_eq!(g.tile_census().total(), 84);
        prop_assert!(score_final(&g.final_input()).is_ok());
    }

    #[test]
    fn tiles_are_conserved_in_random_kids_play(seed in any::<u64>(), players in 2usize..=4) {
        let mut g = game(Version::Kids, players, seed);
        let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0xc1d5);
        // Kids games end only when a board is complete, which random play may never do.
        play_random(&mut g, &mut rng, 3_000, |g| {
            for p in &g.players {
                if let Board::Kids(k) = &p.board {
                    assert!(k.spaces.iter().all(|s| s.tile.is_none_or(|t| s.accepts(t))));
                }
            }
        });
        prop_assert_eq!(g.tile_census().total(), 84);
    }
}

#[test]
fn game_records_read_back() {
    let actions: Vec<Action> = serde_json::from_str(
        r#"[{"enter": {"cell": [0, 2], "orientation": {"top": 1, "north": 3}}},
            {"roll": {"direction": "east"}},
            {"pivot": {"angle": 270}},
            {"score": {"collect": ["top", "bottom"]}},
            "pass", "end_turn",
            {"retrieve": {"leftover_to": [1, 1]}},
            {"power": {"at": [2, 2], "use": {"swap_top_tiles": {"seat": 1}}}}]"#,
    )
    .unwrap();
    assert_eq!(actions.len(), 8);
    let back: Vec<Action> = serde_json::from_str(&serde_json::to_string(&actions).unwrap()).unwrap();
    assert_eq!(back, actions);
    assert!(serde_json::from_str::<Action>(r#"{"roll": {"direction": "up"}}"#).is_err());
    assert!(serde_json::from_str::<Action>(r#"{"roll": {"direction": "east", "speed": 2}}"#).is_err());
    let g = game(Version::Advanced, 3, 9);
    let back: Game = serde_json::from_str(&serde_json::to_string(&g).unwrap()).unwrap();
    assert_eq!(back, g);
    back.check_against(data()).unwrap();
}
