//! Tracking: the pieces of a table followed over a stream of frames. Pure: no OpenCV, no clock,
//! no I/O — vision feeds it one [`FrameObservation`] per analysed frame.
//!
//! Why: camera referees for chess, go and scrabble fail on hands in view, on a camera that moved,
//! on lighting and on look-alike pieces. Their answers, and this module's: wait for stillness,
//! vote over several frames, commit after two agreeing settled readings.
//!
//! - [`Tracker`]: per-frame detections (ids unstable, look-alikes flickering, pieces hidden by a
//!   hand) -> [`TrackedState`]: stable ids `p1`, `p2`, ... kept for the life of a piece, smoothed
//!   centres and angles with the catalog footprint re-placed there, `loaded_on` naming the ship's
//!   stable id, class by majority over the recent sightings, the pieces that left (`lost`, with
//!   where they were last seen), and whether the table is *settled*.
//! - [`Committer`]: settled states -> readings ruled by the referee -> committed only after two
//!   agreeing readings, with what changed since the last commit.
//!
//! Conventions: table frame, millimetres (`../shared/spec/table.md`); angles in radians inside,
//! degrees in `PieceReport::angle_deg`; counts of frames are analysed frames. Every threshold
//! is a named constant in [`config`].

pub mod assign;
pub mod class;
pub mod commit;
pub mod config;
pub mod error;
pub mod observation;
pub mod pose;
pub mod state;
pub mod tracker;
pub mod votes;

pub use class::{Family, PieceClass};
pub use commit::{
    Commit, CommitChanges, CommitStep, Committer, PieceDigest, READING_INTERVAL_FRAMES, ReadingDigest,
};
pub use config::TrackerConfig;
pub use error::TrackingError;
pub use observation::{FrameObservation, TrackArea};
pub use state::{Departure, LostPiece, TrackEvent, TrackedPiece, TrackedState};
pub use tracker::Tracker;
