//! Hostile input through the real binary: wrong kinds of path, huge and out-of-range numbers,
//! million-element arrays, deep nesting, non-UTF-8 bytes, decompression bombs, and the fuzzers'
//! findings (`tests/data/hostile/`). Every case must end with exit code 2, a message naming the
//! file (and the field where there is one), no panic, and within a watchdog's bound (a hang fails
//! the test instead of stalling the suite; no speed is asserted).

// Helpers outside `#[test]` functions are test code too (clippy.toml allows these in tests).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use serde_json::json;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// A run that takes longer than this is taken to hang. Generous: the debug build on a loaded
/// two-core machine parses a 30 MB file in a few seconds.
const WATCHDOG: Duration = Duration::from_secs(120);

struct Run {
    code: Option<i32>,
    stdout: String,
    stderr: String,
}

fn octoref(args: &[&str]) -> Run {
    let mut child = Command::new(env!("CARGO_BIN_EXE_octoref"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start octoref");
    // Drain both pipes on threads so a chatty child cannot block on a full pipe.
    let mut out = child.stdout.take().unwrap();
    let mut err = child.stderr.take().unwrap();
    let out_thread = std::thread::spawn(move || {
        let mut s = Vec::new();
        let _ = out.read_to_end(&mut s);
        s
    });
    let err_thread = std::thread::spawn(move || {
        let mut s = Vec::new();
        let _ = err.read_to_end(&mut s);
        s
    });
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if start.elapsed() > WATCHDOG {
            let _ = child.kill();
            let _ = child.wait();
            panic!("octoref {args:?} still running after {WATCHDOG:?}: it hangs");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    Run {
        code: status.code(),
        stdout: String::from_utf8_lossy(&out_thread.join().unwrap()).into_owned(),
        stderr: String::from_utf8_lossy(&err_thread.join().unwrap()).into_owned(),
    }
}

/// Exit 2, no panic, nothing on stdout, and every `needle` in the message.
fn assert_refused(args: &[&str], needles: &[&str]) -> String {
    let run = octoref(args);
    assert!(
        !run.stderr.contains("panicked"),
        "octoref {args:?} panicked:\n{}",
        run.stderr
    );
    assert_eq!(run.code, Some(2), "octoref {args:?}: stderr:\n{}", run.stderr);
    assert!(
        run.stdout.is_empty(),
        "octoref {args:?} printed on stdout: {}",
        run.stdout
    );
    for n in needles {
        assert!(
            run.stderr.contains(n),
            "octoref {args:?}: expected {n:?} in the message:\n{}",
            run.stderr
        );
    }
    assert!(
        run.stderr.lines().count() <= 12,
        "a bad input gets a short message, not pages:\n{}",
        run.stderr
    );
    run.stderr
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

fn write(dir: &Path, name: &str, bytes: impl AsRef<[u8]>) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, bytes).unwrap();
    p
}

/// The JSON-reading subcommands, each with the file as its last argument.
const JSON_COMMANDS: [&[&str]; 4] = [
    &["score", "crash-octopus"],
    &["score", "octocube"],
    &["score", "otto"],
    &["replay", "crash-octopus"],
];

fn with_file<'a>(command: &[&'a str], file: &'a str) -> Vec<&'a str> {
    let mut v = command.to_vec();
    v.push(file);
    v.push("--json");
    v
}

#[test]
fn directories_devices_missing_and_vanished_files_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let vanished = write(dir.path(), "vanished.json", "{}");
    let dangling = dir.path().join("dangling.json");
    std::os::unix::fs::symlink(&vanished, &dangling).unwrap();
    std::fs::remove_file(&vanished).unwrap();
    let cases: [(&str, &str); 5] = [
        (s(dir.path()), "not a regular file"),
        ("/dev/null", "not a regular file"),
        ("/dev/zero", "not a regular file"),
        (s(&vanished), "No such file"),
        (s(&dangling), "No such file"),
    ];
    for command in JSON_COMMANDS {
        for (path, why) in cases {
            assert_refused(&with_file(command, path), &[path, why]);
        }
    }
    // The files a record or a flag names go through the same gate.
    for (path, why) in cases {
        assert_refused(
            &["replay", "crash-octopus", "--rules", path, "x.json"],
            &[path, why],
        );
        for field in ["board", "tiles"] {
            let record = write(
                dir.path(),
                &format!("otto_{field}.json"),
                json!({field: path, "players": ["Ana"], "moves": []}).to_string(),
            );
            assert_refused(
                &["score", "otto", s(&record)],
                &[s(&record), &format!("field `{field}`"), why],
            );
        }
        assert_refused(
            &[
                "calibrate",
                "--board",
                path,
                "--out",
                s(&dir.path().join("p.json")),
            ],
            &[path, why],
        );
    }
}

#[test]
fn empty_non_utf8_and_garbage_files_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let empty = write(dir.path(), "empty.json", "");
    let latin1 = write(dir.path(), "latin1.json", b"{\"players\": [\"Jos\xe9\"]}");
    let binary = write(
        dir.path(),
        "binary.json",
        [0xFF, 0xFE, 0x00, 0x01, 0x89, b'P', b'N', b'G'],
    );
    let bom = write(dir.path(), "bom.json", b"\xEF\xBB\xBF{\"players\": []}");
    for command in JSON_COMMANDS {
        for f in [&empty, &latin1, &binary, &bom] {
            assert_refused(&with_file(command, s(f)), &[s(f)]);
        }
    }
    let toml = write(dir.path(), "rules.toml", b"beads = \"\xff\xfe\"\n");
    assert_refused(
        &["replay", "crash-octopus", "--rules", s(&toml), s(&empty)],
        &[s(&toml), "UTF-8"],
    );
    let board = write(dir.path(), "board.toml", b"size = [9, 9]\n\xff\xfe = 1\n");
    let record = write(
        dir.path(),
        "record.json",
        json!({"board": "board.toml", "players": ["Ana"], "moves": []}).to_string(),
    );
    assert_refused(
        &["score", "otto", s(&record)],
        &[s(&record), "field `board`", s(&board)],
    );
}

#[test]
fn out_of_range_numbers_name_their_field() {
    let dir = tempfile::tempdir().unwrap();
    let cases = [
        (
            "score",
            "crash-octopus",
            r#"{"types": 1e309, "players": [{"name": "a"}, {"name": "b"}]}"#,
            "types",
        ),
        (
            "score",
            "crash-octopus",
            r#"{"types": -5, "players": [{"name": "a"}, {"name": "b"}]}"#,
            "types",
        ),
        (
            "score",
            "crash-octopus",
            r#"{"types": 300, "players": [{"name": "a"}, {"name": "b"}]}"#,
            "types",
        ),
        (
            "score",
            "octocube",
            r#"{"players": [{"name": "Ana", "vp_tokens": 1e308}]}"#,
            "players[0].vp_tokens",
        ),
        (
            "score",
            "octocube",
            r#"{"players": [{"name": "Ana", "coins": -1}]}"#,
            "players[0].coins",
        ),
        (
            "score",
            "octocube",
            r#"{"players": [{"name": "Ana", "coins": 4294967295}]}"#,
            "players[0]",
        ),
        (
            "score",
            "octocube",
            r#"{"players": [{"name": "Ana", "tiles": {"pearl": {"white": 4294967295}}}]}"#,
            "players[0].tiles.pearl.white",
        ),
        (
            "score",
            "otto",
            r#"{"players": ["Ana"], "moves": [{"player": "Ana", "tile": "bubbles", "cell": [1e308, 0]}]}"#,
            "moves[0].cell",
        ),
        (
            "score",
            "otto",
            r#"{"players": ["Ana"], "moves": [{"player": "Ana", "tile": "bubbles", "cell": [-9223372036854775808, 9223372036854775807]}]}"#,
            "moves[0].cell",
        ),
        (
            "score",
            "otto",
            r#"{"players": ["Ana"], "moves": [], "hands": {"Ana": 1e10}}"#,
            "hands.Ana",
        ),
        (
            "replay",
            "crash-octopus",
            r#"{"players": ["orange", "green"], "types": 1e400}"#,
            "types",
        ),
    ];
    for (i, (verb, game, text, field)) in cases.iter().enumerate() {
        let f = write(dir.path(), &format!("case{i}.json"), text);
        assert_refused(&[verb, game, s(&f)], &[s(&f), field]);
    }
}

#[test]
fn huge_counts_saturate_instead_of_overflowing() {
    // Four maximal VP-token piles: the totals saturate and the ranking is still given.
    let dir = tempfile::tempdir().unwrap();
    let f = write(
        dir.path(),
        "rich.json",
        json!({"players": [
            {"name": "A", "vp_tokens": u32::MAX, "tiles": {"pearl": {"white": 2}}},
            {"name": "B", "vp_tokens": u32::MAX},
        ]})
        .to_string(),
    );
    let run = octoref(&["score", "octocube", s(&f), "--json"]);
    assert!(!run.stderr.contains("panicked"), "{}", run.stderr);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let v: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(v["players"][0]["total"], u32::MAX);
}

/// `[{"navigate": ...}, ...]` with `n` events, alternating players.
fn navigate_events(n: usize) -> String {
    let mut text = String::with_capacity(n * 40 + 100);
    text.push_str(r#"{"players": ["orange", "green"], "events": ["#);
    for i in 0..n {
        if i > 0 {
            text.push(',');
        }
        text.push_str(if i % 2 == 0 {
            r#"{"navigate":{"player":"orange"}}"#
        } else {
            r#"{"navigate":{"player":"green"}}"#
        });
    }
    text.push_str("]}");
    text
}

#[test]
fn million_element_arrays_are_refused_with_the_documented_limits() {
    let dir = tempfile::tempdir().unwrap();
    // Replay: 1,000,000 events (33 MB) against the 10,000-event limit.
    let f = write(dir.path(), "events.json", navigate_events(1_000_000));
    assert_refused(
        &["replay", "crash-octopus", s(&f)],
        &[s(&f), "events", "1000000 events", "at most 10000"],
    );
    // Just under the limit replays (a long game of navigating).
    let f = write(dir.path(), "long.json", navigate_events(10_000));
    let run = octoref(&["replay", "crash-octopus", s(&f), "--json"]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);

    // A million-bead counter.
    let f = write(
        dir.path(),
        "beads.json",
        format!(
            r#"{{"players": ["orange", "green"], "beads": "{}"}}"#,
            "B".repeat(1_000_000)
        ),
    );
    assert_refused(
        &["replay", "crash-octopus", s(&f)],
        &[s(&f), "beads", "at most 256"],
    );

    // A million players or moves (written as text: a million `serde_json::Value`s would cost
    // the test more than the binary).
    let list = |n: usize, item: &dyn Fn(usize) -> String| -> String {
        (0..n).map(item).collect::<Vec<_>>().join(",")
    };
    let f = write(
        dir.path(),
        "otto_players.json",
        format!(
            r#"{{"players": [{}], "moves": []}}"#,
            list(1_000_000, &|i| format!(r#""p{i}""#))
        ),
    );
    assert_refused(&["score", "otto", s(&f)], &[s(&f), "players", "at most 20"]);
    let f = write(
        dir.path(),
        "otto_moves.json",
        format!(
            r#"{{"players": ["Ana"], "moves": [{}]}}"#,
            list(1_000_000, &|_| r#"{"player": "Ana", "pass": true}"#.to_string())
        ),
    );
    assert_refused(&["score", "otto", s(&f)], &[s(&f), "moves", "at most 10000"]);
    let f = write(
        dir.path(),
        "players.json",
        format!(
            r#"{{"players": [{}]}}"#,
            list(1_000_000, &|i| format!(r#"{{"name": "p{i}"}}"#))
        ),
    );
    assert_refused(
        &["score", "octocube", s(&f)],
        &[s(&f), "players", "expected 1 to 4"],
    );
    assert_refused(&["score", "crash-octopus", s(&f)], &[s(&f), "players"]);
    // A million toppled treasures in one event, and a million empty retrievals.
    let f = write(
        dir.path(),
        "toppled.json",
        format!(
            r#"{{"players": ["orange", "green"], "events": [{{"flick": {{"player": "orange", "loaded": "gold", "toppled": [{}]}}}}]}}"#,
            vec![r#""gem""#; 1_000_000].join(",")
        ),
    );
    assert_refused(&["replay", "crash-octopus", s(&f)], &[s(&f), "events[0]"]);
    let f = write(
        dir.path(),
        "retrievals.json",
        format!(
            r#"{{"players": [{{"name": "Ana", "retrievals": [{}]}}]}}"#,
            vec!["[]"; 1_000_000].join(",")
        ),
    );
    assert_refused(&["score", "octocube", s(&f)], &[s(&f), "retrievals"]);
}

#[test]
fn files_over_the_size_limit_are_refused_unread() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("huge.json");
    let file = std::fs::File::create(&f).unwrap();
    // Sparse: 65 MB on paper, nothing on disk.
    file.set_len(octoref::fsutil::MAX_INPUT_BYTES + 1).unwrap();
    for command in JSON_COMMANDS {
        assert_refused(&with_file(command, s(&f)), &[s(&f), "at most"]);
    }
}

#[test]
fn deeply_nested_json_and_toml_end_in_a_clean_error() {
    let dir = tempfile::tempdir().unwrap();
    let depth = 100_000;
    let arrays = write(
        dir.path(),
        "arrays.json",
        format!("{}{}", "[".repeat(depth), "]".repeat(depth)),
    );
    let in_field = write(
        dir.path(),
        "in_field.json",
        format!(r#"{{"players": {}{}}}"#, "[".repeat(depth), "]".repeat(depth)),
    );
    let objects = write(dir.path(), "objects.json", r#"{"a":"#.repeat(depth));
    for command in JSON_COMMANDS {
        for f in [&arrays, &in_field, &objects] {
            assert_refused(&with_file(command, s(f)), &[s(f)]);
        }
    }
    // Typed records refuse the wrong shape at once; the calibration profile is first read as
    // untyped JSON (for its format version), where serde_json's recursion limit is what stops it.
    for f in [&arrays, &objects] {
        let e = octoref::calibrate::profile::Profile::load(f)
            .unwrap_err()
            .to_string();
        assert!(e.contains(s(f)) && e.contains("recursion limit"), "{e}");
    }

    // TOML read for a record (board, tiles) and for `--rules`.
    let deep_toml = format!("size = {}{}\n", "[".repeat(depth), "]".repeat(depth));
    let inline_tables = format!("size = {}1{}\n", "{a = ".repeat(depth), "}".repeat(depth));
    for (i, text) in [deep_toml, inline_tables].iter().enumerate() {
        let toml = write(dir.path(), &format!("deep{i}.toml"), text);
        for field in ["board", "tiles"] {
            let record = write(
                dir.path(),
                &format!("deep{i}_{field}.json"),
                json!({field: toml.file_name().unwrap().to_str().unwrap(), "players": ["Ana"], "moves": []})
                    .to_string(),
            );
            assert_refused(&["score", "otto", s(&record)], &[s(&record), field]);
        }
        assert_refused(
            &["replay", "crash-octopus", "--rules", s(&toml), s(&arrays)],
            &[s(&toml)],
        );
    }
}

/// A PNG signature and an IHDR announcing `width` x `height`, and no pixel data.
fn png_header(width: u32, height: u32) -> Vec<u8> {
    let mut b = vec![0x89, b'P', b'N', b'G', 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13];
    b.extend(b"IHDR");
    b.extend(width.to_be_bytes());
    b.extend(height.to_be_bytes());
    b.extend([8, 2, 0, 0, 0, 0, 0, 0, 0]);
    b
}

#[test]
fn image_loaders_refuse_non_images() {
    let dir = tempfile::tempdir().unwrap();
    let text = write(dir.path(), "notes.png", "this is not a picture");
    let empty = write(dir.path(), "empty.jpg", "");
    let truncated = write(dir.path(), "header_only.png", png_header(64, 64));
    let out = dir.path().join("profile.json");
    for f in [&text, &empty, &truncated] {
        assert_refused(&["calibrate", "--board", s(f), "--out", s(&out)], &[s(f)]);
    }
    assert!(!out.exists(), "no profile written from a bad image");
}

fn hostile_image(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/hostile/images")
        .join(name)
}

/// The shared image loader (image folders; meant for every CLI image) refuses the 335-byte JPEG
/// and 45-byte PNG that announce 30000 x 30000 pixels, before any decoding.
#[test]
fn the_image_loader_refuses_decompression_bombs() {
    use octoref::capture::{FrameSource, ImageFolderOptions, ImageFolderSource, StopSignal};
    for name in ["bomb_30000x30000.jpg", "bomb_30000x30000.png"] {
        let e = octoref::capture::still::load_image(&hostile_image(name))
            .unwrap_err()
            .to_string();
        assert!(
            e.contains(name) && e.contains("30000x30000") && e.contains("megapixels"),
            "{e}"
        );
    }
    // A folder holding the bombs and one good picture plays the good one and skips the bombs.
    let dir = tempfile::tempdir().unwrap();
    for name in [
        "a_bomb_30000x30000.jpg",
        "b_bomb_30000x30000.png",
        "c_good_24x16.png",
    ] {
        let from = name.split_once('_').unwrap().1;
        std::fs::copy(hostile_image(from), dir.path().join(name)).unwrap();
    }
    let mut source = ImageFolderSource::new(ImageFolderOptions {
        dir: dir.path().to_path_buf(),
        fps: None,
        looping: false,
    });
    let info = source.open().unwrap();
    assert_eq!((info.width, info.height), (24, 16));
    let frame = source.next_frame(&StopSignal::new()).unwrap();
    assert_eq!(&*frame.label, "c_good_24x16.png");
}

/// `calibrate` reads its images through the still-image loader, which refuses a file whose header
/// claims more pixels than any camera gives (a 335-byte JPEG claiming 30000x30000 once took 9.7 GB
/// and 2 minutes) before decoding it.
#[test]
fn calibrate_refuses_a_decompression_bomb() {
    let dir = tempfile::tempdir().unwrap();
    let bomb = hostile_image("bomb_30000x30000.jpg");
    assert_refused(
        &[
            "calibrate",
            "--board",
            s(&bomb),
            "--out",
            s(&dir.path().join("p.json")),
        ],
        &[s(&bomb), "30000x30000", "megapixels"],
    );
}

/// Hand-made hostile files and every file the fuzzers found a problem with, kept as regressions
/// (`tests/data/hostile/<command>/`): scored or replayed through the binary, each is refused
/// cleanly (exit 2 naming the file) or accepted, never a panic or a hang.
#[test]
fn hostile_files_and_fuzzer_findings_stay_handled() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/hostile");
    let mut seen = 0;
    for (dir, args) in [
        ("score_crash_octopus", &["score", "crash-octopus"][..]),
        ("score_octocube", &["score", "octocube"][..]),
        ("score_otto", &["score", "otto"][..]),
        ("replay_crash_octopus", &["replay", "crash-octopus"][..]),
    ] {
        let Ok(entries) = std::fs::read_dir(root.join(dir)) else {
            continue;
        };
        for e in entries {
            let path = e.unwrap().path();
            let run = octoref(&with_file(args, s(&path)));
            assert!(!run.stderr.contains("panicked"), "{path:?}:\n{}", run.stderr);
            assert!(
                matches!(run.code, Some(0 | 2)),
                "{path:?}: {:?}\n{}",
                run.code,
                run.stderr
            );
            if run.code == Some(2) {
                assert!(run.stderr.contains(s(&path)), "{path:?}:\n{}", run.stderr);
            }
            seen += 1;
        }
    }
    assert!(
        seen >= 8,
        "tests/data/hostile holds the hostile files ({seen} found)"
    );
}

/// A minimal valid calibration profile (four points, no camera), as JSON.
fn profile_json(extra: &str) -> String {
    format!(
        r#"{{"format_version": 1, "created": "1970-01-01T00:00:00Z", "method": "four_points",
            "image_size": {{"width": 1280, "height": 720}},
            "homography": [[2, 0, 100], [0, 2, 50], [0, 0, 1]],
            "reprojection_px": 0.1, "mm_per_px": 0.5{extra}}}"#
    )
}

fn load_profile(dir: &Path, name: &str, text: &str) -> Result<(), String> {
    let f = write(dir, name, text);
    octoref::calibrate::profile::Profile::load(&f)
        .map(|_| ())
        .map_err(|e| {
            let e = e.to_string();
            assert!(e.contains(s(&f)), "the message names the file: {e}");
            e
        })
}

#[test]
fn calibration_profiles_refuse_out_of_range_values() {
    let dir = tempfile::tempdir().unwrap();
    load_profile(dir.path(), "ok.json", &profile_json("")).unwrap();
    let cases = [
        (r#", "mm_per_px": 1e309"#, "mm_per_px"),
        (r#", "image_size": {"width": -1, "height": 720}"#, "image_size"),
        (r#", "image_size": {"width": 0, "height": 720}"#, "image_size"),
        (
            r#", "homography": [[1e308, 0, 0], [0, 1e308, 0], [0, 0, 1]]"#,
            "homography",
        ),
        (
            r#", "homography": [[0, 0, 0], [0, 0, 0], [0, 0, 0]]"#,
            "homography",
        ),
        (r#", "ocean": {"polygon_mm": [[0, 0], [1, 1]]}"#, "ocean"),
        (r#", "format_version": 1e400"#, "format_version"),
        (r#", "format_version": -1"#, "format_version"),
    ];
    for (i, (extra, field)) in cases.iter().enumerate() {
        // A later duplicate key is refused by serde too; put the hostile value in place instead.
        let text = replace_field(&profile_json(""), extra);
        let e = load_profile(dir.path(), &format!("p{i}.json"), &text).unwrap_err();
        assert!(e.contains(field), "{extra}: {e}");
    }
}

/// The profile with the fields of `extra` (`, "name": value, ...` at the top level) replacing
/// its own.
fn replace_field(base: &str, extra: &str) -> String {
    let mut v: serde_json::Value = serde_json::from_str(base).unwrap();
    let patch = format!("{{{}}}", extra.trim_start_matches(','));
    // Numbers out of f64/u64 range cannot go through a Value: splice them as text.
    match serde_json::from_str::<serde_json::Value>(&patch) {
        Ok(serde_json::Value::Object(m)) => {
            for (k, val) in m {
                v[k] = val;
            }
            v.to_string()
        }
        _ => {
            let key = extra.split('"').nth(1).unwrap();
            let start = base.find(&format!("\"{key}\"")).unwrap();
            let end = start + base[start..].find([',', '}']).unwrap();
            let value = extra.split_once(':').unwrap().1;
            format!("{}\"{key}\":{value}{}", &base[..start], &base[end..])
        }
    }
}

/// `Profile::load` bounds what a profile may ask for: a reference image of 4e9 x 4e9 pixels at
/// 1e-300 mm per pixel, or a camera with a principal point, distortion or pose of 1e308, is refused
/// with the field named, before anything allocates for it.
#[test]
fn calibration_profiles_refuse_absurd_reference_grids_and_cameras() {
    let dir = tempfile::tempdir().unwrap();
    let grid = profile_json(
        r#", "reference": {"file": "r.png", "origin_mm": [0, 0], "mm_per_px": 1e-300, "width": 4000000000, "height": 4000000000}"#,
    );
    let e = load_profile(dir.path(), "grid.json", &grid).unwrap_err();
    assert!(e.contains("reference"), "{e}");
    let camera = profile_json(
        r#", "camera": {"intrinsics": {"width": 1280, "height": 720, "fx": 1000, "fy": 1000, "cx": 1e308, "cy": 360, "distortion": [1e308, 0, 0, 0, 0]},
                       "pose": {"rvec": [1e308, 0, 0], "tvec": [0, 0, 1e308]}}"#,
    );
    let e = load_profile(dir.path(), "camera.json", &camera).unwrap_err();
    assert!(e.contains("camera"), "{e}");
}
