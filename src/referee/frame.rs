//! One analysed frame, exactly as `octoref analyze` prints it and `truth.json` stores it
//! (`cli.md`): `analyze` and the renderer's ground truth speak one vocabulary through this type.

use super::classify;
use super::context::GameContext;
use super::error::RefereeError;
use super::judge::{TableReading, rule};
use super::rulings::Rulings;
use crate::table::{CounterReport, OceanReport, PieceReport};
use serde::{Deserialize, Serialize};

/// The per-frame object of `analyze`'s `{"frames": [...]}` and of `truth.json`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FrameReport {
    /// The image file this frame came from, as given.
    pub image: String,
    pub ocean: OceanReport,
    pub pieces: Vec<PieceReport>,
    /// The Octo-Counter; `null` when it could not be read.
    #[serde(default)]
    pub counter: Option<CounterReport>,
    /// Something that is not a game piece covers part of the ocean.
    #[serde(default)]
    pub obstructed: bool,
    /// The camera or the table no longer matches the calibration profile.
    #[serde(default)]
    pub view_moved: bool,
    /// The referee's rulings; absent from `truth.json` until they are computed from it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rulings: Option<Rulings>,
}

/// The whole `analyze --json` document.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct FramesReport {
    pub frames: Vec<FrameReport>,
}

impl FrameReport {
    /// This frame as a reading for the referee.
    pub fn reading(&self) -> TableReading<'_> {
        TableReading {
            pieces: &self.pieces,
            ocean: &self.ocean.polygon_mm,
            counter: self.counter.as_ref(),
            obstructed: self.obstructed,
            view_moved: self.view_moved,
        }
    }

    /// Sets every piece's `in_ocean` and `on_string` from the ocean (table.md's definitions).
    pub fn classify(&mut self) {
        classify::classify_pieces(&mut self.pieces, &self.ocean.polygon_mm);
    }

    /// Classifies the pieces, then fills `rulings` for the game `ctx`.
    pub fn rule(&mut self, ctx: &GameContext) -> Result<&Rulings, RefereeError> {
        self.classify();
        let rulings = rule(&self.reading(), ctx)?;
        Ok(self.rulings.insert(rulings))
    }
}
