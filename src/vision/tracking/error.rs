//! Why the tracker refused an observation, a configuration or a game context. Every message
//! names the frame, the field at fault and what was expected. A refused observation leaves the
//! tracker exactly as it was.

use crate::referee::RefereeError;

/// An observation, configuration or game context the tracker cannot use.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum TrackingError {
    #[error("frame {seq}: seq must grow from frame to frame; the last frame had seq {last}")]
    OutOfOrder { seq: u64, last: u64 },
    #[error(
        "frame {seq}: pieces[{index}]: id {id:?} is already used by pieces[{first}]; expected ids unique within the frame"
    )]
    DuplicateId {
        seq: u64,
        index: usize,
        first: usize,
        id: String,
    },
    #[error(
        "frame {seq}: pieces[{index}] ({id}): `{field}` is not finite; expected millimetres (degrees for angle_deg)"
    )]
    NonFinite {
        seq: u64,
        index: usize,
        id: String,
        field: &'static str,
    },
    #[error("frame {seq}: pieces[{index}] ({id}): confidence {value}; expected a number from 0 to 1")]
    BadConfidence {
        seq: u64,
        index: usize,
        id: String,
        value: f64,
    },
    #[error(
        "frame {seq}: pieces[{index}] ({id}): `loaded_on` names {ship:?}, which is no ship in this frame; expected the id of a ship or pirate ship seen in the same frame"
    )]
    UnknownShip {
        seq: u64,
        index: usize,
        id: String,
        ship: String,
    },
    #[error("tracker configuration: `{field}` is {value}; expected {expected}")]
    BadConfig {
        field: &'static str,
        value: String,
        expected: &'static str,
    },
    #[error(transparent)]
    Referee(#[from] RefereeError),
}
