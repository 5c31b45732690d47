//! The tracker's thresholds. Every one is a named default below; [`TrackerConfig`] gathers them
//! so a caller (or a test) can change one without touching the others. Lengths are millimetres
//! on the table, counts are frames (analysed frames, so at the camera's rate when vision keeps
//! up: 30 fps makes 8 frames about a quarter of a second).

use super::error::TrackingError;
use serde::{Deserialize, Serialize};

/// A detection farther than this from where a track was last frame is not that track, mm.
/// Several times the frame-to-frame jitter of a resting piece (about 1 mm), and about the
/// spacing of two touching treasures: closer pairs are told apart by the global assignment.
pub const ASSOCIATION_GATE_MM: f64 = 25.0;
/// A track that was not seen last frame (hidden, or moved fast) may be matched this far from
/// where it was, mm, but only by a detection of its own class.
pub const REIDENTIFY_GATE_MM: f64 = 100.0;
/// Extra cost, mm, of pairing a track with a detection of another class of the same family:
/// among equally near candidates the look-alike of the track's own class wins.
pub const CLASS_MISMATCH_COST_MM: f64 = 10.0;
/// A new track appears once it has been seen on this many frames...
pub const CONFIRM_HITS: u32 = 3;
/// ...among its first this many frames (M of N: a one-frame flicker never becomes a piece).
pub const CONFIRM_WINDOW_FRAMES: u32 = 5;
/// A confirmed track not seen for more than this many frames has left the table. Frames in
/// which the ocean is obstructed, the view moved or the lighting changed do not count: a piece
/// under a hand keeps its identity for as long as the hand stays.
pub const MAX_MISSED_FRAMES: u32 = 10;
/// A confirmed track unseen this many frames in a row keeps the table from settling (it may be
/// gone; the table settles again once it is back or has been dropped).
pub const PENDING_MISSED_FRAMES: u32 = 2;
/// Class, die top, load and island votes are taken over this many of a piece's latest sightings.
pub const VOTE_WINDOW_FRAMES: usize = 15;
/// A piece whose smoothed pose has moved more than this from where it came to rest has moved,
/// mm (turns count as the distance the footprint's farthest point travels).
pub const STILL_TOLERANCE_MM: f64 = 3.0;
/// A detection this far from the smoothed pose restarts the smoothing there, mm: the piece has
/// moved and its old place must not be averaged into the new one.
pub const SNAP_DISTANCE_MM: f64 = 6.0;
/// Smoothing starts as the plain mean of the sightings since the piece came to rest and never
/// weighs the newest sighting less than this (an exponential average from then on). Movement is
/// measured from the mean once it holds `1 / MIN_SMOOTHING_WEIGHT` sightings.
pub const MIN_SMOOTHING_WEIGHT: f64 = 0.1;
/// The table is settled after this many frames without movement, obstruction, moved view or
/// lighting change.
pub const SETTLE_FRAMES: u32 = 8;
/// A piece that disappears within this distance of the edge of the view (or of the ocean, or
/// outside it) has been pushed out of view: it is kept as lost, mm.
pub const LOST_EDGE_MARGIN_MM: f64 = 40.0;
/// Pieces that left the table are remembered this many frames (about 30 s at 30 fps), to be
/// reported and to get their identity back when they return.
pub const LOST_MEMORY_FRAMES: u32 = 900;

/// The tracker's thresholds (see the constants of this module for what each means).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct TrackerConfig {
    pub association_gate_mm: f64,
    pub reidentify_gate_mm: f64,
    pub class_mismatch_cost_mm: f64,
    pub confirm_hits: u32,
    pub confirm_window_frames: u32,
    pub max_missed_frames: u32,
    pub pending_missed_frames: u32,
    pub vote_window_frames: usize,
    pub still_tolerance_mm: f64,
    pub snap_distance_mm: f64,
    pub min_smoothing_weight: f64,
    pub settle_frames: u32,
    pub lost_edge_margin_mm: f64,
    pub lost_memory_frames: u32,
}

impl Default for TrackerConfig {
    fn default() -> Self {
        Self {
            association_gate_mm: ASSOCIATION_GATE_MM,
            reidentify_gate_mm: REIDENTIFY_GATE_MM,
            class_mismatch_cost_mm: CLASS_MISMATCH_COST_MM,
            confirm_hits: CONFIRM_HITS,
            confirm_window_frames: CONFIRM_WINDOW_FRAMES,
            max_missed_frames: MAX_MISSED_FRAMES,
            pending_missed_frames: PENDING_MISSED_FRAMES,
            vote_window_frames: VOTE_WINDOW_FRAMES,
            still_tolerance_mm: STILL_TOLERANCE_MM,
            snap_distance_mm: SNAP_DISTANCE_MM,
            min_smoothing_weight: MIN_SMOOTHING_WEIGHT,
            settle_frames: SETTLE_FRAMES,
            lost_edge_margin_mm: LOST_EDGE_MARGIN_MM,
            lost_memory_frames: LOST_MEMORY_FRAMES,
        }
    }
}

impl TrackerConfig {
    /// Checks that the thresholds make sense together.
    pub fn validate(&self) -> Result<(), TrackingError> {
        let bad = |field, value: String, expected| {
            Err(TrackingError::BadConfig {
                field,
                value,
                expected,
            })
        };
        let positive_mm = [
            ("association_gate_mm", self.association_gate_mm),
            ("still_tolerance_mm", self.still_tolerance_mm),
            ("snap_distance_mm", self.snap_distance_mm),
        ];
        for (field, v) in positive_mm {
            if !(v.is_finite() && v > 0.0) {
                return bad(field, v.to_string(), "a finite number of millimetres above 0");
            }
        }
        for (field, v) in [
            ("class_mismatch_cost_mm", self.class_mismatch_cost_mm),
            ("lost_edge_margin_mm", self.lost_edge_margin_mm),
        ] {
            if !(v.is_finite() && v >= 0.0) {
                return bad(field, v.to_string(), "a finite number of millimetres, 0 or more");
            }
        }
        if !(self.reidentify_gate_mm.is_finite() && self.reidentify_gate_mm >= self.association_gate_mm) {
            return bad(
                "reidentify_gate_mm",
                self.reidentify_gate_mm.to_string(),
                "a finite number of millimetres, at least association_gate_mm",
            );
        }
        if self.snap_distance_mm < self.still_tolerance_mm {
            return bad(
                "snap_distance_mm",
                self.snap_distance_mm.to_string(),
                "at least still_tolerance_mm",
            );
        }
        if !(self.min_smoothing_weight > 0.0 && self.min_smoothing_weight <= 1.0) {
            return bad(
                "min_smoothing_weight",
                self.min_smoothing_weight.to_string(),
                "a weight above 0 and at most 1",
            );
        }
        if self.confirm_hits == 0 {
            return bad("confirm_hits", "0".into(), "at least 1 frame");
        }
        if self.confirm_window_frames < self.confirm_hits {
            return bad(
                "confirm_window_frames",
                self.confirm_window_frames.to_string(),
                "at least confirm_hits frames",
            );
        }
        if self.pending_missed_frames == 0 || self.pending_missed_frames > self.max_missed_frames {
            return bad(
                "pending_missed_frames",
                self.pending_missed_frames.to_string(),
                "from 1 to max_missed_frames frames",
            );
        }
        if self.vote_window_frames == 0 {
            return bad("vote_window_frames", "0".into(), "at least 1 frame");
        }
        if self.settle_frames == 0 {
            return bad("settle_frames", "0".into(), "at least 1 frame");
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_are_valid_and_bad_values_name_their_field() {
        TrackerConfig::default().validate().unwrap();
        let c = TrackerConfig {
            confirm_window_frames: 2,
            ..TrackerConfig::default()
        };
        let e = c.validate().unwrap_err().to_string();
        assert!(
            e.contains("confirm_window_frames") && e.contains("confirm_hits"),
            "{e}"
        );
        let c = TrackerConfig {
            association_gate_mm: f64::NAN,
            ..TrackerConfig::default()
        };
        assert!(
            c.validate()
                .unwrap_err()
                .to_string()
                .contains("association_gate_mm")
        );
        let c = TrackerConfig {
            reidentify_gate_mm: 10.0,
            ..TrackerConfig::default()
        };
        assert!(
            c.validate()
                .unwrap_err()
                .to_string()
                .contains("reidentify_gate_mm")
        );
    }
}
