//! Preparation: who plays in which order, which modules are in, the Octo-Counter and the treasures.
//!
//! The base game is for 2-4 players (orange, green, blue, purple). The Pink Pirate module adds the
//! Pirate (`pink`) to 2-4 other players, and the Pirate always plays last. The treasure set depends
//! on the number of players at the table, the Pirate counted: 2 players use 3 of each type, 3-4
//! players 4 of each, and 5 players (the Pirate and four others) the six types of the Pink Pirates
//! box, gem out, rose and bottle in (`assets/crash_octopus.toml`).

use super::beads::BeadSequence;
use super::player::PlayerColor;
use super::rules_data::{IslandRule, RulesData, TreasureSet};
use serde::{Deserialize, Serialize};

/// Fewest players other than the Pirate (base game and Pink Pirates module alike).
pub const MIN_SAILORS: usize = 2;
/// Most players other than the Pirate: one per ship colour.
pub const MAX_SAILORS: usize = 4;

/// The optional modules of the Pink Pirates box.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Modules {
    pub pink_pirate: bool,
    pub little_octopus: bool,
    pub island: bool,
}

/// Everything fixed before the first turn.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Setup {
    /// Turn order; the first player starts. With the Pink Pirate, `pink` is last.
    pub players: Vec<PlayerColor>,
    pub modules: Modules,
    pub beads: BeadSequence,
    pub treasures: TreasureSet,
    pub island: IslandRule,
}

/// The set-up is not one the rules allow; the message says what was expected.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    #[error(
        "{got} players other than the Pink Pirate; expected {MIN_SAILORS} to {MAX_SAILORS} of orange, green, blue, purple"
    )]
    PlayerCount { got: usize },
    #[error("{player} is listed twice; expected each colour once")]
    DuplicatePlayer { player: PlayerColor },
    #[error(
        "pink (the Pink Pirate) plays only with the pink_pirate module; expected \"modules\": {{\"pink_pirate\": true}} or no pink player"
    )]
    PirateWithoutModule,
    #[error("the pink_pirate module is on but nobody plays pink; expected \"pink\" in the players")]
    ModuleWithoutPirate,
    #[error("the Pink Pirate always plays last; expected pink at the end of the players, e.g. [{example}]")]
    PirateNotLast { example: String },
    #[error("the rules data has no treasure set for {players} players (it has sets for {known})")]
    NoTreasureSet { players: usize, known: String },
    #[error("the rules data has no {types}-type game; expected one of {known}")]
    UnknownTypeCount { types: u8, known: String },
    #[error("{0}")]
    RulesData(#[from] super::rules_data::RulesDataError),
}

impl SetupError {
    /// The record field this error is about, for messages such as `game.json: players: ...`.
    pub fn field(&self) -> &'static str {
        match self {
            SetupError::PirateWithoutModule | SetupError::ModuleWithoutPirate => "modules",
            SetupError::UnknownTypeCount { .. } => "types",
            SetupError::RulesData(_) => "(rules data)",
            _ => "players",
        }
    }
}

impl Setup {
    /// A set-up from the players in turn order, the modules, the bead sequence (`None`: the data's
    /// default) and the number of treasure types (`None`: the data's choice for the player count).
    pub fn new(
        players: Vec<PlayerColor>,
        modules: Modules,
        beads: Option<BeadSequence>,
        types: Option<u8>,
        data: &RulesData,
    ) -> Result<Setup, SetupError> {
        if let Some(t) = types
            && data.types(t).is_none()
        {
            return Err(SetupError::UnknownTypeCount {
                types: t,
                known: join_numbers(&data.type_counts()),
            });
        }
        check_players(&players, modules)?;
        let treasures = data
            .treasure_set(players.len(), types)
            .ok_or_else(|| SetupError::NoTreasureSet {
                players: players.len(),
                known: join_numbers(&data.player_counts()),
            })?;
        Ok(Setup {
            players,
            modules,
            beads: beads.unwrap_or_else(|| data.counter.beads.clone()),
            treasures,
            island: data.island,
        })
    }

    /// Checks a set-up built by hand (its fields are public).
    pub fn validate(&self) -> Result<(), SetupError> {
        check_players(&self.players, self.modules)
    }

    /// The number of players at the table, the Pirate counted.
    pub fn player_count(&self) -> usize {
        self.players.len()
    }

    pub fn has_pirate(&self) -> bool {
        self.modules.pink_pirate
    }
}

fn check_players(players: &[PlayerColor], modules: Modules) -> Result<(), SetupError> {
    for (i, p) in players.iter().enumerate() {
        if players[..i].contains(p) {
            return Err(SetupError::DuplicatePlayer { player: *p });
        }
    }
    let has_pink = players.contains(&PlayerColor::Pink);
    match (has_pink, modules.pink_pirate) {
        (true, false) => return Err(SetupError::PirateWithoutModule),
        (false, true) => return Err(SetupError::ModuleWithoutPirate),
        _ => {}
    }
    let sailors = players.iter().filter(|p| !p.is_pirate()).count();
    if !(MIN_SAILORS..=MAX_SAILORS).contains(&sailors) {
        return Err(SetupError::PlayerCount { got: sailors });
    }
    if has_pink && players.last() != Some(&PlayerColor::Pink) {
        let mut example: Vec<&str> = players
            .iter()
            .filter(|p| !p.is_pirate())
            .map(|p| p.as_str())
            .collect();
        example.push("pink");
        return Err(SetupError::PirateNotLast {
            example: example.join(", "),
        });
    }
    Ok(())
}

fn join_numbers(v: &[u8]) -> String {
    v.iter().map(u8::to_string).collect::<Vec<_>>().join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::crash_octopus::TreasureType;
    use PlayerColor::*;

    fn data() -> RulesData {
        RulesData::builtin().unwrap()
    }

    fn setup(players: &[PlayerColor], pirate: bool) -> Result<Setup, SetupError> {
        let modules = Modules {
            pink_pirate: pirate,
            ..Modules::default()
        };
        Setup::new(players.to_vec(), modules, None, None, &data())
    }

    #[test]
    fn treasure_sets_follow_the_player_count() {
        let s = setup(&[Orange, Green], false).unwrap();
        assert_eq!(s.treasures.per_type, 3);
        assert_eq!(s.treasures.total_pieces(), 15);
        assert_eq!(s.beads.to_string(), "BBBKBBBKBBKBBKKK");
        let s = setup(&[Orange, Green, Blue], false).unwrap();
        assert_eq!(s.treasures.total_pieces(), 20);
        let s = setup(&[Orange, Green, Blue, Purple], false).unwrap();
        assert_eq!(s.treasures.total_pieces(), 20);
        // The Pirate and two others: 3 players, the base types.
        let s = setup(&[Orange, Green, Pink], true).unwrap();
        assert_eq!(s.treasures.per_type, 4);
        assert!(s.treasures.hierarchy.contains(TreasureType::Gem));
        // Five players: six types, gem out, rose and bottle in.
        let s = setup(&[Orange, Green, Blue, Purple, Pink], true).unwrap();
        assert_eq!(s.treasures.total_pieces(), 24);
        assert!(!s.treasures.hierarchy.contains(TreasureType::Gem));
        assert!(s.treasures.hierarchy.contains(TreasureType::Rose));
        assert!(s.treasures.hierarchy.contains(TreasureType::Bottle));
    }

    #[test]
    fn the_record_may_choose_six_types_and_its_own_beads() {
        let modules = Modules {
            pink_pirate: true,
            ..Modules::default()
        };
        let s = Setup::new(
            vec![Orange, Green, Pink],
            modules,
            Some("BK".parse().unwrap()),
            Some(6),
            &data(),
        )
        .unwrap();
        assert_eq!(s.treasures.hierarchy.len(), 6);
        assert_eq!(s.beads.len(), 2);
        let e = Setup::new(vec![Orange, Green], modules, None, Some(7), &data()).unwrap_err();
        assert!(matches!(e, SetupError::UnknownTypeCount { types: 7, .. }));
        assert_eq!(e.field(), "types");
    }

    #[test]
    fn bad_setups_say_what_was_expected() {
        assert_eq!(
            setup(&[Orange], false).unwrap_err(),
            SetupError::PlayerCount { got: 1 }
        );
        assert_eq!(
            setup(&[Orange, Pink], true).unwrap_err(),
            SetupError::PlayerCount { got: 1 }
        );
        assert_eq!(
            setup(&[Orange, Orange], false).unwrap_err(),
            SetupError::DuplicatePlayer { player: Orange }
        );
        assert_eq!(
            setup(&[Orange, Green, Pink], false).unwrap_err(),
            SetupError::PirateWithoutModule
        );
        assert_eq!(
            setup(&[Orange, Green], true).unwrap_err(),
            SetupError::ModuleWithoutPirate
        );
        let e = setup(&[Pink, Orange, Green], true).unwrap_err();
        assert_eq!(
            e,
            SetupError::PirateNotLast {
                example: "orange, green, pink".into()
            }
        );
        assert!(e.to_string().contains("always plays last"));
    }
}
