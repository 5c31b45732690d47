//! What is on the table, in the vocabulary shared by `analyze`'s JSON and the renderer's
//! `truth.json` (`../shared/spec/cli.md`). Field names here are promises to users' scripts.

use super::catalog::PieceKind;
use super::polygon::PolygonMm;
use super::units::PointMm;
use crate::games::crash_octopus::{Bead, BeadSequence, PlayerColor, TreasureType};
use serde::{Deserialize, Serialize};

/// The colour on top of the ink die (the rules' own type: "red" = the pink-red faces).
pub use crate::games::crash_octopus::DieTop;

/// One piece seen (or, in `truth.json`, placed) on the table.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PieceReport {
    /// Stable within a frame (and, when tracking, across frames): `"p7"`.
    pub id: String,
    pub piece: PieceKind,
    #[serde(rename = "type", default, skip_serializing_if = "Option::is_none")]
    pub treasure: Option<TreasureType>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub color: Option<PlayerColor>,
    /// Centre of the footprint, table frame.
    pub center_mm: PointMm,
    /// Where the piece touches the table (corrected for its height and the camera pose).
    #[serde(default, skip_serializing_if = "PolygonMm::is_empty")]
    pub footprint_mm: PolygonMm,
    /// Orientation of the footprint, degrees from the table's +x axis towards +y.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub angle_deg: Option<f64>,
    #[serde(default)]
    pub in_ocean: bool,
    #[serde(default)]
    pub on_string: bool,
    /// The id of the ship piece this treasure stands on.
    #[serde(default)]
    pub loaded_on: Option<String>,
    /// A treasure lying on the Nameless Island (never a candidate for the closest treasure).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub on_island: bool,
    /// The ink die's top colour.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub top: Option<DieTop>,
    /// 0..1; 1 in `truth.json`.
    #[serde(default = "one")]
    pub confidence: f64,
}

fn one() -> f64 {
    1.0
}

impl PieceReport {
    /// A piece placed at `center_mm` with `footprint_mm`, nothing else known yet: no type,
    /// colour or angle, not classified against the ocean, ships or island, full confidence (as
    /// in `truth.json`). Callers set what they know with struct update syntax.
    pub fn placed(id: &str, piece: PieceKind, center_mm: PointMm, footprint_mm: PolygonMm) -> Self {
        Self {
            id: id.into(),
            piece,
            treasure: None,
            color: None,
            center_mm,
            footprint_mm,
            angle_deg: None,
            in_ocean: false,
            on_string: false,
            loaded_on: None,
            on_island: false,
            top: None,
            confidence: one(),
        }
    }
}

/// The Octo-Counter as read on the string.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CounterReport {
    pub beads: BeadSequence,
    /// How many beads the crab has stepped over (0 = before the first bead).
    pub crab: usize,
    /// The bead the crab steps over next; `None` at the end of the counter.
    pub next: Option<Bead>,
}

impl CounterReport {
    pub fn new(beads: BeadSequence, crab: usize) -> Self {
        let next = beads.get(crab);
        Self { beads, crab, next }
    }
}

/// The ocean: inside the centre line of the string loop.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct OceanReport {
    pub polygon_mm: PolygonMm,
    #[serde(default)]
    pub perimeter_mm: f64,
}

impl OceanReport {
    pub fn new(polygon_mm: PolygonMm) -> Self {
        let perimeter_mm = polygon_mm.perimeter();
        Self {
            polygon_mm,
            perimeter_mm,
        }
    }
}
