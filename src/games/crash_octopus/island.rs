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

#[cfg(test)]
mod tests {
    use super::super::event::{Canon, Event, Navigate};
    use super::super::game::{Game, Next};
    use super::super::setup::Setup;
    use super::super::testkit::*;
    use super::*;
    use crate::games::crash_octopus::TreasureType::*;
    use PlayerColor::*;

    #[test]
    fn an_anchor_collects_the_islands_treasure_without_moving_the_crab() {
        let mut g = new_game(&[Orange, Green], modules(false, false, true), "KBBBB");
        let lines = g.apply(&island_nav(Orange, Gold, Some(Green))).unwrap();
        assert!(
            lines
                .iter()
                .any(|l| l.contains("orange collects the gold from the island"))
        );
        assert_eq!(loaded(&g, Orange), vec![Gold]);
        assert_eq!(g.ocean().count(Gold), 2);
        assert_eq!(g.counter().crab(), 0);
        assert_eq!(g.next(), Next::Turn { player: Green });
    }

    #[test]
    fn the_player_closest_to_the_island_may_not_collect() {
        let mut g = new_game(&[Orange, Green, Pink], modules(true, false, true), "BBBBB");
        let e = refused(&mut g, island_nav(Orange, Gold, Some(Orange)));
        assert_eq!(
            e,
            RuleError::ClosestToIsland {
                player: Orange,
                piece: "anchor"
            }
        );
        assert!(
            e.to_string()
                .contains("orange's anchor was the closest to the island")
        );
        play(&mut g, &[miss(Orange), miss(Green)]);
        let e = refused(
            &mut g,
            Event::Canon(Canon {
                island: Some(Gold),
                closest_to_island: Some(Pink),
                ..canon_struct()
            }),
        );
        assert_eq!(
            e,
            RuleError::ClosestToIsland {
                player: Pink,
                piece: "Octo-Canon"
            }
        );
        // A closest player who is not in the game is an input error too.
        let e = refused(
            &mut g,
            Event::Canon(Canon {
                island: Some(Gold),
                closest_to_island: Some(Blue),
                ..canon_struct()
            }),
        );
        assert!(matches!(
            e,
            RuleError::UnknownPlayer {
                field: "closest_to_island",
                ..
            }
        ));
    }

    #[test]
    fn the_island_rule_is_data_closest_may_collect_and_moves_crab() {
        let mut setup = Setup::new(
            vec![Orange, Green],
            modules(false, false, true),
            Some("KBBB".parse().unwrap()),
            None,
            &data(),
        )
        .unwrap();
        setup.island.closest_may_collect = true;
        setup.island.moves_crab = true;
        let mut g = Game::new(setup).unwrap();
        play(&mut g, &[island_nav(Orange, Gold, Some(Orange))]);
        assert_eq!(g.counter().crab(), 1);
        assert_eq!(g.attack().unwrap().order, vec![Green, Orange, Green, Orange]);
    }

    #[test]
    fn island_collection_obeys_the_usual_rules() {
        let mut g = new_game(&[Orange, Green], modules(false, false, true), "BBBBB");
        play(&mut g, &[flick(Orange, Gold), miss(Green)]);
        let e = refused(&mut g, island_nav(Orange, Gold, Some(Green)));
        assert!(matches!(e, RuleError::AlreadyLoaded { field: "island", .. }));
        let e = refused(
            &mut g,
            Event::Navigate(Navigate {
                player: Orange,
                failed: true,
                island: Some(Gem),
                closest_to_island: Some(Green),
            }),
        );
        assert!(matches!(e, RuleError::IslandOnFailure { .. }));
        // Without the closest player recorded, the log says the rule could not be checked.
        let lines = g.apply(&island_nav(Orange, Gem, None)).unwrap();
        assert!(lines.iter().any(|l| l.contains("could not check")), "{lines:?}");
        // The module must be on.
        let mut g = new_game(&[Orange, Green], modules(false, false, false), "BBBBB");
        let e = refused(&mut g, island_nav(Orange, Gem, Some(Green)));
        assert_eq!(
            e,
            RuleError::ModuleOff {
                field: "island",
                module: "island"
            }
        );
    }
}
