//! Treasure types and their tie-break hierarchies.
//!
//! The rulebook's hierarchy with five types is Captain > Goblet > Gold > Gem > Chest; with the Pink
//! Pirate's six types (gem out, rose and bottle in) it is Captain > Goblet > Gold > Chest > Bottle > Rose.

use serde::{Deserialize, Serialize};

/// A treasure type, named as in every file and output (`"captain"`, `"gold"`, ...).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TreasureType {
    Captain,
    Goblet,
    Gold,
    Gem,
    Chest,
    Rose,
    Bottle,
}

impl TreasureType {
    pub const ALL: [TreasureType; 7] = [
        TreasureType::Captain,
        TreasureType::Goblet,
        TreasureType::Gold,
        TreasureType::Gem,
        TreasureType::Chest,
        TreasureType::Rose,
        TreasureType::Bottle,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            TreasureType::Captain => "captain",
            TreasureType::Goblet => "goblet",
            TreasureType::Gold => "gold",
            TreasureType::Gem => "gem",
            TreasureType::Chest => "chest",
            TreasureType::Rose => "rose",
            TreasureType::Bottle => "bottle",
        }
    }
}

impl std::fmt::Display for TreasureType {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl std::str::FromStr for TreasureType {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        TreasureType::ALL
            .into_iter()
            .find(|t| t.as_str() == s)
            .ok_or_else(|| {
                format!("unknown treasure type {s:?}; expected one of captain, goblet, gold, gem, chest, rose, bottle")
            })
    }
}
