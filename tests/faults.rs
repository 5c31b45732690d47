//! Faults at the table (reliability issue, item 1), each injected through a frame source into
//! the capture worker and the live referee, on rendered synthetic frames with their truth; and
//! nothing lost (item 2): SIGKILL mid-game, damaged game logs and profiles.
//!
//! Every test asserts three things: the fault is reported, the committed reading never flips to
//! a wrong one during it, and normal service resumes after it.
//!
//! The frame source here ([`Playlist`]) plays pre-rendered pictures through the camera's own
//! decoder (`capture::decode_frame`, MJPEG), with unplugs, stalls and corrupt frames, one frame
//! per credit the test grants: each test is deterministic however slow the machine.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use octoref::capture::{
    CaptureError, CaptureWorker, Frame, FrameLayout, FrameSource, PixelFormat, SourceInfo, SourceKind,
    StopSignal, WorkerConfig, decode_frame,
};
use octoref::live::{LiveCalibration, LiveConfig, LiveReferee, LiveSnapshot};
use octoref::referee::GameContext;
use octoref::synth::{
    CameraNudge, Faults, Layout, LightingChange, Resolution, Scene, SceneSpec, encode_jpeg, render_frame,
};
use octoref::table::Catalog;
use octoref::vision::synthetic::prepare;
use octoref::vision::tracking::{Commit, TrackerConfig};
use opencv::core::{Mat, Size};
use opencv::imgproc;
use std::collections::VecDeque;
use std::sync::{Arc, Condvar, Mutex, OnceLock};
use std::time::{Duration, Instant};

// ---------------------------------------------------------------------------------------------
// The scene and its pictures

struct Fixture {
    scene: Scene,
    layout: Layout,
    cal: LiveCalibration,
    /// The set-up table, clean.
    clean: Mat,
}

fn fixture() -> &'static Fixture {
    static F: OnceLock<Fixture> = OnceLock::new();
    F.get_or_init(|| {
        let mut spec = SceneSpec::new(7, 2);
        spec.resolution = Some(Resolution::HD);
        spec.distortion = Some(false);
        let sc = prepare(&spec, 1, |_| Faults::none()).unwrap();
        let layout = sc.scene.layout(0).unwrap();
        Fixture {
            clean: sc.frames[0].image.clone(),
            cal: LiveCalibration {
                profile: sc.profile,
                reference: sc.reference,
            },
            scene: sc.scene,
            layout,
        }
    })
}

/// The set-up table with `faults`, rendered as frame `index` would be (the hand's pose and the
/// sensor noise depend on it).
fn render(faults: &Faults, index: usize) -> Mat {
    let f = fixture();
    let mut layout = f.layout.clone();
    layout.frame = index;
    let frame = f.scene.frame_from(layout, faults).unwrap();
    render_frame(&f.scene, &frame.layout, &frame.options).unwrap()
}

fn jpeg(image: &Mat) -> Arc<Vec<u8>> {
    Arc::new(encode_jpeg(image, 92).unwrap())
}

fn resized(image: &Mat, w: i32, h: i32) -> Mat {
    let mut out = Mat::default();
    imgproc::resize(image, &mut out, Size::new(w, h), 0.0, 0.0, imgproc::INTER_AREA).unwrap();
    out
}

// ---------------------------------------------------------------------------------------------
// The frame source

#[derive(Debug, Clone)]
enum Step {
    /// `count` frames of this picture (MJPEG bytes).
    Show(Arc<Vec<u8>>, u32),
    /// Bytes the decoder must refuse.
    Corrupt(Vec<u8>),
    /// Unplugged for `for_ms`; comes back delivering frames of `size` (the pictures resized).
    Unplug { for_ms: u64, size: Option<(i32, i32)> },
}

#[derive(Debug, Default)]
struct Gate {
    credits: Mutex<u32>,
    cv: Condvar,
}

/// A camera playing a script, one frame per credit.
#[derive(Debug)]
struct Playlist {
    steps: VecDeque<Step>,
    gate: Arc<Gate>,
    size: (i32, i32),
    open: bool,
    unplugged_until: Option<Instant>,
    come_back_as: Option<(i32, i32)>,
    seq: u64,
    connection: u32,
}

impl Playlist {
    fn new(steps: Vec<Step>) -> (Self, Arc<Gate>) {
        let gate = Arc::new(Gate::default());
        (
            Self {
                steps: steps.into(),
                gate: Arc::clone(&gate),
                size: (1280, 720),
                open: false,
                unplugged_until: None,
                come_back_as: None,
                seq: 0,
                connection: 0,
            },
            gate,
        )
    }
}

fn wait_credit(gate: &Gate, stop: &StopSignal) -> Result<(), CaptureError> {
    let mut c = gate.credits.lock().unwrap();
    while *c == 0 {
        if stop.is_stopped() {
            return Err(CaptureError::Stopped);
        }
        c = gate.cv.wait_timeout(c, Duration::from_millis(20)).unwrap().0;
    }
    *c -= 1;
    Ok(())
}

impl FrameSource for Playlist {
    fn open(&mut self) -> Result<SourceInfo, CaptureError> {
        if let Some(until) = self.unplugged_until {
            if Instant::now() < until {
                return Err(CaptureError::Disconnected("unplugged".into()));
            }
            self.unplugged_until = None;
        }
        if let Some(s) = self.come_back_as.take() {
            self.size = s;
        }
        self.open = true;
        self.connection += 1;
        Ok(SourceInfo {
            kind: SourceKind::Fake,
            name: "playlist".into(),
            width: self.size.0 as u32,
            height: self.size.1 as u32,
            fps: 0.0,
            pixel_format: Some(PixelFormat::Mjpeg),
        })
    }

    fn next_frame(&mut self, stop: &StopSignal) -> Result<Frame, CaptureError> {
        if !self.open {
            return Err(CaptureError::Disconnected("not open".into()));
        }
        let gate = Arc::clone(&self.gate);
        loop {
            let Some(step) = self.steps.front_mut() else {
                // Played out: wait for the stop.
                stop.sleep(Duration::from_millis(20));
                return Err(CaptureError::Stalled(Duration::ZERO));
            };
            match step {
                Step::Show(_, 0) => {
                    self.steps.pop_front();
                }
                Step::Show(bytes, count) => {
                    wait_credit(&gate, stop)?;
                    *count -= 1;
                    let mut image = decode_frame(
                        bytes,
                        FrameLayout {
                            pixel: PixelFormat::Mjpeg,
                            width: 1280,
                            height: 720,
                        },
                    )?;
                    if self.size != (1280, 720) {
                        image = resized(&image, self.size.0, self.size.1);
                    }
                    let frame = Frame {
                        image,
                        seq: self.seq,
                        connection: self.connection,
                        captured_at: Instant::now(),
                        source: SourceKind::Fake,
                        label: Arc::from("playlist"),
                    };
                    self.seq += 1;
                    return Ok(frame);
                }
                Step::Corrupt(bytes) => {
                    let bytes = std::mem::take(bytes);
                    self.steps.pop_front();
                    decode_frame(
                        &bytes,
                        FrameLayout {
                            pixel: PixelFormat::Mjpeg,
                            width: self.size.0 as u32,
                            height: self.size.1 as u32,
                        },
                    )?;
                    panic!("the decoder accepted a corrupt frame");
                }
                Step::Unplug { for_ms, size } => {
                    self.unplugged_until = Some(Instant::now() + Duration::from_millis(*for_ms));
                    self.come_back_as = *size;
                    self.steps.pop_front();
                    self.open = false;
                    return Err(CaptureError::Disconnected("unplugged".into()));
                }
            }
        }
    }

    fn close(&mut self) {
        self.open = false;
    }
}

// ---------------------------------------------------------------------------------------------
// The table: capture worker + live referee, driven frame by frame

/// Thresholds shortened so a test needs few frames (the logic is the same).
fn quick_config() -> LiveConfig {
    LiveConfig {
        tracker: TrackerConfig {
            settle_frames: 3,
            confirm_hits: 2,
            confirm_window_frames: 3,
            ..TrackerConfig::default()
        },
        reading_interval_frames: 2,
        light_stable_frames: 3,
        view_check_every_frames: 4,
        no_frames_after: Duration::from_millis(800),
        ..LiveConfig::default()
    }
}

fn worker_config() -> WorkerConfig {
    WorkerConfig {
        backoff_first: Duration::from_millis(20),
        backoff_max: Duration::from_millis(100),
        ..WorkerConfig::default()
    }
}

struct Table {
    referee: LiveReferee,
    capture: CaptureWorker,
    gate: Arc<Gate>,
    /// Every snapshot seen after a frame, in order.
    history: Vec<Arc<LiveSnapshot>>,
}

impl Table {
    fn new(steps: Vec<Step>, config: LiveConfig) -> Self {
        Self::calibrated(steps, config, fixture().cal.clone())
    }

    /// A table refereed with its own calibration.
    fn calibrated(steps: Vec<Step>, config: LiveConfig, cal: LiveCalibration) -> Self {
        let (source, gate) = Playlist::new(steps);
        let capture = CaptureWorker::spawn_source(source, worker_config(), || {}).unwrap();
        let referee = LiveReferee::start(
            cal,
            Catalog::default_catalog(),
            GameContext::default(),
            config,
            Box::new(|| {}),
        )
        .unwrap();
        Self {
            referee,
            capture,
            gate,
            history: Vec::new(),
        }
    }

    /// Lets the camera deliver one frame, hands it to the referee and waits until the referee
    /// has taken it. Returns the snapshot after it.
    fn step(&mut self) -> Arc<LiveSnapshot> {
        *self.gate.credits.lock().unwrap() += 1;
        self.gate.cv.notify_all();
        let frame = self
            .capture
            .wait_frame(Duration::from_secs(30))
            .expect("the camera delivers a frame");
        self.offer(&frame)
    }

    fn offer(&mut self, frame: &Frame) -> Arc<LiveSnapshot> {
        let before = self.referee.snapshot().frames_received;
        self.referee.offer(frame);
        let s = self.wait(|s| s.frames_received > before);
        self.history.push(Arc::clone(&s));
        s
    }

    fn steps(&mut self, n: usize) -> Arc<LiveSnapshot> {
        let mut last = self.referee.snapshot();
        for _ in 0..n {
            last = self.step();
        }
        last
    }

    fn wait(&self, done: impl Fn(&LiveSnapshot) -> bool) -> Arc<LiveSnapshot> {
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            let s = self.referee.snapshot();
            if done(&s) {
                return s;
            }
            assert!(
                Instant::now() < deadline,
                "timed out; last snapshot: {:?}",
                s.faults
            );
            std::thread::sleep(Duration::from_millis(5));
        }
    }
}

/// What a commit rules, measurements and questions left out: every piece (stable id, class,
/// load, in or out of the ocean) and, per player, the closest, flickable and forbidden treasures,
/// what is out of the ocean and must be re-dropped. Two commits that agree here rule the same.
/// (Questions are left out: a "low confidence" question asks the players to look, it rules
/// nothing.)
fn digest(c: &Commit) -> String {
    let d = &c.digest;
    format!(
        "{:?} {:?} {:?} {:?} {:?}",
        d.pieces, d.rulings.players, d.rulings.out_of_ocean, d.rulings.redrop, d.rulings.next_load
    )
}

/// Plays the clean table until a commit; returns it.
fn settle(table: &mut Table, max_frames: usize) -> Commit {
    for _ in 0..max_frames {
        let s = table.step();
        if let Some(c) = &s.committed {
            return c.clone();
        }
    }
    panic!("no commit on a clean table after {max_frames} frames");
}

/// The committed reading never changed to another one in these snapshots.
fn assert_held(history: &[Arc<LiveSnapshot>], committed: &Commit, during: &str) {
    let first = history.iter().position(|s| s.committed.is_some()).unwrap_or(0);
    for s in &history[first..] {
        eprintln!(
            "{during}: frame {:?} faults {:?} settling {} shift {:?} light {:?}",
            s.frame_seq,
            names(s),
            s.settling,
            s.view_shift_mm,
            s.light.map(|l| l.bgr)
        );
        let c = s.committed.as_ref().expect("the committed reading stays");
        assert_eq!(
            digest(c),
            digest(committed),
            "the committed reading flipped during {during}"
        );
    }
}

// ---------------------------------------------------------------------------------------------
// The tests

#[test]
fn a_clean_table_commits_a_reading_of_its_pieces() {
    let f = fixture();
    let mut t = Table::new(vec![Step::Show(jpeg(&f.clean), 40)], quick_config());
    let c = settle(&mut t, 30);
    assert!(c.frame.pieces.len() >= 5, "pieces: {}", c.frame.pieces.len());
    let s = t.steps(4);
    assert!(s.faults.is_empty(), "{:?}", s.faults);
    assert!(!s.rulings_paused);
    eprintln!("analysis {:?} ms", s.analysis_ms);
}

/// The picture's labels (the newest frame's reading, drawn over the camera picture) name every
/// piece as the settled rulings beside it do: an id in both is one piece (its class, its place),
/// and a piece the rulings know is never shown under another id.
#[test]
fn the_pictures_labels_name_the_pieces_as_the_rulings_do() {
    use octoref::vision::tracking::PieceClass;
    let f = fixture();
    let mut t = Table::new(vec![Step::Show(jpeg(&f.clean), 40)], quick_config());
    settle(&mut t, 30);
    let s = t.steps(3);
    let latest = s.latest.as_ref().expect("a reading of the newest frame");
    let committed = &s.committed.as_ref().expect("a settled reading").frame;
    let mut named = 0;
    for p in &latest.pieces {
        let Some(q) = committed.pieces.iter().find(|q| q.id == p.id) else {
            assert!(p.id.starts_with("new"), "{} is in neither reading", p.id);
            continue;
        };
        named += 1;
        assert_eq!(
            PieceClass::of(p),
            PieceClass::of(q),
            "{} is another piece in the rulings",
            p.id
        );
        let d = p.center_mm.distance(q.center_mm);
        assert!(d < 15.0, "{} is {d:.0} mm from the rulings' {}", p.id, q.id);
    }
    assert!(
        named * 10 >= committed.pieces.len() * 8,
        "{named} of {} named",
        committed.pieces.len()
    );
    // The marks beside the rulings name pieces of the picture.
    if let Some(r) = &latest.rulings {
        for id in &r.out_of_ocean {
            assert!(latest.pieces.iter().any(|p| &p.id == id), "{id}");
        }
        for pr in r.players.values() {
            for g in &pr.gaps_mm {
                assert!(latest.pieces.iter().any(|p| p.id == g.id), "{}", g.id);
            }
        }
    }
}

/// Plays `faulty` for `n` frames after a commit on the clean table, then the clean table again:
/// returns (the commit before, the snapshots during the fault, the commit after).
fn through_fault(faulty: &Mat, n: u32, after: u32) -> (Commit, Vec<Arc<LiveSnapshot>>, Table) {
    let f = fixture();
    let mut t = Table::new(
        vec![
            Step::Show(jpeg(&f.clean), 12),
            Step::Show(jpeg(faulty), n),
            Step::Show(jpeg(&f.clean), after),
        ],
        quick_config(),
    );
    let before = settle(&mut t, 12);
    let settled_at = t.history.len();
    let rest = 12 - settled_at;
    t.steps(rest);
    let from = t.history.len();
    t.steps(n as usize);
    let during = t.history[from..].to_vec();
    (before, during, t)
}

fn names(s: &LiveSnapshot) -> Vec<&'static str> {
    s.faults.iter().map(|f| f.name()).collect()
}

#[test]
fn the_camera_unplugged_is_noticed_and_the_game_resumes_when_it_is_back() {
    let f = fixture();
    let clean = jpeg(&f.clean);
    let mut t = Table::new(
        vec![
            Step::Show(Arc::clone(&clean), 12),
            Step::Unplug {
                for_ms: 2000,
                size: None,
            },
            Step::Show(clean, 10),
        ],
        quick_config(),
    );
    let before = settle(&mut t, 12);
    while t.history.len() < 12 {
        t.step();
    }
    // Unplugged: no frame reaches the referee; it says so and holds the committed reading.
    let s = t.wait(|s| s.fault("no_frames").is_some());
    assert!(s.rulings_paused);
    assert_eq!(digest(s.committed.as_ref().unwrap()), digest(&before));
    assert!(
        s.faults[0].message().contains("No picture"),
        "{}",
        s.faults[0].message()
    );
    // Back: frames flow again, the fault clears, the same reading is committed.
    let s = t.steps(6);
    assert!(t.capture.snapshot().stats.reconnects >= 1);
    assert!(s.fault("no_frames").is_none(), "{:?}", names(&s));
    assert_held(&t.history, &before, "the unplug");
    assert!(s.faults.is_empty(), "{:?}", names(&s));
}

#[test]
fn a_camera_back_at_another_size_of_the_same_shape_is_scaled_and_the_game_goes_on() {
    let f = fixture();
    let clean = jpeg(&f.clean);
    let mut t = Table::new(
        vec![
            Step::Show(Arc::clone(&clean), 12),
            Step::Unplug {
                for_ms: 100,
                size: Some((960, 540)),
            },
            Step::Show(clean, 16),
        ],
        quick_config(),
    );
    let before = settle(&mut t, 12);
    while t.history.len() < 12 {
        t.step();
    }
    let analysed = t.referee.snapshot().frames_analysed;
    let s = t.steps(16);
    assert!(
        matches!(
            s.fault("calibration_scaled"),
            Some(octoref::live::LiveFault::CalibrationScaled {
                calibrated: (1280, 720),
                frames: (960, 540)
            })
        ),
        "{:?}",
        s.faults
    );
    assert!(!s.rulings_paused, "{:?}", names(&s));
    assert_eq!(
        s.frames_analysed,
        analysed + 16,
        "every smaller frame is analysed"
    );
    assert_held(&t.history, &before, "the resolution change");
    let c = s.committed.as_ref().unwrap();
    assert!(
        c.measured_seq > before.measured_seq,
        "readings go on at the new size"
    );
}

#[test]
fn a_camera_back_at_another_shape_pauses_rulings_until_it_is_set_back() {
    let f = fixture();
    let clean = jpeg(&f.clean);
    let mut t = Table::new(
        vec![
            Step::Show(Arc::clone(&clean), 12),
            Step::Unplug {
                for_ms: 100,
                size: Some((640, 480)),
            },
            Step::Show(Arc::clone(&clean), 6),
            Step::Unplug {
                for_ms: 100,
                size: Some((1280, 720)),
            },
            Step::Show(clean, 10),
        ],
        quick_config(),
    );
    let before = settle(&mut t, 12);
    while t.history.len() < 12 {
        t.step();
    }
    let analysed = t.referee.snapshot().frames_analysed;
    let s = t.steps(6);
    let fault = s.fault("resolution_changed").expect("reported");
    assert!(fault.message().contains("640x480") && fault.message().contains("1280x720"));
    assert!(s.rulings_paused);
    assert_eq!(
        s.frames_analysed, analysed,
        "frames of another shape are not analysed"
    );
    let s = t.steps(10);
    assert!(s.faults.is_empty(), "{:?}", names(&s));
    assert!(s.frames_analysed >= analysed + 10);
    assert_held(&t.history, &before, "the resolution change");
}

#[test]
fn corrupt_and_truncated_frames_are_counted_and_skipped() {
    let f = fixture();
    let clean = jpeg(&f.clean);
    let half = clean[..clean.len() / 2].to_vec();
    let mut garbage = vec![0u8; 4096];
    garbage[0] = 0xFF;
    garbage[1] = 0xD8;
    let mut t = Table::new(
        vec![
            Step::Show(Arc::clone(&clean), 12),
            Step::Corrupt(half.clone()),
            Step::Corrupt(Vec::new()),
            Step::Corrupt(garbage),
            Step::Show(clean, 12),
        ],
        quick_config(),
    );
    let before = settle(&mut t, 12);
    while t.history.len() < 12 {
        t.step();
    }
    // The camera's decoder refuses bad MJPEG data: the capture worker counts and skips it.
    t.step();
    assert_eq!(t.capture.snapshot().stats.corrupt, 3);
    // What a decoder lets through anyway reaches the referee: a truncated JPEG decoded with its
    // missing rows filled in, an empty picture, a grey one.
    let analysed = t.referee.snapshot().frames_analysed;
    let cut = opencv::imgcodecs::imdecode(
        &opencv::core::Vector::<u8>::from_slice(&half),
        opencv::imgcodecs::IMREAD_COLOR,
    )
    .unwrap();
    let grey =
        Mat::new_rows_cols_with_default(720, 1280, opencv::core::CV_8UC1, opencv::core::Scalar::all(90.0))
            .unwrap();
    for image in [cut, Mat::default(), grey] {
        let frame = Frame {
            image,
            seq: 1000,
            connection: 1,
            captured_at: Instant::now(),
            source: SourceKind::Fake,
            label: Arc::from("bad"),
        };
        t.offer(&frame);
    }
    let s = t.referee.snapshot();
    assert_eq!(s.frames_analysed, analysed, "bad frames are never analysed");
    assert_eq!(s.frames_corrupt, 3);
    assert!(matches!(
        s.fault("corrupt_frames"),
        Some(octoref::live::LiveFault::CorruptFrames { count: 3 })
    ));
    let s = t.steps(8);
    assert_eq!(s.frames_analysed, analysed + 8, "good frames after them are");
    assert!(s.fault("analysis_failed").is_none());
    assert_held(&t.history, &before, "the corrupt frames");
}

/// Still synthetic tables as `octoref synth --seed N --players 3 --resolution 1280x720` renders
/// them, calibrated as `octoref calibrate` does: their cloth has little texture, and chance
/// feature matches (25-50 of 190-320 agreeing on a wild homography) read as the view moved by
/// 70-320 mm at the first view checks. Played as the game's frames, then the last one held, the
/// view never moves and the rulings never pause.
#[test]
fn a_still_table_never_reads_as_moved() {
    const FRAMES: usize = 12;
    const HELD: u32 = 24;
    for seed in [1, 3, 8] {
        let mut spec = SceneSpec::new(seed, 3);
        spec.resolution = Some(Resolution::HD);
        let sc = prepare(&spec, FRAMES, |_| Faults::none()).unwrap();
        let mut steps: Vec<Step> = sc.frames.iter().map(|f| Step::Show(jpeg(&f.image), 1)).collect();
        steps.push(Step::Show(jpeg(&sc.frames[FRAMES - 1].image), HELD));
        let cal = LiveCalibration {
            profile: sc.profile,
            reference: sc.reference,
        };
        let mut t = Table::calibrated(steps, quick_config(), cal);
        for _ in 0..FRAMES + HELD as usize {
            let s = t.step();
            assert!(
                s.fault("view_moved").is_none() && !s.rulings_paused,
                "seed {seed}, frame {:?}: {:?}, shift {:?} mm",
                s.frame_seq,
                names(&s),
                s.view_shift_mm
            );
        }
        let s = t.referee.snapshot();
        assert!(s.view_shift_mm.is_some(), "seed {seed}: the view was checked");
        assert!(s.committed.is_some(), "seed {seed}: the still table was ruled on");
    }
}

#[test]
fn a_moved_view_pauses_rulings_and_a_reregistration_keeps_the_game() {
    let nudged = render(
        &Faults {
            camera_nudge: Some(CameraNudge::default()),
            ..Faults::none()
        },
        5,
    );
    let f = fixture();
    let mut t = Table::new(
        vec![
            Step::Show(jpeg(&f.clean), 12),
            Step::Show(jpeg(&nudged), 20),
            Step::Show(jpeg(&f.clean), 20),
        ],
        quick_config(),
    );
    let before = settle(&mut t, 12);
    while t.history.len() < 12 {
        t.step();
    }
    // The camera is bumped: reported, rulings paused, the committed reading held.
    let from = t.history.len();
    let s = t.steps(6);
    let moved = s.fault("view_moved").expect("the moved view is reported");
    assert!(moved.message().contains("re-calibrate"));
    assert!(s.rulings_paused);
    assert!(s.view_shift_mm.unwrap() > 6.0, "{:?}", s.view_shift_mm);
    // The quick re-registration re-fits the view to the bumped camera: the fault clears and the
    // game (the same pieces, the same ids) goes on.
    t.referee.reregister();
    let s = t.steps(14);
    let outcome = s.reregistration.clone().unwrap_or_default();
    assert!(outcome.starts_with("re-registered"), "{outcome}");
    assert!(s.fault("view_moved").is_none(), "{:?}", names(&s));
    // The camera is put back where it was: the view moved again, and a second re-registration
    // returns to the original view, where readings resume as before.
    let s = t.steps(6);
    assert!(s.fault("view_moved").is_some(), "{:?}", names(&s));
    t.referee.reregister();
    let s = t.steps(14);
    assert!(
        s.fault("view_moved").is_none(),
        "{:?} {:?}",
        names(&s),
        s.reregistration
    );
    assert_held(&t.history[from..], &before, "the moved view");
    let after = s.committed.as_ref().unwrap();
    assert!(after.measured_seq > before.measured_seq, "readings resumed");
    assert_eq!(digest(after), digest(&before));
}

/// The truth of the set-up table as frame `index` shows it with `faults`.
fn truth_of(faults: &Faults, index: usize) -> octoref::synth::FrameTruth {
    let f = fixture();
    let mut layout = f.layout.clone();
    layout.frame = index;
    let frame = f.scene.frame_from(layout, faults).unwrap();
    octoref::synth::frame_truth(&f.scene, &frame, "truth").unwrap()
}

/// Each matched piece's distance from its true place, mm, sorted (beads left out).
fn position_errors_mm(
    truth: &octoref::synth::FrameTruth,
    reading: &octoref::referee::FrameReport,
) -> Vec<f64> {
    use octoref::vision::evaluate::{score_frame, truth_report};
    let ruled = truth_report(truth, &GameContext::default()).unwrap();
    let score = score_frame(truth, &ruled, reading);
    let mut e: Vec<f64> = score.errors_mm.iter().map(|(_, d)| *d).collect();
    e.sort_by(f64::total_cmp);
    e
}

#[test]
fn after_a_nudge_the_reregistered_view_rules_again_and_measures_as_calibrated() {
    let bump = Faults {
        camera_nudge: Some(CameraNudge::default()),
        ..Faults::none()
    };
    let nudged = render(&bump, 5);
    let f = fixture();
    let mut t = Table::new(
        vec![Step::Show(jpeg(&f.clean), 12), Step::Show(jpeg(&nudged), 40)],
        quick_config(),
    );
    let before = settle(&mut t, 12);
    while t.history.len() < 12 {
        t.step();
    }
    let clean_errors = position_errors_mm(&truth_of(&Faults::none(), 0), &before.frame);
    let last_before = t.referee.snapshot().committed.as_ref().unwrap().measured_seq;
    let s = t.steps(6);
    assert!(s.fault("view_moved").is_some(), "{:?}", names(&s));
    assert!(s.rulings_paused);
    t.referee.reregister();
    // Rulings resume on the nudged camera: a new committed reading, no fault left but, at most,
    // a piece the bumped camera no longer sees at the edge of its view (said, and not pausing).
    let mut resumed = None;
    for _ in 0..20 {
        let s = t.step();
        if !s.rulings_paused
            && s.faults
                .iter()
                .all(|f| matches!(f, octoref::live::LiveFault::PiecesOutOfView { .. }))
            && s.committed
                .as_ref()
                .is_some_and(|c| c.measured_seq > last_before + 6)
        {
            resumed = Some(s);
            break;
        }
    }
    let s = resumed.unwrap_or_else(|| {
        let s = t.referee.snapshot();
        panic!(
            "rulings did not resume after the re-registration: faults {:?}, paused {}, settling {}, {:?}",
            names(&s),
            s.rulings_paused,
            s.settling,
            s.reregistration
        )
    });
    let outcome = s.reregistration.clone().unwrap_or_default();
    assert!(outcome.contains("whole table aligned"), "{outcome}");
    assert!(!s.rulings_paused && !s.settling);
    let after = s.committed.as_ref().unwrap();
    // The game is kept: the pieces keep their ids. (Vision reads one piece of this scene, the
    // orange anchor beside its ship, as a chest from several nudged viewpoints when the profile's
    // focal length is the single-view estimate; with the exact camera it reads it right. That is
    // vision's, not the registration's: at most one piece may be read differently.)
    let classes = |c: &Commit| -> std::collections::BTreeMap<String, String> {
        c.digest
            .pieces
            .iter()
            .map(|p| (p.id.clone(), format!("{:?}", p.class)))
            .collect()
    };
    let (was, now) = (classes(&before), classes(after));
    let kept = was
        .iter()
        .filter(|(id, class)| now.get(*id) == Some(class))
        .count();
    assert!(
        kept + 1 >= was.len(),
        "ids kept {kept} of {}: {was:?} -> {now:?}",
        was.len()
    );
    // Positions on the nudged camera's picture are as good as on the calibrated one's.
    let nudged_errors = position_errors_mm(&truth_of(&bump, 5), &after.frame);
    eprintln!("calibrated view: {clean_errors:.2?}");
    eprintln!("nudged + re-registered: {nudged_errors:.2?}");
    let worst = |e: &[f64]| e.last().copied().unwrap_or(f64::INFINITY);
    let median = |e: &[f64]| e[e.len() / 2];
    assert!(
        nudged_errors.len() + 1 >= clean_errors.len(),
        "pieces lost: {nudged_errors:?}"
    );
    let p90 = |e: &[f64]| e[e.len() * 9 / 10];
    assert!(p90(&nudged_errors) <= 3.0, "{nudged_errors:?}");
    // The worst piece is vision's own worst (4.1 mm on the calibrated view here), not the view's.
    assert!(
        worst(&nudged_errors) <= worst(&clean_errors).max(3.0) + 0.5,
        "{nudged_errors:?} vs {clean_errors:?}"
    );
    assert!(
        median(&nudged_errors) <= median(&clean_errors) + 0.5,
        "{nudged_errors:?} vs {clean_errors:?}"
    );
}

fn lighting(brightness: f64, cast: [f64; 3]) -> Mat {
    render(
        &Faults {
            lighting: Some(LightingChange { brightness, cast }),
            ..Faults::none()
        },
        0,
    )
}

#[test]
fn a_sudden_lighting_change_pauses_rulings_then_adapts_without_flipping_them() {
    for (brightness, cast) in [
        (1.5, [1.0, 1.0, 1.0]),
        (0.5, [1.0, 1.0, 1.0]),
        (1.0, [1.25, 1.0, 0.8]),
    ] {
        let lit = lighting(brightness, cast);
        let (before, during, t) = through_fault(&lit, 14, 2);
        let first = &during[0];
        assert!(
            first.fault("lighting_changed").is_some() && first.rulings_paused,
            "brightness {brightness} cast {cast:?}: {:?} light {:?}",
            names(first),
            first.light
        );
        assert_held(&during, &before, "the lighting change");
        let last = during.last().unwrap();
        assert!(
            last.fault("lighting_changed").is_none(),
            "adapted: {:?}",
            names(last)
        );
        assert!(last.recalibrations >= 1);
        let c = last.committed.as_ref().unwrap();
        assert!(
            c.measured_seq > before.measured_seq,
            "readings resumed under the new light"
        );
        drop(t);
    }
}

#[test]
fn a_hand_over_the_ocean_holds_the_committed_reading_until_the_table_settles() {
    let f = fixture();
    let mut steps = vec![Step::Show(jpeg(&f.clean), 12)];
    for i in 0..8 {
        steps.push(Step::Show(
            jpeg(&render(
                &Faults {
                    hand: true,
                    ..Faults::none()
                },
                100 + i,
            )),
            1,
        ));
    }
    steps.push(Step::Show(jpeg(&f.clean), 12));
    let mut t = Table::new(steps, quick_config());
    let before = settle(&mut t, 12);
    while t.history.len() < 12 {
        t.step();
    }
    let from = t.history.len();
    t.steps(8);
    let during = t.history[from..].to_vec();
    assert!(
        during.iter().any(|s| s.fault("obstructed").is_some()),
        "the hand is reported: {:?}",
        during.iter().map(|s| names(s)).collect::<Vec<_>>()
    );
    assert!(
        during.iter().all(|s| s.settling),
        "no reading while the hand is there"
    );
    assert_held(&during, &before, "the hand");
    let s = t.steps(12);
    assert!(s.faults.is_empty(), "{:?}", names(&s));
    let c = s.committed.as_ref().unwrap();
    assert!(c.measured_seq > before.measured_seq);
    assert_eq!(digest(c), digest(&before));
}

#[test]
fn a_piece_pushed_out_of_view_is_reported_and_stays_in_the_game() {
    let f = fixture();
    // A loose treasure lying off the ocean (out of it, to be re-dropped) is pushed out of view.
    let ocean = f.scene.ocean().clone();
    let gone = f
        .layout
        .pieces
        .iter()
        .find(|p| {
            p.kind == octoref::table::PieceKind::Treasure
                && p.loaded_on.is_none()
                && !ocean.contains(p.center_mm)
        })
        .expect("the set-up has a treasure out of the ocean")
        .clone();
    let mut layout = f.layout.clone();
    layout.pieces.retain(|p| p.id != gone.id);
    let frame = f.scene.frame_from(layout, &Faults::none()).unwrap();
    let without = render_frame(&f.scene, &frame.layout, &frame.options).unwrap();
    let mut t = Table::new(
        vec![
            Step::Show(jpeg(&f.clean), 12),
            Step::Show(jpeg(&without), 20),
            Step::Show(jpeg(&f.clean), 12),
        ],
        quick_config(),
    );
    let before = settle(&mut t, 12);
    while t.history.len() < 12 {
        t.step();
    }
    let from = t.history.len();
    let s = t.steps(20);
    let Some(octoref::live::LiveFault::PiecesOutOfView { ids }) = s.fault("pieces_out_of_view") else {
        panic!("reported: {:?}", names(&s));
    };
    assert_eq!(ids.len(), 1, "{ids:?}");
    let c = s.committed.as_ref().unwrap();
    assert!(
        c.measured_seq > before.measured_seq,
        "the table settled and was read again"
    );
    // Still in the game: the reading keeps it where it was last seen, so the rulings (re-drop
    // it) are those of before.
    assert!(c.frame.pieces.iter().any(|p| p.id == ids[0]));
    assert_held(&t.history[from..], &before, "the push out of view");
    // Back in view: it gets its id back and the fault clears.
    let s = t.steps(12);
    assert!(s.fault("pieces_out_of_view").is_none(), "{:?}", names(&s));
    assert_eq!(digest(s.committed.as_ref().unwrap()), digest(&before));
}

// ---------------------------------------------------------------------------------------------
// Nothing lost (item 2)

use octoref::app::crash_octopus::session::Session;
use octoref::games::crash_octopus::{Event, Flick, Modules, PlayerColor, Record};

/// The game the SIGKILL test plays: misses in turn order.
fn script_events(n: usize) -> Vec<Event> {
    let order = [PlayerColor::Orange, PlayerColor::Green, PlayerColor::Blue];
    (0..n)
        .map(|i| {
            Event::Flick(Flick {
                player: order[i % 3],
                loaded: None,
                toppled: vec![],
            })
        })
        .collect()
}

fn script_record() -> Record {
    let mut r = Record::new(
        vec![PlayerColor::Orange, PlayerColor::Green, PlayerColor::Blue],
        Modules::default(),
    );
    r.beads = Some("BBBKBBBKBBKBBKKK".parse().unwrap());
    r
}

const SIGKILL_LOG_ENV: &str = "OCTOREF_SIGKILL_LOG";
const SIGKILL_EVENTS: usize = 200;

/// The child of `a_game_killed_mid_play_resumes_exactly_where_it_was`: plays the script through
/// the app's session code (apply, then flush as `App::logic` does), one event per line the
/// parent sends (so the parent, not the child's speed, decides where in the game the kill
/// lands), and prints each saved count. Does nothing unless the parent set the log path.
#[test]
#[ignore = "the child process of the SIGKILL test"]
fn sigkill_child() {
    let Ok(path) = std::env::var(SIGKILL_LOG_ENV) else {
        return;
    };
    use std::io::Write;
    let path = std::path::PathBuf::from(path);
    let mut session = match Session::resume(&path) {
        Ok((s, report)) => {
            assert!(report.is_none(), "the log was damaged: {report:?}");
            s
        }
        Err(_) => Session::start(path, script_record()).unwrap(),
    };
    session.flush();
    let done = session.record().events.len();
    let mut out = std::io::stdout();
    let mut go = std::io::BufRead::lines(std::io::stdin().lock());
    for e in script_events(SIGKILL_EVENTS).into_iter().skip(done) {
        if !matches!(go.next(), Some(Ok(_))) {
            return;
        }
        session.apply(e).unwrap();
        session.flush();
        assert!(session.save_error().is_none());
        writeln!(out, "saved {}", session.record().events.len()).unwrap();
        out.flush().unwrap();
    }
}

#[test]
fn a_game_killed_mid_play_resumes_exactly_where_it_was() {
    use std::io::{BufRead, BufReader, Write};
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("game.json");
    let all = script_events(SIGKILL_EVENTS);
    let mut seed = 0x5EED_u64;
    for round in 0..5 {
        let mut child = std::process::Command::new(std::env::current_exe().unwrap())
            .args([
                "--exact",
                "sigkill_child",
                "--ignored",
                "--nocapture",
                "--test-threads=1",
            ])
            .env(SIGKILL_LOG_ENV, &path)
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        // Kill after a pseudo-random number of acknowledged saves (1..=12) at a random moment.
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let wait_saves = 1 + (seed >> 33) % 12;
        let mut acked = 0usize;
        let mut go = child.stdin.take().unwrap();
        let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
        let mut seen = 0;
        while seen < wait_saves {
            writeln!(go, "next").unwrap();
            loop {
                match lines.next() {
                    // (libtest prints "test sigkill_child ... " before the first line.)
                    Some(Ok(l)) if l.contains("saved ") => {
                        acked = l[l.find("saved ").unwrap() + 6..].trim().parse().unwrap();
                        seen += 1;
                        break;
                    }
                    Some(Ok(_)) => {}
                    other => panic!("round {round}: the child stopped: {other:?}"),
                }
            }
        }
        // One more event under way (applied, maybe mid-write) when the kill lands.
        writeln!(go, "next").unwrap();
        std::thread::sleep(Duration::from_micros((seed >> 40) % 3000));
        // SIGKILL: no destructor, no flush, no chance to finish a write.
        let pid = child.id().to_string();
        std::process::Command::new("kill")
            .args(["-9", &pid])
            .status()
            .unwrap();
        child.wait().unwrap();
        let (session, report) = Session::resume(&path).unwrap();
        assert!(
            report.is_none(),
            "round {round}: never a half-written file: {report:?}"
        );
        let kept = &session.record().events;
        // Mid-game: every acknowledged event is on disk, and at most the one under way besides.
        assert!(
            kept.len() >= acked && kept.len() <= acked + 1,
            "round {round}: {} events on disk, {acked} acknowledged",
            kept.len()
        );
        assert!(kept.len() < SIGKILL_EVENTS, "round {round}: killed mid-game");
        assert_eq!(
            kept[..],
            all[..kept.len()],
            "round {round}: exactly a prefix of what was played"
        );
        let leftovers: Vec<_> = std::fs::read_dir(dir.path())
            .unwrap()
            .filter_map(|e| e.ok())
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .filter(|n| n != "game.json" && !n.starts_with(".game.json.tmp"))
            .collect();
        assert!(leftovers.is_empty(), "{leftovers:?}");
    }
}

#[test]
fn a_truncated_game_log_is_reported_with_what_was_recovered_and_the_original_kept() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("game.json");
    let mut s = Session::start(path.clone(), script_record()).unwrap();
    for e in script_events(9) {
        s.apply(e).unwrap();
    }
    s.flush();
    let full = std::fs::read(&path).unwrap();
    let cut = &full[..full.len() * 2 / 3];
    std::fs::write(&path, cut).unwrap();
    let (back, report) = Session::resume(&path).unwrap();
    let report = report.expect("the damage is reported");
    assert!(report.events_kept > 0 && report.events_kept < 9, "{report:?}");
    assert_eq!(back.record().events[..], script_events(9)[..report.events_kept]);
    let kept_as = report.original_kept_as.clone().expect("the original is kept");
    assert_eq!(std::fs::read(&kept_as).unwrap(), cut, "the original, untouched");
    assert!(
        report
            .message()
            .contains(&format!("first {} event", report.events_kept))
    );
}

#[test]
fn a_corrupt_profile_is_refused_naming_the_field_and_left_as_it_was() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("demo.json");
    let good = octoref::capture::demo::DEMO_PROFILE_JSON;
    for (what, bad) in [
        ("truncated", good[..good.len() / 2].to_string()),
        (
            "a wrong field",
            good.replacen("\"mm_per_px\": ", "\"mm_per_px\": -", 1),
        ),
    ] {
        std::fs::write(&path, &bad).unwrap();
        let e = LiveCalibration::load(&path).unwrap_err().to_string();
        assert!(e.contains("demo.json"), "{what}: {e}");
        if what == "a wrong field" {
            assert!(e.contains("mm_per_px"), "{what}: {e}");
        }
        assert_eq!(
            std::fs::read_to_string(&path).unwrap(),
            bad,
            "{what}: never overwritten"
        );
    }
}
