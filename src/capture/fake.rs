//! A scripted fake camera for fault injection.
//!
//! It plays a script of [`FakeStep`]s: good frames (flat colours, encoded as MJPEG or YUYV and
//! decoded through [`decode_frame`], the camera's own path), corrupt frames of several kinds, an
//! unplug that lasts a while and may come back at another resolution, read timeouts, a frozen
//! read, and the end of the stream. Scripts are serde types so fault scenarios can be written as
//! JSON, e.g. `[{"frames": {"count": 30}}, {"disconnect": {"for_ms": 500, "resolution": [640, 480]}}]`.

use super::decode::{FrameLayout, PixelFormat, decode_frame};
use super::pacing::Pacer;
use super::{CaptureError, Frame, FrameSource, SourceInfo, SourceKind, StopSignal};
use opencv::core::{CV_8UC3, Mat, Scalar, Vector};
use opencv::imgcodecs;
use opencv::prelude::*;
use std::collections::VecDeque;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// JPEG quality of the fake's MJPEG frames.
const FAKE_JPEG_QUALITY: i32 = 90;
/// How often a stalled read gives up and reports [`CaptureError::Stalled`], like a V4L2 read with
/// a timeout.
pub const FAKE_STALL_POLL: Duration = Duration::from_millis(50);

/// One step of a fake camera's script.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum FakeStep {
    /// `count` good frames, sent as `pixel` (MJPEG by default).
    Frames {
        count: u32,
        #[serde(default = "default_pixel")]
        pixel: PixelFormat,
    },
    /// One bad frame.
    Corrupt(CorruptKind),
    /// The camera is unplugged: the read fails and reopening fails for `for_ms`; then it comes
    /// back, at `resolution` (`[width, height]`) when given.
    Disconnect {
        for_ms: u64,
        #[serde(default)]
        resolution: Option<[u32; 2]>,
    },
    /// Reads time out for `for_ms`: each returns [`CaptureError::Stalled`] after
    /// [`FAKE_STALL_POLL`].
    Stall { for_ms: u64 },
    /// One read blocks for `for_ms` (a driver with no read timeout), then frames go on.
    Freeze { for_ms: u64 },
    /// The stream ends.
    End,
}

fn default_pixel() -> PixelFormat {
    PixelFormat::Mjpeg
}

/// The kinds of corrupt frame the fake can send.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CorruptKind {
    /// A JPEG cut in the middle of its image data.
    TruncatedJpeg,
    /// A JPEG start marker followed by zeros.
    GarbageJpeg,
    /// A buffer of zero bytes.
    ZeroSize,
    /// A YUYV buffer half as long as the frame.
    ShortYuyv,
    /// A valid JPEG of half the announced size.
    WrongSize,
}

/// Counters shared between a fake source and the test that scripted it.
#[derive(Debug, Clone, Default)]
pub struct FakeProbe {
    inner: Arc<ProbeInner>,
}

#[derive(Debug, Default)]
struct ProbeInner {
    opens: AtomicU64,
    failed_opens: AtomicU64,
    frames: AtomicU64,
    dropped: AtomicBool,
}

impl FakeProbe {
    /// Successful opens so far.
    pub fn opens(&self) -> u64 {
        self.inner.opens.load(Ordering::SeqCst)
    }
    /// Opens refused while unplugged.
    pub fn failed_opens(&self) -> u64 {
        self.inner.failed_opens.load(Ordering::SeqCst)
    }
    /// Good frames delivered so far.
    pub fn frames(&self) -> u64 {
        self.inner.frames.load(Ordering::SeqCst)
    }
    /// True once the source was dropped (its owning thread let go of it).
    pub fn is_dropped(&self) -> bool {
        self.inner.dropped.load(Ordering::SeqCst)
    }
}

/// The flat colour (B, G, R) of good frame number `seq`: varies frame to frame and survives JPEG
/// and YUYV within a few levels, so tests can tell which frame they got by looking at it.
pub fn fake_colour(seq: u64) -> [u8; 3] {
    let s = seq % 8;
    [40 + 25 * s as u8, 200 - 20 * s as u8, 128]
}

/// A fake camera playing a script; see the module docs.
#[derive(Debug)]
pub struct FakeSource {
    width: u32,
    height: u32,
    pacer: Pacer,
    fps: f64,
    script: Vec<FakeStep>,
    steps: VecDeque<FakeStep>,
    repeat: bool,
    is_open: bool,
    unplugged_until: Option<Instant>,
    come_back_as: Option<[u32; 2]>,
    stall_started: Option<Instant>,
    seq: u64,
    connection: u32,
    probe: FakeProbe,
}

impl FakeSource {
    /// A fake camera of `width` x `height` at `fps` (`None`: as fast as asked) playing `script`
    /// once, then ending.
    pub fn new(width: u32, height: u32, fps: Option<f64>, script: Vec<FakeStep>) -> Self {
        FakeSource {
            width,
            height,
            pacer: Pacer::new(fps),
            fps: fps.unwrap_or(0.0),
            steps: script.iter().cloned().collect(),
            script,
            repeat: false,
            is_open: false,
            unplugged_until: None,
            come_back_as: None,
            stall_started: None,
            seq: 0,
            connection: 0,
            probe: FakeProbe::default(),
        }
    }

    /// Plays the script again from the start whenever it runs out.
    pub fn repeating(mut self) -> Self {
        self.repeat = true;
        self
    }

    /// A handle on the counters, to keep after the source is moved into a worker.
    pub fn probe(&self) -> FakeProbe {
        self.probe.clone()
    }

    fn layout(&self, pixel: PixelFormat) -> FrameLayout {
        FrameLayout {
            pixel,
            width: self.width,
            height: self.height,
        }
    }

    fn flat(&self, width: u32, height: u32, colour: [u8; 3]) -> Result<Mat, CaptureError> {
        Ok(Mat::new_rows_cols_with_default(
            height as i32,
            width as i32,
            CV_8UC3,
            Scalar::new(
                f64::from(colour[0]),
                f64::from(colour[1]),
                f64::from(colour[2]),
                0.0,
            ),
        )?)
    }

    fn corrupt_bytes(&self, kind: CorruptKind) -> Result<(Vec<u8>, PixelFormat), CaptureError> {
        let good = self.flat(self.width, self.height, fake_colour(0))?;
        Ok(match kind {
            CorruptKind::TruncatedJpeg => {
                let full = encode_frame(&good, PixelFormat::Mjpeg)?;
                (full[..full.len() / 2].to_vec(), PixelFormat::Mjpeg)
            }
            CorruptKind::GarbageJpeg => {
                let mut bytes = vec![0u8; 1024];
                bytes[0] = 0xFF;
                bytes[1] = 0xD8;
                (bytes, PixelFormat::Mjpeg)
            }
            CorruptKind::ZeroSize => (Vec::new(), PixelFormat::Mjpeg),
            CorruptKind::ShortYuyv => {
                let full = encode_frame(&good, PixelFormat::Yuyv)?;
                (full[..full.len() / 2].to_vec(), PixelFormat::Yuyv)
            }
            CorruptKind::WrongSize => {
                let small = self.flat(self.width / 2, self.height / 2, fake_colour(0))?;
                (encode_frame(&small, PixelFormat::Mjpeg)?, PixelFormat::Mjpeg)
            }
        })
    }

    fn first_pixel(&self) -> PixelFormat {
        self.script
            .iter()
            .find_map(|s| match s {
                FakeStep::Frames { pixel, .. } => Some(*pixel),
                _ => None,
            })
            .unwrap_or(PixelFormat::Mjpeg)
    }
}

impl Drop for FakeSource {
    fn drop(&mut self) {
        self.probe.inner.dropped.store(true, Ordering::SeqCst);
    }
}

impl FrameSource for FakeSource {
    fn open(&mut self) -> Result<SourceInfo, CaptureError> {
        if let Some(until) = self.unplugged_until {
            if Instant::now() < until {
                self.probe.inner.failed_opens.fetch_add(1, Ordering::SeqCst);
                return Err(CaptureError::Disconnected("fake camera is unplugged".into()));
            }
            self.unplugged_until = None;
        }
        if let Some([w, h]) = self.come_back_as.take() {
            self.width = w;
            self.height = h;
        }
        self.is_open = true;
        self.connection += 1;
        self.pacer.reset();
        self.probe.inner.opens.fetch_add(1, Ordering::SeqCst);
        Ok(SourceInfo {
            kind: SourceKind::Fake,
            name: "fake camera".into(),
            width: self.width,
            height: self.height,
            fps: self.fps,
            pixel_format: Some(self.first_pixel()),
        })
    }

    fn next_frame(&mut self, stop: &StopSignal) -> Result<Frame, CaptureError> {
        if !self.is_open {
            return Err(CaptureError::Disconnected("fake camera is not open".into()));
        }
        if self.stall_started.is_none() {
            self.pacer.wait(stop)?;
        }
        loop {
            if stop.is_stopped() {
                return Err(CaptureError::Stopped);
            }
            if self.steps.is_empty() && self.repeat && !self.script.is_empty() {
                self.steps = self.script.iter().cloned().collect();
            }
            let Some(step) = self.steps.front_mut() else {
                return Err(CaptureError::EndOfStream);
            };
            match step {
                FakeStep::Frames { count, .. } if *count == 0 => {
                    self.steps.pop_front();
                }
                FakeStep::Frames { count, pixel } => {
                    *count -= 1;
                    let pixel = *pixel;
                    let image = self.flat(self.width, self.height, fake_colour(self.seq))?;
                    let bytes = encode_frame(&image, pixel)?;
                    let image = decode_frame(&bytes, self.layout(pixel))?;
                    let frame = Frame {
                        image,
                        seq: self.seq,
                        connection: self.connection,
                        captured_at: Instant::now(),
                        source: SourceKind::Fake,
                        label: Arc::from("fake camera"),
                    };
                    self.seq += 1;
                    self.probe.inner.frames.fetch_add(1, Ordering::SeqCst);
                    return Ok(frame);
                }
                FakeStep::Corrupt(kind) => {
                    let kind = *kind;
                    self.steps.pop_front();
                    let (bytes, pixel) = self.corrupt_bytes(kind)?;
                    // Through the camera's decoder: it must refuse these bytes.
                    decode_frame(&bytes, self.layout(pixel))?;
                    return Err(CaptureError::Backend(format!(
                        "the decoder accepted a {kind:?} frame"
                    )));
                }
                FakeStep::Disconnect { for_ms, resolution } => {
                    self.unplugged_until = Some(Instant::now() + Duration::from_millis(*for_ms));
                    self.come_back_as = *resolution;
                    self.steps.pop_front();
                    self.is_open = false;
                    return Err(CaptureError::Disconnected("fake camera unplugged".into()));
                }
                FakeStep::Stall { for_ms } => {
                    let started = *self.stall_started.get_or_insert_with(Instant::now);
                    let until = started + Duration::from_millis(*for_ms);
                    let now = Instant::now();
                    if now >= until {
                        self.stall_started = None;
                        self.steps.pop_front();
                        continue;
                    }
                    if stop.sleep_until(until.min(now + FAKE_STALL_POLL)) {
                        return Err(CaptureError::Stopped);
                    }
                    return Err(CaptureError::Stalled(started.elapsed()));
                }
                FakeStep::Freeze { for_ms } => {
                    let d = Duration::from_millis(*for_ms);
                    self.steps.pop_front();
                    if stop.sleep(d) {
                        return Err(CaptureError::Stopped);
                    }
                }
                FakeStep::End => return Err(CaptureError::EndOfStream),
            }
        }
    }

    fn close(&mut self) {
        self.is_open = false;
    }
}

/// Encodes a BGR 8UC3 image as a camera would send it: the inverse of [`decode_frame`]. YUYV
/// and NV12 use BT.601 limited range, which OpenCV's YUV->BGR conversions invert.
pub fn encode_frame(image: &Mat, pixel: PixelFormat) -> Result<Vec<u8>, CaptureError> {
    if image.typ() != CV_8UC3 || image.empty() {
        return Err(CaptureError::Backend(
            "encode_frame needs a non-empty BGR 8UC3 image".into(),
        ));
    }
    if pixel == PixelFormat::Mjpeg {
        let mut buf = Vector::<u8>::new();
        let params = Vector::from_slice(&[imgcodecs::IMWRITE_JPEG_QUALITY, FAKE_JPEG_QUALITY]);
        imgcodecs::imencode(".jpg", image, &mut buf, &params)?;
        return Ok(buf.to_vec());
    }
    let (w, h) = (image.cols() as usize, image.rows() as usize);
    let owned;
    let continuous = if image.is_continuous() {
        image
    } else {
        owned = image.try_clone()?;
        &owned
    };
    let bgr = continuous.data_bytes()?;
    let px = |x: usize, y: usize| {
        let i = (y * w + x) * 3;
        (f64::from(bgr[i]), f64::from(bgr[i + 1]), f64::from(bgr[i + 2]))
    };
    let luma = |(b, g, r): (f64, f64, f64)| 16.0 + 0.257 * r + 0.504 * g + 0.098 * b;
    let cb = |(b, g, r): (f64, f64, f64)| 128.0 - 0.148 * r - 0.291 * g + 0.439 * b;
    let cr = |(b, g, r): (f64, f64, f64)| 128.0 + 0.439 * r - 0.368 * g - 0.071 * b;
    let byte = |v: f64| v.round().clamp(0.0, 255.0) as u8;
    let odd = |what: &str| CaptureError::Backend(format!("{what} needs an even frame size, got {w}x{h}"));
    Ok(match pixel {
        PixelFormat::Mjpeg => Vec::new(),
        PixelFormat::Bgr => bgr.to_vec(),
        PixelFormat::Rgb => bgr.chunks_exact(3).flat_map(|p| [p[2], p[1], p[0]]).collect(),
        PixelFormat::Gray => (0..h)
            .flat_map(|y| (0..w).map(move |x| (x, y)))
            .map(|(x, y)| {
                let (b, g, r) = px(x, y);
                byte(0.114 * b + 0.587 * g + 0.299 * r)
            })
            .collect(),
        PixelFormat::Yuyv => {
            if !w.is_multiple_of(2) {
                return Err(odd("YUYV"));
            }
            let mut out = Vec::with_capacity(w * h * 2);
            for y in 0..h {
                for x in (0..w).step_by(2) {
                    let (a, b) = (px(x, y), px(x + 1, y));
                    out.extend([
                        byte(luma(a)),
                        byte((cb(a) + cb(b)) / 2.0),
                        byte(luma(b)),
                        byte((cr(a) + cr(b)) / 2.0),
                    ]);
                }
            }
            out
        }
        PixelFormat::Nv12 => {
            if !w.is_multiple_of(2) || !h.is_multiple_of(2) {
                return Err(odd("NV12"));
            }
            let mut out: Vec<u8> = (0..h)
                .flat_map(|y| (0..w).map(move |x| (x, y)))
                .map(|(x, y)| byte(luma(px(x, y))))
                .collect();
            for y in (0..h).step_by(2) {
                for x in (0..w).step_by(2) {
                    let quad = [px(x, y), px(x + 1, y), px(x, y + 1), px(x + 1, y + 1)];
                    out.push(byte(quad.iter().map(|p| cb(*p)).sum::<f64>() / 4.0));
                    out.push(byte(quad.iter().map(|p| cr(*p)).sum::<f64>() / 4.0));
                }
            }
            out
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use opencv::core::Vec3b;

    fn mean(img: &Mat) -> [f64; 3] {
        let m = opencv::core::mean_def(img).unwrap();
        [m[0], m[1], m[2]]
    }

    fn close_to(img: &Mat, colour: [u8; 3], tol: f64) -> bool {
        mean(img)
            .iter()
            .zip(colour)
            .all(|(m, c)| (m - f64::from(c)).abs() <= tol)
    }

    #[test]
    fn every_pixel_format_round_trips_through_the_camera_decoder() {
        let mut img = Mat::new_rows_cols_with_default(24, 32, CV_8UC3, Scalar::all(0.0)).unwrap();
        for y in 0..24 {
            for x in 0..32 {
                *img.at_2d_mut::<Vec3b>(y, x).unwrap() = Vec3b::from([(x * 8) as u8, (y * 10) as u8, 90]);
            }
        }
        for pixel in [
            PixelFormat::Mjpeg,
            PixelFormat::Yuyv,
            PixelFormat::Nv12,
            PixelFormat::Rgb,
            PixelFormat::Bgr,
        ] {
            let bytes = encode_frame(&img, pixel).unwrap();
            let back = decode_frame(
                &bytes,
                FrameLayout {
                    pixel,
                    width: 32,
                    height: 24,
                },
            )
            .unwrap();
            let (a, b) = (mean(&img), mean(&back));
            for c in 0..3 {
                assert!(
                    (a[c] - b[c]).abs() < 3.0,
                    "{pixel}: channel {c}: {} vs {}",
                    a[c],
                    b[c]
                );
            }
        }
        let gray = decode_frame(
            &encode_frame(&img, PixelFormat::Gray).unwrap(),
            FrameLayout {
                pixel: PixelFormat::Gray,
                width: 32,
                height: 24,
            },
        )
        .unwrap();
        let g = gray.at_2d::<Vec3b>(0, 0).unwrap();
        assert_eq!(g[0], g[1]);
    }

    #[test]
    fn the_script_plays_frames_faults_and_the_end() {
        let stop = StopSignal::new();
        let mut fake = FakeSource::new(
            64,
            48,
            None,
            vec![
                FakeStep::Frames {
                    count: 2,
                    pixel: PixelFormat::Mjpeg,
                },
                FakeStep::Corrupt(CorruptKind::TruncatedJpeg),
                FakeStep::Corrupt(CorruptKind::GarbageJpeg),
                FakeStep::Corrupt(CorruptKind::ZeroSize),
                FakeStep::Corrupt(CorruptKind::ShortYuyv),
                FakeStep::Corrupt(CorruptKind::WrongSize),
                FakeStep::Frames {
                    count: 1,
                    pixel: PixelFormat::Yuyv,
                },
                FakeStep::End,
            ],
        );
        assert!(matches!(
            fake.next_frame(&stop),
            Err(CaptureError::Disconnected(_))
        ));
        let info = fake.open().unwrap();
        assert_eq!(
            (info.width, info.height, info.pixel_format),
            (64, 48, Some(PixelFormat::Mjpeg))
        );
        for seq in 0..2 {
            let f = fake.next_frame(&stop).unwrap();
            assert_eq!(f.seq, seq);
            assert!(close_to(&f.image, fake_colour(seq), 3.0), "{:?}", mean(&f.image));
        }
        for _ in 0..5 {
            let e = fake.next_frame(&stop).unwrap_err();
            assert!(matches!(e, CaptureError::Corrupt(_)), "{e}");
        }
        let f = fake.next_frame(&stop).unwrap();
        assert_eq!((f.seq, f.width(), f.height()), (2, 64, 48));
        assert!(close_to(&f.image, fake_colour(2), 3.0), "{:?}", mean(&f.image));
        assert_eq!(fake.next_frame(&stop).unwrap_err(), CaptureError::EndOfStream);
        assert_eq!(fake.next_frame(&stop).unwrap_err(), CaptureError::EndOfStream);
    }

    #[test]
    fn unplug_refuses_to_reopen_then_comes_back_at_the_new_size() {
        let stop = StopSignal::new();
        let mut fake = FakeSource::new(
            64,
            48,
            None,
            vec![
                FakeStep::Frames {
                    count: 1,
                    pixel: PixelFormat::Mjpeg,
                },
                FakeStep::Disconnect {
                    for_ms: 150,
                    resolution: Some([32, 24]),
                },
                FakeStep::Frames {
                    count: 1,
                    pixel: PixelFormat::Mjpeg,
                },
            ],
        );
        let probe = fake.probe();
        fake.open().unwrap();
        assert_eq!(fake.next_frame(&stop).unwrap().connection, 1);
        assert!(matches!(
            fake.next_frame(&stop),
            Err(CaptureError::Disconnected(_))
        ));
        assert!(matches!(fake.open(), Err(CaptureError::Disconnected(_))));
        assert_eq!(probe.failed_opens(), 1);
        std::thread::sleep(Duration::from_millis(200));
        let info = fake.open().unwrap();
        assert_eq!((info.width, info.height), (32, 24));
        let f = fake.next_frame(&stop).unwrap();
        assert_eq!((f.width(), f.height(), f.connection, f.seq), (32, 24, 2, 1));
        assert_eq!(probe.opens(), 2);
        drop(fake);
        assert!(probe.is_dropped());
    }

    #[test]
    fn a_stall_reports_timeouts_then_frames_resume() {
        let stop = StopSignal::new();
        let mut fake = FakeSource::new(
            16,
            16,
            None,
            vec![
                FakeStep::Stall { for_ms: 120 },
                FakeStep::Frames {
                    count: 1,
                    pixel: PixelFormat::Mjpeg,
                },
            ],
        );
        fake.open().unwrap();
        let mut timeouts = 0;
        let frame = loop {
            match fake.next_frame(&stop) {
                Ok(f) => break f,
                Err(CaptureError::Stalled(_)) => timeouts += 1,
                Err(e) => panic!("{e}"),
            }
        };
        assert!(timeouts >= 1);
        assert_eq!(frame.seq, 0);
    }

    #[test]
    fn scripts_read_from_json() {
        let script: Vec<FakeStep> = serde_json::from_str(
            r#"[{"frames": {"count": 3}}, {"corrupt": "zero_size"},
                {"disconnect": {"for_ms": 500, "resolution": [640, 480]}},
                {"stall": {"for_ms": 100}}, {"frames": {"count": 1, "pixel": "yuyv"}}, "end"]"#,
        )
        .unwrap();
        assert_eq!(
            script[0],
            FakeStep::Frames {
                count: 3,
                pixel: PixelFormat::Mjpeg
            }
        );
        assert_eq!(
            script[2],
            FakeStep::Disconnect {
                for_ms: 500,
                resolution: Some([640, 480])
            }
        );
        assert_eq!(script[5], FakeStep::End);
        assert!(serde_json::from_str::<Vec<FakeStep>>(r#"[{"frames": {"cuont": 3}}]"#).is_err());
    }

    #[test]
    fn a_repeating_script_never_ends_and_stop_interrupts_a_freeze() {
        let stop = StopSignal::new();
        let mut fake = FakeSource::new(
            16,
            16,
            None,
            vec![FakeStep::Frames {
                count: 1,
                pixel: PixelFormat::Mjpeg,
            }],
        )
        .repeating();
        fake.open().unwrap();
        for seq in 0..5 {
            assert_eq!(fake.next_frame(&stop).unwrap().seq, seq);
        }
        let mut frozen = FakeSource::new(16, 16, None, vec![FakeStep::Freeze { for_ms: 60_000 }]);
        frozen.open().unwrap();
        let s2 = stop.clone();
        let t = std::thread::spawn(move || frozen.next_frame(&s2).map(|f| f.seq));
        std::thread::sleep(Duration::from_millis(30));
        stop.stop();
        assert_eq!(t.join().unwrap(), Err(CaptureError::Stopped));
    }
}
