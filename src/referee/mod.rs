//! The referee: joins a table reading with the game state into Crash Octopus rulings. Pure: no
//! OpenCV, no I/O, no clock.
//!
//! - [`rule`] (one [`TableReading`] + a [`GameContext`] -> [`Rulings`]): gaps from every ship to
//!   every treasure, footprint to footprint, each with its uncertainty; the closest treasure with
//!   *too close to call* inside the tolerance; what each player may and may not flick and why;
//!   what is out of the ocean and who re-drops it; treasures on the string; what the next bead
//!   means; the Nameless Island; questions for the players; plain-word messages.
//! - [`classify`]: table.md's "in the ocean", "on the string", "loaded", "on the island", shared
//!   by vision and the renderer's ground truth.
//! - [`FrameReport`]: `analyze`'s per-frame JSON object (and `truth.json`'s).
//! - [`CommitGate`]: commit a ruling only after two agreeing settled readings.
//!
//! Files are named after the rulebook's concepts: `closest` (BAD No.1), `loaded_types`
//! (BAD No.2's input), `flick` (both together), `out_of_ocean`, `counter` (the Octo-Counter),
//! `island` (the Nameless Island).

pub mod classify;
pub mod closest;
pub mod commit;
pub mod context;
pub mod counter;
pub mod error;
pub mod flick;
pub mod frame;
pub mod gap;
pub mod island;
pub mod judge;
pub mod loaded_types;
pub mod out_of_ocean;
pub mod question;
pub mod rulings;
pub mod words;

pub use classify::{assign_loads, classify_pieces, in_ocean, on_string};
pub use commit::{CommitGate, GateOutcome, Reading};
pub use context::{DEFAULT_POSITION_SIGMA_MM, DEFAULT_TOLERANCE_MM, GameContext, Modules};
pub use error::RefereeError;
pub use frame::{FrameReport, FramesReport};
pub use judge::{TableReading, rule};
pub use question::Question;
pub use rulings::{
    AnchorGap, ForbidReason, Forbidden, IslandRuling, NextLoad, PlayerRulings, Redrop, Rulings,
    RulingsDigest, TreasureGap,
};
