//! Sizes stated on the table, counted in the pixels of the view at hand.
//!
//! Conventions: thresholds on sizes are stated in table millimetres (lengths, `_MM`) and square
//! millimetres (areas, `_MM2`), so they mean the same piece whatever the scale of the view a
//! frame is looked at in (the fine view's is the empty-table reference's, set at calibration;
//! the coarse view's is [`super::rectify::COARSE_STEP`] times coarser). These turn them into
//! pixels of a view `mm_per_px` millimetres a pixel. At 1 mm a pixel every count is the stated
//! number itself.

/// The pixel area of `mm2` square millimetres (a gain, a fraction of pixels).
pub fn area_px(mm2: f64, mm_per_px: f64) -> f64 {
    mm2 / (mm_per_px * mm_per_px)
}

/// The fewest whole pixels covering at least `mm2` square millimetres (a count of pixels).
pub fn count_px(mm2: f64, mm_per_px: f64) -> usize {
    area_px(mm2, mm_per_px).ceil().max(0.0) as usize
}

/// The whole pixels nearest `mm` millimetres (a radius, a distance), at least `least`.
pub fn length_px(mm: f64, mm_per_px: f64, least: usize) -> usize {
    ((mm / mm_per_px).round().max(0.0) as usize).max(least)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn at_one_mm_a_pixel_counts_are_the_stated_numbers() {
        assert_eq!(area_px(25.0, 1.0), 25.0);
        assert_eq!(count_px(12.0, 1.0), 12);
        assert_eq!(length_px(6.0, 1.0, 1), 6);
    }

    #[test]
    fn coarser_views_count_fewer_pixels_covering_as_much_table() {
        // 12 mm² in 2 mm pixels: three pixels (12 mm²), not two (8 mm²).
        assert_eq!(count_px(12.0, 2.0), 3);
        assert_eq!(count_px(12.0, 1.5), 6);
        assert!((area_px(25.0, 1.5) - 25.0 / 2.25).abs() < 1e-12);
        assert_eq!(length_px(6.0, 1.5, 1), 4);
        assert_eq!(length_px(2.0, 4.0, 1), 1);
        assert_eq!(length_px(2.0, 5.0, 0), 0);
    }
}
