//! Calibration: board capture -> profile (homography, pose, ocean, counter, empty reference).
//!
//! The parts, in the order a calibration runs: [`charuco`] finds the board ([`aruco`] is the one
//! adapter to OpenCV's ArUco API) and fits the [`homography`] and the camera ([`pose`]);
//! [`rectify`] warps captures to a top-down table view; the ocean and the Octo-Counter are read
//! from the empty set-up capture; everything lands in a [`profile::Profile`].

pub mod aruco;
pub mod board;
pub mod charuco;
pub mod colour;
pub mod counter;
pub mod curve;
pub mod homography;
pub mod ocean;
pub mod pose;
pub mod printable;
pub mod profile;
pub mod rectify;
pub mod setup;
#[cfg(test)]
pub(crate) mod testscene;

pub use profile::{Profile, ProfileError};

/// Why a calibration step failed. [`CalibrateError::is_input_error`] tells bad input (exit 2)
/// from an understood input that did not work out (exit 1).
#[derive(Debug, thiserror::Error)]
pub enum CalibrateError {
    #[error("the image is empty (0 x 0 pixels)")]
    EmptyImage,
    #[error("no ChArUco board found (saw {markers} markers)")]
    NoBoard { markers: usize },
    #[error(
        "the ChArUco board was seen, but only {corners} of its {total} corners could be located (need at least {needed}; saw {markers} markers): make sure the whole board is in view, flat, in focus and evenly lit"
    )]
    TooFewCorners {
        corners: usize,
        total: usize,
        needed: usize,
        markers: usize,
    },
    #[error("{name}: {source}")]
    View {
        name: String,
        #[source]
        source: Box<CalibrateError>,
    },
    #[error(
        "the image is {width}x{height} but the board capture is {expected_width}x{expected_height}; every capture must come from the same camera mode"
    )]
    ViewSize {
        width: i32,
        height: i32,
        expected_width: u32,
        expected_height: u32,
    },
    #[error(transparent)]
    Aruco(#[from] aruco::ArucoError),
    #[error(transparent)]
    Fit(#[from] homography::FitError),
    #[error(transparent)]
    Pose(#[from] pose::PoseError),
    #[error(transparent)]
    Rectify(#[from] rectify::RectifyError),
    #[error(transparent)]
    Ocean(#[from] ocean::OceanError),
    #[error("OpenCV: {0}")]
    OpenCv(#[from] opencv::Error),
}

impl CalibrateError {
    /// True for unusable input (an empty image, captures of different sizes, bad four points):
    /// exit code 2. Everything else is an input understood but not calibrated from: exit 1.
    pub fn is_input_error(&self) -> bool {
        match self {
            CalibrateError::EmptyImage | CalibrateError::ViewSize { .. } => true,
            CalibrateError::View { source, .. } => source.is_input_error(),
            CalibrateError::Fit(e) => matches!(
                e,
                homography::FitError::BadQuad | homography::FitError::BadRectangle(..)
            ),
            _ => false,
        }
    }
}
