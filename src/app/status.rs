//! The status line at the bottom of the window: where frames come from, how fast, how fast the UI
//! draws them, how long the analysis takes, and how old the calibration is. What is not there yet shows "—".
//!
//! Also what the shell needs from a calibration profile (read and checked by
//! [`crate::calibrate::profile::Profile::load`]): when it was saved (its age) and the bead sequence
//! it read from the string, if any.

use crate::calibrate::profile::{Profile, ProfileError};
use crate::fsutil::FileError;
use crate::games::crash_octopus::BeadSequence;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

/// Shown for a figure that is not available.
pub const MISSING: &str = "—";

/// A calibration profile as the shell sees it.
#[derive(Debug, Clone, PartialEq)]
pub struct ProfileInfo {
    pub path: PathBuf,
    /// When the file was last written.
    pub saved_at: SystemTime,
    /// The Octo-Counter read from the string at calibration, if the profile has it.
    pub beads: Option<BeadSequence>,
    /// False when the start (blue end) of the beads could not be told from the finish: the
    /// sequence may be reversed and the players should check it.
    pub beads_certain: bool,
}

/// Reads a profile (checked in full by the calibration module) and keeps what the shell needs.
pub fn read_profile_info(path: &Path) -> Result<ProfileInfo, ProfileError> {
    let profile = Profile::load(path)?;
    let saved_at = std::fs::metadata(path)
        .and_then(|m| m.modified())
        .map_err(|e| ProfileError::File(FileError::io(path, &e)))?;
    Ok(ProfileInfo {
        path: path.to_path_buf(),
        saved_at,
        beads: profile.counter.as_ref().map(|c| c.beads().clone()),
        beads_certain: profile.counter.as_ref().is_none_or(|c| c.start_certain),
    })
}

/// The figures of the status line.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct StatusLine {
    /// Where frames come from, in words (e.g. "camera 0 (1280x720 @ 30 fps)", "no camera found").
    pub source: Option<String>,
    /// Frames per second arriving from the source.
    pub fps: Option<f64>,
    /// Frames per second the UI actually draws (see [`super::repaint_rate`]): shown beside the
    /// camera's, so a UI that falls behind the camera can be seen.
    pub ui_fps: Option<f64>,
    /// Time to analyse one frame, milliseconds.
    pub analysis_ms: Option<f64>,
    /// When the calibration profile in use was saved.
    pub calibration_saved_at: Option<SystemTime>,
    /// Said instead of the age when the calibration is not the user's (the demo's).
    pub calibration_label: Option<String>,
}

impl StatusLine {
    /// The line's parts in order, each "name: value".
    pub fn parts(&self, now: SystemTime) -> Vec<String> {
        vec![
            format!("Source: {}", self.source.as_deref().unwrap_or(MISSING)),
            format!(
                "fps: {}",
                self.fps
                    .map(|f| format!("{f:.1}"))
                    .unwrap_or_else(|| MISSING.into())
            ),
            format!(
                "UI: {}",
                self.ui_fps
                    .map(|f| format!("{f:.1} fps"))
                    .unwrap_or_else(|| MISSING.into())
            ),
            format!(
                "analysis: {}",
                self.analysis_ms
                    .map(|ms| format!("{ms:.0} ms"))
                    .unwrap_or_else(|| MISSING.into())
            ),
            format!(
                "calibration: {}",
                match (&self.calibration_label, self.calibration_saved_at) {
                    (Some(l), _) => l.clone(),
                    (None, Some(t)) => age_words(now.duration_since(t).unwrap_or_default()),
                    (None, None) => MISSING.into(),
                }
            ),
        ]
    }
}

/// "just now", "12 min old", "3 h old", "2 days old".
pub fn age_words(age: Duration) -> String {
    let s = age.as_secs();
    match s {
        0..60 => "just now".into(),
        60..3600 => format!("{} min old", s / 60),
        3600..86_400 => format!("{} h old", s / 3600),
        86_400..172_800 => "1 day old".into(),
        _ => format!("{} days old", s / 86_400),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn missing_figures_show_a_dash_and_ages_read_as_words() {
        let now = SystemTime::now();
        let s = StatusLine::default();
        assert_eq!(
            s.parts(now),
            vec!["Source: —", "fps: —", "UI: —", "analysis: —", "calibration: —"]
        );
        let s = StatusLine {
            source: Some("camera 0".into()),
            fps: Some(29.97),
            ui_fps: Some(24.04),
            analysis_ms: Some(12.4),
            calibration_saved_at: Some(now - Duration::from_secs(3 * 3600 + 5)),
            calibration_label: None,
        };
        assert_eq!(
            s.parts(now),
            vec![
                "Source: camera 0",
                "fps: 30.0",
                "UI: 24.0 fps",
                "analysis: 12 ms",
                "calibration: 3 h old"
            ]
        );
        assert_eq!(age_words(Duration::from_secs(5)), "just now");
        assert_eq!(age_words(Duration::from_secs(600)), "10 min old");
        assert_eq!(age_words(Duration::from_secs(100_000)), "1 day old");
        assert_eq!(age_words(Duration::from_secs(900_000)), "10 days old");
    }

    #[test]
    fn a_profile_gives_its_age_and_beads_or_a_field_error() {
        use crate::calibrate::profile::CounterLayout;
        use crate::table::{CounterReport, PointMm};
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("table.json");
        let mut profile = crate::calibrate::profile::tests::sample_profile();
        profile.save(&p).unwrap();
        let info = read_profile_info(&p).unwrap();
        assert_eq!(info.beads, None);
        assert!(SystemTime::now().duration_since(info.saved_at).unwrap() < Duration::from_secs(600));
        let beads: BeadSequence = "BBKK".parse().unwrap();
        profile.counter = Some(CounterLayout {
            report: CounterReport::new(beads.clone(), 0),
            bead_arc_mm: vec![0.0, 12.0, 24.0, 36.0],
            bead_positions_mm: vec![PointMm::new(0.0, 0.0); 4],
            crab_arc_mm: None,
            crab_mm: None,
            start_certain: false,
        });
        profile.save(&p).unwrap();
        let info = read_profile_info(&p).unwrap();
        assert_eq!(info.beads, Some(beads));
        assert!(!info.beads_certain);
        std::fs::write(&p, br#"{"counter": {"beads": "BBKK"}}"#).unwrap();
        let e = read_profile_info(&p).unwrap_err().to_string();
        assert!(e.contains("table.json") && e.contains("format_version"), "{e}");
    }
}
