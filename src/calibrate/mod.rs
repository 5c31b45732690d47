//! Calibration: board capture -> profile (homography, pose, ocean, counter, empty reference).

pub mod aruco;
pub mod board;
