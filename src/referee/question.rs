//! Questions for the players: whatever the referee cannot be sure of is asked, never decided.

use super::words;
use crate::games::crash_octopus::{PlayerColor, TreasureType};
use crate::table::PieceKind;
use serde::{Deserialize, Serialize};

/// Confidence below which a piece that matters for a ruling is shown as a question.
pub const LOW_CONFIDENCE: f64 = 0.6;

/// Something the players should confirm or correct.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "question", rename_all = "snake_case")]
pub enum Question {
    /// A treasure stands on a player's ship, but the game state has no such load for them.
    LoadNotInGame {
        player: PlayerColor,
        piece: String,
        #[serde(rename = "type")]
        treasure: TreasureType,
    },
    /// The game state has a load for the player that is not seen on their ship (fallen off, or
    /// hidden under another treasure).
    LoadNotSeen {
        player: PlayerColor,
        #[serde(rename = "type")]
        treasure: TreasureType,
    },
    /// Several treasures are too close to call as the closest to the player's ship.
    TooCloseToCall {
        player: PlayerColor,
        candidates: Vec<String>,
        #[serde(default)]
        types: Vec<Option<TreasureType>>,
    },
    /// Several anchors are too close to call as the closest to the island.
    IslandTooCloseToCall { players: Vec<PlayerColor> },
    /// The ink die lies in the ocean and its top colour is not known for sure.
    DieColourUncertain { piece: String },
    /// A piece that matters for a ruling was seen with low confidence.
    LowConfidencePiece {
        piece: String,
        kind: PieceKind,
        #[serde(rename = "type", default, skip_serializing_if = "Option::is_none")]
        treasure: Option<TreasureType>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        color: Option<PlayerColor>,
        confidence: f64,
    },
    /// A treasure whose type is not known.
    TreasureTypeUnknown { piece: String },
}

impl Question {
    /// The question in plain words.
    pub fn text(&self) -> String {
        match self {
            Question::LoadNotInGame {
                player,
                piece,
                treasure,
            } => format!(
                "{} stands on the {player} ship, but the game has no {treasure} for {player}: \
                 did {player} load it?",
                words::capitalise(&words::treasure(piece, Some(*treasure)))
            ),
            Question::LoadNotSeen { player, treasure } => format!(
                "The game has {} on the {player} ship, but octoref does not see it there: \
                 has it fallen off, or is it hidden under another treasure?",
                words::a_treasure(*treasure)
            ),
            Question::TooCloseToCall {
                player,
                candidates,
                types,
            } => {
                let names: Vec<String> = candidates
                    .iter()
                    .enumerate()
                    .map(|(i, id)| words::treasure(id, types.get(i).copied().flatten()))
                    .collect();
                format!(
                    "Which counts as the closest to the {player} ship: {}?",
                    words::or_list(&names)
                )
            }
            Question::IslandTooCloseToCall { players } => {
                let names: Vec<String> = players.iter().map(|p| format!("the {p} anchor")).collect();
                format!(
                    "Which is the closest to the Nameless Island: {}?",
                    words::or_list(&names)
                )
            }
            Question::DieColourUncertain { piece } => {
                format!("Which colour is on top of the ink die ({piece}): black or red?")
            }
            Question::LowConfidencePiece {
                piece,
                kind,
                treasure,
                color,
                confidence,
            } => {
                let name = match (kind, treasure) {
                    (PieceKind::Treasure, t) => words::treasure(piece, *t),
                    (k, _) => words::piece(*k, *color, piece),
                };
                format!(
                    "Is that {name}? octoref is only {:.0} % sure of it.",
                    confidence * 100.0
                )
            }
            Question::TreasureTypeUnknown { piece } => {
                format!("What kind of treasure is {piece}? octoref cannot tell.")
            }
        }
    }

    /// The question without its measurements, to compare readings (see `RulingsDigest`).
    pub fn key(&self) -> String {
        match self {
            Question::LoadNotInGame {
                player,
                piece,
                treasure,
            } => {
                format!("load_not_in_game:{player}:{piece}:{treasure}")
            }
            Question::LoadNotSeen { player, treasure } => format!("load_not_seen:{player}:{treasure}"),
            Question::TooCloseToCall {
                player, candidates, ..
            } => {
                let mut c = candidates.clone();
                c.sort();
                format!("too_close_to_call:{player}:{}", c.join(","))
            }
            Question::IslandTooCloseToCall { players } => {
                let mut p: Vec<&str> = players.iter().map(|p| p.as_str()).collect();
                p.sort_unstable();
                format!("island_too_close_to_call:{}", p.join(","))
            }
            Question::DieColourUncertain { piece } => format!("die_colour_uncertain:{piece}"),
            Question::LowConfidencePiece { piece, .. } => format!("low_confidence_piece:{piece}"),
            Question::TreasureTypeUnknown { piece } => format!("treasure_type_unknown:{piece}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn questions_read_as_questions_and_serialise_with_their_kind() {
        let q = Question::LoadNotInGame {
            player: PlayerColor::Orange,
            piece: "p7".into(),
            treasure: TreasureType::Gem,
        };
        assert_eq!(
            q.text(),
            "The gem (p7) stands on the orange ship, but the game has no gem for orange: did orange load it?"
        );
        let json = serde_json::to_value(&q).unwrap();
        assert_eq!(json["question"], "load_not_in_game");
        assert_eq!(json["type"], "gem");
        let back: Question = serde_json::from_value(json).unwrap();
        assert_eq!(back, q);
        let tie = Question::TooCloseToCall {
            player: PlayerColor::Green,
            candidates: vec!["p9".into(), "p3".into()],
            types: vec![Some(TreasureType::Chest), Some(TreasureType::Gold)],
        };
        assert_eq!(
            tie.text(),
            "Which counts as the closest to the green ship: the chest (p9) or the gold (p3)?"
        );
        assert_eq!(tie.key(), "too_close_to_call:green:p3,p9");
        let low = Question::LowConfidencePiece {
            piece: "p2".into(),
            kind: PieceKind::Ship,
            treasure: None,
            color: Some(PlayerColor::Blue),
            confidence: 0.42,
        };
        assert_eq!(
            low.text(),
            "Is that the blue ship (p2)? octoref is only 42 % sure of it."
        );
    }
}
