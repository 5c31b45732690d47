//! The live referee: the headless loop that turns camera frames into committed rulings, off the
//! UI thread (`LIVE_API.md` is the contract with the app).
//!
//! [`LiveReferee::start`] spawns one worker thread that owns the vision [`Analyzer`], the
//! [`Tracker`], the [`Committer`] and the fault monitor. The caller [`LiveReferee::offer`]s
//! frames (the newest frame wins: a frame not yet picked up is replaced, never queued) and reads
//! a cheap [`LiveSnapshot`] (an `Arc` clone) whenever it repaints.
//!
//! What a caller may rely on:
//! - **Never a wrong ruling because of a fault.** The committed reading changes only after two
//!   agreeing settled readings (the tracking committer). While a fault is present that makes a
//!   frame untrustworthy (the view moved, the light changed, a hand over the ocean, frames of
//!   another size than the calibration) the frame is fed to the tracker as such, which breaks the
//!   pair: the committed reading is *held*, never flipped. [`LiveSnapshot::faults`] says why.
//! - **Faults say what happened, in plain words** ([`LiveFault::message`]), and clear by
//!   themselves once the table is back to normal. A moved view clears when the view check finds
//!   the table back in place, or after [`LiveReferee::reregister`] (which re-fits the profile to
//!   the current frame — a first correction from table features, else from the string, then the
//!   whole table aligned to the empty-table reference for the full homography and camera pose —
//!   keeping the table frame and so the game) or [`LiveReferee::replace_calibration`].
//! - **The game is never touched**: the referee only reads frames and the [`GameContext`]; the
//!   game state lives in the app's session.
//!
//! [`Analyzer`]: crate::vision::Analyzer
//! [`Tracker`]: crate::vision::tracking::Tracker
//! [`Committer`]: crate::vision::tracking::Committer
//! [`GameContext`]: crate::referee::GameContext

pub mod align;
pub mod calibration;
pub mod config;
pub mod coverage;
pub mod error;
pub mod fault;
pub mod frame_check;
pub mod lighting;
pub mod priority;
pub mod referee;
pub mod register;
pub mod snapshot;
pub mod stable_ids;
pub mod string_check;
mod worker;

pub use calibration::LiveCalibration;
pub use config::LiveConfig;
pub use error::LiveError;
pub use fault::LiveFault;
pub use referee::LiveReferee;
pub use snapshot::LiveSnapshot;
