//! `octoref score crash-octopus` and `octoref replay crash-octopus` against `spec/cli.md`, over the
//! files in `tests/data/crash_octopus/`.

#![allow(clippy::unwrap_used)] // helpers outside #[test] fns: a failure here is a test failure

use serde_json::{Value, json};
use std::path::PathBuf;
use std::process::Command;

struct Run {
    code: i32,
    stdout: String,
    stderr: String,
}

fn data(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/crash_octopus")
        .join(name)
}

fn octoref(args: &[&str]) -> Run {
    let out = Command::new(env!("CARGO_BIN_EXE_octoref"))
        .args(args)
        .output()
        .unwrap();
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8(out.stdout).unwrap(),
        stderr: String::from_utf8(out.stderr).unwrap(),
    }
}

fn replay(name: &str, json: bool) -> Run {
    let path = data(name);
    let mut args = vec!["replay", "crash-octopus", path.to_str().unwrap()];
    if json {
        args.push("--json");
    }
    octoref(&args)
}

fn score(name: &str, json: bool) -> Run {
    let path = data(name);
    let mut args = vec!["score", "crash-octopus", path.to_str().unwrap()];
    if json {
        args.push("--json");
    }
    octoref(&args)
}

fn doc(r: &Run) -> Value {
    assert_eq!(r.code, 0, "stderr: {}", r.stderr);
    serde_json::from_str(&r.stdout).unwrap()
}

/// Exit 2, nothing on stdout, and stderr names the file and says every `needles`.
fn assert_input_error(r: &Run, file: &str, needles: &[&str]) {
    assert_eq!(r.code, 2, "stderr: {}", r.stderr);
    assert!(r.stdout.is_empty(), "stdout: {}", r.stdout);
    assert!(r.stderr.contains(file), "{}", r.stderr);
    for n in needles {
        assert!(r.stderr.contains(n), "missing {n:?} in: {}", r.stderr);
    }
    assert!(!r.stderr.contains("panicked"), "{}", r.stderr);
}

// ---- score crash-octopus ----

#[test]
fn score_json_has_the_contract_fields_and_the_captain_tie_break() {
    let v = doc(&score("score_captain_tie_break.json", true));
    let ranking = v["ranking"].as_array().unwrap();
    let names: Vec<&str> = ranking.iter().map(|e| e["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["orange", "green", "blue"]);
    assert_eq!(
        ranking[0],
        json!({"name": "orange", "rank": 1, "types": 3, "winner": true,
               "loaded": ["captain", "gem", "chest"]})
    );
    assert_eq!(ranking[1]["rank"], 2);
    assert_eq!(ranking[1]["winner"], false);
    let explanation: Vec<&str> = v["explanation"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l.as_str().unwrap())
        .collect();
    assert!(
        explanation.contains(&"orange and green both have 3 types; orange has the captain, green does not.")
    );
}

#[test]
fn score_human_output_explains_on_stderr_and_prints_no_json() {
    let r = score("score_captain_tie_break.json", false);
    assert_eq!(r.code, 0);
    assert!(r.stdout.is_empty());
    assert!(r.stderr.contains("orange has the captain, green does not"));
    assert!(r.stderr.contains("orange wins."));
}

#[test]
fn score_six_types_uses_the_pink_pirates_hierarchy() {
    let v = doc(&score("score_six_types.json", true));
    let names: Vec<&str> = v["ranking"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["name"].as_str().unwrap())
        .collect();
    // green (gold, bottle) beats orange (gold, rose): bottle > rose.
    assert_eq!(names, ["purple", "green", "orange", "blue", "pink"]);
    assert_eq!(
        v["hierarchy"],
        json!(["captain", "goblet", "gold", "chest", "bottle", "rose"])
    );
}

#[test]
fn score_a_tie_that_survives_the_hierarchy_is_shared() {
    let v = doc(&score("score_shared_win.json", true));
    let r = v["ranking"].as_array().unwrap();
    assert_eq!(
        (r[0]["rank"].clone(), r[1]["rank"].clone(), r[2]["rank"].clone()),
        (json!(1), json!(1), json!(3))
    );
    assert_eq!(r[0]["winner"], true);
    assert_eq!(r[1]["winner"], true);
    assert_eq!(r[2]["winner"], false);
}

#[test]
fn score_bad_input_is_exit_2_naming_the_file_and_field() {
    assert_input_error(
        &score("score_unknown_type.json", true),
        "score_unknown_type.json",
        &["players[0].loaded[1]", "pearl", "expected one of"],
    );
    assert_input_error(
        &score("score_loaded_twice.json", true),
        "score_loaded_twice.json",
        &["players[1].loaded[1]", "loaded twice"],
    );
    assert_input_error(
        &score("score_rose_in_five_types.json", true),
        "score_rose_in_five_types.json",
        &["players[0].loaded[0]", "not in a 5-type game"],
    );
    assert_input_error(
        &score("score_malformed.json", true),
        "score_malformed.json",
        &["line 2"],
    );
    assert_input_error(&score("does_not_exist.json", true), "does_not_exist.json", &[]);
}

// ---- replay crash-octopus ----

#[test]
fn replay_json_has_the_contract_fields_mid_attack() {
    let v = doc(&replay("replay_mid_attack.json", true));
    assert_eq!(v["turn"], 4);
    assert_eq!(v["next"], json!({"action": "drop", "player": "green"}));
    assert_eq!(v["crab"], 4);
    assert_eq!(v["attack"]["pending"], true);
    assert_eq!(v["attack"]["order"], json!(["orange", "green", "blue", "purple"]));
    assert_eq!(v["players"]["purple"]["loaded"], json!([]));
    assert_eq!(v["players"]["orange"]["loaded"], json!(["gold"]));
    assert_eq!(v["game_over"], false);
    assert_eq!(v["ranking"], json!([]));
    assert!(v["log"].as_array().unwrap().iter().any(|l| {
        l.as_str()
            .unwrap()
            .contains("orange drops the ink die and hits purple's ship")
    }));
    // `players` is printed in turn order (serde_json's Value sorts keys, so look at the text).
    let r = replay("replay_mid_attack.json", true);
    let at = |c: &str| r.stdout.find(&format!("\"{c}\": {{")).unwrap();
    assert!(at("orange") < at("green") && at("green") < at("blue") && at("blue") < at("purple"));
}

#[test]
fn replay_a_two_player_game_to_a_five_type_win() {
    let v = doc(&replay("replay_two_players_all_types.json", true));
    assert_eq!(v["game_over"], true);
    assert_eq!(v["next"], Value::Null);
    assert_eq!(v["attack"]["pending"], false);
    assert_eq!(v["crab"], 12);
    assert_eq!(
        v["players"]["green"]["loaded"],
        json!(["captain", "goblet", "gold", "gem", "chest"])
    );
    // Orange's fifth type toppled in the attack that followed it: the game went on.
    assert_eq!(
        v["players"]["orange"]["loaded"],
        json!(["captain", "goblet", "gem"])
    );
    assert_eq!(v["ranking"][0]["name"], "green");
    assert_eq!(v["ranking"][0]["winner"], true);
    assert_eq!(v["ranking"][1]["rank"], 2);
    assert_eq!(v["end"]["reason"], "all_types");
    assert_eq!(v["ocean"]["gold"], 2);
}

#[test]
fn replay_the_counters_end_ranks_with_the_tie_break_reasons() {
    let v = doc(&replay("replay_counter_end.json", true));
    assert_eq!(v["game_over"], true);
    assert_eq!(v["end"]["reason"], "counter_end");
    let names: Vec<&str> = v["ranking"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["green", "orange", "blue"]);
    let log: Vec<&str> = v["log"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l.as_str().unwrap())
        .collect();
    assert!(log.iter().any(|l| l.contains("the final octopus attack")));
    assert!(log.contains(&"green and orange both have 1 type; green has the captain, orange does not."));
    assert!(log.contains(&"orange and blue both have 1 type; orange has the gold, blue does not."));
}

#[test]
fn replay_the_pink_pirate_with_little_octopus_and_the_island() {
    let v = doc(&replay("replay_pirate_modules.json", true));
    assert_eq!(
        v["players"]["pink"]["loaded"],
        json!(["captain", "goblet", "gold"])
    );
    assert_eq!(v["players"]["orange"]["loaded"], json!([]));
    // Only green's and orange's loads moved the crab.
    assert_eq!(v["crab"], 3);
    assert_eq!(v["next"], json!({"action": "turn", "player": "orange"}));
    assert_eq!(v["turn"], 7);
}

#[test]
fn replay_human_output_is_the_log_and_whose_turn_on_stderr() {
    let r = replay("replay_counter_end.json", false);
    assert_eq!(r.code, 0);
    assert!(r.stdout.is_empty());
    assert!(r.stderr.contains("Turn 1: orange's turn."));
    assert!(
        r.stderr
            .contains("The game is over: the Octo-Counter has reached its end")
    );
    assert!(r.stderr.contains("green has the captain, orange does not"));
    let r = replay("replay_mid_attack.json", false);
    assert!(r.stderr.contains("green drops the ink die next"));
}

#[test]
fn replay_refused_events_are_exit_2_with_the_index_and_what_was_expected() {
    assert_input_error(
        &replay("replay_drop_without_attack.json", true),
        "replay_drop_without_attack.json",
        &[
            "events[1]",
            "no octopus attack is under way",
            "expected a flick or navigate by green",
        ],
    );
    assert_input_error(
        &replay("replay_loaded_twice.json", true),
        "replay_loaded_twice.json",
        &["events[2]", "BAD No.2", "already has the gold"],
    );
    // cli.md's syntax example: orange navigates on green's turn.
    assert_input_error(
        &replay("replay_cli_md_example.json", true),
        "replay_cli_md_example.json",
        &[
            "events[3]",
            "it is green's turn",
            "expected a flick or navigate by green",
        ],
    );
}

#[test]
fn replay_bad_input_is_exit_2_naming_the_field() {
    assert_input_error(
        &replay("replay_unknown_colour.json", true),
        "replay_unknown_colour.json",
        &["events[1].flick.player", "red", "expected one of"],
    );
    assert_input_error(
        &replay("replay_unknown_treasure.json", true),
        "replay_unknown_treasure.json",
        &["events[0].flick.loaded", "pearl"],
    );
    assert_input_error(
        &replay("replay_malformed.json", true),
        "replay_malformed.json",
        &["line 4"],
    );
    assert_input_error(
        &replay("replay_pirate_not_last.json", true),
        "replay_pirate_not_last.json",
        &["players", "always plays last", "[orange, green, pink]"],
    );
}

#[test]
fn replay_rules_override_changes_the_default_beads() {
    let dir = tempfile::tempdir().unwrap();
    let rules = dir.path().join("rules.toml");
    let shipped =
        std::fs::read_to_string(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("assets/crash_octopus.toml"))
            .unwrap();
    std::fs::write(
        &rules,
        shipped.replace("beads = \"BBBKBBBKBBKBBKKK\"", "beads = \"K\""),
    )
    .unwrap();
    let record = dir.path().join("game.json");
    std::fs::write(
        &record,
        r#"{"players": ["orange", "green"], "events": [{"flick": {"player": "orange", "loaded": "gold"}}]}"#,
    )
    .unwrap();
    let r = octoref(&[
        "replay",
        "crash-octopus",
        record.to_str().unwrap(),
        "--json",
        "--rules",
        rules.to_str().unwrap(),
    ]);
    let v = doc(&r);
    assert_eq!(v["attack"]["kind"], "final");
    let bad = dir.path().join("bad.toml");
    std::fs::write(&bad, "[counter]\nbeads = \"BQ\"\n").unwrap();
    let r = octoref(&[
        "replay",
        "crash-octopus",
        record.to_str().unwrap(),
        "--rules",
        bad.to_str().unwrap(),
    ]);
    assert_input_error(&r, "bad.toml", &["bead 2"]);
}
