//! The capture worker: one thread that owns a source, a single-slot "latest frame", a status
//! snapshot, automatic reconnection and a repaint hook.
//!
//! What a consumer may rely on:
//! - **The newest frame wins.** The slot holds at most one frame; a frame the consumer did not
//!   take before the next arrived is dropped and counted (`stats.dropped`). Nothing queues.
//! - **Nothing blocks the UI.** [`CaptureWorker::take_latest`] and [`CaptureWorker::snapshot`]
//!   only take a short lock; the worker calls the repaint hook after every new frame and every
//!   status or counter change, so an egui app passes `ctx.request_repaint`.
//! - **Faults are reported, never fatal.** A corrupt frame is skipped and counted. A source that
//!   disconnects is reopened with a backoff from [`RECONNECT_BACKOFF_FIRST`] doubling up to
//!   [`RECONNECT_BACKOFF_MAX`], for as long as the worker lives; it may come back at another
//!   resolution, which [`SourceStatus::Reconnected`] says and `Frame::connection` marks. A source
//!   that delivers nothing for [`STALL_AFTER`] is reported as stalled. Whatever the source does,
//!   the consumer's game state is untouched: it just gets no frames for a while.
//! - **Clean stop.** Dropping the worker stops the thread and joins it. A source stuck inside a
//!   driver call that ignores the stop (a V4L2 read with no timeout on a frozen camera) is given
//!   [`STOP_GRACE`] and then left to finish on its own, so quitting the app never hangs.

use super::{CaptureError, ControlReport, Frame, FrameSource, SourceInfo, StopSignal};
use std::collections::VecDeque;
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// First wait before reopening a source that disconnected (after one immediate retry).
pub const RECONNECT_BACKOFF_FIRST: Duration = Duration::from_millis(250);
/// Longest wait between reopen attempts: a replugged camera is picked up within this.
pub const RECONNECT_BACKOFF_MAX: Duration = Duration::from_secs(4);
/// No frame for this long and a live source is reported as stalled.
pub const STALL_AFTER: Duration = Duration::from_secs(2);
/// A source that keeps reporting read timeouts for this long is closed and reopened.
pub const STALL_REOPEN_AFTER: Duration = Duration::from_secs(10);
/// How long [`SourceStatus::Reconnected`] is shown before it becomes `Live` again.
pub const RECONNECTED_NOTICE: Duration = Duration::from_secs(3);
/// How long dropping the worker waits for the thread before leaving it behind.
pub const STOP_GRACE: Duration = Duration::from_secs(3);
/// Frames over which the delivered rate is measured.
pub const FPS_WINDOW: usize = 30;
/// Status changes kept in [`CaptureSnapshot::history`].
pub const STATUS_HISTORY_LEN: usize = 32;

/// Builds the source on the worker's thread (a nokhwa camera must live on the thread that reads
/// it, so sources need not be `Send`; the factory must).
pub type SourceFactory = Box<dyn FnOnce() -> Box<dyn FrameSource> + Send>;

/// Called by the worker whenever there is something new to show.
pub type RepaintHook = Arc<dyn Fn() + Send + Sync>;

/// Timings of the worker; the defaults are the named consts of this module. Tests shorten them.
#[derive(Debug, Clone, PartialEq)]
pub struct WorkerConfig {
    pub backoff_first: Duration,
    pub backoff_max: Duration,
    pub stall_after: Duration,
    pub stall_reopen_after: Duration,
    pub reconnected_notice: Duration,
    pub stop_grace: Duration,
}

impl Default for WorkerConfig {
    fn default() -> Self {
        WorkerConfig {
            backoff_first: RECONNECT_BACKOFF_FIRST,
            backoff_max: RECONNECT_BACKOFF_MAX,
            stall_after: STALL_AFTER,
            stall_reopen_after: STALL_REOPEN_AFTER,
            reconnected_notice: RECONNECTED_NOTICE,
            stop_grace: STOP_GRACE,
        }
    }
}

/// Where the source stands.
#[derive(Debug, Clone, PartialEq)]
pub enum SourceStatus {
    /// Opening for the first time.
    Connecting,
    /// Delivering frames; `fps_measured` is the rate over the last [`FPS_WINDOW`] frames (0 until
    /// two frames arrived).
    Live { info: SourceInfo, fps_measured: f64 },
    /// Open, but no frame since `since`.
    Stalled { info: SourceInfo, since: Instant },
    /// Gone since `since`; `attempts` reopen attempts failed so far.
    Disconnected {
        since: Instant,
        reason: String,
        attempts: u32,
    },
    /// Back after a disconnection (shown for [`RECONNECTED_NOTICE`], then `Live`).
    /// `resolution_changed` is true when it came back at another size than `previous`
    /// (`[width, height]`): a calibration made at the old size no longer applies.
    Reconnected {
        info: SourceInfo,
        resolution_changed: bool,
        previous: [u32; 2],
        at: Instant,
    },
    /// A video or image folder played to its end.
    Ended,
    /// The source cannot be used (missing file, a crash in the capture library); not retried.
    Failed { reason: String },
}

impl SourceStatus {
    /// A short name for the state, for logs and tests.
    pub fn name(&self) -> &'static str {
        match self {
            SourceStatus::Connecting => "connecting",
            SourceStatus::Live { .. } => "live",
            SourceStatus::Stalled { .. } => "stalled",
            SourceStatus::Disconnected { .. } => "disconnected",
            SourceStatus::Reconnected { .. } => "reconnected",
            SourceStatus::Ended => "ended",
            SourceStatus::Failed { .. } => "failed",
        }
    }

    /// One line for the UI: what is happening and what the user may do.
    pub fn describe(&self) -> String {
        match self {
            SourceStatus::Connecting => "Connecting to the camera…".into(),
            SourceStatus::Live { info, fps_measured } => format!(
                "{}: {}x{} at {:.0} fps",
                info.name, info.width, info.height, fps_measured
            ),
            SourceStatus::Stalled { info, since } => format!(
                "{}: no picture for {:.0} s (the game is kept)",
                info.name,
                since.elapsed().as_secs_f64()
            ),
            SourceStatus::Disconnected {
                since,
                reason,
                attempts,
            } => format!(
                "Camera lost {:.0} s ago ({reason}); reconnecting (attempt {attempts}). The game is kept.",
                since.elapsed().as_secs_f64()
            ),
            SourceStatus::Reconnected {
                info,
                resolution_changed: true,
                previous,
                ..
            } => format!(
                "{} is back at {}x{} (was {}x{}): calibrate again",
                info.name, info.width, info.height, previous[0], previous[1]
            ),
            SourceStatus::Reconnected { info, .. } => format!("{} is back", info.name),
            SourceStatus::Ended => "End of the recording".into(),
            SourceStatus::Failed { reason } => format!("Cannot capture: {reason}"),
        }
    }
}

/// A status change, kept in the snapshot's history.
#[derive(Debug, Clone, PartialEq)]
pub struct StatusEvent {
    pub at: Instant,
    pub status: SourceStatus,
}

/// Counters since the worker started.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct CaptureStats {
    /// Good frames put in the slot.
    pub frames: u64,
    /// Frames replaced in the slot before the consumer took them.
    pub dropped: u64,
    /// Frames skipped because they could not be decoded.
    pub corrupt: u64,
    pub last_corrupt_reason: Option<String>,
    pub disconnects: u32,
    pub reconnects: u32,
    /// Times the source went quiet for longer than the stall limit.
    pub stalls: u32,
    pub last_frame_at: Option<Instant>,
}

/// Everything the UI shows about capture, copied out under a short lock.
#[derive(Debug, Clone, PartialEq)]
pub struct CaptureSnapshot {
    pub status: SourceStatus,
    /// The source as last opened.
    pub info: Option<SourceInfo>,
    pub stats: CaptureStats,
    pub controls: Option<ControlReport>,
    /// The last [`STATUS_HISTORY_LEN`] changes of state, oldest first.
    pub history: Vec<StatusEvent>,
}

#[derive(Debug)]
struct State {
    status: SourceStatus,
    info: Option<SourceInfo>,
    stats: CaptureStats,
    controls: Option<ControlReport>,
    history: VecDeque<StatusEvent>,
    /// Last time the source showed life (opened or delivered), for the stall watchdog.
    last_progress: Instant,
    done: bool,
}

impl State {
    fn set_status(&mut self, status: SourceStatus) {
        let changed = std::mem::discriminant(&status) != std::mem::discriminant(&self.status);
        if changed {
            if self.history.len() == STATUS_HISTORY_LEN {
                self.history.pop_front();
            }
            self.history.push_back(StatusEvent {
                at: Instant::now(),
                status: status.clone(),
            });
        }
        self.status = status;
    }
}

struct Shared {
    slot: Mutex<Option<Frame>>,
    slot_changed: Condvar,
    state: Mutex<State>,
    done_changed: Condvar,
    stop: StopSignal,
    repaint: RepaintHook,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

impl Shared {
    fn update(&self, f: impl FnOnce(&mut State)) {
        f(&mut lock(&self.state));
        (self.repaint)();
    }
}

/// Runs a [`FrameSource`] on its own thread; see the module docs.
pub struct CaptureWorker {
    shared: Arc<Shared>,
    config: WorkerConfig,
    thread: Option<JoinHandle<()>>,
    watchdog: Option<JoinHandle<()>>,
}

impl std::fmt::Debug for CaptureWorker {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CaptureWorker")
            .field("status", &lock(&self.shared.state).status.name())
            .field("config", &self.config)
            .finish()
    }
}

impl CaptureWorker {
    /// Starts a worker on the source `factory` builds (on the worker's thread). `repaint` is
    /// called after each new frame and each status change.
    pub fn spawn(
        factory: SourceFactory,
        config: WorkerConfig,
        repaint: impl Fn() + Send + Sync + 'static,
    ) -> Result<Self, CaptureError> {
        let shared = Arc::new(Shared {
            slot: Mutex::new(None),
            slot_changed: Condvar::new(),
            state: Mutex::new(State {
                status: SourceStatus::Connecting,
                info: None,
                stats: CaptureStats::default(),
                controls: None,
                history: VecDeque::from([StatusEvent {
                    at: Instant::now(),
                    status: SourceStatus::Connecting,
                }]),
                last_progress: Instant::now(),
                done: false,
            }),
            done_changed: Condvar::new(),
            stop: StopSignal::new(),
            repaint: Arc::new(repaint),
        });
        let spawn_err =
            |e: std::io::Error| CaptureError::Backend(format!("cannot start a capture thread: {e}"));
        let thread = {
            let shared = Arc::clone(&shared);
            let config = config.clone();
            std::thread::Builder::new()
                .name("octoref-capture".into())
                .spawn(move || run(&shared, factory, &config))
                .map_err(spawn_err)?
        };
        let watchdog = {
            let shared = Arc::clone(&shared);
            let config = config.clone();
            std::thread::Builder::new()
                .name("octoref-capture-watchdog".into())
                .spawn(move || watch_for_stalls(&shared, &config))
        };
        let watchdog = match watchdog {
            Ok(w) => w,
            Err(e) => {
                shared.stop.stop();
                let _ = thread.join();
                return Err(spawn_err(e));
            }
        };
        Ok(CaptureWorker {
            shared,
            config,
            thread: Some(thread),
            watchdog: Some(watchdog),
        })
    }

    /// Starts a worker on a source that can be moved to the worker's thread.
    pub fn spawn_source<S: FrameSource + Send + 'static>(
        source: S,
        config: WorkerConfig,
        repaint: impl Fn() + Send + Sync + 'static,
    ) -> Result<Self, CaptureError> {
        Self::spawn(
            Box::new(move || Box::new(source) as Box<dyn FrameSource>),
            config,
            repaint,
        )
    }

    /// Takes the newest frame, if one arrived since the last take. Never blocks on capture.
    pub fn take_latest(&self) -> Option<Frame> {
        lock(&self.shared.slot).take()
    }

    /// Waits up to `timeout` for a frame and takes it. Returns `None` on timeout or once the
    /// worker has finished (end of a video, a failed source) with no frame left.
    pub fn wait_frame(&self, timeout: Duration) -> Option<Frame> {
        let deadline = Instant::now() + timeout;
        let mut slot = lock(&self.shared.slot);
        loop {
            if let Some(frame) = slot.take() {
                return Some(frame);
            }
            let now = Instant::now();
            if now >= deadline || self.is_finished() {
                return None;
            }
            slot = self
                .shared
                .slot_changed
                .wait_timeout(slot, deadline - now)
                .unwrap_or_else(PoisonError::into_inner)
                .0;
        }
    }

    /// A copy of the status, counters and history.
    pub fn snapshot(&self) -> CaptureSnapshot {
        let state = lock(&self.shared.state);
        CaptureSnapshot {
            status: state.status.clone(),
            info: state.info.clone(),
            stats: state.stats.clone(),
            controls: state.controls.clone(),
            history: state.history.iter().cloned().collect(),
        }
    }

    /// True once the worker's thread has finished (ended, failed or stopped).
    pub fn is_finished(&self) -> bool {
        lock(&self.shared.state).done
    }

    /// Stops the worker and waits for its thread (same as dropping it).
    pub fn stop(self) {
        drop(self);
    }
}

impl Drop for CaptureWorker {
    fn drop(&mut self) {
        self.shared.stop.stop();
        if let Some(w) = self.watchdog.take() {
            let _ = w.join();
        }
        let deadline = Instant::now() + self.config.stop_grace;
        let finished = {
            let mut state = lock(&self.shared.state);
            loop {
                if state.done {
                    break true;
                }
                let now = Instant::now();
                if now >= deadline {
                    break false;
                }
                state = self
                    .shared
                    .done_changed
                    .wait_timeout(state, deadline - now)
                    .unwrap_or_else(PoisonError::into_inner)
                    .0;
            }
        };
        if let Some(t) = self.thread.take() {
            if finished {
                let _ = t.join();
            } else {
                tracing::warn!(
                    "capture thread did not stop within {:?} (blocked in the camera driver); leaving it",
                    self.config.stop_grace
                );
            }
        }
    }
}

/// Marks the worker done when its thread ends, normally or by a panic in a capture library.
struct DoneGuard<'a>(&'a Shared);

impl Drop for DoneGuard<'_> {
    fn drop(&mut self) {
        {
            let mut state = lock(&self.0.state);
            if std::thread::panicking() {
                state.set_status(SourceStatus::Failed {
                    reason: "the capture thread crashed".into(),
                });
            }
            state.done = true;
        }
        self.0.done_changed.notify_all();
        self.0.slot_changed.notify_all();
        (self.0.repaint)();
    }
}

/// Rate of the last frames.
struct FpsMeter {
    times: VecDeque<Instant>,
}

impl FpsMeter {
    fn new() -> Self {
        FpsMeter {
            times: VecDeque::with_capacity(FPS_WINDOW),
        }
    }
    fn tick(&mut self, t: Instant) -> f64 {
        if self.times.len() == FPS_WINDOW {
            self.times.pop_front();
        }
        self.times.push_back(t);
        match (self.times.front(), self.times.back()) {
            (Some(first), Some(last)) if self.times.len() >= 2 && last > first => {
                (self.times.len() - 1) as f64 / (*last - *first).as_secs_f64()
            }
            _ => 0.0,
        }
    }
}

/// How a read loop ended.
enum ReadEnd {
    /// Reopen the source (it disconnected or stalled too long).
    Reopen,
    /// The worker is done.
    Finish,
}

fn run(shared: &Shared, factory: SourceFactory, config: &WorkerConfig) {
    let _done = DoneGuard(shared);
    let mut source = factory();
    let mut previous: Option<SourceInfo> = None;
    let mut attempts: u32 = 0;
    let mut backoff: Option<Duration> = None;
    let mut lost_since: Option<Instant> = None;
    while !shared.stop.is_stopped() {
        match source.open() {
            Ok(info) => {
                let now = Instant::now();
                let status = match &previous {
                    None => SourceStatus::Live {
                        info: info.clone(),
                        fps_measured: 0.0,
                    },
                    Some(prev) => SourceStatus::Reconnected {
                        info: info.clone(),
                        resolution_changed: !prev.same_resolution(&info),
                        previous: [prev.width, prev.height],
                        at: now,
                    },
                };
                tracing::info!(name = %info.name, width = info.width, height = info.height, "capture source open");
                let controls = source.control_report();
                shared.update(|s| {
                    if previous.is_some() {
                        s.stats.reconnects += 1;
                    }
                    s.set_status(status);
                    s.info = Some(info.clone());
                    s.controls = controls;
                    s.last_progress = now;
                });
                previous = Some(info);
                attempts = 0;
                backoff = None;
                match read_frames(shared, source.as_mut(), config) {
                    ReadEnd::Finish => break,
                    ReadEnd::Reopen => {
                        source.close();
                        lost_since = Some(Instant::now());
                        // One immediate retry: a glitch often clears at once.
                        continue;
                    }
                }
            }
            Err(CaptureError::Stopped) => break,
            Err(e @ (CaptureError::Disconnected(_) | CaptureError::Stalled(_))) => {
                attempts += 1;
                let since = *lost_since.get_or_insert_with(Instant::now);
                shared.update(|s| {
                    s.set_status(SourceStatus::Disconnected {
                        since,
                        reason: reason_of(&e),
                        attempts,
                    });
                });
                let wait = backoff.map_or(config.backoff_first, |b| (b * 2).min(config.backoff_max));
                backoff = Some(wait);
                if shared.stop.sleep(wait) {
                    break;
                }
            }
            Err(CaptureError::EndOfStream) => {
                shared.update(|s| s.set_status(SourceStatus::Ended));
                break;
            }
            Err(e) => {
                tracing::warn!("capture source failed: {e}");
                shared.update(|s| {
                    s.set_status(SourceStatus::Failed {
                        reason: e.to_string(),
                    });
                });
                break;
            }
        }
    }
    source.close();
}

fn reason_of(e: &CaptureError) -> String {
    match e {
        CaptureError::Disconnected(r) => r.clone(),
        other => other.to_string(),
    }
}

fn read_frames(shared: &Shared, source: &mut dyn FrameSource, config: &WorkerConfig) -> ReadEnd {
    let mut fps = FpsMeter::new();
    let mut stalled_since: Option<Instant> = None;
    loop {
        // Sources should return `Stopped` themselves, but one that ignores the signal must not
        // keep the thread alive past its current read.
        if shared.stop.is_stopped() {
            return ReadEnd::Finish;
        }
        match source.next_frame(&shared.stop) {
            Ok(frame) => {
                let at = frame.captured_at;
                let replaced = lock(&shared.slot).replace(frame).is_some();
                shared.slot_changed.notify_all();
                stalled_since = None;
                let rate = fps.tick(at);
                let controls = source.control_report();
                shared.update(|s| {
                    s.stats.frames += 1;
                    if replaced {
                        s.stats.dropped += 1;
                    }
                    s.stats.last_frame_at = Some(at);
                    s.last_progress = Instant::now();
                    if controls.is_some() {
                        s.controls = controls;
                    }
                    let next = match &s.status {
                        SourceStatus::Reconnected { at: back, .. }
                            if back.elapsed() < config.reconnected_notice =>
                        {
                            None
                        }
                        _ => s.info.clone().map(|info| SourceStatus::Live {
                            info,
                            fps_measured: rate,
                        }),
                    };
                    if let Some(next) = next {
                        s.set_status(next);
                    }
                });
            }
            Err(CaptureError::Corrupt(reason)) => {
                tracing::debug!("corrupt frame skipped: {reason}");
                shared.update(|s| {
                    s.stats.corrupt += 1;
                    s.stats.last_corrupt_reason = Some(reason);
                    s.last_progress = Instant::now();
                });
            }
            Err(CaptureError::Stalled(for_how_long)) => {
                let since = *stalled_since.get_or_insert_with(|| {
                    Instant::now()
                        .checked_sub(for_how_long)
                        .unwrap_or_else(Instant::now)
                });
                if since.elapsed() >= config.stall_reopen_after {
                    let reason = format!("no frames for {:.0} s", since.elapsed().as_secs_f64());
                    shared.update(|s| {
                        s.stats.disconnects += 1;
                        s.set_status(SourceStatus::Disconnected {
                            since: Instant::now(),
                            reason,
                            attempts: 0,
                        });
                    });
                    return ReadEnd::Reopen;
                }
                shared.update(|s| mark_stalled(s, since));
            }
            Err(CaptureError::Disconnected(reason)) => {
                tracing::warn!("capture source disconnected: {reason}");
                shared.update(|s| {
                    s.stats.disconnects += 1;
                    s.set_status(SourceStatus::Disconnected {
                        since: Instant::now(),
                        reason,
                        attempts: 0,
                    });
                });
                return ReadEnd::Reopen;
            }
            Err(CaptureError::EndOfStream) => {
                shared.update(|s| s.set_status(SourceStatus::Ended));
                return ReadEnd::Finish;
            }
            Err(CaptureError::Stopped) => return ReadEnd::Finish,
            Err(e @ (CaptureError::Invalid { .. } | CaptureError::Backend(_))) => {
                tracing::warn!("capture source failed: {e}");
                shared.update(|s| {
                    s.set_status(SourceStatus::Failed {
                        reason: e.to_string(),
                    });
                });
                return ReadEnd::Finish;
            }
        }
    }
}

/// Moves a live (or just reconnected) source to `Stalled`, counting the stall once.
fn mark_stalled(s: &mut State, since: Instant) {
    let info = match &s.status {
        SourceStatus::Live { info, .. } | SourceStatus::Reconnected { info, .. } => info.clone(),
        _ => return,
    };
    s.stats.stalls += 1;
    s.set_status(SourceStatus::Stalled { info, since });
}

/// Watches for sources that block instead of reporting a timeout: a live source with no frame
/// for `stall_after` is marked stalled (the worker marks it live again with the next frame).
fn watch_for_stalls(shared: &Shared, config: &WorkerConfig) {
    let period = (config.stall_after / 4).clamp(Duration::from_millis(10), Duration::from_millis(250));
    while !shared.stop.sleep(period) {
        let mut changed = false;
        {
            let mut s = lock(&shared.state);
            if s.done {
                return;
            }
            let quiet_since = s.last_progress;
            if quiet_since.elapsed() >= config.stall_after {
                let before = s.stats.stalls;
                mark_stalled(&mut s, quiet_since);
                changed = s.stats.stalls != before;
            }
        }
        if changed {
            (shared.repaint)();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fps_meter_measures_the_window() {
        let mut m = FpsMeter::new();
        let t0 = Instant::now();
        assert_eq!(m.tick(t0), 0.0);
        for i in 1..=40u64 {
            let r = m.tick(t0 + Duration::from_millis(40 * i));
            assert!((r - 25.0).abs() < 1e-6, "{r}");
        }
        assert_eq!(m.times.len(), FPS_WINDOW);
    }

    #[test]
    fn history_records_changes_of_state_only_and_is_bounded() {
        let mut s = State {
            status: SourceStatus::Connecting,
            info: None,
            stats: CaptureStats::default(),
            controls: None,
            history: VecDeque::new(),
            last_progress: Instant::now(),
            done: false,
        };
        for attempts in 1..5 {
            s.set_status(SourceStatus::Disconnected {
                since: Instant::now(),
                reason: "x".into(),
                attempts,
            });
        }
        assert_eq!(s.history.len(), 1);
        for _ in 0..STATUS_HISTORY_LEN {
            s.set_status(SourceStatus::Ended);
            s.set_status(SourceStatus::Connecting);
        }
        assert_eq!(s.history.len(), STATUS_HISTORY_LEN);
    }
}
