//! Vision: frame + profile -> every piece on the table in millimetres.

pub mod colour;
pub mod labels;
pub mod raster;
pub mod rectify;
pub mod solid;
pub mod synthetic;
pub mod view;

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
    #[error("the frame is not an 8-bit colour (BGR) image")]
    FrameType,
    #[error("OpenCV: {0}")]
    OpenCv(#[from] opencv::Error),
}
#[cfg(test)]
mod experiments;
