//! What can be wrong at the table right now, in plain words for the banner.

/// One fault the live referee sees. Camera connection faults (lost, reconnecting, back) are the
/// capture worker's status (`capture::SourceStatus`), not repeated here.
#[derive(Debug, Clone, PartialEq)]
pub enum LiveFault {
    /// The camera or the table moved since calibration: nothing is ruled until the view is
    /// re-registered ([`super::LiveReferee::reregister`]) or calibrated again.
    ViewMoved,
    /// The light on the table changed (a lamp, a curtain, a cloud): rulings are paused until it
    /// is stable again, then the referee adapts to it.
    LightingChanged,
    /// Something that is not a piece (a hand, an arm) is over the ocean: the committed reading
    /// is held until the table settles.
    Obstructed,
    /// Frames do not match the calibration's size and cannot be scaled to it (another aspect
    /// ratio): rulings are paused. Sizes are (width, height) in pixels.
    ResolutionChanged { expected: (u32, u32), got: (u32, u32) },
    /// Frames are of another size than the calibration but of the same shape: the calibration
    /// was scaled to them and rulings go on (less precise if the frames are smaller).
    CalibrationScaled {
        calibrated: (u32, u32),
        frames: (u32, u32),
    },
    /// Bad frames (empty, not colour, cut short) were skipped; `count` since the referee started.
    CorruptFrames { count: u64 },
    /// No frame arrived for `for_s` seconds: the committed reading is held.
    NoFrames { for_s: u64 },
    /// Tracked pieces disappeared at the edge of the camera's view (pushed or flicked out of
    /// it): they are still in the game, and still ruled on where they were last seen.
    PiecesOutOfView { ids: Vec<String> },
    /// Vision failed on a frame (the message says why); the committed reading is held.
    AnalysisFailed(String),
}

impl LiveFault {
    /// One sentence for the banner: what happened and what the players may do.
    pub fn message(&self) -> String {
        match self {
            LiveFault::ViewMoved => {
                "The view moved — re-calibrate (or re-register the view to keep the game). Rulings are paused."
                    .into()
            }
            LiveFault::LightingChanged => {
                "The light on the table changed: rulings are paused until it is steady again.".into()
            }
            LiveFault::Obstructed => {
                "Something is over the ocean: waiting for the table to settle (rulings held).".into()
            }
            LiveFault::ResolutionChanged { expected, got } => format!(
                "The camera now sends {}x{} frames but was calibrated at {}x{}: set it back, or re-calibrate. Rulings are paused.",
                got.0, got.1, expected.0, expected.1
            ),
            LiveFault::CalibrationScaled { calibrated, frames } => format!(
                "The camera now sends {}x{} frames (calibrated at {}x{}): the calibration was scaled to match.",
                frames.0, frames.1, calibrated.0, calibrated.1
            ),
            LiveFault::CorruptFrames { count } => {
                format!("{count} bad camera frame(s) skipped (broken or cut-short pictures).")
            }
            LiveFault::NoFrames { for_s } => {
                format!("No picture from the camera for {for_s} s: rulings held.")
            }
            LiveFault::PiecesOutOfView { ids } => format!(
                "Out of the camera's view: {} — they are still in the game; put them back in view.",
                ids.join(", ")
            ),
            LiveFault::AnalysisFailed(why) => format!("This picture could not be analysed: {why}"),
        }
    }

    /// Whether new rulings wait while this fault lasts (the committed reading stays).
    pub fn pauses_rulings(&self) -> bool {
        matches!(
            self,
            LiveFault::ViewMoved
                | LiveFault::LightingChanged
                | LiveFault::Obstructed
                | LiveFault::ResolutionChanged { .. }
                | LiveFault::NoFrames { .. }
                | LiveFault::AnalysisFailed(_)
        )
    }

    /// A short stable name, for logs and tests.
    pub fn name(&self) -> &'static str {
        match self {
            LiveFault::ViewMoved => "view_moved",
            LiveFault::LightingChanged => "lighting_changed",
            LiveFault::Obstructed => "obstructed",
            LiveFault::ResolutionChanged { .. } => "resolution_changed",
            LiveFault::CalibrationScaled { .. } => "calibration_scaled",
            LiveFault::CorruptFrames { .. } => "corrupt_frames",
            LiveFault::NoFrames { .. } => "no_frames",
            LiveFault::PiecesOutOfView { .. } => "pieces_out_of_view",
            LiveFault::AnalysisFailed(_) => "analysis_failed",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_name_the_sizes_and_pieces() {
        let f = LiveFault::ResolutionChanged {
            expected: (1280, 720),
            got: (640, 480),
        };
        assert!(f.message().contains("640x480") && f.message().contains("1280x720"));
        assert!(f.pauses_rulings());
        let f = LiveFault::PiecesOutOfView {
            ids: vec!["p3".into(), "p7".into()],
        };
        assert!(f.message().contains("p3, p7"));
        assert!(!f.pauses_rulings());
        assert!(LiveFault::ViewMoved.message().contains("re-calibrate"));
    }
}
