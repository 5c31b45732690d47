//! The referee on whole table readings: the rulebook's examples, cli.md's contract, the JSON
//! vocabulary shared with `truth.json`, and the commit gate fed by frames.
// The scene helpers below are test code too (clippy only exempts `#[test]` functions).
#![allow(clippy::unwrap_used)]

use PlayerColor::*;
use TreasureType::*;
use octoref::games::crash_octopus::{PlayerColor, TreasureType};
use octoref::referee::{
    CommitGate, ForbidReason, FrameReport, GameContext, GateOutcome, Modules, NextLoad, Question, Reading,
    RefereeError, Rulings, TableReading, rule,
};
use octoref::table::{Catalog, CounterReport, OceanReport, PieceKind, PieceReport, PointMm, PolygonMm};
use proptest::prelude::*;
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

fn rect(cx: f64, cy: f64, w: f64, h: f64) -> PolygonMm {
    PolygonMm::new(vec![
        PointMm::new(cx - w / 2.0, cy - h / 2.0),
        PointMm::new(cx + w / 2.0, cy - h / 2.0),
        PointMm::new(cx + w / 2.0, cy + h / 2.0),
        PointMm::new(cx - w / 2.0, cy + h / 2.0),
    ])
}

fn piece(id: &str, kind: PieceKind, cx: f64, cy: f64, w: f64, h: f64) -> PieceReport {
    PieceReport::placed(id, kind, PointMm::new(cx, cy), rect(cx, cy, w, h))
}

/// A 70 x 30 ship, axis-aligned, centred at (cx, cy): x in cx±35, y in cy±15.
fn ship(id: &str, color: PlayerColor, cx: f64, cy: f64) -> PieceReport {
    let kind = if color == Pink {
        PieceKind::PirateShip
    } else {
        PieceKind::Ship
    };
    PieceReport {
        color: Some(color),
        ..piece(id, kind, cx, cy, 70.0, 30.0)
    }
}

/// A 16 x 16 treasure whose nearest side is `gap` mm below (y+) the ship centred at (sx, sy).
fn treasure_below(id: &str, t: TreasureType, sx: f64, sy: f64, gap: f64) -> PieceReport {
    treasure(id, t, sx, sy + 15.0 + gap + 8.0)
}

fn treasure(id: &str, t: TreasureType, cx: f64, cy: f64) -> PieceReport {
    PieceReport {
        treasure: Some(t),
        ..piece(id, PieceKind::Treasure, cx, cy, 16.0, 16.0)
    }
}

fn loaded(id: &str, t: TreasureType, on: &PieceReport) -> PieceReport {
    PieceReport {
        loaded_on: Some(on.id.clone()),
        ..treasure(id, t, on.center_mm.x, on.center_mm.y)
    }
}

/// A 1 m square ocean from (-500, -500) to (500, 500).
fn ocean() -> PolygonMm {
    rect(0.0, 0.0, 1000.0, 1000.0)
}

fn frame(pieces: Vec<PieceReport>) -> FrameReport {
    FrameReport {
        image: "frame.png".into(),
        ocean: OceanReport::new(ocean()),
        pieces,
        counter: Some(CounterReport::new("BBBKBBBKBBKBBKKK".parse().unwrap(), 3)),
        obstructed: false,
        view_moved: false,
        rulings: None,
    }
}

fn ctx(players: &[PlayerColor], active: PlayerColor) -> GameContext {
    let mut c = GameContext::with_players(players.to_vec());
    c.active = Some(active);
    c
}

fn ruled(f: &mut FrameReport, c: &GameContext) -> Rulings {
    f.rule(c).unwrap().clone()
}

fn has_message(r: &Rulings, needle: &str) -> bool {
    r.messages.iter().any(|m| m.contains(needle))
}

#[test]
fn the_cli_example_rules_and_prints_as_the_contract_says() {
    // cli.md: orange has loaded gold; the gem p4 is closest (12.3 mm); p8 is a gold.
    let s = ship("p2", Orange, 0.0, 0.0);
    let pieces = vec![
        s.clone(),
        loaded("p1", Gold, &s),
        treasure_below("p4", Gem, 0.0, 0.0, 12.3),
        treasure_below("p5", Chest, 0.0, 0.0, 40.0),
        treasure_below("p7", Captain, 0.0, 0.0, 80.0),
        treasure_below("p8", Gold, 0.0, 0.0, 120.0),
        treasure("p12", Goblet, 700.0, 0.0),
    ];
    let mut f = frame(pieces);
    let r = ruled(&mut f, &ctx(&[Orange, Green], Orange));
    let json = serde_json::to_value(&f).unwrap();
    let orange = &json["rulings"]["players"]["orange"];
    assert_eq!(orange["loaded"], serde_json::json!(["gold"]));
    assert_eq!(
        orange["gaps_mm"][0],
        serde_json::json!({"id": "p4", "type": "gem", "gap_mm": 12.3, "uncertainty_mm": 1.4})
    );
    assert_eq!(orange["closest"], "p4");
    assert_eq!(orange["too_close_to_call"], false);
    assert_eq!(orange["flickable"], serde_json::json!(["p5", "p7"]));
    assert_eq!(orange["forbidden"][0]["id"], "p4");
    assert_eq!(orange["forbidden"][0]["reason"], "closest");
    assert_eq!(orange["forbidden"][1]["id"], "p8");
    assert_eq!(orange["forbidden"][1]["reason"], "type_loaded");
    assert_eq!(json["rulings"]["out_of_ocean"], serde_json::json!(["p12"]));
    assert!(json["rulings"]["messages"].is_array());
    assert_eq!(json["pieces"][6]["in_ocean"], false);
    assert_eq!(json["pieces"][2]["in_ocean"], true);
    // The brief's wording, word for word.
    assert!(has_message(
        &r,
        "Orange may not flick the gem (p4): it is the closest treasure to the orange ship, 12.3 mm away."
    ));
    assert!(has_message(
        &r,
        "Orange may not flick the gold (p8): orange already has a gold on board."
    ));
    assert!(has_message(
        &r,
        "Orange may flick the chest (p5) or the captain (p7)."
    ));
    // Green's ship is not on the table: no ruling is better than a wrong one.
    assert!(!r.players.contains_key(&Green));
    assert!(has_message(
        &r,
        "The green ship is not seen: no ruling for green."
    ));
    // Round trip: analyze's output reads back as the same frame.
    let back: FrameReport = serde_json::from_value(json).unwrap();
    assert_eq!(back.pieces, f.pieces);
    assert_eq!(back.rulings.unwrap().digest(), r.digest());
}

#[test]
fn too_close_to_call_lets_the_players_choose() {
    // "If you can't tell which treasure is closest to your ship, you may choose which one to flick
    // (with the consent of other players)."
    let pieces = vec![
        ship("p1", Green, 0.0, 0.0),
        treasure_below("p3", Gold, 0.0, 0.0, 14.1),
        treasure("p9", Chest, 0.0, -15.0 - 15.0 - 8.0),
        treasure_below("p6", Gem, 0.0, 0.0, 60.0),
    ];
    let mut f = frame(pieces);
    let r = ruled(&mut f, &ctx(&[Orange, Green], Green));
    let g = &r.players[&Green];
    assert!(g.too_close_to_call);
    assert_eq!(g.closest.as_deref(), Some("p3"));
    assert_eq!(g.closest_candidates, vec!["p3", "p9"]);
    assert_eq!(g.flickable, vec!["p6"]);
    assert!((g.margin_mm().unwrap() - 0.9).abs() < 1e-9);
    let tied: Vec<(&str, ForbidReason)> = g.forbidden.iter().map(|f| (f.id.as_str(), f.reason)).collect();
    assert_eq!(
        tied,
        vec![
            ("p3", ForbidReason::TooCloseToCall),
            ("p9", ForbidReason::TooCloseToCall)
        ]
    );
    assert!(
        has_message(
            &r,
            "Too close to call for green: the gold (p3) and the chest (p9) are 14.1 and 15.0 mm away (± 1.4 mm) — choose together"
        ),
        "{:#?}",
        r.messages
    );
    assert!(
        r.questions
            .iter()
            .any(|q| matches!(q, Question::TooCloseToCall { player: Green, .. }))
    );

    // A wider margin than the tolerance is called, and a near call shows its uncertainty.
    let mut c = ctx(&[Orange, Green], Green);
    c.tolerance_mm = 0.5;
    let r = ruled(&mut f, &c);
    assert!(!r.players[&Green].too_close_to_call);
    assert!(
        has_message(
            &r,
            "it is the closest treasure to the green ship, 14.1 mm away ± 1.4 mm; the next, the chest (p9), is 15.0 mm away — close, but clear."
        ),
        "{:#?}",
        r.messages
    );
}

#[test]
fn the_closest_to_an_opponent_may_be_flicked_and_the_anchor_does_not_count() {
    // "You can flick a treasure that is closest to an opponent's ship (if it's not the closest to
    // yours)." "The anchor is irrelevant when measuring the distance to your ship."
    let anchor = PieceReport {
        color: Some(Orange),
        ..piece("a1", PieceKind::Anchor, 0.0, 35.0, 28.0, 24.0)
    };
    let pieces = vec![
        ship("s1", Orange, 0.0, 0.0),
        anchor,
        ship("s2", Green, 300.0, 0.0),
        // Right next to the orange anchor, but 40 mm from the orange ship.
        treasure_below("t1", Gem, 0.0, 0.0, 40.0),
        treasure_below("t2", Chest, 0.0, 0.0, 30.0),
        // Closest to green, 100 mm from orange.
        treasure("t3", Gold, 300.0 - 35.0 - 100.0 - 8.0, 0.0),
    ];
    let mut f = frame(pieces);
    let r = ruled(&mut f, &ctx(&[Orange, Green], Orange));
    assert_eq!(r.players[&Orange].closest.as_deref(), Some("t2"));
    assert_eq!(r.players[&Green].closest.as_deref(), Some("t3"));
    assert!(r.players[&Orange].flickable.contains(&"t3".to_string()));
    assert!(r.players[&Orange].flickable.contains(&"t1".to_string()));
    // The active player's rulings come first.
    let first_player_msg = r
        .messages
        .iter()
        .position(|m| m.contains("may not flick"))
        .unwrap();
    assert!(r.messages[first_player_msg].starts_with("Orange"));
}

#[test]
fn loaded_island_and_outside_treasures_are_never_the_closest() {
    let s = ship("s1", Blue, 0.0, 0.0);
    let island = piece("isle", PieceKind::Island, 0.0, 80.0, 90.0, 76.0);
    let on_island = PieceReport {
        on_island: true,
        ..treasure("t1", Captain, 0.0, 80.0)
    };
    let pieces = vec![
        s.clone(),
        loaded("t0", Gem, &s),
        island,
        on_island,
        treasure("t2", Gold, 0.0, -200.0),
        treasure("t3", Chest, 0.0, 520.0),
    ];
    let mut f = frame(pieces);
    let r = ruled(&mut f, &ctx(&[Blue, Orange], Blue));
    let b = &r.players[&Blue];
    assert_eq!(b.closest.as_deref(), Some("t2"));
    let ids: Vec<&str> = b.gaps_mm.iter().map(|g| g.id.as_str()).collect();
    assert_eq!(ids, vec!["t2"]);
    assert_eq!(b.loaded, vec![Gem]);
    assert_eq!(r.out_of_ocean, vec!["t3"]);
    assert!(r.island.as_ref().unwrap().treasures == vec!["t1".to_string()]);
}

#[test]
fn the_previous_player_redrops_treasures_and_ships_go_back_at_once() {
    // "the previous player (in playing order) takes that treasure and drops it over the octopus
    // head"; "If a tentacle or a ship goes out of the ocean area, immediately put it back inside".
    let pieces = vec![
        ship("s1", Orange, 0.0, 0.0),
        ship("s2", Green, 530.0, 0.0),
        treasure("t1", Gold, 0.0, 100.0),
        treasure("t2", Gem, 600.0, 100.0),
        treasure("t3", Chest, -620.0, 0.0),
        piece("crab", PieceKind::Crab, 500.0, 300.0, 26.0, 20.0),
        piece("tent", PieceKind::Tentacle, 0.0, 560.0, 50.0, 12.0),
    ];
    let mut f = frame(pieces);
    let r = ruled(&mut f, &ctx(&[Orange, Green, Blue], Orange));
    assert_eq!(r.out_of_ocean, vec!["s2", "t2", "t3", "tent"]);
    let redrop = r.redrop.as_ref().unwrap();
    assert_eq!(redrop.by, Some(Blue));
    assert_eq!(redrop.ids, vec!["t2", "t3"]);
    assert!(
        has_message(
            &r,
            "Out of the ocean: the gem (t2) and the chest (t3). Blue, the player before orange, drops them together over the octopus head."
        ),
        "{:#?}",
        r.messages
    );
    assert!(has_message(&r, "may be loaded by orange instead"));
    assert_eq!(r.put_back, vec!["s2", "tent"]);
    assert!(has_message(
        &r,
        "The green ship (s2) is out of the ocean: put it back inside at once"
    ));
    assert!(!r.players.contains_key(&Green));
    assert!(has_message(
        &r,
        "No ruling for green until the green ship (s2) is back inside the ocean."
    ));
    // The crab sits on the string and is never out of the ocean.
    assert!(!r.out_of_ocean.contains(&"crab".to_string()));
    // On the string: t3 is outside; a treasure straddling the line with its centre in is in play.
    let mut f2 = frame(vec![
        ship("s1", Orange, 0.0, 0.0),
        treasure("t4", Gem, 495.0, 0.0),
    ]);
    let r2 = ruled(&mut f2, &ctx(&[Orange, Green], Green));
    assert_eq!(r2.on_string, vec!["t4"]);
    assert!(f2.pieces[1].on_string && f2.pieces[1].in_ocean);
    assert_eq!(r2.players[&Orange].closest.as_deref(), Some("t4"));
    assert!(has_message(
        &r2,
        "The gem (t4) lies on the string with its centre inside: it is in the ocean"
    ));
}

#[test]
fn with_little_octopus_a_treasure_may_be_dropped_on_either_head() {
    let mut c = ctx(&[Orange, Green], Orange);
    c.modules = Modules {
        little_octopus: true,
        ..Modules::default()
    };
    let mut f = frame(vec![
        ship("s1", Orange, 0.0, 0.0),
        treasure("t1", Gem, 0.0, 100.0),
        treasure("t2", Gold, 700.0, 0.0),
    ]);
    let r = ruled(&mut f, &c);
    assert!(
        has_message(
            &r,
            "Green, the player before orange, drops it over the octopus head (or Little Octopus's)."
        ),
        "{:#?}",
        r.messages
    );
}

#[test]
fn at_set_up_every_treasure_is_outside() {
    let mut f = frame(vec![
        ship("s1", Orange, 0.0, 0.0),
        treasure("t1", Gem, 700.0, 0.0),
        treasure("t2", Gold, 720.0, 0.0),
    ]);
    let r = ruled(&mut f, &ctx(&[Orange, Green], Orange));
    assert!(r.redrop.as_ref().unwrap().setup);
    assert_eq!(r.redrop.as_ref().unwrap().by, None);
    assert!(
        r.messages[0]
            .starts_with("Set-up: every treasure is outside the ocean. The first player drops them all")
    );
    assert_eq!(r.players[&Orange].closest, None);
    assert!(!has_message(&r, "No treasure is in the ocean"));
}

#[test]
fn no_ruling_while_obstructed_or_moved() {
    let pieces = vec![
        ship("s1", Orange, 0.0, 0.0),
        treasure("t1", Gem, 700.0, 0.0),
        treasure("t2", Gold, 0.0, 60.0),
    ];
    for (obstructed, view_moved, why) in [
        (true, false, "covers part of the ocean"),
        (false, true, "has moved since calibration"),
    ] {
        let mut f = frame(pieces.clone());
        f.obstructed = obstructed;
        f.view_moved = view_moved;
        let r = ruled(&mut f, &ctx(&[Orange, Green], Orange));
        assert!(r.players.is_empty());
        assert!(r.out_of_ocean.is_empty() && r.questions.is_empty());
        assert_eq!(r.messages.len(), 1);
        assert!(r.messages[0].contains(why));
        let json = serde_json::to_value(&f).unwrap();
        assert_eq!(json["rulings"]["players"], serde_json::json!({}));
    }
    let mut f = frame(pieces);
    f.ocean = OceanReport::new(PolygonMm::default());
    let r = ruled(&mut f, &GameContext::default());
    assert!(r.players.is_empty() && r.messages[0].starts_with("No ocean is known"));
}

#[test]
fn the_pink_pirate_has_no_entry_and_never_moves_the_crab() {
    let pirate = ship("pp", Pink, 200.0, 200.0);
    let pieces = vec![
        ship("s1", Orange, 0.0, 0.0),
        ship("s2", Green, -200.0, -200.0),
        ship("s3", Blue, 200.0, -200.0),
        pirate.clone(),
        loaded("t9", Goblet, &pirate),
        treasure("t1", Gem, 0.0, 100.0),
    ];
    let mut f = frame(pieces);
    let mut c = ctx(&[Orange, Green, Blue, Pink], Blue);
    let r = ruled(&mut f, &c);
    let players: Vec<PlayerColor> = r.players.keys().copied().collect();
    assert_eq!(players, vec![Orange, Green, Blue]);
    // Crab at 3: the next bead is black. Blue loads -> the attack runs pink, orange, green, blue.
    assert_eq!(r.next_load, Some(NextLoad::OctopusAttack));
    assert_eq!(r.attack_order, vec![Pink, Orange, Green, Blue]);
    assert!(
        has_message(
            &r,
            "a load now steps the crab onto a black bead: the octopus attacks — pink, orange, green, then blue drop the ink die."
        ),
        "{:#?}",
        r.messages
    );
    assert!(has_message(
        &r,
        "(Not for the Pirate: its steals and island treasures never move the crab.)"
    ));
    c.active = Some(Pink);
    let r = ruled(&mut f, &c);
    assert!(r.attack_order.is_empty());
    assert!(has_message(
        &r,
        "The Pirate's steals and island treasures never move the crab."
    ));
    // Without --players, every ship but the pirate's gets a ruling.
    let r = ruled(&mut f, &GameContext::default());
    assert_eq!(
        r.players.keys().copied().collect::<Vec<_>>(),
        vec![Orange, Green, Blue]
    );
}

#[test]
fn the_counter_says_what_the_next_load_does() {
    let mut f = frame(vec![
        ship("s1", Orange, 0.0, 0.0),
        treasure("t1", Gem, 0.0, 100.0),
    ]);
    f.counter = Some(CounterReport::new("BBBKBBBKBBKBBKKK".parse().unwrap(), 0));
    let r = ruled(&mut f, &ctx(&[Orange, Green], Orange));
    assert_eq!(r.next_load, Some(NextLoad::TurnEnds));
    assert!(has_message(
        &r,
        "a load now steps the crab onto a blue bead: the turn ends."
    ));
    f.counter = Some(CounterReport::new("BBBKBBBKBBKBBKKK".parse().unwrap(), 13));
    let r = ruled(&mut f, &ctx(&[Orange, Green], Orange));
    // "In a 2 player-game, players alternate dropping ... until they have each dropped the die twice."
    assert_eq!(r.attack_order, vec![Green, Orange, Green, Orange]);
    f.counter = Some(CounterReport::new("BBBKBBBKBBKBBKKK".parse().unwrap(), 16));
    let r = ruled(&mut f, &ctx(&[Orange, Green], Orange));
    assert_eq!(r.next_load, Some(NextLoad::CounterAtEnd));
    f.counter = None;
    let r = ruled(&mut f, &ctx(&[Orange, Green], Orange));
    assert_eq!(r.next_load, None);
}

#[test]
fn loads_seen_and_loads_recorded_both_count_and_disagreements_are_asked() {
    let s = ship("s1", Orange, 0.0, 0.0);
    let pieces = vec![
        s.clone(),
        loaded("t1", Gem, &s),
        treasure("t2", Gem, 0.0, 200.0),
        treasure("t3", Captain, 0.0, 100.0),
        treasure("t4", Gold, 0.0, -150.0),
    ];
    let mut f = frame(pieces);
    let mut c = ctx(&[Orange, Green], Orange);
    c.loaded = Some(BTreeMap::from([(Orange, BTreeSet::from([Gold]))]));
    let r = ruled(&mut f, &c);
    let o = &r.players[&Orange];
    assert_eq!(o.loaded, vec![Gold, Gem]);
    assert_eq!(o.flickable, Vec::<String>::new());
    let reasons: Vec<(&str, ForbidReason)> = o.forbidden.iter().map(|f| (f.id.as_str(), f.reason)).collect();
    assert_eq!(
        reasons,
        vec![
            ("t3", ForbidReason::Closest),
            ("t4", ForbidReason::TypeLoaded),
            ("t2", ForbidReason::TypeLoaded)
        ]
    );
    assert!(has_message(
        &r,
        "Orange may flick no treasure now: navigate instead"
    ));
    assert!(r.questions.contains(&Question::LoadNotInGame {
        player: Orange,
        piece: "t1".into(),
        treasure: Gem
    }));
    assert!(r.questions.contains(&Question::LoadNotSeen {
        player: Orange,
        treasure: Gold
    }));
    assert!(has_message(
        &r,
        "Please check: The gem (t1) stands on the orange ship, but the game has no gem for orange: did orange load it?"
    ));
}

#[test]
fn unsure_pieces_become_questions() {
    let die = PieceReport {
        top: None,
        ..piece("d", PieceKind::InkDie, 100.0, 100.0, 18.0, 18.0)
    };
    let vague = PieceReport {
        confidence: 0.3,
        ..treasure("t1", Gem, 0.0, 100.0)
    };
    let unknown = PieceReport {
        treasure: None,
        ..treasure("t2", Gem, 0.0, -150.0)
    };
    let mut f = frame(vec![ship("s1", Orange, 0.0, 0.0), die, vague, unknown]);
    let r = ruled(&mut f, &ctx(&[Orange, Green], Orange));
    assert!(
        r.questions
            .contains(&Question::DieColourUncertain { piece: "d".into() })
    );
    assert!(
        r.questions
            .contains(&Question::TreasureTypeUnknown { piece: "t2".into() })
    );
    assert!(
        r.questions
            .iter()
            .any(|q| matches!(q, Question::LowConfidencePiece { piece, .. } if piece == "t1"))
    );
    let o = &r.players[&Orange];
    // The low-confidence gap carries a wider uncertainty; the unknown treasure is not flickable.
    let g1 = o.gaps_mm.iter().find(|g| g.id == "t1").unwrap();
    assert!(g1.uncertainty_mm > 3.0);
    assert!(
        o.forbidden
            .iter()
            .any(|f| f.id == "t2" && f.reason == ForbidReason::UnknownType)
    );
}

#[test]
fn the_nameless_island_goes_to_the_closest_anchor() {
    let anchor = |id: &str, c: PlayerColor, x: f64| PieceReport {
        color: Some(c),
        ..piece(id, PieceKind::Anchor, x, 0.0, 28.0, 24.0)
    };
    let pieces = vec![
        piece("isle", PieceKind::Island, 0.0, 0.0, 90.0, 76.0),
        PieceReport {
            on_island: true,
            ..treasure("t1", Gold, 0.0, 0.0)
        },
        anchor("a1", Orange, 45.0 + 20.0 + 14.0),
        anchor("a2", Green, -45.0 - 40.0 - 14.0),
        PieceReport {
            ..piece("cn", PieceKind::OctoCanon, 0.0, 38.0 + 30.0 + 12.0, 24.0, 24.0)
        },
    ];
    let mut f = frame(pieces);
    let r = ruled(&mut f, &ctx(&[Orange, Green, Pink], Orange));
    let isle = r.island.clone().unwrap();
    assert_eq!(isle.closest, Some(Orange));
    assert!(!isle.too_close_to_call);
    assert_eq!(
        isle.gaps_mm.iter().map(|g| g.player).collect::<Vec<_>>(),
        vec![Orange, Pink, Green]
    );
    assert!(has_message(
        &r,
        "Nameless Island: the orange anchor is the closest to the island (20.0 mm): orange may not collect"
    ));
}

#[test]
fn the_commit_gate_commits_a_ruling_seen_twice() {
    let pieces = vec![
        ship("s1", Orange, 0.0, 0.0),
        treasure_below("t1", Gem, 0.0, 0.0, 10.0),
        treasure_below("t2", Gold, 0.0, 0.0, 30.0),
    ];
    let c = ctx(&[Orange, Green], Orange);
    let mut gate = CommitGate::new();
    let mut f = frame(pieces.clone());
    f.rule(&c).unwrap();
    assert_eq!(gate.feed(Reading::from_frame(&f, true)), GateOutcome::Pending);
    // A millimetre of jitter rules the same way: the digest leaves the gaps out.
    let mut jitter = frame(pieces.clone());
    jitter.pieces[1] = treasure_below("t1", Gem, 0.0, 0.0, 10.8);
    jitter.rule(&c).unwrap();
    assert_eq!(
        gate.feed(Reading::from_frame(&jitter, true)),
        GateOutcome::Changed
    );
    assert_eq!(
        gate.committed().unwrap().players[&Orange].closest_candidates,
        vec!["t1"]
    );
    // A hand in the ocean: nothing commits, and the next reading must be seen twice again.
    let mut swapped = frame(pieces);
    swapped.pieces[2] = treasure_below("t2", Gold, 0.0, 0.0, 5.0);
    swapped.rule(&c).unwrap();
    let mut hand = swapped.clone();
    hand.obstructed = true;
    hand.rule(&c).unwrap();
    assert_eq!(
        gate.feed(Reading::from_frame(&swapped, true)),
        GateOutcome::Pending
    );
    assert_eq!(gate.feed(Reading::from_frame(&hand, true)), GateOutcome::Ignored);
    assert_eq!(
        gate.feed(Reading::from_frame(&swapped, false)),
        GateOutcome::Ignored
    );
    assert_eq!(
        gate.feed(Reading::from_frame(&swapped, true)),
        GateOutcome::Pending
    );
    assert_eq!(
        gate.committed().unwrap().players[&Orange].closest_candidates,
        vec!["t1"]
    );
    assert_eq!(
        gate.feed(Reading::from_frame(&swapped, true)),
        GateOutcome::Changed
    );
    assert_eq!(
        gate.committed().unwrap().players[&Orange].closest_candidates,
        vec!["t2"]
    );
}

#[test]
fn a_frame_file_in_the_cli_vocabulary_rules() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/referee/frame_basic.json");
    let mut f: FrameReport = octoref::fsutil::read_json(&path).unwrap();
    let c: GameContext = octoref::fsutil::read_json(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/referee/context_basic.json"),
    )
    .unwrap();
    let r = f.rule(&c).unwrap().clone();
    let green = &r.players[&Green];
    assert_eq!(green.closest.as_deref(), Some("p4"));
    assert_eq!(green.loaded, vec![Gold]);
    assert_eq!(green.flickable, vec!["p5"]);
    // The die waits outside the ocean between attacks: listed, but nothing to do about it.
    assert_eq!(r.out_of_ocean, vec!["p6", "p8"]);
    assert_eq!(r.redrop.as_ref().unwrap().by, Some(Orange));
    assert!(
        !r.out_of_ocean.contains(&"p9".to_string()),
        "the crab is never out"
    );
    assert_eq!(r.next_load, Some(NextLoad::OctopusAttack));

    let bad = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/referee/frame_bad_type.json");
    let err = octoref::fsutil::read_json::<FrameReport>(&bad)
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("frame_bad_type.json") && err.contains("pieces[1].type"),
        "{err}"
    );
}

#[test]
fn invalid_readings_are_refused_with_the_field_named() {
    let mut f = frame(vec![
        ship("s1", Orange, 0.0, 0.0),
        treasure("s1", Gem, 0.0, 100.0),
    ]);
    let err = f.rule(&GameContext::default()).unwrap_err();
    assert_eq!(
        err,
        RefereeError::DuplicatePieceId {
            index: 1,
            first: 0,
            id: "s1".into()
        }
    );
    assert!(err.to_string().starts_with("pieces[1]: id \"s1\""));
    let mut f = frame(vec![PieceReport {
        confidence: 1.5,
        ..treasure("t", Gem, 0.0, 0.0)
    }]);
    assert!(
        f.rule(&GameContext::default())
            .unwrap_err()
            .to_string()
            .contains("confidence")
    );
    let mut f = frame(vec![treasure("t", Gem, f64::NAN, 0.0)]);
    assert!(
        f.rule(&GameContext::default())
            .unwrap_err()
            .to_string()
            .contains("center_mm")
    );
    let reading = TableReading {
        pieces: &[],
        ocean: &ocean(),
        counter: None,
        obstructed: false,
        view_moved: false,
    };
    let mut c = ctx(&[Orange, Green], Blue);
    assert!(rule(&reading, &c).unwrap_err().to_string().starts_with("active:"));
    c.active = None;
    c.tolerance_mm = f64::INFINITY;
    assert!(
        rule(&reading, &c)
            .unwrap_err()
            .to_string()
            .starts_with("tolerance_mm:")
    );
}

/// A ship from the default catalog at a random pose and treasures scattered around it.
fn catalog_scene(treasures: &[(f64, f64, f64, usize)], ship_angle: f64) -> Vec<PieceReport> {
    let cat = Catalog::default_catalog();
    let hull = cat.piece(PieceKind::Ship, Some(Orange)).unwrap();
    let mut pieces = vec![PieceReport {
        color: Some(Orange),
        footprint_mm: hull.footprint(PointMm::default(), ship_angle),
        ..piece("ship", PieceKind::Ship, 0.0, 0.0, 1.0, 1.0)
    }];
    for (i, &(x, y, a, t)) in treasures.iter().enumerate() {
        let ty = TreasureType::ALL[t % 5];
        let e = cat.treasure(ty).unwrap();
        let centre = PointMm::new(x, y);
        pieces.push(PieceReport {
            treasure: Some(ty),
            footprint_mm: e.footprint(centre, a),
            ..piece(&format!("t{i}"), PieceKind::Treasure, x, y, 1.0, 1.0)
        });
    }
    pieces
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn on_real_footprints_the_closest_is_the_argmin_and_the_split_is_complete(
        treasures in prop::collection::vec((-400.0..400.0f64, -400.0..400.0f64, 0.0..6.3f64, 0usize..5), 1..20),
        ship_angle in 0.0..6.3f64,
        tol in 0.0..8.0f64,
    ) {
        let pieces = catalog_scene(&treasures, ship_angle);
        let mut f = frame(pieces.clone());
        let mut c = ctx(&[Orange, Green], Orange);
        c.tolerance_mm = tol;
        let r = ruled(&mut f, &c);
        let o = &r.players[&Orange];
        let ship_fp = &pieces[0].footprint_mm;
        let brute: Vec<(f64, &str)> = pieces[1..].iter().map(|p| (ship_fp.gap(&p.footprint_mm), p.id.as_str())).collect();
        let min = brute.iter().map(|b| b.0).fold(f64::INFINITY, f64::min);
        let closest = o.closest.as_deref().unwrap();
        let chosen = brute.iter().find(|b| b.1 == closest).unwrap();
        prop_assert!((chosen.0 - min).abs() < 1e-9);
        let mut sorted: Vec<f64> = brute.iter().map(|b| b.0).collect();
        sorted.sort_by(f64::total_cmp);
        let runner_within = sorted.len() >= 2 && sorted[1] - sorted[0] <= tol;
        prop_assert_eq!(o.too_close_to_call, runner_within);
        let flick: BTreeSet<&str> = o.flickable.iter().map(String::as_str).collect();
        let forbid: BTreeSet<&str> = o.forbidden.iter().map(|f| f.id.as_str()).collect();
        let all: BTreeSet<&str> = brute.iter().map(|b| b.1).collect();
        prop_assert!(flick.is_disjoint(&forbid));
        prop_assert_eq!(flick.union(&forbid).copied().collect::<BTreeSet<_>>(), all);

        // A treasure far beyond the closest (and its tolerance) changes nothing about the call.
        let mut more = pieces.clone();
        let far = catalog_scene(&[(0.0, 0.0, 0.0, 1)], 0.0).pop().unwrap();
        let far_gap = min + tol + 50.0;
        let far = PieceReport {
            id: "far".into(),
            footprint_mm: far.footprint_mm.translated(PointMm::new(0.0, 470.0)),
            center_mm: PointMm::new(0.0, 470.0),
            ..far
        };
        if ship_fp.gap(&far.footprint_mm) > far_gap {
            more.push(far);
            let mut f2 = frame(more);
            let r2 = ruled(&mut f2, &c);
            let o2 = &r2.players[&Orange];
            prop_assert_eq!(&o2.closest, &o.closest);
            prop_assert_eq!(&o2.closest_candidates, &o.closest_candidates);
        }
    }
}
