//! What the referee needs to know about the game besides the table: who plays in which order,
//! whose turn it is, what each player has loaded, and how precise a measurement is.
//!
//! Kept as plain data so the app can fill it from the rules engine's state and the CLI from its
//! flags, without the referee depending on the engine.

use super::error::RefereeError;
use crate::games::crash_octopus::{PlayerColor, TreasureType};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};

/// Gaps within this much of the closest are *too close to call* (table.md's default), mm.
pub const DEFAULT_TOLERANCE_MM: f64 = 3.0;

/// One standard deviation of a footprint's position along any direction, for a piece seen with
/// full confidence, mm. Chosen from vision's quality bar (median position error <= 2 mm over
/// both axes, which is about 1.7 mm per axis, improved by the footprint fit over many pixels).
/// A piece seen with confidence `c` counts `1 / c` times this (see `gap::piece_sigma_mm`).
pub const DEFAULT_POSITION_SIGMA_MM: f64 = 1.0;

/// The optional modules of the Pink Pirates box, named as in the replay file (`cli.md`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Modules {
    #[serde(default)]
    pub pink_pirate: bool,
    #[serde(default)]
    pub little_octopus: bool,
    #[serde(default)]
    pub island: bool,
}

/// The game around a table reading.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GameContext {
    /// Players in turn order. Empty = not known: the referee then rules for every ship it sees
    /// (except the pirate ship) and cannot name who re-drops a treasure.
    #[serde(default)]
    pub players: Vec<PlayerColor>,
    /// The player whose turn it is (who is flicking, or dropping the ink die, right now).
    /// A piece seen out of the ocean is taken to have gone out during this player's action.
    #[serde(default)]
    pub active: Option<PlayerColor>,
    /// Treasure types each player has loaded, from the game state. `None` = no game state is
    /// known (e.g. `octoref analyze` on still images): only the loads seen on the ships count
    /// and no question about disagreements is asked.
    #[serde(default)]
    pub loaded: Option<BTreeMap<PlayerColor, BTreeSet<TreasureType>>>,
    /// Too-close-to-call tolerance, mm (`--tolerance-mm`).
    #[serde(default = "default_tolerance")]
    pub tolerance_mm: f64,
    /// Measurement uncertainty of a piece's position at full confidence, mm (one sigma).
    #[serde(default = "default_sigma")]
    pub position_sigma_mm: f64,
    #[serde(default)]
    pub modules: Modules,
}

fn default_tolerance() -> f64 {
    DEFAULT_TOLERANCE_MM
}

fn default_sigma() -> f64 {
    DEFAULT_POSITION_SIGMA_MM
}

impl Default for GameContext {
    fn default() -> Self {
        Self {
            players: Vec::new(),
            active: None,
            loaded: None,
            tolerance_mm: DEFAULT_TOLERANCE_MM,
            position_sigma_mm: DEFAULT_POSITION_SIGMA_MM,
            modules: Modules::default(),
        }
    }
}

impl GameContext {
    /// A context with these players in turn order and the default tolerances.
    pub fn with_players(players: Vec<PlayerColor>) -> Self {
        let modules = Modules {
            pink_pirate: players.contains(&PlayerColor::Pink),
            ..Modules::default()
        };
        Self {
            players,
            modules,
            ..Self::default()
        }
    }

    /// Checks what the rulebook fixes: each colour plays once, the Pirate plays last, the active
    /// player is playing, and the tolerances are real lengths.
    pub fn validate(&self) -> Result<(), RefereeError> {
        let mut seen = BTreeSet::new();
        for (i, &color) in self.players.iter().enumerate() {
            if !seen.insert(color) {
                return Err(RefereeError::DuplicatePlayer { color });
            }
            if color.is_pirate()
                && let Some(&after) = self.players.get(i + 1)
            {
                return Err(RefereeError::PirateNotLast { after });
            }
        }
        if let Some(color) = self.active
            && !self.players.is_empty()
            && !self.players.contains(&color)
        {
            let names: Vec<&str> = self.players.iter().map(|p| p.as_str()).collect();
            return Err(RefereeError::ActiveNotPlaying {
                color,
                players: names.join(", "),
            });
        }
        if !(self.tolerance_mm.is_finite() && self.tolerance_mm >= 0.0) {
            return Err(RefereeError::BadTolerance {
                value: self.tolerance_mm,
            });
        }
        if !(self.position_sigma_mm.is_finite() && self.position_sigma_mm >= 0.0) {
            return Err(RefereeError::BadPositionSigma {
                value: self.position_sigma_mm,
            });
        }
        Ok(())
    }

    /// The player before `player` in turn order (the one who re-drops what `player` sent out of
    /// the ocean). `None` when the turn order is not known or `player` is not in it.
    pub fn previous_player(&self, player: PlayerColor) -> Option<PlayerColor> {
        let n = self.players.len();
        let i = self.players.iter().position(|&p| p == player)?;
        self.players.get((i + n - 1) % n).copied()
    }

    /// Whether the Pink Pirate plays (the module flag, or pink among the players).
    pub fn pirate_plays(&self) -> bool {
        self.modules.pink_pirate || self.players.contains(&PlayerColor::Pink)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use PlayerColor::*;

    #[test]
    fn the_previous_player_wraps_around_the_table() {
        let ctx = GameContext::with_players(vec![Orange, Green, Blue]);
        assert_eq!(ctx.previous_player(Green), Some(Orange));
        assert_eq!(ctx.previous_player(Orange), Some(Blue));
        assert_eq!(ctx.previous_player(Purple), None);
        assert_eq!(GameContext::default().previous_player(Orange), None);
    }

    #[test]
    fn validation_names_the_field() {
        let mut ctx = GameContext::with_players(vec![Orange, Pink, Green]);
        assert_eq!(ctx.validate(), Err(RefereeError::PirateNotLast { after: Green }));
        ctx.players = vec![Orange, Orange];
        assert!(ctx.validate().unwrap_err().to_string().starts_with("players:"));
        ctx.players = vec![Orange, Green];
        ctx.active = Some(Blue);
        let e = ctx.validate().unwrap_err().to_string();
        assert!(e.contains("active") && e.contains("orange, green"), "{e}");
        ctx.active = Some(Green);
        ctx.tolerance_mm = -1.0;
        assert!(
            ctx.validate()
                .unwrap_err()
                .to_string()
                .starts_with("tolerance_mm")
        );
        ctx.tolerance_mm = 3.0;
        ctx.position_sigma_mm = f64::NAN;
        assert!(ctx.validate().is_err());
        ctx.position_sigma_mm = 1.0;
        assert_eq!(ctx.validate(), Ok(()));
    }

    #[test]
    fn a_context_reads_from_json_with_defaults() {
        let ctx: GameContext =
            serde_json::from_str(r#"{"players": ["orange", "green", "pink"], "active": "green"}"#).unwrap();
        assert_eq!(ctx.tolerance_mm, DEFAULT_TOLERANCE_MM);
        assert!(ctx.pirate_plays());
        assert_eq!(ctx.loaded, None);
    }
}
