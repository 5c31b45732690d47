//! Calibration: board capture -> profile (homography, pose, ocean, counter, empty reference).

pub mod aruco;
pub mod board;
pub mod profile;
pub mod rectify;

pub use profile::{Profile, ProfileError};
