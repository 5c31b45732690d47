//! Choosing a camera mode (size, frame rate, pixel format) from what the driver offers. Pure.

use super::PixelFormat;

/// One mode a camera offers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
pub struct CaptureFormat {
    pub width: u32,
    pub height: u32,
    pub fps: u32,
    pub pixel: PixelFormat,
}

impl std::fmt::Display for CaptureFormat {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}x{} @ {} fps {}",
            self.width, self.height, self.fps, self.pixel
        )
    }
}

/// The mode the app would like. The default is 1280x720 at 30 fps: the size vision is tuned for
/// and the rate it keeps up with (DESIGN.md quality bars).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct WantedFormat {
    pub width: u32,
    pub height: u32,
    pub fps: u32,
}

/// Default wanted frame width in pixels.
pub const DEFAULT_WIDTH: u32 = 1280;
/// Default wanted frame height in pixels.
pub const DEFAULT_HEIGHT: u32 = 720;
/// Default wanted frame rate.
pub const DEFAULT_FPS: u32 = 30;

/// Below this rate a mode is only chosen when nothing faster exists: settled-table detection and
/// hand tracking need several frames a second.
pub const MIN_USABLE_FPS: u32 = 10;

impl Default for WantedFormat {
    fn default() -> Self {
        WantedFormat {
            width: DEFAULT_WIDTH,
            height: DEFAULT_HEIGHT,
            fps: DEFAULT_FPS,
        }
    }
}

/// Preference among pixel formats when everything else is equal: MJPEG first (USB 2 cameras
/// deliver full frame rates at HD only in MJPEG), then the raw formats that keep colour, grey last
/// (vision needs colour).
fn pixel_rank(p: PixelFormat) -> u8 {
    match p {
        PixelFormat::Mjpeg => 0,
        PixelFormat::Yuyv => 1,
        PixelFormat::Nv12 => 2,
        PixelFormat::Bgr => 3,
        PixelFormat::Rgb => 4,
        PixelFormat::Gray => 5,
    }
}

/// Picks the mode closest to `wanted`, or `None` when `available` is empty.
///
/// In order of importance:
/// 1. a rate of at least `min(wanted.fps, MIN_USABLE_FPS)`;
/// 2. the wanted size exactly, else the smallest size at least as large in both directions
///    (vision downsamples well), else the largest smaller one;
/// 3. the least shortfall below the wanted rate;
/// 4. MJPEG, then YUYV, NV12, BGR, RGB, grey;
/// 5. the rate closest above the wanted one;
/// 6. the size closest to the wanted one in width plus height, then the narrower.
///
/// The choice does not depend on the order of `available`.
pub fn choose_format(available: &[CaptureFormat], wanted: WantedFormat) -> Option<CaptureFormat> {
    let floor = wanted.fps.min(MIN_USABLE_FPS);
    available
        .iter()
        .enumerate()
        .min_by_key(|(i, f)| {
            let too_slow = f.fps < floor;
            let exact = f.width == wanted.width && f.height == wanted.height;
            let covers = f.width >= wanted.width && f.height >= wanted.height;
            let area = u64::from(f.width) * u64::from(f.height);
            let (size_class, size_key) = if exact {
                (0u8, 0u64)
            } else if covers {
                (1, area)
            } else {
                (2, u64::MAX - area)
            };
            let shortfall = wanted.fps.saturating_sub(f.fps);
            let excess = f.fps.saturating_sub(wanted.fps);
            (
                too_slow,
                size_class,
                size_key,
                shortfall,
                pixel_rank(f.pixel),
                excess,
                f.width.abs_diff(wanted.width) + f.height.abs_diff(wanted.height),
                (f.width, f.height),
                *i,
            )
        })
        .map(|(_, f)| *f)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn f(width: u32, height: u32, fps: u32, pixel: PixelFormat) -> CaptureFormat {
        CaptureFormat {
            width,
            height,
            fps,
            pixel,
        }
    }
    use PixelFormat::{Gray, Mjpeg, Nv12, Yuyv};

    /// A typical UVC webcam: YUYV is full rate only at small sizes, MJPEG everywhere.
    fn webcam() -> Vec<CaptureFormat> {
        vec![
            f(640, 480, 30, Yuyv),
            f(1280, 720, 10, Yuyv),
            f(1920, 1080, 5, Yuyv),
            f(640, 480, 30, Mjpeg),
            f(1280, 720, 30, Mjpeg),
            f(1280, 720, 15, Mjpeg),
            f(1920, 1080, 30, Mjpeg),
        ]
    }

    #[test]
    fn prefers_mjpeg_at_the_wanted_size_and_rate() {
        assert_eq!(
            choose_format(&webcam(), WantedFormat::default()),
            Some(f(1280, 720, 30, Mjpeg))
        );
    }

    #[test]
    fn exact_rate_beats_faster_and_pixel_format_breaks_ties() {
        let modes = vec![
            f(1280, 720, 60, Mjpeg),
            f(1280, 720, 30, Yuyv),
            f(1280, 720, 30, Mjpeg),
        ];
        assert_eq!(
            choose_format(&modes, WantedFormat::default()),
            Some(f(1280, 720, 30, Mjpeg))
        );
        let modes = vec![f(1280, 720, 30, Nv12), f(1280, 720, 30, Yuyv)];
        assert_eq!(
            choose_format(&modes, WantedFormat::default()),
            Some(f(1280, 720, 30, Yuyv))
        );
    }

    #[test]
    fn a_larger_size_beats_a_smaller_and_a_slideshow_loses() {
        // No 720p: take 1080p rather than 480p.
        let modes = vec![f(640, 480, 30, Mjpeg), f(1920, 1080, 30, Mjpeg)];
        assert_eq!(
            choose_format(&modes, WantedFormat::default()),
            Some(f(1920, 1080, 30, Mjpeg))
        );
        // 720p only at 5 fps: a usable rate at another size wins.
        let modes = vec![f(1280, 720, 5, Yuyv), f(640, 480, 30, Yuyv)];
        assert_eq!(
            choose_format(&modes, WantedFormat::default()),
            Some(f(640, 480, 30, Yuyv))
        );
        // Among smaller sizes, the largest.
        let modes = vec![f(320, 240, 30, Yuyv), f(640, 480, 30, Yuyv)];
        assert_eq!(
            choose_format(&modes, WantedFormat::default()),
            Some(f(640, 480, 30, Yuyv))
        );
        // Colour beats grey.
        let modes = vec![f(1280, 720, 30, Gray), f(1280, 720, 30, Yuyv)];
        assert_eq!(
            choose_format(&modes, WantedFormat::default()),
            Some(f(1280, 720, 30, Yuyv))
        );
    }

    #[test]
    fn nothing_offered_nothing_chosen_and_slow_cameras_still_work() {
        assert_eq!(choose_format(&[], WantedFormat::default()), None);
        let modes = vec![f(1280, 720, 5, Yuyv), f(1280, 720, 7, Yuyv)];
        assert_eq!(
            choose_format(&modes, WantedFormat::default()),
            Some(f(1280, 720, 7, Yuyv))
        );
    }

    fn any_format() -> impl Strategy<Value = CaptureFormat> {
        (
            prop::sample::select(vec![320u32, 640, 800, 1280, 1920]),
            prop::sample::select(vec![240u32, 480, 600, 720, 1080]),
            prop::sample::select(vec![5u32, 10, 15, 24, 30, 60]),
            prop::sample::select(vec![Mjpeg, Yuyv, Nv12, Gray]),
        )
            .prop_map(|(w, h, fps, p)| f(w, h, fps, p))
    }

    proptest! {
        #[test]
        fn the_choice_is_offered_and_an_exact_mjpeg_match_always_wins(
            modes in prop::collection::vec(any_format(), 1..20),
            insert_at in 0usize..20,
        ) {
            let wanted = WantedFormat::default();
            let chosen = choose_format(&modes, wanted).unwrap();
            prop_assert!(modes.contains(&chosen));
            let mut with_exact = modes.clone();
            with_exact.insert(insert_at.min(modes.len()), f(1280, 720, 30, Mjpeg));
            prop_assert_eq!(choose_format(&with_exact, wanted), Some(f(1280, 720, 30, Mjpeg)));
            // Order of the list does not change the mode chosen (only which duplicate).
            let mut reversed = modes.clone();
            reversed.reverse();
            prop_assert_eq!(choose_format(&reversed, wanted), Some(chosen));
        }
    }
}
