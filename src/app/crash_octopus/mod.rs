//! Crash Octopus at the table: the set-up panel, the game panel, and what sits behind them.
//!
//! [`Table`] owns the game in progress (a [`session::Session`]: the record, the game, its log
//! file), the questions waiting for the players, and the forms of the game panel. Everything the
//! panels record goes through [`Table::record`], which gives the event to the rules: a refused event
//! is shown as a plain refusal and changes nothing.

pub mod counter_strip;
pub mod forms;
pub mod game_log;
pub mod game_panel;
pub mod questions;
pub mod session;
pub mod setup_panel;

use crate::games::crash_octopus::{Event, Game, Record, RuleError};
use forms::Forms;
use game_log::RecoveryReport;
use questions::{Answer, Origin, QuestionKind, QuestionQueue, Resolution};
use session::Session;
use std::path::{Path, PathBuf};

/// The game in progress and the state of its panel.
#[derive(Debug, Default)]
pub struct Table {
    session: Option<Session>,
    questions: QuestionQueue,
    forms: Forms,
    /// Why the last thing the players recorded was refused, in plain words.
    refusal: Option<String>,
    /// Lines the players agreed on that the record has no place for (too-close-to-call choices).
    notes: Vec<String>,
    /// What was recovered from a damaged game log at start.
    recovery: Option<RecoveryReport>,
    /// The saved game could not be resumed at all.
    resume_error: Option<String>,
    /// What the camera last read on top of the ink die (pre-fills the die question).
    camera_die: Option<questions::CameraDie>,
}

impl Table {
    /// Resumes the game saved at `path`; on failure the table is empty and says why.
    pub fn resume(path: &Path) -> Table {
        match Session::resume(path) {
            Ok((session, recovery)) => Table {
                session: Some(session),
                recovery,
                ..Table::default()
            },
            Err(e) => Table {
                resume_error: Some(format!(
                    "The saved game could not be resumed: {e}. The file is left as it was; set up a new game to go on."
                )),
                ..Table::default()
            },
        }
    }

    /// Starts a new game, written to `path`.
    pub fn start(&mut self, path: PathBuf, record: Record) -> Result<(), String> {
        let session = Session::start(path, record).map_err(|e| e.to_string())?;
        *self = Table {
            session: Some(session),
            ..Table::default()
        };
        Ok(())
    }

    pub fn session(&self) -> Option<&Session> {
        self.session.as_ref()
    }

    pub fn game(&self) -> Option<&Game> {
        self.session.as_ref().map(Session::game)
    }

    pub fn questions(&self) -> &QuestionQueue {
        &self.questions
    }

    pub fn refusal(&self) -> Option<&str> {
        self.refusal.as_deref()
    }

    pub fn notes(&self) -> &[String] {
        &self.notes
    }

    pub fn recovery(&self) -> Option<&RecoveryReport> {
        self.recovery.as_ref()
    }

    pub fn dismiss_recovery(&mut self) {
        self.recovery = None;
    }

    pub fn resume_error(&self) -> Option<&str> {
        self.resume_error.as_deref()
    }

    pub fn dismiss_resume_error(&mut self) {
        self.resume_error = None;
    }

    /// Gives one event to the rules. Accepted: saved, the forms reset. Refused: the reason is kept
    /// for the panel and nothing changes. Returns whether it was accepted.
    pub fn record(&mut self, event: Event) -> bool {
        let Some(session) = self.session.as_mut() else {
            self.refusal = Some("No game is in progress: set one up first.".into());
            return false;
        };
        match session.apply(event) {
            Ok(_) => {
                self.refusal = None;
                self.forms = Forms::default();
                true
            }
            Err(e) => {
                self.refusal = Some(plain_refusal(&e));
                false
            }
        }
    }

    /// Takes back the last event. Questions about the moment that is undone no longer apply.
    pub fn undo(&mut self) {
        let Some(session) = self.session.as_mut() else {
            return;
        };
        if session.undo().is_some() {
            self.refusal = None;
            self.forms = Forms::default();
            self.questions.clear();
        } else {
            self.refusal = Some("Nothing to undo: no event has been recorded yet.".into());
        }
    }

    /// Adds a question for the players (from the players' own forms, or from the camera pipeline).
    /// Takes what the live referee reads on the ink die (`None`: no camera, or no die in view).
    pub fn camera_sees(&mut self, snapshot: Option<&crate::live::LiveSnapshot>) {
        self.camera_die = snapshot.and_then(crate::app::referee_link::camera_die);
    }

    /// What the camera reads on top of the ink die, if anything.
    pub fn camera_die(&self) -> Option<questions::CameraDie> {
        self.camera_die
    }

    pub fn ask(&mut self, kind: QuestionKind, origin: Origin) -> u64 {
        self.questions.ask(kind, origin)
    }

    /// Answers question `id`. An answer that leads to an event the rules refuse puts the question
    /// back, with the refusal shown.
    pub fn answer(&mut self, id: u64, answer: &Answer) {
        let Some(q) = self.questions.take(id) else {
            return;
        };
        match q.resolve(answer) {
            Resolution::Event(e) => {
                if !self.record(e) {
                    self.questions.put_back(q);
                }
            }
            Resolution::Note(n) => self.notes.push(n),
            Resolution::Nothing => {}
        }
    }

    /// Writes the game log if an event changed it (called from `App::logic`, off the drawing path).
    pub fn flush(&mut self) {
        if let Some(s) = self.session.as_mut() {
            s.flush();
        }
    }

    /// Whether a change waits to be written by [`Table::flush`].
    pub fn needs_flush(&self) -> bool {
        self.session.as_ref().is_some_and(Session::wants_flush)
    }

    /// Asks the next flush to try saving again after a failure.
    pub fn retry_save(&mut self) {
        if let Some(s) = self.session.as_mut() {
            s.retry_save();
        }
    }
}

/// A rules error in plain words: without the leading "`field`: " the file formats need.
pub fn plain_refusal(e: &RuleError) -> String {
    let text = e.to_string();
    let plain = match text.strip_prefix('`').and_then(|r| r.split_once("`: ")) {
        Some((_, rest)) => rest.to_string(),
        None => text,
    };
    let mut c = plain.chars();
    match c.next() {
        Some(first) => first.to_uppercase().chain(c).collect(),
        None => plain,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::crash_octopus::{Flick, Modules, PlayerColor, TreasureType};
    use PlayerColor::*;

    fn table() -> (tempfile::TempDir, Table) {
        let dir = tempfile::tempdir().unwrap();
        let mut t = Table::default();
        let mut r = Record::new(vec![Orange, Green], Modules::default());
        r.beads = Some("BKBB".parse().unwrap());
        t.start(dir.path().join("g.json"), r).unwrap();
        t.flush();
        (dir, t)
    }

    fn load(p: PlayerColor, t: TreasureType) -> Event {
        Event::Flick(Flick {
            player: p,
            loaded: Some(t),
            toppled: vec![],
        })
    }

    #[test]
    fn refusals_are_plain_words_and_change_nothing() {
        let (_d, mut t) = table();
        assert!(t.record(load(Orange, TreasureType::Gold)));
        assert!(!t.record(load(Orange, TreasureType::Gem)));
        assert_eq!(
            t.refusal().unwrap(),
            "It is green's turn, not orange's; expected a flick or navigate by green"
        );
        assert!(t.record(load(Green, TreasureType::Gold)));
        assert!(t.refusal().is_none());
        // The crab stepped onto a black bead: green's load started an attack.
        assert!(t.game().unwrap().attack().is_some());
    }

    #[test]
    fn the_field_prefix_is_dropped_from_refusals() {
        let (_d, mut t) = table();
        t.record(load(Orange, TreasureType::Gold));
        t.record(Event::Flick(Flick {
            player: Green,
            loaded: None,
            toppled: vec![TreasureType::Gem],
        }));
        let r = t.refusal().unwrap();
        assert!(r.starts_with("The gem is not loaded on green's ship"), "{r}");
    }

    #[test]
    fn an_answer_the_rules_refuse_asks_again() {
        let (_d, mut t) = table();
        let id = t.ask(
            QuestionKind::LoadSeen {
                player: Green,
                treasure: TreasureType::Gold,
            },
            Origin::Vision,
        );
        t.answer(id, &Answer::ConfirmLoad);
        assert!(t.refusal().unwrap().contains("orange's turn"));
        assert_eq!(t.questions().len(), 1);
        let id = t.ask(
            QuestionKind::LoadSeen {
                player: Orange,
                treasure: TreasureType::Gold,
            },
            Origin::Vision,
        );
        t.answer(id, &Answer::ConfirmLoad);
        assert_eq!(t.game().unwrap().counter().crab(), 1);
    }

    #[test]
    fn a_damaged_or_missing_log_is_reported_not_replaced() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("g.json");
        std::fs::write(&p, b"{\"players\": [\"orange\"").unwrap();
        let t = Table::resume(&p);
        assert!(t.game().is_none());
        assert!(t.resume_error().unwrap().contains("g.json"));
        assert_eq!(std::fs::read(&p).unwrap(), b"{\"players\": [\"orange\"");
    }
}
