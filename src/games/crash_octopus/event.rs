//! What happens at the table, one event at a time: the replay format of `spec/cli.md`.
//!
//! ```json
//! {"flick": {"player": "orange", "loaded": "gem", "toppled": ["gold"]}}
//! {"navigate": {"player": "orange", "failed": false, "island": "gold", "closest_to_island": "green"}}
//! {"canon": {"player": "pink", "touched_head": true, "head": "little", "island": false, "failed": false}}
//! {"drop": {"player": "green", "hit_ship": "orange", "toppled": ["gold"], "top": "red", "head": "giant"}}
//! {"drop": {"player": "pink", "hit_ship": "orange", "toppled": ["gold", "gem"], "stolen": ["gold"]}}
//! ```
//! Field meanings (all but `player` may be left out):
//! - `flick.loaded`: the type loaded onto the flicker's ship, `null` when the ship was missed.
//!   `flick.toppled`: the flicker's own loaded types that fell into the ocean.
//! - `navigate.failed`: the anchor left the ocean (the ship stays where it was).
//! - `island` (navigate, canon; Nameless Island module): the type collected from the island, or
//!   `false`/`null` for none. `closest_to_island`: whose anchor (or canon) was closest to the island at
//!   the start of the turn, as the referee measured it; that player may not collect.
//! - `canon.touched_head`: the Octo-Canon touched an octopus head: the Pirate's solo attack follows.
//!   `canon.head` (Little Octopus module): which head it touched, `giant` (default) or `little`.
//! - `drop.hit_ship`: whose ship the ink die hit (`null`: none); `drop.toppled`: that ship's types that
//!   fell; `drop.top`: the die's top colour (`black` moves a tentacle, `red` a head) when no ship was hit;
//!   `drop.head`: the head the die was dropped on (Little Octopus); `drop.stolen`: what the Pirate steals
//!   from what its drop toppled.
//!
//! Unknown fields are refused, so a misspelt `"topled"` is an error rather than a silent no-op.

use super::player::PlayerColor;
use super::treasure::TreasureType;
use serde::{Deserialize, Deserializer, Serialize};

/// One thing that happened, in the order it happened.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Event {
    /// A sailor's turn: flick a treasure.
    Flick(Flick),
    /// A sailor's turn: flick the anchor and move the ship.
    Navigate(Navigate),
    /// The Pink Pirate's turn: flick the Octo-Canon.
    Canon(Canon),
    /// One drop of the ink die during an octopus attack.
    Drop(InkDrop),
}

impl Event {
    /// Who acted.
    pub fn player(&self) -> PlayerColor {
        match self {
            Event::Flick(e) => e.player,
            Event::Navigate(e) => e.player,
            Event::Canon(e) => e.player,
            Event::Drop(e) => e.player,
        }
    }

    /// `flick`, `navigate`, `canon` or `drop`: the event's name in files and messages.
    pub fn kind(&self) -> &'static str {
        match self {
            Event::Flick(_) => "flick",
            Event::Navigate(_) => "navigate",
            Event::Canon(_) => "canon",
            Event::Drop(_) => "drop",
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Flick {
    pub player: PlayerColor,
    /// The type loaded; `None` when the flick missed the ship (or nothing could be loaded).
    #[serde(default)]
    pub loaded: Option<TreasureType>,
    /// The flicker's own loaded types knocked into the ocean by the hit.
    #[serde(default)]
    pub toppled: Vec<TreasureType>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Navigate {
    pub player: PlayerColor,
    /// The anchor left the ocean: it goes back, the ship stays, the turn ends.
    #[serde(default)]
    pub failed: bool,
    /// The type collected from the Nameless Island.
    #[serde(default, deserialize_with = "island_field")]
    pub island: Option<TreasureType>,
    /// Whose anchor (or canon) was closest to the island at the start of the turn.
    #[serde(default)]
    pub closest_to_island: Option<PlayerColor>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Canon {
    pub player: PlayerColor,
    /// The canon touched an octopus head: the Pirate makes one octopus attack by itself.
    #[serde(default)]
    pub touched_head: bool,
    /// Which head it touched (Little Octopus module); the giant's when left out.
    #[serde(default)]
    pub head: Option<Head>,
    /// The type collected from the Nameless Island.
    #[serde(default, deserialize_with = "island_field")]
    pub island: Option<TreasureType>,
    #[serde(default)]
    pub closest_to_island: Option<PlayerColor>,
    /// The canon left the ocean: no attack, no island, the turn ends.
    #[serde(default)]
    pub failed: bool,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct InkDrop {
    pub player: PlayerColor,
    /// The ship the ink die hit (a successful attack); `None` when it hit none.
    #[serde(default)]
    pub hit_ship: Option<PlayerColor>,
    /// That ship's loaded types that fell into the ocean.
    #[serde(default)]
    pub toppled: Vec<TreasureType>,
    /// The die's top colour; matters only when no ship was hit.
    #[serde(default)]
    pub top: Option<DieTop>,
    /// The head the die was dropped on (Little Octopus module); the giant's when left out.
    #[serde(default)]
    pub head: Option<Head>,
    /// What the Pink Pirate steals from what its drop toppled.
    #[serde(default)]
    pub stolen: Vec<TreasureType>,
}

/// The colour on top of the ink die: three faces are black, three red (pink-red).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DieTop {
    Black,
    Red,
}

/// An octopus head: the giant octopus's, or Little Octopus's (module).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Head {
    #[default]
    Giant,
    Little,
}

impl Head {
    pub fn as_str(self) -> &'static str {
        match self {
            Head::Giant => "giant",
            Head::Little => "little",
        }
    }
}

impl std::fmt::Display for Head {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Head::Giant => "the giant octopus's head",
            Head::Little => "Little Octopus's head",
        })
    }
}

/// `island` may be a type name, or `false`/`null` for none (cli.md's example writes `false`). `true`
/// does not say which treasure was collected and is refused.
fn island_field<'de, D: Deserializer<'de>>(d: D) -> Result<Option<TreasureType>, D::Error> {
    struct V;
    impl<'de> serde::de::Visitor<'de> for V {
        type Value = Option<TreasureType>;
        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str("the treasure type collected from the island (e.g. \"gold\"), or false")
        }
        fn visit_bool<E: serde::de::Error>(self, b: bool) -> Result<Self::Value, E> {
            if b {
                Err(E::custom(
                    "true does not say which treasure was collected; expected the type collected from the island, e.g. \"gold\", or false",
                ))
            } else {
                Ok(None)
            }
        }
        fn visit_str<E: serde::de::Error>(self, s: &str) -> Result<Self::Value, E> {
            s.parse().map(Some).map_err(E::custom)
        }
        fn visit_unit<E: serde::de::Error>(self) -> Result<Self::Value, E> {
            Ok(None)
        }
        fn visit_none<E: serde::de::Error>(self) -> Result<Self::Value, E> {
            Ok(None)
        }
        fn visit_some<D2: Deserializer<'de>>(self, d: D2) -> Result<Self::Value, D2::Error> {
            d.deserialize_any(V)
        }
    }
    d.deserialize_option(V)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(s: &str) -> Result<Event, String> {
        serde_json::from_str(s).map_err(|e| e.to_string())
    }

    #[test]
    fn reads_the_cli_md_examples() {
        let e = parse(r#"{"flick": {"player": "orange", "loaded": "gold"}}"#).unwrap();
        assert_eq!(
            e,
            Event::Flick(Flick {
                player: PlayerColor::Orange,
                loaded: Some(TreasureType::Gold),
                toppled: vec![]
            })
        );
        let e = parse(r#"{"flick": {"player": "green", "loaded": null}}"#).unwrap();
        assert!(matches!(e, Event::Flick(Flick { loaded: None, .. })));
        let e =
            parse(r#"{"canon": {"player": "pink", "touched_head": true, "island": false, "failed": false}}"#)
                .unwrap();
        assert!(matches!(
            e,
            Event::Canon(Canon {
                touched_head: true,
                island: None,
                ..
            })
        ));
        let e = parse(
            r#"{"drop": {"player": "green", "hit_ship": "orange", "toppled": ["gold"], "stolen": ["gold"]}}"#,
        )
        .unwrap();
        assert_eq!(e.kind(), "drop");
        assert_eq!(e.player(), PlayerColor::Green);
    }

    #[test]
    fn island_takes_a_type_or_false_but_not_true() {
        let e = parse(r#"{"navigate": {"player": "orange", "island": "gold"}}"#).unwrap();
        assert!(matches!(
            e,
            Event::Navigate(Navigate {
                island: Some(TreasureType::Gold),
                ..
            })
        ));
        let e = parse(r#"{"navigate": {"player": "orange", "island": null}}"#).unwrap();
        assert!(matches!(e, Event::Navigate(Navigate { island: None, .. })));
        let err = parse(r#"{"navigate": {"player": "orange", "island": true}}"#).unwrap_err();
        assert!(err.contains("which treasure"), "{err}");
        let err = parse(r#"{"navigate": {"player": "orange", "island": "pearl"}}"#).unwrap_err();
        assert!(err.contains("unknown treasure type"), "{err}");
    }

    #[test]
    fn misspelt_fields_and_unknown_values_are_refused() {
        let err = parse(r#"{"flick": {"player": "orange", "topled": ["gold"]}}"#).unwrap_err();
        assert!(err.contains("unknown field `topled`"), "{err}");
        let err = parse(r#"{"flick": {"player": "red"}}"#).unwrap_err();
        assert!(err.contains("unknown variant `red`"), "{err}");
        let err = parse(r#"{"jump": {"player": "orange"}}"#).unwrap_err();
        assert!(err.contains("unknown variant `jump`"), "{err}");
    }
}
