//! The live referee ([`crate::live::LiveReferee`]) in the camera's pipeline slot: frames go to
//! its worker, the newest snapshot is taken once per UI frame. Vision never runs on the UI thread.

use crate::capture::Frame;
use crate::live::{LiveReferee, LiveSnapshot};
use crate::referee::FrameReport;
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
