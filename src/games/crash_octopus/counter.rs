//! The Octo-Counter: the crab walking along the bead sequence.
//!
//! The crab starts before the first bead and steps over one bead each time a treasure is loaded
//! onto a ship other than the Pirate's, whatever the bead's colour. It never moves back, not even
//! when loaded treasures topple. Stepping over a blue bead ends the turn; a black bead starts an
//! octopus attack. Once it has stepped over the last bead the counter has reached its end.

use super::beads::{Bead, BeadSequence};
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Counter {
    beads: BeadSequence,
    /// Beads stepped over so far: 0 = before the first bead, `beads.len()` = at the end.
    crab: usize,
}

/// One step of the crab.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Step {
    /// The bead stepped over.
    pub bead: Bead,
    /// Its number, 1 for the first bead.
    pub number: usize,
    /// The counter has reached its end with this step.
    pub reached_end: bool,
}

impl Counter {
    pub fn new(beads: BeadSequence) -> Self {
        Counter { beads, crab: 0 }
    }

    pub fn beads(&self) -> &BeadSequence {
        &self.beads
    }

    /// Beads stepped over so far.
    pub fn crab(&self) -> usize {
        self.crab
    }

    /// The bead the next step goes over; `None` at the end.
    pub fn next_bead(&self) -> Option<Bead> {
        self.beads.get(self.crab)
    }

    pub fn at_end(&self) -> bool {
        self.crab >= self.beads.len()
    }

    /// Moves the crab one bead forward. `None` when it is already at the end (the game is then over
    /// and nothing can be loaded, so the engine never asks).
    pub fn step(&mut self) -> Option<Step> {
        let bead = self.next_bead()?;
        self.crab += 1;
        Some(Step {
            bead,
            number: self.crab,
            reached_end: self.at_end(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_crab_walks_forward_to_the_end_and_stops() {
        let mut c = Counter::new("BKB".parse().unwrap());
        assert_eq!(c.crab(), 0);
        assert_eq!(c.next_bead(), Some(Bead::Blue));
        let s = c.step().unwrap();
        assert_eq!((s.bead, s.number, s.reached_end), (Bead::Blue, 1, false));
        let s = c.step().unwrap();
        assert_eq!((s.bead, s.number), (Bead::Black, 2));
        let s = c.step().unwrap();
        assert!(s.reached_end && c.at_end());
        assert_eq!(c.step(), None);
        assert_eq!(c.crab(), 3);
    }
}
