//! Player colours. The Pink Pirate plays `pink` and always comes last in turn order.

use serde::{Deserialize, Serialize};

/// A player's colour, named as in every file and output.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PlayerColor {
    Orange,
    Green,
    Blue,
    Purple,
    /// The Pink Pirate (module).
    Pink,
}

impl PlayerColor {
    pub const ALL: [PlayerColor; 5] = [
        PlayerColor::Orange,
        PlayerColor::Green,
        PlayerColor::Blue,
        PlayerColor::Purple,
        PlayerColor::Pink,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            PlayerColor::Orange => "orange",
            PlayerColor::Green => "green",
            PlayerColor::Blue => "blue",
            PlayerColor::Purple => "purple",
            PlayerColor::Pink => "pink",
        }
    }

    pub fn is_pirate(self) -> bool {
        self == PlayerColor::Pink
    }
}

impl std::fmt::Display for PlayerColor {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl std::str::FromStr for PlayerColor {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        PlayerColor::ALL
            .into_iter()
            .find(|c| c.as_str() == s)
            .ok_or_else(|| {
                format!("unknown player colour {s:?}; expected one of orange, green, blue, purple, pink")
            })
    }
}
