//! Seeded randomness: every random choice of the renderer comes from the scene seed.
//!
//! Each purpose (camera, string, layout of frame k, sensor noise of frame k, ...) draws from its own
//! ChaCha8 stream derived from `(seed, purpose, index)`, so changing how many numbers one purpose
//! draws never changes another purpose's numbers. Texture noise is a pure hash of table
//! coordinates, so it sticks to the table when the camera moves.

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// What a random stream is used for. The discriminant is part of the stream's seed: never
/// renumber these, or every scene changes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Purpose {
    Camera = 1,
    StringLoop = 2,
    Light = 3,
    Surface = 4,
    Layout = 5,
    Counter = 6,
    Noise = 7,
    Faults = 8,
    Sensor = 9,
}

/// SplitMix64's finaliser: a bijective 64-bit mix.
pub(crate) fn mix64(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The stream for `purpose` (and `index`, e.g. the frame number) of scene `seed`.
pub(crate) fn stream(seed: u64, purpose: Purpose, index: u64) -> ChaCha8Rng {
    let s = mix64(seed ^ mix64((purpose as u64) << 32 ^ mix64(index)));
    ChaCha8Rng::seed_from_u64(s)
}

/// Uniform in `[lo, hi)`; `lo` when the range is empty (never panics).
pub(crate) fn uniform(rng: &mut ChaCha8Rng, lo: f64, hi: f64) -> f64 {
    if hi <= lo {
        return lo;
    }
    lo + (hi - lo) * rng.random::<f64>()
}

/// Uniform integer in `[lo, hi]`; `lo` when `hi < lo`.
pub(crate) fn int_in(rng: &mut ChaCha8Rng, lo: usize, hi: usize) -> usize {
    if hi <= lo {
        return lo;
    }
    lo + (rng.random::<u64>() % (hi - lo + 1) as u64) as usize
}

/// True with probability `p`.
pub(crate) fn chance(rng: &mut ChaCha8Rng, p: f64) -> bool {
    rng.random::<f64>() < p
}

/// One element of a non-empty slice, `None` for an empty one.
pub(crate) fn pick<'a, T>(rng: &mut ChaCha8Rng, items: &'a [T]) -> Option<&'a T> {
    if items.is_empty() {
        return None;
    }
    items.get(int_in(rng, 0, items.len() - 1))
}

/// Fisher-Yates shuffle.
pub(crate) fn shuffle<T>(rng: &mut ChaCha8Rng, items: &mut [T]) {
    for i in (1..items.len()).rev() {
        let j = int_in(rng, 0, i);
        items.swap(i, j);
    }
}

/// A 32-bit hash of a lattice point, for value noise.
fn hash2(seed: u32, x: i32, y: i32) -> u32 {
    let mut h = seed ^ (x as u32).wrapping_mul(0x27D4_EB2D) ^ (y as u32).wrapping_mul(0x1656_67B1);
    h = (h ^ (h >> 15)).wrapping_mul(0x85EB_CA6B);
    h = (h ^ (h >> 13)).wrapping_mul(0xC2B2_AE35);
    h ^ (h >> 16)
}

/// Hash of a lattice point mapped to `[0, 1)`.
pub(crate) fn lattice(seed: u32, x: i32, y: i32) -> f32 {
    (hash2(seed, x, y) >> 8) as f32 / (1u32 << 24) as f32
}

/// `floor` without a libm call (the baseline x86-64 target has no rounding instruction).
#[inline]
fn fast_floor(v: f32) -> i32 {
    let i = v as i32;
    if v < i as f32 { i - 1 } else { i }
}

/// Smooth value noise in `[0, 1)` with unit lattice spacing.
pub(crate) fn value_noise(seed: u32, x: f32, y: f32) -> f32 {
    let (ix, iy) = (fast_floor(x), fast_floor(y));
    let (xf, yf) = (ix as f32, iy as f32);
    let (fx, fy) = (x - xf, y - yf);
    let sx = fx * fx * (3.0 - 2.0 * fx);
    let sy = fy * fy * (3.0 - 2.0 * fy);
    let a = lattice(seed, ix, iy);
    let b = lattice(seed, ix + 1, iy);
    let c = lattice(seed, ix, iy + 1);
    let d = lattice(seed, ix + 1, iy + 1);
    let top = a + (b - a) * sx;
    let bottom = c + (d - c) * sx;
    top + (bottom - top) * sy
}

/// Fractal value noise: `octaves` layers, each at twice the frequency and half the weight.
/// Result in `[0, 1)`.
pub(crate) fn fbm(seed: u32, x: f32, y: f32, octaves: u32) -> f32 {
    let mut sum = 0.0;
    let mut weight = 0.5;
    let mut total = 0.0;
    let (mut fx, mut fy) = (x, y);
    for o in 0..octaves {
        sum += weight * value_noise(seed.wrapping_add(o * 7919), fx, fy);
        total += weight;
        weight *= 0.5;
        fx *= 2.03;
        fy *= 2.03;
    }
    sum / total
}

/// A fast generator for per-pixel sensor noise (xorshift64*), seeded from a ChaCha stream.
#[derive(Debug, Clone)]
pub(crate) struct FastRng(u64);

impl FastRng {
    pub(crate) fn new(seed: u64) -> Self {
        Self(mix64(seed) | 1)
    }

    pub(crate) fn next_u64(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// Four approximately standard-normal samples, each an Irwin-Hall sum of the four 16-bit
    /// uniforms in one 64-bit draw.
    pub(crate) fn normal4(&mut self) -> [f32; 4] {
        let mut out = [0.0f32; 4];
        for o in &mut out {
            let r = self.next_u64();
            let s = (r & 0xFFFF) + ((r >> 16) & 0xFFFF) + ((r >> 32) & 0xFFFF) + (r >> 48);
            // Sum of 4 U(0,1): mean 2, variance 1/3.
            *o = ((s as f32 / 65535.0) - 2.0) * 1.732_050_8;
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn streams_are_reproducible_and_independent() {
        let a: Vec<u64> = (0..4).map(|_| stream(7, Purpose::Camera, 0).random()).collect();
        assert!(a.windows(2).all(|w| w[0] == w[1]));
        let b: u64 = stream(7, Purpose::Camera, 1).random();
        let c: u64 = stream(7, Purpose::Layout, 0).random();
        let d: u64 = stream(8, Purpose::Camera, 0).random();
        assert!(a[0] != b && a[0] != c && a[0] != d);
    }

    #[test]
    fn noise_is_bounded_and_smooth() {
        for i in 0..200 {
            let x = i as f32 * 0.37;
            let v = value_noise(3, x, 1.5 * x);
            assert!((0.0..1.0).contains(&v));
            let w = value_noise(3, x + 0.001, 1.5 * x);
            assert!((v - w).abs() < 0.01);
        }
    }

    #[test]
    fn fast_normals_have_unit_variance() {
        let mut r = FastRng::new(1);
        let n = 40_000;
        let (mut s, mut s2) = (0.0f64, 0.0f64);
        for _ in 0..n / 4 {
            for v in r.normal4() {
                s += v as f64;
                s2 += (v * v) as f64;
            }
        }
        let mean = s / n as f64;
        let var = s2 / n as f64 - mean * mean;
        assert!(mean.abs() < 0.03 && (var - 1.0).abs() < 0.05, "{mean} {var}");
    }

    #[test]
    fn uniform_never_panics_on_empty_ranges() {
        let mut r = stream(1, Purpose::Layout, 0);
        assert_eq!(uniform(&mut r, 2.0, 2.0), 2.0);
        assert_eq!(int_in(&mut r, 5, 3), 5);
        assert!(pick::<u8>(&mut r, &[]).is_none());
    }
}
