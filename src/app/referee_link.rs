//! The live referee ([`crate::live::LiveReferee`]) in the camera's pipeline slot: frames go to
//! its worker, the newest snapshot is taken once per UI frame. Vision never runs on the UI thread.

use super::crash_octopus::questions::CameraDie;
use crate::capture::Frame;
use crate::live::{LiveReferee, LiveSnapshot};
use crate::referee::FrameReport;
use crate::table::PieceKind;
use std::sync::Arc;

#[derive(Debug)]
pub struct RefereePipeline {
    referee: Arc<LiveReferee>,
    snapshot: Arc<LiveSnapshot>,
}

impl RefereePipeline {
    pub fn new(referee: Arc<LiveReferee>) -> Self {
        let snapshot = referee.snapshot();
        RefereePipeline { referee, snapshot }
    }
}

impl super::live::Pipeline for RefereePipeline {
    fn offer(&mut self, frame: &Frame) {
        self.referee.offer(frame);
    }

    fn latest(&self) -> Option<&FrameReport> {
        self.snapshot.latest.as_ref()
    }

    fn analysis_ms(&self) -> Option<f64> {
        self.snapshot.analysis_ms
    }

    fn refresh(&mut self) {
        self.snapshot = self.referee.snapshot();
    }
}

/// Whether a fault asks for the calibration wizard (the view no longer matches the profile).
pub fn needs_calibration(f: &crate::live::LiveFault) -> bool {
    matches!(
        f,
        crate::live::LiveFault::ViewMoved | crate::live::LiveFault::ResolutionChanged { .. }
    )
}

/// What the camera reads on top of the ink die: from the committed reading when the table is
/// settled and no fault pauses rulings (then [`CameraDie::settled`]), else from the latest
/// frame's reading. `None` when no die with a readable top is in view.
pub fn camera_die(snapshot: &LiveSnapshot) -> Option<CameraDie> {
    let settled = !snapshot.settling && !snapshot.rulings_paused;
    let (reading, settled) = match (&snapshot.committed, &snapshot.latest) {
        (Some(c), _) if settled => (&c.frame, true),
        (_, Some(latest)) => (latest, false),
        (Some(c), None) => (&c.frame, false),
        (None, None) => return None,
    };
    reading
        .pieces
        .iter()
        .filter(|p| p.piece == PieceKind::InkDie)
        .filter_map(|p| p.top.map(|top| (top, p.confidence)))
        .max_by(|a, b| a.1.total_cmp(&b.1))
        .map(|(top, confidence)| CameraDie {
            top,
            confidence,
            settled,
        })
}
