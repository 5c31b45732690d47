//! Frame sources: live camera (nokhwa), video file, image folder, a scripted fake for fault
//! injection, and the seam for the synthetic demo.
//!
//! Every source implements [`FrameSource`] and yields [`Frame`]s holding a BGR 8UC3 OpenCV `Mat`.
//! A [`CaptureWorker`] runs one source on its own thread: the newest frame wins (a slow consumer
//! never queues frames), the worker reports a [`SourceStatus`] snapshot, reopens a source that
//! disconnected with a capped backoff, and calls a repaint hook on each new frame or status change
//! so the UI thread never blocks on capture.
//!
//! Conventions: image sizes are pixels (`width` x `height`); frame rates are frames per second
//! (`fps`); times are `std::time::Instant` (monotonic) and `Duration`.
//!
//! The built-in demo (a synthetic table playing a scripted game) plugs in as any other
//! [`FrameSource`] through [`SourceChoice::Demo`] and [`CaptureWorker::spawn`]; it is built on
//! `synth` and the Crash Octopus engine and lives in `demo.rs` ([`DemoSource::factory`] also
//! gives the [`DemoHandle`] that tells the truth about each frame).

pub mod camera;
pub mod choice;
pub mod decode;
pub mod demo;
pub mod fake;
pub mod format;
pub mod images;
pub mod pacing;
pub mod still;
pub mod stop;
pub mod video;
pub mod worker;

pub use camera::{CameraInfo, CameraRequest, CameraSource, ControlOutcome, ControlReport, list_cameras};
pub use choice::{DemoReason, SourceChoice, SourceRequest, choose_source};
pub use decode::{FrameLayout, PixelFormat, decode_frame};
pub use demo::{DemoConfig, DemoHandle, DemoInfo, DemoPhase, DemoSource};
pub use fake::{CorruptKind, FakeProbe, FakeSource, FakeStep};
pub use format::{CaptureFormat, WantedFormat, choose_format};
pub use images::{ImageFolderOptions, ImageFolderSource};
pub use stop::StopSignal;
pub use video::{VideoOptions, VideoPacing, VideoSource};
pub use worker::{
    CaptureSnapshot, CaptureStats, CaptureWorker, SourceFactory, SourceStatus, StatusEvent, WorkerConfig,
};

use opencv::core::Mat;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// What kind of source a frame came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SourceKind {
    Camera,
    Video,
    Images,
    Demo,
    Fake,
}

/// One captured picture.
///
/// `image` is always BGR, 8 bits per channel, 3 channels (`CV_8UC3`) and never empty.
/// `seq` counts the frames a source has delivered, from 0, and keeps counting across reconnects,
/// so a consumer can tell frames apart and see how many it skipped. `connection` counts how many
/// times the source was (re)opened, from 1: when it changes, the camera was reconnected and may
/// have come back with another resolution.
#[derive(Debug)]
pub struct Frame {
    pub image: Mat,
    pub seq: u64,
    pub connection: u32,
    pub captured_at: Instant,
    pub source: SourceKind,
    /// The source's name, or for an image folder the file name of this frame.
    pub label: Arc<str>,
}

impl Frame {
    /// Width of the image in pixels.
    pub fn width(&self) -> u32 {
        opencv::prelude::MatTraitConst::cols(&self.image).max(0) as u32
    }

    /// Height of the image in pixels.
    pub fn height(&self) -> u32 {
        opencv::prelude::MatTraitConst::rows(&self.image).max(0) as u32
    }

    /// A deep copy (the `Mat` data is copied, not shared).
    pub fn try_clone(&self) -> Result<Frame, CaptureError> {
        Ok(Frame {
            image: opencv::prelude::MatTraitConst::try_clone(&self.image)?,
            seq: self.seq,
            connection: self.connection,
            captured_at: self.captured_at,
            source: self.source,
            label: Arc::clone(&self.label),
        })
    }
}

/// What a source delivers once opened.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct SourceInfo {
    pub kind: SourceKind,
    /// Human name: the camera's name, the video's or folder's path.
    pub name: String,
    pub width: u32,
    pub height: u32,
    /// Nominal frame rate (what the camera was set to, the video's rate, the folder's pacing).
    pub fps: f64,
    /// How frames arrive on the wire (for a camera or the fake); `None` for files decoded by OpenCV.
    pub pixel_format: Option<PixelFormat>,
}

impl SourceInfo {
    /// True when both sources deliver frames of the same size.
    pub fn same_resolution(&self, other: &SourceInfo) -> bool {
        self.width == other.width && self.height == other.height
    }
}

/// Why a source could not open or deliver a frame. The worker treats each kind differently:
/// `Corrupt` frames are skipped and counted, `Disconnected` sources are reopened with a backoff,
/// `Stalled` is reported and waited out, `EndOfStream` ends the stream, `Invalid` and `Backend`
/// from `open` are final.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum CaptureError {
    /// The device is gone or could not be opened now; trying again later may work.
    #[error("disconnected: {0}")]
    Disconnected(String),
    /// One frame's data could not be decoded (bad or truncated JPEG, short buffer, zero size).
    #[error("corrupt frame: {0}")]
    Corrupt(String),
    /// No frame arrived for this long.
    #[error("no frame for {:.1} s", .0.as_secs_f64())]
    Stalled(Duration),
    /// A video or image folder ran out of frames.
    #[error("end of stream")]
    EndOfStream,
    /// The source's input cannot be used (missing file, empty folder, not a video).
    #[error("{path}: {message}")]
    Invalid { path: PathBuf, message: String },
    /// The capture library failed in a way that is not about one frame.
    #[error("capture backend: {0}")]
    Backend(String),
    /// A stop was requested while the source was waiting.
    #[error("stopped")]
    Stopped,
}

impl From<opencv::Error> for CaptureError {
    fn from(e: opencv::Error) -> Self {
        CaptureError::Backend(format!("OpenCV: {e}"))
    }
}

/// A source of frames. Implementations are driven from one thread (the worker's), which calls
/// `open`, then `next_frame` until it fails, and `open` again after a disconnection.
///
/// A source need not be `Send`: a nokhwa camera must stay on the thread that created it, so the
/// worker takes a [`SourceFactory`] and builds the source on its own thread.
pub trait FrameSource {
    /// Opens (or reopens after a disconnection) the source and says what it delivers.
    fn open(&mut self) -> Result<SourceInfo, CaptureError>;

    /// Waits for the next frame. Waits longer than a frame period should watch `stop` and return
    /// [`CaptureError::Stopped`] promptly once it is raised.
    fn next_frame(&mut self, stop: &StopSignal) -> Result<Frame, CaptureError>;

    /// Releases the device; `open` may be called again afterwards.
    fn close(&mut self);

    /// Which camera controls were locked, for sources that have any (cameras).
    fn control_report(&self) -> Option<ControlReport> {
        None
    }
}
