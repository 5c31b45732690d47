//! Which source the app uses: the flags (`--camera N`, `--video FILE`, `--images DIR`, `--demo`),
//! else the first usable camera, else the built-in demo.

use super::camera::{CameraInfo, CameraRequest, CameraSource};
use super::format::WantedFormat;
use super::images::{ImageFolderOptions, ImageFolderSource, list_images};
use super::video::{VideoOptions, VideoSource};
use super::worker::SourceFactory;
use super::{CaptureError, FrameSource};
use std::path::PathBuf;

/// What the user asked for on the command line (the app's `AppArgs`, without the CLI types:
/// nothing in the library imports `cli`).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SourceRequest {
    pub camera: Option<u32>,
    pub video: Option<PathBuf>,
    pub images: Option<PathBuf>,
    pub demo: bool,
}

/// Why the demo runs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DemoReason {
    /// `--demo` was given.
    Asked,
    /// No camera is connected (or none offers a mode octoref decodes).
    NoCamera,
    /// The cameras could not be listed.
    CameraListFailed(String),
}

/// The source the app will run.
#[derive(Debug, Clone, PartialEq)]
pub enum SourceChoice {
    Camera(CameraRequest),
    Video(VideoOptions),
    Images(ImageFolderOptions),
    /// The synthetic table playing a scripted game; the app supplies its source.
    Demo(DemoReason),
}

/// Decides the source. Explicit flags win in the order camera, video, images, demo (clap already
/// refuses combinations); with none, `list` is asked for cameras and the first usable one is
/// taken (remembered by name, so it is found again if replugged), else the demo.
///
/// An explicit `--camera N` is honoured even if camera N is absent right now: the worker reports
/// it disconnected and opens it as soon as it appears.
pub fn choose_source(
    request: &SourceRequest,
    list: impl FnOnce() -> Result<Vec<CameraInfo>, CaptureError>,
) -> SourceChoice {
    if let Some(index) = request.camera {
        return SourceChoice::Camera(CameraRequest::index(index));
    }
    if let Some(path) = &request.video {
        return SourceChoice::Video(VideoOptions::new(path));
    }
    if let Some(dir) = &request.images {
        return SourceChoice::Images(ImageFolderOptions::new(dir));
    }
    if request.demo {
        return SourceChoice::Demo(DemoReason::Asked);
    }
    match list() {
        Ok(cameras) => match cameras.into_iter().find(CameraInfo::usable) {
            Some(camera) => SourceChoice::Camera(CameraRequest {
                index: camera.index,
                name: Some(camera.name),
                wanted: WantedFormat::default(),
                lock_controls: true,
            }),
            None => SourceChoice::Demo(DemoReason::NoCamera),
        },
        Err(e) => SourceChoice::Demo(DemoReason::CameraListFailed(e.to_string())),
    }
}

impl SourceChoice {
    /// One line for the UI and the log.
    pub fn describe(&self) -> String {
        match self {
            SourceChoice::Camera(CameraRequest {
                index,
                name: Some(name),
                ..
            }) => format!("camera {index} ({name})"),
            SourceChoice::Camera(r) => format!("camera {}", r.index),
            SourceChoice::Video(v) => format!("video {}", v.path.display()),
            SourceChoice::Images(i) => format!("images in {}", i.dir.display()),
            SourceChoice::Demo(DemoReason::Asked) => "the demo".into(),
            SourceChoice::Demo(DemoReason::NoCamera) => "the demo (no camera found)".into(),
            SourceChoice::Demo(DemoReason::CameraListFailed(e)) => {
                format!("the demo (cameras could not be listed: {e})")
            }
        }
    }

    /// Checks a file or folder source up front, so a bad path is a usage error (exit 2) before
    /// any window opens. Cameras and the demo are always valid here.
    pub fn validate(&self) -> Result<(), CaptureError> {
        match self {
            SourceChoice::Video(v) if !v.path.is_file() => Err(CaptureError::Invalid {
                path: v.path.clone(),
                message: "no such video file (expected a readable file)".into(),
            }),
            SourceChoice::Images(i) => list_images(&i.dir).map(|_| ()),
            _ => Ok(()),
        }
    }

    /// The factory for a [`super::CaptureWorker`]. For the demo, use
    /// [`super::DemoSource::factory`] instead to keep the handle with each frame's truth.
    pub fn into_factory(self) -> Option<SourceFactory> {
        match self {
            SourceChoice::Camera(r) => Some(Box::new(move || {
                Box::new(CameraSource::new(r)) as Box<dyn FrameSource>
            })),
            SourceChoice::Video(v) => Some(Box::new(move || {
                Box::new(VideoSource::new(v)) as Box<dyn FrameSource>
            })),
            SourceChoice::Images(i) => Some(Box::new(move || {
                Box::new(ImageFolderSource::new(i)) as Box<dyn FrameSource>
            })),
            SourceChoice::Demo(_) => Some(super::DemoSource::factory(super::DemoConfig::default()).0),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::capture::{CaptureFormat, PixelFormat};
    use std::path::Path;

    fn cam(index: u32, name: &str, usable: bool) -> CameraInfo {
        CameraInfo {
            index,
            name: name.into(),
            formats: if usable {
                vec![CaptureFormat {
                    width: 1280,
                    height: 720,
                    fps: 30,
                    pixel: PixelFormat::Mjpeg,
                }]
            } else {
                vec![]
            },
            problem: None,
        }
    }

    #[test]
    fn flags_win_without_listing_cameras() {
        let never = || -> Result<Vec<CameraInfo>, CaptureError> { panic!("must not list") };
        let r = SourceRequest {
            camera: Some(2),
            ..Default::default()
        };
        assert_eq!(
            choose_source(&r, never),
            SourceChoice::Camera(CameraRequest::index(2))
        );
        let r = SourceRequest {
            video: Some("a.avi".into()),
            ..Default::default()
        };
        assert!(matches!(choose_source(&r, never), SourceChoice::Video(v) if v.path == Path::new("a.avi")));
        let r = SourceRequest {
            images: Some("dir".into()),
            ..Default::default()
        };
        assert!(matches!(choose_source(&r, never), SourceChoice::Images(_)));
        let r = SourceRequest {
            demo: true,
            ..Default::default()
        };
        assert_eq!(choose_source(&r, never), SourceChoice::Demo(DemoReason::Asked));
    }

    #[test]
    fn no_flags_take_the_first_usable_camera_else_the_demo() {
        let r = SourceRequest::default();
        let chosen = choose_source(&r, || Ok(vec![cam(0, "Broken", false), cam(2, "C920", true)]));
        match &chosen {
            SourceChoice::Camera(c) => {
                assert_eq!((c.index, c.name.as_deref()), (2, Some("C920")));
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(chosen.describe(), "camera 2 (C920)");
        assert_eq!(
            choose_source(&r, || Ok(vec![])),
            SourceChoice::Demo(DemoReason::NoCamera)
        );
        assert_eq!(
            choose_source(&r, || Ok(vec![cam(0, "Broken", false)])),
            SourceChoice::Demo(DemoReason::NoCamera)
        );
        let failed = choose_source(&r, || Err(CaptureError::Backend("no v4l".into())));
        assert!(
            matches!(&failed, SourceChoice::Demo(DemoReason::CameraListFailed(e)) if e.contains("no v4l"))
        );
        assert!(
            failed.clone().into_factory().is_some(),
            "the demo is a real source"
        );
        assert!(failed.describe().starts_with("the demo"));
    }

    #[test]
    fn validate_names_a_missing_file_or_empty_folder() {
        let dir = tempfile::tempdir().unwrap();
        let missing = dir.path().join("nope.avi");
        let e = SourceChoice::Video(VideoOptions::new(&missing))
            .validate()
            .unwrap_err();
        assert!(e.to_string().contains("nope.avi"), "{e}");
        let e = SourceChoice::Images(ImageFolderOptions::new(dir.path()))
            .validate()
            .unwrap_err();
        assert!(e.to_string().contains("no images"), "{e}");
        assert!(SourceChoice::Camera(CameraRequest::index(0)).validate().is_ok());
    }
}
