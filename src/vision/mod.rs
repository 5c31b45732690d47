//! Vision: frame + profile -> every piece on the table in millimetres.

pub mod tracking;
