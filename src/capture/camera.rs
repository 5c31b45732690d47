//! The live camera through nokhwa (V4L2 on Linux).
//!
//! The nokhwa `Camera` is not `Send`: it is created, read and dropped on the capture worker's
//! thread (see [`super::CaptureWorker::spawn`]). The mode is chosen by us from
//! `compatible_camera_formats()` with [`choose_format`], and raw buffers are decoded by
//! [`decode_frame`] (OpenCV), not by nokhwa.
//!
//! Reconnection: a camera is remembered by its index and, once opened, by its name. When it is
//! unplugged, reads fail and the worker calls [`CameraSource::open`] again; the camera is looked
//! for under the same name first (V4L2 indices shift when a device is replugged), then by index.
//!
//! Exposure and white balance are locked after the camera has run on automatic for
//! [`LOCK_AFTER_FRAMES`] frames, so colours and brightness stay comparable with the empty-table
//! reference. After a reconnection the values locked before are written again. A control the
//! driver does not offer is reported as such and never fails the capture.

use super::decode::{FrameLayout, PixelFormat, decode_frame};
use super::format::{CaptureFormat, WantedFormat, choose_format};
use super::{CaptureError, Frame, FrameSource, SourceInfo, SourceKind, StopSignal};
use nokhwa::Camera;
use nokhwa::utils::{
    ApiBackend, CameraControl, CameraFormat, CameraIndex, ControlValueSetter, FrameFormat,
    KnownCameraControl, KnownCameraControlFlag, RequestedFormat, RequestedFormatType, Resolution,
};
use std::sync::Arc;
use std::time::Instant;

/// Frames the camera runs on automatic exposure and white balance before they are locked
/// (about 1.5 s at 30 fps: long enough for typical auto-exposure loops to settle).
pub const LOCK_AFTER_FRAMES: u64 = 45;

/// V4L2 control ids (linux/v4l2-controls.h) for the automatic modes nokhwa has no name for.
const V4L2_CID_EXPOSURE_AUTO: u32 = 0x009a_0901;
const V4L2_CID_EXPOSURE_ABSOLUTE: u32 = 0x009a_0902;
const V4L2_CID_AUTO_WHITE_BALANCE: u32 = 0x0098_090c;
/// `V4L2_CID_EXPOSURE_AUTO` menu entry for fully manual exposure.
const V4L2_EXPOSURE_MANUAL: i64 = 1;

/// Every pixel format we can decode, for nokhwa format requests.
const DECODABLE: [FrameFormat; 6] = [
    FrameFormat::MJPEG,
    FrameFormat::YUYV,
    FrameFormat::NV12,
    FrameFormat::GRAY,
    FrameFormat::RAWRGB,
    FrameFormat::RAWBGR,
];

/// A camera the system offers.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct CameraInfo {
    /// The index to pass to `--camera` (the N of `/dev/videoN` on Linux).
    pub index: u32,
    pub name: String,
    /// Modes we can decode, sorted; empty when the device could not be probed.
    pub formats: Vec<CaptureFormat>,
    /// Why the device could not be probed (busy, not a capture device), if it could not.
    pub problem: Option<String>,
}

impl CameraInfo {
    /// True when the camera can be opened and offers a mode we decode.
    pub fn usable(&self) -> bool {
        !self.formats.is_empty()
    }
}

/// Lists the cameras, with the modes each offers. No camera is `Ok(vec![])`.
///
/// Each device is opened briefly to read its modes. UVC cameras show up as two V4L2 nodes with
/// the same name (video and metadata); a node that cannot be probed and shares its name with a
/// usable one is left out.
pub fn list_cameras() -> Result<Vec<CameraInfo>, CaptureError> {
    let devices = nokhwa::query(ApiBackend::Auto)
        .map_err(|e| CaptureError::Backend(format!("cannot list cameras: {e}")))?;
    let mut cameras = Vec::with_capacity(devices.len());
    for device in devices {
        let Ok(index) = device.index().as_index() else {
            continue;
        };
        let (formats, problem) = match probe_formats(index) {
            Ok(formats) => (formats, None),
            Err(e) => (Vec::new(), Some(e.to_string())),
        };
        cameras.push(CameraInfo {
            index,
            name: device.human_name(),
            formats,
            problem,
        });
    }
    Ok(hide_shadow_nodes(cameras))
}

/// Drops unusable nodes that share a name with a usable one (UVC metadata nodes).
fn hide_shadow_nodes(cameras: Vec<CameraInfo>) -> Vec<CameraInfo> {
    let usable_names: Vec<String> = cameras
        .iter()
        .filter(|c| c.usable())
        .map(|c| c.name.clone())
        .collect();
    cameras
        .into_iter()
        .filter(|c| c.usable() || !usable_names.contains(&c.name))
        .collect()
}

fn probe_formats(index: u32) -> Result<Vec<CaptureFormat>, CaptureError> {
    let mut camera = open_camera(index)?;
    read_formats(&mut camera, index)
}

fn open_camera(index: u32) -> Result<Camera, CaptureError> {
    Camera::new(
        CameraIndex::Index(index),
        RequestedFormat::with_formats(RequestedFormatType::None, &DECODABLE),
    )
    .map_err(|e| CaptureError::Disconnected(format!("camera {index}: {e}")))
}

fn read_formats(camera: &mut Camera, index: u32) -> Result<Vec<CaptureFormat>, CaptureError> {
    let mut formats: Vec<CaptureFormat> = camera
        .compatible_camera_formats()
        .map_err(|e| CaptureError::Disconnected(format!("camera {index}: {e}")))?
        .into_iter()
        .filter_map(from_nokhwa_format)
        .collect();
    formats.sort();
    formats.dedup();
    Ok(formats)
}

fn pixel_from_nokhwa(f: FrameFormat) -> PixelFormat {
    match f {
        FrameFormat::MJPEG => PixelFormat::Mjpeg,
        FrameFormat::YUYV => PixelFormat::Yuyv,
        FrameFormat::NV12 => PixelFormat::Nv12,
        FrameFormat::GRAY => PixelFormat::Gray,
        FrameFormat::RAWRGB => PixelFormat::Rgb,
        FrameFormat::RAWBGR => PixelFormat::Bgr,
    }
}

fn pixel_to_nokhwa(p: PixelFormat) -> FrameFormat {
    match p {
        PixelFormat::Mjpeg => FrameFormat::MJPEG,
        PixelFormat::Yuyv => FrameFormat::YUYV,
        PixelFormat::Nv12 => FrameFormat::NV12,
        PixelFormat::Gray => FrameFormat::GRAY,
        PixelFormat::Rgb => FrameFormat::RAWRGB,
        PixelFormat::Bgr => FrameFormat::RAWBGR,
    }
}

fn from_nokhwa_format(f: CameraFormat) -> Option<CaptureFormat> {
    let format = CaptureFormat {
        width: f.width(),
        height: f.height(),
        fps: f.frame_rate(),
        pixel: pixel_from_nokhwa(f.format()),
    };
    (format.width > 0 && format.height > 0 && format.fps > 0).then_some(format)
}

fn to_nokhwa_format(f: CaptureFormat) -> CameraFormat {
    CameraFormat::new(
        Resolution::new(f.width, f.height),
        pixel_to_nokhwa(f.pixel),
        f.fps,
    )
}

/// Which camera to open and how.
#[derive(Debug, Clone, PartialEq)]
pub struct CameraRequest {
    /// The index from [`list_cameras`] (`--camera N`).
    pub index: u32,
    /// The camera's name; when set, a replugged camera is found under its name even if its index
    /// changed. Filled in by the first successful open when not given.
    pub name: Option<String>,
    pub wanted: WantedFormat,
    /// Lock exposure and white balance once they have settled.
    pub lock_controls: bool,
}

impl CameraRequest {
    /// Camera `index` at the default mode, controls locked.
    pub fn index(index: u32) -> Self {
        CameraRequest {
            index,
            name: None,
            wanted: WantedFormat::default(),
            lock_controls: true,
        }
    }
}

/// Indices to try, in order, for a camera known by `index` and maybe `name`, given the devices
/// present as `(index, name)`. With a name, only devices of that name are candidates, the
/// remembered index first; without one, just the index.
fn candidate_indices(index: u32, name: Option<&str>, present: &[(u32, String)]) -> Vec<u32> {
    match name {
        None => vec![index],
        Some(name) => {
            let mut same: Vec<u32> = present
                .iter()
                .filter(|(_, n)| n == name)
                .map(|(i, _)| *i)
                .collect();
            same.sort_by_key(|i| (*i != index, *i));
            same
        }
    }
}

/// What happened to one automatic control.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case", tag = "state")]
pub enum ControlOutcome {
    /// Still on automatic, waiting for it to settle before locking.
    Pending,
    /// Switched to manual; `value` is the exposure time (100 µs units) or colour temperature (K)
    /// held, when the driver reports it.
    Locked { value: Option<i64> },
    /// The driver offers no automatic mode to switch off.
    NotOffered,
    /// Locking was not asked for.
    Skipped,
    /// The driver refused.
    Failed { reason: String },
}

/// Which automatic controls were locked.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct ControlReport {
    pub exposure: ControlOutcome,
    pub white_balance: ControlOutcome,
}

/// An automatic control and the manual value it pairs with.
#[derive(Debug, Clone, Copy)]
struct LockSpec {
    auto: KnownCameraControl,
    manual: ManualSetting,
    value: KnownCameraControl,
}

/// The manual setting that switches an automatic mode off (`ControlValueSetter` is not `Copy`).
#[derive(Debug, Clone, Copy)]
enum ManualSetting {
    Integer(i64),
    Boolean(bool),
}

impl ManualSetting {
    fn setter(self) -> ControlValueSetter {
        match self {
            ManualSetting::Integer(i) => ControlValueSetter::Integer(i),
            ManualSetting::Boolean(b) => ControlValueSetter::Boolean(b),
        }
    }
}

const EXPOSURE_LOCK: LockSpec = LockSpec {
    auto: KnownCameraControl::Other(V4L2_CID_EXPOSURE_AUTO as u128),
    manual: ManualSetting::Integer(V4L2_EXPOSURE_MANUAL),
    value: KnownCameraControl::Other(V4L2_CID_EXPOSURE_ABSOLUTE as u128),
};

const WHITE_BALANCE_LOCK: LockSpec = LockSpec {
    auto: KnownCameraControl::Other(V4L2_CID_AUTO_WHITE_BALANCE as u128),
    manual: ManualSetting::Boolean(false),
    value: KnownCameraControl::WhiteBalance,
};

/// The writes that lock one control: automatic off, then the value held written back (drivers
/// may reset it when the mode changes).
#[derive(Debug, Clone, PartialEq)]
struct LockPlan {
    switch_off_auto: (KnownCameraControl, ControlValueSetter),
    hold: Option<(KnownCameraControl, i64)>,
}

fn writable(c: &CameraControl) -> bool {
    !c.flag().iter().any(|f| {
        matches!(
            f,
            KnownCameraControlFlag::ReadOnly | KnownCameraControlFlag::Disabled
        )
    })
}

/// Plans the lock of `spec` from the controls the driver lists; `None` when it has no writable
/// automatic mode. `reuse` is a value locked earlier on this camera, written instead of the
/// current one (after a reconnection).
fn plan_lock(spec: LockSpec, controls: &[CameraControl], reuse: Option<i64>) -> Option<LockPlan> {
    let auto = controls
        .iter()
        .find(|c| c.control() == spec.auto && writable(c))?;
    let hold = controls
        .iter()
        .find(|c| c.control() == spec.value && !c.flag().contains(&KnownCameraControlFlag::ReadOnly))
        .and_then(|c| match (reuse, c.value()) {
            (Some(v), _) => Some((c.control(), v)),
            (None, ControlValueSetter::Integer(v)) => Some((c.control(), v)),
            _ => None,
        });
    Some(LockPlan {
        switch_off_auto: (auto.control(), spec.manual.setter()),
        hold,
    })
}

fn apply_lock(camera: &mut Camera, plan: Option<LockPlan>) -> ControlOutcome {
    let Some(plan) = plan else {
        return ControlOutcome::NotOffered;
    };
    let (id, value) = plan.switch_off_auto;
    if let Err(e) = camera.set_camera_control(id, value) {
        return ControlOutcome::Failed {
            reason: e.to_string(),
        };
    }
    let held = plan.hold.and_then(|(id, v)| {
        camera
            .set_camera_control(id, ControlValueSetter::Integer(v))
            .ok()
            .map(|()| v)
    });
    ControlOutcome::Locked { value: held }
}

/// A live camera. Build it on the thread that reads it (see the module docs).
pub struct CameraSource {
    request: CameraRequest,
    camera: Option<Camera>,
    layout: Option<FrameLayout>,
    label: Arc<str>,
    seq: u64,
    connection: u32,
    frames_since_open: u64,
    controls: ControlReport,
    locked_exposure: Option<i64>,
    locked_white_balance: Option<i64>,
}

impl std::fmt::Debug for CameraSource {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CameraSource")
            .field("request", &self.request)
            .field("open", &self.camera.is_some())
            .field("layout", &self.layout)
            .field("seq", &self.seq)
            .field("connection", &self.connection)
            .field("controls", &self.controls)
            .finish()
    }
}

impl CameraSource {
    pub fn new(request: CameraRequest) -> Self {
        let initial = if request.lock_controls {
            ControlOutcome::Pending
        } else {
            ControlOutcome::Skipped
        };
        CameraSource {
            label: Arc::from(format!("camera {}", request.index)),
            request,
            camera: None,
            layout: None,
            seq: 0,
            connection: 0,
            frames_since_open: 0,
            controls: ControlReport {
                exposure: initial.clone(),
                white_balance: initial,
            },
            locked_exposure: None,
            locked_white_balance: None,
        }
    }

    /// The request as it stands (with the name learnt at the first open).
    pub fn request(&self) -> &CameraRequest {
        &self.request
    }

    fn open_index(&mut self, index: u32) -> Result<(Camera, CaptureFormat), CaptureError> {
        let mut camera = open_camera(index)?;
        let formats = read_formats(&mut camera, index)?;
        let chosen = choose_format(&formats, self.request.wanted).ok_or_else(|| {
            CaptureError::Disconnected(format!("camera {index} offers no mode octoref can decode"))
        })?;
        let current = from_nokhwa_format(camera.camera_format());
        if current != Some(chosen) {
            let wanted = to_nokhwa_format(chosen);
            let pixel = [wanted.format()];
            camera
                .set_camera_requset(RequestedFormat::with_formats(
                    RequestedFormatType::Exact(wanted),
                    &pixel,
                ))
                .map_err(|e| CaptureError::Disconnected(format!("camera {index}: {chosen}: {e}")))?;
        }
        camera
            .open_stream()
            .map_err(|e| CaptureError::Disconnected(format!("camera {index}: {e}")))?;
        // The driver may have adjusted the mode; decode what it actually delivers.
        let actual = from_nokhwa_format(camera.camera_format()).unwrap_or(chosen);
        Ok((camera, actual))
    }

    fn lock_controls(&mut self) {
        let Some(camera) = self.camera.as_mut() else {
            return;
        };
        let controls = match camera.camera_controls() {
            Ok(c) => c,
            Err(e) => {
                let failed = ControlOutcome::Failed {
                    reason: e.to_string(),
                };
                self.controls = ControlReport {
                    exposure: failed.clone(),
                    white_balance: failed,
                };
                return;
            }
        };
        let exposure = apply_lock(camera, plan_lock(EXPOSURE_LOCK, &controls, self.locked_exposure));
        let white_balance = apply_lock(
            camera,
            plan_lock(WHITE_BALANCE_LOCK, &controls, self.locked_white_balance),
        );
        if let ControlOutcome::Locked { value: Some(v) } = exposure {
            self.locked_exposure = Some(v);
        }
        if let ControlOutcome::Locked { value: Some(v) } = white_balance {
            self.locked_white_balance = Some(v);
        }
        tracing::info!(?exposure, ?white_balance, "camera controls");
        self.controls = ControlReport {
            exposure,
            white_balance,
        };
    }
}

impl FrameSource for CameraSource {
    fn open(&mut self) -> Result<SourceInfo, CaptureError> {
        self.close();
        // Reconnection matches the names of this listing (sysfs on Linux), so the name is learnt
        // from it too, rather than from the driver's card string.
        let present: Result<Vec<(u32, String)>, CaptureError> = nokhwa::query(ApiBackend::Auto)
            .map(|devices| {
                devices
                    .into_iter()
                    .filter_map(|d| d.index().as_index().ok().map(|i| (i, d.human_name())))
                    .collect()
            })
            .map_err(|e| CaptureError::Disconnected(format!("cannot list cameras: {e}")));
        let candidates = match self.request.name.as_deref() {
            None => candidate_indices(self.request.index, None, &[]),
            Some(name) => candidate_indices(
                self.request.index,
                Some(name),
                present.as_ref().map_err(Clone::clone)?,
            ),
        };
        let mut last_error = CaptureError::Disconnected(match &self.request.name {
            Some(name) => format!("camera \"{name}\" is not connected"),
            None => format!("camera {} is not connected", self.request.index),
        });
        for index in candidates {
            match self.open_index(index) {
                Ok((camera, mode)) => {
                    let listed = present
                        .as_ref()
                        .ok()
                        .and_then(|p| p.iter().find(|(i, _)| *i == index))
                        .map(|(_, n)| n.clone());
                    let name = listed.unwrap_or_else(|| camera.info().human_name());
                    self.request.index = index;
                    self.request.name.get_or_insert_with(|| name.clone());
                    self.label = Arc::from(name.as_str());
                    self.layout = Some(FrameLayout {
                        pixel: mode.pixel,
                        width: mode.width,
                        height: mode.height,
                    });
                    self.camera = Some(camera);
                    self.connection += 1;
                    self.frames_since_open = 0;
                    if self.request.lock_controls {
                        let reuse = self.locked_exposure.is_some() || self.locked_white_balance.is_some();
                        if reuse {
                            // Same camera, same table: hold the values locked before.
                            self.lock_controls();
                        } else {
                            self.controls.exposure = ControlOutcome::Pending;
                            self.controls.white_balance = ControlOutcome::Pending;
                        }
                    }
                    tracing::info!(index, %name, %mode, "camera opened");
                    return Ok(SourceInfo {
                        kind: SourceKind::Camera,
                        name,
                        width: mode.width,
                        height: mode.height,
                        fps: f64::from(mode.fps),
                        pixel_format: Some(mode.pixel),
                    });
                }
                Err(e) => last_error = e,
            }
        }
        Err(last_error)
    }

    fn next_frame(&mut self, stop: &StopSignal) -> Result<Frame, CaptureError> {
        if stop.is_stopped() {
            return Err(CaptureError::Stopped);
        }
        let (Some(camera), Some(layout)) = (self.camera.as_mut(), self.layout) else {
            return Err(CaptureError::Disconnected("camera is not open".into()));
        };
        let image = {
            let raw = camera
                .frame_raw()
                .map_err(|e| CaptureError::Disconnected(e.to_string()))?;
            decode_frame(&raw, layout)?
        };
        let captured_at = Instant::now();
        self.frames_since_open += 1;
        if self.request.lock_controls
            && self.frames_since_open == LOCK_AFTER_FRAMES
            && self.controls.exposure == ControlOutcome::Pending
        {
            self.lock_controls();
        }
        let frame = Frame {
            image,
            seq: self.seq,
            connection: self.connection,
            captured_at,
            source: SourceKind::Camera,
            label: Arc::clone(&self.label),
        };
        self.seq += 1;
        Ok(frame)
    }

    fn close(&mut self) {
        self.camera = None;
    }

    fn control_report(&self) -> Option<ControlReport> {
        Some(self.controls.clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use nokhwa::utils::ControlValueDescription;

    fn control(
        id: KnownCameraControl,
        value: ControlValueDescription,
        flags: Vec<KnownCameraControlFlag>,
    ) -> CameraControl {
        CameraControl::new(id, format!("{id:?}"), value, flags, true)
    }

    fn int(value: i64) -> ControlValueDescription {
        ControlValueDescription::IntegerRange {
            min: 0,
            max: 10_000,
            value,
            step: 1,
            default: value,
        }
    }

    fn uvc_controls() -> Vec<CameraControl> {
        vec![
            control(EXPOSURE_LOCK.auto, int(3), vec![]),
            control(
                EXPOSURE_LOCK.value,
                int(156),
                vec![KnownCameraControlFlag::Disabled],
            ),
            control(
                WHITE_BALANCE_LOCK.auto,
                ControlValueDescription::Boolean {
                    value: true,
                    default: true,
                },
                vec![],
            ),
            control(KnownCameraControl::WhiteBalance, int(4600), vec![]),
            control(KnownCameraControl::Brightness, int(128), vec![]),
        ]
    }

    #[test]
    fn lock_switches_auto_off_and_holds_the_current_value() {
        let c = uvc_controls();
        let exposure = plan_lock(EXPOSURE_LOCK, &c, None).unwrap();
        assert_eq!(
            exposure.switch_off_auto,
            (
                KnownCameraControl::Other(0x009a_0901),
                ControlValueSetter::Integer(1)
            )
        );
        // Absolute exposure is flagged inactive while auto is on, but it is written, not read-only.
        assert_eq!(exposure.hold, Some((KnownCameraControl::Other(0x009a_0902), 156)));
        let wb = plan_lock(WHITE_BALANCE_LOCK, &c, None).unwrap();
        assert_eq!(wb.switch_off_auto.1, ControlValueSetter::Boolean(false));
        assert_eq!(wb.hold, Some((KnownCameraControl::WhiteBalance, 4600)));
        // After a reconnection the value locked before is written again.
        let again = plan_lock(WHITE_BALANCE_LOCK, &c, Some(5100)).unwrap();
        assert_eq!(again.hold, Some((KnownCameraControl::WhiteBalance, 5100)));
    }

    #[test]
    fn a_missing_or_read_only_automatic_mode_is_not_offered() {
        let only_brightness = vec![control(KnownCameraControl::Brightness, int(128), vec![])];
        assert_eq!(plan_lock(EXPOSURE_LOCK, &only_brightness, None), None);
        let read_only = vec![control(
            EXPOSURE_LOCK.auto,
            int(3),
            vec![KnownCameraControlFlag::ReadOnly],
        )];
        assert_eq!(plan_lock(EXPOSURE_LOCK, &read_only, None), None);
        // Automatic mode without a value control: lock without holding a value.
        let bare = vec![control(EXPOSURE_LOCK.auto, int(3), vec![])];
        assert_eq!(plan_lock(EXPOSURE_LOCK, &bare, None).unwrap().hold, None);
    }

    #[test]
    fn reconnect_follows_the_name_when_indices_shift() {
        let present = vec![
            (0, "Integrated Camera".to_string()),
            (1, "Integrated Camera".to_string()),
            (2, "HD Pro Webcam C920".to_string()),
            (3, "HD Pro Webcam C920".to_string()),
        ];
        // The C920 was /dev/video0 before it was unplugged; now it is 2 (and 3, its metadata node).
        assert_eq!(
            candidate_indices(0, Some("HD Pro Webcam C920"), &present),
            vec![2, 3]
        );
        // Same index still holds it: try it first.
        assert_eq!(
            candidate_indices(3, Some("HD Pro Webcam C920"), &present),
            vec![3, 2]
        );
        // Not plugged in: nothing to try.
        assert!(candidate_indices(0, Some("Brio"), &present).is_empty());
        // Never opened yet: the index asked for.
        assert_eq!(candidate_indices(5, None, &present), vec![5]);
    }

    #[test]
    fn metadata_nodes_are_hidden_but_lone_broken_cameras_are_listed() {
        let ok = CaptureFormat {
            width: 640,
            height: 480,
            fps: 30,
            pixel: PixelFormat::Mjpeg,
        };
        let cam = |index, name: &str, usable: bool| CameraInfo {
            index,
            name: name.into(),
            formats: if usable { vec![ok] } else { vec![] },
            problem: (!usable).then(|| "no formats".into()),
        };
        let listed = hide_shadow_nodes(vec![
            cam(0, "C920", true),
            cam(1, "C920", false),
            cam(2, "Busy cam", false),
        ]);
        let indices: Vec<u32> = listed.iter().map(|c| c.index).collect();
        assert_eq!(indices, vec![0, 2]);
        assert!(!listed[1].usable());
    }

    #[test]
    fn nokhwa_formats_convert_both_ways() {
        for p in [
            PixelFormat::Mjpeg,
            PixelFormat::Yuyv,
            PixelFormat::Nv12,
            PixelFormat::Gray,
            PixelFormat::Rgb,
            PixelFormat::Bgr,
        ] {
            let f = CaptureFormat {
                width: 1280,
                height: 720,
                fps: 30,
                pixel: p,
            };
            assert_eq!(from_nokhwa_format(to_nokhwa_format(f)), Some(f));
        }
        let zero = CameraFormat::new(Resolution::new(0, 0), FrameFormat::MJPEG, 30);
        assert_eq!(from_nokhwa_format(zero), None);
    }

    #[test]
    fn listing_on_a_machine_without_cameras_does_not_fail_hard() {
        // This machine may have no camera: an empty list or an error are both fine; a panic not.
        match list_cameras() {
            Ok(cams) => assert!(cams.iter().all(|c| c.usable() || c.problem.is_some())),
            Err(e) => assert!(matches!(e, CaptureError::Backend(_))),
        }
    }

    #[test]
    fn opening_a_camera_that_is_not_there_is_a_disconnection() {
        let mut cam = CameraSource::new(CameraRequest::index(97));
        let e = cam.open().unwrap_err();
        assert!(matches!(e, CaptureError::Disconnected(_)), "{e}");
        assert!(matches!(
            cam.next_frame(&StopSignal::new()),
            Err(CaptureError::Disconnected(_))
        ));
        assert_eq!(cam.control_report().unwrap().exposure, ControlOutcome::Pending);
    }
}
