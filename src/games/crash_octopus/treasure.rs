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

/// The treasure types in play, highest first: the tie-break order at the end of the game.
///
/// The list is also the set of types in play (with six types the gem is not in the game).
/// Serialises as a plain list of type names.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Hierarchy(pub Vec<TreasureType>);

impl Hierarchy {
    pub fn types(&self) -> &[TreasureType] {
        &self.0
    }
    pub fn len(&self) -> usize {
        self.0.len()
    }
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
    pub fn contains(&self, t: TreasureType) -> bool {
        self.0.contains(&t)
    }
    /// 0 for the highest type; `None` when the type is not in play.
    pub fn position(&self, t: TreasureType) -> Option<usize> {
        self.0.iter().position(|&x| x == t)
    }
    /// The given types sorted highest first; types not in play go last, in enum order.
    pub fn sorted<'a>(&self, types: impl IntoIterator<Item = &'a TreasureType>) -> Vec<TreasureType> {
        let mut v: Vec<TreasureType> = types.into_iter().copied().collect();
        v.sort_by_key(|&t| (self.position(t).unwrap_or(usize::MAX), t));
        v
    }
}

impl std::fmt::Display for Hierarchy {
    /// `captain > goblet > gold > gem > chest`
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for (i, t) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str(" > ")?;
            }
            write!(f, "{t}")?;
        }
        Ok(())
    }
}

/// Joins type names for messages: `gold, gem and chest`; `none` when empty.
pub fn list_types(types: &[TreasureType]) -> String {
    let names: Vec<&str> = types.iter().map(|t| t.as_str()).collect();
    join_words(&names)
}

/// `the gold`, `the captain and the gem`: treasures as the subject of a sentence.
pub fn the_types(types: &[TreasureType]) -> String {
    let names: Vec<String> = types.iter().map(|t| format!("the {t}")).collect();
    join_words(&names.iter().map(String::as_str).collect::<Vec<_>>())
}

/// `singular` for one thing, `plural` for several: verbs after [`the_types`].
pub fn verb<'a>(n: usize, singular: &'a str, plural: &'a str) -> &'a str {
    if n == 1 { singular } else { plural }
}

/// `a`, `a and b`, `a, b and c`; `none` when empty.
pub(crate) fn join_words(words: &[&str]) -> String {
    match words {
        [] => "none".to_string(),
        [one] => (*one).to_string(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hierarchy_sorts_and_prints_highest_first() {
        let h = Hierarchy(vec![
            TreasureType::Captain,
            TreasureType::Goblet,
            TreasureType::Gold,
            TreasureType::Chest,
            TreasureType::Bottle,
            TreasureType::Rose,
        ]);
        assert_eq!(
            h.sorted(&[TreasureType::Rose, TreasureType::Chest, TreasureType::Bottle]),
            vec![TreasureType::Chest, TreasureType::Bottle, TreasureType::Rose]
        );
        assert_eq!(h.to_string(), "captain > goblet > gold > chest > bottle > rose");
        assert!(!h.contains(TreasureType::Gem));
        assert_eq!(
            list_types(&[TreasureType::Gold, TreasureType::Gem]),
            "gold and gem"
        );
        assert_eq!(list_types(&[]), "none");
    }
}
