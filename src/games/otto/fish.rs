//! Fish effects, as data: the small vocabulary a Fish Identifier card maps onto.
//!
//! Our copy of the rulebook shows the card only as a picture, so the card itself lives in
//! `assets/otto_tiles.toml` (species, points, effect), where every guessed entry is marked as
//! octoref's reading. Code knows only this vocabulary.

use serde::{Deserialize, Serialize};

/// What a Fish tile does when it is placed, besides scoring its points.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FishEffect {
    /// No effect.
    None,
    /// The player places another tile straight away (after drawing).
    PlayAgain,
    /// The player draws one more tile.
    DrawExtra,
    /// The next player misses their next turn.
    NextPlayerMissesTurn,
    /// Every other player draws a tile.
    OthersDrawOne,
    /// Play passes the other way from now on.
    ReverseDirection,
    /// The player takes a tile at random from the next player's hand.
    StealFromNext,
}

impl FishEffect {
    pub const ALL: [FishEffect; 7] = [
        FishEffect::None,
        FishEffect::PlayAgain,
        FishEffect::DrawExtra,
        FishEffect::NextPlayerMissesTurn,
        FishEffect::OthersDrawOne,
        FishEffect::ReverseDirection,
        FishEffect::StealFromNext,
    ];

    /// The name used in files and JSON output.
    pub fn as_str(self) -> &'static str {
        match self {
            FishEffect::None => "none",
            FishEffect::PlayAgain => "play_again",
            FishEffect::DrawExtra => "draw_extra",
            FishEffect::NextPlayerMissesTurn => "next_player_misses_turn",
            FishEffect::OthersDrawOne => "others_draw_one",
            FishEffect::ReverseDirection => "reverse_direction",
            FishEffect::StealFromNext => "steal_from_next",
        }
    }

    /// What the effect does, as a player reads it on the card.
    pub fn describe(self) -> &'static str {
        match self {
            FishEffect::None => "no effect",
            FishEffect::PlayAgain => "place another tile straight away",
            FishEffect::DrawExtra => "draw one more tile",
            FishEffect::NextPlayerMissesTurn => "the next player misses their turn",
            FishEffect::OthersDrawOne => "every other player draws a tile",
            FishEffect::ReverseDirection => "play passes the other way",
            FishEffect::StealFromNext => "take a tile at random from the next player's hand",
        }
    }

    /// Does this effect change whose turn comes next (and so matter when scoring a record)?
    pub fn changes_turn_order(self) -> bool {
        matches!(
            self,
            FishEffect::PlayAgain | FishEffect::NextPlayerMissesTurn | FishEffect::ReverseDirection
        )
    }
}

impl std::fmt::Display for FishEffect {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_through_serde() {
        for e in FishEffect::ALL {
            let json = serde_json::to_string(&e).unwrap();
            assert_eq!(json, format!("\"{}\"", e.as_str()));
            assert_eq!(serde_json::from_str::<FishEffect>(&json).unwrap(), e);
        }
    }
}
