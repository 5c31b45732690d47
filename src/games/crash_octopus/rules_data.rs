//! The game data the rules read from `assets/crash_octopus.toml`: the default bead sequence, the
//! treasure sets per player count, both tie-break hierarchies and the Nameless Island's rule.
//!
//! The asset is compiled in ([`RulesData::builtin`]); a caller that lets the user override it reads
//! the file itself and passes the text to [`RulesData::from_toml_str`]. No file I/O here.

use super::beads::BeadSequence;
use super::treasure::{Hierarchy, TreasureType};
use serde::{Deserialize, Serialize};

/// The shipped game data.
pub const CRASH_OCTOPUS_TOML: &str = include_str!("../../../assets/crash_octopus.toml");

/// The rules data, validated.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RulesData {
    pub counter: CounterData,
    pub treasure_types: Vec<TreasureTypes>,
    pub treasure_set: Vec<TreasureSetData>,
    pub island: IslandRule,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CounterData {
    /// The default Octo-Counter, start (blue end) to finish.
    pub beads: BeadSequence,
}

/// One choice of types in play (5 or 6) with its tie-break order.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TreasureTypes {
    pub count: u8,
    pub hierarchy: Hierarchy,
}

/// The treasures used for a number of players (the Pink Pirate counted).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TreasureSetData {
    pub players: u8,
    /// Which [`TreasureTypes`] (by `count`) this set uses.
    pub types: u8,
    /// Pieces of each type.
    pub per_type: u8,
}

/// The Nameless Island's rule (module). See `assets/crash_octopus.toml` for the readings.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct IslandRule {
    /// May the player whose anchor (or Octo-Canon) was closest to the island at the start of the
    /// turn collect its treasure? The rule we use says no.
    pub closest_may_collect: bool,
    /// Does collecting the island's treasure move the crab (never for the Pirate)?
    pub moves_crab: bool,
}

/// The treasures of one game: which types, their order, and how many pieces of each.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TreasureSet {
    pub hierarchy: Hierarchy,
    pub per_type: u8,
}

impl TreasureSet {
    /// Every piece in the game.
    pub fn total_pieces(&self) -> usize {
        self.hierarchy.len() * usize::from(self.per_type)
    }
}

/// The rules data is not usable; the message names the field and what was expected.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{source_name}: {message}")]
pub struct RulesDataError {
    pub source_name: String,
    pub message: String,
}

impl RulesData {
    /// The compiled-in `assets/crash_octopus.toml`.
    pub fn builtin() -> Result<RulesData, RulesDataError> {
        RulesData::from_toml_str(CRASH_OCTOPUS_TOML, "assets/crash_octopus.toml")
    }

    /// Parses and validates rules data; `source_name` (a path) is used in messages.
    pub fn from_toml_str(text: &str, source_name: &str) -> Result<RulesData, RulesDataError> {
        let err = |message: String| RulesDataError {
            source_name: source_name.to_string(),
            message,
        };
        let data: RulesData = toml::from_str(text).map_err(|e| err(e.to_string()))?;
        data.validate().map_err(err)?;
        Ok(data)
    }

    fn validate(&self) -> Result<(), String> {
        for (i, t) in self.treasure_types.iter().enumerate() {
            let h = t.hierarchy.types();
            if h.len() != usize::from(t.count) {
                return Err(format!(
                    "treasure_types[{i}].hierarchy has {} types; expected count = {}",
                    h.len(),
                    t.count
                ));
            }
            for (j, ty) in h.iter().enumerate() {
                if h[..j].contains(ty) {
                    return Err(format!(
                        "treasure_types[{i}].hierarchy lists {ty} twice; expected each type once"
                    ));
                }
            }
            if self.treasure_types[..i].iter().any(|o| o.count == t.count) {
                return Err(format!(
                    "treasure_types[{i}]: a second entry with count = {}; expected one per count",
                    t.count
                ));
            }
        }
        for (i, s) in self.treasure_set.iter().enumerate() {
            if self.types(s.types).is_none() {
                return Err(format!(
                    "treasure_set[{i}].types = {}; expected the count of a [[treasure_types]] entry",
                    s.types
                ));
            }
            if s.per_type == 0 {
                return Err(format!(
                    "treasure_set[{i}].per_type = 0; expected at least 1 piece of each type"
                ));
            }
            if self.treasure_set[..i].iter().any(|o| o.players == s.players) {
                return Err(format!(
                    "treasure_set[{i}]: a second set for {} players; expected one per player count",
                    s.players
                ));
            }
        }
        Ok(())
    }

    /// The types in play when there are `count` of them (5 or 6 with the shipped data).
    pub fn types(&self, count: u8) -> Option<&Hierarchy> {
        self.treasure_types
            .iter()
            .find(|t| t.count == count)
            .map(|t| &t.hierarchy)
    }

    /// The treasure set for `players` players (the Pirate counted), optionally with another number of
    /// types than the data's default for that count (keeping its pieces per type).
    pub fn treasure_set(&self, players: usize, types: Option<u8>) -> Option<TreasureSet> {
        let set = self
            .treasure_set
            .iter()
            .find(|s| usize::from(s.players) == players)?;
        let hierarchy = self.types(types.unwrap_or(set.types))?.clone();
        Some(TreasureSet {
            hierarchy,
            per_type: set.per_type,
        })
    }

    /// The player counts the data has a treasure set for, ascending.
    pub fn player_counts(&self) -> Vec<u8> {
        let mut v: Vec<u8> = self.treasure_set.iter().map(|s| s.players).collect();
        v.sort_unstable();
        v
    }

    /// The type counts the data knows (5 and 6 with the shipped data).
    pub fn type_counts(&self) -> Vec<u8> {
        self.treasure_types.iter().map(|t| t.count).collect()
    }
}

/// The five-type hierarchy of the base rulebook, for tests and documentation.
pub const BASE_HIERARCHY: [TreasureType; 5] = [
    TreasureType::Captain,
    TreasureType::Goblet,
    TreasureType::Gold,
    TreasureType::Gem,
    TreasureType::Chest,
];

#[cfg(test)]
mod tests {
    use super::*;
    use TreasureType::*;

    #[test]
    fn the_shipped_asset_matches_the_rulebooks() {
        let d = RulesData::builtin().unwrap();
        assert_eq!(d.counter.beads.to_string(), "BBBKBBBKBBKBBKKK");
        let two = d.treasure_set(2, None).unwrap();
        assert_eq!((two.hierarchy.types(), two.per_type), (&BASE_HIERARCHY[..], 3));
        assert_eq!(two.total_pieces(), 15);
        for n in [3, 4] {
            let s = d.treasure_set(n, None).unwrap();
            assert_eq!((s.hierarchy.types(), s.per_type), (&BASE_HIERARCHY[..], 4));
            assert_eq!(s.total_pieces(), 20);
        }
        let five = d.treasure_set(5, None).unwrap();
        assert_eq!(
            five.hierarchy.types(),
            &[Captain, Goblet, Gold, Chest, Bottle, Rose][..]
        );
        assert_eq!(five.total_pieces(), 24);
        assert!(d.treasure_set(6, None).is_none());
        assert_eq!(d.treasure_set(3, Some(6)).unwrap().hierarchy.len(), 6);
        assert!(!d.island.closest_may_collect);
        assert!(!d.island.moves_crab);
    }

    #[test]
    fn bad_data_is_reported_with_its_field() {
        let text = CRASH_OCTOPUS_TOML.replace("per_type = 3", "per_type = 0");
        let e = RulesData::from_toml_str(&text, "mine.toml").unwrap_err();
        assert!(
            e.to_string().contains("mine.toml: treasure_set[0].per_type"),
            "{e}"
        );
        let text = CRASH_OCTOPUS_TOML.replacen("\"gem\", \"chest\"]", "\"gem\", \"gem\"]", 1);
        let e = RulesData::from_toml_str(&text, "mine.toml").unwrap_err();
        assert!(e.to_string().contains("lists gem twice"), "{e}");
        let e = RulesData::from_toml_str("[counter]\nbeads = \"BXK\"", "x.toml").unwrap_err();
        assert!(e.to_string().contains("bead 2"), "{e}");
    }
}
