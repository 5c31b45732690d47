//! The committer: what the players are shown changes only after two agreeing settled readings.
//!
//! Fed every [`TrackedState`] in order. While the table is settled, a *reading* is taken at the
//! first settled frame and then every `reading_interval_frames` frames: the tracked pieces become
//! a [`FrameReport`], the referee rules on it, and the reading's [`ReadingDigest`] (the rulings'
//! decisions plus what each piece is, where it stands and what shows on top — no jittering
//! millimetres) goes to the referee's [`CommitGate`]. Two consecutive readings that agree
//! commit; anything unsettled, obstructed, moved or relit in between breaks the pair and is
//! never committed. Readings are spaced so that the second is evidence of its own, not the same
//! smoothed frame seen twice. At each commit the committer says what changed since the last one.
//! A reading that agrees with what is committed refreshes its measurements (the gaps shown stay
//! current) without being a change.

use super::class::PieceClass;
use super::error::TrackingError;
use super::state::TrackedState;
use crate::games::crash_octopus::{DieTop, PlayerColor};
use crate::referee::{CommitGate, FrameReport, GameContext, GateOutcome, Reading, RulingsDigest};
use crate::table::{OceanReport, PieceReport, PointMm};
use serde::Serialize;
use std::collections::BTreeMap;

/// Frames between two readings of a settled table (at 30 fps, a sixth of a second).
pub const READING_INTERVAL_FRAMES: u32 = 5;
/// A piece whose centre moved more than this between two commits is reported as moved, mm.
pub const COMMIT_MOVED_MM: f64 = 3.0;

/// The decisions of a reading: two readings with the same digest tell the players the same.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct ReadingDigest {
    pub rulings: RulingsDigest,
    /// Every piece by stable id, without its measurements.
    pub pieces: Vec<PieceDigest>,
}

/// What a reading says about one piece, measurements left out.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PieceDigest {
    pub id: String,
    pub class: PieceClass,
    pub loaded_on: Option<String>,
    pub on_island: bool,
    pub top: Option<&'static str>,
    pub in_ocean: bool,
    pub on_string: bool,
}

impl ReadingDigest {
    /// The digest of a ruled frame (a frame without rulings digests as no rulings).
    pub fn of(frame: &FrameReport) -> Self {
        let mut pieces: Vec<PieceDigest> = frame
            .pieces
            .iter()
            .map(|p| PieceDigest {
                id: p.id.clone(),
                class: PieceClass::of(p),
                loaded_on: p.loaded_on.clone(),
                on_island: p.on_island,
                top: p.top.map(top_name),
                in_ocean: p.in_ocean,
                on_string: p.on_string,
            })
            .collect();
        pieces.sort();
        Self {
            rulings: frame.rulings.as_ref().map(|r| r.digest()).unwrap_or_default(),
            pieces,
        }
    }
}

fn top_name(top: DieTop) -> &'static str {
    match top {
        DieTop::Black => "black",
        DieTop::Red => "red",
    }
}

/// One committed reading.
#[derive(Debug, Clone, PartialEq)]
pub struct Commit {
    /// The frame of the second agreeing reading.
    pub seq: u64,
    /// The frame of the latest reading that agreed with it (its measurements are shown).
    pub measured_seq: u64,
    /// The reading, with its rulings.
    pub frame: FrameReport,
    pub digest: ReadingDigest,
    /// What changed since the previous commit (everything, at the first one).
    pub changes: CommitChanges,
}

/// A piece whose centre moved between two commits.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PieceMoved {
    pub id: String,
    pub from_mm: PointMm,
    pub to_mm: PointMm,
    pub distance_mm: f64,
}

/// A piece whose class changed between two commits.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PieceReclassified {
    pub id: String,
    pub from: PieceClass,
    pub to: PieceClass,
}

/// A treasure whose ship changed between two commits.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LoadChanged {
    pub id: String,
    pub from: Option<String>,
    pub to: Option<String>,
}

/// What a commit changed.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct CommitChanges {
    /// Pieces in this reading that were not in the last committed one.
    pub appeared: Vec<String>,
    /// Pieces of the last committed reading that are no longer in this one.
    pub removed: Vec<String>,
    pub moved: Vec<PieceMoved>,
    pub reclassified: Vec<PieceReclassified>,
    pub loads: Vec<LoadChanged>,
    /// Ink dice whose top colour changed.
    pub die_tops: Vec<String>,
    /// The parts of the rulings whose decisions changed: `players.orange`, `out_of_ocean`,
    /// `on_string`, `redrop`, `put_back`, `next_load`, `attack_order`, `island`, `questions`.
    pub rulings: Vec<String>,
    /// Messages for the players that the last committed rulings did not have.
    pub new_messages: Vec<String>,
}

impl CommitChanges {
    /// Whether the commit changed nothing at all (only a first commit of an empty table).
    pub fn is_empty(&self) -> bool {
        self == &CommitChanges::default()
    }
}

/// What feeding one tracked state did.
#[derive(Debug, Clone, PartialEq)]
pub struct CommitStep {
    /// What the gate did with this state's reading; `None` when the table is settled but no
    /// reading was due in this frame.
    pub outcome: Option<GateOutcome>,
    /// Set exactly when this state committed a new reading.
    pub changes: Option<CommitChanges>,
}

/// Turns tracked states into committed rulings.
#[derive(Debug, Clone)]
pub struct Committer {
    ocean: OceanReport,
    ctx: GameContext,
    reading_interval_frames: u32,
    gate: CommitGate<ReadingDigest>,
    /// `frames_still` of the last reading taken in the current still period.
    last_reading_at: Option<u32>,
    committed: Option<Commit>,
}

impl Committer {
    /// A committer for this ocean and game. The context is checked at once.
    pub fn new(ocean: OceanReport, ctx: GameContext) -> Result<Self, TrackingError> {
        ctx.validate()?;
        Ok(Self {
            ocean,
            ctx,
            reading_interval_frames: READING_INTERVAL_FRAMES,
            gate: CommitGate::new(),
            last_reading_at: None,
            committed: None,
        })
    }

    /// Readings every `frames` frames of a settled table (at least 1).
    pub fn with_reading_interval(mut self, frames: u32) -> Self {
        self.reading_interval_frames = frames.max(1);
        self
    }

    /// The last committed reading.
    pub fn committed(&self) -> Option<&Commit> {
        self.committed.as_ref()
    }

    pub fn context(&self) -> &GameContext {
        &self.ctx
    }

    /// The game moved on (another player's turn, a load recorded): the committed table is
    /// ruled again at once under the new context, since the table itself has not changed, and
    /// that becomes the committed reading. Returns what changed in the rulings.
    pub fn set_context(&mut self, ctx: GameContext) -> Result<Option<CommitChanges>, TrackingError> {
        ctx.validate()?;
        self.ctx = ctx;
        self.gate.reset();
        self.last_reading_at = None;
        let Some(old) = self.committed.clone() else {
            return Ok(None);
        };
        let mut frame = old.frame.clone();
        frame.rulings = None;
        frame.rule(&self.ctx)?;
        let digest = ReadingDigest::of(&frame);
        // Two agreeing readings of the same table: the gate commits it as its own.
        self.gate.feed(Reading::Settled(digest.clone()));
        self.gate.feed(Reading::Settled(digest.clone()));
        let changes = changes_between(Some(&old), &frame, &digest);
        self.committed = Some(Commit {
            seq: old.seq,
            measured_seq: old.measured_seq,
            frame,
            digest,
            changes: changes.clone(),
        });
        Ok(Some(changes))
    }

    /// Forgets the committed reading (a new game, or after calibrating again).
    pub fn reset(&mut self, ocean: OceanReport) {
        self.ocean = ocean;
        self.gate.reset();
        self.last_reading_at = None;
        self.committed = None;
    }

    /// Takes the next tracked state.
    pub fn feed(&mut self, state: &TrackedState) -> Result<CommitStep, TrackingError> {
        let interruption = if state.view_moved {
            Some(Reading::ViewMoved)
        } else if state.obstructed {
            Some(Reading::Obstructed)
        } else if state.lighting_changed || !state.settled {
            Some(Reading::Unsettled)
        } else {
            None
        };
        if let Some(reading) = interruption {
            self.last_reading_at = None;
            return Ok(CommitStep {
                outcome: Some(self.gate.feed(reading)),
                changes: None,
            });
        }
        let due = match self.last_reading_at {
            None => true,
            // `frames_still` only grows while settled; a smaller value means a new still period.
            Some(at) => state.frames_still < at || state.frames_still - at >= self.reading_interval_frames,
        };
        if !due {
            return Ok(CommitStep {
                outcome: None,
                changes: None,
            });
        }
        self.last_reading_at = Some(state.frames_still);
        let mut frame = state.frame_report(&self.ocean);
        frame.rule(&self.ctx)?;
        let digest = ReadingDigest::of(&frame);
        let outcome = self.gate.feed(Reading::Settled(digest.clone()));
        let mut changes = None;
        match (outcome, &mut self.committed) {
            (GateOutcome::Changed, _) => {
                let c = changes_between(self.committed.as_ref(), &frame, &digest);
                changes = Some(c.clone());
                self.committed = Some(Commit {
                    seq: state.seq,
                    measured_seq: state.seq,
                    frame,
                    digest,
                    changes: c,
                });
            }
            (GateOutcome::Unchanged, Some(commit)) => {
                commit.measured_seq = state.seq;
                commit.frame = frame;
            }
            _ => {}
        }
        Ok(CommitStep {
            outcome: Some(outcome),
            changes,
        })
    }
}

/// What changed from the last commit to this reading.
fn changes_between(old: Option<&Commit>, frame: &FrameReport, digest: &ReadingDigest) -> CommitChanges {
    let empty = ReadingDigest::default();
    let (old_pieces, old_digest, old_messages): (&[PieceReport], &ReadingDigest, &[String]) = match old {
        Some(c) => (
            &c.frame.pieces,
            &c.digest,
            c.frame.rulings.as_ref().map_or(&[][..], |r| &r.messages),
        ),
        None => (&[], &empty, &[]),
    };
    let before: BTreeMap<&str, &PieceReport> = old_pieces.iter().map(|p| (p.id.as_str(), p)).collect();
    let after: BTreeMap<&str, &PieceReport> = frame.pieces.iter().map(|p| (p.id.as_str(), p)).collect();
    let mut out = CommitChanges::default();
    for (&id, &new) in &after {
        let Some(&old) = before.get(id) else {
            out.appeared.push(id.to_string());
            continue;
        };
        let distance_mm = old.center_mm.distance(new.center_mm);
        if distance_mm > COMMIT_MOVED_MM {
            out.moved.push(PieceMoved {
                id: id.to_string(),
                from_mm: old.center_mm,
                to_mm: new.center_mm,
                distance_mm,
            });
        }
        let (from, to) = (PieceClass::of(old), PieceClass::of(new));
        if from != to {
            out.reclassified.push(PieceReclassified {
                id: id.to_string(),
                from,
                to,
            });
        }
        if old.loaded_on != new.loaded_on {
            out.loads.push(LoadChanged {
                id: id.to_string(),
                from: old.loaded_on.clone(),
                to: new.loaded_on.clone(),
            });
        }
        if old.top != new.top {
            out.die_tops.push(id.to_string());
        }
    }
    out.removed = before
        .keys()
        .filter(|id| !after.contains_key(*id))
        .map(|id| id.to_string())
        .collect();
    out.rulings = ruling_changes(&old_digest.rulings, &digest.rulings);
    let messages = frame.rulings.as_ref().map_or(&[][..], |r| &r.messages);
    out.new_messages = messages
        .iter()
        .filter(|m| !old_messages.contains(m))
        .cloned()
        .collect();
    out
}

/// The names of the digest's parts that differ.
fn ruling_changes(a: &RulingsDigest, b: &RulingsDigest) -> Vec<String> {
    let mut out = Vec::new();
    let colours: std::collections::BTreeSet<&PlayerColor> =
        a.players.keys().chain(b.players.keys()).collect();
    for c in colours {
        if a.players.get(c) != b.players.get(c) {
            out.push(format!("players.{c}"));
        }
    }
    let parts: [(&str, bool); 8] = [
        ("out_of_ocean", a.out_of_ocean != b.out_of_ocean),
        ("on_string", a.on_string != b.on_string),
        ("redrop", a.redrop != b.redrop),
        ("put_back", a.put_back != b.put_back),
        ("next_load", a.next_load != b.next_load),
        ("attack_order", a.attack_order != b.attack_order),
        ("island", a.island != b.island),
        ("questions", a.questions != b.questions),
    ];
    out.extend(parts.iter().filter(|(_, d)| *d).map(|(n, _)| n.to_string()));
    out
}
