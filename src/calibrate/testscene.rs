//! Test-only renderings: a camera over a plain wooden table, optionally with the printed board on
//! it. Just enough to test detection and fitting before (and independently of) `crate::synth`.
//!
//! The table texture is a function of the table point; the board is `aruco::draw_board` on white
//! paper. Images are rendered at 2x and area-downsampled (anti-aliased edges), with Gaussian
//! noise. Lens distortion, when the camera has it, is applied exactly (each raw pixel is
//! undistorted and cast onto the table).

use super::aruco;
use super::board::BoardSpec;
use super::rectify::RectifyGrid;
use crate::table::{Camera, Intrinsics, PointMm, PointMm3, Pose};
use nalgebra::Vector3;
use opencv::core::{self, Mat, Scalar, Size, Vec3b, Vector};
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

/// Something flat on or above the table, looked up by table point.
pub trait TableLayer {
    /// BGR colour at `p` (on the layer's plane), or `None` where the layer is transparent.
    fn colour(&self, p: PointMm) -> Option<[f64; 3]>;
    /// Height of the layer's plane above the table, mm.
    fn height_mm(&self) -> f64 {
        0.0
    }
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

/// Renders what `cam` sees of the table with `layers` on it (higher layers hide lower ones; at
/// equal heights the first wins).
pub fn render(cam: &Camera, layers: &[&dyn TableLayer], seed: u64) -> Mat {
    render_shaded(cam, layers, &|_| 1.0, seed)
}

/// [`render`] with a light factor per table point (shadows: below 1), applied to whatever is
/// seen where the ray meets the table.
pub fn render_shaded(
    cam: &Camera,
    layers: &[&dyn TableLayer],
    light: &dyn Fn(PointMm) -> f64,
    seed: u64,
) -> Mat {
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
    let mut order: Vec<&dyn TableLayer> = layers.to_vec();
    order.sort_by(|a, b| b.height_mm().total_cmp(&a.height_mm()));
    let mut img =
        Mat::new_rows_cols_with_default(bh, bw, core::CV_8UC3, Scalar::all(0.0)).unwrap_or_default();
    let r_inv = big.pose.rotation().inverse();
    let centre = big.pose.camera_centre();
    // Where the ray through a big pixel meets the plane `h` above the table.
    let at_height = |dir: &Vector3<f64>, h: f64| -> Option<PointMm> {
        if dir.z.abs() < 1e-12 {
            return None;
        }
        let s = (-h - centre.z) / dir.z;
        (s > 0.0).then(|| PointMm::new(centre.x + s * dir.x, centre.y + s * dir.y))
    };
    for y in 0..bh {
        let Ok(row) = img.at_row_mut::<Vec3b>(y) else {
            continue;
        };
        for (x, px) in row.iter_mut().enumerate() {
            let (xn, yn) = big
                .intrinsics
                .undistort_to_normalised(crate::table::PointPx::new(x as f64, y as f64));
            let dir = r_inv * Vector3::new(xn, yn, 1.0);
            let Some(p) = at_height(&dir, 0.0) else {
                continue;
            };
            let c = order
                .iter()
                .find_map(|l| l.colour(at_height(&dir, l.height_mm())?))
                .unwrap_or_else(|| table_colour(p));
            let k = light(p);
            *px = Vec3b::from(c.map(|v| (v * k).clamp(0.0, 255.0) as u8));
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

/// A layer drawn with OpenCV into a top-down texture (BGR + alpha mask) at a fixed scale.
pub struct TextureLayer {
    image: Mat,
    mask: Mat,
    grid: RectifyGrid,
    height_mm: f64,
}

impl TableLayer for TextureLayer {
    fn colour(&self, p: PointMm) -> Option<[f64; 3]> {
        let q = self.grid.mm_to_px(p);
        let (x, y) = (q.x.round() as i32, q.y.round() as i32);
        if x < 0 || y < 0 || x >= self.mask.cols() || y >= self.mask.rows() {
            return None;
        }
        if *self.mask.at_2d::<u8>(y, x).ok()? == 0 {
            return None;
        }
        let c = self.image.at_2d::<Vec3b>(y, x).ok()?;
        Some([c[0] as f64, c[1] as f64, c[2] as f64])
    }
    fn height_mm(&self) -> f64 {
        self.height_mm
    }
}

/// Texture scale for string-scene layers, px per mm.
const LAYER_PX_PER_MM: f64 = 4.0;

/// The set-up for the ocean and counter tests: a string loop with its beads and the crab.
#[derive(Debug, Clone)]
pub struct StringScene {
    /// The cord's centre line (vertex order = counter direction).
    pub line: Vec<PointMm>,
    pub beads: Vec<(crate::games::crash_octopus::Bead, PointMm)>,
    pub crab: usize,
    pub crab_centre: PointMm,
    pub crab_angle: f64,
    /// Grey boxes lying across the string (centre, length across, angle), 15 mm wide, 10 mm high.
    pub occluders: Vec<(PointMm, f64, f64)>,
    /// Soft round shadows (centre, radius, light factor inside).
    pub shadows: Vec<(PointMm, f64, f64)>,
    /// False draws the line as an open polyline (a loop with a gap).
    pub closed: bool,
}

impl StringScene {
    /// An ellipse-like loop around the board's centre with wobbles, the counter laid from arc
    /// `start_mm` with `sequence`, the crab at `crab`.
    pub fn new(seed: u64, sequence: &str, crab: usize) -> Self {
        use crate::calibrate::curve::ClosedCurve;
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let a = rng.random_range(330.0..400.0);
        let b = a * rng.random_range(0.6..0.8);
        let rot: f64 = rng.random_range(0.0..std::f64::consts::PI);
        let w2: f64 = rng.random_range(0.0..0.05);
        let ph: f64 = rng.random_range(0.0..std::f64::consts::TAU);
        let centre = PointMm::new(
            140.0 + rng.random_range(-30.0..30.0),
            100.0 + rng.random_range(-30.0..30.0),
        );
        let pts: Vec<PointMm> = (0..720)
            .map(|k| {
                let t = std::f64::consts::TAU * k as f64 / 720.0;
                let r = 1.0 + w2 * (3.0 * t + ph).sin();
                PointMm::new(a * r * t.cos(), b * r * t.sin()).rotated(rot) + centre
            })
            .collect();
        let curve = ClosedCurve::new(&pts).unwrap();
        let line = curve.resampled(5.0);
        let curve = ClosedCurve::new(&line).unwrap();
        let beads: Vec<crate::games::crash_octopus::Bead> = sequence
            .parse::<crate::games::crash_octopus::BeadSequence>()
            .map(|s| s.0)
            .unwrap_or_default();
        let mut s = rng.random_range(0.0..curve.perimeter());
        let mut placed = Vec::new();
        let mut crab_s = s;
        for (i, &bead) in beads.iter().enumerate() {
            if i == crab {
                s += rng.random_range(1.0..4.0) + 10.0;
                crab_s = s;
                s += 10.0 + rng.random_range(1.0..4.0);
            } else if i > 0 {
                s += rng.random_range(0.0..1.2);
            }
            s += 5.0;
            placed.push((bead, curve.point_at(s)));
            s += 5.0;
        }
        if crab >= beads.len() {
            s += rng.random_range(1.0..4.0) + 10.0;
            crab_s = s;
        }
        let t = curve.tangent_at(crab_s, 2.0);
        Self {
            line,
            beads: placed,
            crab: crab.min(beads.len()),
            crab_centre: curve.point_at(crab_s),
            crab_angle: t.y.atan2(t.x),
            occluders: Vec::new(),
            shadows: Vec::new(),
            closed: true,
        }
    }

    /// The string, beads and crab as layers.
    pub fn layers(&self) -> Vec<TextureLayer> {
        let (mut min, mut max) = (PointMm::new(f64::MAX, f64::MAX), PointMm::new(f64::MIN, f64::MIN));
        for p in &self.line {
            min = PointMm::new(min.x.min(p.x), min.y.min(p.y));
            max = PointMm::new(max.x.max(p.x), max.y.max(p.y));
        }
        let pad = PointMm::new(30.0, 30.0);
        let Ok(grid) = RectifyGrid::covering(min - pad, max + pad, 1.0 / LAYER_PX_PER_MM) else {
            return Vec::new();
        };
        let px = |p: PointMm| {
            let q = grid.mm_to_px(p);
            core::Point::new((q.x * 16.0).round() as i32, (q.y * 16.0).round() as i32)
        };
        let new_layer = |h: f64| TextureLayer {
            image: Mat::new_rows_cols_with_default(
                grid.height as i32,
                grid.width as i32,
                core::CV_8UC3,
                Scalar::all(0.0),
            )
            .unwrap_or_default(),
            mask: Mat::new_rows_cols_with_default(
                grid.height as i32,
                grid.width as i32,
                core::CV_8UC1,
                Scalar::all(0.0),
            )
            .unwrap_or_default(),
            grid,
            height_mm: h,
        };
        let l = LAYER_PX_PER_MM;
        // The cord: a 4 mm band, lighter along its top.
        let mut string = new_layer(2.0);
        let poly: Vector<core::Point> = self.line.iter().map(|&p| px(p)).collect();
        let mut polys: Vector<Vector<core::Point>> = Vector::new();
        polys.push(poly);
        for (width_mm, shade) in [(4.0, 0.8), (2.4, 1.0)] {
            let c = Scalar::new(0xD6 as f64 * shade, 0x6F as f64 * shade, 0x2C as f64 * shade, 0.0);
            let _ = imgproc::polylines(
                &mut string.image,
                &polys,
                self.closed,
                c,
                (width_mm * l) as i32,
                imgproc::LINE_8,
                4,
            );
            let _ = imgproc::polylines(
                &mut string.mask,
                &polys,
                self.closed,
                Scalar::all(255.0),
                (4.0 * l) as i32,
                imgproc::LINE_8,
                4,
            );
        }
        let mut beads = new_layer(5.0);
        for (bead, p) in &self.beads {
            let base = match bead {
                crate::games::crash_octopus::Bead::Blue => [0xBF as f64, 0x4F as f64, 0x1F as f64],
                crate::games::crash_octopus::Bead::Black => [0x15 as f64, 0x15 as f64, 0x15 as f64],
            };
            for (r_mm, shade) in [(5.0, 0.75), (3.5, 0.9), (2.0, 1.1)] {
                let c = Scalar::new(base[0] * shade, base[1] * shade, base[2] * shade, 0.0);
                let _ = imgproc::circle(
                    &mut beads.image,
                    px(*p),
                    (r_mm * l * 16.0) as i32,
                    c,
                    -1,
                    imgproc::LINE_8,
                    4,
                );
            }
            let _ = imgproc::circle(
                &mut beads.mask,
                px(*p),
                (5.0 * l * 16.0) as i32,
                Scalar::all(255.0),
                -1,
                imgproc::LINE_8,
                4,
            );
        }
        let mut crab = new_layer(6.0);
        let size = core::Size::new((10.0 * l * 16.0) as i32, (13.0 * l * 16.0) as i32);
        let angle = self.crab_angle.to_degrees();
        let _ = imgproc::ellipse(
            &mut crab.image,
            px(self.crab_centre),
            size,
            angle,
            0.0,
            360.0,
            Scalar::new(0x2D as f64, 0x55 as f64, 0xE2 as f64, 0.0),
            -1,
            imgproc::LINE_8,
            4,
        );
        let _ = imgproc::ellipse(
            &mut crab.mask,
            px(self.crab_centre),
            size,
            angle,
            0.0,
            360.0,
            Scalar::all(255.0),
            -1,
            imgproc::LINE_8,
            4,
        );
        let mut things = new_layer(10.0);
        for &(c, len, angle) in &self.occluders {
            let rect = core::RotatedRect::new(
                core::Point2f::new((grid.mm_to_px(c).x) as f32, (grid.mm_to_px(c).y) as f32),
                core::Size2f::new((len * l) as f32, (15.0 * l) as f32),
                angle.to_degrees() as f32,
            );
            let Ok(rect) = rect else { continue };
            let mut pts = [core::Point2f::default(); 4];
            let _ = rect.points(&mut pts);
            let poly: Vector<core::Point> = pts
                .iter()
                .map(|p| core::Point::new(p.x.round() as i32, p.y.round() as i32))
                .collect();
            let _ = imgproc::fill_convex_poly(
                &mut things.image,
                &poly,
                Scalar::new(120.0, 128.0, 135.0, 0.0),
                imgproc::LINE_8,
                0,
            );
            let _ =
                imgproc::fill_convex_poly(&mut things.mask, &poly, Scalar::all(255.0), imgproc::LINE_8, 0);
        }
        vec![things, crab, beads, string]
    }

    /// The set-up seen by `cam`.
    pub fn capture(&self, cam: &Camera, seed: u64) -> Mat {
        let layers = self.layers();
        let refs: Vec<&dyn TableLayer> = layers.iter().map(|l| l as &dyn TableLayer).collect();
        let shadows = self.shadows.clone();
        let light = move |p: PointMm| {
            shadows.iter().fold(1.0, |k, &(c, r, f)| {
                // Full shadow inside 0.8 r, fading out to r.
                let d = p.distance(c) / r;
                let t = ((d - 0.8) / 0.2).clamp(0.0, 1.0);
                k * (f + (1.0 - f) * t)
            })
        };
        render_shaded(cam, &refs, &light, seed)
    }
}
