//! The referee's thread: takes the newest frame, checks it, measures the light, analyses it,
//! checks the view, tracks, commits, and publishes a snapshot. All state lives in [`Engine`],
//! owned by the thread; the handle talks to it through [`Shared`] (an inbox for the newest frame
//! and for commands, and the published snapshot).
//!
//! Per frame, in order (each step may end the frame's work, holding the committed reading):
//! 1. the frame is whole (`frame_check`), else it is counted as corrupt and skipped;
//! 2. its size is the calibration's, else the calibration is scaled to it (same shape) or rulings
//!    pause (another shape);
//! 3. the light against the reference (`lighting`): a change marks the frame, a new stable light
//!    relights the reference;
//! 4. vision (`Analyzer::report`); a failure is reported and the frame skipped;
//! 5. the view (`register`), every `view_check_every_frames` frames or when vision sees the
//!    string out of place: a moved view marks every frame until re-registered;
//! 6. the tracker and the committer, fed the frame with its faults: an obstructed, moved or
//!    relit frame breaks the committer's pair, so nothing is committed until the table settles.

use super::calibration::LiveCalibration;
use super::config::LiveConfig;
use super::coverage::{black_out, unseen_mask};
use super::error::LiveError;
use super::fault::LiveFault;
use super::frame_check::check_frame;
use super::lighting::{LightGains, LightMonitor, measure_gains, relit_reference, subsample};
use super::register::{ReferenceFeatures, check_view, corrected_profile, refine_profile};
use super::snapshot::LiveSnapshot;
use super::stable_ids::with_stable_ids;
use super::string_check::{StringBand, StringFit};
use crate::capture::Frame;
use crate::games::crash_octopus::RulesData;
use crate::referee::{FrameReport, GameContext};
use crate::table::{Catalog, OceanReport, PolygonMm};
use crate::vision::Analyzer;
use crate::vision::in_play::InPlay;
use crate::vision::rectify::COARSE_STEP;
use crate::vision::taught::TaughtModels;
use crate::vision::tracking::{
    Commit, Committer, Departure, FrameObservation, TrackArea, TrackedState, Tracker,
};
use opencv::core::Mat;
use opencv::prelude::*;
use std::collections::{BTreeMap, VecDeque};

/// Checks in a row that must find the view moved before it is said (see `found_moved`).
const VIEW_MOVED_CHECKS: u32 = 2;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

/// How often the idle worker wakes to see whether frames stopped arriving.
const IDLE_POLL: Duration = Duration::from_millis(200);

pub(crate) enum Command {
    SetContext(GameContext),
    Reregister,
    Replace(Box<LiveCalibration>),
}

/// What the handle hands the worker.
#[derive(Default)]
pub(crate) struct Inbox {
    /// The newest frame; `Err(seq)` when it could not even be copied.
    pub frame: Option<Result<Frame, u64>>,
    pub commands: VecDeque<Command>,
    pub last_offer: Option<Instant>,
    pub stop: bool,
}

pub(crate) struct Shared {
    inbox: Mutex<Inbox>,
    pub wake: Condvar,
    pub snapshot: Mutex<Arc<LiveSnapshot>>,
    pub dropped: AtomicU64,
}

impl Shared {
    pub fn new(first: LiveSnapshot) -> Self {
        Self {
            inbox: Mutex::new(Inbox::default()),
            wake: Condvar::new(),
            snapshot: Mutex::new(Arc::new(first)),
            dropped: AtomicU64::new(0),
        }
    }

    pub fn lock_inbox(&self) -> MutexGuard<'_, Inbox> {
        self.inbox.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn publish(&self, snapshot: LiveSnapshot) {
        *self.snapshot.lock().unwrap_or_else(PoisonError::into_inner) = Arc::new(snapshot);
    }
}

/// How the frames' size stands against the calibration.
#[derive(Debug, Clone, Copy, PartialEq)]
enum SizeState {
    Calibrated,
    Scaled {
        calibrated: (u32, u32),
        frames: (u32, u32),
    },
    Mismatch {
        expected: (u32, u32),
        got: (u32, u32),
    },
}

/// A first correction of the view (current-profile mm -> true mm) and what it rests on.
struct Correction {
    correction_mm: nalgebra::Matrix3<f64>,
    /// How far the table had moved, mm.
    shift_mm: f64,
    evidence: String,
    /// Strong enough to stand alone when the dense alignment fails.
    certain: bool,
}

/// Vision prepared for one calibration (as scaled and relit).
struct Vision {
    cal: LiveCalibration,
    analyzer: Analyzer,
    /// The reference on the coarse grid, for the light measurement.
    reference_coarse: Mat,
    features: Option<ReferenceFeatures>,
    /// The string's band on the coarse reference, for views without features.
    band: Option<StringBand>,
    /// Raw pixels showing table the reference never saw (after a re-registration), blacked out
    /// of every frame before vision (see `coverage`).
    unseen: Option<Mat>,
}

impl Vision {
    fn new(
        cal: LiveCalibration,
        catalog: &Catalog,
        taught: &TaughtModels,
        in_play: &InPlay,
    ) -> Result<Self, LiveError> {
        let analyzer = Analyzer::new(&cal.profile, &cal.reference, catalog, taught)?.with_in_play(in_play);
        let g = analyzer.rectification().coarse;
        let reference_coarse = subsample(&cal.reference, COARSE_STEP, g.height as i32, g.width as i32)
            .map_err(crate::vision::VisionError::from)?;
        let features = ReferenceFeatures::of(&cal.reference, &analyzer.rectification().fine_valid).ok();
        let band = cal
            .profile
            .ocean
            .as_ref()
            .and_then(|o| StringBand::new(&o.polygon_mm, g, &reference_coarse));
        let unseen = unseen_mask(&cal.profile, &cal.reference).map_err(crate::vision::VisionError::from)?;
        Ok(Self {
            cal,
            analyzer,
            reference_coarse,
            features,
            band,
            unseen,
        })
    }
}

pub(crate) struct Engine {
    config: LiveConfig,
    catalog: Catalog,
    taught: TaughtModels,
    /// The pieces the game puts on the table (from the context's players), kept across
    /// recalibrations.
    in_play: InPlay,
    /// The calibration as given (or re-registered), at its own resolution and light.
    base: LiveCalibration,
    /// The light the reference is adapted to, against `base`'s reference.
    light_gains: LightGains,
    vision: Vision,
    size: SizeState,
    tracker: Tracker,
    committer: Committer,
    /// Shown until the committer commits again after a new calibration.
    held_commit: Option<Commit>,
    light: LightMonitor,
    last_light: Option<LightGains>,
    view_moved: bool,
    /// Checks in a row that found the view moved (one alone may be a bad match).
    moved_checks: u32,
    view_shift_mm: Option<f64>,
    frames_since_view_check: u32,
    /// The last whole frame, for a re-registration.
    last_image: Option<Mat>,
    last_seq: Option<u64>,
    frame_seq: Option<u64>,
    latest: Option<FrameReport>,
    state: Option<TrackedState>,
    analysis_ms: Option<f64>,
    analysis_failed: Option<String>,
    frames_received: u64,
    frames_analysed: u64,
    frames_skipped: u64,
    corrupt: u64,
    last_corrupt_at: Option<Instant>,
    last_frame_at: Option<Instant>,
    no_frames_for: Option<Duration>,
    recalibrations: u32,
    reregistration: Option<String>,
    /// When each present fault (by name) was first seen, to list the newest first.
    fault_since: BTreeMap<&'static str, Instant>,
}

/// The pieces the game in `ctx` puts on the table (the app's contexts carry the set-up's modules), for vision to look for only those. The rules
/// data is built in (and checked by its tests); were it unreadable, vision looks for the whole box.
fn in_play_of(ctx: &GameContext) -> InPlay {
    RulesData::builtin()
        .map(|rules| InPlay::of_players(&ctx.players, &rules).with_modules(ctx.modules))
        .unwrap_or_else(|_| InPlay::everything())
}

fn ocean_of(cal: &LiveCalibration) -> OceanReport {
    cal.profile
        .ocean
        .clone()
        .unwrap_or_else(|| OceanReport::new(PolygonMm::default()))
}

impl Engine {
    pub fn new(
        cal: LiveCalibration,
        catalog: Catalog,
        ctx: GameContext,
        config: LiveConfig,
    ) -> Result<Self, LiveError> {
        config.validate()?;
        let taught = TaughtModels::from_profile(&cal.profile)?;
        let tracker = Tracker::new(
            catalog.clone(),
            TrackArea::from_profile(&cal.profile),
            config.tracker.clone(),
        )?;
        let in_play = in_play_of(&ctx);
        let committer =
            Committer::new(ocean_of(&cal), ctx)?.with_reading_interval(config.reading_interval_frames);
        let vision = Vision::new(cal.clone(), &catalog, &taught, &in_play)?;
        Ok(Self {
            config,
            catalog,
            taught,
            in_play,
            base: cal,
            light_gains: LightGains::UNIT,
            vision,
            size: SizeState::Calibrated,
            tracker,
            committer,
            held_commit: None,
            light: LightMonitor::default(),
            last_light: None,
            view_moved: false,
            moved_checks: 0,
            view_shift_mm: None,
            frames_since_view_check: 0,
            last_image: None,
            last_seq: None,
            frame_seq: None,
            latest: None,
            state: None,
            analysis_ms: None,
            analysis_failed: None,
            frames_received: 0,
            frames_analysed: 0,
            frames_skipped: 0,
            corrupt: 0,
            last_corrupt_at: None,
            last_frame_at: None,
            no_frames_for: None,
            recalibrations: 0,
            reregistration: None,
            fault_since: BTreeMap::new(),
        })
    }

    /// The thread's loop: until stopped, take commands, then the newest frame. `on_update` is
    /// called after each published snapshot (only ever from this thread).
    pub fn run(mut self, shared: &Shared, on_update: &dyn Fn()) {
        let started = Instant::now();
        loop {
            let (frame, commands) = {
                let mut inbox = shared.lock_inbox();
                while !inbox.stop && inbox.frame.is_none() && inbox.commands.is_empty() {
                    inbox = shared
                        .wake
                        .wait_timeout(inbox, IDLE_POLL)
                        .unwrap_or_else(PoisonError::into_inner)
                        .0;
                    if inbox.frame.is_none()
                        && inbox.commands.is_empty()
                        && self.check_stall(inbox.last_offer, started)
                    {
                        break;
                    }
                }
                if inbox.stop {
                    return;
                }
                (inbox.frame.take(), std::mem::take(&mut inbox.commands))
            };
            for c in commands {
                self.command(c);
            }
            match frame {
                Some(Ok(f)) => {
                    self.frames_received += 1;
                    self.frame(&f);
                }
                Some(Err(_)) => {
                    self.frames_received += 1;
                    self.corrupt_frame();
                }
                None => {}
            }
            let dropped = shared.dropped.load(Ordering::Relaxed);
            shared.publish(self.snapshot_with(dropped));
            on_update();
        }
    }

    /// Whether the "no frames" state changed (then a snapshot is due).
    fn check_stall(&mut self, last_offer: Option<Instant>, started: Instant) -> bool {
        let since = last_offer.unwrap_or(started).elapsed();
        let now = (since >= self.config.no_frames_after).then_some(Duration::from_secs(since.as_secs()));
        let changed = now != self.no_frames_for;
        self.no_frames_for = now;
        changed
    }

    fn command(&mut self, command: Command) {
        match command {
            Command::SetContext(ctx) => {
                self.in_play = in_play_of(&ctx);
                self.vision.analyzer.set_in_play(&self.in_play);
                if let Err(e) = self.committer.set_context(ctx) {
                    self.analysis_failed = Some(format!("the game context: {e}"));
                }
            }
            Command::Reregister => self.reregister(),
            Command::Replace(cal) => {
                let cal = *cal;
                self.held_commit = self.committer.committed().cloned().or(self.held_commit.take());
                self.committer.reset(ocean_of(&cal));
                self.tracker.reset(TrackArea::from_profile(&cal.profile));
                self.base = cal;
                self.light_gains = LightGains::UNIT;
                self.view_moved = false;
                self.moved_checks = 0;
                self.view_shift_mm = None;
                self.recalibrations += 1;
                self.size = SizeState::Calibrated;
                self.rebuild();
            }
        }
    }

    /// Prepares vision again from `base`, scaled to `size` and relit by `light_gains`.
    fn rebuild(&mut self) {
        let mut cal = match self.size {
            SizeState::Scaled { frames, .. } => {
                match self
                    .base
                    .scaled_to(frames.0, frames.1, self.config.aspect_tolerance)
                {
                    Some(c) => c,
                    None => self.base.clone(),
                }
            }
            _ => self.base.clone(),
        };
        if self.light_gains != LightGains::UNIT {
            match relit_reference(&cal.reference, &self.light_gains) {
                Ok(r) => cal.reference = r,
                Err(e) => self.analysis_failed = Some(format!("relighting the reference: {e}")),
            }
            // The board's white paper, which vision weighs pieces' lightness against, is in
            // the same new light.
            cal.profile.white_bgr = cal
                .profile
                .white_bgr
                .map(|w| [0, 1, 2].map(|c| w[c] * self.light_gains.bgr[c]));
        }
        match Vision::new(cal, &self.catalog, &self.taught, &self.in_play) {
            Ok(v) => self.vision = v,
            Err(e) => self.analysis_failed = Some(e.to_string()),
        }
        self.light.reset();
    }

    fn corrupt_frame(&mut self) {
        self.corrupt += 1;
        self.last_corrupt_at = Some(Instant::now());
    }

    fn frame(&mut self, frame: &Frame) {
        self.last_frame_at = Some(Instant::now());
        self.no_frames_for = None;
        if let Err(why) = check_frame(&frame.image, self.config.truncated_rows_share) {
            tracing::debug!("frame {} skipped: {why}", frame.seq);
            self.corrupt_frame();
            return;
        }
        if !self.fit_size(frame.width(), frame.height()) {
            self.frames_skipped += 1;
            return;
        }
        let seq = match self.last_seq {
            Some(last) if frame.seq <= last => last + 1,
            _ => frame.seq,
        };
        let started = Instant::now();
        let masked = match &self.vision.unseen {
            Some(unseen) => match black_out(&frame.image, unseen) {
                Ok(m) => Some(m),
                Err(e) => {
                    self.analysis_failed = Some(format!("masking the unseen table: {e}"));
                    return;
                }
            },
            None => None,
        };
        let image = masked.as_ref().unwrap_or(&frame.image);
        let lighting_changed = self.lighting(image);
        let (report, analysis) =
            match self
                .vision
                .analyzer
                .report(image, &frame.label, self.committer.context())
            {
                Ok(r) => r,
                Err(e) => {
                    self.analysis_failed = Some(e.to_string());
                    return;
                }
            };
        self.analysis_failed = None;
        self.check_view(image, analysis.view_moved);
        let obs = FrameObservation {
            seq,
            image: frame.label.to_string(),
            pieces: analysis.pieces,
            obstructed: analysis.obstructed,
            view_moved: self.view_moved,
            // Vision's own test (its white balance against the reference) or the monitor's.
            lighting_changed: lighting_changed || analysis.lighting_changed,
            counter: analysis.counter,
        };
        let mut sightings = BTreeMap::new();
        match self.tracker.update(&obs) {
            Ok(state) => {
                if let Err(e) = self.committer.feed(&state) {
                    self.analysis_failed = Some(e.to_string());
                }
                if self.committer.committed().is_some() {
                    self.held_commit = None;
                }
                sightings = state.sightings.clone();
                self.state = Some(state);
            }
            Err(e) => self.analysis_failed = Some(e.to_string()),
        }
        // The picture is labelled by the ids the rulings use (see `stable_ids`): a frame the
        // tracker refused names no piece by a stable id, and one that cannot be ruled again is
        // not shown (never vision's own ids beside the rulings).
        let report = match with_stable_ids(&report, &sightings, self.committer.context()) {
            Ok(r) => Some(r),
            Err(e) => {
                self.analysis_failed = Some(e.to_string());
                None
            }
        };
        self.last_seq = Some(seq);
        self.frame_seq = Some(frame.seq);
        self.latest = report;
        self.analysis_ms = Some(started.elapsed().as_secs_f64() * 1000.0);
        self.frames_analysed += 1;
        self.last_image = frame.image.try_clone().ok();
    }

    /// Makes vision fit frames of this size; false when it cannot (rulings pause).
    fn fit_size(&mut self, width: u32, height: u32) -> bool {
        let calibrated = self.base.frame_size();
        let current = match self.size {
            SizeState::Calibrated => calibrated,
            SizeState::Scaled { frames, .. } => frames,
            SizeState::Mismatch { got, .. } => {
                if got == (width, height) {
                    return false;
                }
                (0, 0)
            }
        };
        if current == (width, height) {
            return true;
        }
        self.size = if (width, height) == calibrated {
            SizeState::Calibrated
        } else if self
            .base
            .scaled_to(width, height, self.config.aspect_tolerance)
            .is_some()
        {
            SizeState::Scaled {
                calibrated,
                frames: (width, height),
            }
        } else {
            SizeState::Mismatch {
                expected: calibrated,
                got: (width, height),
            }
        };
        if let SizeState::Mismatch { .. } = self.size {
            return false;
        }
        self.rebuild();
        self.recalibrations += 1;
        true
    }

    /// Measures the light; relights the reference when a new light is stable. Returns whether
    /// this frame's light cannot be trusted.
    fn lighting(&mut self, image: &Mat) -> bool {
        let rect = self.vision.analyzer.rectification();
        let Ok(view) = rect.coarse_view(image) else {
            return false;
        };
        let Some(gains) = measure_gains(&view, &self.vision.reference_coarse, &rect.coarse_valid) else {
            return false;
        };
        self.last_light = Some(gains);
        let step = self.light.update(gains, &self.config);
        if let Some(g) = step.adapt {
            for c in 0..3 {
                self.light_gains.bgr[c] *= g.bgr[c];
            }
            self.recalibrations += 1;
            self.rebuild();
            // This frame was measured against the old reference: it stays untrusted.
            return true;
        }
        step.changed
    }

    /// Checks the view every `view_check_every_frames` frames (a third of that while vision sees
    /// the string out of place): table features against the reference when there are enough,
    /// else the string itself. An inconclusive check changes nothing. Features that say the view
    /// moved while the string is clearly in place are overruled: chance matches on a table with
    /// little texture can agree on a motion that never happened, the string cannot.
    fn check_view(&mut self, image: &Mat, string_out_of_place: bool) {
        self.frames_since_view_check += 1;
        let every = self.config.view_check_every_frames;
        let due = self.frames_since_view_check >= every
            || (string_out_of_place && self.frames_since_view_check >= every.div_ceil(3));
        if !due {
            return;
        }
        self.frames_since_view_check = 0;
        let threshold = self.config.view_moved_mm;
        if let Some(features) = &self.vision.features {
            match check_view(
                self.vision.analyzer.rectification(),
                image,
                features,
                self.config.view_min_matches,
            ) {
                Ok(check) => {
                    self.view_shift_mm = Some(check.shift_mm);
                    if check.shift_mm > threshold {
                        // The string is what the rulings rest on: where it is clearly in place,
                        // the features' motion is not the table's.
                        if let Some(fit) = self.string_fit(image).filter(|f| f.in_place(threshold)) {
                            tracing::debug!(
                                "the features say the view moved {:.1} mm, the string is in place",
                                check.shift_mm
                            );
                            self.view_shift_mm = Some(fit.moved_mm);
                            self.found_in_place();
                        } else {
                            self.found_moved();
                        }
                    } else if check.shift_mm <= threshold / 2.0 {
                        self.found_in_place();
                    }
                    return;
                }
                Err(e) => tracing::debug!("feature view check inconclusive: {e}"),
            }
        }
        if let Some(fit) = self.string_fit(image) {
            tracing::debug!(
                "string view check: moved {:.1} mm, agreement {:.2} (unmoved {:.2})",
                fit.moved_mm,
                fit.agreement,
                fit.agreement_unmoved
            );
            self.view_shift_mm = Some(fit.moved_mm);
            if fit.moved(threshold) {
                self.found_moved();
            } else if fit.in_place(threshold) {
                self.found_in_place();
            }
        }
    }

    /// Where the string lies in `image` against the reference (`None`: no ocean, or too little
    /// of the string to say).
    fn string_fit(&self, image: &Mat) -> Option<StringFit> {
        let view = self.vision.analyzer.rectification().coarse_view(image).ok()?;
        self.vision.band.as_ref()?.fit(&view)
    }

    /// A check found the view moved: said once two checks in a row agree (a real bump stays;
    /// a single bad match of few features does not).
    fn found_moved(&mut self) {
        self.moved_checks += 1;
        if self.moved_checks >= VIEW_MOVED_CHECKS {
            self.view_moved = true;
        }
    }

    fn found_in_place(&mut self) {
        self.moved_checks = 0;
        self.view_moved = false;
    }

    /// The correction (current-profile mm -> true mm) for the last frame: from table features,
    /// else from the string. Returns it with a description of the evidence.
    fn correction(&self, image: &Mat) -> Result<Correction, String> {
        let mut why = String::new();
        if let Some(features) = &self.vision.features {
            match check_view(
                self.vision.analyzer.rectification(),
                image,
                features,
                self.config.view_min_matches,
            ) {
                Ok(c) => {
                    return Ok(Correction {
                        correction_mm: c.correction_mm,
                        shift_mm: c.shift_mm,
                        evidence: format!("{} table features matched", c.inliers),
                        certain: true,
                    });
                }
                Err(e) => why = e.to_string(),
            }
        }
        let band = self
            .vision
            .band
            .as_ref()
            .ok_or_else(|| format!("{why}; the profile has no ocean to find the string by"))?;
        let view = self
            .vision
            .analyzer
            .rectification()
            .coarse_view(image)
            .map_err(|e| e.to_string())?;
        let fit = band.fit(&view).ok_or("the string could not be seen")?;
        if !fit.believed() {
            return Err(format!(
                "the string could not be found again ({:.0} % of it agrees at best)",
                fit.agreement * 100.0
            ));
        }
        Ok(Correction {
            correction_mm: fit.correction_mm(band.centre_mm()),
            shift_mm: fit.moved_mm,
            evidence: format!(
                "found by the string ({:.0} % of it agrees)",
                fit.agreement * 100.0
            ),
            certain: fit.certain(),
        })
    }

    fn reregister(&mut self) {
        let Some(image) = self.last_image.as_ref() else {
            self.reregistration = Some("no picture to re-register on yet".into());
            return;
        };
        let Correction {
            correction_mm: correction,
            shift_mm,
            evidence,
            certain,
        } = match self.correction(image) {
            Ok(c) => c,
            Err(e) => {
                self.reregistration = Some(format!("re-registration failed ({e}): re-calibrate"));
                return;
            }
        };
        // The correction applies to the profile in use (scaled to the frames); folded back into
        // the base calibration at its own resolution.
        let Some(rough) = corrected_profile(&self.vision.cal.profile, &correction) else {
            self.reregistration = Some("re-registration failed (degenerate correction): re-calibrate".into());
            return;
        };
        // The correction is rigid (the string) or from few features: the whole table, aligned
        // densely to the reference, gives the full homography (the perspective of the new view).
        let (fixed, evidence) = match refine_profile(&rough, &self.vision.cal.reference, image) {
            Ok(r) => (
                r.profile,
                format!(
                    "{evidence}, then the whole table aligned ({:.0} % of it agrees)",
                    r.alignment.inlier_share * 100.0
                ),
            ),
            Err(e) if certain => {
                tracing::debug!("dense re-registration failed: {e}");
                (
                    rough,
                    format!("{evidence}; the table could not be aligned in full ({e})"),
                )
            }
            Err(e) => {
                self.reregistration = Some(format!(
                    "re-registration failed ({evidence} at best, and the table could not be aligned: {e}): re-calibrate"
                ));
                return;
            }
        };
        let base_size = self.base.frame_size();
        let mut base = LiveCalibration {
            profile: fixed,
            reference: self.base.reference.try_clone().unwrap_or_default(),
        };
        if base.frame_size() != base_size
            && let Some(b) = base.scaled_to(base_size.0, base_size.1, self.config.aspect_tolerance)
        {
            base = b;
        }
        self.base = base;
        self.rebuild();
        self.view_moved = false;
        self.moved_checks = 0;
        self.view_shift_mm = Some(0.0);
        self.frames_since_view_check = 0;
        self.recalibrations += 1;
        self.reregistration = Some(format!(
            "re-registered: the view had moved {shift_mm:.1} mm ({evidence}); the game goes on"
        ));
    }

    fn faults(&mut self) -> Vec<LiveFault> {
        let mut now: Vec<LiveFault> = Vec::new();
        if self.view_moved {
            now.push(LiveFault::ViewMoved);
        }
        if self.light.is_changed() || self.state.as_ref().is_some_and(|s| s.lighting_changed) {
            now.push(LiveFault::LightingChanged);
        }
        if self.state.as_ref().is_some_and(|s| s.obstructed) {
            now.push(LiveFault::Obstructed);
        }
        match self.size {
            SizeState::Calibrated => {}
            SizeState::Scaled { calibrated, frames } => {
                now.push(LiveFault::CalibrationScaled { calibrated, frames })
            }
            SizeState::Mismatch { expected, got } => now.push(LiveFault::ResolutionChanged { expected, got }),
        }
        if self
            .last_corrupt_at
            .is_some_and(|t| t.elapsed() < self.config.corrupt_notice)
        {
            now.push(LiveFault::CorruptFrames { count: self.corrupt });
        }
        if let Some(d) = self.no_frames_for {
            now.push(LiveFault::NoFrames { for_s: d.as_secs() });
        }
        if let Some(state) = &self.state {
            let ids: Vec<String> = state
                .lost
                .iter()
                .filter(|l| l.departure == Departure::AtEdge)
                .map(|l| l.id().to_string())
                .collect();
            if !ids.is_empty() {
                now.push(LiveFault::PiecesOutOfView { ids });
            }
        }
        if let Some(e) = &self.analysis_failed {
            now.push(LiveFault::AnalysisFailed(e.clone()));
        }
        let t = Instant::now();
        self.fault_since
            .retain(|name, _| now.iter().any(|f| f.name() == *name));
        for f in &now {
            self.fault_since.entry(f.name()).or_insert(t);
        }
        now.sort_by_key(|f| std::cmp::Reverse(self.fault_since.get(f.name()).copied()));
        now
    }

    pub fn snapshot(&self) -> LiveSnapshot {
        LiveSnapshot {
            frame_seq: self.frame_seq,
            latest: self.latest.clone(),
            committed: self
                .committer
                .committed()
                .cloned()
                .or_else(|| self.held_commit.clone()),
            settling: self.state.as_ref().is_none_or(|s| !s.settled),
            faults: Vec::new(),
            rulings_paused: false,
            analysis_ms: self.analysis_ms,
            frames_received: self.frames_received,
            frames_analysed: self.frames_analysed,
            frames_dropped: self.frames_skipped,
            frames_corrupt: self.corrupt,
            light: self.last_light,
            view_shift_mm: self.view_shift_mm,
            recalibrations: self.recalibrations,
            reregistration: self.reregistration.clone(),
        }
    }

    fn snapshot_with(&mut self, dropped: u64) -> LiveSnapshot {
        let faults = self.faults();
        let mut s = self.snapshot();
        s.rulings_paused = faults.iter().any(LiveFault::pauses_rulings);
        s.faults = faults;
        s.frames_dropped += dropped;
        s
    }
}
