//! Camera frame decoding (`capture::decode_frame`): the first byte picks the pixel format, the
//! next four the frame size (16 bits each), the rest is the buffer.
#![no_main]
use libfuzzer_sys::fuzz_target;
use octoref::capture::{FrameLayout, PixelFormat, decode_frame};
use opencv::prelude::*;

const FORMATS: [PixelFormat; 6] = [
    PixelFormat::Mjpeg,
    PixelFormat::Yuyv,
    PixelFormat::Nv12,
    PixelFormat::Gray,
    PixelFormat::Rgb,
    PixelFormat::Bgr,
];

fuzz_target!(|data: &[u8]| {
    let Some((head, bytes)) = data.split_first_chunk::<5>() else {
        return;
    };
    let layout = FrameLayout {
        pixel: FORMATS[usize::from(head[0]) % FORMATS.len()],
        width: u32::from(u16::from_le_bytes([head[1], head[2]])),
        height: u32::from(u16::from_le_bytes([head[3], head[4]])),
    };
    if let Ok(img) = decode_frame(bytes, layout) {
        assert_eq!(img.cols() as u32, layout.width);
        assert_eq!(img.rows() as u32, layout.height);
        assert_eq!(img.typ(), opencv::core::CV_8UC3);
    }
});
