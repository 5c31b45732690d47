//! The status line at the bottom of the window: where frames come from, how fast, how long the
//! analysis takes, and how old the calibration is. What is not there yet shows "—".
//!
//! Also what the app needs to know about a calibration profile before the vision parts read it in
//! full: when it was saved (its age) and the bead sequence it read from the string, if any.

use crate::fsutil::{self, FileError};
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
    /// The Octo-Counter read from the string at calibration (`counter.beads`), if the profile has it.
    pub beads: Option<BeadSequence>,
}

/// Reads what the shell needs from a profile file: it must be a JSON object; `counter.beads`, when
/// present, must be a bead string.
pub fn read_profile_info(path: &Path) -> Result<ProfileInfo, FileError> {
    let invalid = |field: &str, message: &str| FileError::Invalid {
        path: path.to_path_buf(),
        field: field.to_string(),
        message: message.to_string(),
    };
    let value: serde_json::Value = fsutil::read_json(path)?;
    if !value.is_object() {
        return Err(invalid(
            "(document)",
            "expected a calibration profile (a JSON object)",
        ));
    }
    let beads = match value.pointer("/counter/beads") {
        None | Some(serde_json::Value::Null) => None,
        Some(serde_json::Value::String(s)) => Some(
            s.parse::<BeadSequence>()
                .map_err(|e| invalid("counter.beads", &e))?,
        ),
        Some(_) => {
            return Err(invalid(
                "counter.beads",
                "expected a bead string such as \"BBBKBBBKBBKBBKKK\"",
            ));
        }
    };
    let saved_at = std::fs::metadata(path)
        .and_then(|m| m.modified())
        .map_err(|e| FileError::io(path, &e))?;
    Ok(ProfileInfo {
        path: path.to_path_buf(),
        saved_at,
        beads,
    })
}

/// The figures of the status line.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct StatusLine {
    /// Where frames come from, in words (e.g. "camera 0 (1280x720 @ 30 fps)", "no camera found").
    pub source: Option<String>,
    /// Frames per second arriving from the source.
    pub fps: Option<f64>,
    /// Time to analyse one frame, milliseconds.
    pub analysis_ms: Option<f64>,
    /// When the calibration profile in use was saved.
    pub calibration_saved_at: Option<SystemTime>,
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
                "analysis: {}",
                self.analysis_ms
                    .map(|ms| format!("{ms:.0} ms"))
                    .unwrap_or_else(|| MISSING.into())
            ),
            format!(
                "calibration: {}",
                self.calibration_saved_at
                    .map(|t| age_words(now.duration_since(t).unwrap_or_default()))
                    .unwrap_or_else(|| MISSING.into())
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
            vec!["Source: —", "fps: —", "analysis: —", "calibration: —"]
        );
        let s = StatusLine {
            source: Some("camera 0".into()),
            fps: Some(29.97),
            analysis_ms: Some(12.4),
            calibration_saved_at: Some(now - Duration::from_secs(3 * 3600 + 5)),
        };
        assert_eq!(
            s.parts(now),
            vec![
                "Source: camera 0",
                "fps: 30.0",
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
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("table.json");
        std::fs::write(&p, br#"{"counter": {"beads": "BBKK", "crab": 0}}"#).unwrap();
        let info = read_profile_info(&p).unwrap();
        assert_eq!(info.beads.unwrap().to_string(), "BBKK");
        std::fs::write(&p, br#"{"homography": []}"#).unwrap();
        assert_eq!(read_profile_info(&p).unwrap().beads, None);
        std::fs::write(&p, br#"{"counter": {"beads": "BXK"}}"#).unwrap();
        let e = read_profile_info(&p).unwrap_err().to_string();
        assert!(
            e.contains("table.json") && e.contains("counter.beads") && e.contains("bead 2"),
            "{e}"
        );
        std::fs::write(&p, b"[1]").unwrap();
        assert!(read_profile_info(&p).is_err());
    }
}
