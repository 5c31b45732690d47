//! One Crash Octopus game at the table: the record, the game replayed from it, and its log file.
//!
//! Every accepted event is appended to the record; [`Session::flush`] then writes the whole record
//! to disk (atomically). The app flushes in `App::logic`, right after the frame that recorded the
//! event, so the UI thread never waits on the disk while drawing. A refused event changes nothing.
//! Undo replays every event but the last. If a save fails (disk full, folder removed) the game goes
//! on in memory, the error is kept for the app to show, and the next flush writes it again.

use super::game_log::{self, LoadError, Loaded, RecoveryReport};
use crate::fsutil::FileError;
use crate::games::crash_octopus::{Event, Game, Record, ReplayError, RuleError};
use std::path::{Path, PathBuf};

#[derive(Debug)]
pub struct Session {
    path: PathBuf,
    record: Record,
    game: Game,
    /// The record has changed since it was last written.
    dirty: bool,
    /// A write should be attempted at the next flush (after a change, or when asked to retry; not
    /// again and again after a failure).
    attempt: bool,
    save_error: Option<String>,
}

/// The outcome of an accepted event.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Applied {
    /// The lines the event added to the game log.
    pub lines: Vec<String>,
}

impl Session {
    /// Starts a new game from a record (its log file is written by the next [`Session::flush`]).
    pub fn start(path: PathBuf, record: Record) -> Result<Session, ReplayError> {
        let game = Game::replay(&record)?;
        Ok(Session {
            path,
            record,
            game,
            dirty: true,
            attempt: true,
            save_error: None,
        })
    }

    /// Resumes the game saved at `path`; the report says what was dropped from a damaged file.
    pub fn resume(path: &Path) -> Result<(Session, Option<RecoveryReport>), LoadError> {
        let Loaded {
            record,
            game,
            recovery,
        } = game_log::load(path)?;
        Ok((
            Session {
                path: path.to_path_buf(),
                record,
                game,
                dirty: false,
                attempt: false,
                save_error: None,
            },
            recovery,
        ))
    }

    /// Applies one event: on success the record grows (to be written by the next flush); on
    /// refusal nothing changes.
    pub fn apply(&mut self, event: Event) -> Result<Applied, RuleError> {
        let lines = self.game.apply(&event)?;
        self.record.events.push(event);
        self.dirty = true;
        self.attempt = true;
        Ok(Applied { lines })
    }

    /// Takes back the last event (replaying all the others). Returns the event taken back.
    pub fn undo(&mut self) -> Option<Event> {
        let shorter = self.record.without_last();
        let last = self.record.events.last().cloned()?;
        match Game::replay(&shorter) {
            Ok(game) => {
                self.game = game;
                self.record = shorter;
                self.dirty = true;
                self.attempt = true;
                Some(last)
            }
            // Cannot happen: a prefix of a replayable record replays. Keep the game as it is.
            Err(_) => None,
        }
    }

    /// Writes the log if it changed since the last successful write. After a failed write it
    /// tries again only after the next change or [`Session::retry_save`].
    pub fn flush(&mut self) {
        if !(self.dirty && self.attempt) {
            return;
        }
        self.attempt = false;
        match game_log::save(&self.path, &self.record) {
            Ok(()) => {
                self.dirty = false;
                self.save_error = None;
            }
            Err(e) => self.save_error = Some(FileError::to_string(&e)),
        }
    }

    /// Something is waiting to be written.
    pub fn is_dirty(&self) -> bool {
        self.dirty
    }

    /// A write waits for the next flush.
    pub fn wants_flush(&self) -> bool {
        self.dirty && self.attempt
    }

    /// Asks the next flush to try writing again after a failure.
    pub fn retry_save(&mut self) {
        self.attempt = true;
    }

    pub fn game(&self) -> &Game {
        &self.game
    }

    pub fn record(&self) -> &Record {
        &self.record
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Why the last save failed; `None` when the file on disk holds every event.
    pub fn save_error(&self) -> Option<&str> {
        self.save_error.as_deref()
    }
}

/// A file name for a new game's log: `crash-octopus-YYYY-MM-DD-HHMMSS.json` (UTC), made unique in
/// `dir` with a `-N` suffix when needed.
pub fn new_log_path(dir: &Path, unix_secs: u64) -> PathBuf {
    let stamp = utc_stamp(unix_secs);
    let mut p = dir.join(format!("crash-octopus-{stamp}.json"));
    let mut n = 2;
    while p.exists() {
        p = dir.join(format!("crash-octopus-{stamp}-{n}.json"));
        n += 1;
    }
    p
}

/// `YYYY-MM-DD-HHMMSS` for seconds since 1970 (UTC).
fn utc_stamp(unix_secs: u64) -> String {
    let t = crate::clock::UtcTime::from_unix(unix_secs);
    format!(
        "{:04}-{:02}-{:02}-{:02}{:02}{:02}",
        t.year, t.month, t.day, t.hour, t.minute, t.second
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::crash_octopus::{Flick, InkDrop, Modules, PlayerColor, TreasureType};
    use PlayerColor::*;

    fn load(p: PlayerColor, t: TreasureType) -> Event {
        Event::Flick(Flick {
            player: p,
            loaded: Some(t),
            toppled: vec![],
        })
    }

    fn record(beads: &str) -> Record {
        let mut r = Record::new(vec![Orange, Green, Blue], Modules::default());
        r.beads = Some(beads.parse().unwrap());
        r
    }

    #[test]
    fn every_event_is_on_disk_and_a_restart_resumes_it() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("games/g.json");
        let mut s = Session::start(p.clone(), record("BKBB")).unwrap();
        s.flush();
        assert!(p.exists());
        s.apply(load(Orange, TreasureType::Gold)).unwrap();
        s.apply(load(Green, TreasureType::Gem)).unwrap();
        assert!(s.is_dirty());
        s.flush();
        assert!(!s.is_dirty() && s.save_error().is_none());
        let (back, report) = Session::resume(&p).unwrap();
        assert!(report.is_none());
        assert_eq!(back.game(), s.game());
        assert_eq!(back.record().events.len(), 2);
    }

    #[test]
    fn a_refused_event_changes_nothing_on_disk_or_in_memory() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("g.json");
        let mut s = Session::start(p.clone(), record("BKBB")).unwrap();
        s.apply(load(Orange, TreasureType::Gold)).unwrap();
        s.flush();
        let before = std::fs::read(&p).unwrap();
        let game = s.game().clone();
        let e = s
            .apply(Event::Drop(InkDrop {
                player: Green,
                hit_ship: None,
                toppled: vec![],
                top: None,
                head: None,
                stolen: vec![],
            }))
            .unwrap_err();
        assert!(matches!(e, RuleError::DropWithoutAttack { .. }));
        assert!(!s.is_dirty());
        s.flush();
        assert_eq!(s.game(), &game);
        assert_eq!(std::fs::read(&p).unwrap(), before);
    }

    #[test]
    fn undo_replays_all_but_the_last_event_and_saves() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("g.json");
        let mut s = Session::start(p.clone(), record("BKBB")).unwrap();
        s.apply(load(Orange, TreasureType::Gold)).unwrap();
        let after_one = s.game().clone();
        s.apply(load(Green, TreasureType::Gem)).unwrap();
        assert!(s.game().attack().is_some());
        assert_eq!(s.undo(), Some(load(Green, TreasureType::Gem)));
        assert_eq!(s.game(), &after_one);
        s.flush();
        assert_eq!(Session::resume(&p).unwrap().0.record().events.len(), 1);
        s.undo();
        assert_eq!(s.undo(), None);
    }

    #[test]
    fn a_failed_save_is_reported_and_retried() {
        let dir = tempfile::tempdir().unwrap();
        let games = dir.path().join("games");
        let p = games.join("g.json");
        let mut s = Session::start(p.clone(), record("BKBB")).unwrap();
        s.flush();
        std::fs::remove_dir_all(&games).unwrap();
        // A file where the folder should be: the save cannot succeed.
        std::fs::write(&games, b"x").unwrap();
        s.apply(load(Orange, TreasureType::Gold)).unwrap();
        s.flush();
        assert!(s.save_error().is_some() && s.is_dirty());
        assert_eq!(s.game().counter().crab(), 1);
        std::fs::remove_file(&games).unwrap();
        s.flush();
        assert!(s.save_error().is_some(), "no retry without a change or a request");
        s.retry_save();
        s.flush();
        assert!(s.save_error().is_none());
        assert_eq!(Session::resume(&p).unwrap().0.record().events.len(), 1);
    }

    #[test]
    fn log_names_carry_the_utc_date_and_stay_unique() {
        assert_eq!(utc_stamp(0), "1970-01-01-000000");
        assert_eq!(utc_stamp(1_709_210_096), "2024-02-29-123456");
        let dir = tempfile::tempdir().unwrap();
        let a = new_log_path(dir.path(), 0);
        std::fs::write(&a, b"{}").unwrap();
        let b = new_log_path(dir.path(), 0);
        assert_ne!(a, b);
        assert!(
            b.to_string_lossy()
                .ends_with("crash-octopus-1970-01-01-000000-2.json")
        );
    }
}
