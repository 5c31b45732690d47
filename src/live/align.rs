//! Dense alignment of a rectified view to the empty-table reference: the full plane homography
//! (8 degrees of freedom) that makes the view's table lie on the reference's.
//!
//! Why dense: a plain table gives ORB too few corners to match, and the string alone is nearly a
//! conic (a homography can slide a conic along itself), but every pixel with any gradient — the
//! string, the beads, the crab, plank seams, the grain of the wood — constrains the homography
//! across its edges. Summed over the whole table they fix all eight parameters, where single
//! features cannot. Pieces (absent from the empty reference), a hand or a crab that moved are
//! outliers: each iteration weights the pixels by Tukey's biweight of their residual (scale from
//! the median absolute residual), so they drop out.
//!
//! The method: Gauss-Newton, forward additive (Lucas-Kanade) on the homography's entries in
//! normalised coordinates, with a brightness gain and offset (so a change of light does not pull
//! the geometry), coarse to fine over [`LEVELS`]. It converges from a start within a few
//! millimetres (the string's rigid fit, or table features, give that start).
//!
//! Conventions: both images on the same reference grid (`RectifyGrid`, fine pixels); the result
//! maps a **reference** pixel to the **view** pixel showing the same table point (homogeneous
//! column vectors, `W[(2, 2)] = 1`).

use nalgebra::{Matrix3, SMatrix, SVector, Vector3};
use opencv::core::{self, Mat, Point, Scalar, Size};
use opencv::imgproc;
use opencv::prelude::*;

/// Pyramid levels, coarse to fine: (fine pixels per level pixel, iteration cap).
const LEVELS: [(i32, usize); 3] = [(4, 40), (2, 20), (1, 6)];
/// Gaussian blur of each level, level pixels (smooth gradients widen the basin of convergence).
const BLUR_SIGMA_PX: f64 = 1.0;
/// Masks are eroded by this many fine pixels (the black border around a view has a gradient).
const MASK_ERODE_PX: i32 = 4;
/// Tukey's biweight constant, in robust standard deviations of the residual.
const TUKEY_C: f64 = 4.685;
/// Floor of the robust residual scale, grey levels (a perfectly aligned, noiseless pair).
const MIN_RESIDUAL_SCALE: f64 = 1.0;
/// A level has converged when no corner of the grid moves more than this in an update, level px.
const CONVERGED_PX: f64 = 0.005;
/// Fewer usable pixels than this at a level and the alignment is refused.
const MIN_PIXELS: usize = 2000;
/// The pixels that keep weight (inliers) must be at least this share of the usable ones.
pub const MIN_INLIER_SHARE: f64 = 0.5;

/// What the alignment found.
#[derive(Debug, Clone, PartialEq)]
pub struct Alignment {
    /// Reference grid pixel -> view grid pixel (fine pixels).
    pub reference_to_view: Matrix3<f64>,
    /// Share of the usable fine-level pixels the final iteration kept (non-zero weight).
    pub inlier_share: f64,
    /// Usable pixels at the finest level (both images valid).
    pub pixels: usize,
    /// RMS residual of the kept pixels at the finest level, grey levels.
    pub rms_grey: f64,
}

/// Why an alignment failed.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum AlignError {
    #[error("too little of the table is visible to align ({found} pixels, need {needed})")]
    TooFewPixels { found: usize, needed: usize },
    #[error("the view does not look like the empty table ({share:.0} % of it agrees, need {needed:.0} %)")]
    NoAgreement { share: f64, needed: f64 },
    #[error("the alignment diverged")]
    Diverged,
    #[error("images of different sizes or types")]
    Shape,
    #[error("OpenCV: {0}")]
    OpenCv(String),
}

impl From<opencv::Error> for AlignError {
    fn from(e: opencv::Error) -> Self {
        AlignError::OpenCv(e.to_string())
    }
}

/// One pyramid level: grey images (f32), the view's gradients, and masks (u8, 255 = usable).
struct Level {
    reference: Mat,
    view: Mat,
    view_gx: Mat,
    view_gy: Mat,
    reference_mask: Mat,
    view_mask: Mat,
}

fn grey_f32(bgr: &Mat) -> Result<Mat, opencv::Error> {
    let mut g = Mat::default();
    imgproc::cvt_color_def(bgr, &mut g, imgproc::COLOR_BGR2GRAY)?;
    let mut f = Mat::default();
    g.convert_to(&mut f, core::CV_32F, 1.0, 0.0)?;
    Ok(f)
}

fn erode(mask: &Mat, px: i32) -> Result<Mat, opencv::Error> {
    let kernel = imgproc::get_structuring_element(
        imgproc::MORPH_RECT,
        Size::new(2 * px + 1, 2 * px + 1),
        Point::new(-1, -1),
    )?;
    let mut out = Mat::default();
    imgproc::erode(
        mask,
        &mut out,
        &kernel,
        Point::new(-1, -1),
        1,
        core::BORDER_CONSTANT,
        Scalar::all(0.0),
    )?;
    Ok(out)
}

/// `image` reduced by `factor` (area average) and blurred.
fn reduce(image: &Mat, factor: i32) -> Result<Mat, opencv::Error> {
    let small = if factor == 1 {
        image.clone()
    } else {
        let mut s = Mat::default();
        let size = Size::new(image.cols() / factor, image.rows() / factor);
        imgproc::resize(image, &mut s, size, 0.0, 0.0, imgproc::INTER_AREA)?;
        s
    };
    let mut out = Mat::default();
    imgproc::gaussian_blur_def(&small, &mut out, Size::new(0, 0), BLUR_SIGMA_PX)?;
    Ok(out)
}

/// A mask reduced by `factor`: a level pixel is usable when every fine pixel under it is.
fn reduce_mask(mask: &Mat, factor: i32) -> Result<Mat, opencv::Error> {
    if factor == 1 {
        return Ok(mask.clone());
    }
    let mut s = Mat::default();
    let size = Size::new(mask.cols() / factor, mask.rows() / factor);
    imgproc::resize(mask, &mut s, size, 0.0, 0.0, imgproc::INTER_AREA)?;
    let mut out = Mat::default();
    imgproc::threshold(&s, &mut out, 254.0, 255.0, imgproc::THRESH_BINARY)?;
    Ok(out)
}

impl Level {
    fn new(
        reference: &Mat,
        reference_mask: &Mat,
        view: &Mat,
        view_mask: &Mat,
        factor: i32,
    ) -> Result<Self, opencv::Error> {
        let view = reduce(view, factor)?;
        let mut gx = Mat::default();
        let mut gy = Mat::default();
        // Sobel's 3x3 kernel sums to 8 times the central difference.
        imgproc::sobel(
            &view,
            &mut gx,
            core::CV_32F,
            1,
            0,
            3,
            0.125,
            0.0,
            core::BORDER_REPLICATE,
        )?;
        imgproc::sobel(
            &view,
            &mut gy,
            core::CV_32F,
            0,
            1,
            3,
            0.125,
            0.0,
            core::BORDER_REPLICATE,
        )?;
        Ok(Self {
            reference: reduce(reference, factor)?,
            view,
            view_gx: gx,
            view_gy: gy,
            reference_mask: reduce_mask(reference_mask, factor)?,
            view_mask: reduce_mask(view_mask, factor)?,
        })
    }
}

/// Fine pixel `x` is level pixel `(x - (f - 1) / 2) / f` (area reduction by `f`).
fn level_from_fine(factor: i32) -> Matrix3<f64> {
    let f = f64::from(factor);
    let o = (f - 1.0) / 2.0;
    Matrix3::new(1.0 / f, 0.0, -o / f, 0.0, 1.0 / f, -o / f, 0.0, 0.0, 1.0)
}

fn normalised(w: &Matrix3<f64>) -> Option<Matrix3<f64>> {
    let s = w[(2, 2)];
    (s.abs() > 1e-12 && w.iter().all(|v| v.is_finite())).then(|| w / s)
}

fn warp(src: &Mat, w: &Matrix3<f64>, size: Size, interpolation: i32) -> Result<Mat, opencv::Error> {
    let m = Mat::from_slice_2d(&[
        [w[(0, 0)], w[(0, 1)], w[(0, 2)]],
        [w[(1, 0)], w[(1, 1)], w[(1, 2)]],
        [w[(2, 0)], w[(2, 1)], w[(2, 2)]],
    ])?;
    let mut out = Mat::default();
    imgproc::warp_perspective(
        src,
        &mut out,
        &m,
        size,
        interpolation | imgproc::WARP_INVERSE_MAP,
        core::BORDER_CONSTANT,
        Scalar::all(0.0),
    )?;
    Ok(out)
}

fn median(mut v: Vec<f32>) -> f64 {
    if v.is_empty() {
        return 0.0;
    }
    let mid = v.len() / 2;
    let (_, m, _) = v.select_nth_unstable_by(mid, f32::total_cmp);
    f64::from(*m)
}

/// The outcome of the iterations at one level.
struct LevelFit {
    w: Matrix3<f64>,
    pixels: usize,
    inliers: usize,
    rms_grey: f64,
}

/// Gauss-Newton at one level, from `w` (reference level px -> view level px).
fn fit_level(level: &Level, w: Matrix3<f64>, iterations: usize) -> Result<LevelFit, AlignError> {
    let (cols, rows) = (level.reference.cols(), level.reference.rows());
    let size = Size::new(cols, rows);
    // Normalised coordinates: x_n = (x - c) / s, so the eight entries are of similar size.
    let s = f64::from(cols.max(rows)) / 2.0;
    let (cx, cy) = (f64::from(cols) / 2.0, f64::from(rows) / 2.0);
    let n = Matrix3::new(1.0 / s, 0.0, -cx / s, 0.0, 1.0 / s, -cy / s, 0.0, 0.0, 1.0);
    let n_inv = Matrix3::new(s, 0.0, cx, 0.0, s, cy, 0.0, 0.0, 1.0);
    let mut wn = normalised(&(n * w * n_inv)).ok_or(AlignError::Diverged)?;
    let (mut gain, mut offset) = (1.0_f64, 0.0_f64);
    let reference = level.reference.data_typed::<f32>()?;
    let reference_mask = level.reference_mask.data_typed::<u8>()?;
    let corners = [
        Vector3::new(-cx / s, -cy / s, 1.0),
        Vector3::new(cx / s, -cy / s, 1.0),
        Vector3::new(cx / s, cy / s, 1.0),
        Vector3::new(-cx / s, cy / s, 1.0),
    ];
    let mut fit = LevelFit {
        w,
        pixels: 0,
        inliers: 0,
        rms_grey: 0.0,
    };
    for iteration in 0..iterations {
        let w_px = n_inv * wn * n;
        let view = warp(&level.view, &w_px, size, imgproc::INTER_LINEAR)?;
        let gx = warp(&level.view_gx, &w_px, size, imgproc::INTER_LINEAR)?;
        let gy = warp(&level.view_gy, &w_px, size, imgproc::INTER_LINEAR)?;
        let mask = warp(&level.view_mask, &w_px, size, imgproc::INTER_NEAREST)?;
        let (view, gx, gy, mask) = (
            view.data_typed::<f32>()?,
            gx.data_typed::<f32>()?,
            gy.data_typed::<f32>()?,
            mask.data_typed::<u8>()?,
        );
        let usable: Vec<usize> = (0..reference.len())
            .filter(|&k| reference_mask[k] != 0 && mask[k] != 0)
            .collect();
        if usable.len() < MIN_PIXELS {
            return Err(AlignError::TooFewPixels {
                found: usable.len(),
                needed: MIN_PIXELS,
            });
        }
        if iteration == 0 {
            // Start the brightness model at the two images' mean difference.
            let d: f64 = usable
                .iter()
                .map(|&k| f64::from(view[k]) - f64::from(reference[k]))
                .sum();
            offset = d / usable.len() as f64;
        }
        let residual = |k: usize| f64::from(view[k]) - (gain * f64::from(reference[k]) + offset);
        let abs: Vec<f32> = usable.iter().map(|&k| residual(k).abs() as f32).collect();
        let sigma = (1.4826 * median(abs)).max(MIN_RESIDUAL_SCALE);
        let c = TUKEY_C * sigma;
        let mut a = SMatrix::<f64, 10, 10>::zeros();
        let mut b = SVector::<f64, 10>::zeros();
        let (mut inliers, mut sq) = (0usize, 0.0);
        for &k in &usable {
            let r = residual(k);
            if r.abs() >= c {
                continue;
            }
            let t = 1.0 - (r / c).powi(2);
            let weight = t * t;
            inliers += 1;
            sq += r * r;
            let (i, j) = ((k % cols as usize) as f64, (k / cols as usize) as f64);
            let (xn, yn) = ((i - cx) / s, (j - cy) / s);
            let d = wn[(2, 0)] * xn + wn[(2, 1)] * yn + 1.0;
            if d.abs() < 1e-9 {
                continue;
            }
            let un = (wn[(0, 0)] * xn + wn[(0, 1)] * yn + wn[(0, 2)]) / d;
            let vn = (wn[(1, 0)] * xn + wn[(1, 1)] * yn + wn[(1, 2)]) / d;
            // d(view)/d(u_n) = s * gradient (u = s u_n + c).
            let (ix, iy) = (f64::from(gx[k]) * s, f64::from(gy[k]) * s);
            let j_row = SVector::<f64, 10>::from([
                ix * xn / d,
                ix * yn / d,
                ix / d,
                iy * xn / d,
                iy * yn / d,
                iy / d,
                -(ix * un + iy * vn) * xn / d,
                -(ix * un + iy * vn) * yn / d,
                -f64::from(reference[k]),
                -1.0,
            ]);
            a += j_row * j_row.transpose() * weight;
            b += j_row * (r * weight);
        }
        fit.pixels = usable.len();
        fit.inliers = inliers;
        fit.rms_grey = if inliers > 0 {
            (sq / inliers as f64).sqrt()
        } else {
            0.0
        };
        if inliers < MIN_PIXELS {
            return Err(AlignError::TooFewPixels {
                found: inliers,
                needed: MIN_PIXELS,
            });
        }
        let delta = a.cholesky().ok_or(AlignError::Diverged)?.solve(&(-b));
        let step = Matrix3::new(
            delta[0], delta[1], delta[2], delta[3], delta[4], delta[5], delta[6], delta[7], 0.0,
        );
        let next = wn + step;
        gain += delta[8];
        offset += delta[9];
        let moved = corners
            .iter()
            .map(|p| {
                let (a, b) = (wn * p, next * p);
                ((a.xy() / a.z - b.xy() / b.z) * s).norm()
            })
            .fold(0.0, f64::max);
        if !moved.is_finite() {
            return Err(AlignError::Diverged);
        }
        wn = next;
        if moved < CONVERGED_PX {
            break;
        }
    }
    fit.w = normalised(&(n_inv * wn * n)).ok_or(AlignError::Diverged)?;
    Ok(fit)
}

/// Aligns `view` (BGR 8-bit, on the reference's grid) to `reference` (the empty table, BGR 8-bit)
/// starting from `start` (reference px -> view px; the identity when the view was rectified with
/// a nearly right profile). `view_valid` is 255 where the view shows the camera's picture; the
/// reference's own black surround (outside the calibration's view) is left out by itself.
pub fn align(
    reference: &Mat,
    view: &Mat,
    view_valid: &Mat,
    start: Matrix3<f64>,
) -> Result<Alignment, AlignError> {
    if reference.size()? != view.size()?
        || view_valid.size()? != view.size()?
        || reference.typ() != core::CV_8UC3
        || view.typ() != core::CV_8UC3
        || view_valid.typ() != core::CV_8UC1
    {
        return Err(AlignError::Shape);
    }
    let reference_grey = grey_f32(reference)?;
    let view_grey = grey_f32(view)?;
    let mut reference_seen = Mat::default();
    imgproc::threshold(
        &reference_grey,
        &mut reference_seen,
        0.5,
        255.0,
        imgproc::THRESH_BINARY,
    )?;
    let mut reference_seen_u8 = Mat::default();
    reference_seen.convert_to(&mut reference_seen_u8, core::CV_8U, 1.0, 0.0)?;
    let reference_mask = erode(&reference_seen_u8, MASK_ERODE_PX)?;
    let view_mask = erode(view_valid, MASK_ERODE_PX)?;
    let mut w = normalised(&start).ok_or(AlignError::Diverged)?;
    let mut last = None;
    for (factor, iterations) in LEVELS {
        let level = Level::new(&reference_grey, &reference_mask, &view_grey, &view_mask, factor)?;
        let to_level = level_from_fine(factor);
        let to_fine = to_level.try_inverse().ok_or(AlignError::Diverged)?;
        let fit = fit_level(&level, to_level * w * to_fine, iterations)?;
        w = normalised(&(to_fine * fit.w * to_level)).ok_or(AlignError::Diverged)?;
        last = Some(fit);
    }
    let last = last.ok_or(AlignError::Diverged)?;
    let inlier_share = last.inliers as f64 / last.pixels.max(1) as f64;
    if inlier_share < MIN_INLIER_SHARE {
        return Err(AlignError::NoAgreement {
            share: inlier_share * 100.0,
            needed: MIN_INLIER_SHARE * 100.0,
        });
    }
    Ok(Alignment {
        reference_to_view: w,
        inlier_share,
        pixels: last.pixels,
        rms_grey: last.rms_grey,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn apply(h: &Matrix3<f64>, x: f64, y: f64) -> (f64, f64) {
        let v = h * Vector3::new(x, y, 1.0);
        (v.x / v.z, v.y / v.z)
    }

    #[test]
    fn a_known_perspective_warp_of_the_demo_reference_is_found() {
        let cal = crate::live::LiveCalibration::demo().unwrap();
        let reference = cal.reference;
        let (cols, rows) = (reference.cols(), reference.rows());
        // The view shows reference pixel q at W q: a shift, a small turn and a keystone.
        let truth = Matrix3::new(1.004, 0.012, 6.5, -0.010, 0.998, -4.0, 4e-6, -3e-6, 1.0);
        let view = warp(
            &reference,
            &truth.try_inverse().unwrap(),
            reference.size().unwrap(),
            imgproc::INTER_LINEAR,
        )
        .unwrap();
        let ones = Mat::new_rows_cols_with_default(rows, cols, core::CV_8UC1, Scalar::all(255.0)).unwrap();
        let valid = warp(
            &ones,
            &truth.try_inverse().unwrap(),
            ones.size().unwrap(),
            imgproc::INTER_NEAREST,
        )
        .unwrap();
        let a = align(&reference, &view, &valid, Matrix3::identity()).unwrap();
        let mut worst: f64 = 0.0;
        for (x, y) in [
            (50.0, 50.0),
            (f64::from(cols) - 50.0, 60.0),
            (200.0, f64::from(rows) - 40.0),
        ] {
            let (u, v) = apply(&truth, x, y);
            let (p, q) = apply(&a.reference_to_view, x, y);
            worst = worst.max(((u - p).powi(2) + (v - q).powi(2)).sqrt());
        }
        assert!(worst < 0.3, "worst corner error {worst} px; {a:?}");
        assert!(a.inlier_share > 0.9, "{a:?}");
    }
}
