//! Otto the Octopus: the Ocean, the tiles, placement legality, scoring, turns and game records.
//!
//! Pure rules (no I/O): layouts and tile sets are parsed from TOML text (the defaults are
//! compiled in from `assets/otto_board.toml` and `assets/otto_tiles.toml`), game records from
//! JSON. The rulebook is the project's `rules/otto-the-octopus.txt`; readings where it is silent
//! are in `docs/spec/games.md` and in the doc comments of the module concerned.
//!
//! For the app: [`check_placement`] judges one placement (legal, with its [`Points`], or the
//! [`IllegalReason`] in the rulebook's words) in microseconds; [`legal_placements`] lists where a
//! tile may go; [`Game`] runs a whole game; [`score_record`] scores a saved game record.

pub mod arm;
pub mod board;
pub mod completion;
pub mod fish;
pub mod game;
pub mod placement;
pub mod record;
pub mod scoring;
pub mod tile;
pub mod tile_set;
pub mod turns;

#[cfg(test)]
mod rulebook_tests;

pub use arm::{Arm, ArmEnd, Blocker, OpenEnd};
pub use board::{Board, BoardError, BoardLayout, Cell, Edge, Side, Socket};
pub use fish::FishEffect;
pub use game::{Game, GameError, GameOptions, Standing, TurnReport};
pub use placement::{IllegalReason, Placement, check_placement, is_playable, legal_placements};
pub use record::{GameRecord, RecordError, RecordReport, score_record};
pub use scoring::Points;
pub use tile::{ArmShape, ArmTile, EndTile, FishTile, Tile, TileKind};
pub use tile_set::{FishSpec, TileSet, TileSetError};
pub use turns::TurnOrder;
