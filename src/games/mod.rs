//! The rules of each game as plain data and functions: no OpenCV, no egui, no I/O.

pub mod crash_octopus;
pub mod octocube;
pub mod otto;
