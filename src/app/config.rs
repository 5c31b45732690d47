//! Where the app keeps its files, and the small state it remembers between runs.
//!
//! The config directory is, in order: `$OCTOREF_CONFIG_DIR` (tests, portable installs),
//! `$XDG_CONFIG_HOME/octoref`, `$HOME/.config/octoref`. It holds `app_state.json` (this module's
//! [`AppState`], written atomically whenever it changes) and `games/` (one game log per game, in the
//! `replay` record format). Like egui's demo app, the persisted state is one plain serde struct; a
//! field added later takes its default when an older file is read.

use crate::fsutil::{self, FileError};
use crate::games::crash_octopus::{PlayerColor, RulesData};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// The environment variable that overrides the config directory.
pub const CONFIG_DIR_ENV: &str = "OCTOREF_CONFIG_DIR";
/// The persisted state's file name inside the config directory.
pub const STATE_FILE: &str = "app_state.json";
/// The folder of game logs inside the config directory.
pub const GAMES_DIR: &str = "games";
/// Text zoom when "large type" is on: readable from the other side of the table.
pub const LARGE_TYPE_ZOOM: f32 = 1.5;

/// The app's config directory could not be found.
#[derive(Debug, thiserror::Error)]
#[error(
    "cannot find a config directory: none of {CONFIG_DIR_ENV}, XDG_CONFIG_HOME or HOME is set; expected one of them to name a writable directory"
)]
pub struct NoConfigDir;

/// The config directory from the environment (see the module doc).
pub fn config_dir_from_env() -> Result<PathBuf, NoConfigDir> {
    let var = |name: &str| {
        std::env::var_os(name)
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
    };
    config_dir_from(var(CONFIG_DIR_ENV), var("XDG_CONFIG_HOME"), var("HOME"))
}

/// The rule of [`config_dir_from_env`] on given values (testable without touching the environment).
pub fn config_dir_from(
    octoref: Option<PathBuf>,
    xdg_config_home: Option<PathBuf>,
    home: Option<PathBuf>,
) -> Result<PathBuf, NoConfigDir> {
    octoref
        .or_else(|| xdg_config_home.map(|x| x.join("octoref")))
        .or_else(|| home.map(|h| h.join(".config").join("octoref")))
        .ok_or(NoConfigDir)
}

/// Light or dark colours.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ThemeChoice {
    /// Bright rooms, daylight: the default.
    #[default]
    Light,
    Dark,
}

impl ThemeChoice {
    pub fn toggled(self) -> Self {
        match self {
            ThemeChoice::Light => ThemeChoice::Dark,
            ThemeChoice::Dark => ThemeChoice::Light,
        }
    }
}

/// Which screen is shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PanelId {
    /// Crash Octopus set-up: players, modules, beads.
    #[default]
    Setup,
    /// Crash Octopus at the table.
    Game,
    /// Where the picture comes from: cameras, a video, a folder of images.
    Sources,
    /// The Octocube score sheet.
    Octocube,
    /// The Otto the Octopus board.
    Otto,
    /// Keyboard shortcuts and where files live.
    Help,
    /// The calibration wizard.
    Calibrate,
    /// Teach octoref your pieces.
    Teach,
}

/// The Crash Octopus set-up the user is preparing (kept across runs, so the family's usual table is
/// ready the next time).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct SetupDraft {
    /// The sailors (not the Pirate) in turn order.
    pub sailors: Vec<PlayerColor>,
    pub pink_pirate: bool,
    pub little_octopus: bool,
    pub island: bool,
    /// The bead sequence as typed (`B`/`K`).
    pub beads: String,
}

impl Default for SetupDraft {
    fn default() -> Self {
        SetupDraft {
            sailors: vec![PlayerColor::Orange, PlayerColor::Green],
            pink_pirate: false,
            little_octopus: false,
            island: false,
            beads: default_beads(),
        }
    }
}

/// The shipped default bead sequence (`assets/crash_octopus.toml`).
pub fn default_beads() -> String {
    RulesData::builtin()
        .map(|d| d.counter.beads.to_string())
        .unwrap_or_else(|_| "BBBKBBBKBBKBBKKK".to_string())
}

/// What the app remembers between runs.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct AppState {
    pub theme: ThemeChoice,
    /// Large type for reading at arm's length.
    pub large_type: bool,
    /// The screen shown last.
    pub panel: PanelId,
    /// The calibration profile used last.
    pub last_profile: Option<PathBuf>,
    /// The Crash Octopus game log in progress (resumed on start).
    pub last_game: Option<PathBuf>,
    pub setup: SetupDraft,
}

/// The state file could not be used; the app carries on with defaults.
#[derive(Debug)]
pub struct StateProblem {
    /// What was wrong, naming the file and field.
    pub message: String,
    /// Where the unreadable file was moved so that it is not lost.
    pub kept_as: Option<PathBuf>,
}

/// The config directory and the files in it.
#[derive(Debug, Clone)]
pub struct ConfigDir {
    root: PathBuf,
}

impl ConfigDir {
    pub fn new(root: impl Into<PathBuf>) -> Self {
        ConfigDir { root: root.into() }
    }

    pub fn root(&self) -> &Path {
        &self.root
    }

    pub fn state_file(&self) -> PathBuf {
        self.root.join(STATE_FILE)
    }

    pub fn games_dir(&self) -> PathBuf {
        self.root.join(GAMES_DIR)
    }

    /// Reads the state. A missing file gives the defaults silently; an unreadable one gives the
    /// defaults and a [`StateProblem`], after moving the bad file aside (`app_state.json.bad`) so the
    /// next save does not destroy what the user may want to look at.
    pub fn load_state(&self) -> (AppState, Option<StateProblem>) {
        let path = self.state_file();
        if !path.exists() {
            return (AppState::default(), None);
        }
        match fsutil::read_json::<AppState>(&path) {
            Ok(s) => (s, None),
            Err(e) => {
                let bad = path.with_extension("json.bad");
                let kept_as = std::fs::rename(&path, &bad).ok().map(|()| bad);
                (
                    AppState::default(),
                    Some(StateProblem {
                        message: e.to_string(),
                        kept_as,
                    }),
                )
            }
        }
    }

    /// Writes the state atomically, creating the directory if needed.
    pub fn save_state(&self, state: &AppState) -> Result<(), FileError> {
        std::fs::create_dir_all(&self.root).map_err(|e| FileError::io(&self.root, &e))?;
        fsutil::write_json_atomic(&self.state_file(), state)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_config_dir_follows_the_override_then_xdg_then_home() {
        let p = |s: &str| Some(PathBuf::from(s));
        assert_eq!(
            config_dir_from(p("/o"), p("/x"), p("/h")).unwrap(),
            PathBuf::from("/o")
        );
        assert_eq!(
            config_dir_from(None, p("/x"), p("/h")).unwrap(),
            PathBuf::from("/x/octoref")
        );
        assert_eq!(
            config_dir_from(None, None, p("/h")).unwrap(),
            PathBuf::from("/h/.config/octoref")
        );
        assert!(config_dir_from(None, None, None).is_err());
    }

    #[test]
    fn state_round_trips_and_old_files_take_defaults_for_new_fields() {
        let dir = tempfile::tempdir().unwrap();
        let c = ConfigDir::new(dir.path().join("cfg"));
        let (s, problem) = c.load_state();
        assert_eq!(s, AppState::default());
        assert!(problem.is_none());
        let mut s = AppState {
            theme: ThemeChoice::Dark,
            large_type: true,
            ..AppState::default()
        };
        s.setup.sailors = vec![PlayerColor::Blue, PlayerColor::Orange];
        c.save_state(&s).unwrap();
        assert_eq!(c.load_state().0, s);
        std::fs::write(c.state_file(), br#"{"theme": "dark"}"#).unwrap();
        let (s, problem) = c.load_state();
        assert!(problem.is_none());
        assert_eq!(s.theme, ThemeChoice::Dark);
        assert_eq!(s.setup, SetupDraft::default());
    }

    #[test]
    fn a_bad_state_file_is_reported_and_kept_aside() {
        let dir = tempfile::tempdir().unwrap();
        let c = ConfigDir::new(dir.path());
        std::fs::write(c.state_file(), br#"{"theme": "purple"}"#).unwrap();
        let (s, problem) = c.load_state();
        assert_eq!(s, AppState::default());
        let problem = problem.unwrap();
        assert!(problem.message.contains("theme"), "{}", problem.message);
        let kept = problem.kept_as.unwrap();
        assert_eq!(std::fs::read(kept).unwrap(), br#"{"theme": "purple"}"#);
        assert!(!c.state_file().exists());
    }
}
