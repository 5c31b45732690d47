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

use octoref::capture::{
    CaptureError, CaptureWorker, Frame, FrameLayout, FrameSource, PixelFormat, SourceInfo, SourceKind,
    StopSignal, WorkerConfig, decode_frame,
};
use octoref::live::{LiveCalibration, LiveConfig, LiveReferee, LiveSnapshot};
use octoref::referee::GameContext;
use octoref::synth::{Faults, Layout, LightingChange, Resolution, Scene, SceneSpec, encode_jpeg, render_frame};
use octoref::table::Catalog;
use octoref::vision::synthetic::prepare;
use octoref::vision::tracking::{Commit, TrackerConfig};
use opencv::core::{Mat, Size};
use opencv::imgproc;
use opencv::prelude::*;
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
    /// No frame for `for_ms` (read timeouts).
    Stall { for_ms: u64 },
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
                Step::Stall { for_ms } => {
                    let d = Duration::from_millis(*for_ms);
                    self.steps.pop_front();
                    if stop.sleep(d) {
                        return Err(CaptureError::Stopped);
                    }
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
        let (source, gate) = Playlist::new(steps);
        let capture = CaptureWorker::spawn_source(source, worker_config(), || {}).unwrap();
        let referee = LiveReferee::start(
            fixture().cal.clone(),
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
            assert!(Instant::now() < deadline, "timed out; last snapshot: {:?}", s.faults);
            std::thread::sleep(Duration::from_millis(5));
        }
    }
}

/// What a commit says, measurements left out: two commits that agree here tell the players the
/// same.
fn digest(c: &Commit) -> String {
    format!("{:?}", c.digest)
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
    for s in history {
        let c = s.committed.as_ref().expect("the committed reading stays");
        assert_eq!(digest(c), digest(committed), "the committed reading flipped during {during}");
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
