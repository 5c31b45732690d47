//! The ocean: the string loop found in the empty set-up capture, as its centre line in mm.
//!
//! Conventions: works on a table-plane rectified view (`rectify.rs`: pixel `(i, j)` shows table
//! point `origin + (i, j) * mm_per_px`). The cord's centre is [`STRING_CENTRE_HEIGHT_MM`] above
//! the table; with a camera pose the found centre line is moved from where the table-plane view
//! shows it to where the cord really lies (parallax). The returned polygon's vertex order is
//! whatever the contour gave; `counter.rs` reorients it to run from the counter's start.
//!
//! How: blue pixels (string and blue beads, judged after white balance) are grown by half the
//! longest gap to bridge ([`GAP_BRIDGE_MM`]: black beads, the crab, something lying across) so
//! the loop closes into a ring; the ring's hole is grown back by the same amount, which gives a
//! closed curve hugging the cord's inner edge (and arcs across the gaps). Along that curve's
//! normals the blue cross-section's centroid is the cord's centre; where no blue is seen (the
//! gaps) the line runs straight between the nearest centres seen. Finally the line is lightly
//! smoothed and resampled at [`VERTEX_SPACING_MM`].

use super::colour::{self, WhiteBalance};
use super::curve::{self, ClosedCurve};
use super::profile::Profile;
use super::rectify::Rectified;
use crate::table::{OceanReport, PointMm, PointPx, PolygonMm};
use opencv::core::{self, Mat, Point, Scalar, Vector};
use opencv::imgproc;
use opencv::prelude::*;

/// Gaps in the seen cord up to this long are bridged: black beads (up to seven in a row), the
/// crab, something lying across the string.
pub const GAP_BRIDGE_MM: f64 = 80.0;
/// Height of the cord's centre above the table (the cord is 4 mm thick).
pub const STRING_CENTRE_HEIGHT_MM: f64 = 2.0;
/// A blue cross-section this many times wider than the cord around it is a blue bead (10 mm
/// against 4 mm; both look wider where the camera sees the table at a slant).
const BEAD_WIDTH_RATIO: f64 = 1.7;
/// The cord's own apparent width is the median over this much string either side (more than
/// the 170 mm the beads take).
const CORD_WIDTH_WINDOW_MM: f64 = 300.0;
/// A bead's centre above the table (10 mm beads).
const BEAD_CENTRE_HEIGHT_MM: f64 = 5.0;
/// Spacing of the ocean polygon's vertices.
pub const VERTEX_SPACING_MM: f64 = 10.0;
/// Blue blobs smaller than this are table texture or noise, not string.
const MIN_BLUE_BLOB_MM2: f64 = 12.0;
/// A closed loop enclosing less than this is not the ocean (the string is about 2.4 m long).
pub const MIN_OCEAN_AREA_MM2: f64 = 50_000.0;
/// Along each normal of the inner-edge curve, the cord's centre is searched from this far inside
/// to this far outside.
const SEARCH_INSIDE_MM: f64 = 6.0;
const SEARCH_OUTSIDE_MM: f64 = 16.0;
const SEARCH_STEP_MM: f64 = 0.5;
/// Arc step along the inner-edge curve for the centre search.
const PROBE_STEP_MM: f64 = 2.0;
/// At least this much blue across a normal counts as having seen the cord there.
const MIN_CORD_WIDTH_MM: f64 = 1.5;
/// Moving-average half window (in probe steps) applied to the centre line.
const SMOOTH_HALF_WINDOW: usize = 2;
/// The centre line must stay this far inside the camera's view.
const VIEW_MARGIN_MM: f64 = 10.0;

/// The string loop could not be found.
#[derive(Debug, thiserror::Error)]
pub enum OceanError {
    #[error(
        "no closed string loop found in the empty set-up capture (blue string pixels seen: {blue_mm2:.0} mm2): lay the blue string as a closed loop fully in view, with no gap longer than {GAP_BRIDGE_MM} mm"
    )]
    NoLoop { blue_mm2: f64 },
    #[error(
        "the string loop reaches the edge of the camera's view near ({x:.0}, {y:.0}) mm: move the camera up or the loop inwards so the whole ocean is in view with a margin"
    )]
    OutOfView { x: f64, y: f64 },
    #[error("OpenCV: {0}")]
    OpenCv(#[from] opencv::Error),
}

/// The ocean as found, with how much of the string was actually seen.
#[derive(Debug, Clone, PartialEq)]
pub struct OceanFit {
    /// The cord's centre line, closed, about [`VERTEX_SPACING_MM`] between vertices.
    pub polygon_mm: PolygonMm,
    pub perimeter_mm: f64,
    pub area_mm2: f64,
    /// Fraction of the loop's length where the cord itself was seen (the rest was bridged).
    pub seen_fraction: f64,
    /// The longest stretch bridged without seeing the cord.
    pub longest_gap_mm: f64,
}

impl OceanFit {
    pub fn report(&self) -> OceanReport {
        OceanReport::new(self.polygon_mm.clone())
    }
}

/// Per-pixel blueness of a BGR image (f32), 0 where `valid` is 0.
pub fn blueness_image(image: &Mat, valid: &Mat, wb: &WhiteBalance) -> Result<Mat, OceanError> {
    let mut out =
        Mat::new_rows_cols_with_default(image.rows(), image.cols(), core::CV_32FC1, Scalar::all(0.0))?;
    for y in 0..image.rows() {
        let src = image.at_row::<core::Vec3b>(y)?;
        let ok = valid.at_row::<u8>(y)?;
        let dst = out.at_row_mut::<f32>(y)?;
        for x in 0..src.len() {
            if ok[x] != 0 {
                let p = src[x];
                dst[x] = wb.blueness([p[0] as f64, p[1] as f64, p[2] as f64]) as f32;
            }
        }
    }
    Ok(out)
}

/// Finds the string loop in a table-plane rectified view of the empty set-up.
pub fn find_ocean(
    view: &Rectified,
    valid: &Mat,
    wb: &WhiteBalance,
    profile: &Profile,
) -> Result<OceanFit, OceanError> {
    let mmpp = view.grid.mm_per_px;
    let score = blueness_image(&view.image, valid, wb)?;
    let mut mask = Mat::default();
    imgproc::threshold(&score, &mut mask, colour::BLUE_MIN, 255.0, imgproc::THRESH_BINARY)?;
    let mut mask8 = Mat::default();
    mask.convert_to(&mut mask8, core::CV_8U, 1.0, 0.0)?;
    let mask8 = drop_small_blobs(&mask8, MIN_BLUE_BLOB_MM2 / (mmpp * mmpp))?;
    let blue_mm2 = core::count_non_zero(&mask8)? as f64 * mmpp * mmpp;

    let grow_px = GAP_BRIDGE_MM / 2.0 / mmpp;
    let ring = grow(&mask8, grow_px)?;
    let hole = largest_hole(&ring)?.ok_or(OceanError::NoLoop { blue_mm2 })?;
    if imgproc::contour_area(&hole, false)? * mmpp * mmpp < MIN_OCEAN_AREA_MM2 {
        return Err(OceanError::NoLoop { blue_mm2 });
    }
    let mut hole_mask =
        Mat::new_rows_cols_with_default(ring.rows(), ring.cols(), core::CV_8UC1, Scalar::all(0.0))?;
    let mut polys: Vector<Vector<Point>> = Vector::new();
    polys.push(hole);
    imgproc::fill_poly_def(&mut hole_mask, &polys, Scalar::all(255.0))?;
    let inner = grow(&hole_mask, grow_px)?;
    let inner_edge = largest_outer_contour(&inner)?.ok_or(OceanError::NoLoop { blue_mm2 })?;
    let inner_pts: Vec<PointMm> = inner_edge
        .iter()
        .map(|p| PointMm::new(p.x as f64, p.y as f64))
        .collect();
    // The inner-edge curve in rectified pixels; normals must point out of the ocean.
    let mut edge = ClosedCurve::new(&inner_pts).ok_or(OceanError::NoLoop { blue_mm2 })?;
    if edge.signed_area() > 0.0 {
        edge = edge.reversed();
    }
    // Now the vertex order turns from +x towards -y in pixel (x, y) terms, so the left normal
    // points outwards.

    let step_px = PROBE_STEP_MM / mmpp;
    let n_probe = ((edge.perimeter() / step_px).round() as usize).max(8);
    let mut centres: Vec<Option<CrossSection>> = Vec::with_capacity(n_probe);
    for k in 0..n_probe {
        let s = edge.perimeter() * k as f64 / n_probe as f64;
        let q = edge.point_at(s);
        let n = edge.normal_at(s, 3.0 * step_px);
        centres.push(cord_centre(&score, q, n, mmpp));
    }
    let seen = centres.iter().filter(|c| c.is_some()).count();
    if seen < 8 {
        return Err(OceanError::NoLoop { blue_mm2 });
    }
    let longest_gap_mm = longest_missing_run(&centres) as f64 * PROBE_STEP_MM;

    let cord_width = local_median_width(&centres, (CORD_WIDTH_WINDOW_MM / PROBE_STEP_MM) as usize);
    let apparent: Vec<(PointMm, bool)> = centres
        .iter()
        .zip(&cord_width)
        .filter_map(|(c, w)| {
            let c = c.as_ref()?;
            Some((view.grid.px_to_mm(c.centre), c.width_mm >= BEAD_WIDTH_RATIO * w))
        })
        .collect();
    for (p, _) in &apparent {
        if !inside_view(view, valid, *p, VIEW_MARGIN_MM) {
            return Err(OceanError::OutOfView { x: p.x, y: p.y });
        }
    }
    // A cross-section much wider than the cord around it is a blue bead, whose centre is higher.
    let lifted: Vec<PointMm> = apparent
        .iter()
        .map(|&(p, bead)| {
            let h = if bead {
                BEAD_CENTRE_HEIGHT_MM
            } else {
                STRING_CENTRE_HEIGHT_MM
            };
            lift(profile, p, h)
        })
        .collect();
    let smoothed = curve::smooth_closed(&lifted, SMOOTH_HALF_WINDOW);
    let line = ClosedCurve::new(&smoothed).ok_or(OceanError::NoLoop { blue_mm2 })?;
    let polygon_mm = PolygonMm::new(line.resampled(VERTEX_SPACING_MM));
    Ok(OceanFit {
        perimeter_mm: polygon_mm.perimeter(),
        area_mm2: polygon_mm.area(),
        polygon_mm,
        seen_fraction: seen as f64 / n_probe as f64,
        longest_gap_mm,
    })
}

/// The table point under something `height_mm` up seen at apparent table point `p` (parallax
/// removed); `p` itself without a camera pose.
fn lift(profile: &Profile, p: PointMm, height_mm: f64) -> PointMm {
    let Some(cam) = &profile.camera else {
        return p;
    };
    profile
        .mm_to_px(p)
        .and_then(|px| cam.unproject_at_height(px, height_mm))
        .unwrap_or(p)
}

fn inside_view(view: &Rectified, valid: &Mat, p: PointMm, margin_mm: f64) -> bool {
    let offsets = [(0.0, 0.0), (1.0, 0.0), (-1.0, 0.0), (0.0, 1.0), (0.0, -1.0)];
    offsets.iter().all(|(dx, dy)| {
        let q = view
            .grid
            .mm_to_px(PointMm::new(p.x + dx * margin_mm, p.y + dy * margin_mm));
        let (x, y) = (q.x.round() as i32, q.y.round() as i32);
        x >= 0
            && y >= 0
            && x < valid.cols()
            && y < valid.rows()
            && valid.at_2d::<u8>(y, x).map(|v| *v != 0).unwrap_or(false)
    })
}

/// Where the cord's centre was seen across one normal, and how wide the blue was there.
#[derive(Debug, Clone, Copy)]
struct CrossSection {
    centre: PointPx,
    width_mm: f64,
}

/// The centroid of the first blue run along the normal from `q` (rectified px), or `None` when
/// no cord is seen there.
fn cord_centre(score: &Mat, q: PointMm, n: PointMm, mmpp: f64) -> Option<CrossSection> {
    let steps = ((SEARCH_INSIDE_MM + SEARCH_OUTSIDE_MM) / SEARCH_STEP_MM) as usize;
    let mut runs: Vec<(f64, f64, f64)> = Vec::new(); // (sum w, sum w t, width mm)
    let mut current: Option<(f64, f64, f64)> = None;
    for k in 0..=steps {
        let t_mm = -SEARCH_INSIDE_MM + k as f64 * SEARCH_STEP_MM;
        let t = t_mm / mmpp;
        let s = sample_f32(score, q.x + n.x * t, q.y + n.y * t).unwrap_or(0.0);
        if s > colour::BLUE_MIN {
            // Every blue sample counts the same: weighting by blueness would pull the centre
            // towards the cord's lit side.
            let w = 1.0;
            let c = current.get_or_insert((0.0, 0.0, 0.0));
            c.0 += w;
            c.1 += w * t;
            c.2 += SEARCH_STEP_MM;
        } else if let Some(c) = current.take() {
            runs.push(c);
        }
    }
    if let Some(c) = current.take() {
        runs.push(c);
    }
    let (w, wt, width_mm) = runs.into_iter().find(|r| r.2 >= MIN_CORD_WIDTH_MM)?;
    let t = wt / w;
    Some(CrossSection {
        centre: PointPx::new(q.x + n.x * t, q.y + n.y * t),
        width_mm,
    })
}

fn sample_f32(img: &Mat, x: f64, y: f64) -> Option<f64> {
    let (w, h) = (img.cols(), img.rows());
    if !(x >= 0.0 && y >= 0.0 && x <= (w - 1) as f64 && y <= (h - 1) as f64) {
        return None;
    }
    let (x0, y0) = (x.floor() as i32, y.floor() as i32);
    let (x1, y1) = ((x0 + 1).min(w - 1), (y0 + 1).min(h - 1));
    let (fx, fy) = (x - x0 as f64, y - y0 as f64);
    let at = |xx: i32, yy: i32| img.at_2d::<f32>(yy, xx).ok().map(|v| *v as f64);
    let top = at(x0, y0)? * (1.0 - fx) + at(x1, y0)? * fx;
    let bottom = at(x0, y1)? * (1.0 - fx) + at(x1, y1)? * fx;
    Some(top * (1.0 - fy) + bottom * fy)
}

/// For each probe, the median blue width over the probes within `half` either side (circular),
/// ignoring probes where no cord was seen.
fn local_median_width(sections: &[Option<CrossSection>], half: usize) -> Vec<f64> {
    let n = sections.len();
    let half = half.min(n / 2);
    (0..n)
        .map(|i| {
            let mut w: Vec<f64> = (0..=2 * half)
                .filter_map(|d| sections[(i + n + d - half) % n].map(|c| c.width_mm))
                .collect();
            if w.is_empty() {
                return f64::INFINITY;
            }
            let mid = w.len() / 2;
            let (_, m, _) = w.select_nth_unstable_by(mid, f64::total_cmp);
            *m
        })
        .collect()
}

/// The longest circular run of `None`s.
fn longest_missing_run<T>(v: &[Option<T>]) -> usize {
    let n = v.len();
    if v.iter().all(|c| c.is_none()) {
        return n;
    }
    let mut best = 0;
    let mut run = 0;
    for k in 0..2 * n {
        if v[k % n].is_none() {
            run += 1;
            best = best.max(run.min(n));
        } else {
            run = 0;
        }
    }
    best
}

/// Pixels within `radius_px` of the mask (an 8-bit 0/255 mask).
fn grow(mask: &Mat, radius_px: f64) -> Result<Mat, OceanError> {
    let mut inverted = Mat::default();
    core::bitwise_not_def(mask, &mut inverted)?;
    let mut dist = Mat::default();
    imgproc::distance_transform(
        &inverted,
        &mut dist,
        imgproc::DIST_L2,
        imgproc::DIST_MASK_PRECISE,
        core::CV_32F,
    )?;
    let mut grown = Mat::default();
    imgproc::threshold(&dist, &mut grown, radius_px, 255.0, imgproc::THRESH_BINARY_INV)?;
    let mut out = Mat::default();
    grown.convert_to(&mut out, core::CV_8U, 1.0, 0.0)?;
    Ok(out)
}

fn drop_small_blobs(mask: &Mat, min_px: f64) -> Result<Mat, OceanError> {
    let mut labels = Mat::default();
    let mut stats = Mat::default();
    let mut centroids = Mat::default();
    let n = imgproc::connected_components_with_stats(
        mask,
        &mut labels,
        &mut stats,
        &mut centroids,
        8,
        core::CV_32S,
    )?;
    let mut keep = vec![false; n.max(0) as usize];
    for (l, k) in keep.iter_mut().enumerate().skip(1) {
        let area = *stats.at_2d::<i32>(l as i32, imgproc::CC_STAT_AREA)?;
        *k = area as f64 >= min_px;
    }
    let mut out = Mat::new_rows_cols_with_default(mask.rows(), mask.cols(), core::CV_8UC1, Scalar::all(0.0))?;
    for y in 0..mask.rows() {
        let lab = labels.at_row::<i32>(y)?.to_vec();
        let dst = out.at_row_mut::<u8>(y)?;
        for (x, l) in lab.iter().enumerate() {
            if *l > 0 && keep.get(*l as usize).copied().unwrap_or(false) {
                dst[x] = 255;
            }
        }
    }
    Ok(out)
}

/// The largest hole (inner contour) of a mask, if any.
fn largest_hole(mask: &Mat) -> Result<Option<Vector<Point>>, OceanError> {
    let mut contours: Vector<Vector<Point>> = Vector::new();
    let mut hierarchy: Vector<core::Vec4i> = Vector::new();
    imgproc::find_contours_with_hierarchy(
        mask,
        &mut contours,
        &mut hierarchy,
        imgproc::RETR_CCOMP,
        imgproc::CHAIN_APPROX_NONE,
        Point::new(0, 0),
    )?;
    let mut best: Option<(f64, Vector<Point>)> = None;
    for (i, c) in contours.iter().enumerate() {
        let parent = hierarchy.get(i)?[3];
        if parent < 0 {
            continue;
        }
        let a = imgproc::contour_area(&c, false)?;
        if best.as_ref().is_none_or(|(b, _)| a > *b) {
            best = Some((a, c));
        }
    }
    Ok(best.map(|(_, c)| c))
}

fn largest_outer_contour(mask: &Mat) -> Result<Option<Vector<Point>>, OceanError> {
    let mut contours: Vector<Vector<Point>> = Vector::new();
    imgproc::find_contours(
        mask,
        &mut contours,
        imgproc::RETR_EXTERNAL,
        imgproc::CHAIN_APPROX_NONE,
        Point::new(0, 0),
    )?;
    let mut best: Option<(f64, Vector<Point>)> = None;
    for c in contours.iter() {
        let a = imgproc::contour_area(&c, false)?;
        if best.as_ref().is_none_or(|(b, _)| a > *b) {
            best = Some((a, c));
        }
    }
    Ok(best.map(|(_, c)| c))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn missing_runs_wrap_around() {
        let v = [None, Some(1), Some(2), None, None, Some(3), None, None];
        assert_eq!(longest_missing_run(&v), 3);
        let all: [Option<u8>; 4] = [None; 4];
        assert_eq!(longest_missing_run(&all), 4);
    }
}
