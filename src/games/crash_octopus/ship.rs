//! A ship and what is loaded on it. A ship holds each treasure type at most once (BAD No.2): a
//! loaded type is a set member, not a count.

use super::player::PlayerColor;
use super::treasure::TreasureType;
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Ship {
    pub owner: PlayerColor,
    loaded: BTreeSet<TreasureType>,
}

impl Ship {
    pub fn new(owner: PlayerColor) -> Self {
        Ship {
            owner,
            loaded: BTreeSet::new(),
        }
    }

    pub fn holds(&self, t: TreasureType) -> bool {
        self.loaded.contains(&t)
    }

    /// The loaded types, in enum order (sort with a `Hierarchy` for display).
    pub fn loaded(&self) -> &BTreeSet<TreasureType> {
        &self.loaded
    }

    /// The number of types loaded: what the ranking counts.
    pub fn type_count(&self) -> usize {
        self.loaded.len()
    }

    /// Loads a type; `false` (and nothing changes) when the ship already holds it.
    pub(super) fn load(&mut self, t: TreasureType) -> bool {
        self.loaded.insert(t)
    }

    /// Takes a type off the ship; `false` when it was not loaded.
    pub(super) fn topple(&mut self, t: TreasureType) -> bool {
        self.loaded.remove(&t)
    }
}
