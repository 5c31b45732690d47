//! Crash Octopus (base game and the Pink Pirates modules): pure state and events.

pub mod beads;
pub mod player;
pub mod treasure;

pub use beads::{Bead, BeadSequence};
pub use player::PlayerColor;
pub use treasure::TreasureType;
