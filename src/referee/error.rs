//! Why the referee refused a reading or a game context. Every message names the field at fault
//! and what was expected, so the CLI can pass it on unchanged (exit code 2).

use crate::games::crash_octopus::PlayerColor;

/// A game context or a table reading the referee cannot rule on.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum RefereeError {
    #[error("players: {color} is listed twice; expected each colour at most once")]
    DuplicatePlayer { color: PlayerColor },
    #[error("players: pink (the Pink Pirate) is listed before {after}; the Pirate always plays last")]
    PirateNotLast { after: PlayerColor },
    #[error("active: {color} is not one of the players ({players}); expected one of them")]
    ActiveNotPlaying { color: PlayerColor, players: String },
    #[error("tolerance_mm: got {value}; expected a finite number of millimetres, 0 or more")]
    BadTolerance { value: f64 },
    #[error("position_sigma_mm: got {value}; expected a finite number of millimetres, 0 or more")]
    BadPositionSigma { value: f64 },
    #[error("pieces[{index}]: id {id:?} is already used by pieces[{first}]; expected unique ids")]
    DuplicatePieceId { index: usize, first: usize, id: String },
    #[error("pieces[{index}] ({id}): `{field}` is not a finite position; expected millimetres")]
    NonFinitePiece {
        index: usize,
        id: String,
        field: &'static str,
    },
    #[error("pieces[{index}] ({id}): confidence {value}; expected a number from 0 to 1")]
    BadConfidence { index: usize, id: String, value: f64 },
    #[error("ocean.polygon_mm: a vertex is not a finite position; expected millimetres")]
    NonFiniteOcean,
}
