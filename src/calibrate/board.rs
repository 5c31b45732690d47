//! The printable ChArUco calibration board (spec/table.md).
//!
//! Conventions: the board defines the **table frame**. Its object points are OpenCV's for a
//! `7 x 5` ChArUco board (see [`super::aruco`]); lengths in mm. Chessboard corner `i` (OpenCV's
//! ChArUco id) lies at [`BoardSpec::corner_mm`]. A rendered board image has its table-frame origin
//! at the top-left of the board area, x to the right and y **down** the image, so that viewed from
//! above the frame is right-handed with z into the table.

use serde::{Deserialize, Serialize};

/// Squares along the board's long side.
pub const SQUARES_X: u32 = 7;
/// Squares along the board's short side.
pub const SQUARES_Y: u32 = 5;
/// Nominal printed square size.
pub const SQUARE_MM: f64 = 40.0;
/// Marker side / square side.
pub const MARKER_RATIO: f64 = 0.75;
/// The ArUco dictionary's OpenCV name.
pub const DICTIONARY: &str = "DICT_4X4_50";

/// A ChArUco board: squares, sizes, dictionary.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BoardSpec {
    pub squares_x: u32,
    pub squares_y: u32,
    pub square_mm: f64,
    pub marker_mm: f64,
    pub dictionary: String,
}

impl Default for BoardSpec {
    fn default() -> Self {
        Self::with_square_mm(SQUARE_MM)
    }
}

impl BoardSpec {
    /// The standard board printed at another scale: the marker keeps the 0.75 ratio.
    pub fn with_square_mm(square_mm: f64) -> Self {
        Self {
            squares_x: SQUARES_X,
            squares_y: SQUARES_Y,
            square_mm,
            marker_mm: square_mm * MARKER_RATIO,
            dictionary: DICTIONARY.to_string(),
        }
    }

    /// Board size in mm (x, y).
    pub fn size_mm(&self) -> (f64, f64) {
        (
            self.squares_x as f64 * self.square_mm,
            self.squares_y as f64 * self.square_mm,
        )
    }

    /// Number of inner chessboard corners (the ChArUco corners).
    pub fn corner_count(&self) -> usize {
        ((self.squares_x - 1) * (self.squares_y - 1)) as usize
    }

    /// Table-frame position of ChArUco corner `id` (row-major from the origin corner).
    pub fn corner_mm(&self, id: usize) -> crate::table::PointMm {
        let per_row = (self.squares_x - 1) as usize;
        let x = (id % per_row + 1) as f64 * self.square_mm;
        let y = (id / per_row + 1) as f64 * self.square_mm;
        crate::table::PointMm::new(x, y)
    }
}
