//! The game log on disk: a Crash Octopus game [`Record`] in the `replay` format (`spec/cli.md`),
//! rewritten atomically after every event, and read back when the app starts again.
//!
//! Reading never loses a game silently. A file that is not valid JSON (cut short by a full disk, or
//! edited by hand) is salvaged: its set-up and every event that can still be read in full, in order,
//! up to the first damaged one. Events the rules refuse on replay end the salvage the same way (the
//! valid prefix is kept). Whenever anything was dropped, the original file is first copied beside
//! itself (`NAME.damaged-N.json`) and a [`RecoveryReport`] says what was kept and where the original
//! is.

use crate::fsutil::{self, FileError};
use crate::games::crash_octopus::{Event, Game, Record, ReplayError};
use std::path::{Path, PathBuf};

/// What was recovered from a damaged game log.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RecoveryReport {
    pub path: PathBuf,
    /// What was wrong with the file, naming the field or event.
    pub problem: String,
    /// Events kept: the first `events_kept` of the file, in order.
    pub events_kept: usize,
    /// Events that could be read in the file (intact or not allowed by the rules), when known.
    pub events_read: usize,
    /// The untouched copy of the original file.
    pub original_kept_as: Option<PathBuf>,
}

impl RecoveryReport {
    /// One sentence for the banner.
    pub fn message(&self) -> String {
        let kept = match &self.original_kept_as {
            Some(p) => format!(" The original file is kept as {}.", p.display()),
            None => " The original file could not be copied aside; it is left as it was.".to_string(),
        };
        format!(
            "The saved game {} was damaged ({}). Recovered the set-up and the first {} event{}; the game goes on from there.{kept}",
            self.path.display(),
            self.problem,
            self.events_kept,
            if self.events_kept == 1 { "" } else { "s" }
        )
    }
}

/// A game log that could not be resumed at all (its set-up is unreadable or not allowed).
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    #[error("{0}")]
    File(#[from] FileError),
    #[error("{path}: {error}")]
    Setup { path: PathBuf, error: ReplayError },
}

/// A game log read back: the record as kept, the game replayed from it, and what was dropped.
#[derive(Debug)]
pub struct Loaded {
    pub record: Record,
    pub game: Game,
    pub recovery: Option<RecoveryReport>,
}

/// Writes the record atomically (write, fsync, rename), creating the folder if needed.
pub fn save(path: &Path, record: &Record) -> Result<(), FileError> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(|e| FileError::io(dir, &e))?;
    }
    fsutil::write_json_atomic(path, record)
}

/// Reads a game log, salvaging what it can (see the module doc).
pub fn load(path: &Path) -> Result<Loaded, LoadError> {
    let bytes = fsutil::read_input(path)?;
    let (record, parse_problem, events_read) = match fsutil::parse_json::<Record>(&bytes, path) {
        Ok(r) => {
            let n = r.events.len();
            (r, None, n)
        }
        Err(parse_error) => {
            let text = String::from_utf8_lossy(&bytes);
            match salvage(&text) {
                Some(s) => {
                    let problem = match &s.stopped_at {
                        Some(why) => format!("events[{}] could not be read: {why}", s.record.events.len()),
                        None => parse_error.to_string(),
                    };
                    let n = s.record.events.len();
                    (s.record, Some(problem), n)
                }
                None => return Err(LoadError::File(parse_error)),
            }
        }
    };
    let (record, game, refusal) = replay_valid_prefix(record).map_err(|error| LoadError::Setup {
        path: path.to_path_buf(),
        error,
    })?;
    let problem = match (parse_problem, refusal) {
        (None, None) => None,
        (Some(p), None) => Some(p),
        (None, Some(r)) => Some(r),
        (Some(p), Some(r)) => Some(format!("{p}; then {r}")),
    };
    let recovery = problem.map(|problem| RecoveryReport {
        path: path.to_path_buf(),
        problem,
        events_kept: record.events.len(),
        events_read,
        original_kept_as: keep_original(path),
    });
    Ok(Loaded {
        record,
        game,
        recovery,
    })
}

/// Replays the record; at the first event the rules refuse, drops it and everything after it.
/// Only an unusable set-up is an error.
fn replay_valid_prefix(mut record: Record) -> Result<(Record, Game, Option<String>), ReplayError> {
    match Game::replay(&record) {
        Ok(game) => Ok((record, game, None)),
        Err(ReplayError::Event {
            index,
            kind,
            player,
            error,
        }) => {
            let why = format!("events[{index}] ({kind} by {player}) is not allowed by the rules: {error}");
            record.events.truncate(index);
            let game = Game::replay(&record)?;
            Ok((record, game, Some(why)))
        }
        Err(e) => Err(e),
    }
}

/// Copies the damaged file to the first free `NAME.damaged-N.json` beside it.
fn keep_original(path: &Path) -> Option<PathBuf> {
    let stem = path.file_stem()?.to_string_lossy().into_owned();
    let dir = path.parent().map(Path::to_path_buf).unwrap_or_default();
    (1..1000)
        .map(|n| dir.join(format!("{stem}.damaged-{n}.json")))
        .find(|p| !p.exists())
        .and_then(|p| std::fs::copy(path, &p).ok().map(|_| p))
}

/// What [`salvage`] could read.
struct Salvaged {
    record: Record,
    /// Why reading the events stopped early (`None`: the event list was read to its end).
    stopped_at: Option<String>,
}

/// Reads the set-up and the longest run of complete events from a record that is not valid JSON
/// as a whole. The set-up fields must come before `events` (as [`save`] writes them).
fn salvage(text: &str) -> Option<Salvaged> {
    let key = text.find("\"events\"")?;
    let head = text[..key].trim_end().trim_end_matches(',');
    let record: Record = serde_json::from_str(&format!("{head}}}")).ok()?;
    let mut rest = text[key + "\"events\"".len()..].trim_start();
    rest = rest.strip_prefix(':')?.trim_start();
    rest = rest.strip_prefix('[')?;
    let mut events = Vec::new();
    let stopped_at = loop {
        rest = rest.trim_start();
        if rest.starts_with(']') {
            break None;
        }
        if rest.is_empty() {
            break Some("the file ends in the middle of the event list".to_string());
        }
        let mut stream = serde_json::Deserializer::from_str(rest).into_iter::<Event>();
        match stream.next() {
            Some(Ok(event)) => {
                events.push(event);
                rest = rest[stream.byte_offset()..].trim_start();
                if let Some(r) = rest.strip_prefix(',') {
                    rest = r;
                } else if rest.is_empty() {
                    break Some("the file ends in the middle of the event list".to_string());
                } else if !rest.starts_with(']') {
                    break Some("expected `,` or `]` after an event".to_string());
                }
            }
            Some(Err(e)) if e.is_eof() => break Some("the file ends in the middle of an event".to_string()),
            Some(Err(e)) => break Some(e.to_string()),
            None => break Some("the file ends in the middle of the event list".to_string()),
        }
    };
    Some(Salvaged {
        record: Record { events, ..record },
        stopped_at,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::crash_octopus::{Flick, Modules, PlayerColor, TreasureType};
    use PlayerColor::*;

    fn flick(p: PlayerColor, t: Option<TreasureType>) -> Event {
        Event::Flick(Flick {
            player: p,
            loaded: t,
            toppled: vec![],
        })
    }

    fn three_events() -> Record {
        let mut r = Record::new(vec![Orange, Green], Modules::default());
        r.beads = Some("BBBKBBBKBBKBBKKK".parse().unwrap());
        r.events = vec![
            flick(Orange, Some(TreasureType::Gold)),
            flick(Green, None),
            flick(Orange, Some(TreasureType::Gem)),
        ];
        r
    }

    #[test]
    fn a_saved_log_reads_back_whole() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("games/g.json");
        let r = three_events();
        save(&p, &r).unwrap();
        let l = load(&p).unwrap();
        assert_eq!(l.record, r);
        assert!(l.recovery.is_none());
        assert_eq!(l.game.counter().crab(), 2);
    }

    #[test]
    fn a_truncated_log_keeps_its_complete_events_and_the_original() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("g.json");
        save(&p, &three_events()).unwrap();
        let full = std::fs::read_to_string(&p).unwrap();
        // Cut inside the third event.
        let cut = full.rfind("\"gem\"").unwrap();
        std::fs::write(&p, &full[..cut]).unwrap();
        let l = load(&p).unwrap();
        assert_eq!(l.record.events, three_events().events[..2].to_vec());
        let rep = l.recovery.unwrap();
        assert_eq!(rep.events_kept, 2);
        assert!(rep.problem.contains("events[2]"), "{}", rep.problem);
        let kept = rep.original_kept_as.clone().unwrap();
        assert_eq!(std::fs::read_to_string(kept).unwrap(), &full[..cut]);
        assert!(rep.message().contains("first 2 events"), "{}", rep.message());
        // Still untouched: nothing was written over the damaged file.
        assert_eq!(std::fs::read_to_string(&p).unwrap(), &full[..cut]);
    }

    #[test]
    fn a_log_cut_between_events_keeps_them_all() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("g.json");
        let text = serde_json::to_string(&three_events()).unwrap();
        let cut = text.rfind(']').unwrap();
        std::fs::write(&p, &text[..cut]).unwrap();
        let l = load(&p).unwrap();
        assert_eq!(l.record.events.len(), 3);
        assert!(l.recovery.unwrap().problem.contains("ends in the middle"));
    }

    #[test]
    fn events_the_rules_refuse_end_the_valid_prefix() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("g.json");
        let mut r = three_events();
        // Green cannot play twice in a row.
        r.events.insert(2, flick(Green, None));
        save(&p, &r).unwrap();
        let l = load(&p).unwrap();
        assert_eq!(l.record.events.len(), 2);
        let rep = l.recovery.unwrap();
        assert!(
            rep.problem.contains("events[2] (flick by green)"),
            "{}",
            rep.problem
        );
        assert_eq!(rep.events_read, 4);
    }

    #[test]
    fn an_unusable_setup_or_garbage_is_an_error_naming_the_file() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("g.json");
        std::fs::write(&p, br#"{"players": ["orange"], "events": []}"#).unwrap();
        let e = load(&p).unwrap_err().to_string();
        assert!(e.contains("g.json") && e.contains("players"), "{e}");
        std::fs::write(&p, b"not json").unwrap();
        let e = load(&p).unwrap_err().to_string();
        assert!(e.contains("g.json"), "{e}");
        assert!(load(&dir.path().join("missing.json")).is_err());
    }
}
