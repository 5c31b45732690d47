//! The built-in demo end to end: the scripted game against the rules and the referee, the source
//! streaming at a camera's rate through the capture worker, whole games played and restarted with
//! flat memory, and the shipped demo calibration profile against what the calibration pipeline
//! makes of the demo scene.
//!
//! The tests here share the machine's two cores with everything else, so they run one at a time
//! (`serial`), and they only assert speed loosely (frame counts with wide bounds).
//!
//! Helpers (ignored tests):
//! - `cargo test --test demo -- --ignored regenerate_demo_profile` rewrites
//!   `calibration/demo.json` and `calibration/demo_reference.png` from the demo scene.
//! - `OCTOREF_DEMO_PREVIEW=dir cargo test --test demo -- --ignored preview_states` writes every
//!   table state of the demo as a JPEG, to look at.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // helpers outside #[test] fns

use octoref::calibrate::profile::Profile;
use octoref::capture::demo::{
    DEMO_REFERENCE_FILE, DemoGame, DemoState, MIN_GAP_MM, calibrate_demo_scene, write_demo_profile,
};
use octoref::capture::{
    CaptureError, CaptureWorker, DemoConfig, DemoPhase, DemoSource, FrameSource, SourceKind, SourceStatus,
    StopSignal, WorkerConfig,
};
use octoref::games::crash_octopus::{Event, Game, PlayerColor};
use octoref::referee::{FrameReport, GameContext, Rulings};
use octoref::table::{CounterReport, OceanReport};
use opencv::core::{self, Mat, Vector};
use opencv::imgcodecs;
use opencv::prelude::*;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

static SERIAL: Mutex<()> = Mutex::new(());

fn serial() -> MutexGuard<'static, ()> {
    SERIAL.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Resident memory of this process, bytes (`VmRSS` of `/proc/self/status`, the same count as
/// `/proc/self/statm`'s resident pages, without assuming the page size).
fn rss_bytes() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap();
    let line = status.lines().find(|l| l.starts_with("VmRSS:")).unwrap();
    let kb: u64 = line.split_whitespace().nth(1).unwrap().parse().unwrap();
    kb * 1024
}

fn mean_abs_diff(a: &Mat, b: &Mat) -> f64 {
    let mut d = Mat::default();
    core::absdiff(a, b, &mut d).unwrap();
    let m = core::mean(&d, &core::no_array()).unwrap();
    (m[0] + m[1] + m[2]) / 3.0
}

/// Share of the pixels whose grey level differs by more than [`CHANGED_LEVELS`]: far beyond
/// sensor noise, so only something that moved (a hand) counts.
fn changed_share(a: &Mat, b: &Mat) -> f64 {
    let mut d = Mat::default();
    core::absdiff(a, b, &mut d).unwrap();
    let mut grey = Mat::default();
    opencv::imgproc::cvt_color_def(&d, &mut grey, opencv::imgproc::COLOR_BGR2GRAY).unwrap();
    let mut big = Mat::default();
    opencv::imgproc::threshold(
        &grey,
        &mut big,
        CHANGED_LEVELS,
        255.0,
        opencv::imgproc::THRESH_BINARY,
    )
    .unwrap();
    core::count_non_zero(&big).unwrap() as f64 / (grey.rows() * grey.cols()) as f64
}

/// A pixel "changed" when its grey level moved by more than this (about ten sigmas of the noise).
const CHANGED_LEVELS: f64 = 30.0;

/// The referee's rulings on a state's true table, for the game as it stood.
fn rulings(state: &DemoState, game: &Game, active: Option<PlayerColor>) -> Rulings {
    let t = &state.truth;
    let mut report = FrameReport {
        image: t.image.clone(),
        ocean: OceanReport::new(t.ocean.polygon_mm.clone()),
        pieces: t.pieces.iter().map(|p| p.report.clone()).collect(),
        counter: Some(CounterReport::new(t.counter.beads.clone(), t.counter.crab)),
        obstructed: t.obstructed,
        view_moved: false,
        rulings: None,
    };
    let loaded: BTreeMap<PlayerColor, BTreeSet<_>> = game
        .ships()
        .iter()
        .map(|s| (s.owner, s.loaded().clone()))
        .collect();
    let ctx = GameContext {
        active,
        loaded: Some(loaded),
        ..GameContext::with_players(game.players().to_vec())
    };
    report.rule(&ctx).unwrap().clone()
}

fn still_state(demo: &DemoGame, step: usize) -> &DemoState {
    demo.states()
        .iter()
        .find(|s| s.step == step && s.phase == DemoPhase::Still)
        .unwrap()
}

/// The script shows what octoref rules on: loads that walk the crab, a miss, a treasure out of
/// the ocean and its re-drop, two treasures too close to call, attacks that hit ships and topple
/// treasures, and the end with the ranking; and the referee, reading each still table, agrees.
#[test]
fn the_scripted_game_shows_every_ruling_and_replays() {
    let _s = serial();
    let demo = DemoGame::load().unwrap();
    let record = demo.record().unwrap();
    let end = Game::replay(record).unwrap();
    assert!(end.is_over());
    let ranking = &end.ending().unwrap().ranking;
    let order: Vec<&str> = ranking.entries.iter().map(|e| e.name.as_str()).collect();
    assert_eq!(order, ["green", "orange", "blue"]);
    assert_eq!(ranking.winners(), ["green"]);

    let mut game = Game::replay(&setup_only(record)).unwrap();
    let mut seen = BTreeSet::new();
    for step in demo.steps() {
        let before = if step.index == 0 {
            None
        } else {
            Some(still_state(&demo, step.index - 1))
        };
        let crab_before = game.counter().crab();
        if let (Some(before), Some(event)) = (before, &step.event) {
            let r = rulings(before, &game, Some(event.player()));
            if event.player() == PlayerColor::Blue
                && let Some(p) = r.players.get(&PlayerColor::Blue)
                && p.too_close_to_call
                && matches!(event, Event::Flick(_))
            {
                assert_eq!(p.closest_candidates.len(), 2, "exactly two treasures tied");
                seen.insert("flick after a tie too close to call");
            }
            game.apply(event).unwrap();
        }
        let after = still_state(&demo, step.index);
        let r = rulings(after, &game, None);
        // What stands on each ship is what the game says is loaded.
        for ship in game.ships() {
            let p = &r.players[&ship.owner];
            let on_ship: BTreeSet<_> = p.loaded.iter().copied().collect();
            assert_eq!(&on_ship, ship.loaded(), "step {}: {}", step.index, ship.owner);
        }
        assert_eq!(
            after.truth.counter.crab,
            game.counter().crab(),
            "step {}",
            step.index
        );
        match &step.event {
            Some(Event::Flick(f)) if f.loaded.is_some() => {
                assert_eq!(game.counter().crab(), crab_before + 1);
                seen.insert("load");
            }
            Some(Event::Flick(f)) => match &rulings(after, &game, Some(f.player)).redrop {
                Some(redrop) => {
                    assert_eq!(redrop.ids.len(), 1);
                    assert_eq!(
                        redrop.by,
                        Some(PlayerColor::Orange),
                        "the player before green re-drops"
                    );
                    seen.insert("treasure out of the ocean");
                }
                None => {
                    seen.insert("miss");
                }
            },
            Some(Event::Drop(d)) if d.hit_ship.is_some() && !d.toppled.is_empty() => {
                seen.insert("ship hit, treasures toppled");
            }
            Some(Event::Drop(_)) => {
                seen.insert("drop");
            }
            Some(Event::Navigate(_)) => {
                seen.insert("navigate");
            }
            _ => {}
        }
        if let Some(p) = r.players.get(&PlayerColor::Blue)
            && p.too_close_to_call
        {
            seen.insert("too close to call");
        }
        if step.game_over {
            seen.insert("game over");
        }
    }
    for what in [
        "load",
        "miss",
        "treasure out of the ocean",
        "too close to call",
        "flick after a tie too close to call",
        "ship hit, treasures toppled",
        "drop",
        "navigate",
        "game over",
    ] {
        assert!(seen.contains(what), "the demo never shows: {what}");
    }
    assert!(game.is_over());
}

/// The record with no events (the set-up of `record`).
fn setup_only(record: &octoref::games::crash_octopus::Record) -> octoref::games::crash_octopus::Record {
    let mut r = record.clone();
    r.events.clear();
    r
}

/// Every state is a table the renderer can show: nothing inside anything else, everything in
/// view and, but under the hand, in sight; acting states have a hand over the ocean, still states none; and the script gives the
/// same states every time.
#[test]
fn every_state_is_a_sound_table_and_hands_come_and_go() {
    let _s = serial();
    let demo = DemoGame::load().unwrap();
    let again = DemoGame::load().unwrap();
    assert_eq!(demo.states().len(), again.states().len());
    let catalog = &demo.scene().catalog;
    for (s, t) in demo.states().iter().zip(again.states()) {
        assert_eq!(s.layout, t.layout, "state {}: same script, same table", s.index);
        assert_eq!(s.hand, t.hand);
        let truth = &s.truth;
        // In view, and in sight but where the hand hides it.
        for p in &truth.pieces {
            assert!(
                p.visible || (s.hand.is_some() && p.seen_share < octoref::synth::MIN_SEEN_SHARE),
                "state {}: {} out of view or hidden (seen {:.2})",
                s.index,
                p.report.id,
                p.seen_share
            );
        }
        let fps: Vec<_> = s
            .layout
            .pieces
            .iter()
            .map(|p| {
                catalog
                    .entry(&p.entry)
                    .unwrap()
                    .footprint(p.center_mm, p.angle_rad)
            })
            .collect();
        for (i, p) in s.layout.pieces.iter().enumerate() {
            for (j, q) in s.layout.pieces.iter().enumerate().skip(i + 1) {
                if p.loaded_on == q.loaded_on && p.on_island == q.on_island {
                    let g = fps[i].gap(&fps[j]);
                    assert!(
                        g >= MIN_GAP_MM - 1e-6,
                        "state {}: {} and {} overlap ({g:.2} mm)",
                        s.index,
                        p.id,
                        q.id
                    );
                }
            }
        }
        match s.phase {
            DemoPhase::Acting => {
                assert!(s.hand.is_some() && truth.faults.hand, "state {}", s.index);
                assert!(
                    truth.obstructed,
                    "state {}: the hand must cover the ocean",
                    s.index
                );
            }
            DemoPhase::Still => assert!(s.hand.is_none() && !truth.obstructed && !truth.faults.hand),
        }
    }
    let acting = demo
        .states()
        .iter()
        .filter(|s| s.phase == DemoPhase::Acting)
        .count();
    assert!(acting + 1 >= demo.steps().len(), "a hand in (nearly) every step");
}

/// The source through the capture worker, as the app runs it: frames at about the camera rate
/// for a few seconds of wall time, the script advancing, fresh noise on every frame of a still
/// table whose truth does not change, and a hand in the picture while a player acts.
#[test]
fn streams_at_the_camera_rate_and_steps_through_the_script() {
    let _s = serial();
    let config = DemoConfig {
        speedup: 8.0,
        ..DemoConfig::default()
    };
    let (factory, handle) = DemoSource::factory(config);
    let worker = CaptureWorker::spawn(factory, WorkerConfig::default(), || {}).unwrap();
    let first = worker
        .wait_frame(Duration::from_secs(240))
        .expect("a first frame");
    let snap = worker.snapshot();
    let info = snap.info.clone().unwrap();
    assert_eq!(
        (info.kind, info.width, info.height),
        (SourceKind::Demo, 1280, 720)
    );
    assert!(
        matches!(snap.status, SourceStatus::Live { .. }),
        "{:?}",
        snap.status
    );
    assert_eq!(first.source, SourceKind::Demo);

    let window = Duration::from_secs(10);
    let frames_at_start = worker.snapshot().stats.frames;
    let start = Instant::now();
    // Two frames of each state, to compare.
    let mut kept: BTreeMap<usize, Vec<(Mat, std::sync::Arc<octoref::capture::DemoInfo>)>> = BTreeMap::new();
    let mut max_step = 0;
    while start.elapsed() < window {
        let Some(frame) = worker.wait_frame(Duration::from_secs(2)) else {
            continue;
        };
        let info = handle.info(frame.seq).expect("every frame has its truth");
        assert_eq!(info.seq, frame.seq);
        max_step = max_step.max(info.step);
        if kept.len() < 12 || kept.contains_key(&info.state) {
            let list = kept.entry(info.state).or_default();
            if list.len() < 2 {
                list.push((frame.image, info));
            }
        }
    }
    let delivered = worker.snapshot().stats.frames - frames_at_start;
    let rate = delivered as f64 / start.elapsed().as_secs_f64();
    eprintln!(
        "delivered {delivered} frames in {:.1} s ({rate:.1} fps); reached step {max_step}; {:?}",
        start.elapsed().as_secs_f64(),
        handle.stats()
    );
    // About 15 fps; wide bounds for a loaded machine.
    assert!((6.0..=24.0).contains(&rate), "{rate:.1} fps");
    assert!(max_step >= 2, "the script advanced to step {max_step} only");

    let demo = handle.game().unwrap();
    let mut compared_still = false;
    let mut compared_hand = false;
    for (state, frames) in &kept {
        let s = &demo.states()[*state];
        if frames.len() == 2 {
            let d = mean_abs_diff(&frames[0].0, &frames[1].0);
            assert!(d > 0.3, "state {state}: two frames are identical (no noise)");
            assert!(d < 6.0, "state {state}: two frames of one state differ by {d:.2}");
            let moved = changed_share(&frames[0].0, &frames[1].0);
            assert!(
                moved < 1e-4,
                "state {state}: {:.3} % of the picture moved",
                100.0 * moved
            );
            assert!(std::sync::Arc::ptr_eq(&frames[0].1.truth, &frames[1].1.truth));
            compared_still |= s.phase == DemoPhase::Still;
        }
        if s.phase == DemoPhase::Acting {
            assert!(frames[0].1.truth.obstructed);
            // The same step's still table, without the hand, looks clearly different.
            if let Some(still) = kept.get(&(state + 1)) {
                let hand = changed_share(&frames[0].0, &still[0].0);
                assert!(
                    hand > 0.005,
                    "state {state}: the hand is not visible ({:.2} % changed)",
                    100.0 * hand
                );
                compared_hand = true;
            }
        }
    }
    assert!(compared_still, "no still state was seen twice");
    assert!(compared_hand, "no hand was seen");
    worker.stop();
}

/// Whole games at an accelerated rate, read frame by frame from the source: every state shown in
/// order, the record replaying at the end, a new game starting from the set-up, each state
/// rendered once, and memory flat once the first game is cached.
#[test]
fn plays_whole_games_then_starts_again_with_flat_memory() {
    let _s = serial();
    const GAMES: u64 = 4;
    let config = DemoConfig {
        fps: Some(60.0),
        speedup: 1e6,
        games: Some(GAMES),
        ..DemoConfig::default()
    };
    let (mut source, handle) = DemoSource::new(config.clone());
    source.open().unwrap();
    let demo = handle.game().unwrap();
    let n = demo.states().len();
    let stop = StopSignal::new();
    let mut last: Option<std::sync::Arc<octoref::capture::DemoInfo>> = None;
    let mut rss_at_game: Vec<u64> = Vec::new();
    let mut firsts: Vec<(u64, usize, Mat)> = Vec::new();
    let started = Instant::now();
    loop {
        let frame = match source.next_frame(&stop) {
            Ok(f) => f,
            Err(CaptureError::EndOfStream) => break,
            Err(e) => panic!("{e}"),
        };
        let info = handle.info(frame.seq).unwrap();
        if firsts.len() < 6 {
            firsts.push((frame.seq, info.state, frame.image.try_clone().unwrap()));
        }
        match &last {
            None => {
                assert_eq!((info.game, info.state, info.step), (0, 0, 0));
                rss_at_game.push(rss_bytes());
            }
            Some(prev) if prev.game != info.game => {
                assert_eq!(info.game, prev.game + 1);
                assert_eq!((info.state, info.step), (0, 0), "a new game starts at the set-up");
                assert!(info.record.events.is_empty());
                assert_eq!(
                    prev.state,
                    n - 1,
                    "game {} ended before its last state",
                    prev.game
                );
                assert!(prev.game_over);
                let end = Game::replay(&prev.record).unwrap();
                assert!(end.is_over());
                rss_at_game.push(rss_bytes());
            }
            Some(prev) => {
                assert!(
                    info.state == prev.state || info.state == prev.state + 1,
                    "state {} after {}: no state is skipped",
                    info.state,
                    prev.state
                );
                assert!(info.record.events.len() >= prev.record.events.len());
            }
        }
        last = Some(info);
        assert!(
            started.elapsed() < Duration::from_secs(1800),
            "too slow: {:?}",
            handle.stats()
        );
    }
    source.close();
    let stats = handle.stats();
    let mb = |b: u64| b as f64 / (1 << 20) as f64;
    eprintln!(
        "{GAMES} games of {n} states in {:.1} s; {stats:?}; RSS at each game's start: {:?} MiB",
        started.elapsed().as_secs_f64(),
        rss_at_game
            .iter()
            .map(|&b| format!("{:.1}", mb(b)))
            .collect::<Vec<_>>()
    );
    assert_eq!(last.unwrap().game, GAMES - 1);
    assert_eq!(rss_at_game.len(), GAMES as usize);
    assert_eq!(
        stats.render.renders, n as u64,
        "each state is rendered once (the cache holds a game)"
    );
    assert_eq!(stats.render.cached, n);
    // After the first game everything is cached: later games must not grow.
    let growth = rss_at_game[GAMES as usize - 1] as i64 - rss_at_game[1] as i64;
    assert!(
        growth < 24 << 20,
        "memory grew by {:.1} MiB over {} games",
        growth as f64 / (1 << 20) as f64,
        GAMES - 2
    );

    // Same script, same seed: a second source shows the same frames for the same states.
    let (mut again, handle2) = DemoSource::new(DemoConfig {
        games: None,
        ..config
    });
    again.open().unwrap();
    let mut matched = 0;
    for (seq, state, img) in &firsts {
        let f = again.next_frame(&stop).unwrap();
        assert_eq!(f.seq, *seq);
        if handle2.info(*seq).unwrap().state == *state {
            assert_eq!(mean_abs_diff(img, &f.image), 0.0, "frame {seq}");
            matched += 1;
        }
    }
    assert!(matched >= 1);
}

/// Numbers and texts equal, floats within a tolerance; `path` names the field in failures.
fn assert_json_close(a: &serde_json::Value, b: &serde_json::Value, path: &str) {
    use serde_json::Value;
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => {
            let (x, y) = (x.as_f64().unwrap(), y.as_f64().unwrap());
            assert!(
                (x - y).abs() <= 1e-6 + 1e-6 * x.abs().max(y.abs()),
                "{path}: {x} vs {y}; regenerate with `cargo test --test demo -- --ignored regenerate_demo_profile`"
            );
        }
        (Value::Array(x), Value::Array(y)) => {
            assert_eq!(x.len(), y.len(), "{path}: lengths differ");
            for (i, (p, q)) in x.iter().zip(y).enumerate() {
                assert_json_close(p, q, &format!("{path}[{i}]"));
            }
        }
        (Value::Object(x), Value::Object(y)) => {
            let kx: BTreeSet<_> = x.keys().collect();
            let ky: BTreeSet<_> = y.keys().collect();
            assert_eq!(kx, ky, "{path}: fields differ");
            for (k, v) in x {
                assert_json_close(v, &y[k], &format!("{path}.{k}"));
            }
        }
        _ => assert_eq!(a, b, "{path}"),
    }
}

fn calibration_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("calibration")
}

/// The shipped `calibration/demo.json` (and its reference image) is what the calibration pipeline
/// makes of the demo scene today, and it describes that scene truly.
#[test]
fn the_shipped_demo_profile_matches_the_demo_scene() {
    let _s = serial();
    let demo = DemoGame::load().unwrap();
    let scene = demo.scene();
    let made = calibrate_demo_scene(scene).unwrap();
    let path = calibration_dir().join("demo.json");
    let shipped = Profile::load(&path).unwrap();
    assert_eq!(
        octoref::capture::demo::shipped_demo_profile().unwrap(),
        shipped,
        "the compiled-in copy is the file"
    );
    assert_json_close(
        &serde_json::to_value(&made.profile).unwrap(),
        &serde_json::to_value(&shipped).unwrap(),
        "demo.json",
    );
    let reference = shipped.reference.as_ref().unwrap();
    assert_eq!(reference.file, DEMO_REFERENCE_FILE);
    let on_disk = std::fs::read(calibration_dir().join(DEMO_REFERENCE_FILE)).unwrap();
    assert_eq!(on_disk, octoref::capture::demo::DEMO_REFERENCE_PNG);
    let decode =
        |b: &[u8]| imgcodecs::imdecode(&Vector::<u8>::from_slice(b), imgcodecs::IMREAD_COLOR).unwrap();
    let (a, b) = (decode(&on_disk), decode(&made.reference_png));
    assert_eq!((a.cols(), a.rows()), (b.cols(), b.rows()));
    let d = mean_abs_diff(&a, &b);
    assert!(
        d < 0.05,
        "the reference image differs by {d:.3} grey levels: regenerate it"
    );

    // Against the scene's truth.
    assert!(shipped.reprojection_px < 0.5, "{}", shipped.reprojection_px);
    let counter = shipped.counter.as_ref().unwrap();
    assert_eq!(counter.report.beads, scene.beads);
    assert_eq!(counter.report.crab, 0);
    assert!(counter.start_certain);
    let ocean = &shipped.ocean.as_ref().unwrap().polygon_mm;
    let truth = scene.ocean();
    let mean = ocean
        .points()
        .iter()
        .map(|&p| truth.distance_to_outline(p))
        .sum::<f64>()
        / ocean.len() as f64;
    assert!(
        mean < 3.0,
        "the ocean line is {mean:.2} mm off the string on average"
    );
    assert_eq!(
        (shipped.image_size.width, shipped.image_size.height),
        (scene.camera.intrinsics.width, scene.camera.intrinsics.height)
    );
}

/// Rewrites the shipped demo profile and reference image from the demo scene.
#[test]
#[ignore]
fn regenerate_demo_profile() {
    let demo = DemoGame::load().unwrap();
    let made = calibrate_demo_scene(demo.scene()).unwrap();
    let dir = calibration_dir();
    std::fs::create_dir_all(&dir).unwrap();
    let path = write_demo_profile(&made, &dir).unwrap();
    eprintln!(
        "wrote {} and {}",
        path.display(),
        dir.join(DEMO_REFERENCE_FILE).display()
    );
}

/// Writes every table state of the demo as a JPEG (OCTOREF_DEMO_PREVIEW=dir) with a summary.
#[test]
#[ignore]
fn preview_states() {
    let dir = std::env::var("OCTOREF_DEMO_PREVIEW").unwrap_or_else(|_| "/tmp/octoref_demo_preview".into());
    std::fs::create_dir_all(&dir).unwrap();
    let demo = DemoGame::load().unwrap();
    let only: Option<BTreeSet<usize>> = std::env::var("STATES")
        .ok()
        .map(|s| s.split(',').map(|x| x.parse().unwrap()).collect());
    for s in demo.states() {
        let step = &demo.steps()[s.step];
        eprintln!(
            "state {:3} step {:2} {:?} obstructed {} {}",
            s.index, s.step, s.phase, s.truth.obstructed, step.caption
        );
        if only.as_ref().is_some_and(|o| !o.contains(&s.index)) {
            continue;
        }
        let img = demo.render(s.index).unwrap();
        imgcodecs::imwrite_def(format!("{dir}/state_{:03}.jpg", s.index).as_str(), &img).unwrap();
    }
}

/// Prints what the demo costs: a render per table state, and a delivered frame (noise, plus a
/// decode at each change of state). `cargo test --test demo -- --ignored --nocapture measure`.
#[test]
#[ignore]
fn measure_demo_costs() {
    let _s = serial();
    let demo = DemoGame::load().unwrap();
    let start = Instant::now();
    for i in 0..5 {
        demo.render(i).unwrap();
    }
    let render = start.elapsed().as_secs_f64() / 5.0;
    let (mut source, handle) = DemoSource::new(DemoConfig {
        fps: None,
        speedup: 20.0,
        lookahead: 2,
        ..DemoConfig::default()
    });
    source.open().unwrap();
    let stop = StopSignal::new();
    while handle.stats().render.renders < 3 {
        std::thread::sleep(Duration::from_millis(50));
    }
    let frames = 300;
    let start = Instant::now();
    for _ in 0..frames {
        source.next_frame(&stop).unwrap();
    }
    let frame = start.elapsed().as_secs_f64() / frames as f64;
    eprintln!(
        "render per state: {:.0} ms; delivered frame: {:.2} ms ({:.0} fps unpaced); {:?}",
        render * 1e3,
        frame * 1e3,
        1.0 / frame,
        handle.stats()
    );
}
