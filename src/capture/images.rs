//! A folder of images played as the camera, in file-name order.

use super::pacing::Pacer;
use super::video::to_bgr;
use super::{CaptureError, Frame, FrameSource, SourceInfo, SourceKind, StopSignal};
use opencv::core::Mat;
use opencv::prelude::*;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

/// File extensions (lower case) taken as images; everything else in the folder is ignored.
pub const IMAGE_EXTENSIONS: [&str; 8] = ["png", "jpg", "jpeg", "bmp", "tif", "tiff", "webp", "ppm"];

/// Default pacing of an image folder: two pictures a second, slow enough to watch the rulings
/// change, fast enough for the referee's "two agreeing settled readings".
pub const DEFAULT_IMAGES_FPS: f64 = 2.0;

/// Which folder and how to play it.
#[derive(Debug, Clone, PartialEq)]
pub struct ImageFolderOptions {
    pub dir: PathBuf,
    /// Frames per second; `None` plays as fast as images can be read.
    pub fps: Option<f64>,
    /// Start again from the first image after the last instead of ending.
    pub looping: bool,
}

impl ImageFolderOptions {
    /// Plays `dir` once at [`DEFAULT_IMAGES_FPS`].
    pub fn new(dir: impl Into<PathBuf>) -> Self {
        ImageFolderOptions {
            dir: dir.into(),
            fps: Some(DEFAULT_IMAGES_FPS),
            looping: false,
        }
    }
}

/// The image files of `dir`, sorted by file name (byte order, as `ls` in the C locale: zero-pad
/// numbers, `frame_010.png` after `frame_009.png`). Hidden files are skipped.
pub fn list_images(dir: &Path) -> Result<Vec<PathBuf>, CaptureError> {
    let invalid = |message: String| CaptureError::Invalid {
        path: dir.to_path_buf(),
        message,
    };
    if !dir.is_dir() {
        return Err(invalid("not a folder (expected a folder of images)".into()));
    }
    let entries = std::fs::read_dir(dir).map_err(|e| invalid(e.to_string()))?;
    let mut files: Vec<PathBuf> = entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.is_file())
        .filter(|p| {
            let hidden = p
                .file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with('.'));
            let image = p.extension().is_some_and(|ext| {
                let ext = ext.to_string_lossy().to_ascii_lowercase();
                IMAGE_EXTENSIONS.contains(&ext.as_str())
            });
            image && !hidden
        })
        .collect();
    files.sort_by(|a, b| a.file_name().cmp(&b.file_name()));
    if files.is_empty() {
        return Err(invalid(format!(
            "no images in this folder (expected files ending in .{})",
            IMAGE_EXTENSIONS.join(", .")
        )));
    }
    Ok(files)
}

/// Plays the images of a folder. An image that cannot be read is a corrupt frame (skipped and
/// counted by the worker); the folder is listed once, at open.
pub struct ImageFolderSource {
    options: ImageFolderOptions,
    files: Vec<PathBuf>,
    next: usize,
    /// The first readable image, decoded at open to learn the size, delivered first.
    pending: Option<(usize, Mat)>,
    pacer: Pacer,
    seq: u64,
    connection: u32,
    good_this_pass: usize,
}

impl std::fmt::Debug for ImageFolderSource {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ImageFolderSource")
            .field("options", &self.options)
            .field("files", &self.files.len())
            .field("next", &self.next)
            .field("seq", &self.seq)
            .finish()
    }
}

/// One file through [`super::still::load_image`] (regular files only, size limits, no
/// decompression bombs); any failure is a corrupt frame named by the file.
fn read_image(path: &Path) -> Result<Mat, CaptureError> {
    let name = path.file_name().unwrap_or_default().to_string_lossy();
    let img = super::still::load_image(path).map_err(|e| match e {
        CaptureError::Invalid { message, .. } => CaptureError::Corrupt(format!("{name}: {message}")),
        other => CaptureError::Corrupt(format!("{name}: {other}")),
    })?;
    to_bgr(img)
}

fn file_label(path: &Path) -> Arc<str> {
    Arc::from(path.file_name().unwrap_or_default().to_string_lossy().as_ref())
}

impl ImageFolderSource {
    pub fn new(options: ImageFolderOptions) -> Self {
        ImageFolderSource {
            pacer: Pacer::new(options.fps),
            options,
            files: Vec::new(),
            next: 0,
            pending: None,
            seq: 0,
            connection: 0,
            good_this_pass: 0,
        }
    }

    /// The files found at open, in play order.
    pub fn files(&self) -> &[PathBuf] {
        &self.files
    }

    fn frame(&mut self, index: usize, image: Mat) -> Frame {
        let frame = Frame {
            image,
            seq: self.seq,
            connection: self.connection,
            captured_at: Instant::now(),
            source: SourceKind::Images,
            label: file_label(&self.files[index]),
        };
        self.seq += 1;
        self.good_this_pass += 1;
        frame
    }
}

impl FrameSource for ImageFolderSource {
    fn open(&mut self) -> Result<SourceInfo, CaptureError> {
        let files = list_images(&self.options.dir)?;
        let (index, first) = files
            .iter()
            .enumerate()
            .find_map(|(i, p)| read_image(p).ok().map(|img| (i, img)))
            .ok_or_else(|| CaptureError::Invalid {
                path: self.options.dir.clone(),
                message: format!("none of the {} image files can be read as an image", files.len()),
            })?;
        self.files = files;
        let info = SourceInfo {
            kind: SourceKind::Images,
            name: self.options.dir.display().to_string(),
            width: first.cols().max(0) as u32,
            height: first.rows().max(0) as u32,
            fps: self.options.fps.unwrap_or(0.0),
            pixel_format: None,
        };
        // Unreadable files before the first good one are skipped silently at open: they are
        // reported when they come round again in a loop.
        self.pending = Some((index, first));
        self.next = index + 1;
        self.pacer.reset();
        self.connection += 1;
        self.good_this_pass = 0;
        Ok(info)
    }

    fn next_frame(&mut self, stop: &StopSignal) -> Result<Frame, CaptureError> {
        self.pacer.wait(stop)?;
        if let Some((index, image)) = self.pending.take() {
            return Ok(self.frame(index, image));
        }
        if self.next >= self.files.len() {
            if !self.options.looping || self.good_this_pass == 0 || self.files.is_empty() {
                return Err(CaptureError::EndOfStream);
            }
            self.next = 0;
            self.good_this_pass = 0;
        }
        let index = self.next;
        self.next += 1;
        let image = read_image(&self.files[index])?;
        Ok(self.frame(index, image))
    }

    fn close(&mut self) {
        self.pending = None;
    }
}
