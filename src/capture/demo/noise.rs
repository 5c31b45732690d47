//! Cheap sensor noise for re-used pictures: a real camera never sends the same bytes twice.
//!
//! A field of Gaussian noise somewhat larger than the frame is drawn once (seeded); each frame
//! adds a window of it at an offset drawn from `(seed, frame number)`. Adding costs two saturating
//! OpenCV passes over the frame, far less than a frame period. Same seed and frame number, same
//! noise.

use opencv::core::{self, CV_8UC3, CV_32FC3, Mat, Rect, Scalar};
use opencv::prelude::*;

/// How much larger than the frame the noise field is, pixels in each direction: the number of
/// distinct windows is the square of this.
pub const NOISE_MARGIN_PX: i32 = 64;

/// A seeded noise field for frames of one size.
#[derive(Debug)]
pub(super) struct NoiseBank {
    /// The positive and negative parts of the noise, 8-bit (OpenCV adds and subtracts with
    /// saturation).
    plus: Mat,
    minus: Mat,
    width: i32,
    height: i32,
    seed: u64,
}

/// SplitMix64's finaliser.
fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

impl NoiseBank {
    /// Noise of standard deviation `sigma` (grey levels) for `width` x `height` BGR frames.
    pub(super) fn new(width: i32, height: i32, sigma: f64, seed: u64) -> opencv::Result<Self> {
        let (rows, cols) = (height + NOISE_MARGIN_PX, width + NOISE_MARGIN_PX);
        let mut field = Mat::new_rows_cols_with_default(rows, cols, CV_32FC3, Scalar::all(0.0))?;
        let mut rng = core::RNG::new(mix(seed) | 1)?;
        rng.fill(
            &mut field,
            core::RNG_NORMAL,
            &Scalar::all(0.0),
            &Scalar::all(sigma),
            false,
        )?;
        let mut plus = Mat::default();
        let mut minus = Mat::default();
        field.convert_to(&mut plus, CV_8UC3, 1.0, 0.0)?;
        field.convert_to(&mut minus, CV_8UC3, -1.0, 0.0)?;
        Ok(Self {
            plus,
            minus,
            width,
            height,
            seed,
        })
    }

    /// `base` with the noise of frame `seq`. `base` must be `width` x `height`, BGR 8-bit.
    pub(super) fn apply(&self, base: &Mat, seq: u64) -> opencv::Result<Mat> {
        let h = mix(self.seed ^ mix(seq));
        let m = NOISE_MARGIN_PX as u64;
        let window = Rect::new((h % m) as i32, ((h >> 32) % m) as i32, self.width, self.height);
        let plus = self.plus.roi(window)?;
        let minus = self.minus.roi(window)?;
        let mut brighter = Mat::default();
        core::add(base, &plus, &mut brighter, &core::no_array(), -1)?;
        let mut out = Mat::default();
        core::subtract(&brighter, &minus, &mut out, &core::no_array(), -1)?;
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn grey(v: f64) -> Mat {
        Mat::new_rows_cols_with_default(90, 160, CV_8UC3, Scalar::all(v)).unwrap()
    }

    fn mean_abs_diff(a: &Mat, b: &Mat) -> f64 {
        let mut d = Mat::default();
        core::absdiff(a, b, &mut d).unwrap();
        let m = core::mean(&d, &core::no_array()).unwrap();
        (m[0] + m[1] + m[2]) / 3.0
    }

    #[test]
    fn frames_differ_by_about_the_noise_and_repeat_for_the_same_seed() {
        let bank = NoiseBank::new(160, 90, 2.5, 7).unwrap();
        let base = grey(128.0);
        let a = bank.apply(&base, 0).unwrap();
        let b = bank.apply(&base, 1).unwrap();
        assert_eq!((a.cols(), a.rows(), a.typ()), (160, 90, CV_8UC3));
        // E|N(0, 2.5)| is about 2.0 grey levels; two frames differ by about 2.8.
        let off = mean_abs_diff(&a, &base);
        assert!((1.5..2.6).contains(&off), "{off}");
        let between = mean_abs_diff(&a, &b);
        assert!(between > 1.5, "{between}");
        let again = NoiseBank::new(160, 90, 2.5, 7).unwrap().apply(&base, 0).unwrap();
        assert_eq!(mean_abs_diff(&a, &again), 0.0);
        let other = NoiseBank::new(160, 90, 2.5, 8).unwrap().apply(&base, 0).unwrap();
        assert!(mean_abs_diff(&a, &other) > 1.5);
    }

    #[test]
    fn noise_saturates_instead_of_wrapping() {
        let bank = NoiseBank::new(160, 90, 3.0, 1).unwrap();
        let black = bank.apply(&grey(0.0), 3).unwrap();
        let white = bank.apply(&grey(255.0), 3).unwrap();
        let m_black = core::mean(&black, &core::no_array()).unwrap()[0];
        let m_white = core::mean(&white, &core::no_array()).unwrap()[0];
        assert!(m_black < 3.0, "{m_black}");
        assert!(m_white > 252.0, "{m_white}");
    }
}
