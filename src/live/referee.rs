//! [`LiveReferee`]: the handle the app keeps. Every method returns at once; the work happens on
//! the referee's own thread (see `worker.rs`).

use super::calibration::LiveCalibration;
use super::config::LiveConfig;
use super::error::LiveError;
use super::snapshot::LiveSnapshot;
use super::worker::{Command, Engine, Inbox, Shared};
use crate::capture::Frame;
use crate::referee::GameContext;
use crate::table::Catalog;
use std::sync::atomic::Ordering;
use std::sync::{Arc, PoisonError};
use std::thread::JoinHandle;

/// The running referee: one worker thread owning Analyzer + Tracker + Committer + the fault
/// monitor. Dropping it stops the thread (after the frame in hand, if any).
pub struct LiveReferee {
    shared: Arc<Shared>,
    thread: Option<JoinHandle<()>>,
}

impl std::fmt::Debug for LiveReferee {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let s = self.snapshot();
        f.debug_struct("LiveReferee")
            .field("frames_analysed", &s.frames_analysed)
            .field("faults", &s.faults)
            .finish_non_exhaustive()
    }
}

impl LiveReferee {
    /// Prepares vision for `cal` (warp maps, colour models: done here, once, so a bad calibration
    /// is an error at once) and starts the worker. `on_update` is called after every new
    /// snapshot (an egui app passes a repaint request; the app's is
    /// `app::live::repaint_hook_within`).
    pub fn start(
        cal: LiveCalibration,
        catalog: Catalog,
        ctx: GameContext,
        config: LiveConfig,
        on_update: Box<dyn Fn() + Send>,
    ) -> Result<Self, LiveError> {
        let engine = Engine::new(cal, catalog, ctx, config)?;
        let shared = Arc::new(Shared::new(engine.snapshot()));
        let thread = {
            let shared = Arc::clone(&shared);
            std::thread::Builder::new()
                .name("octoref-live".into())
                .spawn(move || {
                    // Below the UI, so the picture keeps the camera's pace (see `priority`).
                    if let Err(e) = super::priority::lower_this_thread() {
                        tracing::warn!("the referee runs at the app's priority: {e}");
                    }
                    engine.run(&shared, &*on_update)
                })
                .map_err(|e| LiveError::Thread(e.to_string()))?
        };
        Ok(Self {
            shared,
            thread: Some(thread),
        })
    }

    /// Hands a frame over (a copy of it) and returns at once. If the worker has not picked up
    /// the previous one yet, that one is dropped and counted: the newest frame wins. Vision never
    /// runs on the caller's thread.
    pub fn offer(&self, frame: &Frame) {
        let copy = frame.try_clone().ok();
        let mut inbox = self.shared.lock_inbox();
        if inbox.frame.is_some() {
            self.shared.dropped.fetch_add(1, Ordering::Relaxed);
        }
        inbox.frame = Some(match copy {
            Some(f) => Ok(f),
            None => Err(frame.seq),
        });
        inbox.last_offer = Some(std::time::Instant::now());
        drop(inbox);
        self.shared.wake.notify_one();
    }

    /// The game moved on (active player, loads): the committed reading is ruled again under the
    /// new context as soon as the worker takes the command.
    pub fn set_context(&self, ctx: GameContext) {
        self.send(Command::SetContext(ctx));
    }

    /// The view moved: re-fit the calibration to the latest frame (the table frame, and so the
    /// game and every piece, is kept). The outcome is in [`LiveSnapshot::reregistration`].
    pub fn reregister(&self) {
        self.send(Command::Reregister);
    }

    /// Swaps in a freshly calibrated profile. Pieces are tracked afresh; the last committed
    /// reading stays on show until the new calibration's first commit.
    pub fn replace_calibration(&self, cal: LiveCalibration) {
        self.send(Command::Replace(Box::new(cal)));
    }

    /// The latest state (an `Arc` clone under a short lock).
    pub fn snapshot(&self) -> Arc<LiveSnapshot> {
        Arc::clone(
            &self
                .shared
                .snapshot
                .lock()
                .unwrap_or_else(PoisonError::into_inner),
        )
    }

    fn send(&self, command: Command) {
        self.shared.lock_inbox().commands.push_back(command);
        self.shared.wake.notify_one();
    }

    /// Stops the worker and waits for it (same as dropping).
    pub fn stop(self) {
        drop(self);
    }
}

impl Drop for LiveReferee {
    fn drop(&mut self) {
        {
            let mut inbox: std::sync::MutexGuard<'_, Inbox> = self.shared.lock_inbox();
            inbox.stop = true;
        }
        self.shared.wake.notify_one();
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}
