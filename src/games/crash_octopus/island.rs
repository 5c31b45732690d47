//! The Nameless Island (module). Our copy of the rulebook lacks the island's page; the readings come
//! from `spec/games.md` and live in `assets/crash_octopus.toml` (`[island]`):
//!
//! - A treasure lies on the island. A player collects it by touching it with a flicked anchor
//!   (`navigate.island`) or, for the Pirate, with the Octo-Canon (`canon.island`), naming the type.
//! - The player whose anchor (or canon) was closest to the island at the start of the turn may not
//!   collect it (`island.closest_may_collect = false`). The referee measures this and fills
//!   `closest_to_island`; when the field is left out the rule cannot be checked and the log says so.
//! - The usual rules hold: a ship never holds a type twice, and the piece must exist off the ships
//!   (octoref counts the island's treasure among the pieces on no ship).
//! - A failed navigation (anchor or canon out of the ocean) collects nothing.
//! - Collecting never moves the crab for the Pirate; for the others only when
//!   `island.moves_crab = true` (default false).

use super::error::RuleError;
use super::game::Game;
use super::player::PlayerColor;
use super::treasure::TreasureType;

impl Game {
    /// Checks that `player` may collect `t` from the island now.
    pub(super) fn check_island(
        &self,
        player: PlayerColor,
        t: TreasureType,
        failed: bool,
        closest: Option<PlayerColor>,
    ) -> Result<(), RuleError> {
        if !self.setup.modules.island {
            return Err(RuleError::ModuleOff {
                field: "island",
                module: "island",
            });
        }
        if let Some(c) = closest {
            self.index_of(c, "closest_to_island")?;
        }
        let piece = island_piece(player);
        if failed {
            return Err(RuleError::IslandOnFailure {
                action: "navigation",
                piece,
            });
        }
        if closest == Some(player) && !self.setup.island.closest_may_collect {
            return Err(RuleError::ClosestToIsland { player, piece });
        }
        self.check_loadable("island", player, t)
    }

    /// Loads the island's treasure onto `player`'s ship. Returns whether the crab steps for it.
    pub(super) fn collect_from_island(
        &mut self,
        player: PlayerColor,
        t: TreasureType,
        closest: Option<PlayerColor>,
        out: &mut Vec<String>,
    ) -> bool {
        self.load(player, t);
        if closest.is_none() {
            out.push(format!(
                "Nobody recorded whose anchor was closest to the island at the start of the turn, so octoref could not check that {player} was allowed to collect."
            ));
        }
        let moves_crab = self.setup.island.moves_crab && !player.is_pirate();
        let crab = if moves_crab {
            "the crab steps as for any load"
        } else {
            "the crab does not move"
        };
        out.push(format!(
            "{player}'s {} touches the Nameless Island: {player} collects the {t} from the island ({crab}).",
            island_piece(player)
        ));
        moves_crab
    }
}

fn island_piece(player: PlayerColor) -> &'static str {
    if player.is_pirate() {
        "Octo-Canon"
    } else {
        "anchor"
    }
}
