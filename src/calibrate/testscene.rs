//! Test-only renderings: a camera over a plain wooden table, optionally with the printed board on
//! it. Just enough to test detection and fitting before (and independently of) `crate::synth`.
//!
//! The table texture is a function of the table point; the board is `aruco::draw_board` on white
//! paper. Images are rendered at 2x and area-downsampled (anti-aliased edges), with Gaussian
//! noise. Lens distortion, when the camera has it, is applied exactly (each raw pixel is
//! undistorted and cast onto the table).

use super::aruco;
use super::board::BoardSpec;
use crate::table::{Camera, Intrinsics, PointMm, PointMm3, Pose};
use nalgebra::Vector3;
use opencv::core::{self, Mat, Scalar, Size, Vec3b};
use opencv::imgproc;
use opencv::prelude::*;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Board texture resolution, px per mm.
const BOARD_PX_PER_MM: f64 = 8.0;
/// White paper around the printed board, mm.
const PAPER_MARGIN_MM: f64 = 8.0;
const SUPERSAMPLE: i32 = 2;
const NOISE_SIGMA: f64 = 2.0;

/// A camera placed relative to the board.
#[derive(Debug, Clone)]
pub struct SceneCamera {
    pub target: PointMm3,
    pub tilt_deg: f64,
    pub yaw_deg: f64,
    pub distance_mm: f64,
    pub hfov_deg: f64,
    pub distortion: [f64; 5],
}

impl SceneCamera {
    pub fn looking_at_board(tilt_deg: f64, yaw_deg: f64, distance_mm: f64, hfov_deg: f64) -> Self {
        Self {
            target: PointMm3::new(140.0, 100.0, 0.0),
            tilt_deg,
            yaw_deg,
            distance_mm,
            hfov_deg,
            distortion: [0.0; 5],
        }
    }

    pub fn camera(&self) -> Camera {
        let (t, y) = (self.tilt_deg.to_radians(), self.yaw_deg.to_radians());
        let d = self.distance_mm;
        let eye = PointMm3::new(
            self.target.x - d * t.sin() * y.cos(),
            self.target.y - d * t.sin() * y.sin(),
            -d * t.cos(),
        );
        let up = Vector3::new(-y.cos(), -y.sin(), 0.0);
        let pose = Pose::look_at(eye, self.target, up)
            .or_else(|| Pose::look_at(eye, self.target, Vector3::new(0.0, -1.0, 0.0)))
            .unwrap_or(Pose {
                rvec: [0.0; 3],
                tvec: [0.0, 0.0, d],
            });
        let mut intrinsics = Intrinsics::from_hfov(1280, 720, self.hfov_deg);
        intrinsics.distortion = self.distortion;
        Camera { intrinsics, pose }
    }
}

/// The wooden table's colour (BGR) at a table point.
pub fn table_colour(p: PointMm) -> [f64; 3] {
    let grain = (p.y * 0.35 + 6.0 * (p.x * 0.004).sin()).sin() * 0.5 + (p.y * 0.11 + p.x * 0.01).sin() * 0.3;
    let base = [96.0, 138.0, 176.0];
    base.map(|c| c + grain * 14.0)
}

/// Something drawn on the table, looked up by table point.
pub trait TableLayer {
    /// BGR colour at `p`, or `None` where the layer shows the table through.
    fn colour(&self, p: PointMm) -> Option<[f64; 3]>;
}

/// The printed board on its sheet of paper.
pub struct BoardLayer {
    texture: Mat,
    margin_px: f64,
    size_mm: (f64, f64),
}

impl BoardLayer {
    pub fn new(spec: &BoardSpec) -> Self {
        let margin_px = (PAPER_MARGIN_MM * BOARD_PX_PER_MM).round();
        let texture = aruco::draw_board(spec, BOARD_PX_PER_MM, margin_px as i32).unwrap_or_default();
        Self {
            texture,
            margin_px,
            size_mm: spec.size_mm(),
        }
    }
}

impl TableLayer for BoardLayer {
    fn colour(&self, p: PointMm) -> Option<[f64; 3]> {
        let m = PAPER_MARGIN_MM;
        if p.x < -m || p.y < -m || p.x > self.size_mm.0 + m || p.y > self.size_mm.1 + m {
            return None;
        }
        let u = p.x * BOARD_PX_PER_MM + self.margin_px - 0.5;
        let v = p.y * BOARD_PX_PER_MM + self.margin_px - 0.5;
        let g = bilinear_grey(&self.texture, u, v)?;
        Some([g * 0.93 + 8.0, g * 0.95 + 6.0, g * 0.96 + 5.0])
    }
}

fn bilinear_grey(img: &Mat, u: f64, v: f64) -> Option<f64> {
    let (w, h) = (img.cols(), img.rows());
    let u = u.clamp(0.0, (w - 1) as f64);
    let v = v.clamp(0.0, (h - 1) as f64);
    let (x0, y0) = (u.floor() as i32, v.floor() as i32);
    let (x1, y1) = ((x0 + 1).min(w - 1), (y0 + 1).min(h - 1));
    let (fx, fy) = (u - x0 as f64, v - y0 as f64);
    let at = |x: i32, y: i32| img.at_2d::<u8>(y, x).map(|v| *v as f64).ok();
    let top = at(x0, y0)? * (1.0 - fx) + at(x1, y0)? * fx;
    let bottom = at(x0, y1)? * (1.0 - fx) + at(x1, y1)? * fx;
    Some(top * (1.0 - fy) + bottom * fy)
}

/// Renders what `cam` sees of the table with `layers` on it (first layer on top).
pub fn render(cam: &Camera, layers: &[&dyn TableLayer], seed: u64) -> Mat {
    let k = &cam.intrinsics;
    let (w, h) = (k.width as i32, k.height as i32);
    let big_k = Intrinsics {
        width: k.width * SUPERSAMPLE as u32,
        height: k.height * SUPERSAMPLE as u32,
        fx: k.fx * SUPERSAMPLE as f64,
        fy: k.fy * SUPERSAMPLE as f64,
        // Pixel centres: raw (x, y) covers big pixels 2x, 2x + 1, centred at 2x + 0.5.
        cx: k.cx * SUPERSAMPLE as f64 + 0.5,
        cy: k.cy * SUPERSAMPLE as f64 + 0.5,
        distortion: k.distortion,
    };
    let big = Camera {
        intrinsics: big_k,
        pose: cam.pose.clone(),
    };
    let (bw, bh) = (w * SUPERSAMPLE, h * SUPERSAMPLE);
    let mut img =
        Mat::new_rows_cols_with_default(bh, bw, core::CV_8UC3, Scalar::all(0.0)).unwrap_or_default();
    for y in 0..bh {
        let Ok(row) = img.at_row_mut::<Vec3b>(y) else {
            continue;
        };
        for (x, px) in row.iter_mut().enumerate() {
            let Some(p) = big.unproject_at_height(crate::table::PointPx::new(x as f64, y as f64), 0.0) else {
                continue;
            };
            let c = layers
                .iter()
                .find_map(|l| l.colour(p))
                .unwrap_or_else(|| table_colour(p));
            *px = Vec3b::from(c.map(|v| v.clamp(0.0, 255.0) as u8));
        }
    }
    let mut small = Mat::default();
    let _ = imgproc::resize(&img, &mut small, Size::new(w, h), 0.0, 0.0, imgproc::INTER_AREA);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    for y in 0..h {
        let Ok(row) = small.at_row_mut::<Vec3b>(y) else {
            continue;
        };
        for px in row.iter_mut() {
            for c in 0..3 {
                // Box-Muller.
                let u1: f64 = rng.random_range(1e-12..1.0);
                let u2: f64 = rng.random_range(0.0..1.0);
                let n = (-2.0 * u1.ln()).sqrt() * (std::f64::consts::TAU * u2).cos();
                px[c] = (px[c] as f64 + n * NOISE_SIGMA).round().clamp(0.0, 255.0) as u8;
            }
        }
    }
    small
}

/// The board lying flat at the table origin, seen by `cam`.
pub fn board_capture(cam: &Camera, spec: &BoardSpec, seed: u64) -> Mat {
    let board = BoardLayer::new(spec);
    render(cam, &[&board], seed)
}

/// The bare table.
pub fn blank_capture(cam: &Camera, seed: u64) -> Mat {
    render(cam, &[], seed)
}
