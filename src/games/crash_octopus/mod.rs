//! Crash Octopus (base game and the Pink Pirates modules): pure state and events, no I/O.
//!
//! Use: build a [`Setup`] (or a [`Record`]), start a [`Game`], and feed it [`Event`]s with
//! [`Game::apply`]; [`Game::next`] says whose action comes next (a turn or a drop, with the attack
//! order); [`Game::replay`] replays a whole record. [`score::ScoreSheet`] ranks an end-of-game table
//! and [`summary::GameSummary`] is the `replay` JSON.
//!
//! The rules are split as the rulebook is: [`setup`], [`turn`] (flick, navigate), [`counter`] (the
//! crab), [`attack`], [`pirate`], [`island`], [`little_octopus`], [`ending`] (win, final attack,
//! ranking). The game data (beads, treasure sets, hierarchies, the island's rule) lives in
//! `assets/crash_octopus.toml` ([`rules_data`]).

pub mod attack;
pub mod beads;
pub mod counter;
pub mod ending;
pub mod error;
pub mod event;
pub mod game;
pub mod island;
pub mod little_octopus;
pub mod ocean;
pub mod pirate;
pub mod player;
pub mod record;
pub mod rules_data;
pub mod score;
pub mod setup;
pub mod ship;
pub mod summary;
#[cfg(test)]
mod testkit;
pub mod treasure;
pub mod turn;

pub use attack::{Attack, AttackKind, drop_order};
pub use beads::{Bead, BeadSequence};
pub use ending::{Contender, EndReason, Ending, RankEntry, Ranking, rank};
pub use error::RuleError;
pub use event::{Canon, DieTop, Event, Flick, Head, InkDrop, Navigate};
pub use game::{Game, Next, Phase, ReplayError};
pub use player::PlayerColor;
pub use record::Record;
pub use rules_data::{RulesData, TreasureSet};
pub use setup::{Modules, Setup, SetupError};
pub use treasure::{Hierarchy, TreasureType};
