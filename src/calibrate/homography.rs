//! Fitting the table -> image homography: from board corners (many points, least squares) or
//! from four clicked corners of a known rectangle (the fallback without a printed board).
//!
//! Conventions: table points in mm (table frame), image points in (undistorted) pixels; the fitted
//! matrix maps table -> pixels (`table::Homography`). The fit is Hartley-normalised DLT followed by
//! Gauss-Newton on the reprojection error in the image, so it minimises pixel error like OpenCV's
//! `findHomography(method = 0)`.
//!
//! Four-point rectangles: point 1 is the rectangle corner that becomes the table origin, point 2
//! the corner along its `W` side (table +x), point 3 the opposite corner, point 4 the corner along
//! its `H` side (table +y) — i.e. in order around the rectangle.

use crate::table::{Homography, PointMm, PointPx};
use nalgebra::{DMatrix, Matrix3, SMatrix, SVector, Vector3};

/// Gauss-Newton stops after this many steps, or when a step changes the RMS by less than
/// [`REFINE_TOLERANCE_PX`].
const REFINE_ITERATIONS: usize = 20;
const REFINE_TOLERANCE_PX: f64 = 1e-9;
/// Four clicked points closer than this (px) to each other cannot be a rectangle seen by a camera.
const MIN_CLICK_SEPARATION_PX: f64 = 5.0;

/// A homography could not be fitted.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum FitError {
    #[error("need at least 4 point pairs to fit a homography, got {0}")]
    TooFewPoints(usize),
    #[error("got {table} table points but {image} image points")]
    Mismatch { table: usize, image: usize },
    #[error("the points are degenerate (collinear or repeated); no homography fits them")]
    Degenerate,
    #[error("the rectangle size must be two positive lengths in mm, got {0} x {1}")]
    BadRectangle(f64, f64),
    #[error(
        "the four points do not go round a rectangle in order (they cross or are too close); give them as corner 1 (table origin), 2 (along the width), 3 (opposite), 4 (along the height)"
    )]
    BadQuad,
}

/// A fitted homography and how well it explains its points.
#[derive(Debug, Clone, PartialEq)]
pub struct HomographyFit {
    pub homography: Homography,
    /// Root mean square of the image distances between the points and their mapped table points.
    pub rms_px: f64,
    /// The largest such distance.
    pub max_px: f64,
}

/// Least-squares homography table -> image over all pairs (at least 4, not degenerate).
pub fn fit(table: &[PointMm], image: &[PointPx]) -> Result<HomographyFit, FitError> {
    if table.len() != image.len() {
        return Err(FitError::Mismatch {
            table: table.len(),
            image: image.len(),
        });
    }
    if table.len() < 4 {
        return Err(FitError::TooFewPoints(table.len()));
    }
    let src: Vec<(f64, f64)> = table.iter().map(|p| (p.x, p.y)).collect();
    let dst: Vec<(f64, f64)> = image.iter().map(|p| (p.x, p.y)).collect();
    let ts = normaliser(&src).ok_or(FitError::Degenerate)?;
    let td = normaliser(&dst).ok_or(FitError::Degenerate)?;
    let ns: Vec<(f64, f64)> = src.iter().map(|&p| apply(&ts, p)).collect();
    let nd: Vec<(f64, f64)> = dst.iter().map(|&p| apply(&td, p)).collect();
    let hn = dlt(&ns, &nd).ok_or(FitError::Degenerate)?;
    let td_inv = td.try_inverse().ok_or(FitError::Degenerate)?;
    let mut h = td_inv * hn * ts;
    if h[(2, 2)].abs() > 1e-15 {
        h /= h[(2, 2)];
    }
    let h = refine(h, &src, &dst);
    let homography = Homography::try_new(h).map_err(|_| FitError::Degenerate)?;
    let (rms_px, max_px) = residuals(&homography, table, image).ok_or(FitError::Degenerate)?;
    if !rms_px.is_finite() {
        return Err(FitError::Degenerate);
    }
    Ok(HomographyFit {
        homography,
        rms_px,
        max_px,
    })
}

/// The homography of a `w_mm` x `h_mm` rectangle whose corners were clicked at `points` (raw or
/// undistorted pixels, in the order of the module conventions).
pub fn four_points(points: [PointPx; 4], w_mm: f64, h_mm: f64) -> Result<HomographyFit, FitError> {
    if !(w_mm.is_finite() && h_mm.is_finite() && w_mm > 0.0 && h_mm > 0.0) {
        return Err(FitError::BadRectangle(w_mm, h_mm));
    }
    if !is_simple_convex_quad(&points) {
        return Err(FitError::BadQuad);
    }
    let table = [
        PointMm::new(0.0, 0.0),
        PointMm::new(w_mm, 0.0),
        PointMm::new(w_mm, h_mm),
        PointMm::new(0.0, h_mm),
    ];
    fit(&table, &points)
}

/// RMS and max image distance between `image` and `h(table)`.
pub fn residuals(h: &Homography, table: &[PointMm], image: &[PointPx]) -> Option<(f64, f64)> {
    if table.is_empty() {
        return Some((0.0, 0.0));
    }
    let mut sum = 0.0;
    let mut max: f64 = 0.0;
    for (t, i) in table.iter().zip(image) {
        let d = h.to_px(*t)?.distance(*i);
        sum += d * d;
        max = max.max(d);
    }
    Some(((sum / table.len() as f64).sqrt(), max))
}

fn is_simple_convex_quad(p: &[PointPx; 4]) -> bool {
    for i in 0..4 {
        for j in i + 1..4 {
            if p[i].distance(p[j]) < MIN_CLICK_SEPARATION_PX || !p[i].is_finite() {
                return false;
            }
        }
    }
    let turns: Vec<f64> = (0..4)
        .map(|i| {
            let a = p[i];
            let b = p[(i + 1) % 4];
            let c = p[(i + 2) % 4];
            (b - a).cross(c - b)
        })
        .collect();
    turns.iter().all(|&t| t > 0.0) || turns.iter().all(|&t| t < 0.0)
}

/// Hartley normalisation: centroid to the origin, mean distance sqrt(2).
fn normaliser(pts: &[(f64, f64)]) -> Option<Matrix3<f64>> {
    let n = pts.len() as f64;
    let (mx, my) = pts
        .iter()
        .fold((0.0, 0.0), |(a, b), &(x, y)| (a + x / n, b + y / n));
    let mean_d = pts.iter().map(|&(x, y)| (x - mx).hypot(y - my)).sum::<f64>() / n;
    if !(mean_d.is_finite() && mean_d > 1e-12) {
        return None;
    }
    let s = std::f64::consts::SQRT_2 / mean_d;
    Some(Matrix3::new(s, 0.0, -s * mx, 0.0, s, -s * my, 0.0, 0.0, 1.0))
}

fn apply(m: &Matrix3<f64>, (x, y): (f64, f64)) -> (f64, f64) {
    let v = m * Vector3::new(x, y, 1.0);
    (v.x / v.z, v.y / v.z)
}

/// Direct linear transform: the null vector of the 2N x 9 system, via the 9 x 9 normal matrix.
fn dlt(src: &[(f64, f64)], dst: &[(f64, f64)]) -> Option<Matrix3<f64>> {
    let mut a = DMatrix::<f64>::zeros(2 * src.len(), 9);
    for (k, (&(x, y), &(u, v))) in src.iter().zip(dst).enumerate() {
        let r0 = [-x, -y, -1.0, 0.0, 0.0, 0.0, u * x, u * y, u];
        let r1 = [0.0, 0.0, 0.0, -x, -y, -1.0, v * x, v * y, v];
        for c in 0..9 {
            a[(2 * k, c)] = r0[c];
            a[(2 * k + 1, c)] = r1[c];
        }
    }
    let ata = a.transpose() * &a;
    let eig = ata.symmetric_eigen();
    let (imin, _) = eig
        .eigenvalues
        .iter()
        .enumerate()
        .min_by(|a, b| a.1.total_cmp(b.1))?;
    // The second-smallest eigenvalue must be clearly non-zero, or the solution is not unique.
    let mut sorted: Vec<f64> = eig.eigenvalues.iter().map(|v| v.abs()).collect();
    sorted.sort_by(f64::total_cmp);
    if sorted[1] < 1e-12 * sorted[8].max(1e-300) {
        return None;
    }
    let h = eig.eigenvectors.column(imin);
    let m = Matrix3::new(h[0], h[1], h[2], h[3], h[4], h[5], h[6], h[7], h[8]);
    m.iter().all(|v| v.is_finite()).then_some(m)
}

/// Gauss-Newton on the image reprojection error, `h33` held at 1.
fn refine(h0: Matrix3<f64>, src: &[(f64, f64)], dst: &[(f64, f64)]) -> Matrix3<f64> {
    let to_params = |h: &Matrix3<f64>| SVector::<f64, 8>::from_iterator((0..8).map(|i| h[(i / 3, i % 3)]));
    let from_params = |p: &SVector<f64, 8>| Matrix3::new(p[0], p[1], p[2], p[3], p[4], p[5], p[6], p[7], 1.0);
    let cost = |h: &Matrix3<f64>| -> f64 {
        src.iter()
            .zip(dst)
            .map(|(&s, &(u, v))| {
                let (x, y) = apply(h, s);
                (x - u).powi(2) + (y - v).powi(2)
            })
            .sum()
    };
    let mut p = to_params(&h0);
    let mut best = cost(&h0);
    if !best.is_finite() {
        return h0;
    }
    for _ in 0..REFINE_ITERATIONS {
        let h = from_params(&p);
        let mut jtj = SMatrix::<f64, 8, 8>::zeros();
        let mut jtr = SVector::<f64, 8>::zeros();
        for (&(x, y), &(u, v)) in src.iter().zip(dst) {
            let w = h[(2, 0)] * x + h[(2, 1)] * y + 1.0;
            let px = (h[(0, 0)] * x + h[(0, 1)] * y + h[(0, 2)]) / w;
            let py = (h[(1, 0)] * x + h[(1, 1)] * y + h[(1, 2)]) / w;
            let jx =
                SVector::<f64, 8>::from([x / w, y / w, 1.0 / w, 0.0, 0.0, 0.0, -px * x / w, -px * y / w]);
            let jy =
                SVector::<f64, 8>::from([0.0, 0.0, 0.0, x / w, y / w, 1.0 / w, -py * x / w, -py * y / w]);
            jtj += jx * jx.transpose() + jy * jy.transpose();
            jtr += jx * (px - u) + jy * (py - v);
        }
        let Some(step) = jtj.lu().solve(&jtr) else {
            break;
        };
        let candidate = p - step;
        let c = cost(&from_params(&candidate));
        if !(c.is_finite() && c <= best) {
            break;
        }
        let done = (best - c) / src.len() as f64 <= REFINE_TOLERANCE_PX * REFINE_TOLERANCE_PX;
        p = candidate;
        best = c;
        if done {
            break;
        }
    }
    from_params(&p)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn truth() -> Homography {
        Homography::new(Matrix3::new(
            1.9, 0.25, 310.0, -0.08, 1.6, 140.0, 0.0002, 0.0009, 1.0,
        ))
    }

    fn grid() -> Vec<PointMm> {
        (0..24)
            .map(|i| PointMm::new(40.0 * (i % 6 + 1) as f64, 40.0 * (i / 6 + 1) as f64))
            .collect()
    }

    #[test]
    fn exact_points_give_the_exact_homography() {
        let h = truth();
        let t = grid();
        let im: Vec<PointPx> = t.iter().map(|&p| h.to_px(p).unwrap()).collect();
        let f = fit(&t, &im).unwrap();
        assert!(f.rms_px < 1e-8, "{}", f.rms_px);
        let far = PointMm::new(900.0, -400.0);
        let a = h.to_px(far).unwrap();
        let b = f.homography.to_px(far).unwrap();
        assert!(a.distance(b) < 1e-6);
    }

    #[test]
    fn four_points_of_a_box_lid() {
        let h = truth();
        let corners = [
            PointMm::new(0.0, 0.0),
            PointMm::new(245.0, 0.0),
            PointMm::new(245.0, 245.0),
            PointMm::new(0.0, 245.0),
        ];
        let px = corners.map(|c| h.to_px(c).unwrap());
        let f = four_points(px, 245.0, 245.0).unwrap();
        let p = PointMm::new(100.0, 60.0);
        assert!(f.homography.to_px(p).unwrap().distance(h.to_px(p).unwrap()) < 1e-6);
        // Out of order: corners 2 and 3 swapped make a bow-tie.
        let crossed = [px[0], px[2], px[1], px[3]];
        assert_eq!(four_points(crossed, 245.0, 245.0), Err(FitError::BadQuad));
        assert_eq!(
            four_points(px, 0.0, 245.0),
            Err(FitError::BadRectangle(0.0, 245.0))
        );
    }

    #[test]
    fn degenerate_inputs_are_refused() {
        let line: Vec<PointMm> = (0..6).map(|i| PointMm::new(i as f64 * 10.0, 0.0)).collect();
        let im: Vec<PointPx> = (0..6).map(|i| PointPx::new(i as f64, 3.0)).collect();
        assert_eq!(fit(&line, &im), Err(FitError::Degenerate));
        assert_eq!(fit(&line[..3], &im[..3]), Err(FitError::TooFewPoints(3)));
    }

    proptest! {
        #[test]
        fn noisy_corners_fit_to_their_noise(noise in proptest::collection::vec(-0.3f64..0.3, 48)) {
            let h = truth();
            let t = grid();
            let im: Vec<PointPx> = t
                .iter()
                .enumerate()
                .map(|(i, &p)| h.to_px(p).unwrap() + PointPx::new(noise[2 * i], noise[2 * i + 1]))
                .collect();
            let f = fit(&t, &im).unwrap();
            let rms_noise = (noise.iter().map(|v| v * v).sum::<f64>() / 24.0).sqrt();
            // The least-squares fit never explains the points worse than the truth does.
            prop_assert!(f.rms_px <= rms_noise + 1e-9);
            for p in &t {
                prop_assert!(f.homography.to_px(*p).unwrap().distance(h.to_px(*p).unwrap()) < 0.5);
            }
        }
    }
}
