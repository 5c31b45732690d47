//! The frame source the app is running: a [`CaptureWorker`] on its own thread, the newest frame as
//! an egui texture, and what the status line and the connection banner say.
//!
//! The UI thread only takes the newest frame (a short lock) and uploads it as a texture when a new
//! one has arrived; the worker calls `request_repaint` on every frame and status change. Switching
//! or stopping a source hands the old worker to a short-lived thread to be joined, so the window
//! never waits for a camera driver. Whatever the source does, the game is not touched: a lost
//! camera only means no picture for a while.
//!
//! The `pipeline` slot is where the camera pipeline (phase 2) plugs in: it receives each new frame
//! and turns it into a table reading; until then frames are only shown.

use crate::capture::{
    CameraInfo, CaptureError, CaptureSnapshot, CaptureWorker, DemoReason, Frame, FrameSource, SourceChoice,
    SourceStatus, WorkerConfig,
};
use opencv::prelude::*;

/// What the connection banner says, if anything (nothing while the source is live).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConnectionNotice {
    pub warning: bool,
    pub text: String,
}

/// Something that turns frames into analysis results off the UI thread (phase 2: vision and the
/// referee). The app hands it every new frame and reads how long the last analysis took.
pub trait Pipeline: std::fmt::Debug {
    /// A new frame arrived (the pipeline copies what it needs and returns at once).
    fn offer(&mut self, frame: &Frame);
    /// Milliseconds the last analysis took, once there is one.
    fn analysis_ms(&self) -> Option<f64>;
}

/// The running source.
pub struct LiveSource {
    /// In words, for the status line and the Sources panel.
    description: Option<String>,
    worker: Option<CaptureWorker>,
    texture: Option<egui::TextureHandle>,
    /// Sequence number of the frame on the texture.
    shown_seq: Option<u64>,
    snapshot: Option<CaptureSnapshot>,
    pipeline: Option<Box<dyn Pipeline>>,
    /// Why no worker runs (no camera found, the demo is not built in yet, a start failed).
    idle_reason: Option<String>,
}

impl std::fmt::Debug for LiveSource {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LiveSource")
            .field("description", &self.description)
            .field("worker", &self.worker)
            .field("shown_seq", &self.shown_seq)
            .field("idle_reason", &self.idle_reason)
            .finish_non_exhaustive()
    }
}

impl LiveSource {
    fn with(description: Option<String>, worker: Option<CaptureWorker>, idle_reason: Option<String>) -> Self {
        LiveSource {
            description,
            worker,
            texture: None,
            shown_seq: None,
            snapshot: None,
            pipeline: None,
            idle_reason,
        }
    }

    /// Nothing running; `reason` says why (shown as the source in the status line).
    pub fn idle(reason: impl Into<String>) -> Self {
        LiveSource::with(None, None, Some(reason.into()))
    }

    /// Starts the source the app chose (flags, else the first camera).
    pub fn start_choice(ctx: &egui::Context, choice: SourceChoice) -> Self {
        let description = choice.describe();
        match choice {
            SourceChoice::Demo(DemoReason::Asked) => {
                LiveSource::idle("the demo is not part of this version yet")
            }
            SourceChoice::Demo(DemoReason::NoCamera) => LiveSource::idle("no camera found"),
            SourceChoice::Demo(DemoReason::CameraListFailed(e)) => {
                LiveSource::idle(format!("no camera (they could not be listed: {e})"))
            }
            other => match other.into_factory() {
                Some(factory) => {
                    let repaint = ctx.clone();
                    match CaptureWorker::spawn(factory, WorkerConfig::default(), move || {
                        repaint.request_repaint()
                    }) {
                        Ok(worker) => LiveSource::running(description, worker),
                        Err(e) => LiveSource::idle(format!("{description} could not start: {e}")),
                    }
                }
                None => LiveSource::idle(description),
            },
        }
    }

    /// Runs any frame source (tests use the scripted fake camera).
    pub fn start_source<S: FrameSource + Send + 'static>(
        ctx: &egui::Context,
        description: impl Into<String>,
        source: S,
        config: WorkerConfig,
    ) -> Result<Self, CaptureError> {
        let repaint = ctx.clone();
        let worker = CaptureWorker::spawn_source(source, config, move || repaint.request_repaint())?;
        Ok(LiveSource::running(description.into(), worker))
    }

    fn running(description: String, worker: CaptureWorker) -> Self {
        LiveSource::with(Some(description), Some(worker), None)
    }

    /// Stops the worker without waiting for it on this thread.
    pub fn shut_down(&mut self) {
        if let Some(w) = self.worker.take() {
            // Joining may wait for a driver call; do it elsewhere.
            let _ = std::thread::Builder::new()
                .name("octoref-capture-stop".into())
                .spawn(move || drop(w));
        }
    }

    /// Puts a pipeline in the slot (phase 2).
    pub fn set_pipeline(&mut self, pipeline: Box<dyn Pipeline>) {
        self.pipeline = Some(pipeline);
    }

    /// Called from `App::logic`: reads the status, and uploads the newest frame if there is one.
    pub fn poll(&mut self, ctx: &egui::Context) {
        let Some(worker) = &self.worker else {
            return;
        };
        self.snapshot = Some(worker.snapshot());
        if let Some(frame) = worker.take_latest() {
            if let Some(p) = self.pipeline.as_mut() {
                p.offer(&frame);
            }
            if let Some(image) = to_color_image(&frame) {
                match &mut self.texture {
                    Some(t) => t.set(image, egui::TextureOptions::LINEAR),
                    None => {
                        self.texture = Some(ctx.load_texture("camera", image, egui::TextureOptions::LINEAR))
                    }
                }
                self.shown_seq = Some(frame.seq);
            }
        }
    }

    /// The source in words for the status line.
    pub fn source_words(&self) -> Option<String> {
        match (&self.description, &self.snapshot) {
            (Some(d), Some(s)) => Some(format!("{d} ({})", s.status.name())),
            (Some(d), None) => Some(d.clone()),
            (None, _) => self.idle_reason.clone(),
        }
    }

    /// Frames per second measured while live.
    pub fn fps(&self) -> Option<f64> {
        match self.snapshot.as_ref().map(|s| &s.status) {
            Some(SourceStatus::Live { fps_measured, .. }) => Some(*fps_measured),
            _ => None,
        }
    }

    pub fn analysis_ms(&self) -> Option<f64> {
        self.pipeline.as_ref().and_then(|p| p.analysis_ms())
    }

    /// The banner to show for the connection, or `None` while all is well.
    pub fn notice(&self) -> Option<ConnectionNotice> {
        let status = &self.snapshot.as_ref()?.status;
        let warning = match status {
            SourceStatus::Live { .. } | SourceStatus::Connecting => return None,
            SourceStatus::Reconnected {
                resolution_changed, ..
            } => *resolution_changed,
            SourceStatus::Stalled { .. }
            | SourceStatus::Disconnected { .. }
            | SourceStatus::Ended
            | SourceStatus::Failed { .. } => true,
        };
        Some(ConnectionNotice {
            warning,
            text: status.describe(),
        })
    }

    pub fn snapshot(&self) -> Option<&CaptureSnapshot> {
        self.snapshot.as_ref()
    }

    pub fn texture(&self) -> Option<&egui::TextureHandle> {
        self.texture.as_ref()
    }

    pub fn is_running(&self) -> bool {
        self.worker.is_some()
    }
}

impl Drop for LiveSource {
    fn drop(&mut self) {
        self.shut_down();
    }
}

/// A BGR 8-bit frame as an egui image (RGBA); `None` for anything else.
fn to_color_image(frame: &Frame) -> Option<egui::ColorImage> {
    let (w, h) = (frame.width() as usize, frame.height() as usize);
    let bytes = frame.image.data_bytes().ok()?;
    if w == 0 || h == 0 || bytes.len() != w * h * 3 {
        return None;
    }
    let mut rgba = Vec::with_capacity(w * h * 4);
    for px in bytes.chunks_exact(3) {
        rgba.extend_from_slice(&[px[2], px[1], px[0], 255]);
    }
    Some(egui::ColorImage::from_rgba_unmultiplied([w, h], &rgba))
}

/// Every camera found, for the Sources panel; an error in words when they could not be listed.
pub type CameraList = Result<Vec<CameraInfo>, String>;
