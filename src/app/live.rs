//! The frame source the app is running: a [`CaptureWorker`] on its own thread, the newest frame as
//! an egui texture, and what the status line and the connection banner say.
//!
//! The UI thread only takes the newest frame (a short lock) and uploads it as a texture when a new
//! one has arrived; the worker asks for one repaint ([`repaint_hook`]) on every frame and status
//! change. Switching
//! or stopping a source hands the old worker to a short-lived thread to be joined, so the window
//! never waits for a camera driver. Whatever the source does, the game is not touched: a lost
//! camera only means no picture for a while.
//!
//! The `pipeline` slot is where the referee plugs in: it receives each new frame and turns it into
//! a table reading on its own worker (see [`super::referee_link`]).
//!
//! The demo runs like any camera; its [`DemoHandle`] is kept so the app can follow the demo's
//! scripted game frame by frame.

use crate::capture::{
    CameraInfo, CaptureError, CaptureSnapshot, CaptureWorker, DemoConfig, DemoHandle, DemoSource, Frame,
    FrameSource, SourceChoice, SourceStatus, WorkerConfig,
};
use crate::referee::FrameReport;
use opencv::prelude::*;

/// What the connection banner says, if anything (nothing while the source is live).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConnectionNotice {
    pub warning: bool,
    pub text: String,
}

/// Something that turns frames into table readings off the UI thread (phase 2: vision and the
/// referee on a worker). The app hands it every new frame, and reads the newest [`FrameReport`]
/// (drawn as overlays over the picture) and how long the last analysis took.
pub trait Pipeline: std::fmt::Debug {
    /// A new frame arrived (the pipeline copies what it needs and returns at once).
    fn offer(&mut self, frame: &Frame);
    /// The newest reading, once there is one.
    fn latest(&self) -> Option<&FrameReport>;
    /// Milliseconds the last analysis took, once there is one.
    fn analysis_ms(&self) -> Option<f64>;
    /// Takes in what the worker has finished since the last call (called once per UI frame,
    /// before `latest`).
    fn refresh(&mut self) {}
}

/// How soon a worker's repaint request is drawn. Not zero: egui answers a zero-delay request
/// (`request_repaint`) with *two* frames, so every camera frame was drawn twice — at 15 fps the
/// software rasteriser was asked for 30 frames a second and could not keep up with the camera.
/// A millisecond is not seen, and requests made before the frame is drawn are drawn together.
pub const REPAINT_DELAY: std::time::Duration = std::time::Duration::from_millis(1);

/// How soon a new reading from the referee is drawn at the latest. Longer than a camera frame
/// (15-30 fps) on purpose: while the camera runs, its next frame draws the reading too, so the
/// referee's updates add no frames of their own (measured: at 5.9 readings a second they added 4.7
/// frames a second to the camera's 15); with the picture stalled the reading still shows.
pub const READING_REPAINT_WITHIN: std::time::Duration = std::time::Duration::from_millis(100);

/// A hook for a worker (the camera's) that asks egui for one repaint, soon.
pub fn repaint_hook(ctx: &egui::Context) -> impl Fn() + Send + Sync + 'static {
    repaint_hook_within(ctx, REPAINT_DELAY)
}

/// A hook that asks egui for one repaint within `delay` (not zero: see [`REPAINT_DELAY`]);
/// requests that meet before a frame is drawn are drawn by that one frame.
pub fn repaint_hook_within(
    ctx: &egui::Context,
    delay: std::time::Duration,
) -> impl Fn() + Send + Sync + 'static {
    let ctx = ctx.clone();
    let delay = delay.max(REPAINT_DELAY);
    move || ctx.request_repaint_after(delay)
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
    /// Why no worker runs (no source chosen, a start failed).
    idle_reason: Option<String>,
    /// The truth about the demo's frames, while the demo runs.
    demo: Option<DemoHandle>,
    /// The newest frame, kept for captures (calibration, teaching).
    latest_frame: Option<Frame>,
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
            demo: None,
            latest_frame: None,
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
            SourceChoice::Demo(_) => LiveSource::start_demo(ctx, description, DemoConfig::default()),
            other => match other.into_factory() {
                Some(factory) => {
                    match CaptureWorker::spawn(factory, WorkerConfig::default(), repaint_hook(ctx)) {
                        Ok(worker) => LiveSource::running(description, worker),
                        Err(e) => LiveSource::idle(format!("{description} could not start: {e}")),
                    }
                }
                None => LiveSource::idle(description),
            },
        }
    }

    /// Runs the built-in demo (`description` says why it was chosen).
    pub fn start_demo(ctx: &egui::Context, description: impl Into<String>, config: DemoConfig) -> Self {
        let description = description.into();
        let (factory, handle) = DemoSource::factory(config);
        match CaptureWorker::spawn(factory, WorkerConfig::default(), repaint_hook(ctx)) {
            Ok(worker) => {
                let mut live = LiveSource::running(description, worker);
                live.demo = Some(handle);
                live
            }
            Err(e) => LiveSource::idle(format!("{description} could not start: {e}")),
        }
    }

    /// Runs any frame source (tests use the scripted fake camera).
    pub fn start_source<S: FrameSource + Send + 'static>(
        ctx: &egui::Context,
        description: impl Into<String>,
        source: S,
        config: WorkerConfig,
    ) -> Result<Self, CaptureError> {
        let worker = CaptureWorker::spawn_source(source, config, repaint_hook(ctx))?;
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

    /// The demo's handle while the demo runs.
    pub fn demo(&self) -> Option<&DemoHandle> {
        self.demo.as_ref()
    }

    /// The newest frame taken from the source (for a capture).
    pub fn latest_frame(&self) -> Option<&Frame> {
        self.latest_frame.as_ref()
    }

    /// Sequence number of the frame on screen.
    pub fn shown_seq(&self) -> Option<u64> {
        self.shown_seq
    }

    /// Puts a pipeline in the slot (the referee).
    pub fn set_pipeline(&mut self, pipeline: Box<dyn Pipeline>) {
        self.pipeline = Some(pipeline);
    }

    /// Called from `App::logic`: reads the status, and uploads the newest frame if there is one.
    pub fn poll(&mut self, ctx: &egui::Context) {
        let Some(worker) = &self.worker else {
            return;
        };
        self.snapshot = Some(worker.snapshot());
        if let Some(p) = self.pipeline.as_mut() {
            p.refresh();
        }
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
            self.latest_frame = Some(frame);
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

    /// The pipeline's newest table reading (none until a pipeline is in the slot).
    pub fn report(&self) -> Option<&FrameReport> {
        self.pipeline.as_ref().and_then(|p| p.latest())
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
    let small = super::camera_view::shrink_for_texture(&frame.image);
    let image = small.as_ref().unwrap_or(&frame.image);
    let (w, h) = (image.cols().max(0) as usize, image.rows().max(0) as usize);
    let bytes = image.data_bytes().ok()?;
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::capture::{FakeSource, FakeStep, PixelFormat, SourceKind};
    use opencv::core::{CV_8UC3, Mat, Scalar};
    use std::sync::{Arc, Mutex};
    use std::time::{Duration, Instant};

    #[test]
    fn the_repaint_hook_asks_for_one_repaint_not_two() {
        let ctx = egui::Context::default();
        let delays = Arc::new(Mutex::new(Vec::new()));
        {
            let delays = Arc::clone(&delays);
            ctx.set_request_repaint_callback(move |info| delays.lock().unwrap().push(info.delay));
        }
        repaint_hook(&ctx)();
        repaint_hook_within(&ctx, READING_REPAINT_WITHIN)();
        repaint_hook_within(&ctx, std::time::Duration::ZERO)();
        let delays = delays.lock().unwrap().clone();
        assert!(!delays.is_empty(), "the hook asked for a repaint");
        // A zero delay is egui's "repaint twice".
        assert!(
            delays
                .iter()
                .all(|d| !d.is_zero() && *d <= READING_REPAINT_WITHIN),
            "{delays:?}"
        );
    }

    #[test]
    fn frames_become_rgba_images_with_the_channels_swapped() {
        let image =
            Mat::new_rows_cols_with_default(2, 3, CV_8UC3, Scalar::new(10.0, 20.0, 200.0, 0.0)).unwrap();
        let frame = Frame {
            image,
            seq: 0,
            connection: 1,
            captured_at: Instant::now(),
            source: SourceKind::Fake,
            label: Arc::from("t"),
        };
        let c = to_color_image(&frame).unwrap();
        assert_eq!(c.size, [3, 2]);
        assert_eq!(c.pixels[0], egui::Color32::from_rgb(200, 20, 10));
    }

    #[derive(Debug, Default)]
    struct Counting {
        offered: Arc<Mutex<u64>>,
    }

    impl Pipeline for Counting {
        fn offer(&mut self, _frame: &Frame) {
            *self.offered.lock().unwrap() += 1;
        }
        fn latest(&self) -> Option<&FrameReport> {
            None
        }
        fn analysis_ms(&self) -> Option<f64> {
            Some(4.0)
        }
    }

    #[test]
    fn new_frames_reach_the_texture_and_the_pipeline_slot() {
        let ctx = egui::Context::default();
        let fake = FakeSource::new(
            64,
            48,
            Some(100.0),
            vec![FakeStep::Frames {
                count: 1000,
                pixel: PixelFormat::Mjpeg,
            }],
        );
        let mut live = LiveSource::start_source(&ctx, "fake", fake, WorkerConfig::default()).unwrap();
        let offered = Arc::new(Mutex::new(0));
        live.set_pipeline(Box::new(Counting {
            offered: Arc::clone(&offered),
        }));
        let deadline = Instant::now() + Duration::from_secs(10);
        while (live.texture().is_none() || live.fps().is_none()) && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(10));
            live.poll(&ctx);
        }
        assert_eq!(live.texture().map(|t| t.size()), Some([64, 48]));
        assert!(*offered.lock().unwrap() >= 1);
        assert_eq!(live.analysis_ms(), Some(4.0));
        assert!(live.notice().is_none(), "no banner while live");
        assert!(live.source_words().unwrap().starts_with("fake (live)"));
        live.shut_down();
        assert!(!live.is_running());
        let idle = LiveSource::idle("no camera found");
        assert_eq!(idle.source_words().as_deref(), Some("no camera found"));
    }
}
