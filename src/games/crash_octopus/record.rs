//! A game record: the set-up and every event in order (`spec/cli.md`, `octoref replay`). The app
//! saves games in this format too; replaying all events but the last is undo.
//!
//! ```json
//! {"players": ["orange", "green"],
//!  "modules": {"pink_pirate": false, "little_octopus": false, "island": false},
//!  "beads": "BBBKBBBKBBKBBKKK",
//!  "events": [{"flick": {"player": "orange", "loaded": "gold"}}]}
//! ```
//! `modules`, `beads` (default: `assets/crash_octopus.toml`) and `events` may be left out. `types`
//! (5 or 6) overrides the number of treasure types the player count would use.

use super::beads::BeadSequence;
use super::event::Event;
use super::player::PlayerColor;
use super::rules_data::RulesData;
use super::setup::{Modules, Setup, SetupError};
use serde::{Deserialize, Serialize};

/// Most events a record may hold. A family game is a few hundred (the crab moves once per loaded
/// treasure, 16 beads in the box); the limit bounds the time and memory a replay may take, so a
/// hostile or corrupt million-event file is refused at once with a clear error.
pub const MAX_EVENTS: usize = 10_000;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Record {
    /// Turn order; with the Pink Pirate, `pink` last.
    pub players: Vec<PlayerColor>,
    #[serde(default)]
    pub modules: Modules,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub beads: Option<BeadSequence>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub types: Option<u8>,
    #[serde(default)]
    pub events: Vec<Event>,
}

impl Record {
    /// A record with no events yet.
    pub fn new(players: Vec<PlayerColor>, modules: Modules) -> Self {
        Record {
            players,
            modules,
            beads: None,
            types: None,
            events: Vec::new(),
        }
    }

    /// The set-up this record describes.
    pub fn setup(&self, data: &RulesData) -> Result<Setup, SetupError> {
        Setup::new(
            self.players.clone(),
            self.modules,
            self.beads.clone(),
            self.types,
            data,
        )
    }

    /// The same record without its last event: what undo replays.
    pub fn without_last(&self) -> Record {
        let mut r = self.clone();
        r.events.pop();
        r
    }
}
