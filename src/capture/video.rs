//! A video file played as the camera (OpenCV videoio).

use super::pacing::Pacer;
use super::{CaptureError, Frame, FrameSource, SourceInfo, SourceKind, StopSignal};
use opencv::core::{CV_8UC3, Mat};
use opencv::prelude::*;
use opencv::{imgproc, videoio};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

/// Rate used when a video file does not say its own.
pub const FALLBACK_VIDEO_FPS: f64 = 30.0;

/// How fast a video is played.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum VideoPacing {
    /// At the rate the file declares, as a camera would deliver it.
    FileRate,
    /// At a given rate (frames per second).
    Fixed(f64),
    /// As fast as frames can be decoded (batch analysis).
    Unpaced,
}

/// Which video and how to play it.
#[derive(Debug, Clone, PartialEq)]
pub struct VideoOptions {
    pub path: PathBuf,
    /// Start again from the beginning at the end instead of ending.
    pub looping: bool,
    pub pacing: VideoPacing,
}

impl VideoOptions {
    /// Plays `path` once at its own rate.
    pub fn new(path: impl Into<PathBuf>) -> Self {
        VideoOptions {
            path: path.into(),
            looping: false,
            pacing: VideoPacing::FileRate,
        }
    }
}

/// Plays a video file. The file is checked when opened: a missing file or one OpenCV cannot
/// read is [`CaptureError::Invalid`] naming it.
pub struct VideoSource {
    options: VideoOptions,
    capture: Option<videoio::VideoCapture>,
    /// The first frame, read at open to learn the real size, delivered first.
    pending: Option<Mat>,
    pacer: Pacer,
    label: Arc<str>,
    seq: u64,
    connection: u32,
    delivered_this_pass: u64,
}

impl std::fmt::Debug for VideoSource {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("VideoSource")
            .field("options", &self.options)
            .field("open", &self.capture.is_some())
            .field("seq", &self.seq)
            .finish()
    }
}

impl VideoSource {
    pub fn new(options: VideoOptions) -> Self {
        let label = options
            .path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| options.path.display().to_string());
        VideoSource {
            options,
            capture: None,
            pending: None,
            pacer: Pacer::new(None),
            label: Arc::from(label),
            seq: 0,
            connection: 0,
            delivered_this_pass: 0,
        }
    }

    fn invalid(&self, message: impl Into<String>) -> CaptureError {
        CaptureError::Invalid {
            path: self.options.path.clone(),
            message: message.into(),
        }
    }

    fn start(&self) -> Result<videoio::VideoCapture, CaptureError> {
        let path = &self.options.path;
        if !path.is_file() {
            return Err(self.invalid("no such video file (expected a readable file)"));
        }
        let capture = videoio::VideoCapture::from_file(path, videoio::CAP_ANY)
            .map_err(|e| self.invalid(format!("cannot open the video: {e}")))?;
        if !capture.is_opened().unwrap_or(false) {
            return Err(self.invalid("not a video OpenCV can read"));
        }
        Ok(capture)
    }

    /// Reads one frame as BGR 8UC3; `None` at the end of the file.
    fn read(capture: &mut videoio::VideoCapture) -> Result<Option<Mat>, CaptureError> {
        let mut img = Mat::default();
        let ok = capture
            .read(&mut img)
            .map_err(|e| CaptureError::Corrupt(format!("video frame: {e}")))?;
        if !ok || img.empty() {
            return Ok(None);
        }
        to_bgr(img).map(Some)
    }
}

/// Converts grey, BGRA or 16-bit frames to BGR 8UC3.
pub(crate) fn to_bgr(img: Mat) -> Result<Mat, CaptureError> {
    if img.typ() == CV_8UC3 {
        return Ok(img);
    }
    let eight_bit = if img.depth() == opencv::core::CV_8U {
        img
    } else {
        // 16-bit PNGs and the like: scale to 8 bits.
        let scale = if img.depth() == opencv::core::CV_16U {
            1.0 / 257.0
        } else {
            1.0
        };
        let mut out = Mat::default();
        img.convert_to(&mut out, opencv::core::CV_8U, scale, 0.0)
            .map_err(|e| CaptureError::Corrupt(format!("depth conversion: {e}")))?;
        out
    };
    let code = match eight_bit.channels() {
        3 => return Ok(eight_bit),
        1 => imgproc::COLOR_GRAY2BGR,
        4 => imgproc::COLOR_BGRA2BGR,
        n => {
            return Err(CaptureError::Corrupt(format!(
                "image has {n} channels (expected 1, 3 or 4)"
            )));
        }
    };
    let mut out = Mat::default();
    imgproc::cvt_color(&eight_bit, &mut out, code, 0)
        .map_err(|e| CaptureError::Corrupt(format!("colour conversion: {e}")))?;
    Ok(out)
}

impl FrameSource for VideoSource {
    fn open(&mut self) -> Result<SourceInfo, CaptureError> {
        self.close();
        let mut capture = self.start()?;
        let first = Self::read(&mut capture)?
            .ok_or_else(|| self.invalid("the video has no frames OpenCV can decode"))?;
        let declared_fps = capture.get(videoio::CAP_PROP_FPS).unwrap_or(0.0);
        let file_fps = if declared_fps.is_finite() && declared_fps > 0.0 {
            declared_fps
        } else {
            FALLBACK_VIDEO_FPS
        };
        let fps = match self.options.pacing {
            VideoPacing::FileRate => file_fps,
            VideoPacing::Fixed(f) => f,
            VideoPacing::Unpaced => file_fps,
        };
        self.pacer = Pacer::new(match self.options.pacing {
            VideoPacing::Unpaced => None,
            _ => Some(fps),
        });
        let info = SourceInfo {
            kind: SourceKind::Video,
            name: self.options.path.display().to_string(),
            width: first.cols().max(0) as u32,
            height: first.rows().max(0) as u32,
            fps,
            pixel_format: None,
        };
        self.pending = Some(first);
        self.capture = Some(capture);
        self.connection += 1;
        self.delivered_this_pass = 0;
        Ok(info)
    }

    fn next_frame(&mut self, stop: &StopSignal) -> Result<Frame, CaptureError> {
        self.pacer.wait(stop)?;
        let image = match self.pending.take() {
            Some(img) => img,
            None => {
                let Some(capture) = self.capture.as_mut() else {
                    return Err(CaptureError::EndOfStream);
                };
                match Self::read(capture)? {
                    Some(img) => img,
                    None if self.options.looping && self.delivered_this_pass > 0 => {
                        let mut restarted = self.start()?;
                        self.delivered_this_pass = 0;
                        let img = Self::read(&mut restarted)?.ok_or(CaptureError::EndOfStream)?;
                        self.capture = Some(restarted);
                        img
                    }
                    None => {
                        self.capture = None;
                        return Err(CaptureError::EndOfStream);
                    }
                }
            }
        };
        self.delivered_this_pass += 1;
        let frame = Frame {
            image,
            seq: self.seq,
            connection: self.connection,
            captured_at: Instant::now(),
            source: SourceKind::Video,
            label: Arc::clone(&self.label),
        };
        self.seq += 1;
        Ok(frame)
    }

    fn close(&mut self) {
        self.capture = None;
        self.pending = None;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use opencv::core::{CV_8UC1, CV_8UC4, CV_16UC3, Scalar};

    #[test]
    fn grey_bgra_and_16_bit_frames_become_bgr_8_bit() {
        for (typ, value, expected) in [
            (CV_8UC1, 100.0, 100.0),
            (CV_8UC4, 100.0, 100.0),
            (CV_16UC3, 257.0 * 100.0, 100.0),
        ] {
            let img = Mat::new_rows_cols_with_default(4, 6, typ, Scalar::all(value)).unwrap();
            let out = to_bgr(img).unwrap();
            assert_eq!((out.typ(), out.cols(), out.rows()), (CV_8UC3, 6, 4));
            let mean = opencv::core::mean_def(&out).unwrap();
            assert!((mean[0] - expected).abs() < 1.0, "{typ}: {mean:?}");
        }
    }
}
