//! Whose turn it is: "Play then passes to the player on the left", changed by missed turns and by
//! the fish effects that touch turn order (play again, the next player misses a turn, reverse).
//!
//! Players are numbered in playing order from 0 (the first player: the youngest, says the
//! rulebook). "Next" is the next player in the current direction.

use serde::{Deserialize, Serialize};

/// The turn order of a game.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TurnOrder {
    players: usize,
    current: usize,
    reversed: bool,
    /// Turns each player must still miss.
    missing: Vec<u32>,
    /// The current player plays again when this turn ends.
    bonus_turn: bool,
}

/// What ending a turn did.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TurnChange {
    /// Whose turn it is now.
    pub player: usize,
    /// Players whose turns were skipped on the way, in order.
    pub missed: Vec<usize>,
    /// The same player plays again (a bonus turn).
    pub again: bool,
}

impl TurnOrder {
    /// Player 0 starts. A game has at least one player; 0 is taken as 1.
    pub fn new(players: usize) -> TurnOrder {
        let players = players.max(1);
        TurnOrder {
            players,
            current: 0,
            reversed: false,
            missing: vec![0; players],
            bonus_turn: false,
        }
    }

    pub fn current(&self) -> usize {
        self.current
    }

    pub fn players(&self) -> usize {
        self.players
    }

    pub fn is_reversed(&self) -> bool {
        self.reversed
    }

    fn step(&self, from: usize) -> usize {
        // `players` is at least 1 when built by `new`; a deserialised 0 must not divide by zero.
        let n = self.players.max(1);
        if self.reversed {
            (from % n + n - 1) % n
        } else {
            (from + 1) % n
        }
    }

    /// The next player after the current one; None in solo play (there is no one else).
    pub fn next_player(&self) -> Option<usize> {
        (self.players > 1).then(|| self.step(self.current))
    }

    /// The current player will play again when this turn ends.
    pub fn grant_bonus_turn(&mut self) {
        self.bonus_turn = true;
    }

    /// `player` misses their next turn.
    pub fn miss_next_turn(&mut self, player: usize) {
        if let Some(m) = self.missing.get_mut(player) {
            *m += 1;
        }
    }

    /// Play passes the other way from now on.
    pub fn reverse(&mut self) {
        self.reversed = !self.reversed;
    }

    /// Ends the current turn: a bonus turn keeps the player; otherwise play passes on, skipping
    /// players who must miss a turn.
    pub fn end_turn(&mut self) -> TurnChange {
        if self.bonus_turn {
            self.bonus_turn = false;
            return TurnChange {
                player: self.current,
                missed: Vec::new(),
                again: true,
            };
        }
        let mut missed = Vec::new();
        let mut next = self.step(self.current);
        // Each pass consumes one owed miss, so this ends within the total owed.
        while let Some(m) = self.missing.get_mut(next).filter(|m| **m > 0) {
            *m -= 1;
            missed.push(next);
            next = self.step(next);
        }
        self.current = next;
        TurnChange {
            player: next,
            missed,
            again: false,
        }
    }

    /// Makes it `player`'s turn now. Everyone from the current player up to (not including)
    /// `player`, in playing order, is taken to have missed a turn: a game record need not write
    /// down every pass. Returns those players.
    pub fn jump_to(&mut self, player: usize) -> Vec<usize> {
        let mut missed = Vec::new();
        if player >= self.players {
            return missed;
        }
        let mut p = self.current;
        while p != player {
            missed.push(p);
            if let Some(m) = self.missing.get_mut(p) {
                *m = m.saturating_sub(1);
            }
            p = self.step(p);
        }
        if !missed.is_empty() {
            self.bonus_turn = false;
        }
        if let Some(m) = self.missing.get_mut(player) {
            *m = 0;
        }
        self.current = player;
        missed
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn play_passes_to_the_left_and_wraps() {
        let mut t = TurnOrder::new(3);
        assert_eq!(t.end_turn().player, 1);
        assert_eq!(t.end_turn().player, 2);
        assert_eq!(t.end_turn().player, 0);
    }

    #[test]
    fn fish_effects_change_the_order() {
        let mut t = TurnOrder::new(3);
        t.grant_bonus_turn();
        let c = t.end_turn();
        assert!(c.again && c.player == 0);
        t.miss_next_turn(t.next_player().unwrap());
        let c = t.end_turn();
        assert_eq!((c.player, c.missed), (2, vec![1]));
        t.reverse();
        assert_eq!(t.end_turn().player, 1);
        assert_eq!(t.end_turn().player, 0);
    }

    #[test]
    fn solo_has_no_next_player() {
        let mut t = TurnOrder::new(1);
        assert_eq!(t.next_player(), None);
        assert_eq!(t.end_turn().player, 0);
    }

    #[test]
    fn jumping_ahead_counts_missed_turns() {
        let mut t = TurnOrder::new(4);
        assert_eq!(t.jump_to(2), vec![0, 1]);
        assert_eq!(t.current(), 2);
        assert_eq!(t.jump_to(2), Vec::<usize>::new());
        t.end_turn();
        assert_eq!(t.jump_to(1), vec![3, 0]);
    }
}
