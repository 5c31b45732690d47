//! Is this frame a whole, usable picture? Frames from the capture worker are decoded and
//! checked already; this catches what can still reach the referee: an empty image, one that is
//! not 8-bit BGR, and a picture cut short (the decoder filled the rows it never received with
//! one flat colour — a sensor's rows always carry some noise and texture).
//!
//! Conventions: image rows from the top; sizes in pixels.

use opencv::core::{self, Mat};
use opencv::prelude::*;

/// Rows whose pixels all lie within this many levels of the row's first pixel count as flat.
const FLAT_ROW_LEVELS: u8 = 1;
/// Pixels sampled per row for the flatness test.
const FLAT_ROW_SAMPLES: usize = 64;

/// Why a frame was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BadFrame {
    Empty,
    NotBgr,
    /// The bottom `rows` rows are one flat colour.
    CutShort {
        rows: u32,
    },
}

impl std::fmt::Display for BadFrame {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BadFrame::Empty => f.write_str("empty frame (0 pixels)"),
            BadFrame::NotBgr => f.write_str("not an 8-bit colour (BGR) frame"),
            BadFrame::CutShort { rows } => write!(f, "frame cut short (its last {rows} rows are blank)"),
        }
    }
}

/// Checks a frame; `truncated_rows_share` is [`super::config::TRUNCATED_ROWS_SHARE`].
pub fn check_frame(image: &Mat, truncated_rows_share: f64) -> Result<(), BadFrame> {
    if image.empty() || image.rows() <= 0 || image.cols() <= 0 {
        return Err(BadFrame::Empty);
    }
    if image.typ() != core::CV_8UC3 {
        return Err(BadFrame::NotBgr);
    }
    let rows = image.rows();
    let limit = ((f64::from(rows) * truncated_rows_share).ceil() as i32).max(2);
    let mut flat = 0;
    for y in (0..rows).rev() {
        if !row_is_flat(image, y) {
            break;
        }
        flat += 1;
        if flat >= limit {
            return Err(BadFrame::CutShort { rows: flat as u32 });
        }
    }
    Ok(())
}

fn row_is_flat(image: &Mat, y: i32) -> bool {
    let Ok(row) = image.at_row::<core::Vec3b>(y) else {
        return false;
    };
    let Some(first) = row.first() else {
        return false;
    };
    let step = (row.len() / FLAT_ROW_SAMPLES).max(1);
    row.iter()
        .step_by(step)
        .all(|p| (0..3).all(|c| p[c].abs_diff(first[c]) <= FLAT_ROW_LEVELS))
}

#[cfg(test)]
mod tests {
    use super::*;
    use opencv::core::{Scalar, Vector};
    use opencv::imgcodecs;

    fn noisy(rows: i32, cols: i32) -> Mat {
        let mut m = Mat::new_rows_cols_with_default(rows, cols, core::CV_8UC3, Scalar::all(0.0)).unwrap();
        for y in 0..rows {
            let r = m.at_row_mut::<core::Vec3b>(y).unwrap();
            for (x, p) in r.iter_mut().enumerate() {
                let v = ((x as i32 * 7 + y * 13) % 50 + 100) as u8;
                *p = core::Vec3b::from([v, v / 2, 255 - v]);
            }
        }
        m
    }

    #[test]
    fn whole_frames_pass_and_bad_ones_say_why() {
        let good = noisy(120, 160);
        assert_eq!(check_frame(&good, 0.04), Ok(()));
        assert_eq!(check_frame(&Mat::default(), 0.04), Err(BadFrame::Empty));
        let grey = Mat::new_rows_cols_with_default(10, 10, core::CV_8UC1, Scalar::all(9.0)).unwrap();
        assert_eq!(check_frame(&grey, 0.04), Err(BadFrame::NotBgr));
    }

    #[test]
    fn a_truncated_jpeg_decoded_anyway_is_cut_short() {
        let good = noisy(120, 160);
        let mut buf = Vector::<u8>::new();
        imgcodecs::imencode(".jpg", &good, &mut buf, &Vector::new()).unwrap();
        let bytes = buf.to_vec();
        let cut = &bytes[..bytes.len() / 2];
        let decoded = imgcodecs::imdecode(&Vector::from_slice(cut), imgcodecs::IMREAD_COLOR).unwrap();
        assert!(!decoded.empty(), "libjpeg decodes what it has");
        assert!(matches!(
            check_frame(&decoded, 0.04),
            Err(BadFrame::CutShort { .. })
        ));
    }
}
