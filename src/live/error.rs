//! Why the live referee could not start, or a calibration could not be used.

use crate::calibrate::ProfileError;
use crate::vision::VisionError;
use crate::vision::taught::TaughtError;
use crate::vision::tracking::TrackingError;
use std::path::PathBuf;

/// A calibration or configuration the live referee cannot work with.
#[derive(Debug, thiserror::Error)]
pub enum LiveError {
    #[error(transparent)]
    Profile(#[from] ProfileError),
    #[error(
        "{path}: field `reference`: missing; the live referee needs the empty-table reference (calibrate with the set-up table: `octoref calibrate --board IMG --ocean IMG --out {path}`)"
    )]
    NoReference { path: PathBuf },
    #[error("{path}: the empty-table reference image (field `reference.file` of {profile}): {message}")]
    Reference {
        path: PathBuf,
        profile: PathBuf,
        message: String,
    },
    #[error("{0}")]
    Taught(#[from] TaughtError),
    #[error(transparent)]
    Vision(#[from] VisionError),
    #[error(transparent)]
    Tracking(#[from] TrackingError),
    #[error("live referee configuration: field `{field}`: {message}")]
    Config { field: &'static str, message: String },
    #[error("cannot start the live referee's thread: {0}")]
    Thread(String),
}
