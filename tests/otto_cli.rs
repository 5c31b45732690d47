//! `octoref score otto`: the game record of `docs/spec/cli.md`, field for field.

// Helpers outside `#[test]` functions are test code too (clippy.toml allows these in tests).
#![allow(clippy::unwrap_used, clippy::expect_used)]

use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/otto")
        .join(name)
}

fn octoref(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_octoref"))
        .args(args)
        .output()
        .expect("run octoref")
}

fn score_json(file: &Path) -> Value {
    let out = octoref(&["score", "otto", file.to_str().unwrap(), "--json"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "stderr: {stderr}");
    serde_json::from_slice(&out.stdout).expect("one JSON document on stdout")
}

/// Writes `record` to a temporary directory and scores it; returns (exit code, stderr).
fn score_bad(record: &Value) -> (Option<i32>, String, PathBuf, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("record.json");
    std::fs::write(&path, serde_json::to_vec_pretty(record).unwrap()).unwrap();
    let out = octoref(&["score", "otto", path.to_str().unwrap(), "--json"]);
    assert!(out.stdout.is_empty(), "no JSON on bad input");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        path,
        dir,
    )
}

fn arm(player: &str, cell: [i64; 2], from: &str, to: &str, suckers: &str) -> Value {
    json!({"player": player, "tile": "arm", "cell": cell, "from": from, "to": to, "suckers": suckers})
}

#[test]
fn every_move_has_legal_points_and_a_reason_when_illegal() {
    let r = score_json(&data("two_players.json"));
    let moves = r["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 18);
    for m in moves {
        assert!(m["legal"].is_boolean() && m["points"].is_u64(), "{m}");
        assert_eq!(m["legal"] == false, m["reason"].is_string(), "{m}");
    }
    // The rulebook's 24-point arm: 5 Arm tiles and a shell End on the Coral corner.
    assert_eq!(moves[8]["legal"], true);
    assert_eq!(moves[8]["points"], 24);
    assert_eq!(moves[8]["completes_arm"], json!([3, 2]));
    assert_eq!(moves[8]["breakdown"]["arm_tiles"], 5);
    // Illegal moves, each with the rule it breaks.
    let rule = |i: usize| moves[i]["rule"].as_str().unwrap().to_string();
    assert_eq!(rule(3), "fish_not_on_outer_ring");
    assert!(moves[3]["reason"].as_str().unwrap().contains("outer perimeter"));
    assert_eq!(rule(7), "end_before_arm_tile");
    assert_eq!(rule(11), "suckers_swap_sides");
    assert_eq!(rule(16), "not_against_a_tile");
    for i in [3, 7, 11, 16] {
        assert_eq!(moves[i]["points"], 0);
    }
    // The illegal angler was not placed: Ben's Bubbles went on the same square.
    assert_eq!(moves[5]["legal"], true);
    // The illegal move ended Ana's bonus turn from the clownfish; the shark made Ben miss a turn.
    assert_eq!(moves[10]["effect"]["effect"], "play_again");
    assert_eq!(moves[13]["points"], 3);
    assert_eq!(moves[14]["missed_turns"], json!(["Ben"]));
    assert_eq!(moves[15]["pass"], true);
    assert_eq!(moves[15]["legal"], true);
}

/// Each move's fields appear once: a fish's card data must not shadow the move's `points`.
#[test]
fn no_field_is_written_twice() {
    let file = data("two_players.json");
    let out = octoref(&["score", "otto", file.to_str().unwrap(), "--json"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(text.matches("\"points\":").count(), 18, "one `points` per move");
    assert_eq!(
        text.matches("\"effect\": {").count(),
        2,
        "the clownfish and the shark"
    );
    let r: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(r["moves"][3]["species"], "angler");
    assert_eq!(r["moves"][3]["points"], 0);
    assert_eq!(r["moves"][0]["suckers"], "left");
    assert_eq!(r["moves"][8]["shell"], true);
}

#[test]
fn players_get_placed_points_hand_penalty_total_and_rank() {
    let r = score_json(&data("two_players.json"));
    let players = r["players"].as_array().unwrap();
    assert_eq!(players[0]["name"], "Ana");
    assert_eq!(players[0]["placed_points"], 32);
    assert_eq!(players[0]["hand_penalty"], 2);
    assert_eq!(players[0]["total"], 30);
    assert_eq!(players[0]["rank"], 1);
    assert_eq!(players[1]["name"], "Ben");
    assert_eq!(players[1]["placed_points"], 6);
    assert_eq!(players[1]["hand_penalty"], 1);
    assert_eq!(players[1]["total"], 5);
    assert_eq!(players[1]["rank"], 2);
    assert_eq!(r["winners"], json!(["Ana"]));
    let completed = r["arms"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|a| a["completed"] == true)
        .count();
    assert_eq!(completed, 2);
}

/// Solo play: the hand and the draw pile both count; the first four fish on the card lose their
/// effects.
#[test]
fn solo_counts_hand_and_draw_pile() {
    let r = score_json(&data("solo.json"));
    assert_eq!(r["solo"], true);
    let moves = r["moves"].as_array().unwrap();
    assert_eq!(moves[2]["rule"], "arm_blocked");
    assert_eq!(moves[3]["points"], 3);
    assert_eq!(moves[4]["effect"]["applied"], false);
    assert_eq!(moves[5]["effect"]["applied"], true);
    assert_eq!(moves[6]["points"], 1, "Bubbles on Seaweed");
    // 6 tiles placed, 3 in hand: 51 left in the pile of 60.
    assert_eq!(r["draw_pile"], 51);
    let sam = &r["players"][0];
    assert_eq!(sam["placed_points"], 9);
    assert_eq!(sam["hand_penalty"], 54);
    assert_eq!(sam["total"], -45);
    assert_eq!(sam["rank"], 1);
}

#[test]
fn the_default_output_is_a_readable_breakdown_on_stderr() {
    let file = data("two_players.json");
    let out = octoref(&["score", "otto", file.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0));
    assert!(out.stdout.is_empty());
    let text = String::from_utf8_lossy(&out.stderr);
    for needle in [
        "Moves:",
        "24 points (12 for 5 Arm tile(s) x2 Coral)",
        "ILLEGAL, not placed — the angler fish needs to be placed on one of the outer perimeter",
        "(Ben missed a turn)",
        "The Ocean at the end:",
        "1. Ana",
        "Winner: Ana",
    ] {
        assert!(text.contains(needle), "missing {needle:?} in:\n{text}");
    }
}

/// The example record of cli.md parses field for field; on the default Ocean its moves are
/// illegal, and each is reported with its rule.
#[test]
fn the_cli_md_example_record_is_read_and_judged() {
    let r = score_json(&data("cli_md_example.json"));
    let rules: Vec<Value> = r["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["rule"].clone())
        .collect();
    assert_eq!(
        rules,
        vec![
            json!("arm_not_at_open_end"),
            json!("not_against_a_tile"),
            json!("not_against_a_tile"),
            json!("socket_blocked"),
            Value::Null
        ]
    );
    assert_eq!(r["moves"][4]["pass"], true);
    assert_eq!(r["players"][0]["hand_penalty"], 1);
    assert_eq!(r["players"][0]["total"], -1);
    assert_eq!(r["winners"], json!(["Ben"]));
}

#[test]
fn simplified_play_ignores_fish_effects_and_ties_share_the_win() {
    let record = json!({"players": ["Ana", "Ben"], "simplified": true,
    "moves": [
        {"player": "Ana", "tile": "fish", "species": "clownfish", "cell": [4, 2]},
        {"player": "Ben", "tile": "fish", "species": "pufferfish", "cell": [4, 6]}
    ]});
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("r.json");
    std::fs::write(&path, record.to_string()).unwrap();
    let r = score_json(&path);
    assert_eq!(r["moves"][0]["effect"]["applied"], false);
    assert!(r["moves"][1].get("missed_turns").is_none());
    assert_eq!(r["winners"], json!(["Ana", "Ben"]));
    assert_eq!(r["players"][1]["rank"], 1);
}

/// A board and a tile set of one's own, named relative to the record.
#[test]
fn board_and_tiles_can_come_from_files_beside_the_record() {
    let dir = tempfile::tempdir().unwrap();
    let board = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/otto_board.toml"))
        .unwrap()
        .replace("seaweed = [[2, 0]", "seaweed = [[4, 2], [2, 0]");
    std::fs::write(dir.path().join("my_board.toml"), board).unwrap();
    let tiles = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/otto_tiles.toml"))
        .unwrap()
        .replace("bubbles = 8", "bubbles = 1");
    std::fs::write(dir.path().join("my_tiles.toml"), tiles).unwrap();
    let path = dir.path().join("r.json");
    let record = json!({"board": "my_board.toml", "tiles": "my_tiles.toml", "players": ["Ana"],
        "moves": [{"player": "Ana", "tile": "bubbles", "cell": [4, 2]}]});
    std::fs::write(&path, record.to_string()).unwrap();
    let r = score_json(&path);
    assert_eq!(r["moves"][0]["points"], 1, "[4, 2] is Seaweed on this board");
    assert_eq!(r["draw_pile"], 53 - 1, "the box holds 60 - 7 = 53 tiles");
    // Two Bubbles tiles are one more than this box holds.
    let record = json!({"board": "my_board.toml", "tiles": "my_tiles.toml", "players": ["Ana"],
        "moves": [{"player": "Ana", "tile": "bubbles", "cell": [4, 2]},
                  {"player": "Ana", "tile": "bubbles", "cell": [4, 6]}]});
    std::fs::write(&path, record.to_string()).unwrap();
    let out = octoref(&["score", "otto", path.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("moves[1].tile") && err.contains("holds 1"), "{err}");
    // A board file that does not exist.
    let record = json!({"board": "nope.toml", "players": ["Ana"], "moves": []});
    std::fs::write(&path, record.to_string()).unwrap();
    let out = octoref(&["score", "otto", path.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("`board`") && err.contains("nope.toml"), "{err}");
}

/// Bad input exits 2 naming the file, the field and the move's index.
#[test]
fn bad_input_names_the_field_and_the_move() {
    let good = arm("Ana", [3, 2], "S", "N", "left");
    let cases: Vec<(Value, &str, &str)> = vec![
        (
            json!({"players": ["Ana"], "moves": [good.clone(), {"player": "Ana", "tile": "squid", "cell": [4, 2]}]}),
            "moves[1].tile",
            "unknown tile \"squid\"",
        ),
        (
            json!({"players": ["Ana"], "moves": [arm("Ana", [9, 2], "S", "N", "left")]}),
            "moves[0].cell",
            "off the Ocean",
        ),
        (
            json!({"players": ["Ana"], "moves": [arm("Ana", [-1, 2], "S", "N", "left")]}),
            "moves[0].cell",
            "off the Ocean",
        ),
        (
            json!({"players": ["Ana", "Ben"], "moves": [good.clone(), {"player": "Ben", "pass": true},
                   {"player": "Cid", "pass": true}]}),
            "moves[2].player",
            "\"Cid\" is not a player",
        ),
        (
            json!({"players": ["Ana"], "moves": [{"player": "Ana", "tile": "fish", "species": "kraken", "cell": [4, 2]}]}),
            "moves[0].species",
            "unknown fish \"kraken\"",
        ),
        (
            json!({"players": ["Ana"], "moves": [{"player": "Ana", "tile": "fish", "species": "angler", "points": 5, "cell": [0, 0]}]}),
            "moves[0].points",
            "shows 3",
        ),
        (
            json!({"players": ["Ana"], "moves": [{"player": "Ana", "tile": "arm", "cell": [3, 2], "from": "S", "to": "N"}]}),
            "moves[0].suckers",
            "\"left\" or \"right\"",
        ),
        (
            json!({"players": ["Ana"], "moves": [{"player": "Ana", "tile": "arm", "cell": [3, 2], "from": "S", "to": "S", "suckers": "left"}]}),
            "moves[0].to",
            "two different edges",
        ),
        (
            json!({"players": ["Ana"], "moves": [{"player": "Ana", "tile": "bubbles", "cell": [4, 2], "shell": true}]}),
            "moves[0].shell",
            "has no `shell`",
        ),
        (
            json!({"players": ["Ana"], "moves": [{"player": "Ana", "tile": "arm", "cell": [3, 2], "from": "Q", "to": "N", "suckers": "left"}]}),
            "moves[0].from",
            "",
        ),
        (
            json!({"players": ["Ana"], "moves": [{"player": "Ana", "tile": "bubbles", "cell": "here"}]}),
            "moves[0].cell",
            "",
        ),
        (
            json!({"players": ["Ana"], "moves": [{"player": "Ana", "tile": "end", "cell": [3, 2], "from": "S", "sheel": true}]}),
            "moves[0]",
            "sheel",
        ),
        (
            json!({"players": ["Ana"], "moves": [], "hands": {"Cid": 1}}),
            "hands.Cid",
            "not a player",
        ),
        (json!({"players": [], "moves": []}), "players", "at least one"),
        (
            json!({"players": ["Ana", "Ana"], "moves": []}),
            "players[1]",
            "twice",
        ),
        (
            json!({"players": ["Ana"], "moves": [], "hands": {"Ana": 61}}),
            "hands",
            "holds only 60",
        ),
    ];
    for (record, field, words) in cases {
        let (code, err, path, _dir) = score_bad(&record);
        assert_eq!(code, Some(2), "{record}: {err}");
        assert!(err.contains(path.to_str().unwrap()), "names the file: {err}");
        assert!(err.contains(field), "names {field}: {err}");
        assert!(err.contains(words), "says {words:?}: {err}");
    }
}

/// More tiles of one kind than the box holds (8 Bubbles) is bad input, not an illegal move.
#[test]
fn more_tiles_than_the_box_holds_is_bad_input() {
    let cells = [
        [4, 2],
        [4, 1],
        [4, 0],
        [6, 4],
        [7, 4],
        [8, 4],
        [2, 4],
        [1, 4],
        [0, 4],
    ];
    let moves: Vec<Value> = cells
        .iter()
        .map(|c| json!({"player": "Ana", "tile": "bubbles", "cell": c}))
        .collect();
    let (code, err, _, _dir) = score_bad(&json!({"players": ["Ana"], "moves": moves}));
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("moves[8].tile") && err.contains("number 9") && err.contains("holds 8"),
        "{err}"
    );
}

#[test]
fn unreadable_files_exit_2() {
    let out = octoref(&["score", "otto", "/nonexistent/record.json"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("/nonexistent/record.json"));
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("r.json");
    std::fs::write(&path, "{\"players\": [\"Ana\"], \"moves\": [").unwrap();
    let out = octoref(&["score", "otto", path.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
}
