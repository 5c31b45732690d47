//! Octocube: set-ups, cubes, actions and scoring (basic, kids and advanced versions).
//!
//! Pure rules: no I/O, no randomness of its own (shuffling takes a seeded RNG from the caller).
//! The modules follow the rulebook: [`tile`] (the tiles), [`data`] (box contents, set-ups and
//! tables from `assets/octocube.toml`), [`play_area`] (stacks and spaces), [`cube`] (an Octopus
//! cube and its orientation), [`player_board`], [`scoring`] (series table and final scoring).

pub mod cube;
pub mod data;
pub mod play_area;
pub mod player_board;
pub mod scoring;
pub mod tile;

pub use cube::{Cube, Face, Orientation, PivotAngle, Position};
pub use data::OctocubeData;
pub use play_area::{Cell, Direction, PlayArea, Space};
pub use player_board::TileCounts;
pub use scoring::{FinalInput, FinalPlayerInput, FinalScore, score_final, score_final_with};
pub use tile::{AbyssTile, Background, Category, Object, ObjectTile, Power, Tile};
