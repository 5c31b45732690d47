//! Raw camera buffers -> BGR `Mat`. The camera and the fake source share this one path, so every
//! fault the fake injects (bad or truncated JPEG, short buffers, zero-size frames) is caught here
//! exactly as it would be for a real camera.
//!
//! Layouts: `Yuyv` is packed 4:2:2 (Y0 U Y1 V, 2 bytes per pixel, even width); `Nv12` is a full
//! Y plane followed by an interleaved UV plane at half resolution (1.5 bytes per pixel, even width
//! and height); `Gray` 1 byte, `Rgb`/`Bgr` 3 bytes per pixel, rows packed without padding.
//! V4L2 hands over whole mmap buffers, which can be longer than the frame: bytes past the frame's
//! size are ignored, a buffer shorter than it is corrupt.

use super::CaptureError;
use opencv::core::{Mat, Vec2b, Vec3b};
use opencv::prelude::*;
use opencv::{imgcodecs, imgproc};

/// How pixels are laid out in a raw frame buffer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PixelFormat {
    /// Motion JPEG: each frame is one JPEG image.
    Mjpeg,
    /// Packed YUV 4:2:2.
    Yuyv,
    /// Planar Y + interleaved UV 4:2:0.
    Nv12,
    /// 8-bit grey.
    Gray,
    /// Packed 8-bit RGB.
    Rgb,
    /// Packed 8-bit BGR.
    Bgr,
}

impl PixelFormat {
    /// Bytes of an uncompressed frame of this size; `None` for MJPEG (variable) or an odd size
    /// the layout cannot hold.
    pub fn frame_bytes(self, width: u32, height: u32) -> Option<usize> {
        let pixels = width as usize * height as usize;
        match self {
            PixelFormat::Mjpeg => None,
            PixelFormat::Yuyv => width.is_multiple_of(2).then_some(pixels * 2),
            PixelFormat::Nv12 => {
                (width.is_multiple_of(2) && height.is_multiple_of(2)).then_some(pixels * 3 / 2)
            }
            PixelFormat::Gray => Some(pixels),
            PixelFormat::Rgb | PixelFormat::Bgr => Some(pixels * 3),
        }
    }
}

impl std::fmt::Display for PixelFormat {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            PixelFormat::Mjpeg => "MJPEG",
            PixelFormat::Yuyv => "YUYV",
            PixelFormat::Nv12 => "NV12",
            PixelFormat::Gray => "GRAY",
            PixelFormat::Rgb => "RGB",
            PixelFormat::Bgr => "BGR",
        })
    }
}

/// What a raw buffer is supposed to hold.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FrameLayout {
    pub pixel: PixelFormat,
    pub width: u32,
    pub height: u32,
}

/// JPEG start-of-image marker.
const JPEG_SOI: [u8; 2] = [0xFF, 0xD8];
/// JPEG end-of-image marker byte (after 0xFF).
const JPEG_EOI: u8 = 0xD9;
/// JPEG start-of-scan marker byte (after 0xFF).
const JPEG_SOS: u8 = 0xDA;

/// Is this marker byte a start-of-frame (SOF0..SOF15, less DHT 0xC4, JPG 0xC8 and DAC 0xCC)?
fn is_jpeg_sof(marker: u8) -> bool {
    (0xC0..=0xCF).contains(&marker) && !matches!(marker, 0xC4 | 0xC8 | 0xCC)
}

/// The image size a JPEG's frame header (SOF) announces.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct JpegHeader {
    width: u32,
    height: u32,
}

/// Decodes one raw frame into a fresh BGR 8UC3 `Mat` of exactly `layout`'s size.
///
/// Every failure is [`CaptureError::Corrupt`] with a reason a person can read: zero-size buffer,
/// buffer shorter than the layout, JPEG without its start or end marker (truncated), JPEG the
/// decoder rejects, or a decoded image of another size than the layout.
pub fn decode_frame(bytes: &[u8], layout: FrameLayout) -> Result<Mat, CaptureError> {
    let FrameLayout { pixel, width, height } = layout;
    if bytes.is_empty() {
        return Err(CaptureError::Corrupt("empty frame (0 bytes)".into()));
    }
    if width == 0 || height == 0 {
        return Err(CaptureError::Corrupt(format!(
            "frame size {width}x{height} has no pixels"
        )));
    }
    let rows = i32::try_from(height)
        .map_err(|_| CaptureError::Corrupt(format!("frame height {height} is too large")))?;
    let cols = i32::try_from(width)
        .map_err(|_| CaptureError::Corrupt(format!("frame width {width} is too large")))?;
    let corrupt = |e: opencv::Error| CaptureError::Corrupt(format!("{pixel} decode failed: {e}"));

    let image = if pixel == PixelFormat::Mjpeg {
        let header = check_jpeg_complete(bytes)?;
        // The decoder allocates what the header says before it reads a pixel: a hostile or
        // corrupt frame claiming 30000x30000 must be refused here, not after gigabytes.
        if (header.width, header.height) != (width, height) {
            return Err(CaptureError::Corrupt(format!(
                "{pixel} frame is {}x{}, expected {width}x{height}",
                header.width, header.height
            )));
        }
        let buf = Mat::from_slice(bytes).map_err(corrupt)?;
        let img = imgcodecs::imdecode(&buf, imgcodecs::IMREAD_COLOR).map_err(corrupt)?;
        if img.empty() {
            return Err(CaptureError::Corrupt(
                "MJPEG frame rejected by the JPEG decoder".into(),
            ));
        }
        img
    } else {
        let needed = pixel
            .frame_bytes(width, height)
            .ok_or_else(|| CaptureError::Corrupt(format!("{pixel} cannot hold a {width}x{height} frame")))?;
        if bytes.len() < needed {
            return Err(CaptureError::Corrupt(format!(
                "truncated {pixel} frame: {} bytes, a {width}x{height} frame needs {needed}",
                bytes.len()
            )));
        }
        let data = &bytes[..needed];
        let mut out = Mat::default();
        match pixel {
            PixelFormat::Yuyv => {
                let src = Mat::new_rows_cols_with_bytes::<Vec2b>(rows, cols, data).map_err(corrupt)?;
                imgproc::cvt_color(&src, &mut out, imgproc::COLOR_YUV2BGR_YUYV, 0).map_err(corrupt)?;
            }
            PixelFormat::Nv12 => {
                let src = Mat::new_rows_cols_with_bytes::<u8>(rows * 3 / 2, cols, data).map_err(corrupt)?;
                imgproc::cvt_color(&src, &mut out, imgproc::COLOR_YUV2BGR_NV12, 0).map_err(corrupt)?;
            }
            PixelFormat::Gray => {
                let src = Mat::new_rows_cols_with_bytes::<u8>(rows, cols, data).map_err(corrupt)?;
                imgproc::cvt_color(&src, &mut out, imgproc::COLOR_GRAY2BGR, 0).map_err(corrupt)?;
            }
            PixelFormat::Rgb => {
                let src = Mat::new_rows_cols_with_bytes::<Vec3b>(rows, cols, data).map_err(corrupt)?;
                imgproc::cvt_color(&src, &mut out, imgproc::COLOR_RGB2BGR, 0).map_err(corrupt)?;
            }
            PixelFormat::Bgr => {
                let src = Mat::new_rows_cols_with_bytes::<Vec3b>(rows, cols, data).map_err(corrupt)?;
                out = src.try_clone().map_err(corrupt)?;
            }
            PixelFormat::Mjpeg => {}
        }
        out
    };
    if image.cols() != cols || image.rows() != rows {
        return Err(CaptureError::Corrupt(format!(
            "{pixel} frame decoded to {}x{}, expected {width}x{height}",
            image.cols(),
            image.rows()
        )));
    }
    Ok(image)
}

/// Checks that a JPEG starts with SOI, has a frame header before its first scan, and that its
/// entropy-coded data is followed by EOI; returns the size the frame header announces.
///
/// A truncated JPEG still "decodes" in libjpeg (the missing rows come out grey, with only a
/// warning), so truncation has to be caught before decoding. Marker segments are walked by their
/// lengths up to the start of scan; in the scan data a 0xFF byte is always followed by 0x00 or a
/// restart marker, so the first 0xFF 0xD9 after it is the true end of the image. Bytes after EOI
/// (V4L2 buffer padding) are ignored.
fn check_jpeg_complete(bytes: &[u8]) -> Result<JpegHeader, CaptureError> {
    if bytes.len() < 4 || bytes[..2] != JPEG_SOI {
        return Err(CaptureError::Corrupt(
            "not a JPEG frame (no start-of-image marker)".into(),
        ));
    }
    let truncated = || CaptureError::Corrupt("truncated JPEG frame (no end-of-image marker)".into());
    let mut i = 2;
    let mut header = None;
    // Marker segments before the scan: 0xFF, marker, 2-byte big-endian length (including itself).
    loop {
        while i < bytes.len() && bytes[i] == 0xFF && bytes.get(i + 1) == Some(&0xFF) {
            i += 1; // fill bytes
        }
        if i + 4 > bytes.len() {
            return Err(truncated());
        }
        if bytes[i] != 0xFF {
            return Err(CaptureError::Corrupt(format!(
                "malformed JPEG frame (expected a marker at byte {i})"
            )));
        }
        let marker = bytes[i + 1];
        if marker == JPEG_EOI {
            return Err(CaptureError::Corrupt("JPEG frame has no image data".into()));
        }
        let len = usize::from(u16::from_be_bytes([bytes[i + 2], bytes[i + 3]]));
        if len < 2 {
            return Err(CaptureError::Corrupt(format!(
                "malformed JPEG frame (segment length {len} at byte {i})"
            )));
        }
        // SOF: length, precision (1 byte), height, width (2 bytes each, big-endian).
        if is_jpeg_sof(marker) && header.is_none() && len >= 7 && i + 9 <= bytes.len() {
            header = Some(JpegHeader {
                height: u32::from(u16::from_be_bytes([bytes[i + 5], bytes[i + 6]])),
                width: u32::from(u16::from_be_bytes([bytes[i + 7], bytes[i + 8]])),
            });
        }
        i += 2 + len;
        if marker == JPEG_SOS {
            break;
        }
    }
    let header = header.ok_or_else(|| {
        CaptureError::Corrupt("malformed JPEG frame (no frame header before the image data)".into())
    })?;
    // Entropy-coded data (possibly several scans for progressive JPEGs): find EOI.
    while i + 1 < bytes.len() {
        if bytes[i] == 0xFF && bytes[i + 1] == JPEG_EOI {
            return Ok(header);
        }
        i += 1;
    }
    Err(truncated())
}

#[cfg(test)]
mod tests {
    use super::*;
    use opencv::core::{Scalar, Vector};

    /// A test card: four coloured quadrants, so channel order and orientation are both checked.
    fn test_card(width: i32, height: i32) -> Mat {
        let mut m =
            Mat::new_rows_cols_with_default(height, width, opencv::core::CV_8UC3, Scalar::all(0.0)).unwrap();
        for y in 0..height {
            for x in 0..width {
                let px = m.at_2d_mut::<Vec3b>(y, x).unwrap();
                *px = match (x < width / 2, y < height / 2) {
                    (true, true) => Vec3b::from([255, 0, 0]),  // blue top-left
                    (false, true) => Vec3b::from([0, 255, 0]), // green top-right
                    (true, false) => Vec3b::from([0, 0, 255]), // red bottom-left
                    (false, false) => Vec3b::from([200, 200, 200]),
                };
            }
        }
        m
    }

    fn jpeg(img: &Mat) -> Vec<u8> {
        let mut buf = Vector::<u8>::new();
        imgcodecs::imencode(
            ".jpg",
            img,
            &mut buf,
            &Vector::from_slice(&[imgcodecs::IMWRITE_JPEG_QUALITY, 95]),
        )
        .unwrap();
        buf.to_vec()
    }

    /// BGR -> YUYV by hand (BT.601 limited range, what OpenCV's YUV2BGR_YUYV inverts).
    fn yuyv(img: &Mat) -> Vec<u8> {
        let mut out = Vec::new();
        for y in 0..img.rows() {
            for x in (0..img.cols()).step_by(2) {
                let mut yuv = [[0f64; 3]; 2];
                for (k, px) in [x, x + 1].iter().enumerate() {
                    let p = img.at_2d::<Vec3b>(y, *px).unwrap();
                    let (b, g, r) = (f64::from(p[0]), f64::from(p[1]), f64::from(p[2]));
                    yuv[k][0] = 16.0 + 0.257 * r + 0.504 * g + 0.098 * b;
                    yuv[k][1] = 128.0 - 0.148 * r - 0.291 * g + 0.439 * b;
                    yuv[k][2] = 128.0 + 0.439 * r - 0.368 * g - 0.071 * b;
                }
                let u = (yuv[0][1] + yuv[1][1]) / 2.0;
                let v = (yuv[0][2] + yuv[1][2]) / 2.0;
                out.extend([yuv[0][0], u, yuv[1][0], v].map(|c| c.round().clamp(0.0, 255.0) as u8));
            }
        }
        out
    }

    fn assert_close(a: &Mat, b: &Mat, tol: i32) {
        assert_eq!((a.cols(), a.rows()), (b.cols(), b.rows()));
        assert_eq!(a.typ(), opencv::core::CV_8UC3);
        let mut worst = 0;
        for y in 0..a.rows() {
            for x in 0..a.cols() {
                let (p, q) = (a.at_2d::<Vec3b>(y, x).unwrap(), b.at_2d::<Vec3b>(y, x).unwrap());
                for c in 0..3 {
                    worst = worst.max((i32::from(p[c]) - i32::from(q[c])).abs());
                }
            }
        }
        assert!(worst <= tol, "largest channel difference {worst} > {tol}");
    }

    const W: u32 = 64;
    const H: u32 = 48;

    fn layout(pixel: PixelFormat) -> FrameLayout {
        FrameLayout {
            pixel,
            width: W,
            height: H,
        }
    }

    /// Mean absolute difference per channel, robust to JPEG ringing at the quadrant edges.
    fn mean_diff(a: &Mat, b: &Mat) -> f64 {
        let mut sum = 0.0;
        for y in 0..a.rows() {
            for x in 0..a.cols() {
                let (p, q) = (a.at_2d::<Vec3b>(y, x).unwrap(), b.at_2d::<Vec3b>(y, x).unwrap());
                for c in 0..3 {
                    sum += (f64::from(p[c]) - f64::from(q[c])).abs();
                }
            }
        }
        sum / f64::from(a.rows() * a.cols() * 3)
    }

    #[test]
    fn mjpeg_decodes_to_bgr_with_channel_order_kept() {
        let card = test_card(W as i32, H as i32);
        let img = decode_frame(&jpeg(&card), layout(PixelFormat::Mjpeg)).unwrap();
        assert_eq!(img.typ(), opencv::core::CV_8UC3);
        assert!(mean_diff(&img, &card) < 4.0);
        // Quadrant centres keep their colour: blue top-left, red bottom-left.
        let tl = img.at_2d::<Vec3b>(H as i32 / 4, W as i32 / 4).unwrap();
        assert!(tl[0] > 200 && tl[2] < 50, "{tl:?}");
        let bl = img.at_2d::<Vec3b>(3 * H as i32 / 4, W as i32 / 4).unwrap();
        assert!(bl[2] > 200 && bl[0] < 50, "{bl:?}");
    }

    #[test]
    fn mjpeg_with_buffer_padding_after_eoi_decodes() {
        let mut bytes = jpeg(&test_card(W as i32, H as i32));
        bytes.extend(std::iter::repeat_n(0u8, 4096));
        assert!(decode_frame(&bytes, layout(PixelFormat::Mjpeg)).is_ok());
    }

    #[test]
    fn yuyv_decodes_to_bgr() {
        let card = test_card(W as i32, H as i32);
        let bytes = yuyv(&card);
        assert_eq!(bytes.len(), (W * H * 2) as usize);
        let img = decode_frame(&bytes, layout(PixelFormat::Yuyv)).unwrap();
        // Chroma is shared by pixel pairs; quadrant edges are on even columns, so the error is
        // only the rounding of the YUV conversion.
        assert_close(&img, &card, 4);
    }

    #[test]
    fn raw_rgb_bgr_gray_and_nv12_decode() {
        let card = test_card(W as i32, H as i32);
        let bgr: Vec<u8> = card.data_bytes().unwrap().to_vec();
        assert_close(&decode_frame(&bgr, layout(PixelFormat::Bgr)).unwrap(), &card, 0);
        let rgb: Vec<u8> = bgr.chunks(3).flat_map(|p| [p[2], p[1], p[0]]).collect();
        assert_close(&decode_frame(&rgb, layout(PixelFormat::Rgb)).unwrap(), &card, 0);
        let gray = vec![77u8; (W * H) as usize];
        let g = decode_frame(&gray, layout(PixelFormat::Gray)).unwrap();
        assert_eq!(*g.at_2d::<Vec3b>(5, 5).unwrap(), Vec3b::from([77, 77, 77]));
        // NV12 of a flat mid-grey: Y = 128, U = V = 128.
        let nv12 = vec![128u8; (W * H * 3 / 2) as usize];
        let n = decode_frame(&nv12, layout(PixelFormat::Nv12)).unwrap();
        let p = n.at_2d::<Vec3b>(10, 10).unwrap();
        assert!(p.iter().all(|c| (125..=135).contains(c)), "{p:?}");
    }

    #[test]
    fn zero_size_and_truncated_frames_are_corrupt() {
        let card = test_card(W as i32, H as i32);
        let full = jpeg(&card);
        for pixel in [PixelFormat::Mjpeg, PixelFormat::Yuyv, PixelFormat::Gray] {
            let e = decode_frame(&[], layout(pixel)).unwrap_err();
            assert!(
                matches!(&e, CaptureError::Corrupt(r) if r.contains("0 bytes")),
                "{e}"
            );
        }
        // A JPEG cut anywhere after its headers is reported as truncated, never decoded.
        for cut in [full.len() / 3, full.len() / 2, full.len() - 2, full.len() - 1] {
            let e = decode_frame(&full[..cut], layout(PixelFormat::Mjpeg)).unwrap_err();
            assert!(
                matches!(&e, CaptureError::Corrupt(r) if r.contains("truncated")),
                "cut {cut}: {e}"
            );
        }
        let short = yuyv(&card);
        let e = decode_frame(&short[..short.len() - 1], layout(PixelFormat::Yuyv)).unwrap_err();
        assert!(
            matches!(&e, CaptureError::Corrupt(r) if r.contains("truncated YUYV")),
            "{e}"
        );
        let e = decode_frame(
            &short,
            FrameLayout {
                pixel: PixelFormat::Yuyv,
                width: 0,
                height: H,
            },
        )
        .unwrap_err();
        assert!(matches!(e, CaptureError::Corrupt(_)));
    }

    #[test]
    fn garbage_and_wrong_size_jpegs_are_corrupt() {
        let e = decode_frame(b"this is not a jpeg at all", layout(PixelFormat::Mjpeg)).unwrap_err();
        assert!(
            matches!(&e, CaptureError::Corrupt(r) if r.contains("not a JPEG")),
            "{e}"
        );
        // Valid markers around garbage scan data: the decoder rejects it or it decodes; either
        // way the call returns, and a header-only JPEG is rejected.
        let full = jpeg(&test_card(W as i32, H as i32));
        let mut scrambled = full.clone();
        let mid = scrambled.len() / 2;
        for b in &mut scrambled[mid - 40..mid] {
            *b = 0xFF;
        }
        let _ = decode_frame(&scrambled, layout(PixelFormat::Mjpeg));
        // The right JPEG at the wrong size (a camera that changed mode without telling).
        let other = jpeg(&test_card(32, 24));
        let e = decode_frame(&other, layout(PixelFormat::Mjpeg)).unwrap_err();
        assert!(
            matches!(&e, CaptureError::Corrupt(r) if r.contains("expected 64x48")),
            "{e}"
        );
        // A header claiming a huge frame is refused before the decoder allocates for it.
        let mut bomb = jpeg(&test_card(W as i32, H as i32));
        let sof = (2..bomb.len() - 1)
            .find(|&i| bomb[i] == 0xFF && is_jpeg_sof(bomb[i + 1]))
            .unwrap();
        bomb[sof + 5..sof + 9].copy_from_slice(&[0x75, 0x30, 0x75, 0x30]);
        let e = decode_frame(&bomb, layout(PixelFormat::Mjpeg)).unwrap_err();
        assert!(
            matches!(&e, CaptureError::Corrupt(r) if r.contains("30000x30000")),
            "{e}"
        );
        let e = decode_frame(&[0xFF, 0xD8, 0xFF, 0xD9], layout(PixelFormat::Mjpeg)).unwrap_err();
        assert!(matches!(e, CaptureError::Corrupt(_)));
    }

    #[test]
    fn odd_widths_cannot_be_yuyv() {
        assert_eq!(PixelFormat::Yuyv.frame_bytes(3, 2), None);
        assert_eq!(PixelFormat::Nv12.frame_bytes(4, 3), None);
        assert_eq!(PixelFormat::Yuyv.frame_bytes(4, 2), Some(16));
        assert_eq!(PixelFormat::Mjpeg.frame_bytes(4, 2), None);
        let e = decode_frame(
            &[0u8; 64],
            FrameLayout {
                pixel: PixelFormat::Yuyv,
                width: 3,
                height: 2,
            },
        )
        .unwrap_err();
        assert!(matches!(e, CaptureError::Corrupt(_)));
    }
}
