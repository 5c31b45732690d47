//! The synthetic table: renders Crash Octopus scenes with exact ground truth from a seed.
//!
//! It is the only "table" the project has: calibration tests use its board and empty captures,
//! vision and `octoref bench` its game frames, the app's demo renders a scripted game live, and the
//! reliability tests inject faults through [`Faults`].
//!
//! Conventions (shared with `table/`):
//! - **Table frame** = the calibration board's frame: origin at the board's top-left corner as
//!   drawn, x along its 7 squares, y along its 5, z into the table (a point `h` mm above the
//!   table has z = `-h`). Lengths in millimetres, angles in radians in code and degrees in files.
//! - **Camera** = `table::Camera` (OpenCV pinhole + 5-term distortion, pose table -> camera).
//!   Pixel centres are at integer coordinates.
//! - Images are OpenCV `Mat`s, BGR, `CV_8UC3`. The board and empty captures are written as PNG
//!   (lossless), game frames as JPEG.
//! - Determinism: everything comes from `SceneSpec::seed` through ChaCha8 streams, one per purpose
//!   (`random.rs`): the same spec gives the same bytes.
//!
//! Use: [`Scene::generate`] -> [`Scene::layout`] / [`Scene::frame`] -> [`render_board`],
//! [`render_empty`], [`render_frame`]; [`truth`] builds `truth.json`; [`write_scene`] does it all
//! into a directory.

mod arrange;
mod counter;
mod faults;
mod files;
mod frame;
mod layout;
mod light;
mod mesh;
mod pieces;
mod placement;
mod play;
mod random;
mod raster;
mod render;
mod rig;
mod scene;
mod sensor;
mod setup;
mod spec;
mod string_loop;
mod surface;
mod truth;

pub use counter::{BeadPlacement, CounterLayout};
pub use faults::{CameraNudge, Faults, Hand, LightingChange};
pub use files::{BOARD_FILE, EMPTY_FILE, SceneFiles, TRUTH_FILE, frame_file, write_scene, write_scene_with};
pub use frame::Frame;
pub use layout::{Layout, NearTie, PlacedPiece};
pub use light::Light;
pub use render::{RenderOptions, render_board, render_empty, render_frame, seen_shares};
pub use rig::{
    BOARD_MIN_SQUARE_PX, HEIGHT_RANGE_MM, HFOV_RANGE_DEG, OCEAN_VIEW_MARGIN_MM, TILT_RANGE_DEG,
    VIEW_MARGIN_FRACTION, camera_looking_at,
};
pub use scene::{BoxPiece, Paper, RigParams, Scene};
pub use sensor::{Sensor, encode_jpeg, encode_png, jpeg_round_trip};
pub use spec::{Modules, Resolution, SceneSpec};
pub use string_loop::{PERIMETER_RANGE_MM, StringLoop};
pub use surface::{Surface, SurfaceKind};
pub use truth::{
    FrameTruth, MIN_SEEN_SHARE, SceneParams, SetupTruth, StringTruth, Truth, TruthPiece, board_corners_px,
    frame_truth, layout_reports, truth,
};

/// Why a scene could not be generated, rendered or written.
#[derive(Debug, thiserror::Error)]
pub enum SynthError {
    #[error("scene spec: field `{field}`: expected {expected}")]
    Spec { field: &'static str, expected: String },
    #[error(
        "seed {seed}: no camera and string loop fit together after {attempts} attempts \
         (fix the camera height or tilt less tightly)"
    )]
    NoFit { seed: u64, attempts: u64 },
    #[error("seed {seed}, frame {frame}: could not lay out the pieces: {reason}")]
    Layout { seed: u64, frame: usize, reason: String },
    #[error("catalog: {0}")]
    Catalog(String),
    #[error("drawing the calibration board: {0}")]
    Board(String),
    #[error("cannot encode the image as {0}")]
    Encode(String),
    #[error("OpenCV: {0}")]
    OpenCv(#[from] opencv::Error),
    #[error(transparent)]
    File(#[from] crate::fsutil::FileError),
}

/// The smallest board square, in pixels, as the scene's camera sees the board.
pub fn board_square_px_for(scene: &Scene) -> f64 {
    let (w, h) = scene.board.size_mm();
    rig::board_square_px(&scene.camera, w, h, scene.board.square_mm)
}
