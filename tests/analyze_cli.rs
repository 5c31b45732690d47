//! `octoref analyze` and `octoref teach` at the command line (cli.md): the JSON document's
//! shape, exit codes, and errors that name the file.
//!
//! One synthetic scene (1280x720, two frames) is rendered and calibrated through the
//! commands themselves (`octoref synth`, `octoref calibrate`) once, into a temporary folder.

#![allow(clippy::unwrap_used, clippy::panic, clippy::print_stdout)] // helpers outside #[test] fns: a failure there is a test failure

use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;

fn octoref(args: &[&str], dir: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_octoref"))
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// The scene's folder (`<tmp>/scene`: profile.json, its reference, frame_000.jpg, frame_001.jpg,
/// truth.json); the tests run from `<tmp>` so paths are relative to another folder than the
/// profile's.
struct Fixture {
    _dir: tempfile::TempDir,
    root: PathBuf,
}

fn fixture() -> &'static Fixture {
    static F: OnceLock<Fixture> = OnceLock::new();
    F.get_or_init(|| {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().to_path_buf();
        let o = octoref(
            &[
                "synth",
                "--seed",
                "8",
                "--out",
                "scene",
                "--players",
                "3",
                "--frames",
                "2",
                "--resolution",
                "1280x720",
                "--tilt-deg",
                "15",
            ],
            &root,
        );
        assert!(o.status.success(), "synth: {}", stderr(&o));
        let o = octoref(
            &[
                "calibrate",
                "--board",
                "scene/board.png",
                "--ocean",
                "scene/empty.png",
                "--out",
                "scene/profile.json",
            ],
            &root,
        );
        assert!(o.status.success(), "calibrate: {}", stderr(&o));
        Fixture { _dir: dir, root }
    })
}

fn analyze(extra: &[&str]) -> Output {
    let f = fixture();
    let mut args = vec!["analyze", "--calibration", "scene/profile.json"];
    args.extend_from_slice(extra);
    octoref(&args, &f.root)
}

const PIECES: [&str; 11] = [
    "octopus_head",
    "little_octopus",
    "tentacle",
    "ship",
    "anchor",
    "pirate_ship",
    "octo_canon",
    "island",
    "treasure",
    "ink_die",
    "crab",
];
const TREASURES: [&str; 7] = ["captain", "goblet", "gold", "gem", "chest", "rose", "bottle"];
const COLOURS: [&str; 5] = ["orange", "green", "blue", "purple", "pink"];

fn point(v: &Value) -> bool {
    v.as_array()
        .is_some_and(|a| a.len() == 2 && a.iter().all(|x| x.as_f64().is_some_and(f64::is_finite)))
}

#[test]
fn the_document_has_cli_md_shape() {
    let o = analyze(&["scene/frame_000.jpg", "scene/frame_001.jpg", "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let doc: Value = serde_json::from_slice(&o.stdout).unwrap();
    let frames = doc["frames"].as_array().unwrap();
    assert_eq!(frames.len(), 2);
    for (k, f) in frames.iter().enumerate() {
        assert_eq!(f["image"], format!("scene/frame_00{k}.jpg"), "image as given");
        let ocean = f["ocean"]["polygon_mm"].as_array().unwrap();
        assert!(ocean.len() >= 3 && ocean.iter().all(point));
        let pieces = f["pieces"].as_array().unwrap();
        assert!(pieces.len() >= 10, "{} pieces", pieces.len());
        let mut ids = BTreeSet::new();
        for p in pieces {
            let id = p["id"].as_str().unwrap();
            assert!(ids.insert(id.to_string()), "duplicate id {id}");
            let kind = p["piece"].as_str().unwrap();
            assert!(PIECES.contains(&kind), "{kind}");
            assert!(point(&p["center_mm"]), "{p}");
            let fp = p["footprint_mm"].as_array().unwrap();
            assert!(fp.len() >= 3 && fp.iter().all(point), "{p}");
            assert!(p["in_ocean"].is_boolean() && p["on_string"].is_boolean(), "{p}");
            assert!(p["loaded_on"].is_null() || p["loaded_on"].is_string(), "{p}");
            let c = p["confidence"].as_f64().unwrap();
            assert!((0.0..=1.0).contains(&c));
            match kind {
                "treasure" => assert!(TREASURES.contains(&p["type"].as_str().unwrap()), "{p}"),
                "ship" | "anchor" => assert!(COLOURS.contains(&p["color"].as_str().unwrap()), "{p}"),
                "ink_die" => assert!(["black", "red"].contains(&p["top"].as_str().unwrap()), "{p}"),
                _ => {}
            }
        }
        for p in pieces.iter().filter(|p| p["loaded_on"].is_string()) {
            assert!(
                ids.contains(p["loaded_on"].as_str().unwrap()),
                "loaded_on names a piece: {p}"
            );
        }
        let counter = &f["counter"];
        assert_eq!(counter["beads"], "BBBKBBBKBBKBBKKK");
        assert!(
            counter["crab"].as_u64().is_some() && counter["next"].is_string(),
            "{counter}"
        );
        assert_eq!(f["obstructed"], false);
        assert_eq!(f["view_moved"], false);
        let rulings = &f["rulings"];
        // Without --players: the ships seen, here the scene's three players.
        let players: Vec<&str> = rulings["players"]
            .as_object()
            .unwrap()
            .keys()
            .map(String::as_str)
            .collect();
        assert_eq!(players, ["blue", "green", "orange"]);
        for (colour, r) in rulings["players"].as_object().unwrap() {
            assert!(r["loaded"].is_array(), "{colour}");
            for g in r["gaps_mm"].as_array().unwrap() {
                assert!(ids.contains(g["id"].as_str().unwrap()));
                assert!(TREASURES.contains(&g["type"].as_str().unwrap()));
                assert!(g["gap_mm"].as_f64().unwrap() >= 0.0);
            }
            assert!(r["closest"].is_null() || ids.contains(r["closest"].as_str().unwrap()));
            assert!(r["too_close_to_call"].is_boolean());
            assert!(r["flickable"].is_array());
            for fb in r["forbidden"].as_array().unwrap() {
                assert!(fb["id"].is_string() && fb["reason"].is_string(), "{fb}");
            }
        }
        for id in rulings["out_of_ocean"].as_array().unwrap() {
            assert!(ids.contains(id.as_str().unwrap()));
        }
        assert!(!rulings["messages"].as_array().unwrap().is_empty());
    }
    // The human summary names each frame and says the referee's messages.
    let err = stderr(&o);
    assert!(
        err.contains("scene/frame_000.jpg:") && err.contains("scene/frame_001.jpg:"),
        "{err}"
    );
    let first_message = doc["frames"][0]["rulings"]["messages"][0].as_str().unwrap();
    assert!(err.contains(first_message), "{err}");
}

#[test]
fn players_and_active_player_are_the_given_ones() {
    let o = analyze(&[
        "scene/frame_000.jpg",
        "--players",
        "orange,green",
        "--active",
        "green",
        "--json",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let doc: Value = serde_json::from_slice(&o.stdout).unwrap();
    let players: Vec<&str> = doc["frames"][0]["rulings"]["players"]
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(players, ["green", "orange"]);
    // Without --json nothing goes to stdout.
    let o = analyze(&["scene/frame_000.jpg"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(o.stdout.is_empty());
}

/// The kinds (ships and anchors by colour, treasures by type) an analysis reports, with counts.
fn kinds_reported(doc: &Value) -> BTreeMap<String, usize> {
    let mut kinds = BTreeMap::new();
    for p in doc["frames"][0]["pieces"].as_array().unwrap() {
        let piece = p["piece"].as_str().unwrap();
        let what = match (p["color"].as_str(), p["type"].as_str()) {
            (Some(c), _) => format!("{piece}/{c}"),
            (_, Some(t)) => format!("{piece}/{t}"),
            _ => piece.to_string(),
        };
        *kinds.entry(what).or_insert(0) += 1;
    }
    kinds
}

#[test]
fn told_the_players_vision_reports_only_their_games_pieces() {
    // The scene has three players: orange, green and blue.
    let seen = analyze(&["scene/frame_000.jpg", "--json"]);
    assert!(seen.status.success(), "{}", stderr(&seen));
    let all = kinds_reported(&serde_json::from_slice(&seen.stdout).unwrap());
    assert!(all.contains_key("ship/blue"), "{all:?}");
    let two = analyze(&["scene/frame_000.jpg", "--players", "orange,green", "--json"]);
    assert!(two.status.success(), "{}", stderr(&two));
    let told = kinds_reported(&serde_json::from_slice(&two.stdout).unwrap());
    assert!(
        told.contains_key("ship/orange") && told.contains_key("ship/green"),
        "{told:?}"
    );
    // A ship on the table is still a ship, whoever sails it; the Pirate's pieces are not looked
    // for.
    assert!(told.contains_key("ship/blue"), "{told:?}");
    for absent in ["pirate_ship", "octo_canon"] {
        assert!(!told.contains_key(absent), "{absent} in {told:?}");
    }
    // Two players play with three of each treasure type; the table shows four of some.
    assert!(
        all.iter().any(|(k, &n)| k.starts_with("treasure/") && n == 4),
        "{all:?}"
    );
    for t in ["captain", "goblet", "gold", "gem", "chest"] {
        let n = told.get(&format!("treasure/{t}")).copied().unwrap_or(0);
        assert!(n <= 3, "{n} {t}: {told:?}");
    }
    assert!(!told.contains_key("treasure/rose") && !told.contains_key("treasure/bottle"));
    // The modules known, and none of them played: no Little Octopus, no island.
    let none = analyze(&[
        "scene/frame_000.jpg",
        "--players",
        "orange,green,blue",
        "--modules",
        "--json",
    ]);
    assert!(none.status.success(), "{}", stderr(&none));
    let told = kinds_reported(&serde_json::from_slice(&none.stdout).unwrap());
    assert!(told.contains_key("ship/blue"), "{told:?}");
    assert!(
        !told.contains_key("little_octopus") && !told.contains_key("island"),
        "{told:?}"
    );
}

#[test]
fn bad_modules_are_bad_usage() {
    for (args, says) in [
        (&["--modules", "island"][..], "--players"),
        (
            &["--players", "orange,green", "--modules", "kraken"][..],
            "\"kraken\"",
        ),
        (
            &["--players", "orange,green", "--modules", "pink_pirate"][..],
            "pink",
        ),
        (
            &["--players", "orange,green,pink", "--modules", "island"][..],
            "pink",
        ),
    ] {
        let mut all = vec!["scene/frame_000.jpg"];
        all.extend_from_slice(args);
        let o = analyze(&all);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(stderr(&o).contains(says), "{args:?}: {}", stderr(&o));
        assert!(o.stdout.is_empty());
    }
}

#[test]
fn bad_players_are_bad_usage() {
    let o = analyze(&["scene/frame_000.jpg", "--players", "orange,red"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("\"red\""), "{}", stderr(&o));
    let o = analyze(&[
        "scene/frame_000.jpg",
        "--players",
        "orange,green",
        "--active",
        "blue",
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let o = analyze(&["scene/frame_000.jpg", "--tolerance-mm", "-1"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
}

#[test]
fn unreadable_images_exit_2_naming_them() {
    let f = fixture();
    std::fs::write(f.root.join("notes.png"), b"this is not a picture").unwrap();
    for bad in ["notes.png", "missing.jpg"] {
        let o = analyze(&["scene/frame_000.jpg", bad, "--json"]);
        assert_eq!(o.status.code(), Some(2), "{bad}: {}", stderr(&o));
        assert!(stderr(&o).contains(bad), "{bad}: {}", stderr(&o));
        assert!(o.stdout.is_empty(), "no half document");
    }
}

#[test]
fn a_frame_of_another_resolution_is_refused() {
    let f = fixture();
    let img = opencv::core::Mat::new_rows_cols_with_default(
        360,
        640,
        opencv::core::CV_8UC3,
        opencv::core::Scalar::all(90.0),
    )
    .unwrap();
    let path = f.root.join("small.png");
    opencv::imgcodecs::imwrite_def(path.to_str().unwrap(), &img).unwrap();
    let o = analyze(&["small.png"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(
        err.contains("small.png") && err.contains("640x360") && err.contains("1280x720"),
        "{err}"
    );
}

#[test]
fn a_profile_without_its_reference_image_is_refused() {
    let f = fixture();
    let other = f.root.join("moved");
    std::fs::create_dir_all(&other).unwrap();
    std::fs::copy(f.root.join("scene/profile.json"), other.join("profile.json")).unwrap();
    let o = octoref(
        &[
            "analyze",
            "--calibration",
            "moved/profile.json",
            "scene/frame_000.jpg",
        ],
        &f.root,
    );
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(
        err.contains("moved/profile.json") && err.contains("reference"),
        "{err}"
    );
    let o = octoref(
        &["analyze", "--calibration", "nowhere.json", "scene/frame_000.jpg"],
        &f.root,
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("nowhere.json"), "{}", stderr(&o));
}

#[test]
fn teach_stores_the_piece_in_the_profile() {
    let f = fixture();
    let dir = f.root.join("teach");
    std::fs::create_dir_all(&dir).unwrap();
    for name in ["profile.json", "profile_reference.png"] {
        std::fs::copy(f.root.join("scene").join(name), dir.join(name)).unwrap();
    }
    // A full frame without --at: several candidates, refused, nothing written.
    let before = std::fs::read(dir.join("profile.json")).unwrap();
    let o = octoref(
        &[
            "teach",
            "--calibration",
            "teach/profile.json",
            "--piece",
            "gem",
            "scene/frame_000.jpg",
        ],
        &f.root,
    );
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("scene/frame_000.jpg") && stderr(&o).contains("--at"),
        "{}",
        stderr(&o)
    );
    assert_eq!(
        std::fs::read(dir.join("profile.json")).unwrap(),
        before,
        "profile untouched"
    );
    // An unknown piece.
    let o = octoref(
        &[
            "teach",
            "--calibration",
            "teach/profile.json",
            "--piece",
            "unicorn",
            "scene/frame_000.jpg",
        ],
        &f.root,
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("unicorn"), "{}", stderr(&o));
    // Picked at a gem standing clear of everything else (from the truth).
    let truth: Value =
        serde_json::from_slice(&std::fs::read(f.root.join("scene/truth.json")).unwrap()).unwrap();
    let pieces = truth["frames"][0]["pieces"].as_array().unwrap();
    let centre = |p: &Value| {
        (
            p["center_mm"][0].as_f64().unwrap(),
            p["center_mm"][1].as_f64().unwrap(),
        )
    };
    let gem = pieces
        .iter()
        .filter(|p| p["type"] == "gem" && p["loaded_on"].is_null())
        .find(|g| {
            let (x, y) = centre(g);
            pieces
                .iter()
                .filter(|o| o["id"] != g["id"])
                .all(|o| ((centre(o).0 - x).powi(2) + (centre(o).1 - y).powi(2)).sqrt() > 45.0)
        })
        .expect("a gem clear of the others");
    let (x, y) = centre(gem);
    let at = format!("{x:.1},{y:.1}");
    let o = octoref(
        &[
            "teach",
            "--calibration",
            "teach/profile.json",
            "--piece",
            "gem",
            "scene/frame_000.jpg",
            "--at",
            &at,
            "--json",
        ],
        &f.root,
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stderr(&o).contains("taught gem"), "{}", stderr(&o));
    let lesson: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(lesson["piece"], "gem");
    let profile: Value = serde_json::from_slice(&std::fs::read(dir.join("profile.json")).unwrap()).unwrap();
    let taught = &profile["taught"]["gem"];
    assert!(
        taught["colours"].as_array().is_some_and(|c| !c.is_empty()),
        "{taught}"
    );
    assert!(taught["scale"].as_f64().is_some());
    // The rest of the profile is kept, and analysis reads the taught piece.
    assert_eq!(
        profile["ocean"],
        serde_json::from_slice::<Value>(&before).unwrap()["ocean"]
    );
    let o = octoref(
        &[
            "analyze",
            "--calibration",
            "teach/profile.json",
            "scene/frame_000.jpg",
            "--json",
        ],
        &f.root,
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let doc: Value = serde_json::from_slice(&o.stdout).unwrap();
    let gems = doc["frames"][0]["pieces"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| p["type"] == "gem")
        .count();
    assert!(gems >= 2, "{gems} gems after teaching the gem");
    // --at must be two numbers.
    let o = octoref(
        &[
            "teach",
            "--calibration",
            "teach/profile.json",
            "--piece",
            "gem",
            "scene/frame_000.jpg",
            "--at",
            "12",
        ],
        &f.root,
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("--at"), "{}", stderr(&o));
}

#[test]
fn the_demos_arm_dropping_the_treasures_obstructs_the_ocean() {
    // The demo's first frame: orange's arm held high over the octopus head drops every treasure.
    // Seen on the table's plane it covers little (2700 mm² at the view's edge), but it is an
    // arm reaching in, and no ruling may be given under it.
    let dir = tempfile::tempdir().unwrap();
    let demo = octoref::capture::demo::DemoGame::load().unwrap();
    let image = demo.render(0).unwrap();
    let path = dir.path().join("state_000.png");
    assert!(opencv::imgcodecs::imwrite_def(path.to_str().unwrap(), &image).unwrap());
    let calibration = Path::new(env!("CARGO_MANIFEST_DIR")).join("calibration/demo.json");
    let o = octoref(
        &[
            "analyze",
            "--calibration",
            calibration.to_str().unwrap(),
            path.to_str().unwrap(),
            "--json",
        ],
        dir.path(),
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    let frame = &v["frames"][0];
    assert_eq!(frame["obstructed"], Value::Bool(true), "{frame}");
    assert!(
        frame["rulings"]["players"]
            .as_object()
            .is_none_or(|p| p.is_empty()),
        "{frame}"
    );
}
