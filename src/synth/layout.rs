//! Where the pieces are in one game frame.
//!
//! Conventions: positions in the table frame, millimetres; `angle_rad` turns the catalog footprint
//! (from +x towards +y); `base_mm` is the height the piece stands on (0 on the table, the ship's
//! height on a deck, the island's height on the island).

use super::counter::CounterLayout;
use crate::games::crash_octopus::{PlayerColor, TreasureType};
use crate::table::report::DieTop;
use crate::table::{PieceKind, PointMm};
use serde::{Deserialize, Serialize};

/// One piece placed on the table.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PlacedPiece {
    /// Stable id, the same in every frame of the scene (`"p7"`).
    pub id: String,
    /// Catalog entry name (`"ship_orange"`, `"gold"`...).
    pub entry: String,
    pub kind: PieceKind,
    pub treasure: Option<TreasureType>,
    pub color: Option<PlayerColor>,
    pub center_mm: PointMm,
    pub angle_rad: f64,
    /// Height of the surface the piece stands on.
    pub base_mm: f64,
    /// The id of the ship whose deck the piece stands on.
    pub loaded_on: Option<String>,
    pub on_island: bool,
    pub top: Option<DieTop>,
}

/// Two treasures at nearly equal gaps from a ship: the closest and the runner-up.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct NearTie {
    pub ship: String,
    pub closest: String,
    pub runner_up: String,
    pub closest_gap_mm: f64,
    pub runner_up_gap_mm: f64,
    /// `runner_up_gap_mm - closest_gap_mm`.
    pub margin_mm: f64,
}

/// Everything on the table in one frame.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Layout {
    pub frame: usize,
    /// Every piece, the crab included.
    pub pieces: Vec<PlacedPiece>,
    pub counter: CounterLayout,
    /// Near ties arranged on purpose in this frame.
    pub near_ties: Vec<NearTie>,
}

impl Layout {
    pub fn piece(&self, id: &str) -> Option<&PlacedPiece> {
        self.pieces.iter().find(|p| p.id == id)
    }
}
