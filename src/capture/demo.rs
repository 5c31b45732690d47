//! The built-in demo: the synthetic table playing a scripted Crash Octopus game, as a camera.
//!
//! The script (`assets/demo/game.json`, compiled in) fixes the scene (seed, 1280x720, three
//! players, no modules) and plays a whole game step by step: the set-up drop, flicks that load
//! treasures (the crab walks), a miss, a treasure flicked out of the ocean and dropped back, two
//! treasures too close to call, octopus attacks with drops (ships hit, treasures toppled into the
//! ocean, tentacles and the head moved), a navigation, to the end of the Octo-Counter, the final
//! attack and the ranking. [`DemoGame`] plays it once through the rules engine and checks table
//! and game against each other and against the referee (see `game.rs`).
//!
//! [`DemoSource`] is a [`FrameSource`] that shows it: each step is a moment with a hand over the
//! ocean while the player acts, then the table still for a few seconds; after the last step the
//! game starts again from the set-up, forever (or for [`DemoConfig::games`] games).
//!
//! What a consumer may rely on:
//! - **A camera's pace.** Frames come at [`DemoConfig::fps`] ([`DEMO_FPS`] by default). Each
//!   distinct table state is rendered once, ahead of time, on the source's own render thread, and
//!   cached (JPEG, at most [`DemoConfig::cache_bytes`], the states wanted next always kept); in
//!   between, frames re-use the picture with fresh sensor noise, so no two frames are
//!   bit-identical. A frame never waits for a render: when the next state is not rendered in
//!   time, the current one is shown a little longer (counted in [`DemoStats::held_frames`]).
//!   Only `open` waits for the first picture.
//! - **The truth of every frame.** [`DemoHandle::info`] gives, for a frame's `seq`, the
//!   [`DemoInfo`]: which game (loop) and step, whether the player is acting or the table still,
//!   the game's record so far, and the renderer's ground truth of the picture. A new game has
//!   started when `game` changes (its `step` is 0 and its record has no events).
//! - **Determinism.** The same script gives the same pictures in the same order; the noise is
//!   seeded by [`DemoConfig::noise_seed`] and the frame's `seq`. How many frames each state lasts
//!   is `duration x fps / speedup` (at least one), unless rendering fell behind.
//! - **Bounded memory.** The cache, the noise field (about two frames) and the last
//!   [`INFO_HISTORY`] frame infos; nothing grows with time.

mod game;
mod noise;
mod profile;
mod renderer;
pub mod script;
mod table;

pub use game::{DemoGame, DemoState, DemoStep, HIT_GAP_MM, MIN_TIE_GAP_MM, TIE_CLEARANCE_MM};
pub use noise::NOISE_MARGIN_PX;
pub use profile::{
    DEMO_PROFILE_CREATED, DEMO_PROFILE_JSON, DEMO_REFERENCE_FILE, DEMO_REFERENCE_PNG, DemoCalibration,
    calibrate_demo_scene, shipped_demo_profile, write_demo_profile,
};
pub use renderer::RenderStats;
pub use table::{
    ADJACENT_GAP_MM, COUNTER_CLEARANCE_MM, DECK_OVERHANG_MM, MIN_GAP_MM, STRING_CLEARANCE_MM,
    VISIBLE_MARGIN_PX,
};

use super::pacing::Pacer;
use super::worker::SourceFactory;
use super::{CaptureError, Frame, FrameSource, SourceInfo, SourceKind, StopSignal};
use crate::games::crash_octopus::Record;
use crate::synth::FrameTruth;
use noise::NoiseBank;
use opencv::core::{Mat, Vector};
use opencv::imgcodecs;
use opencv::prelude::*;
use renderer::{RenderShared, Renderer};
use std::collections::VecDeque;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock, PoisonError};
use std::time::{Duration, Instant};

/// The demo's script, compiled in.
pub const DEMO_SCRIPT_JSON: &str = include_str!("../../assets/demo/game.json");
/// The camera rate the demo delivers by default, frames per second.
pub const DEMO_FPS: f64 = 15.0;
/// How long a player is seen acting (a hand over the ocean), s.
pub const ACT_S: f64 = 1.5;
/// How long a hand is seen dropping the ink die, s.
pub const DROP_ACT_S: f64 = 1.2;
/// How long the table stays still after a turn, s (a step may say otherwise).
pub const STILL_S: f64 = 5.0;
/// How long the table stays still after a drop of the ink die, s.
pub const DROP_STILL_S: f64 = 3.5;
/// Longest still period a step may ask for, s.
pub const MAX_STILL_S: f64 = 120.0;
/// Height of the acting hand's fingertips above the table, mm.
pub const HAND_HEIGHT_MM: f64 = 60.0;
/// Height of the hand dropping the ink die over the head, mm.
pub const DROP_HAND_HEIGHT_MM: f64 = 150.0;
/// JPEG quality the rendered states are kept at (a webcam's MJPEG is about this).
pub const DEMO_JPEG_QUALITY: u8 = 92;
/// Default cap of the rendered-state cache, bytes (a whole game fits, about 80 states).
pub const DEMO_CACHE_BYTES: usize = 64 << 20;
/// States rendered ahead of the one shown.
pub const DEMO_LOOKAHEAD: usize = 4;
/// Frame infos kept for [`DemoHandle::info`].
pub const INFO_HISTORY: usize = 64;
/// Default seed of the sensor noise.
pub const DEMO_NOISE_SEED: u64 = 0x0C70_DE30;
/// How long `open` waits for the first picture.
pub const FIRST_RENDER_TIMEOUT: Duration = Duration::from_secs(120);
/// The source's name in [`SourceInfo`] and frame labels.
pub const DEMO_NAME: &str = "the demo (synthetic table)";

/// Why the demo could not be built or calibrated.
#[derive(Debug, thiserror::Error)]
pub enum DemoError {
    #[error(transparent)]
    File(#[from] crate::fsutil::FileError),
    #[error("{origin}: field `{field}`: {message}")]
    Invalid {
        origin: String,
        field: String,
        message: String,
    },
    /// A step of the script does not work out: `steps[step]` of `origin`.
    #[error("{origin}: steps[{step}] ({caption}): {message}")]
    Step {
        origin: String,
        step: usize,
        caption: String,
        message: String,
    },
    #[error("the demo scene: {0}")]
    Synth(#[from] crate::synth::SynthError),
    #[error("calibrating the demo scene: {0}")]
    Calibrate(#[from] crate::calibrate::CalibrateError),
    #[error(transparent)]
    Profile(#[from] crate::calibrate::ProfileError),
    #[error("OpenCV: {0}")]
    OpenCv(#[from] opencv::Error),
}

/// Whether the player is acting (a hand over the ocean: nothing to rule on) or the table is still.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum DemoPhase {
    Acting,
    Still,
}

/// How the demo runs.
#[derive(Debug, Clone, PartialEq)]
pub struct DemoConfig {
    /// Frames per second delivered; `None`: as fast as the consumer takes them (state lengths
    /// are then counted at [`DEMO_FPS`]).
    pub fps: Option<f64>,
    /// Plays the script this many times faster; each state still lasts at least one frame.
    pub speedup: f64,
    /// Ends the stream (`EndOfStream`) when this many games have been shown; `None`: forever.
    pub games: Option<u64>,
    pub noise_seed: u64,
    pub cache_bytes: usize,
    pub lookahead: usize,
}

impl Default for DemoConfig {
    fn default() -> Self {
        Self {
            fps: Some(DEMO_FPS),
            speedup: 1.0,
            games: None,
            noise_seed: DEMO_NOISE_SEED,
            cache_bytes: DEMO_CACHE_BYTES,
            lookahead: DEMO_LOOKAHEAD,
        }
    }
}

impl DemoConfig {
    /// Frames a state of `duration_s` (at normal speed) is shown for (see the module docs).
    pub fn frames_for(&self, duration_s: f64) -> u64 {
        let fps = self.fps.filter(|f| f.is_finite() && *f > 0.0).unwrap_or(DEMO_FPS);
        let speedup = if self.speedup.is_finite() && self.speedup > 0.0 {
            self.speedup
        } else {
            1.0
        };
        ((duration_s * fps / speedup).round() as u64).max(1)
    }
}

/// The truth about one delivered frame.
#[derive(Debug, Clone)]
pub struct DemoInfo {
    /// The frame's `seq`.
    pub seq: u64,
    /// Which game this is, from 0: it changes when the demo starts the game again.
    pub game: u64,
    /// Index of the script step (0 = the set-up).
    pub step: usize,
    /// Index of the table state ([`DemoGame::states`]): the same state, the same picture (but for
    /// the noise).
    pub state: usize,
    pub phase: DemoPhase,
    pub caption: Arc<str>,
    /// The game so far, this step's event included.
    pub record: Arc<Record>,
    pub game_over: bool,
    /// The renderer's ground truth of the picture.
    pub truth: Arc<FrameTruth>,
}

/// Counters of a demo source.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct DemoStats {
    /// Frames delivered.
    pub frames: u64,
    /// Frames that showed a state longer than planned because the next was not rendered yet.
    pub held_frames: u64,
    pub render: RenderStats,
}

#[derive(Debug)]
struct HandleInner {
    infos: Mutex<VecDeque<Arc<DemoInfo>>>,
    game: OnceLock<Arc<DemoGame>>,
    render: Arc<RenderShared>,
    frames: AtomicU64,
    held: AtomicU64,
}

/// What the app (or a test) keeps to learn the truth about the demo's frames. Cheap to clone;
/// every method takes a short lock at most.
#[derive(Debug, Clone)]
pub struct DemoHandle {
    inner: Arc<HandleInner>,
}

impl DemoHandle {
    fn new(cache_bytes: usize) -> Self {
        Self {
            inner: Arc::new(HandleInner {
                infos: Mutex::new(VecDeque::with_capacity(INFO_HISTORY)),
                game: OnceLock::new(),
                render: RenderShared::new(cache_bytes),
                frames: AtomicU64::new(0),
                held: AtomicU64::new(0),
            }),
        }
    }

    /// The truth about frame `seq`, if it is among the last [`INFO_HISTORY`] delivered.
    pub fn info(&self, seq: u64) -> Option<Arc<DemoInfo>> {
        let infos = self.inner.infos.lock().unwrap_or_else(PoisonError::into_inner);
        infos.iter().rev().find(|i| i.seq == seq).cloned()
    }

    /// The truth about the last frame delivered.
    pub fn latest(&self) -> Option<Arc<DemoInfo>> {
        let infos = self.inner.infos.lock().unwrap_or_else(PoisonError::into_inner);
        infos.back().cloned()
    }

    /// The whole scripted game, once the source has opened.
    pub fn game(&self) -> Option<Arc<DemoGame>> {
        self.inner.game.get().cloned()
    }

    pub fn stats(&self) -> DemoStats {
        DemoStats {
            frames: self.inner.frames.load(Ordering::Relaxed),
            held_frames: self.inner.held.load(Ordering::Relaxed),
            render: self.inner.render.stats(),
        }
    }

    fn push(&self, info: DemoInfo) {
        let mut infos = self.inner.infos.lock().unwrap_or_else(PoisonError::into_inner);
        if infos.len() == INFO_HISTORY {
            infos.pop_front();
        }
        infos.push_back(Arc::new(info));
    }
}

/// Where the demo is in its loop.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
struct Cursor {
    game: u64,
    state: usize,
    /// Frames the current state has been shown for.
    shown: u64,
}

/// The demo as a camera; see the module docs.
#[derive(Debug)]
pub struct DemoSource {
    config: DemoConfig,
    handle: DemoHandle,
    renderer: Option<Renderer>,
    noise: Option<NoiseBank>,
    /// The decoded picture of `cursor.state`.
    picture: Option<(usize, Mat)>,
    cursor: Cursor,
    pacer: Pacer,
    seq: u64,
    connection: u32,
    label: Arc<str>,
}

impl DemoSource {
    /// A demo source and the handle that tells the truth about its frames. Nothing is built or
    /// rendered before `open`.
    pub fn new(config: DemoConfig) -> (DemoSource, DemoHandle) {
        let handle = DemoHandle::new(config.cache_bytes);
        (Self::with_handle(config, handle.clone()), handle)
    }

    fn with_handle(config: DemoConfig, handle: DemoHandle) -> DemoSource {
        DemoSource {
            pacer: Pacer::new(config.fps),
            config,
            handle,
            renderer: None,
            noise: None,
            picture: None,
            cursor: Cursor::default(),
            seq: 0,
            connection: 0,
            label: Arc::from(DEMO_NAME),
        }
    }

    /// A factory for [`super::CaptureWorker::spawn`] (the source is built on the worker's
    /// thread) and the handle for the truth about its frames.
    pub fn factory(config: DemoConfig) -> (SourceFactory, DemoHandle) {
        let handle = DemoHandle::new(config.cache_bytes);
        let for_source = handle.clone();
        let factory: SourceFactory =
            Box::new(move || Box::new(DemoSource::with_handle(config, for_source)) as Box<dyn FrameSource>);
        (factory, handle)
    }

    fn game(&self) -> Result<Arc<DemoGame>, CaptureError> {
        self.handle
            .game()
            .ok_or_else(|| CaptureError::Disconnected("the demo is not open".into()))
    }

    /// The states to render next: the current one and the following ones, across the restart.
    fn want_ahead(&self, count: usize) {
        let n = count.max(1);
        let keys: Vec<usize> = (0..=self.config.lookahead)
            .map(|k| (self.cursor.state + k) % n)
            .collect();
        self.handle.inner.render.want(&keys);
    }

    fn decode(jpeg: &[u8]) -> Result<Mat, CaptureError> {
        let img = imgcodecs::imdecode(&Vector::<u8>::from_slice(jpeg), imgcodecs::IMREAD_COLOR)?;
        if img.empty() {
            return Err(CaptureError::Backend(
                "a rendered demo picture did not decode".into(),
            ));
        }
        Ok(img)
    }

    fn render_failure(&self) -> Option<CaptureError> {
        self.handle.inner.render.failure().map(CaptureError::Backend)
    }
}

impl FrameSource for DemoSource {
    fn open(&mut self) -> Result<SourceInfo, CaptureError> {
        let game = match self.handle.game() {
            Some(g) => g,
            None => {
                let g = Arc::new(DemoGame::load().map_err(|e| CaptureError::Invalid {
                    path: script::SCRIPT_FILE.into(),
                    message: e.to_string(),
                })?);
                Arc::clone(self.handle.inner.game.get_or_init(|| g))
            }
        };
        let k = &game.scene().camera.intrinsics;
        let (width, height) = (k.width, k.height);
        if self.noise.is_none() {
            self.noise = Some(NoiseBank::new(
                width as i32,
                height as i32,
                game.scene().sensor.noise_sigma,
                self.config.noise_seed,
            )?);
        }
        if self.renderer.is_none() {
            let r = Renderer::start(&self.handle.inner.render, Arc::clone(&game), DEMO_JPEG_QUALITY)
                .map_err(|e| CaptureError::Backend(format!("cannot start the demo's render thread: {e}")))?;
            self.renderer = Some(r);
        }
        self.want_ahead(game.states().len());
        if self.picture.as_ref().map(|p| p.0) != Some(self.cursor.state) {
            let jpeg = self
                .handle
                .inner
                .render
                .wait_for(self.cursor.state, FIRST_RENDER_TIMEOUT)
                .map_err(CaptureError::Backend)?
                .ok_or_else(|| {
                    CaptureError::Backend(format!(
                        "the demo's first picture took longer than {} s to render",
                        FIRST_RENDER_TIMEOUT.as_secs()
                    ))
                })?;
            self.picture = Some((self.cursor.state, Self::decode(&jpeg)?));
        }
        self.connection += 1;
        self.pacer.reset();
        Ok(SourceInfo {
            kind: SourceKind::Demo,
            name: DEMO_NAME.into(),
            width,
            height,
            fps: self.config.fps.unwrap_or(0.0),
            pixel_format: None,
        })
    }

    fn next_frame(&mut self, stop: &StopSignal) -> Result<Frame, CaptureError> {
        let game = self.game()?;
        let states = game.states();
        if states.is_empty() {
            return Err(CaptureError::EndOfStream);
        }
        self.pacer.wait(stop)?;
        let current = states
            .get(self.cursor.state)
            .ok_or_else(|| CaptureError::Backend("the demo lost its place".into()))?;
        if self.cursor.shown >= self.config.frames_for(current.duration_s) {
            let next = if self.cursor.state + 1 < states.len() {
                Cursor {
                    state: self.cursor.state + 1,
                    shown: 0,
                    ..self.cursor
                }
            } else {
                Cursor {
                    game: self.cursor.game + 1,
                    state: 0,
                    shown: 0,
                }
            };
            if self.config.games.is_some_and(|limit| next.game >= limit) {
                return Err(CaptureError::EndOfStream);
            }
            match self.handle.inner.render.get(next.state) {
                Some(jpeg) => {
                    self.picture = Some((next.state, Self::decode(&jpeg)?));
                    self.cursor = next;
                }
                None => {
                    if let Some(e) = self.render_failure() {
                        return Err(e);
                    }
                    self.handle.inner.held.fetch_add(1, Ordering::Relaxed);
                }
            }
        }
        self.want_ahead(states.len());
        let (shown_state, picture) = match &self.picture {
            Some((s, m)) if *s == self.cursor.state => (*s, m),
            _ => return Err(CaptureError::Backend("the demo's picture is missing".into())),
        };
        let noise = self
            .noise
            .as_ref()
            .ok_or_else(|| CaptureError::Backend("the demo is not open".into()))?;
        let image = noise.apply(picture, self.seq)?;
        let state = &states[shown_state];
        let step = game
            .steps()
            .get(state.step)
            .ok_or_else(|| CaptureError::Backend("the demo lost its step".into()))?;
        let seq = self.seq;
        self.handle.push(DemoInfo {
            seq,
            game: self.cursor.game,
            step: state.step,
            state: shown_state,
            phase: state.phase,
            caption: Arc::clone(&step.caption),
            record: Arc::clone(&step.record),
            game_over: step.game_over,
            truth: Arc::clone(&state.truth),
        });
        self.handle.inner.frames.fetch_add(1, Ordering::Relaxed);
        self.cursor.shown += 1;
        self.seq += 1;
        Ok(Frame {
            image,
            seq,
            connection: self.connection,
            captured_at: Instant::now(),
            source: SourceKind::Demo,
            label: Arc::clone(&self.label),
        })
    }

    fn close(&mut self) {
        self.renderer = None;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn states_last_their_duration_in_camera_frames_scaled_by_the_speedup() {
        let mut c = DemoConfig::default();
        assert_eq!(c.frames_for(5.0), 75);
        assert_eq!(c.frames_for(1.5), 23);
        c.speedup = 10.0;
        assert_eq!(c.frames_for(5.0), 8);
        c.speedup = 1e6;
        assert_eq!(c.frames_for(5.0), 1, "every state is shown at least once");
        c.fps = None;
        c.speedup = 1.0;
        assert_eq!(c.frames_for(2.0), 30, "unpaced: counted at the demo's rate");
        c.speedup = f64::NAN;
        assert_eq!(c.frames_for(2.0), 30);
    }

    #[test]
    fn the_shipped_script_plays_to_the_end() {
        let game = DemoGame::load().unwrap();
        assert!(game.steps().last().unwrap().game_over);
        assert!(game.states().len() >= 2 * game.steps().len() - 1);
        let frames: u64 = game
            .states()
            .iter()
            .map(|s| DemoConfig::default().frames_for(s.duration_s))
            .sum();
        let minutes = frames as f64 / DEMO_FPS / 60.0;
        assert!((2.0..8.0).contains(&minutes), "a game lasts {minutes:.1} min");
    }
}
