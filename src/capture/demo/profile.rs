//! The demo's calibration profile (`calibration/demo.json` and its empty-table reference image),
//! made by the real calibration pipeline from the demo scene's board and empty-table renders: a
//! ChArUco board capture -> [`setup::profile_from_board`], then the set-up capture ->
//! [`setup::add_setup`] (ocean, Octo-Counter, reference).
//!
//! The shipped files are regenerated with
//! `cargo test --test demo -- --ignored regenerate_demo_profile`, and `tests/demo.rs` checks
//! that they still match what the pipeline makes of the scene, so they never go stale. The
//! profile's `created` time is fixed ([`DEMO_PROFILE_CREATED`]): regenerating it from the same
//! code gives the same bytes.

use super::DemoError;
use crate::calibrate::board::BoardSpec;
use crate::calibrate::profile::{DEMO_PROFILE, Profile};
use crate::calibrate::{charuco, setup};
use crate::synth::{Scene, encode_png, render_board, render_empty};
use std::path::{Path, PathBuf};

/// The reference image's file name, next to the profile.
pub const DEMO_REFERENCE_FILE: &str = "demo_reference.png";
/// The shipped profile's `created` field.
pub const DEMO_PROFILE_CREATED: &str = "1970-01-01T00:00:00Z";
/// The shipped profile and its reference image, compiled in so the demo works from any directory.
pub const DEMO_PROFILE_JSON: &str = include_str!("../../../calibration/demo.json");
pub const DEMO_REFERENCE_PNG: &[u8] = include_bytes!("../../../calibration/demo_reference.png");

/// A calibration of the demo scene.
#[derive(Debug, Clone)]
pub struct DemoCalibration {
    /// Its reference image is named [`DEMO_REFERENCE_FILE`].
    pub profile: Profile,
    /// The rectified empty table, PNG.
    pub reference_png: Vec<u8>,
}

/// Calibrates the demo scene as a user would: from a render of the board lying in the ocean and
/// a render of the empty set-up table. Fails where the real pipeline would (no board, no string).
pub fn calibrate_demo_scene(scene: &Scene) -> Result<DemoCalibration, DemoError> {
    let spec = BoardSpec::default();
    let board = render_board(scene)?;
    let cal = charuco::calibrate(&spec, &board, &[])?;
    let mut profile = setup::profile_from_board(&cal, &spec);
    profile.created = DEMO_PROFILE_CREATED.to_string();
    profile.source.board_image = Some(format!("the demo scene's board (seed {})", scene.spec.seed));
    let empty = render_empty(scene)?;
    let reading = setup::add_setup(&mut profile, &empty, scene.beads.len(), DEMO_REFERENCE_FILE)?;
    if let Err(e) = &reading.counter {
        return Err(DemoError::Invalid {
            origin: "the demo calibration".into(),
            field: "counter".into(),
            message: format!("the Octo-Counter was not read from the empty table: {e}"),
        });
    }
    profile.source.ocean_image = Some(format!("the demo scene's empty table (seed {})", scene.spec.seed));
    let reference_png = encode_png(&reading.reference.image)?;
    Ok(DemoCalibration {
        profile,
        reference_png,
    })
}

/// The shipped demo profile, parsed from the compiled-in copy. Its reference image is
/// [`DEMO_REFERENCE_PNG`].
pub fn shipped_demo_profile() -> Result<Profile, DemoError> {
    Ok(crate::fsutil::parse_json(
        DEMO_PROFILE_JSON.as_bytes(),
        Path::new(DEMO_PROFILE),
    )?)
}

/// Writes the demo scene's profile and reference image into `dir` (the reference first, so the
/// profile never points at a missing image; both atomically). Returns the profile's path.
pub fn write_demo_profile(calibration: &DemoCalibration, dir: &Path) -> Result<PathBuf, DemoError> {
    let profile_path = dir.join(
        Path::new(DEMO_PROFILE)
            .file_name()
            .unwrap_or_else(|| std::ffi::OsStr::new("demo.json")),
    );
    crate::fsutil::write_atomic(&dir.join(DEMO_REFERENCE_FILE), &calibration.reference_png)?;
    calibration.profile.save(&profile_path)?;
    Ok(profile_path)
}
