//! Pieces taught by the user (`octoref teach`): their colours and size as the real set shows
//! them, stored in the profile's `taught` map under the catalog name.
//!
//! The profile keeps `taught` as plain JSON values (calibrating again carries them over
//! untouched); this module is their typed reading and writing. A taught piece's colour models
//! replace the catalog's colours for that piece; its scale multiplies the catalog's sizes.
//!
//! JSON shape, per piece name:
//! `{"colours": [{"chroma": [b, g, r], "chroma_sigma": s, "brightness": [lo, hi]}, ...],
//!   "scale": 1.04, "area_mm2": 370.2, "frames": 2, "taught": "2025-01-31T12:00:00Z"}`.

use super::colour::ColourModel;
use crate::calibrate::profile::Profile;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// What was learnt about one piece.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TaughtPiece {
    /// Its surfaces' colours (the main colour first; the die: black faces, then red faces).
    pub colours: Vec<ColourModel>,
    /// Its size relative to the catalog's (1 = as the catalog says).
    #[serde(default = "one")]
    pub scale: f64,
    /// Its footprint's area as measured, mm².
    #[serde(default)]
    pub area_mm2: f64,
    /// How many frames it was learnt from.
    #[serde(default)]
    pub frames: usize,
    /// When, RFC 3339 UTC.
    #[serde(default)]
    pub taught: String,
}

fn one() -> f64 {
    1.0
}

/// Every taught piece, by catalog name.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct TaughtModels {
    pub pieces: BTreeMap<String, TaughtPiece>,
}

/// A `taught` entry of a profile that does not read as a taught piece.
#[derive(Debug, thiserror::Error)]
#[error("field `taught.{name}`: {message}")]
pub struct TaughtError {
    pub name: String,
    pub message: String,
}

impl TaughtModels {
    /// Reads the profile's `taught` map.
    pub fn from_profile(profile: &Profile) -> Result<Self, TaughtError> {
        let mut pieces = BTreeMap::new();
        for (name, value) in &profile.taught {
            let piece: TaughtPiece = serde_json::from_value(value.clone()).map_err(|e| TaughtError {
                name: name.clone(),
                message: format!(
                    "{e}; expected {{\"colours\": [...], \"scale\": 1.0, ...}} (teach the piece again)"
                ),
            })?;
            pieces.insert(name.clone(), piece);
        }
        Ok(Self { pieces })
    }

    /// Stores every taught piece in the profile's `taught` map (others are left as they are).
    pub fn write_into(&self, profile: &mut Profile) -> Result<(), TaughtError> {
        for (name, piece) in &self.pieces {
            let value = serde_json::to_value(piece).map_err(|e| TaughtError {
                name: name.clone(),
                message: e.to_string(),
            })?;
            profile.taught.insert(name.clone(), value);
        }
        Ok(())
    }

    /// The taught colours of a piece, when it was taught.
    pub fn colours(&self, name: &str) -> Option<&[ColourModel]> {
        self.pieces
            .get(name)
            .map(|p| p.colours.as_slice())
            .filter(|c| !c.is_empty())
    }

    /// The taught size of a piece relative to the catalog's.
    pub fn size(&self, name: &str) -> Option<f64> {
        self.pieces
            .get(name)
            .map(|p| p.scale)
            .filter(|s| (*s - 1.0).abs() > 1e-9)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::calibrate::profile::tests::sample_profile;

    #[test]
    fn taught_pieces_round_trip_through_the_profile_json() {
        let mut profile = sample_profile();
        let mut t = TaughtModels::default();
        t.pieces.insert(
            "gold".into(),
            TaughtPiece {
                colours: vec![ColourModel {
                    chroma: [-0.2, 0.05, 0.15],
                    chroma_sigma: 0.02,
                    brightness: [0.3, 2.0],
                    lightness: None,
                }],
                scale: 1.1,
                area_mm2: 400.0,
                frames: 1,
                taught: "2025-01-01T00:00:00Z".into(),
            },
        );
        t.write_into(&mut profile).unwrap();
        let text = serde_json::to_string(&profile).unwrap();
        let back: Profile = serde_json::from_str(&text).unwrap();
        let t2 = TaughtModels::from_profile(&back).unwrap();
        assert_eq!(t, t2);
        assert_eq!(t2.size("gold"), Some(1.1));
        assert!(t2.colours("gem").is_none());
        let mut bad = back.clone();
        bad.taught.insert("gem".into(), serde_json::json!({"colours": 3}));
        let e = TaughtModels::from_profile(&bad).unwrap_err().to_string();
        assert!(e.contains("taught.gem"), "{e}");
    }
}
