//! The treasures that are on no ship: in the ocean (or lying on the Nameless Island). Together with
//! the ships they always account for every piece of the game's treasure set.

use super::rules_data::TreasureSet;
use super::treasure::TreasureType;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Ocean {
    pieces: BTreeMap<TreasureType, u8>,
}

impl Ocean {
    /// At set-up every treasure is dropped into the ocean.
    pub fn new(set: &TreasureSet) -> Self {
        Ocean {
            pieces: set.hierarchy.types().iter().map(|&t| (t, set.per_type)).collect(),
        }
    }

    /// Pieces of a type on no ship (0 for a type not in play).
    pub fn count(&self, t: TreasureType) -> u8 {
        self.pieces.get(&t).copied().unwrap_or(0)
    }

    /// Every type in play with its count of pieces on no ship.
    pub fn pieces(&self) -> &BTreeMap<TreasureType, u8> {
        &self.pieces
    }

    /// Takes one piece out of the ocean (to load it); `false` when there is none.
    pub(super) fn take(&mut self, t: TreasureType) -> bool {
        match self.pieces.get_mut(&t) {
            Some(n) if *n > 0 => {
                *n -= 1;
                true
            }
            _ => false,
        }
    }

    /// A piece falls (back) into the ocean.
    pub(super) fn put(&mut self, t: TreasureType) {
        *self.pieces.entry(t).or_insert(0) += 1;
    }
}
