//! Where the string lies in a frame, against the empty-table reference: a view check and a
//! re-registration that need no texture on the table (a plain cloth gives ORB nothing to match).
//!
//! A band across the string's centre line (the ocean's outline in the profile) is sampled on the
//! reference, and its *structure* kept: the points whose colour stands out from the band's table
//! colour (the string itself, the beads). For a candidate motion of the table under the camera (a
//! shift and a small turn about the ocean's centre), those points are looked up in the current
//! rectified view where that motion would have taken them; the *agreement* is the share whose
//! colour matches the reference's. Only structure counts: a motion that merely dodges the pieces
//! lying on the string puts the string's points on bare table and loses, and pieces or hands on
//! the string lower every candidate alike. The search is coarse to
//! fine: shifts alone over the whole range, then shifts and turns around the best.
//!
//! Conventions: table millimetres; the coarse rectified grid (`vision::rectify`, pixel `(i, j)`
//! shows `origin_mm + (i, j) * mm_per_px`); angles in radians, counter-clockwise in the table
//! frame; a motion maps a true table point `p` to where the current profile sees it,
//! `c + Rot(angle) (p - c) + shift`, `c` the ocean's centroid.

use crate::calibrate::rectify::RectifyGrid;
use crate::table::{PointMm, PolygonMm};
use nalgebra::Matrix3;
use opencv::core::{Mat, Vec3b};
use opencv::prelude::*;

/// Band half-width across the string, mm.
const BAND_HALF_WIDTH_MM: f64 = 8.0;
/// Spacing of the band's samples along and across the string, mm.
const BAND_STEP_MM: f64 = 2.0;
/// Largest shift searched, mm (a bumped camera or table).
const MAX_SHIFT_MM: f64 = 40.0;
/// Largest turn searched, degrees.
const MAX_TURN_DEG: f64 = 2.0;
/// Turn step of the fine search, degrees.
const TURN_STEP_DEG: f64 = 0.5;
/// The whole-range shift search uses every this-many-th band point, at twice the grid's step.
const COARSE_SEARCH_STRIDE: usize = 3;
/// A point agrees when every channel is within this of the reference's (after the brightness of
/// the band is matched).
const AGREE_LEVELS: f64 = 22.0;
/// A reference point is structure when a channel differs from the band's median (table) colour by
/// more than this.
const STRUCTURE_LEVELS: f64 = 30.0;
/// Fewer band points than this (a tiny or unknown ocean) and nothing is concluded.
const MIN_BAND_POINTS: usize = 200;
/// The best motion must agree on at least this share of the band to be believed...
pub const MIN_AGREEMENT: f64 = 0.55;
/// ...and beat the unmoved view by at least this share to say the view moved.
pub const MIN_GAIN: f64 = 0.15;
/// A string this little of which agrees where the profile puts it is clearly out of place...
pub const OUT_OF_PLACE_UNMOVED: f64 = 0.25;
/// ...and then a motion agreeing on this share suffices: a real bump tilts the view too, which
/// a shift and a turn explain only in part (a 1.5 degree bump: 0.45 to 0.55).
pub const MIN_AGREEMENT_OUT_OF_PLACE: f64 = 0.35;

/// The band across the string, sampled on the reference.
#[derive(Debug, Clone)]
pub struct StringBand {
    points_mm: Vec<PointMm>,
    reference_bgr: Vec<[f64; 3]>,
    centre_mm: PointMm,
    grid: RectifyGrid,
}

/// What the search found.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct StringFit {
    pub shift_mm: PointMm,
    pub turn_rad: f64,
    /// Agreement of the best motion, and of no motion at all (0..1).
    pub agreement: f64,
    pub agreement_unmoved: f64,
    /// How far the band moved, median over its points, mm.
    pub moved_mm: f64,
}

impl StringFit {
    /// Whether the string is clearly somewhere else than the profile says.
    pub fn moved(&self, threshold_mm: f64) -> bool {
        self.believed() && self.agreement - self.agreement_unmoved >= MIN_GAIN && self.moved_mm > threshold_mm
    }

    /// Whether the best motion explains the view well enough to be taken as the table's motion
    /// (a start for the dense alignment; on its own only when [`Self::certain`]).
    pub fn believed(&self) -> bool {
        self.certain()
            || (self.agreement_unmoved < OUT_OF_PLACE_UNMOVED && self.agreement >= MIN_AGREEMENT_OUT_OF_PLACE)
    }

    /// Whether the best motion explains most of the string.
    pub fn certain(&self) -> bool {
        self.agreement >= MIN_AGREEMENT
    }

    /// Whether the string is clearly where the profile says.
    pub fn in_place(&self, threshold_mm: f64) -> bool {
        self.agreement_unmoved >= MIN_AGREEMENT
            && (self.moved_mm <= threshold_mm / 2.0
                || self.agreement - self.agreement_unmoved < MIN_GAIN / 2.0)
    }

    /// The correction from where the current profile puts table points to where they are (for
    /// `register::corrected_profile`): the inverse of the motion.
    pub fn correction_mm(&self, centre: PointMm) -> Matrix3<f64> {
        let (s, c) = self.turn_rad.sin_cos();
        // motion: x = C + R (p - C) + d  =>  p = C + R^T (x - C - d)
        let rt = Matrix3::new(c, s, 0.0, -s, c, 0.0, 0.0, 0.0, 1.0);
        let to_origin = Matrix3::new(
            1.0,
            0.0,
            -centre.x - self.shift_mm.x,
            0.0,
            1.0,
            -centre.y - self.shift_mm.y,
            0.0,
            0.0,
            1.0,
        );
        let back = Matrix3::new(1.0, 0.0, centre.x, 0.0, 1.0, centre.y, 0.0, 0.0, 1.0);
        back * rt * to_origin
    }
}

fn colour_at(view: &Mat, grid: &RectifyGrid, p: PointMm) -> Option<[f64; 3]> {
    let px = grid.mm_to_px(p);
    let (x, y) = (px.x.round() as i32, px.y.round() as i32);
    if x < 0 || y < 0 || x >= view.cols() || y >= view.rows() {
        return None;
    }
    let v = view.at_2d::<Vec3b>(y, x).ok()?;
    Some([f64::from(v[0]), f64::from(v[1]), f64::from(v[2])])
}

fn grey(c: [f64; 3]) -> f64 {
    (c[0] + c[1] + c[2]) / 3.0
}

fn median(mut v: Vec<f64>) -> Option<f64> {
    if v.is_empty() {
        return None;
    }
    let mid = v.len() / 2;
    let (_, m, _) = v.select_nth_unstable_by(mid, f64::total_cmp);
    Some(*m)
}

impl StringBand {
    /// Samples the band on `reference` (a view on `grid`); `None` without an ocean or band.
    pub fn new(ocean: &PolygonMm, grid: RectifyGrid, reference: &Mat) -> Option<Self> {
        if ocean.len() < 3 {
            return None;
        }
        let mut points_mm = Vec::new();
        let mut reference_bgr = Vec::new();
        let steps_across = (BAND_HALF_WIDTH_MM / BAND_STEP_MM).round() as i32;
        for (a, b) in ocean.edges() {
            let len = a.distance(b);
            if len <= 0.0 {
                continue;
            }
            let dir = (b - a) * (1.0 / len);
            let normal = PointMm::new(-dir.y, dir.x);
            let n = (len / BAND_STEP_MM).floor() as i32;
            for i in 0..n {
                let on = a + dir * (f64::from(i) * BAND_STEP_MM);
                for k in -steps_across..=steps_across {
                    let p = on + normal * (f64::from(k) * BAND_STEP_MM);
                    if let Some(c) = colour_at(reference, &grid, p) {
                        points_mm.push(p);
                        reference_bgr.push(c);
                    }
                }
            }
        }
        // Keep the structure: points standing out from the band's table colour.
        let table: Vec<f64> = (0..3)
            .map(|k| median(reference_bgr.iter().map(|c| c[k]).collect()).unwrap_or(0.0))
            .collect();
        let keep: Vec<bool> = reference_bgr
            .iter()
            .map(|c| (0..3).any(|k| (c[k] - table[k]).abs() > STRUCTURE_LEVELS))
            .collect();
        let points_mm: Vec<PointMm> = points_mm
            .iter()
            .zip(&keep)
            .filter(|(_, k)| **k)
            .map(|(p, _)| *p)
            .collect();
        let reference_bgr: Vec<[f64; 3]> = reference_bgr
            .iter()
            .zip(&keep)
            .filter(|(_, k)| **k)
            .map(|(c, _)| *c)
            .collect();
        (points_mm.len() >= MIN_BAND_POINTS).then(|| Self {
            points_mm,
            reference_bgr,
            centre_mm: ocean.centroid(),
            grid,
        })
    }

    pub fn centre_mm(&self) -> PointMm {
        self.centre_mm
    }

    /// Agreement of the band (every `stride`-th point) with `view` under a motion, with the
    /// band's brightness matched by `scale`.
    fn agreement(&self, view: &Mat, shift: PointMm, turn: f64, scale: f64, stride: usize) -> f64 {
        let (s, c) = turn.sin_cos();
        let mut agree = 0usize;
        let mut seen = 0usize;
        let total = self.points_mm.len().div_ceil(stride);
        for (p, r) in self.points_mm.iter().zip(&self.reference_bgr).step_by(stride) {
            let q = *p - self.centre_mm;
            let moved = PointMm::new(c * q.x - s * q.y, s * q.x + c * q.y) + self.centre_mm + shift;
            if let Some(g) = colour_at(view, &self.grid, moved) {
                seen += 1;
                if (0..3).all(|k| (g[k] * scale - r[k]).abs() <= AGREE_LEVELS) {
                    agree += 1;
                }
            }
        }
        if seen * 2 < total {
            return 0.0;
        }
        agree as f64 / seen as f64
    }

    /// The motion of the table that best explains `view` (the coarse rectified frame).
    pub fn fit(&self, view: &Mat) -> Option<StringFit> {
        // Match the band's brightness (a lighting change must not read as a move).
        let ratios: Vec<f64> = self
            .points_mm
            .iter()
            .zip(&self.reference_bgr)
            .filter_map(|(p, r)| {
                colour_at(view, &self.grid, *p)
                    .map(grey)
                    .filter(|g| *g > 8.0)
                    .map(|g| grey(*r) / g)
            })
            .collect();
        if ratios.len() < MIN_BAND_POINTS {
            return None;
        }
        let scale = median(ratios)?;
        let unmoved = self.agreement(view, PointMm::new(0.0, 0.0), 0.0, scale, 1);
        // Whole range, shifts only, at twice the grid's step on a subsample of the band.
        let step = self.grid.mm_per_px * 2.0;
        let n = (MAX_SHIFT_MM / step).ceil() as i32;
        let mut coarse = (0.0, PointMm::new(0.0, 0.0));
        for j in -n..=n {
            for i in -n..=n {
                let d = PointMm::new(f64::from(i) * step, f64::from(j) * step);
                let a = self.agreement(view, d, 0.0, scale, COARSE_SEARCH_STRIDE);
                if a > coarse.0 {
                    coarse = (a, d);
                }
            }
        }
        // Around the best: shifts at half the grid's step and turns, on the whole band.
        let mut best = (unmoved, PointMm::new(0.0, 0.0), 0.0);
        let fine = self.grid.mm_per_px / 2.0;
        let turns = (MAX_TURN_DEG / TURN_STEP_DEG).round() as i32;
        for t in -turns..=turns {
            let turn = (f64::from(t) * TURN_STEP_DEG).to_radians();
            for j in -2..=2 {
                for i in -2..=2 {
                    let d = coarse.1 + PointMm::new(f64::from(i) * fine, f64::from(j) * fine);
                    let a = self.agreement(view, d, turn, scale, 1);
                    if a > best.0 {
                        best = (a, d, turn);
                    }
                }
            }
        }
        let (agreement, shift_mm, turn_rad) = best;
        let (s, c) = turn_rad.sin_cos();
        let mut moved: Vec<f64> = self
            .points_mm
            .iter()
            .map(|p| {
                let q = *p - self.centre_mm;
                let m = PointMm::new(c * q.x - s * q.y, s * q.x + c * q.y) + self.centre_mm + shift_mm;
                m.distance(*p)
            })
            .collect();
        let moved_mm = median(std::mem::take(&mut moved))?;
        Some(StringFit {
            shift_mm,
            turn_rad,
            agreement,
            agreement_unmoved: unmoved,
            moved_mm,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_string_far_out_of_place_needs_less_agreement_to_say_moved() {
        let fit = |agreement, agreement_unmoved| StringFit {
            shift_mm: PointMm::new(3.0, -21.0),
            turn_rad: 0.0,
            agreement,
            agreement_unmoved,
            moved_mm: 21.0,
        };
        // A bump with a tilt: the best shift explains under half of the string, none in place.
        assert!(fit(0.46, 0.04).moved(6.0));
        // The same partial fit while most of the string is still in place: not a move.
        assert!(!fit(0.46, 0.40).moved(6.0));
        // Nothing explains the view (a cast over everything): not a move.
        assert!(!fit(0.2, 0.02).moved(6.0));
        assert!(fit(0.8, 0.1).moved(6.0));
        assert!(!fit(0.8, 0.1).moved(30.0));
    }

    #[test]
    fn the_correction_undoes_the_motion() {
        let fit = StringFit {
            shift_mm: PointMm::new(5.0, -3.0),
            turn_rad: 0.02,
            agreement: 1.0,
            agreement_unmoved: 0.0,
            moved_mm: 6.0,
        };
        let c = PointMm::new(100.0, 50.0);
        let p = PointMm::new(180.0, 20.0);
        let (s, co) = fit.turn_rad.sin_cos();
        let q = p - c;
        let x = PointMm::new(co * q.x - s * q.y, s * q.x + co * q.y) + c + fit.shift_mm;
        let m = fit.correction_mm(c);
        let v = m * nalgebra::Vector3::new(x.x, x.y, 1.0);
        assert!(
            (v.x / v.z - p.x).abs() < 1e-9 && (v.y / v.z - p.y).abs() < 1e-9,
            "{v:?}"
        );
    }
}
