//! What the UI reads: one immutable snapshot per analysed frame (or fault change).

use super::fault::LiveFault;
use super::lighting::LightGains;
use crate::referee::FrameReport;
use crate::vision::tracking::Commit;

/// The live referee's state for the UI. Cheap to hand over (`Arc`); never changes once built.
#[derive(Debug, Clone, Default)]
pub struct LiveSnapshot {
    /// The frame (its `Frame::seq`) the latest reading is of.
    pub frame_seq: Option<u64>,
    /// This frame's reading (pieces where vision saw them, with rulings) — for overlays. Pieces
    /// carry the tracker's stable ids, as in `committed` (a piece not confirmed yet is `new<k>`,
    /// see [`super::stable_ids`]), so one id names one piece everywhere on screen.
    pub latest: Option<FrameReport>,
    /// The settled reading the rulings panel shows; held through every fault.
    pub committed: Option<Commit>,
    /// Waiting for the table to settle (hands, pieces moving, a fault).
    pub settling: bool,
    /// What is wrong right now, newest first; empty when all is well.
    pub faults: Vec<LiveFault>,
    /// Whether a present fault pauses new rulings.
    pub rulings_paused: bool,
    /// Milliseconds the last analysis took.
    pub analysis_ms: Option<f64>,
    /// Every frame the worker took (analysed, skipped or refused): grows by one per frame taken.
    pub frames_received: u64,
    pub frames_analysed: u64,
    /// Frames replaced before the worker picked them up (newest frame wins) or skipped.
    pub frames_dropped: u64,
    /// Bad frames skipped since the start.
    pub frames_corrupt: u64,
    /// The light as last measured against the reference the referee is adapted to.
    pub light: Option<LightGains>,
    /// How far the table looked shifted at the last view check, mm (median feature shift).
    pub view_shift_mm: Option<f64>,
    /// Times the view was re-registered, the light adapted, the calibration scaled or replaced.
    pub recalibrations: u32,
    /// What the last [`super::LiveReferee::reregister`] did, in words (`None` before the first).
    pub reregistration: Option<String>,
}

impl LiveSnapshot {
    /// The fault of this kind, if present.
    pub fn fault(&self, name: &str) -> Option<&LiveFault> {
        self.faults.iter().find(|f| f.name() == name)
    }
}
