//! Which pieces of the box a game puts on the table, and how many of each.
//!
//! Why: the catalog lists everything the boxes hold, but a game sets out only part of it. The
//! Pink Pirate's ship and Octo-Canon come only with the Pirate; the treasure set depends on the
//! number of players, the Pirate counted (2 players: 3 of each of the five types; 3-4: 4 of
//! each; 5: the six types of the Pink Pirates box, gem out, rose and bottle in:
//! `assets/crash_octopus.toml`). A piece that is not in play is not looked for, so vision never
//! reads a black ink die as a canon left in the box, and never keeps a fourth gold bar when the
//! game has three. Ships and anchors of every colour stay in play: a ship on the table is seen as
//! a ship whoever sails it (`analyze --players` may name only some of the ships on the table, and
//! the referee rules for those), where a big piece left unexplained would read as a hand.
//!
//! Conventions: no players known means nothing is ruled out (the catalog's counts hold). The
//! Little Octopus and the island are ruled out only when the game's modules are known to leave
//! them out ([`InPlay::with_modules`]: the app's game set-up, the bench's scene), not from the
//! players alone (`analyze --players`). The ink die, the crab and the octopus are always in play.

use crate::games::crash_octopus::{PlayerColor, RulesData, TreasureType};
use crate::referee::Modules;
use crate::table::PieceKind;

/// The pieces a game puts on the table: plain data, built from the players.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct InPlay {
    /// Players in any order, the Pirate (`pink`) among them; empty = not known.
    players: Vec<PlayerColor>,
    /// Treasure types in play and pieces of each; `None` = the catalog's.
    treasures: Option<(Vec<TreasureType>, u32)>,
    /// The modules, when the game's set-up is known.
    modules: Option<Modules>,
}

impl InPlay {
    /// Everything in the catalog, in the catalog's numbers: what vision assumes when it is not
    /// told who plays.
    pub fn everything() -> Self {
        Self::default()
    }

    /// The pieces of a game for `players` (the Pirate counted when `pink` is among them), the
    /// treasure set from `rules`. No players: [`InPlay::everything`]. A player count the rules
    /// data has no treasure set for keeps the catalog's treasures.
    pub fn of_players(players: &[PlayerColor], rules: &RulesData) -> Self {
        if players.is_empty() {
            return Self::everything();
        }
        let treasures = rules
            .treasure_set(players.len(), None)
            .map(|set| (set.hierarchy.0.clone(), u32::from(set.per_type)));
        Self {
            players: players.to_vec(),
            treasures,
            modules: None,
        }
    }

    /// The same, the game's modules known: the Little Octopus and the island are on the table
    /// only with their modules. Ignored while no players are known.
    pub fn with_modules(mut self, modules: Modules) -> Self {
        if !self.players.is_empty() {
            self.modules = Some(modules);
        }
        self
    }

    /// Whether nothing is ruled out.
    pub fn is_everything(&self) -> bool {
        self.players.is_empty()
    }

    /// How many of a piece may be on the table: `box_count` (the catalog's) unless the game
    /// says otherwise, 0 when the piece is not in play.
    pub fn count(&self, kind: PieceKind, treasure: Option<TreasureType>, box_count: u32) -> u32 {
        if self.players.is_empty() {
            return box_count;
        }
        let pirate = self.players.iter().any(|p| p.is_pirate());
        match kind {
            PieceKind::PirateShip | PieceKind::OctoCanon if !pirate => 0,
            PieceKind::LittleOctopus if self.modules.is_some_and(|m| !m.little_octopus) => 0,
            PieceKind::Island if self.modules.is_some_and(|m| !m.island) => 0,
            PieceKind::Treasure => match (&self.treasures, treasure) {
                (Some((types, per_type)), Some(t)) if types.contains(&t) => *per_type,
                (Some(_), Some(_)) => 0,
                _ => box_count,
            },
            _ => box_count,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use PlayerColor::*;

    fn rules() -> RulesData {
        RulesData::builtin().unwrap()
    }

    #[test]
    fn unknown_players_rule_nothing_out() {
        let p = InPlay::of_players(&[], &rules());
        assert!(p.is_everything());
        assert_eq!(p.count(PieceKind::OctoCanon, None, 1), 1);
        assert_eq!(p.count(PieceKind::Treasure, Some(TreasureType::Rose), 4), 4);
        assert_eq!(p.count(PieceKind::Ship, None, 1), 1);
    }

    #[test]
    fn two_players_play_without_the_pirate_and_with_three_of_each_treasure() {
        let p = InPlay::of_players(&[Orange, Green], &rules());
        assert!(!p.is_everything());
        // Any colour's ship and anchor: a ship on the table is a ship, whoever sails it.
        assert_eq!(p.count(PieceKind::Ship, None, 1), 1);
        assert_eq!(p.count(PieceKind::Anchor, None, 1), 1);
        assert_eq!(p.count(PieceKind::PirateShip, None, 1), 0);
        assert_eq!(p.count(PieceKind::OctoCanon, None, 1), 0);
        assert_eq!(p.count(PieceKind::Treasure, Some(TreasureType::Gold), 4), 3);
        assert_eq!(p.count(PieceKind::Treasure, Some(TreasureType::Gem), 4), 3);
        assert_eq!(p.count(PieceKind::Treasure, Some(TreasureType::Rose), 4), 0);
        assert_eq!(p.count(PieceKind::InkDie, None, 1), 1);
        assert_eq!(p.count(PieceKind::Tentacle, None, 8), 8);
        // The players alone do not tell the modules.
        assert_eq!(p.count(PieceKind::LittleOctopus, None, 1), 1);
        assert_eq!(p.count(PieceKind::Island, None, 1), 1);
    }

    #[test]
    fn the_little_octopus_and_the_island_come_with_their_modules_when_those_are_known() {
        let island_only = Modules {
            island: true,
            ..Modules::default()
        };
        let p = InPlay::of_players(&[Orange, Green], &rules()).with_modules(island_only);
        assert_eq!(p.count(PieceKind::LittleOctopus, None, 1), 0);
        assert_eq!(p.count(PieceKind::Island, None, 1), 1);
        let unknown_players = InPlay::everything().with_modules(Modules::default());
        assert_eq!(unknown_players.count(PieceKind::LittleOctopus, None, 1), 1);
    }

    #[test]
    fn the_pirate_brings_the_canon_and_with_four_others_the_six_type_treasure_set() {
        let three = InPlay::of_players(&[Orange, Green, Pink], &rules());
        assert_eq!(three.count(PieceKind::OctoCanon, None, 1), 1);
        assert_eq!(three.count(PieceKind::PirateShip, None, 1), 1);
        assert_eq!(three.count(PieceKind::Treasure, Some(TreasureType::Chest), 4), 4);
        assert_eq!(three.count(PieceKind::Treasure, Some(TreasureType::Bottle), 4), 0);
        let five = InPlay::of_players(&[Orange, Green, Blue, Purple, Pink], &rules());
        assert_eq!(five.count(PieceKind::Treasure, Some(TreasureType::Gem), 4), 0);
        assert_eq!(five.count(PieceKind::Treasure, Some(TreasureType::Rose), 4), 4);
        assert_eq!(five.count(PieceKind::Treasure, Some(TreasureType::Bottle), 4), 4);
    }
}
