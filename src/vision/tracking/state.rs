//! What the tracker says after each frame: the pieces with their stable ids and smoothed poses,
//! the pieces that left, what changed, and whether the table is settled.

use super::class::PieceClass;
use crate::referee::FrameReport;
use crate::referee::classify::in_ocean;
use crate::table::{CounterReport, OceanReport, PieceReport, PointMm, PolygonMm};
use serde::Serialize;
use std::collections::BTreeMap;

/// One tracked piece.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TrackedPiece {
    /// The piece as the referee and the app should see it: stable `id` (`"p1"`, `"p2"`, ...),
    /// voted class, smoothed `center_mm` and `angle_deg`, the catalog footprint at that pose,
    /// `loaded_on` naming the ship's stable id, and `confidence` from the class vote (the share
    /// of recent sightings that agree, weighted by their detection confidence).
    pub report: PieceReport,
    /// Frames since the piece appeared.
    pub age_frames: u32,
    /// Consecutive frames it has not been seen (0 = seen in this frame).
    pub missed_frames: u32,
    /// Share of the recent sightings that agree with its class, 0..1.
    pub class_share: f64,
}

/// Why a piece is no longer tracked.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Departure {
    /// It disappeared at the edge of what the camera sees (or of the ocean, or outside it): it
    /// was most likely pushed or flicked out of view and is still part of the game.
    AtEdge,
    /// It disappeared in the middle of the view (picked up, or flicked away too fast to follow).
    InView,
}

/// A piece that is no longer seen, remembered for a while with where it was last seen. It gets
/// its id back if a piece of its class reappears near there (or anywhere, for a piece that left
/// at the edge).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LostPiece {
    /// The piece as last tracked (`loaded_on` cleared: it is no longer seen on a ship).
    pub last: PieceReport,
    pub class: PieceClass,
    pub departure: Departure,
    /// Frames since it was last seen.
    pub frames_since_seen: u32,
}

impl LostPiece {
    pub fn id(&self) -> &str {
        &self.last.id
    }

    pub fn last_center_mm(&self) -> PointMm {
        self.last.center_mm
    }
}

/// Something that happened to the tracked table in one frame. Any of them restarts the count of
/// still frames.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum TrackEvent {
    /// A new piece was confirmed (seen on enough of its first frames).
    Appeared { id: String, class: PieceClass },
    /// A piece that had left came back and got its id back.
    Returned { id: String },
    /// A piece moved beyond the still tolerance since it came to rest.
    Moved { id: String, distance_mm: f64 },
    /// The vote over recent sightings changed the piece's class.
    Reclassified {
        id: String,
        from: PieceClass,
        to: PieceClass,
    },
    /// A treasure was loaded on a ship, or left it (stable ids).
    LoadChanged {
        id: String,
        from: Option<String>,
        to: Option<String>,
    },
    /// A treasure came onto, or left, the Nameless Island.
    IslandChanged { id: String, on_island: bool },
    /// The ink die shows another colour on top.
    TopChanged { id: String },
    /// A piece was not seen for too long and is now kept as lost.
    Departed { id: String, departure: Departure },
}

/// The tracked table after one frame.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TrackedState {
    pub seq: u64,
    pub image: String,
    /// Confirmed pieces, in the order of their ids.
    pub pieces: Vec<TrackedPiece>,
    /// Pieces that left the table recently, most recent first.
    pub lost: Vec<LostPiece>,
    /// What changed in this frame.
    pub events: Vec<TrackEvent>,
    /// Nothing has moved for `settle_frames`, nothing is about to appear or vanish, and the
    /// frame is not obstructed, moved or changed in lighting: a reading may be taken.
    pub settled: bool,
    /// Frames since something last moved (or the view was obstructed, moved or relit).
    pub frames_still: u32,
    /// A change may be under way that the pieces do not show yet — a piece about to appear, one
    /// unseen for a few frames, one seen far from where it rests, one missed while a look-alike
    /// turned up nearby — so the table cannot settle until that is decided.
    pub pending: bool,
    pub obstructed: bool,
    pub view_moved: bool,
    pub lighting_changed: bool,
    pub counter: Option<CounterReport>,
    /// Vision's per-frame id of each piece seen in this frame -> the stable id of the confirmed
    /// piece it is (pieces not yet confirmed are left out). Vision numbers the pieces afresh
    /// every frame, so its `p3` is not the tracker's `p3`: whatever shows this frame's detections
    /// next to the rulings renames them with this map.
    pub sightings: BTreeMap<String, String>,
}

impl TrackedState {
    /// The confirmed pieces' reports.
    pub fn reports(&self) -> Vec<PieceReport> {
        self.pieces.iter().map(|p| p.report.clone()).collect()
    }

    /// The piece with this stable id.
    pub fn piece(&self, id: &str) -> Option<&TrackedPiece> {
        self.pieces.iter().find(|p| p.report.id == id)
    }

    /// The pieces a reading of the table holds: every confirmed piece, plus the lost pieces last
    /// seen outside `ocean` (they are out of the ocean and still in the game: the referee must
    /// have them re-dropped or put back). Lost pieces last seen inside the ocean are left out:
    /// where they are now is not known.
    pub fn reading_pieces(&self, ocean: &PolygonMm) -> Vec<PieceReport> {
        let mut pieces = self.reports();
        pieces.extend(
            self.lost
                .iter()
                .filter(|l| !in_ocean(l.last.center_mm, ocean))
                .map(|l| l.last.clone()),
        );
        pieces
    }

    /// This state as an analysed frame for the referee (rulings not yet computed).
    pub fn frame_report(&self, ocean: &OceanReport) -> FrameReport {
        FrameReport {
            image: self.image.clone(),
            ocean: ocean.clone(),
            pieces: self.reading_pieces(&ocean.polygon_mm),
            counter: self.counter.clone(),
            obstructed: self.obstructed,
            view_moved: self.view_moved,
            rulings: None,
        }
    }
}
