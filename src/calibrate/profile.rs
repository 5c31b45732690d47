//! The calibration profile: what octoref learnt about one camera looking at one table.
//!
//! Conventions (see `spec/table.md`):
//! - Every position is in the **table frame**, millimetres (the board's frame).
//! - [`Profile::homography`] maps table mm -> **undistorted** pixels of the raw camera frame: when
//!   the profile's camera has lens distortion, a raw pixel is undistorted (with the same camera
//!   matrix) before the inverse homography applies. [`Profile::px_to_mm`] and
//!   [`Profile::mm_to_px`] do this for the caller; use them rather than the bare homography.
//! - The ocean polygon is the string's centre line, closed. When the Octo-Counter was read, the
//!   polygon's vertex order runs along the counter from its start (blue end) towards its finish,
//!   and [`CounterLayout::bead_arc_mm`] are arc lengths along the polygon from vertex 0 in vertex
//!   order, modulo the perimeter.
//! - The empty-table reference is a rectified (top-down) image whose pixel `(i, j)` (column, row;
//!   OpenCV's convention: integer coordinates are pixel centres) shows table point
//!   `origin_mm + (i, j) * mm_per_px` (see [`RectifyGrid`]).
//!
//! A profile is serde JSON with a [`FORMAT_VERSION`]; it is always written atomically, and a
//! profile from another format version or another camera resolution is refused with a message that
//! says what to do.

use super::board::BoardSpec;
use super::rectify::RectifyGrid;
use crate::fsutil::{self, FileError};
use crate::games::crash_octopus::BeadSequence;
use crate::table::{Camera, CounterReport, Homography, OceanReport, PointMm, PointPx};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The profile format this program writes and reads. Bump it when a field changes meaning.
pub const FORMAT_VERSION: u32 = 1;
/// Where profiles live by default (relative to the working directory).
pub const PROFILE_DIR: &str = "calibration";
/// The demo profile shipped with the program.
pub const DEMO_PROFILE: &str = "calibration/demo.json";

/// How the table was calibrated.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Method {
    /// One capture of the ChArUco board; intrinsics estimated from that view, no lens distortion.
    Charuco,
    /// The ChArUco board plus several board views (`--intrinsics`): calibrated intrinsics with
    /// lens distortion.
    CharucoMultiView,
    /// No board: four clicked image points of a known rectangle. The homography comes from them;
    /// the camera (when present) is a rough estimate from the same four points.
    FourPoints,
}

impl Method {
    pub fn as_str(self) -> &'static str {
        match self {
            Method::Charuco => "charuco",
            Method::CharucoMultiView => "charuco_multi_view",
            Method::FourPoints => "four_points",
        }
    }
}

/// Where the camera's focal length came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FocalSource {
    /// From the board's homography (Zhang's constraints, principal point at the image centre).
    BoardView,
    /// The board was seen almost straight on, where one view cannot tell the focal length: a
    /// typical webcam's field of view was assumed (see `pose::ASSUMED_HFOV_DEG`).
    AssumedFieldOfView,
    /// Calibrated over several board views.
    MultiView,
}

/// Pixel size of the camera frames a profile belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct ImageSize {
    pub width: u32,
    pub height: u32,
}

impl std::fmt::Display for ImageSize {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}x{}", self.width, self.height)
    }
}

/// The inputs a profile was made from, so a user (or a bug report) can tell how it came about.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct CalibrationSource {
    /// The board capture (as given on the command line).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub board_image: Option<String>,
    /// The empty set-up capture the ocean, the counter and the reference came from.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ocean_image: Option<String>,
    /// Extra board views used to calibrate the lens.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub intrinsics_images: Vec<String>,
    /// ArUco markers and ChArUco corners found in the board capture.
    #[serde(default)]
    pub markers_seen: usize,
    #[serde(default)]
    pub corners_used: usize,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub focal: Option<FocalSource>,
    /// Four-point fallback: the clicked image points (raw pixels) and the rectangle's size.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub points_px: Option<[PointPx; 4]>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rect_mm: Option<[f64; 2]>,
}

/// The Octo-Counter as laid on the string at set-up.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CounterLayout {
    /// The beads, crab position and next bead (`analyze`'s `counter` vocabulary).
    #[serde(flatten)]
    pub report: CounterReport,
    /// Each bead's centre as arc length along the ocean polygon (from vertex 0, in vertex order,
    /// modulo the perimeter), from the start bead to the finish bead.
    pub bead_arc_mm: Vec<f64>,
    /// Each bead's centre on the table, from start to finish.
    pub bead_positions_mm: Vec<PointMm>,
    /// The crab's centre as arc length along the ocean polygon, and on the table.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub crab_arc_mm: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub crab_mm: Option<PointMm>,
    /// False when both ends of the bead run have the same colour, so the start (blue end) could
    /// not be told from the finish: the sequence may then be reversed and the user should check.
    pub start_certain: bool,
}

impl CounterLayout {
    pub fn beads(&self) -> &BeadSequence {
        &self.report.beads
    }
}

/// The empty-table reference image: the set-up capture rectified to a top-down view.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ReferenceImage {
    /// File name relative to the profile's own directory (PNG).
    pub file: String,
    /// Which table rectangle the image covers and at what scale.
    #[serde(flatten)]
    pub grid: RectifyGrid,
}

/// Largest camera frame side a profile may describe, px (8K is 7680).
pub const MAX_IMAGE_SIDE_PX: u32 = 20_000;
/// Largest rectified reference image a profile may ask for, px (a 2 m table at 0.25 mm/px).
pub const MAX_REFERENCE_PIXELS: u64 = 64_000_000;
/// Scale bounds of the rectified reference, mm per px.
pub const MIN_REFERENCE_MM_PER_PX: f64 = 0.05;
pub const MAX_REFERENCE_MM_PER_PX: f64 = 50.0;
/// Camera translation and reference origin bound, mm (a camera 10 m away sees no pieces).
pub const MAX_CAMERA_DISTANCE_MM: f64 = 10_000.0;
/// Largest lens distortion coefficient accepted (real lenses stay within a few units).
pub const MAX_DISTORTION_COEFF: f64 = 1_000.0;

/// Everything octoref knows about one camera over one table.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Profile {
    pub format_version: u32,
    /// When the profile was made, RFC 3339 UTC.
    pub created: String,
    pub method: Method,
    /// The camera resolution the profile belongs to: frames of any other size are refused.
    pub image_size: ImageSize,
    /// Table mm -> undistorted pixels (see the module conventions).
    pub homography: Homography,
    /// Intrinsics and pose, when they could be estimated.
    #[serde(default)]
    pub camera: Option<Camera>,
    /// RMS distance in px between the detected board corners (or the four points) and where the
    /// profile puts them.
    pub reprojection_px: f64,
    /// Millimetres per pixel at the image centre (a one-pixel step, on the table plane).
    pub mm_per_px: f64,
    /// The board used (its square size is the one the user measured).
    #[serde(default)]
    pub board: Option<BoardSpec>,
    #[serde(default)]
    pub source: CalibrationSource,
    /// The ocean: inside the string's centre line.
    #[serde(default)]
    pub ocean: Option<OceanReport>,
    /// The Octo-Counter read from the string.
    #[serde(default)]
    pub counter: Option<CounterLayout>,
    /// The rectified empty-table image, for vision's background and white balance.
    #[serde(default)]
    pub reference: Option<ReferenceImage>,
    /// The board's white paper as seen in the board capture, `[b, g, r]`: the colour of the
    /// light at calibration (the table itself may be any colour). `None` without a board.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub white_bgr: Option<[f64; 3]>,
    /// Piece models learnt by `octoref teach`, keyed by catalog name. Owned by vision; the profile
    /// keeps them opaque so calibrating again can carry them over.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub taught: BTreeMap<String, serde_json::Value>,
}

/// A profile that cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum ProfileError {
    #[error(transparent)]
    File(#[from] FileError),
    #[error(
        "{path}: field `format_version`: this profile has format version {found}, but this octoref reads version {expected}; calibrate again (`octoref calibrate --board IMG --out {path}`) to make a new profile"
    )]
    Version {
        path: PathBuf,
        found: u64,
        expected: u32,
    },
    #[error(
        "{path}: the profile was calibrated for {profile} camera frames but the frames are {frames}; set the camera to {profile}, or calibrate again at {frames} (`octoref calibrate --board IMG --out {path}`)"
    )]
    Resolution {
        path: PathBuf,
        profile: ImageSize,
        frames: ImageSize,
    },
    #[error("{path}: field `{field}`: {message}")]
    Invalid {
        path: PathBuf,
        field: String,
        message: String,
    },
}

impl Profile {
    /// Reads a profile, checking its format version first (so an old or newer profile gets the
    /// "calibrate again" message rather than a field error) and then its contents.
    pub fn load(path: &Path) -> Result<Profile, ProfileError> {
        let bytes = fsutil::read_input(path)?;
        let value: serde_json::Value = fsutil::parse_json(&bytes, path)?;
        let version = value.get("format_version").ok_or_else(|| ProfileError::Invalid {
            path: path.to_path_buf(),
            field: "format_version".into(),
            message: format!("missing; expected {FORMAT_VERSION} (is this an octoref calibration profile?)"),
        })?;
        let found = version.as_u64().ok_or_else(|| ProfileError::Invalid {
            path: path.to_path_buf(),
            field: "format_version".into(),
            message: format!("expected the integer {FORMAT_VERSION}, got {version}"),
        })?;
        if found != u64::from(FORMAT_VERSION) {
            return Err(ProfileError::Version {
                path: path.to_path_buf(),
                found,
                expected: FORMAT_VERSION,
            });
        }
        let profile: Profile = fsutil::parse_json(&bytes, path)?;
        profile.validate(path)?;
        Ok(profile)
    }

    /// Writes the profile atomically (a crash leaves the old file or the new one).
    pub fn save(&self, path: &Path) -> Result<(), ProfileError> {
        self.validate(path)?;
        fsutil::write_json_atomic(path, self)?;
        Ok(())
    }

    fn validate(&self, path: &Path) -> Result<(), ProfileError> {
        let invalid = |field: &str, message: String| ProfileError::Invalid {
            path: path.to_path_buf(),
            field: field.into(),
            message,
        };
        let side = MAX_IMAGE_SIDE_PX;
        if self.image_size.width == 0
            || self.image_size.height == 0
            || self.image_size.width > side
            || self.image_size.height > side
        {
            return Err(invalid(
                "image_size",
                format!(
                    "expected a width and height in 1..={side}, got {}",
                    self.image_size
                ),
            ));
        }
        if !(self.mm_per_px.is_finite() && self.mm_per_px > 0.0) {
            return Err(invalid(
                "mm_per_px",
                format!("expected a positive number, got {}", self.mm_per_px),
            ));
        }
        if !self.reprojection_px.is_finite() || self.reprojection_px < 0.0 {
            return Err(invalid(
                "reprojection_px",
                format!("expected a number >= 0, got {}", self.reprojection_px),
            ));
        }
        if let Some(cam) = &self.camera {
            let k = &cam.intrinsics;
            if (k.width, k.height) != (self.image_size.width, self.image_size.height) {
                return Err(invalid(
                    "camera.intrinsics",
                    format!(
                        "width/height {}x{} differ from image_size {}",
                        k.width, k.height, self.image_size
                    ),
                ));
            }
            if !(k.fx > 0.0 && k.fy > 0.0 && k.fx.is_finite() && k.fy.is_finite()) {
                return Err(invalid(
                    "camera.intrinsics.fx",
                    "expected positive focal lengths".into(),
                ));
            }
            let (w, h) = (f64::from(k.width), f64::from(k.height));
            if !(k.cx.is_finite() && k.cy.is_finite() && k.cx.abs() <= 2.0 * w && k.cy.abs() <= 2.0 * h) {
                return Err(invalid(
                    "camera.intrinsics.cx",
                    format!(
                        "expected the principal point near the image, got ({}, {})",
                        k.cx, k.cy
                    ),
                ));
            }
            if k.distortion
                .iter()
                .any(|d| !d.is_finite() || d.abs() > MAX_DISTORTION_COEFF)
            {
                return Err(invalid(
                    "camera.intrinsics.distortion",
                    format!("expected 5 finite coefficients within +-{MAX_DISTORTION_COEFF}"),
                ));
            }
            let pose = &cam.pose;
            if pose
                .rvec
                .iter()
                .any(|r| !r.is_finite() || r.abs() > 4.0 * std::f64::consts::PI)
                || pose
                    .tvec
                    .iter()
                    .any(|t| !t.is_finite() || t.abs() > MAX_CAMERA_DISTANCE_MM)
            {
                return Err(invalid(
                    "camera.pose",
                    format!(
                        "expected a finite rotation vector and a translation within {MAX_CAMERA_DISTANCE_MM} mm"
                    ),
                ));
            }
        }
        if let Some(reference) = &self.reference {
            let g = &reference.grid;
            let pixels = u64::from(g.width) * u64::from(g.height);
            if g.width == 0 || g.height == 0 || pixels > MAX_REFERENCE_PIXELS {
                return Err(invalid(
                    "reference.width",
                    format!(
                        "expected a reference image of at most {MAX_REFERENCE_PIXELS} pixels, got {}x{}",
                        g.width, g.height
                    ),
                ));
            }
            if !(g.mm_per_px.is_finite()
                && (MIN_REFERENCE_MM_PER_PX..=MAX_REFERENCE_MM_PER_PX).contains(&g.mm_per_px))
            {
                return Err(invalid(
                    "reference.mm_per_px",
                    format!(
                        "expected {MIN_REFERENCE_MM_PER_PX}..={MAX_REFERENCE_MM_PER_PX}, got {}",
                        g.mm_per_px
                    ),
                ));
            }
            if !(g.origin_mm.x.is_finite() && g.origin_mm.y.is_finite())
                || g.origin_mm.x.abs() > MAX_CAMERA_DISTANCE_MM
                || g.origin_mm.y.abs() > MAX_CAMERA_DISTANCE_MM
            {
                return Err(invalid(
                    "reference.origin_mm",
                    format!("expected a finite point within {MAX_CAMERA_DISTANCE_MM} mm"),
                ));
            }
        }
        if let Some(ocean) = &self.ocean
            && (ocean.polygon_mm.len() < 3 || !ocean.polygon_mm.is_finite())
        {
            return Err(invalid(
                "ocean.polygon_mm",
                "expected at least 3 finite [x, y] points".into(),
            ));
        }
        if let Some(counter) = &self.counter {
            let n = counter.report.beads.len();
            if counter.bead_arc_mm.len() != n || counter.bead_positions_mm.len() != n {
                return Err(invalid(
                    "counter.bead_arc_mm",
                    format!("expected one position per bead ({n})"),
                ));
            }
            if counter.report.crab > n {
                return Err(invalid(
                    "counter.crab",
                    format!("expected 0..={n}, got {}", counter.report.crab),
                ));
            }
        }
        Ok(())
    }

    /// Refuses frames of another size than the profile's (a profile maps one resolution only).
    pub fn check_resolution(&self, path: &Path, width: u32, height: u32) -> Result<(), ProfileError> {
        let frames = ImageSize { width, height };
        if frames != self.image_size {
            return Err(ProfileError::Resolution {
                path: path.to_path_buf(),
                profile: self.image_size,
                frames,
            });
        }
        Ok(())
    }

    /// Whether raw pixels must be undistorted before the homography applies.
    pub fn has_distortion(&self) -> bool {
        self.camera
            .as_ref()
            .is_some_and(|c| c.intrinsics.has_distortion())
    }

    /// A raw camera pixel -> the table point it shows (on the table plane, z = 0).
    pub fn px_to_mm(&self, raw: PointPx) -> Option<PointMm> {
        self.homography.to_mm(self.undistort(raw))
    }

    /// A table point (z = 0) -> the raw camera pixel that shows it.
    pub fn mm_to_px(&self, p: PointMm) -> Option<PointPx> {
        let ideal = self.homography.to_px(p)?;
        Some(self.distort(ideal))
    }

    /// Raw (distorted) pixel -> the undistorted pixel with the same camera matrix.
    pub fn undistort(&self, raw: PointPx) -> PointPx {
        match &self.camera {
            Some(cam) if cam.intrinsics.has_distortion() => {
                let k = &cam.intrinsics;
                let (x, y) = k.undistort_to_normalised(raw);
                PointPx::new(k.fx * x + k.cx, k.fy * y + k.cy)
            }
            _ => raw,
        }
    }

    /// Undistorted pixel -> raw (distorted) pixel.
    pub fn distort(&self, ideal: PointPx) -> PointPx {
        match &self.camera {
            Some(cam) if cam.intrinsics.has_distortion() => {
                let k = &cam.intrinsics;
                k.distort_normalised((ideal.x - k.cx) / k.fx, (ideal.y - k.cy) / k.fy)
            }
            _ => ideal,
        }
    }

    /// Where the reference image lives, given where this profile was loaded from.
    pub fn reference_path(&self, profile_path: &Path) -> Option<PathBuf> {
        let r = self.reference.as_ref()?;
        let dir = profile_path.parent().unwrap_or_else(|| Path::new(""));
        Some(dir.join(&r.file))
    }
}

/// The current time as RFC 3339 UTC (`2025-01-31T12:00:00Z`), without a date crate.
pub fn now_rfc3339() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    rfc3339_from_unix(secs)
}

/// Unix seconds -> RFC 3339 UTC (see [`crate::clock::UtcTime`]).
pub fn rfc3339_from_unix(secs: u64) -> String {
    let t = crate::clock::UtcTime::from_unix(secs);
    format!(
        "{:04}-{:02}-{:02}T{:02}:{:02}:{:02}Z",
        t.year, t.month, t.day, t.hour, t.minute, t.second
    )
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::table::{Intrinsics, PolygonMm, Pose};
    use nalgebra::Vector3;

    pub(crate) fn sample_profile() -> Profile {
        let cam = Camera {
            intrinsics: Intrinsics::from_hfov(1280, 720, 70.0),
            pose: Pose::look_at(
                crate::table::PointMm3::new(140.0, -200.0, -900.0),
                crate::table::PointMm3::new(140.0, 100.0, 0.0),
                Vector3::new(0.0, -1.0, 0.0),
            )
            .unwrap(),
        };
        Profile {
            format_version: FORMAT_VERSION,
            created: rfc3339_from_unix(0),
            method: Method::Charuco,
            image_size: ImageSize {
                width: 1280,
                height: 720,
            },
            homography: cam.table_homography(),
            camera: Some(cam),
            reprojection_px: 0.12,
            mm_per_px: 1.1,
            board: Some(BoardSpec::default()),
            source: CalibrationSource::default(),
            ocean: Some(OceanReport::new(PolygonMm::new(vec![
                PointMm::new(0.0, 0.0),
                PointMm::new(100.0, 0.0),
                PointMm::new(100.0, 100.0),
            ]))),
            counter: None,
            reference: Some(ReferenceImage {
                file: "demo_reference.png".into(),
                grid: RectifyGrid {
                    origin_mm: PointMm::new(-100.0, -50.0),
                    mm_per_px: 1.0,
                    width: 500,
                    height: 400,
                },
            }),
            taught: BTreeMap::new(),
            white_bgr: None,
        }
    }

    #[test]
    fn rfc3339_dates() {
        assert_eq!(rfc3339_from_unix(0), "1970-01-01T00:00:00Z");
        assert_eq!(rfc3339_from_unix(951_782_400), "2000-02-29T00:00:00Z");
        assert_eq!(rfc3339_from_unix(1_735_689_599), "2024-12-31T23:59:59Z");
    }

    #[test]
    fn save_load_round_trip() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("p.json");
        let p = sample_profile();
        p.save(&path).unwrap();
        let q = Profile::load(&path).unwrap();
        assert_eq!(q.method, Method::Charuco);
        assert_eq!(q.image_size, p.image_size);
        assert!((q.homography.matrix() - p.homography.matrix()).norm() < 1e-9);
        assert_eq!(
            q.reference_path(&path).unwrap(),
            dir.path().join("demo_reference.png")
        );
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.contains("\"format_version\": 1"), "{text}");
        assert!(text.contains("\"method\": \"charuco\""), "{text}");
    }

    #[test]
    fn other_version_says_calibrate_again() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("old.json");
        let mut v = serde_json::to_value(sample_profile()).unwrap();
        v["format_version"] = serde_json::json!(0);
        std::fs::write(&path, v.to_string()).unwrap();
        let e = Profile::load(&path).unwrap_err().to_string();
        assert!(
            e.contains("format version 0") && e.contains("calibrate again"),
            "{e}"
        );
        std::fs::write(&path, "{\"homography\": 3}").unwrap();
        let e = Profile::load(&path).unwrap_err().to_string();
        assert!(e.contains("format_version") && e.contains("missing"), "{e}");
    }

    #[test]
    fn bad_field_is_named() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("bad.json");
        let mut v = serde_json::to_value(sample_profile()).unwrap();
        v["image_size"]["width"] = serde_json::json!("wide");
        std::fs::write(&path, v.to_string()).unwrap();
        let e = Profile::load(&path).unwrap_err().to_string();
        assert!(e.contains("image_size.width"), "{e}");
    }

    #[test]
    fn resolution_mismatch_says_what_to_do() {
        let p = sample_profile();
        let path = Path::new("calibration/table.json");
        assert!(p.check_resolution(path, 1280, 720).is_ok());
        let e = p.check_resolution(path, 1920, 1080).unwrap_err().to_string();
        assert!(
            e.contains("1280x720") && e.contains("1920x1080") && e.contains("calibrate again"),
            "{e}"
        );
    }

    #[test]
    fn px_mm_round_trip_with_distortion() {
        let mut p = sample_profile();
        if let Some(cam) = p.camera.as_mut() {
            cam.intrinsics.distortion = [-0.1, 0.03, 0.0, 0.0, 0.0];
        }
        let cam = p.camera.clone().unwrap();
        for q in [PointMm::new(0.0, 0.0), PointMm::new(300.0, 250.0)] {
            let raw = cam.project_table(q).unwrap();
            let back = p.px_to_mm(raw).unwrap();
            assert!(back.distance(q) < 1e-6, "{q:?} -> {back:?}");
            assert!(p.mm_to_px(q).unwrap().distance(raw) < 1e-6);
        }
    }
}
