//! Majority votes over a piece's latest sightings: how look-alikes, the die's top, loads and the
//! island are decided without flipping on one bad frame.

use std::collections::VecDeque;

/// The outcome of a vote.
#[derive(Debug, Clone, PartialEq)]
pub struct Tally<T> {
    pub winner: T,
    /// Fraction of the window's sightings that voted for the winner, 0..1.
    pub share: f64,
    /// The window's mean of each sighting's confidence where it voted for the winner and 0
    /// where it did not: agreement and detection confidence in one figure, 0..1.
    pub confidence: f64,
}

/// The latest `window` sightings of one property, each with the detection's confidence.
#[derive(Debug, Clone, PartialEq)]
pub struct Votes<T> {
    window: usize,
    sightings: VecDeque<(T, f64)>,
}

impl<T: Clone + PartialEq> Votes<T> {
    /// An empty vote over the latest `window` sightings (at least one).
    pub fn new(window: usize) -> Self {
        let window = window.max(1);
        Self {
            window,
            sightings: VecDeque::with_capacity(window),
        }
    }

    pub fn push(&mut self, value: T, confidence: f64) {
        if self.sightings.len() == self.window {
            self.sightings.pop_front();
        }
        self.sightings.push_back((value, confidence));
    }

    /// Every vote for `from` becomes a vote for `to` (the value was renamed).
    pub fn replace(&mut self, from: &T, to: &T) {
        for (v, _) in &mut self.sightings {
            if v == from {
                *v = to.clone();
            }
        }
    }

    /// The value with the most votes. `current` (the value decided so far) keeps its place
    /// unless another value has strictly more votes: a tie never flips a decision. Among new
    /// values tied for the most votes, the higher summed confidence wins, then the most recent.
    /// `None` when nothing has been seen.
    pub fn tally(&self, current: Option<&T>) -> Option<Tally<T>> {
        let n = self.sightings.len();
        if n == 0 {
            return None;
        }
        // (value, votes, summed confidence, latest position)
        let mut counts: Vec<(&T, usize, f64, usize)> = Vec::new();
        for (i, (v, c)) in self.sightings.iter().enumerate() {
            match counts.iter_mut().find(|(w, ..)| *w == v) {
                Some(entry) => {
                    entry.1 += 1;
                    entry.2 += c;
                    entry.3 = i;
                }
                None => counts.push((v, 1, *c, i)),
            }
        }
        let best_votes = counts.iter().map(|e| e.1).max().unwrap_or(0);
        let winner = match current.and_then(|cur| counts.iter().find(|e| e.0 == cur)) {
            Some(cur) if cur.1 == best_votes => cur,
            _ => counts
                .iter()
                .filter(|e| e.1 == best_votes)
                .max_by(|a, b| a.2.total_cmp(&b.2).then(a.3.cmp(&b.3)))?,
        };
        Some(Tally {
            winner: winner.0.clone(),
            share: winner.1 as f64 / n as f64,
            confidence: winner.2 / n as f64,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_majority_of_the_window_wins_and_ties_keep_the_decision() {
        let mut v = Votes::new(5);
        assert_eq!(v.tally(None), None);
        for _ in 0..3 {
            v.push("gold", 1.0);
        }
        v.push("goblet", 1.0);
        let t = v.tally(Some(&"gold")).unwrap();
        assert_eq!(t.winner, "gold");
        assert!((t.share - 0.75).abs() < 1e-12);
        v.push("goblet", 1.0);
        v.push("goblet", 1.0); // window now: gold gold goblet goblet goblet
        assert_eq!(v.tally(Some(&"gold")).unwrap().winner, "goblet");
        // A tie keeps whatever was decided.
        let mut v = Votes::new(4);
        for x in ["a", "b", "a", "b"] {
            v.push(x, 1.0);
        }
        assert_eq!(v.tally(Some(&"a")).unwrap().winner, "a");
        assert_eq!(v.tally(Some(&"b")).unwrap().winner, "b");
    }

    #[test]
    fn confidence_mixes_agreement_with_detection_confidence() {
        let mut v = Votes::new(4);
        v.push(1, 0.8);
        v.push(1, 0.8);
        v.push(2, 1.0);
        v.push(1, 0.8);
        let t = v.tally(None).unwrap();
        assert_eq!(t.winner, 1);
        assert!((t.confidence - 0.6).abs() < 1e-12, "{}", t.confidence);
    }

    #[test]
    fn a_renamed_value_keeps_its_votes() {
        let mut v = Votes::new(4);
        v.push(Some(7), 1.0);
        v.push(None, 1.0);
        v.push(Some(7), 1.0);
        v.replace(&Some(7), &Some(3));
        let t = v.tally(None).unwrap();
        assert_eq!(t.winner, Some(3));
        assert!((t.share - 2.0 / 3.0).abs() < 1e-12);
    }

    #[test]
    fn new_values_tied_go_to_the_more_confident_then_the_latest() {
        let mut v = Votes::new(4);
        v.push('x', 0.5);
        v.push('y', 0.9);
        assert_eq!(v.tally(None).unwrap().winner, 'y');
        let mut v = Votes::new(4);
        v.push('x', 0.7);
        v.push('y', 0.7);
        assert_eq!(v.tally(None).unwrap().winner, 'y');
    }
}
