//! Has the light on the table changed? The table's pixels in a frame are compared with the
//! empty-table reference the referee currently works with: per channel, the median over the
//! table of frame / reference. Pieces and a hand cover a minority of the table, so the median is
//! the light itself: 1.0 everywhere means the calibration's light; 1.5 a lamp switched on; a
//! channel apart from the others a colour cast.
//!
//! [`LightMonitor`] turns the per-frame gains into a state: normal, or *changed* from the first
//! frame off by more than the thresholds until [`LiveConfig::light_stable_frames`] frames agree
//! with each other again. Then the light is either back (nothing to do) or new: the monitor asks
//! for the reference to be relit by the new gains ([`relit_reference`]), which is the white
//! balance adapting, and rulings resume.
//!
//! Conventions: images BGR 8-bit; gains in B, G, R order; both views on the same grid (the
//! rectified table, see `vision::rectify`).

use super::config::LiveConfig;
use opencv::core::{self, Mat, Vec3b};
use opencv::prelude::*;
use std::collections::VecDeque;

/// Every this-many-th pixel of every this-many-th row is sampled.
const SAMPLE_STEP: usize = 3;
/// Reference pixels darker than this (any channel) say little about the light (ratio noise).
const MIN_REFERENCE_LEVEL: u8 = 24;
/// Fewer usable samples than this and no gain is measured.
const MIN_SAMPLES: usize = 200;

/// The light of a frame relative to the reference, per channel (B, G, R).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LightGains {
    pub bgr: [f64; 3],
}

impl LightGains {
    pub const UNIT: LightGains = LightGains { bgr: [1.0, 1.0, 1.0] };

    /// The mean gain over the channels (brightness).
    pub fn brightness(&self) -> f64 {
        self.bgr.iter().sum::<f64>() / 3.0
    }

    /// The largest share by which a channel departs from the mean gain (colour cast).
    pub fn cast(&self) -> f64 {
        let m = self.brightness();
        if m <= 0.0 {
            return 0.0;
        }
        self.bgr.iter().map(|g| (g / m - 1.0).abs()).fold(0.0, f64::max)
    }

    /// The largest relative difference between two measurements, over the channels.
    pub fn distance(&self, other: &LightGains) -> f64 {
        (0..3)
            .map(|c| (self.bgr[c] / other.bgr[c].max(1e-6) - 1.0).abs())
            .fold(0.0, f64::max)
    }

    fn mean(all: &[LightGains]) -> LightGains {
        let n = all.len().max(1) as f64;
        let mut bgr = [0.0; 3];
        for g in all {
            for (sum, v) in bgr.iter_mut().zip(g.bgr) {
                *sum += v / n;
            }
        }
        LightGains { bgr }
    }
}

/// Measures a view's gains against the reference over `mask` (non-zero = table). All three must
/// be the same size; `None` when too few table pixels are usable.
pub fn measure_gains(view: &Mat, reference: &Mat, mask: &Mat) -> Option<LightGains> {
    if view.rows() != reference.rows() || view.cols() != reference.cols() {
        return None;
    }
    let mut ratios: [Vec<f32>; 3] = [Vec::new(), Vec::new(), Vec::new()];
    for y in (0..view.rows()).step_by(SAMPLE_STEP) {
        let (Ok(f), Ok(r), Ok(m)) = (
            view.at_row::<Vec3b>(y),
            reference.at_row::<Vec3b>(y),
            mask.at_row::<u8>(y),
        ) else {
            return None;
        };
        for x in (0..f.len().min(r.len()).min(m.len())).step_by(SAMPLE_STEP) {
            if m[x] == 0 || (0..3).any(|c| r[x][c] < MIN_REFERENCE_LEVEL) {
                continue;
            }
            for c in 0..3 {
                ratios[c].push(f32::from(f[x][c]) / f32::from(r[x][c]));
            }
        }
    }
    if ratios[0].len() < MIN_SAMPLES {
        return None;
    }
    let mut bgr = [1.0; 3];
    for c in 0..3 {
        let v = &mut ratios[c];
        let mid = v.len() / 2;
        let (_, m, _) = v.select_nth_unstable_by(mid, f32::total_cmp);
        bgr[c] = f64::from(*m);
    }
    Some(LightGains { bgr })
}

/// The reference as it would look under light `gains` (each channel multiplied, saturating).
pub fn relit_reference(reference: &Mat, gains: &LightGains) -> Result<Mat, opencv::Error> {
    let mut out = reference.try_clone()?;
    for y in 0..out.rows() {
        for p in out.at_row_mut::<Vec3b>(y)? {
            for c in 0..3 {
                p[c] = (f64::from(p[c]) * gains.bgr[c]).round().clamp(0.0, 255.0) as u8;
            }
        }
    }
    Ok(out)
}

/// The subsampled pixels of `image` on a coarse grid (every `step`-th pixel of every `step`-th
/// row), as the coarse rectified view samples the fine grid.
pub fn subsample(image: &Mat, step: i32, rows: i32, cols: i32) -> Result<Mat, opencv::Error> {
    let mut out = Mat::new_rows_cols_with_default(rows, cols, image.typ(), core::Scalar::all(0.0))?;
    let step = step.max(1);
    for j in 0..rows.min((image.rows() + step - 1) / step) {
        let src = image.at_row::<Vec3b>(j * step)?;
        let dst = out.at_row_mut::<Vec3b>(j)?;
        for (i, d) in dst.iter_mut().enumerate() {
            if let Some(s) = src.get(i * step as usize) {
                *d = *s;
            }
        }
    }
    Ok(out)
}

/// What the monitor concluded from one frame.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LightStep {
    /// The light is off from the reference's, or not yet stable: rulings must wait.
    pub changed: bool,
    /// The light is stable at a new level: relight the reference by these gains.
    pub adapt: Option<LightGains>,
}

/// Follows the light from frame to frame; see the module docs.
#[derive(Debug, Clone, Default)]
pub struct LightMonitor {
    changed: bool,
    recent: VecDeque<LightGains>,
}

impl LightMonitor {
    /// Forgets the history (after the reference was relit or replaced).
    pub fn reset(&mut self) {
        self.changed = false;
        self.recent.clear();
    }

    pub fn is_changed(&self) -> bool {
        self.changed
    }

    /// Takes one frame's gains against the current reference.
    pub fn update(&mut self, gains: LightGains, config: &LiveConfig) -> LightStep {
        let off = (gains.brightness() - 1.0).abs() > config.light_change_brightness
            || gains.cast() > config.light_change_cast;
        if !self.changed && !off {
            return LightStep {
                changed: false,
                adapt: None,
            };
        }
        self.changed = true;
        let need = config.light_stable_frames as usize;
        if self.recent.len() == need {
            self.recent.pop_front();
        }
        self.recent.push_back(gains);
        let all: Vec<LightGains> = self.recent.iter().copied().collect();
        let stable = all.len() == need
            && all
                .iter()
                .all(|a| all.iter().all(|b| a.distance(b) <= config.light_stable_tolerance));
        if !stable {
            return LightStep {
                changed: true,
                adapt: None,
            };
        }
        let mean = LightGains::mean(&all);
        self.reset();
        let back = mean.distance(&LightGains::UNIT) <= config.light_stable_tolerance;
        LightStep {
            changed: false,
            adapt: (!back).then_some(mean),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use opencv::core::Scalar;

    fn flat(v: [f64; 3]) -> Mat {
        Mat::new_rows_cols_with_default(90, 120, core::CV_8UC3, Scalar::new(v[0], v[1], v[2], 0.0)).unwrap()
    }

    #[test]
    fn gains_are_the_median_ratio_so_pieces_do_not_move_them() {
        let reference = flat([100.0, 120.0, 140.0]);
        let mask = Mat::new_rows_cols_with_default(90, 120, core::CV_8UC1, Scalar::all(255.0)).unwrap();
        let mut view = flat([150.0, 180.0, 210.0]);
        // A "piece" over a third of the table.
        for y in 0..30 {
            for p in view.at_row_mut::<Vec3b>(y).unwrap() {
                *p = Vec3b::from([10, 250, 30]);
            }
        }
        let g = measure_gains(&view, &reference, &mask).unwrap();
        assert!((g.brightness() - 1.5).abs() < 0.01, "{g:?}");
        assert!(g.cast() < 0.01);
        let relit = relit_reference(&reference, &g).unwrap();
        assert_eq!(
            *relit.at_2d::<Vec3b>(50, 50).unwrap(),
            Vec3b::from([150, 180, 210])
        );
    }

    #[test]
    fn a_change_pauses_until_stable_then_adapts_or_clears() {
        let config = LiveConfig::default();
        let mut m = LightMonitor::default();
        let normal = LightGains {
            bgr: [1.01, 0.99, 1.0],
        };
        assert!(!m.update(normal, &config).changed);
        let lamp = LightGains { bgr: [1.5, 1.5, 1.5] };
        for i in 0..config.light_stable_frames - 1 {
            let s = m.update(lamp, &config);
            assert!(s.changed && s.adapt.is_none(), "frame {i}");
        }
        let s = m.update(lamp, &config);
        assert!(!s.changed);
        assert_eq!(s.adapt.map(|g| g.bgr), Some([1.5, 1.5, 1.5]));
        // A cast, then the light back to the reference's: no adaptation needed.
        let mut m = LightMonitor::default();
        assert!(m.update(LightGains { bgr: [0.8, 1.0, 1.2] }, &config).changed);
        let mut last = None;
        for _ in 0..config.light_stable_frames {
            last = Some(m.update(normal, &config));
        }
        assert_eq!(last.map(|s| (s.changed, s.adapt)), Some((false, None)));
    }

    #[test]
    fn a_flickering_light_never_settles() {
        let config = LiveConfig::default();
        let mut m = LightMonitor::default();
        for i in 0..40 {
            let g = if i % 2 == 0 { 1.5 } else { 1.2 };
            assert!(m.update(LightGains { bgr: [g; 3] }, &config).changed);
        }
    }
}
