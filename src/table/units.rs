//! Points that carry their unit in their type.
//!
//! Conventions (see `../shared/spec/table.md`):
//! - [`PointMm`]: a point on the table plane in the **table frame**, millimetres. Origin at the
//!   calibration board's outer corner next to the first square, x along the 7-square side, y along
//!   the 5-square side; z points into the table, so a point `h` mm above the table has `z = -h`.
//! - [`PointPx`]: a point in the raw camera frame, pixels, origin top-left, x right, y down.
//!
//! Both serialise as a two-element JSON array `[x, y]`, the form every file and CLI output uses.

use serde::{Deserialize, Serialize};
use std::ops::{Add, Mul, Sub};

/// A point on the table plane, in millimetres, in the table frame.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
#[serde(from = "[f64; 2]", into = "[f64; 2]")]
pub struct PointMm {
    pub x: f64,
    pub y: f64,
}

/// A point in the raw camera image, in pixels.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
#[serde(from = "[f64; 2]", into = "[f64; 2]")]
pub struct PointPx {
    pub x: f64,
    pub y: f64,
}

macro_rules! point_ops {
    ($t:ident) => {
        impl $t {
            pub const fn new(x: f64, y: f64) -> Self {
                Self { x, y }
            }
            pub fn norm(self) -> f64 {
                self.x.hypot(self.y)
            }
            pub fn dot(self, o: Self) -> f64 {
                self.x * o.x + self.y * o.y
            }
            /// z component of the 2D cross product.
            pub fn cross(self, o: Self) -> f64 {
                self.x * o.y - self.y * o.x
            }
            pub fn distance(self, o: Self) -> f64 {
                (self - o).norm()
            }
            pub fn is_finite(self) -> bool {
                self.x.is_finite() && self.y.is_finite()
            }
            /// Rotated by `angle` radians counter-clockwise (in a y-down frame this looks clockwise).
            pub fn rotated(self, angle: f64) -> Self {
                let (s, c) = angle.sin_cos();
                Self::new(c * self.x - s * self.y, s * self.x + c * self.y)
            }
        }
        impl Add for $t {
            type Output = Self;
            fn add(self, o: Self) -> Self {
                Self::new(self.x + o.x, self.y + o.y)
            }
        }
        impl Sub for $t {
            type Output = Self;
            fn sub(self, o: Self) -> Self {
                Self::new(self.x - o.x, self.y - o.y)
            }
        }
        impl Mul<f64> for $t {
            type Output = Self;
            fn mul(self, k: f64) -> Self {
                Self::new(self.x * k, self.y * k)
            }
        }
        impl From<[f64; 2]> for $t {
            fn from(a: [f64; 2]) -> Self {
                Self::new(a[0], a[1])
            }
        }
        impl From<$t> for [f64; 2] {
            fn from(p: $t) -> Self {
                [p.x, p.y]
            }
        }
    };
}
point_ops!(PointMm);
point_ops!(PointPx);

/// A point in 3D in the table frame, millimetres (z into the table: above the table is negative).
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
#[serde(from = "[f64; 3]", into = "[f64; 3]")]
pub struct PointMm3 {
    pub x: f64,
    pub y: f64,
    pub z: f64,
}

impl PointMm3 {
    pub const fn new(x: f64, y: f64, z: f64) -> Self {
        Self { x, y, z }
    }
    /// The point `height_mm` above the table point `p`.
    pub fn above(p: PointMm, height_mm: f64) -> Self {
        Self::new(p.x, p.y, -height_mm)
    }
    pub fn on_table(self) -> PointMm {
        PointMm::new(self.x, self.y)
    }
}

impl From<[f64; 3]> for PointMm3 {
    fn from(a: [f64; 3]) -> Self {
        Self::new(a[0], a[1], a[2])
    }
}
impl From<PointMm3> for [f64; 3] {
    fn from(p: PointMm3) -> Self {
        [p.x, p.y, p.z]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn points_serialise_as_pairs() {
        let p = PointMm::new(1.5, -2.0);
        assert_eq!(serde_json::to_string(&p).unwrap(), "[1.5,-2.0]");
        let q: PointPx = serde_json::from_str("[3, 4]").unwrap();
        assert_eq!(q, PointPx::new(3.0, 4.0));
        assert_eq!(q.norm(), 5.0);
    }
}
