//! The commit gate: a ruling is committed only after the same settled reading is seen twice.
//!
//! Feed it every reading in order. A settled reading that agrees with the one before it commits
//! (reported as `Changed` only when it differs from what was committed); a first sighting waits
//! (`Pending`); an unsettled, obstructed or moved view never commits and breaks the pair, so the
//! two agreeing readings are always consecutive settled ones. Pure and generic: the app feeds it
//! `RulingsDigest`s (which leave out the millimetres that jitter from frame to frame).

use super::frame::FrameReport;
use super::rulings::RulingsDigest;

/// One reading as the gate sees it.
#[derive(Debug, Clone, PartialEq)]
pub enum Reading<T> {
    /// Nothing moving, no hand in the ocean: the reading may be committed.
    Settled(T),
    /// Pieces are moving (or the frame could not be read): never committed.
    Unsettled,
    /// Something that is not a game piece covers the ocean: never committed.
    Obstructed,
    /// The camera or the table moved: never committed.
    ViewMoved,
}

impl Reading<RulingsDigest> {
    /// The digest of a ruled frame; a frame without rulings counts as unsettled.
    pub fn from_frame(frame: &FrameReport, settled: bool) -> Self {
        if frame.view_moved {
            Reading::ViewMoved
        } else if frame.obstructed {
            Reading::Obstructed
        } else {
            match (&frame.rulings, settled) {
                (Some(r), true) => Reading::Settled(r.digest()),
                _ => Reading::Unsettled,
            }
        }
    }
}

/// What feeding one reading did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GateOutcome {
    /// Not settled: nothing committed, the waiting reading (if any) dropped.
    Ignored,
    /// A settled reading seen once, different from what is committed: waiting for a second.
    Pending,
    /// Agrees with what is committed: nothing changes.
    Unchanged,
    /// Seen twice in a row and different from what was committed: now committed.
    Changed,
}

/// Commits readings seen twice in a row while settled.
#[derive(Debug, Clone, PartialEq)]
pub struct CommitGate<T> {
    committed: Option<T>,
    waiting: Option<T>,
}

impl<T> Default for CommitGate<T> {
    fn default() -> Self {
        Self {
            committed: None,
            waiting: None,
        }
    }
}

impl<T: PartialEq> CommitGate<T> {
    pub fn new() -> Self {
        Self::default()
    }

    /// Feeds the next reading.
    pub fn feed(&mut self, reading: Reading<T>) -> GateOutcome {
        let value = match reading {
            Reading::Settled(v) => v,
            Reading::Unsettled | Reading::Obstructed | Reading::ViewMoved => {
                self.waiting = None;
                return GateOutcome::Ignored;
            }
        };
        if self.committed.as_ref() == Some(&value) {
            self.waiting = None;
            return GateOutcome::Unchanged;
        }
        if self.waiting.as_ref() == Some(&value) {
            self.waiting = None;
            self.committed = Some(value);
            return GateOutcome::Changed;
        }
        self.waiting = Some(value);
        GateOutcome::Pending
    }

    /// The last committed reading.
    pub fn committed(&self) -> Option<&T> {
        self.committed.as_ref()
    }

    /// Forgets everything (after a recalibration or a new game).
    pub fn reset(&mut self) {
        self.committed = None;
        self.waiting = None;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use GateOutcome::*;
    use proptest::prelude::*;

    #[test]
    fn two_agreeing_settled_readings_commit() {
        let mut g = CommitGate::new();
        assert_eq!(g.feed(Reading::Settled("a")), Pending);
        assert_eq!(g.committed(), None);
        assert_eq!(g.feed(Reading::Settled("a")), Changed);
        assert_eq!(g.committed(), Some(&"a"));
        assert_eq!(g.feed(Reading::Settled("a")), Unchanged);
        // A different reading once is not a change...
        assert_eq!(g.feed(Reading::Settled("b")), Pending);
        assert_eq!(g.committed(), Some(&"a"));
        // ...and the old one coming back drops it.
        assert_eq!(g.feed(Reading::Settled("a")), Unchanged);
        assert_eq!(g.feed(Reading::Settled("b")), Pending);
        assert_eq!(g.feed(Reading::Settled("b")), Changed);
        assert_eq!(g.committed(), Some(&"b"));
        g.reset();
        assert_eq!(g.committed(), None);
    }

    #[test]
    fn unsettled_obstructed_or_moved_readings_never_commit_and_break_the_pair() {
        for interruption in [Reading::Unsettled, Reading::Obstructed, Reading::ViewMoved] {
            let mut g = CommitGate::new();
            assert_eq!(g.feed(Reading::Settled(1)), Pending);
            assert_eq!(g.feed(interruption.clone()), Ignored);
            assert_eq!(g.feed(Reading::Settled(1)), Pending);
            assert_eq!(g.feed(Reading::Settled(1)), Changed);
        }
    }

    fn arb_reading() -> impl Strategy<Value = Reading<u8>> {
        prop_oneof![
            (0u8..3).prop_map(Reading::Settled),
            Just(Reading::Unsettled),
            Just(Reading::Obstructed),
            Just(Reading::ViewMoved),
        ]
    }

    proptest! {
        #[test]
        fn a_commit_always_follows_two_agreeing_settled_readings(
            readings in prop::collection::vec(arb_reading(), 0..40)
        ) {
            let mut g = CommitGate::new();
            let mut before: Option<u8> = None;
            for i in 0..readings.len() {
                let outcome = g.feed(readings[i].clone());
                let now = g.committed().copied();
                if now != before {
                    prop_assert_eq!(outcome, Changed);
                    prop_assert!(i >= 1);
                    prop_assert_eq!(&readings[i - 1], &Reading::Settled(now.unwrap()));
                    prop_assert_eq!(&readings[i], &Reading::Settled(now.unwrap()));
                } else {
                    prop_assert_ne!(outcome, Changed);
                }
                before = now;
            }
        }
    }
}
