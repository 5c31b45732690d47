//! Vision: frame + profile -> every piece on the table in millimetres.
//!
//! The parts, in the order a frame goes through them: [`rectify`] warps the frame to top-down
//! views of the table; [`labels`] and [`region`] find what changed against the empty-table
//! reference (white balance, shadows told from pieces; [`caster`]: a shadow needs a caster on
//! its light side, so a dark piece ringed by bare table is a piece); [`colour`] says which pieces' colours a
//! pixel shows; [`detect`] explains each changed region with catalog pieces, fitting each one's
//! pose ([`fit`]) through its silhouette ([`solid`], [`view`]: parallax) scored on the pixels
//! ([`raster`]); [`counter`] reads the Octo-Counter and the crab. [`analyzer`] runs them all;
//! [`in_play`] says which pieces a game sets out; [`taught`] holds what `octoref teach` learnt; [`evaluate`] scores readings against the
//! renderer's truth and [`synthetic`] prepares rendered scenes for `octoref bench` and tests.

pub mod analyzer;
pub mod bench;
pub mod caster;
pub mod colour;
pub mod counter;
pub mod detect;
pub mod evaluate;
pub mod faint;
pub mod fit;
pub mod in_play;
pub mod labels;
pub mod parallel;
pub mod raster;
pub mod rectify;
pub mod region;
pub mod rims;
pub mod scale;
pub mod solid;
pub mod stacked;
pub mod synthetic;
pub mod taught;
pub mod teach;
pub mod tracking;
pub mod view;

pub use analyzer::{Analyzer, FrameAnalysis, StageTimes};
pub use taught::{TaughtModels, TaughtPiece};

/// Why a frame could not be analysed, or an analyser not built.
#[derive(Debug, thiserror::Error)]
pub enum VisionError {
    #[error(
        "the frame is {width}x{height} but the profile was calibrated for {expected_width}x{expected_height} frames"
    )]
    FrameSize {
        width: i32,
        height: i32,
        expected_width: i32,
        expected_height: i32,
    },
    #[error("the image is not an 8-bit colour (BGR) image")]
    FrameType,
    #[error(
        "the profile has no empty-table reference (field `reference`): calibrate with --ocean and a capture of the set-up table without pieces"
    )]
    NoReference,
    #[error(
        "the empty-table reference image is {width}x{height} but the profile's field `reference` says {expected_width}x{expected_height}"
    )]
    ReferenceSize {
        width: i32,
        height: i32,
        expected_width: u32,
        expected_height: u32,
    },
    #[error(transparent)]
    Taught(#[from] taught::TaughtError),
    #[error(transparent)]
    Referee(#[from] crate::referee::RefereeError),
    #[error(transparent)]
    Worker(#[from] parallel::WorkerLost),
    #[error("OpenCV: {0}")]
    OpenCv(#[from] opencv::Error),
}
