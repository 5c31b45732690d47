//! Writing a scene to a directory: `board.png`, `empty.png`, `frame_000.jpg`..., `truth.json`.
//!
//! Every file is written atomically (`fsutil::write_atomic`): a crash leaves old files or new
//! ones, never a half-written image.

use super::SynthError;
use super::faults::Faults;
use super::frame::Frame;
use super::render::{render_board, render_empty, render_frame};
use super::scene::Scene;
use super::sensor::{encode_jpeg, encode_png};
use super::truth::{Truth, truth};
use crate::fsutil::{write_atomic, write_json_atomic};
use std::path::{Path, PathBuf};

/// File names inside a scene directory.
pub const BOARD_FILE: &str = "board.png";
pub const EMPTY_FILE: &str = "empty.png";
pub const TRUTH_FILE: &str = "truth.json";

/// The name of game frame `index`.
pub fn frame_file(index: usize) -> String {
    format!("frame_{index:03}.jpg")
}

/// What [`write_scene`] wrote.
#[derive(Debug, Clone)]
pub struct SceneFiles {
    pub board: PathBuf,
    pub empty: PathBuf,
    pub frames: Vec<PathBuf>,
    pub truth: PathBuf,
    /// The truth that was written.
    pub truth_doc: Truth,
}

/// Renders the board capture, the empty set-up and `frames` fault-free game frames into `dir`
/// (created if missing), with their `truth.json`.
pub fn write_scene(scene: &Scene, dir: &Path, frames: usize) -> Result<SceneFiles, SynthError> {
    write_scene_with(scene, dir, frames, |_| Faults::none())
}

/// As [`write_scene`], with `faults(i)` injected into game frame `i`.
pub fn write_scene_with(
    scene: &Scene,
    dir: &Path,
    frames: usize,
    faults: impl Fn(usize) -> Faults,
) -> Result<SceneFiles, SynthError> {
    std::fs::create_dir_all(dir).map_err(|e| crate::fsutil::FileError::io(dir, &e))?;
    let board = dir.join(BOARD_FILE);
    write_atomic(&board, &encode_png(&render_board(scene)?)?)?;
    let empty = dir.join(EMPTY_FILE);
    write_atomic(&empty, &encode_png(&render_empty(scene)?)?)?;
    let mut written: Vec<(Frame, String)> = Vec::with_capacity(frames);
    let mut paths = Vec::with_capacity(frames);
    for layout in scene.layouts(frames)? {
        let frame = scene.frame_from(layout, &faults(written.len()))?;
        let name = frame_file(frame.index);
        let img = render_frame(scene, &frame.layout, &frame.options)?;
        let path = dir.join(&name);
        write_atomic(&path, &encode_jpeg(&img, frame.jpeg_quality)?)?;
        paths.push(path);
        written.push((frame, name));
    }
    let doc = truth(scene, BOARD_FILE, EMPTY_FILE, &written)?;
    let truth_path = dir.join(TRUTH_FILE);
    write_json_atomic(&truth_path, &doc)?;
    Ok(SceneFiles {
        board,
        empty,
        frames: paths,
        truth: truth_path,
        truth_doc: doc,
    })
}
