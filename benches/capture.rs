//! Cost of turning one raw camera buffer into a BGR frame at the size vision is tuned for
//! (1280x720): MJPEG (the mode `choose_format` prefers) and YUYV.

use criterion::{Criterion, criterion_group, criterion_main};
use octoref::capture::fake::encode_frame;
use octoref::capture::{FrameLayout, PixelFormat, decode_frame};
use opencv::core::{CV_8UC3, Mat, Scalar, Size};
use opencv::imgproc;
use std::hint::black_box;

const WIDTH: i32 = 1280;
const HEIGHT: i32 = 720;

/// A table-like picture: smooth shading, a few solid shapes with sharp edges and mild sensor
/// noise. Compresses like a camera frame (a flat colour would flatter the decoder, pure noise
/// would punish it).
fn textured() -> Mat {
    let mut img =
        Mat::new_rows_cols_with_default(HEIGHT, WIDTH, CV_8UC3, Scalar::new(90.0, 130.0, 170.0, 0.0))
            .unwrap_or_default();
    for i in 0..40 {
        let centre = opencv::core::Point::new((i * 97) % WIDTH, (i * 61) % HEIGHT);
        let colour = Scalar::new(
            f64::from((i * 53) % 255),
            f64::from((i * 29) % 255),
            f64::from((i * 71) % 255),
            0.0,
        );
        let _ = imgproc::circle(
            &mut img,
            centre,
            20 + (i % 5) * 8,
            colour,
            -1,
            imgproc::LINE_AA,
            0,
        );
    }
    let mut noise =
        Mat::new_rows_cols_with_default(HEIGHT, WIDTH, CV_8UC3, Scalar::all(0.0)).unwrap_or_default();
    let _ = opencv::core::randn(&mut noise, &Scalar::all(0.0), &Scalar::all(4.0));
    let mut noisy = Mat::default();
    let _ = opencv::core::add_def(&img, &noise, &mut noisy);
    noisy
}

fn decode(c: &mut Criterion) {
    let img = textured();
    // DESIGN.md's same-run reference pass (BGR->HSV + 5x5 Gaussian blur), to read the decode
    // figures against on a shared, noisy machine.
    c.bench_function("reference HSV+blur 1280x720", |b| {
        b.iter(|| {
            let mut hsv = Mat::default();
            let mut blurred = Mat::default();
            let _ = imgproc::cvt_color_def(black_box(&img), &mut hsv, imgproc::COLOR_BGR2HSV);
            let _ = imgproc::gaussian_blur_def(&hsv, &mut blurred, Size::new(5, 5), 0.0);
            black_box(blurred)
        })
    });
    if let Ok(jpeg) = encode_frame(&img, PixelFormat::Mjpeg) {
        // OpenCV's JPEG decoder alone, to show what our checks add.
        c.bench_function("imdecode alone 1280x720", |b| {
            b.iter(|| {
                let buf = Mat::from_slice(black_box(&jpeg))
                    .map(|m| opencv::imgcodecs::imdecode(&m, opencv::imgcodecs::IMREAD_COLOR));
                black_box(buf.is_ok())
            })
        });
    }
    for pixel in [PixelFormat::Mjpeg, PixelFormat::Yuyv] {
        let Ok(bytes) = encode_frame(&img, pixel) else {
            return;
        };
        let layout = FrameLayout {
            pixel,
            width: WIDTH as u32,
            height: HEIGHT as u32,
        };
        eprintln!("{pixel} frame: {} bytes", bytes.len());
        c.bench_function(&format!("decode {pixel} 1280x720"), |b| {
            b.iter(|| black_box(decode_frame(black_box(&bytes), layout)))
        });
    }
}

criterion_group!(benches, decode);
criterion_main!(benches);
