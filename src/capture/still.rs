//! Still images from files: the one loader for picture files (image folders played as the camera,
//! and the `--board`, `--ocean` and frame images of `calibrate`, `analyze` and `teach`).
//!
//! A hostile file is refused before OpenCV allocates anything for it:
//! - the path must be a regular file of at most [`fsutil::MAX_INPUT_BYTES`] (not a directory,
//!   not `/dev/zero`), read through [`fsutil::read_input`];
//! - its header must say its size: PNG, JPEG, BMP, TIFF, WebP, or PPM/PGM/PBM;
//! - that size must be at most [`MAX_IMAGE_SIDE`] pixels a side and [`MAX_IMAGE_PIXELS`] in all, so
//!   a few-kilobyte "decompression bomb" claiming 30000 x 30000 pixels never reaches the decoder;
//! - the decoded image must have the size the header announced (or its transpose, when the
//!   decoder applied an EXIF rotation).
//!
//! Images come out as OpenCV `Mat`s, BGR, 8 bits per channel (`CV_8UC3`), never empty.

use super::CaptureError;
use crate::fsutil;
use opencv::core::{Mat, Vector};
use opencv::imgcodecs;
use opencv::prelude::*;
use std::path::Path;

/// Most pixels an image file may have: 64 megapixels (a 192 MB BGR image), above any phone or
/// webcam picture of the table.
pub const MAX_IMAGE_PIXELS: u64 = 64_000_000;

/// Longest side an image file may have, in pixels.
pub const MAX_IMAGE_SIDE: u64 = 20_000;

/// The formats [`image_size`] understands, for messages.
pub const READABLE_FORMATS: &str = "PNG, JPEG, BMP, TIFF, WebP or PPM/PGM/PBM";

/// An image's size in pixels, as its header gives it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ImageSize {
    pub width: u64,
    pub height: u64,
}

/// Reads an image's size from its header, without decoding it. The message says what is wrong:
/// an unknown or truncated header, no pixels, or a size over the limits.
pub fn image_size(bytes: &[u8]) -> Result<ImageSize, String> {
    if bytes.is_empty() {
        return Err(format!("the file is empty; expected a {READABLE_FORMATS} image"));
    }
    let size = imagesize::blob_size(bytes)
        .map_err(|e| format!("not a {READABLE_FORMATS} image whose size can be read ({e})"))?;
    let size = ImageSize {
        width: size.width as u64,
        height: size.height as u64,
    };
    let ImageSize { width, height } = size;
    if width == 0 || height == 0 {
        return Err(format!("the image is {width}x{height} pixels: it has no pixels"));
    }
    if width > MAX_IMAGE_SIDE || height > MAX_IMAGE_SIDE || width.saturating_mul(height) > MAX_IMAGE_PIXELS {
        return Err(format!(
            "the image is {width}x{height} pixels; at most {MAX_IMAGE_SIDE} a side and {} megapixels are accepted",
            MAX_IMAGE_PIXELS / 1_000_000
        ));
    }
    Ok(size)
}

/// Decodes an image file's bytes to BGR; `path` names the file in errors, which are all
/// [`CaptureError::Invalid`].
pub fn decode_image(bytes: &[u8], path: &Path) -> Result<Mat, CaptureError> {
    let invalid = |message: String| CaptureError::Invalid {
        path: path.to_path_buf(),
        message,
    };
    let size = image_size(bytes).map_err(invalid)?;
    let buf = Vector::<u8>::from_slice(bytes);
    let img = imgcodecs::imdecode(&buf, imgcodecs::IMREAD_COLOR).map_err(|e| {
        invalid(format!(
            "cannot decode the image ({e}); expected a {READABLE_FORMATS} image"
        ))
    })?;
    if img.empty() {
        return Err(invalid(format!(
            "the decoder rejected the image; expected a {READABLE_FORMATS} image"
        )));
    }
    let (w, h) = (img.cols().max(0) as u64, img.rows().max(0) as u64);
    let as_announced = (w, h) == (size.width, size.height) || (w, h) == (size.height, size.width);
    if !as_announced {
        return Err(invalid(format!(
            "the header says {}x{} pixels but the image decoded to {w}x{h}",
            size.width, size.height
        )));
    }
    if img.typ() != opencv::core::CV_8UC3 {
        return Err(invalid(format!(
            "the image decoded to OpenCV type {}, expected 8-bit BGR",
            img.typ()
        )));
    }
    Ok(img)
}

/// Reads and decodes an image file (see the module doc for what is refused).
pub fn load_image(path: &Path) -> Result<Mat, CaptureError> {
    let bytes = fsutil::read_input(path).map_err(|e| match e {
        fsutil::FileError::Io { path, message } | fsutil::FileError::Invalid { path, message, .. } => {
            CaptureError::Invalid { path, message }
        }
    })?;
    decode_image(&bytes, path)
}

#[cfg(test)]
mod tests {
    use super::*;
    use opencv::core::{Scalar, Vector};

    fn encode(ext: &str, width: i32, height: i32) -> Vec<u8> {
        let img =
            Mat::new_rows_cols_with_default(height, width, opencv::core::CV_8UC3, Scalar::all(90.0)).unwrap();
        let mut buf = Vector::<u8>::new();
        imgcodecs::imencode(ext, &img, &mut buf, &Vector::new()).unwrap();
        buf.to_vec()
    }

    /// A PNG signature and IHDR claiming `width` x `height`, then nothing: a decompression bomb's
    /// header (its CRC is not even right).
    fn png_header(width: u32, height: u32) -> Vec<u8> {
        let mut b = vec![0x89, b'P', b'N', b'G', 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13];
        b.extend(b"IHDR");
        b.extend(width.to_be_bytes());
        b.extend(height.to_be_bytes());
        b.extend([8, 2, 0, 0, 0, 0, 0, 0, 0]);
        b
    }

    #[test]
    fn every_folder_format_decodes_to_bgr() {
        for ext in [".png", ".jpg", ".bmp", ".tiff", ".webp", ".ppm"] {
            let bytes = encode(ext, 40, 30);
            assert_eq!(
                image_size(&bytes).unwrap(),
                ImageSize {
                    width: 40,
                    height: 30
                },
                "{ext}"
            );
            let img = decode_image(&bytes, Path::new("x")).unwrap();
            assert_eq!(
                (img.cols(), img.rows(), img.typ()),
                (40, 30, opencv::core::CV_8UC3),
                "{ext}"
            );
        }
    }

    #[test]
    fn a_bomb_header_is_refused_before_decoding() {
        let e = decode_image(&png_header(30_000, 30_000), Path::new("bomb.png")).unwrap_err();
        let text = e.to_string();
        assert!(
            text.contains("bomb.png") && text.contains("30000x30000"),
            "{text}"
        );
        // Under the side limit but over the pixel limit.
        let e = image_size(&png_header(19_000, 19_000)).unwrap_err();
        assert!(e.contains("megapixels"), "{e}");
        let e = image_size(&png_header(0, 10)).unwrap_err();
        assert!(e.contains("no pixels"), "{e}");
    }

    #[test]
    fn garbage_empty_and_truncated_files_are_invalid() {
        for bytes in [&b""[..], b"hello, not an image", &png_header(64, 64)] {
            let e = decode_image(bytes, Path::new("f.png")).unwrap_err();
            assert!(
                matches!(&e, CaptureError::Invalid { path, .. } if path == Path::new("f.png")),
                "{e}"
            );
        }
        let full = encode(".png", 64, 64);
        let e = decode_image(&full[..full.len() / 2], Path::new("half.png")).unwrap_err();
        assert!(matches!(e, CaptureError::Invalid { .. }), "{e}");
    }

    #[test]
    fn directories_and_devices_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        for p in [dir.path(), Path::new("/dev/zero"), Path::new("/dev/null")] {
            let e = load_image(p).unwrap_err();
            assert!(e.to_string().contains("not a regular file"), "{p:?}: {e}");
        }
        let e = load_image(&dir.path().join("gone.png")).unwrap_err();
        assert!(e.to_string().contains("gone.png"), "{e}");
    }
}
