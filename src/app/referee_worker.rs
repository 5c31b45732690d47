//! The app's own live referee: frames in, committed rulings out, on a worker thread.
//!
//! This is the shape of `live::LiveReferee` (`LIVE_API.md`), kept inside the app until the live
//! helper's referee lands; the app only uses [`RefereeWorker::start`], [`RefereeWorker::offer`],
//! [`RefereeWorker::set_context`], [`RefereeWorker::replace_calibration`] and
//! [`RefereeWorker::snapshot`], which are that API's names, so swapping it in changes no caller.
//!
//! What a caller may rely on:
//! - **Never on the caller's thread.** `offer` copies the frame into a one-frame slot and returns;
//!   when the worker is still busy, the waiting frame is replaced (newest frame wins, counted in
//!   `frames_dropped`). Vision (the [`Analyzer`]), the [`Tracker`] and the [`Committer`] all live
//!   on the worker.
//! - **Settled rulings only.** `committed` changes only when the tracker says the table is still
//!   and two readings agree (the committer's gate); while hands are over the ocean `settling` is
//!   true and the committed reading stays as it was.
//! - **Faults in words.** `faults` lists what is wrong with the latest frame (view moved, a hand
//!   over the ocean, frames of the wrong size, a failed analysis), newest first; empty when all is
//!   well.
//! - `on_update` is called after every analysed frame (the app passes `request_repaint`).

use crate::calibrate::profile::Profile;
use crate::capture::Frame;
use crate::referee::{FrameReport, GameContext};
use crate::table::Catalog;
use crate::vision::tracking::{Commit, Committer, FrameObservation, TrackArea, Tracker, TrackerConfig};
use crate::vision::{Analyzer, TaughtModels};
use opencv::core::Mat;
use opencv::prelude::*;
use std::path::Path;
use std::sync::{Arc, Condvar, Mutex, PoisonError};
use std::time::Instant;

/// Why the referee could not start.
#[derive(Debug, thiserror::Error)]
pub enum RefereeStartError {
    #[error(transparent)]
    Profile(#[from] crate::calibrate::ProfileError),
    #[error("the profile has no empty-table reference image (calibrate with the empty set-up table)")]
    NoReference,
    #[error("the empty-table reference image {path} could not be read")]
    ReferenceUnreadable { path: String },
    #[error("the profile has no ocean (calibrate with the empty set-up table)")]
    NoOcean,
    #[error("vision could not be prepared for this profile: {0}")]
    Vision(#[from] crate::vision::VisionError),
    #[error("the tracker could not be prepared: {0}")]
    Tracking(#[from] crate::vision::tracking::TrackingError),
    #[error("the referee's worker thread could not start: {0}")]
    Thread(String),
    #[error("OpenCV: {0}")]
    OpenCv(#[from] opencv::Error),
}

/// Everything the referee needs from a calibration: the profile and its rectified empty table.
#[derive(Debug)]
pub struct RefereeCalibration {
    pub profile: Profile,
    /// BGR, the profile's reference grid size.
    pub reference: Mat,
}

impl RefereeCalibration {
    /// Reads a profile and the reference image it names (next to it).
    pub fn load(path: &Path) -> Result<Self, RefereeStartError> {
        let profile = Profile::load(path)?;
        let reference_path = profile
            .reference_path(path)
            .ok_or(RefereeStartError::NoReference)?;
        let reference = opencv::imgcodecs::imread(
            &reference_path.to_string_lossy().into_owned(),
            opencv::imgcodecs::IMREAD_COLOR,
        )?;
        if reference.empty() {
            return Err(RefereeStartError::ReferenceUnreadable {
                path: reference_path.display().to_string(),
            });
        }
        Ok(RefereeCalibration { profile, reference })
    }

    /// The demo's shipped calibration (compiled in), so the demo works from any directory.
    pub fn demo() -> Result<Self, RefereeStartError> {
        let profile = crate::capture::demo::shipped_demo_profile()
            .map_err(|e| RefereeStartError::Thread(format!("the demo profile: {e}")))?;
        let bytes = opencv::core::Vector::<u8>::from_slice(crate::capture::demo::DEMO_REFERENCE_PNG);
        let reference = opencv::imgcodecs::imdecode(&bytes, opencv::imgcodecs::IMREAD_COLOR)?;
        if reference.empty() {
            return Err(RefereeStartError::ReferenceUnreadable {
                path: crate::capture::demo::DEMO_REFERENCE_FILE.into(),
            });
        }
        Ok(RefereeCalibration { profile, reference })
    }
}

/// What is wrong right now, for a banner.
#[derive(Debug, Clone, PartialEq)]
pub enum RefereeFault {
    /// The string is no longer where the profile says: the camera or the table moved.
    ViewMoved,
    /// A hand or an arm is over the ocean: rulings are held.
    Obstructed,
    /// Frames do not have the profile's size.
    ResolutionChanged {
        expected: (u32, u32),
        got: (u32, u32),
    },
    AnalysisFailed(String),
    /// The calibration cannot be used for rulings (no reference image, no ocean, ...).
    Unusable(String),
}

impl RefereeFault {
    /// In plain words, for the banner.
    pub fn message(&self) -> String {
        match self {
            RefereeFault::ViewMoved => {
                "The view moved: the string is not where the calibration says. Rulings are paused — re-calibrate, or re-register if only the camera was nudged.".into()
            }
            RefereeFault::Obstructed => {
                "Something is over the ocean (a hand, an arm): the rulings wait until the table is clear.".into()
            }
            RefereeFault::ResolutionChanged { expected, got } => format!(
                "The camera sends {}x{} pictures but the calibration is for {}x{}: choose that resolution in Sources, or re-calibrate.",
                got.0, got.1, expected.0, expected.1
            ),
            RefereeFault::AnalysisFailed(e) => format!("A picture could not be analysed: {e}"),
            RefereeFault::Unusable(e) => format!("No rulings: {e}. Calibrate to get rulings."),
        }
    }

    /// Whether rulings are paused because of it (the view no longer matches the calibration).
    pub fn needs_calibration(&self) -> bool {
        matches!(
            self,
            RefereeFault::ViewMoved | RefereeFault::ResolutionChanged { .. } | RefereeFault::Unusable(_)
        )
    }
}

/// What the UI shows; cheap to clone (an `Arc`).
#[derive(Debug, Clone, Default)]
pub struct RefereeSnapshot {
    /// The frame the latest reading is of.
    pub frame_seq: Option<u64>,
    /// This frame's reading with stable ids and its rulings: for the overlays.
    pub latest: Option<FrameReport>,
    /// The settled reading the rulings panel shows.
    pub committed: Option<Commit>,
    /// Waiting for the table to settle (hands in view, pieces moving).
    pub settling: bool,
    pub faults: Vec<RefereeFault>,
    pub analysis_ms: Option<f64>,
    pub frames_analysed: u64,
    pub frames_dropped: u64,
}

#[derive(Debug, Default)]
struct Inbox {
    frame: Option<(u64, Mat)>,
    context: Option<GameContext>,
    calibration: Option<RefereeCalibration>,
    stop: bool,
}

struct Shared {
    inbox: Mutex<Inbox>,
    wake: Condvar,
    snapshot: Mutex<Arc<RefereeSnapshot>>,
    on_update: Box<dyn Fn() + Send + Sync>,
}

/// The running referee (see the module docs). Dropping it stops the worker.
pub struct RefereeWorker {
    shared: Arc<Shared>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl std::fmt::Debug for RefereeWorker {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RefereeWorker").finish_non_exhaustive()
    }
}

/// The worker's vision, tracking and commit state for one calibration.
struct Engine {
    analyzer: Analyzer,
    tracker: Tracker,
    committer: Committer,
    profile: Profile,
    ocean: crate::table::OceanReport,
    last_seq: Option<u64>,
}

impl Engine {
    fn new(cal: &RefereeCalibration, catalog: &Catalog, ctx: GameContext) -> Result<Self, RefereeStartError> {
        let taught = TaughtModels::from_profile(&cal.profile)
            .map_err(|e| RefereeStartError::Vision(crate::vision::VisionError::Taught(e)))?;
        let analyzer = Analyzer::new(&cal.profile, &cal.reference, catalog, &taught)?;
        let ocean = cal.profile.ocean.clone().ok_or(RefereeStartError::NoOcean)?;
        let tracker = Tracker::new(
            catalog.clone(),
            TrackArea::from_profile(&cal.profile),
            TrackerConfig::default(),
        )?;
        let committer = Committer::new(ocean.clone(), ctx)?;
        Ok(Engine {
            analyzer,
            tracker,
            committer,
            profile: cal.profile.clone(),
            ocean,
            last_seq: None,
        })
    }

    /// Analyses one frame; updates `snap` (a copy of the last snapshot).
    fn step(&mut self, seq: u64, image: &Mat, snap: &mut RefereeSnapshot) {
        let expected = (self.profile.image_size.width, self.profile.image_size.height);
        let got = (image.cols().max(0) as u32, image.rows().max(0) as u32);
        snap.faults.clear();
        if expected != got {
            snap.faults
                .push(RefereeFault::ResolutionChanged { expected, got });
            snap.settling = false;
            return;
        }
        if self.last_seq.is_some_and(|s| seq <= s) {
            // A source that started again numbers its frames from 0: start tracking again too.
            self.tracker.reset(TrackArea::from_profile(&self.profile));
        }
        self.last_seq = Some(seq);
        let t = Instant::now();
        let analysis = match self.analyzer.analyze(image) {
            Ok(a) => a,
            Err(e) => {
                snap.faults.push(RefereeFault::AnalysisFailed(e.to_string()));
                return;
            }
        };
        let obs = FrameObservation {
            seq,
            image: String::new(),
            pieces: analysis.pieces,
            obstructed: analysis.obstructed,
            view_moved: analysis.view_moved,
            lighting_changed: false,
            counter: analysis.counter,
        };
        let state = match self.tracker.update(&obs) {
            Ok(s) => s,
            Err(e) => {
                snap.faults.push(RefereeFault::AnalysisFailed(e.to_string()));
                return;
            }
        };
        if let Err(e) = self.committer.feed(&state) {
            snap.faults.push(RefereeFault::AnalysisFailed(e.to_string()));
        }
        let mut latest = state.frame_report(&self.ocean);
        // Overlays show this frame's rulings; a reading the rules cannot judge is shown unruled.
        let _ = latest.rule(self.committer.context());
        if state.view_moved {
            snap.faults.insert(0, RefereeFault::ViewMoved);
        }
        if state.obstructed {
            snap.faults.insert(0, RefereeFault::Obstructed);
        }
        snap.frame_seq = Some(seq);
        snap.latest = Some(latest);
        snap.committed = self.committer.committed().cloned();
        snap.settling = !state.settled || state.obstructed;
        snap.analysis_ms = Some(t.elapsed().as_secs_f64() * 1000.0);
        snap.frames_analysed += 1;
    }
}

impl RefereeWorker {
    /// Starts the worker, which prepares vision for `cal` first (a profile it cannot use is
    /// reported in the snapshot's `faults` until [`RefereeWorker::replace_calibration`]).
    pub fn start(
        cal: RefereeCalibration,
        catalog: Catalog,
        ctx: GameContext,
        on_update: Box<dyn Fn() + Send + Sync>,
    ) -> Result<Self, RefereeStartError> {
        let shared = Arc::new(Shared {
            inbox: Mutex::new(Inbox::default()),
            wake: Condvar::new(),
            snapshot: Mutex::new(Arc::new(RefereeSnapshot::default())),
            on_update,
        });
        let for_worker = Arc::clone(&shared);
        let thread = std::thread::Builder::new()
            .name("octoref-referee".into())
            .spawn(move || run(for_worker, cal, catalog, ctx))
            .map_err(|e| RefereeStartError::Thread(e.to_string()))?;
        Ok(RefereeWorker {
            shared,
            thread: Some(thread),
        })
    }

    /// Hands a frame over without waiting (newest frame wins).
    pub fn offer(&self, frame: &Frame) {
        let Ok(image) = frame.image.try_clone() else {
            return;
        };
        let mut inbox = self.shared.inbox.lock().unwrap_or_else(PoisonError::into_inner);
        if inbox.frame.replace((frame.seq, image)).is_some() {
            let mut snap = self
                .shared
                .snapshot
                .lock()
                .unwrap_or_else(PoisonError::into_inner);
            Arc::make_mut(&mut snap).frames_dropped += 1;
        }
        self.shared.wake.notify_one();
    }

    /// The game moved on: the committed reading is ruled again for it.
    pub fn set_context(&self, ctx: GameContext) {
        let mut inbox = self.shared.inbox.lock().unwrap_or_else(PoisonError::into_inner);
        inbox.context = Some(ctx);
        self.shared.wake.notify_one();
    }

    /// Swaps in a freshly calibrated profile (the game is kept; tracking starts again).
    pub fn replace_calibration(&self, cal: RefereeCalibration) {
        let mut inbox = self.shared.inbox.lock().unwrap_or_else(PoisonError::into_inner);
        inbox.calibration = Some(cal);
        self.shared.wake.notify_one();
    }

    pub fn snapshot(&self) -> Arc<RefereeSnapshot> {
        Arc::clone(
            &self
                .shared
                .snapshot
                .lock()
                .unwrap_or_else(PoisonError::into_inner),
        )
    }
}

impl Drop for RefereeWorker {
    fn drop(&mut self) {
        {
            let mut inbox = self.shared.inbox.lock().unwrap_or_else(PoisonError::into_inner);
            inbox.stop = true;
            self.shared.wake.notify_one();
        }
        if let Some(t) = self.thread.take() {
            // The worker finishes the frame in hand (well under a second) and stops.
            let _ = t.join();
        }
    }
}

fn run(shared: Arc<Shared>, cal: RefereeCalibration, catalog: Catalog, mut ctx: GameContext) {
    let mut engine = match Engine::new(&cal, &catalog, ctx.clone()) {
        Ok(e) => Some(e),
        Err(e) => {
            let snap = RefereeSnapshot {
                faults: vec![RefereeFault::Unusable(e.to_string())],
                ..RefereeSnapshot::default()
            };
            *shared.snapshot.lock().unwrap_or_else(PoisonError::into_inner) = Arc::new(snap);
            (shared.on_update)();
            None
        }
    };
    drop(cal);
    loop {
        let (frame, context, calibration) = {
            let mut inbox = shared.inbox.lock().unwrap_or_else(PoisonError::into_inner);
            while !inbox.stop
                && inbox.frame.is_none()
                && inbox.context.is_none()
                && inbox.calibration.is_none()
            {
                inbox = shared.wake.wait(inbox).unwrap_or_else(PoisonError::into_inner);
            }
            if inbox.stop {
                return;
            }
            (inbox.frame.take(), inbox.context.take(), inbox.calibration.take())
        };
        let mut snap =
            RefereeSnapshot::clone(&shared.snapshot.lock().unwrap_or_else(PoisonError::into_inner));
        if let Some(c) = context
            && c != ctx
        {
            ctx = c;
            if let Some(engine) = engine.as_mut() {
                if let Err(e) = engine.committer.set_context(ctx.clone()) {
                    snap.faults = vec![RefereeFault::AnalysisFailed(e.to_string())];
                }
                snap.committed = engine.committer.committed().cloned();
            }
        }
        if let Some(cal) = calibration {
            snap.committed = None;
            snap.latest = None;
            match Engine::new(&cal, &catalog, ctx.clone()) {
                Ok(e) => {
                    engine = Some(e);
                    snap.faults.clear();
                }
                Err(e) => {
                    engine = None;
                    snap.faults = vec![RefereeFault::Unusable(e.to_string())];
                }
            }
        }
        if let (Some(engine), Some((seq, image))) = (engine.as_mut(), frame) {
            engine.step(seq, &image, &mut snap);
        }
        *shared.snapshot.lock().unwrap_or_else(PoisonError::into_inner) = Arc::new(snap);
        (shared.on_update)();
    }
}

/// The referee in the camera's pipeline slot: frames go to the worker, the newest snapshot is
/// taken once per UI frame.
#[derive(Debug)]
pub struct RefereePipeline {
    worker: Arc<RefereeWorker>,
    snapshot: Arc<RefereeSnapshot>,
}

impl RefereePipeline {
    pub fn new(worker: Arc<RefereeWorker>) -> Self {
        let snapshot = worker.snapshot();
        RefereePipeline { worker, snapshot }
    }
}

impl super::live::Pipeline for RefereePipeline {
    fn offer(&mut self, frame: &Frame) {
        self.worker.offer(frame);
    }

    fn latest(&self) -> Option<&FrameReport> {
        self.snapshot.latest.as_ref()
    }

    fn analysis_ms(&self) -> Option<f64> {
        self.snapshot.analysis_ms
    }

    fn refresh(&mut self) {
        self.snapshot = self.worker.snapshot();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::capture::{DemoConfig, DemoPhase, DemoSource, FrameSource, StopSignal};

    /// The demo's frames, analysed one by one as the worker does: while a hand is over the
    /// ocean the referee says so and waits for the table to settle; once the table is still the
    /// pieces are found and ruled for the player whose turn it is.
    #[test]
    fn the_demo_set_up_is_held_while_a_hand_is_over_it_then_read_and_ruled() {
        let cal = RefereeCalibration::demo().unwrap();
        let catalog = Catalog::default_catalog();
        let (mut source, handle) = DemoSource::new(DemoConfig {
            fps: None,
            ..DemoConfig::default()
        });
        source.open().unwrap();
        let stop = StopSignal::default();
        let first = source.next_frame(&stop).unwrap();
        let game =
            crate::games::crash_octopus::Game::replay(&handle.info(first.seq).unwrap().record).unwrap();
        let ctx = crate::app::demo_game::game_context(&game);
        let active = ctx.active.unwrap();
        let mut engine = Engine::new(&cal, &catalog, ctx).unwrap();
        let mut snap = RefereeSnapshot::default();
        let (mut acting, mut still) = (0, 0);
        while still < 3 {
            let f = source.next_frame(&stop).unwrap();
            engine.step(f.seq, &f.image, &mut snap);
            assert_eq!(snap.frame_seq, Some(f.seq));
            match handle.info(f.seq).unwrap().phase {
                DemoPhase::Acting => {
                    acting += 1;
                    assert!(
                        snap.settling,
                        "a hand over the ocean: waiting for the table to settle"
                    );
                    assert!(
                        snap.faults.contains(&RefereeFault::Obstructed),
                        "{:?}",
                        snap.faults
                    );
                }
                DemoPhase::Still => {
                    still += 1;
                    let latest = snap.latest.as_ref().unwrap();
                    let treasures = latest
                        .pieces
                        .iter()
                        .filter(|p| p.piece == crate::table::PieceKind::Treasure)
                        .count();
                    assert!(treasures >= 12, "{treasures} treasures found");
                    let r = latest.rulings.as_ref().unwrap();
                    // The referee rules for the player whose turn it is, or says why it cannot.
                    let named = r
                        .messages
                        .iter()
                        .any(|m| m.to_lowercase().contains(active.as_str()));
                    assert!(r.players.contains_key(&active) || named, "{:?}", r.messages);
                    assert!(!r.players.is_empty(), "some ship is ruled for: {:?}", r.messages);
                }
            }
        }
        assert!(acting > 0);
        assert_eq!(snap.frames_analysed, (acting + still) as u64);
    }
}
