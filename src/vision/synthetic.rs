//! Synthetic scenes for `octoref bench` and the vision tests: a rendered scene calibrated the
//! way a user calibrates (board capture -> profile, empty set-up -> ocean, counter, reference),
//! and its game frames with their ground truth.
//!
//! Nothing here looks at the true camera: the profile comes from the rendered board alone, so
//! the figures measured on these scenes include calibration's own errors.

use crate::calibrate::board::BoardSpec;
use crate::calibrate::counter::DEFAULT_BEAD_COUNT;
use crate::calibrate::profile::Profile;
use crate::calibrate::{CalibrateError, charuco, setup};
use crate::synth::{
    Faults, FrameTruth, Scene, SceneSpec, SynthError, frame_file, frame_truth, jpeg_round_trip, render_board,
    render_empty, render_frame,
};
use opencv::core::Mat;

/// The reference image's file name in profiles made here (nothing is written).
pub const REFERENCE_FILE: &str = "reference.png";

/// Why a synthetic scene could not be prepared.
#[derive(Debug, thiserror::Error)]
pub enum SyntheticError {
    #[error("seed {seed}: rendering: {source}")]
    Synth {
        seed: u64,
        #[source]
        source: SynthError,
    },
    #[error("seed {seed}: calibrating from the rendered board: {source}")]
    Calibrate {
        seed: u64,
        #[source]
        source: CalibrateError,
    },
}

/// One rendered game frame with its truth.
#[derive(Debug, Clone)]
pub struct SyntheticFrame {
    /// The frame as the camera would deliver it (JPEG round trip at the frame's quality).
    pub image: Mat,
    pub truth: FrameTruth,
}

/// A scene calibrated from its own renders, with frames.
#[derive(Debug, Clone)]
pub struct SyntheticScene {
    pub scene: Scene,
    pub profile: Profile,
    /// The rectified empty-table reference the profile points to.
    pub reference: Mat,
    pub frames: Vec<SyntheticFrame>,
}

/// Renders `spec`'s board and empty captures, calibrates from them, and renders `frames` game
/// frames (frame `i` with `faults(i)`).
pub fn prepare(
    spec: &SceneSpec,
    frames: usize,
    faults: impl Fn(usize) -> Faults,
) -> Result<SyntheticScene, SyntheticError> {
    let seed = spec.seed;
    let synth = |source| SyntheticError::Synth { seed, source };
    let calib = |source| SyntheticError::Calibrate { seed, source };
    let scene = Scene::generate(spec).map_err(synth)?;
    let board = render_board(&scene).map_err(synth)?;
    let empty = render_empty(&scene).map_err(synth)?;
    let board_spec = BoardSpec::default();
    let cal = charuco::calibrate(&board_spec, &board, &[]).map_err(calib)?;
    let mut profile = setup::profile_from_board(&cal, &board_spec);
    let reading =
        setup::add_setup(&mut profile, &empty, DEFAULT_BEAD_COUNT, REFERENCE_FILE).map_err(calib)?;
    let mut out = Vec::with_capacity(frames);
    for layout in scene.layouts(frames).map_err(synth)? {
        let frame = scene.frame_from(layout, &faults(out.len())).map_err(synth)?;
        let name = frame_file(frame.index);
        let rendered = render_frame(&scene, &frame.layout, &frame.options).map_err(synth)?;
        let image = jpeg_round_trip(&rendered, frame.jpeg_quality).map_err(synth)?;
        out.push(SyntheticFrame {
            image,
            truth: frame_truth(&scene, &frame, &name).map_err(synth)?,
        });
    }
    Ok(SyntheticScene {
        scene,
        profile,
        reference: reading.reference.image,
        frames: out,
    })
}
