//! The live referee's thresholds. Every one is a named default below; [`LiveConfig`] gathers
//! them (with the tracker's) so the app or a test can change one without touching the others.
//!
//! Conventions: counts of frames are frames the referee analysed; times are seconds of the
//! monotonic clock; brightness gains are ratios of a frame's table pixels to the empty-table
//! reference's (1.0 = the light of the calibration); lengths are table millimetres.

use super::error::LiveError;
use crate::vision::tracking::{READING_INTERVAL_FRAMES, TrackerConfig};
use std::time::Duration;

/// No frame offered for this long and the referee says frames stopped arriving (a camera that
/// froze without disconnecting). A little above the capture worker's own stall limit, so the
/// camera's status line says it first.
pub const NO_FRAMES_AFTER: Duration = Duration::from_secs(3);
/// A bad frame (empty, not 8-bit BGR, cut short) keeps [`super::LiveFault::CorruptFrames`] on
/// show for this long after it.
pub const CORRUPT_NOTICE: Duration = Duration::from_secs(5);
/// A frame whose last rows are one flat colour over this share of its height was cut short (a
/// JPEG decoder fills what it did not receive with one grey); real sensor rows always vary.
pub const TRUNCATED_ROWS_SHARE: f64 = 0.04;
/// The view is checked against the empty-table reference (ORB features, else the string) every
/// this many analysed frames, and every third of that while vision sees the string out of place.
pub const VIEW_CHECK_EVERY_FRAMES: u32 = 15;
/// The table moved by more than this under the camera (median displacement on the table plane)
/// and the view has moved, mm. The string check resolves about 3 mm (a half-degree turn step at
/// the ocean's radius) and a still demo table reads up to 4 mm: below 6 mm it cannot tell a bump
/// from noise. A bump that matters (1.5 degrees, 12 mm) reads about 20 mm.
pub const VIEW_MOVED_MM: f64 = 6.0;
/// Feature matches a view check needs to say anything (fewer: the check is inconclusive).
pub const VIEW_MIN_MATCHES: usize = 25;
/// A change of the table's light by more than this (relative brightness, `|gain - 1|` against
/// the light the referee is adapted to) is a lighting change. Auto-exposure wobble and the
/// shadow of a hand stay well under it.
pub const LIGHT_CHANGE_BRIGHTNESS: f64 = 0.12;
/// ...or a colour cast: a channel's gain departing from the mean gain by more than this share.
pub const LIGHT_CHANGE_CAST: f64 = 0.06;
/// The light is stable again after this many analysed frames whose gains agree with each other
/// within [`LIGHT_STABLE_TOLERANCE`]; the referee then adapts its reference to the new light.
pub const LIGHT_STABLE_FRAMES: u32 = 6;
/// Frames agree on the light when their gains differ by at most this (relative).
pub const LIGHT_STABLE_TOLERANCE: f64 = 0.03;
/// A frame of another size than the calibration is scaled to it when the aspect ratios differ
/// by at most this share (else rulings pause until the camera is set back or recalibrated).
pub const ASPECT_TOLERANCE: f64 = 0.01;

/// Everything the live referee can be tuned by; `Default` is the named consts above.
#[derive(Debug, Clone, PartialEq)]
pub struct LiveConfig {
    pub tracker: TrackerConfig,
    /// Frames between two readings of a settled table (see the tracking committer).
    pub reading_interval_frames: u32,
    pub no_frames_after: Duration,
    pub corrupt_notice: Duration,
    pub truncated_rows_share: f64,
    pub view_check_every_frames: u32,
    pub view_moved_mm: f64,
    pub view_min_matches: usize,
    pub light_change_brightness: f64,
    pub light_change_cast: f64,
    pub light_stable_frames: u32,
    pub light_stable_tolerance: f64,
    pub aspect_tolerance: f64,
}

impl Default for LiveConfig {
    fn default() -> Self {
        Self {
            tracker: TrackerConfig::default(),
            reading_interval_frames: READING_INTERVAL_FRAMES,
            no_frames_after: NO_FRAMES_AFTER,
            corrupt_notice: CORRUPT_NOTICE,
            truncated_rows_share: TRUNCATED_ROWS_SHARE,
            view_check_every_frames: VIEW_CHECK_EVERY_FRAMES,
            view_moved_mm: VIEW_MOVED_MM,
            view_min_matches: VIEW_MIN_MATCHES,
            light_change_brightness: LIGHT_CHANGE_BRIGHTNESS,
            light_change_cast: LIGHT_CHANGE_CAST,
            light_stable_frames: LIGHT_STABLE_FRAMES,
            light_stable_tolerance: LIGHT_STABLE_TOLERANCE,
            aspect_tolerance: ASPECT_TOLERANCE,
        }
    }
}

impl LiveConfig {
    /// Checks that the thresholds make sense (the tracker's included).
    pub fn validate(&self) -> Result<(), LiveError> {
        self.tracker.validate()?;
        let bad = |field, message: String| Err(LiveError::Config { field, message });
        if self.reading_interval_frames == 0 {
            return bad("reading_interval_frames", "0; expected at least 1 frame".into());
        }
        if self.view_check_every_frames == 0 {
            return bad("view_check_every_frames", "0; expected at least 1 frame".into());
        }
        if self.light_stable_frames == 0 {
            return bad("light_stable_frames", "0; expected at least 1 frame".into());
        }
        for (field, v, lo, hi) in [
            ("truncated_rows_share", self.truncated_rows_share, 0.0, 1.0),
            ("light_change_brightness", self.light_change_brightness, 0.0, 10.0),
            ("light_change_cast", self.light_change_cast, 0.0, 10.0),
            ("light_stable_tolerance", self.light_stable_tolerance, 0.0, 1.0),
            ("aspect_tolerance", self.aspect_tolerance, 0.0, 1.0),
            ("view_moved_mm", self.view_moved_mm, 0.0, 1000.0),
        ] {
            if !(v.is_finite() && v > lo && v <= hi) {
                return bad(
                    field,
                    format!("{v}; expected a number above {lo} and at most {hi}"),
                );
            }
        }
        Ok(())
    }
}
