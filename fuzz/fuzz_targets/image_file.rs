//! Image files (`capture::still::decode_image`, the loader behind image folders and the CLI's
//! images): any bytes as a PNG/JPEG/BMP/TIFF/WebP/PPM file.
#![no_main]
use libfuzzer_sys::fuzz_target;
use octoref::capture::still::{MAX_IMAGE_PIXELS, decode_image};
use opencv::prelude::*;
use std::path::Path;

fuzz_target!(|data: &[u8]| {
    if let Ok(img) = decode_image(data, Path::new("fuzz.png")) {
        assert!(!img.empty());
        assert!((img.cols() as u64) * (img.rows() as u64) <= MAX_IMAGE_PIXELS);
        assert_eq!(img.typ(), opencv::core::CV_8UC3);
    }
});
