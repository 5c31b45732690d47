//! The camera's optics and sensor: vignetting, lens blur, radial distortion, noise, JPEG.
//!
//! Conventions: the renderer draws an undistorted canvas (`raster.rs`); when the lens has
//! distortion the canvas is larger than the frame and this module remaps it with OpenCV so that
//! a table point lands exactly where `Camera::project` (with distortion) says. Output images are
//! OpenCV `Mat`s, BGR, 8-bit, 3 channels.

use super::SynthError;
use super::light::{Rgb, SrgbLut};
use super::random::{FastRng, Purpose, int_in, stream, uniform};
use super::raster::{CanvasGeometry, Raster};
use crate::table::{Camera, PointPx};
use opencv::core::{self, Mat, Scalar, Size, Vector};
use opencv::prelude::*;
use opencv::{imgcodecs, imgproc};
use serde::{Deserialize, Serialize};

/// Read noise of the sensor, in 8-bit grey levels (one standard deviation).
pub const NOISE_SIGMA_RANGE: (f64, f64) = (1.0, 3.5);
/// Lens blur (Gaussian sigma), pixels.
pub const BLUR_SIGMA_RANGE_PX: (f64, f64) = (0.45, 0.85);
/// Brightness loss at the image corners.
pub const VIGNETTING_RANGE: (f64, f64) = (0.08, 0.35);
/// JPEG quality of game frames.
pub const JPEG_QUALITY_RANGE: (u8, u8) = (70, 95);
/// Exposure: linear scene value that maps to white.
const EXPOSURE: f32 = 1.0;
/// Border sampling step when sizing the canvas of a distorted lens, pixels.
const BORDER_STEP_PX: u32 = 8;
/// Extra canvas pixels around the remapped area (for bilinear interpolation and blur).
const CANVAS_PAD_PX: f64 = 4.0;
/// Spacing of the exactly computed nodes of the distortion maps, pixels.
const MAP_GRID_PX: usize = 4;

/// Optics and sensor of the scene's camera.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Sensor {
    pub noise_sigma: f64,
    pub blur_sigma_px: f64,
    pub vignetting: f64,
    /// Shot noise: extra variance per grey level (brighter pixels are noisier).
    pub shot_noise: f64,
}

impl Sensor {
    pub(crate) fn sample(seed: u64) -> Self {
        let mut rng = stream(seed, Purpose::Sensor, 0);
        Self {
            noise_sigma: uniform(&mut rng, NOISE_SIGMA_RANGE.0, NOISE_SIGMA_RANGE.1),
            blur_sigma_px: uniform(&mut rng, BLUR_SIGMA_RANGE_PX.0, BLUR_SIGMA_RANGE_PX.1),
            vignetting: uniform(&mut rng, VIGNETTING_RANGE.0, VIGNETTING_RANGE.1),
            shot_noise: uniform(&mut rng, 0.0, 0.04),
        }
    }

    /// The JPEG quality of game frame `frame` of scene `seed`.
    pub fn jpeg_quality(seed: u64, frame: u64) -> u8 {
        let mut rng = stream(seed, Purpose::Sensor, 1 + frame);
        int_in(
            &mut rng,
            JPEG_QUALITY_RANGE.0 as usize,
            JPEG_QUALITY_RANGE.1 as usize,
        ) as u8
    }
}

/// The canvas the renderer must draw so that remapping covers the whole distorted frame.
pub(crate) fn canvas_for(camera: &Camera) -> CanvasGeometry {
    let k = &camera.intrinsics;
    let (w, h) = (k.width as usize, k.height as usize);
    if !k.has_distortion() {
        return CanvasGeometry {
            width: w,
            height: h,
            offset_px: [0.0, 0.0],
        };
    }
    let (mut minx, mut maxx, mut miny, mut maxy) = (0.0f64, (w - 1) as f64, 0.0f64, (h - 1) as f64);
    let mut visit = |u: f64, v: f64| {
        let (xn, yn) = k.undistort_to_normalised(PointPx::new(u, v));
        let (x, y) = (k.fx * xn + k.cx, k.fy * yn + k.cy);
        minx = minx.min(x);
        maxx = maxx.max(x);
        miny = miny.min(y);
        maxy = maxy.max(y);
    };
    for u in (0..k.width).step_by(BORDER_STEP_PX as usize).chain([k.width - 1]) {
        visit(u as f64, 0.0);
        visit(u as f64, (h - 1) as f64);
    }
    for v in (0..k.height)
        .step_by(BORDER_STEP_PX as usize)
        .chain([k.height - 1])
    {
        visit(0.0, v as f64);
        visit((w - 1) as f64, v as f64);
    }
    let ox = (-minx + CANVAS_PAD_PX).ceil();
    let oy = (-miny + CANVAS_PAD_PX).ceil();
    CanvasGeometry {
        width: (maxx + ox + CANVAS_PAD_PX).ceil() as usize + 1,
        height: (maxy + oy + CANVAS_PAD_PX).ceil() as usize + 1,
        offset_px: [ox, oy],
    }
}

/// For each output pixel, the canvas position it shows (OpenCV `remap` maps, `CV_32FC1`).
#[derive(Debug, Clone)]
pub(crate) struct DistortionMaps {
    pub map_x: Vec<f32>,
    pub map_y: Vec<f32>,
}

/// The exact undistortion is evaluated every [`MAP_GRID_PX`] pixels and interpolated
/// bilinearly in between (the map is smooth: the error stays below a thousandth of a pixel).
pub(crate) fn distortion_maps(camera: &Camera, canvas: CanvasGeometry) -> DistortionMaps {
    let k = &camera.intrinsics;
    let (w, h) = (k.width as usize, k.height as usize);
    let g = MAP_GRID_PX;
    let (gw, gh) = (w.div_ceil(g) + 1, h.div_ceil(g) + 1);
    let mut grid = Vec::with_capacity(gw * gh);
    for j in 0..gh {
        for i in 0..gw {
            let (xn, yn) = k.undistort_to_normalised(PointPx::new((i * g) as f64, (j * g) as f64));
            grid.push((
                k.fx * xn + k.cx + canvas.offset_px[0],
                k.fy * yn + k.cy + canvas.offset_px[1],
            ));
        }
    }
    let mut map_x = Vec::with_capacity(w * h);
    let mut map_y = Vec::with_capacity(w * h);
    for v in 0..h {
        let (j, fy) = (v / g, (v % g) as f64 / g as f64);
        for u in 0..w {
            let (i, fx) = (u / g, (u % g) as f64 / g as f64);
            let at = |a: usize, b: usize| grid[(j + b) * gw + i + a];
            let (p00, p10, p01, p11) = (at(0, 0), at(1, 0), at(0, 1), at(1, 1));
            let lerp = |a: f64, b: f64, t: f64| a + (b - a) * t;
            let x = lerp(lerp(p00.0, p10.0, fx), lerp(p01.0, p11.0, fx), fy);
            let y = lerp(lerp(p00.1, p10.1, fx), lerp(p01.1, p11.1, fx), fy);
            map_x.push(x as f32);
            map_y.push(y as f32);
        }
    }
    DistortionMaps { map_x, map_y }
}

/// Turns a rendered canvas into the camera's frame: exposure and vignetting, sRGB encoding, lens
/// blur, distortion (when `maps` is given) and sensor noise seeded by `noise_seed`.
pub(crate) fn develop(
    raster: &Raster,
    camera: &Camera,
    canvas: CanvasGeometry,
    sensor: &Sensor,
    maps: Option<&DistortionMaps>,
    noise_seed: Option<u64>,
) -> Result<Mat, SynthError> {
    let lut = SrgbLut::new();
    let k = &camera.intrinsics;
    let (cw, ch) = (canvas.width, canvas.height);
    let half_diag2 = ((k.width as f64 / 2.0).powi(2) + (k.height as f64 / 2.0).powi(2)) as f32;
    let (pcx, pcy) = (
        (k.cx + canvas.offset_px[0]) as f32,
        (k.cy + canvas.offset_px[1]) as f32,
    );
    let vig = sensor.vignetting as f32;
    let mut img = Mat::new_rows_cols_with_default(ch as i32, cw as i32, core::CV_8UC3, Scalar::all(0.0))?;
    {
        let data = img.data_bytes_mut()?;
        for y in 0..ch {
            let dy = y as f32 - pcy;
            for x in 0..cw {
                let dx = x as f32 - pcx;
                let r2 = (dx * dx + dy * dy) / half_diag2;
                let v = (1.0 - vig * r2).max(0.2) * EXPOSURE;
                let c: Rgb = raster.colour[y * cw + x];
                let o = (y * cw + x) * 3;
                data[o] = lut.encode(c[2] * v);
                data[o + 1] = lut.encode(c[1] * v);
                data[o + 2] = lut.encode(c[0] * v);
            }
        }
    }
    let mut blurred = Mat::default();
    imgproc::gaussian_blur(
        &img,
        &mut blurred,
        Size::new(0, 0),
        sensor.blur_sigma_px,
        sensor.blur_sigma_px,
        core::BORDER_REFLECT,
    )?;
    let mut out = match maps {
        Some(m) => {
            let (w, h) = (k.width as i32, k.height as i32);
            let mx = Mat::new_rows_cols_with_data(h, w, &m.map_x)?;
            let my = Mat::new_rows_cols_with_data(h, w, &m.map_y)?;
            let mut dst = Mat::default();
            imgproc::remap(
                &blurred,
                &mut dst,
                &mx,
                &my,
                imgproc::INTER_LINEAR,
                core::BORDER_REPLICATE,
                Scalar::all(0.0),
            )?;
            dst
        }
        None => blurred,
    };
    if let Some(seed) = noise_seed {
        add_noise(&mut out, sensor, seed)?;
    }
    Ok(out)
}

/// Adds Gaussian read noise plus shot noise (variance growing with the level) to every channel.
fn add_noise(img: &mut Mat, sensor: &Sensor, seed: u64) -> Result<(), SynthError> {
    let mut rng = FastRng::new(seed);
    let read = sensor.noise_sigma as f32;
    let shot = sensor.shot_noise as f32;
    let sigma_lut: Vec<f32> = (0..256).map(|v| (read * read + shot * v as f32).sqrt()).collect();
    let data = img.data_bytes_mut()?;
    for chunk in data.chunks_mut(4) {
        let n = rng.normal4();
        for (b, z) in chunk.iter_mut().zip(n) {
            let s = sigma_lut[*b as usize];
            *b = (*b as f32 + s * z + 0.5).clamp(0.0, 255.0) as u8;
        }
    }
    Ok(())
}

/// JPEG bytes of a BGR image at `quality` (0-100).
pub fn encode_jpeg(img: &Mat, quality: u8) -> Result<Vec<u8>, SynthError> {
    let mut buf = Vector::<u8>::new();
    let params = Vector::<i32>::from_slice(&[imgcodecs::IMWRITE_JPEG_QUALITY, quality.min(100) as i32]);
    if !imgcodecs::imencode(".jpg", img, &mut buf, &params)? {
        return Err(SynthError::Encode("jpeg".into()));
    }
    Ok(buf.to_vec())
}

/// PNG bytes of an image (lossless).
pub fn encode_png(img: &Mat) -> Result<Vec<u8>, SynthError> {
    let mut buf = Vector::<u8>::new();
    let params = Vector::<i32>::from_slice(&[imgcodecs::IMWRITE_PNG_COMPRESSION, 3]);
    if !imgcodecs::imencode(".png", img, &mut buf, &params)? {
        return Err(SynthError::Encode("png".into()));
    }
    Ok(buf.to_vec())
}

/// The image as it comes back from a JPEG file of `quality`: for consumers that keep frames in
/// memory (the demo, `bench`) and want the same compression artefacts as the written files.
pub fn jpeg_round_trip(img: &Mat, quality: u8) -> Result<Mat, SynthError> {
    let bytes = encode_jpeg(img, quality)?;
    let buf = Vector::<u8>::from_slice(&bytes);
    Ok(imgcodecs::imdecode(&buf, imgcodecs::IMREAD_COLOR)?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::table::{Intrinsics, PointMm3, Pose};
    use nalgebra::Vector3;

    fn cam(distortion: [f64; 5]) -> Camera {
        let mut k = Intrinsics::from_hfov(320, 180, 70.0);
        k.distortion = distortion;
        Camera {
            intrinsics: k,
            pose: Pose::look_at(
                PointMm3::new(0.0, 0.0, -800.0),
                PointMm3::new(0.0, 0.0, 0.0),
                Vector3::new(0.0, -1.0, 0.0),
            )
            .unwrap(),
        }
    }

    #[test]
    fn barrel_distortion_needs_a_larger_canvas() {
        let plain = canvas_for(&cam([0.0; 5]));
        assert_eq!((plain.width, plain.height), (320, 180));
        let c = canvas_for(&cam([-0.15, 0.02, 0.0, 0.0, 0.0]));
        assert!(c.width > 320 && c.height > 180 && c.offset_px[0] > 0.0);
    }

    #[test]
    fn maps_send_each_pixel_to_its_undistorted_position() {
        let camera = cam([-0.12, 0.01, 0.0005, -0.0003, 0.0]);
        let canvas = canvas_for(&camera);
        let maps = distortion_maps(&camera, canvas);
        // A table point projects (with distortion) to pixel p; the map at p must point to the
        // undistorted projection in the canvas.
        let table = crate::table::PointMm::new(150.0, -90.0);
        let p = camera.project_table(table).unwrap();
        let (u, v) = (p.x.round(), p.y.round());
        let idx = v as usize * 320 + u as usize;
        let (xn, yn) = camera.intrinsics.undistort_to_normalised(PointPx::new(u, v));
        let k = &camera.intrinsics;
        assert!((maps.map_x[idx] as f64 - (k.fx * xn + k.cx + canvas.offset_px[0])).abs() < 1e-3);
        assert!((maps.map_y[idx] as f64 - (k.fy * yn + k.cy + canvas.offset_px[1])).abs() < 1e-3);
        assert!(
            maps.map_x
                .iter()
                .all(|&x| x >= 0.0 && (x as usize) < canvas.width)
        );
        assert!(
            maps.map_y
                .iter()
                .all(|&y| y >= 0.0 && (y as usize) < canvas.height)
        );
    }
}
