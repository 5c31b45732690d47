//! `octoref score octocube`: the contract of spec/cli.md, field for field, and bad input.

// Test helpers outside `#[test]` functions: a failed unwrap is a failed test.
#![allow(clippy::unwrap_used, clippy::panic)]

use serde_json::Value;
use std::path::PathBuf;
use std::process::{Command, Output};

fn data(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/octocube")
        .join(name)
}

fn score(name: &str, json: bool) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_octoref"));
    cmd.args(["score", "octocube"]).arg(data(name));
    if json {
        cmd.arg("--json");
    }
    cmd.output().unwrap()
}

fn score_json(name: &str) -> Value {
    let out = score(name, true);
    assert!(
        out.status.success(),
        "{name}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

fn player<'a>(v: &'a Value, name: &str) -> &'a Value {
    v["players"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["name"] == name)
        .unwrap()
}

fn figures(p: &Value) -> [u64; 7] {
    [
        "vp_tokens",
        "coins_vp",
        "colors_vp",
        "objects_vp",
        "total",
        "object_tiles",
        "rank",
    ]
    .map(|f| p[f].as_u64().unwrap_or_else(|| panic!("missing {f}")))
}

#[test]
fn three_players_field_for_field() {
    let v = score_json("three_players.json");
    // Ana: 17 tokens, 2 coins; white shared first 5, light blue 5, dark blue shared first 5;
    // starfish shared first 3, pearl shared first 6.
    assert_eq!(figures(player(&v, "Ana")), [17, 6, 15, 9, 47, 6, 1]);
    // Ben: retrievals 3 starfish (4) + amphora (0) + coin, 2 diamonds (2): 6 VP, 1 coin;
    // white shared first 5, green 5; starfish shared first 3, amphora 4, diamond 7.
    assert_eq!(figures(player(&v, "Ben")), [6, 3, 10, 14, 33, 6, 2]);
    // Cy: 9 tokens, 1 coin; dark blue shared first 5, green second 2; sextant 5, pearl shared 6.
    // White: Ana and Ben tie for first, so Cy (1) gets no second place; starfish likewise.
    assert_eq!(figures(player(&v, "Cy")), [9, 3, 7, 11, 30, 6, 3]);
    assert_eq!(v["winners"], serde_json::json!(["Ana"]));
    assert_eq!(player(&v, "Ben")["retrieval_vp"], 6);
    let white = v["categories"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["category"]["name"] == "white")
        .unwrap();
    assert_eq!(white["first"], serde_json::json!(["Ana", "Ben"]));
    assert_eq!(white["second"], serde_json::json!([]));
    let cy = white["entries"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["name"] == "Cy")
        .unwrap();
    assert_eq!(cy["reason"], "no_second_after_shared_first");
    assert!(v["explanation"].as_array().unwrap().len() >= 10);
}

#[test]
fn a_tie_on_total_goes_to_the_most_object_tiles() {
    let v = score_json("tie_break.json");
    assert_eq!(player(&v, "Ana")["total"], 27);
    assert_eq!(player(&v, "Ben")["total"], 27);
    assert_eq!(v["winners"], serde_json::json!(["Ben"]));
    assert_eq!(player(&v, "Ben")["rank"], 1);
    assert_eq!(player(&v, "Ana")["rank"], 2);
    assert_eq!(player(&v, "Cy")["rank"], 3);
    assert_eq!(v["tie_break"]["still_tied"], false);
    let out = score("tie_break.json", false);
    let text = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success());
    assert!(out.stdout.is_empty());
    assert!(
        text.contains("the tied player with the most object tiles wins"),
        "{text}"
    );
    assert!(text.contains("Cy has no"), "{text}");
}

#[test]
fn players_still_tied_share_the_win() {
    let v = score_json("shared_win.json");
    assert_eq!(v["winners"], serde_json::json!(["Ana", "Ben"]));
    assert_eq!(player(&v, "Ana")["rank"], 1);
    assert_eq!(player(&v, "Ben")["rank"], 1);
    assert_eq!(v["tie_break"]["still_tied"], true);
}

#[test]
fn the_human_breakdown_explains_each_majority() {
    let out = score("three_players.json", false);
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stderr);
    for needle in [
        "Ana and Ben tie for first (5 VP each); no second place after a tie for first, so Cy gets nothing",
        "light_blue (row): Ana 1, Ben 0, Cy 0 -> Ana is first (5 VP); nobody else has a tile",
        "Ben and Cy have no light_blue tile, so never place",
        "green (row): Ana 0, Ben 4, Cy 2 -> Ben is first (5 VP); Cy is second (2 VP)",
        "Winner: Ana.",
        "Ben: 6 VP tokens (6 from 2 retrievals) + 1 coin x 3 = 3",
    ] {
        assert!(text.contains(needle), "missing {needle:?} in\n{text}");
    }
}

fn rejected(name: &str, field: &str) -> String {
    let out = score(name, true);
    let text = String::from_utf8_lossy(&out.stderr).to_string();
    assert_eq!(out.status.code(), Some(2), "{name}: {text}");
    assert!(out.stdout.is_empty(), "{name}: no JSON on bad input");
    assert!(text.contains(name), "{name}: names the file: {text}");
    assert!(text.contains(field), "{name}: names {field}: {text}");
    text
}

#[test]
fn bad_input_exits_2_naming_the_field() {
    let t = rejected("bad_object.json", "players[0].tiles");
    assert!(t.contains("seashell"), "{t}");
    let t = rejected("bad_colour.json", "players[0].tiles.pearl");
    assert!(t.contains("purple"), "{t}");
    let t = rejected("ten_diamonds.json", "players[0].tiles.diamond");
    assert!(t.contains("10") && t.contains('9'), "{t}");
    let t = rejected("diamonds_together.json", "players[*].tiles.diamond");
    assert!(t.contains("together"), "{t}");
    let t = rejected("named_twice.json", "players[2].name");
    assert!(t.contains("twice"), "{t}");
    let t = rejected("bad_retrieval.json", "players[0].retrievals[0][1]");
    assert!(t.contains("trident"), "{t}");
    rejected("too_many_coins.json", "players[0].coins");
    rejected("negative.json", "players[0].vp_tokens");
    let out = score("no_such_file.json", false);
    assert_eq!(out.status.code(), Some(2));
}
