//! Octocube: set-ups, cubes, actions and scoring (basic, kids and advanced versions).
//!
//! Pure rules: no I/O, no randomness of its own (shuffling takes a seeded RNG from the caller).
//! The modules follow the rulebook: [`tile`] (the tiles), [`data`] (box contents, set-ups and
//! tables from `assets/octocube.toml`), [`setup`], [`play_area`] (stacks and spaces), [`cube`]
//! (an Octopus cube and its orientation), [`actions`] (enter, Roll, Pivot, Score, Pass and
//! magnetism), [`game`] (turns, the end of the game), [`player_board`], [`scoring`] (series
//! table and final scoring), [`kids`] and [`advanced`] (the Abyss powers).
//!
//! Typical use:
//! ```
//! use octoref::games::octocube::{self as oc, setup::GameOptions, game::Version};
//! use rand::SeedableRng;
//! let data = oc::OctocubeData::builtin().unwrap();
//! let options = GameOptions { version: Version::Basic, players: vec!["Ana".into(), "Ben".into()], first_player: Some(0) };
//! let mut game = oc::setup::new_game(data, &options, &mut rand_chacha::ChaCha8Rng::seed_from_u64(1)).unwrap();
//! let action = game.legal_actions()[0].clone();
//! game.apply(&action).unwrap();
//! let score = oc::score_final(&game.final_input()).unwrap();
//! assert_eq!(score.players.len(), 2);
//! ```

pub mod actions;
pub mod advanced;
pub mod cube;
pub mod data;
pub mod game;
pub mod kids;
pub mod play_area;
pub mod player_board;
pub mod scoring;
pub mod setup;
pub mod tile;

pub use actions::Action;
pub use advanced::PowerUse;
pub use cube::{Cube, Face, Orientation, PivotAngle, Position};
pub use data::OctocubeData;
pub use game::{Event, Game, RuleError, Version};
pub use play_area::{Cell, Direction, PlayArea, Space};
pub use player_board::TileCounts;
pub use scoring::{FinalInput, FinalPlayerInput, FinalScore, score_final, score_final_with};
pub use setup::{GameOptions, new_game};
pub use tile::{AbyssTile, Background, Category, Object, ObjectTile, Power, Tile};

#[cfg(test)]
mod tests;
