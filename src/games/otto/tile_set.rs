//! The tiles in the box and the Fish Identifier card (`assets/otto_tiles.toml`).
//!
//! Counts default to `docs/spec/games.md` (60 tiles). The card's species, points and effects are
//! partly octoref's reading of a picture; each fish entry says where it comes from (`source`).

use super::fish::FishEffect;
use super::tile::{FishTile, TileKind};
use serde::{Deserialize, Serialize};

/// The default tile set, compiled in so the program works from any directory.
pub const DEFAULT_TILES_TOML: &str = include_str!("../../../assets/otto_tiles.toml");
/// Where the default tile set comes from, as error messages name it.
pub const DEFAULT_TILES_SOURCE: &str = "assets/otto_tiles.toml";
/// More tiles of one kind than any real box could hold: a typo, not a set.
pub const MAX_TILES_OF_A_KIND: u32 = 999;

/// How many Arm tiles of each kind the box holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ArmCounts {
    pub straight: u32,
    pub curve_suckers_inside: u32,
    pub curve_suckers_outside: u32,
}

/// How many End tiles of each kind the box holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EndCounts {
    pub plain: u32,
    pub shell: u32,
}

/// One fish on the Fish Identifier card, and how many such tiles the box holds.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FishSpec {
    /// The name used in game records (`"angler"`).
    pub species: String,
    /// The name shown to players (`"Angler Fish"`).
    pub name: String,
    pub count: u32,
    pub points: u32,
    #[serde(default)]
    pub outer_ring_only: bool,
    pub effect: FishEffect,
    /// Where this entry comes from: the rulebook, games.md, or "our reading" of the card picture.
    pub source: String,
}

impl FishSpec {
    pub fn tile(&self) -> FishTile {
        FishTile {
            species: self.species.clone(),
            points: self.points,
            outer_ring_only: self.outer_ring_only,
            effect: self.effect,
        }
    }

    /// Is any part of this entry octoref's guess rather than the rulebook's word?
    pub fn is_our_reading(&self) -> bool {
        self.source.contains("our reading")
    }
}

/// The Fish Identifier card.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FishCard {
    /// Solo play ignores the effects of this many fish from the top of the card (the rulebook: 4).
    pub solo_ignores_first: usize,
    /// The fish in the order the card shows them.
    pub fish: Vec<FishSpec>,
}

/// Everything in the box: tile counts and the Fish Identifier card.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TileSet {
    pub arm: ArmCounts,
    pub end: EndCounts,
    pub bubbles: u32,
    pub card: FishCard,
}

/// A tile set that cannot be read or does not make sense. Messages name the source and field.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TileSetError {
    #[error("{source_name}: {message}")]
    Parse { source_name: String, message: String },
    #[error("{source_name}: field `{field}`: expected {expected}")]
    Invalid {
        source_name: String,
        field: String,
        expected: String,
    },
}

/// How the game is being played, as far as fish effects care.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct EffectRules {
    /// One player: the effects of the card's first fish are ignored.
    pub solo: bool,
    /// Simplified play: every fish effect is ignored.
    pub simplified: bool,
}

/// Why a fish's effect does or does not apply.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EffectRuling {
    Applies(FishEffect),
    /// The fish has no effect.
    NoEffect,
    IgnoredInSimplifiedPlay,
    IgnoredInSoloPlay,
}

impl TileSet {
    /// The default set (`assets/otto_tiles.toml`).
    pub fn default_set() -> Result<TileSet, TileSetError> {
        TileSet::from_toml_str(DEFAULT_TILES_TOML, DEFAULT_TILES_SOURCE)
    }

    /// Parses and checks a tile set; `source_name` (a path) is used in error messages.
    pub fn from_toml_str(text: &str, source_name: &str) -> Result<TileSet, TileSetError> {
        let set: TileSet = toml::from_str(text).map_err(|e| TileSetError::Parse {
            source_name: source_name.to_string(),
            message: e.to_string(),
        })?;
        set.validate(source_name)?;
        Ok(set)
    }

    fn validate(&self, source_name: &str) -> Result<(), TileSetError> {
        let invalid = |field: String, expected: String| TileSetError::Invalid {
            source_name: source_name.to_string(),
            field,
            expected,
        };
        let counts = [
            ("arm.straight", self.arm.straight),
            ("arm.curve_suckers_inside", self.arm.curve_suckers_inside),
            ("arm.curve_suckers_outside", self.arm.curve_suckers_outside),
            ("end.plain", self.end.plain),
            ("end.shell", self.end.shell),
            ("bubbles", self.bubbles),
        ];
        for (field, n) in counts {
            if n > MAX_TILES_OF_A_KIND {
                return Err(invalid(
                    field.into(),
                    format!("at most {MAX_TILES_OF_A_KIND} tiles"),
                ));
            }
        }
        for (i, f) in self.card.fish.iter().enumerate() {
            let good_name = !f.species.is_empty()
                && f.species
                    .chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_');
            if !good_name {
                return Err(invalid(
                    format!("card.fish[{i}].species"),
                    "a lowercase name of letters, digits and `_` (e.g. \"angler\")".into(),
                ));
            }
            if self.card.fish[..i].iter().any(|o| o.species == f.species) {
                return Err(invalid(
                    format!("card.fish[{i}].species"),
                    "a species named only once on the card".into(),
                ));
            }
            if f.count > MAX_TILES_OF_A_KIND {
                return Err(invalid(
                    format!("card.fish[{i}].count"),
                    format!("at most {MAX_TILES_OF_A_KIND} tiles"),
                ));
            }
            if f.points > MAX_TILES_OF_A_KIND {
                return Err(invalid(
                    format!("card.fish[{i}].points"),
                    "the points shown on the tile".into(),
                ));
            }
        }
        if self.card.solo_ignores_first > self.card.fish.len() {
            return Err(invalid(
                "card.solo_ignores_first".into(),
                format!("at most the {} fish on the card", self.card.fish.len()),
            ));
        }
        Ok(())
    }

    /// The fish of this species on the card.
    pub fn fish(&self, species: &str) -> Option<&FishSpec> {
        self.card.fish.iter().find(|f| f.species == species)
    }

    /// The species on the card, in card order.
    pub fn species(&self) -> Vec<&str> {
        self.card.fish.iter().map(|f| f.species.as_str()).collect()
    }

    /// How many tiles of this kind the box holds.
    pub fn count(&self, kind: &TileKind) -> u32 {
        match kind {
            TileKind::StraightArm => self.arm.straight,
            TileKind::CurveSuckersInside => self.arm.curve_suckers_inside,
            TileKind::CurveSuckersOutside => self.arm.curve_suckers_outside,
            TileKind::PlainEnd => self.end.plain,
            TileKind::ShellEnd => self.end.shell,
            TileKind::Fish(f) => self.fish(&f.species).map_or(0, |s| s.count),
            TileKind::Bubbles => self.bubbles,
        }
    }

    /// Every kind in the box with its count.
    pub fn kinds(&self) -> Vec<(TileKind, u32)> {
        let mut kinds = vec![
            (TileKind::StraightArm, self.arm.straight),
            (TileKind::CurveSuckersInside, self.arm.curve_suckers_inside),
            (TileKind::CurveSuckersOutside, self.arm.curve_suckers_outside),
            (TileKind::PlainEnd, self.end.plain),
            (TileKind::ShellEnd, self.end.shell),
        ];
        kinds.extend(self.card.fish.iter().map(|f| (TileKind::Fish(f.tile()), f.count)));
        kinds.push((TileKind::Bubbles, self.bubbles));
        kinds
    }

    /// Every tile in the box, one entry per tile.
    pub fn all_tiles(&self) -> Vec<TileKind> {
        self.kinds()
            .into_iter()
            .flat_map(|(k, n)| std::iter::repeat_n(k, n as usize))
            .collect()
    }

    pub fn total(&self) -> u32 {
        self.kinds().iter().map(|(_, n)| n).sum()
    }

    /// Does this species' effect apply under these rules? Solo play ignores the first fish on the
    /// card (`solo_ignores_first`); simplified play ignores all of them.
    pub fn effect_ruling(&self, species: &str, rules: EffectRules) -> EffectRuling {
        let Some(pos) = self.card.fish.iter().position(|f| f.species == species) else {
            return EffectRuling::NoEffect;
        };
        let effect = self.card.fish.get(pos).map_or(FishEffect::None, |f| f.effect);
        if effect == FishEffect::None {
            EffectRuling::NoEffect
        } else if rules.simplified {
            EffectRuling::IgnoredInSimplifiedPlay
        } else if rules.solo && pos < self.card.solo_ignores_first {
            EffectRuling::IgnoredInSoloPlay
        } else {
            EffectRuling::Applies(effect)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_set_matches_games_md() {
        let s = TileSet::default_set().unwrap();
        assert_eq!(s.total(), 60);
        assert_eq!(
            s.arm.straight + s.arm.curve_suckers_inside + s.arm.curve_suckers_outside,
            28
        );
        assert_eq!(
            (
                s.arm.straight,
                s.arm.curve_suckers_inside,
                s.arm.curve_suckers_outside
            ),
            (12, 8, 8)
        );
        assert_eq!((s.end.plain, s.end.shell), (4, 4));
        assert_eq!(s.bubbles, 8);
        let fish: u32 = s.card.fish.iter().map(|f| f.count).sum();
        assert_eq!(fish, 16);
        let angler = s.fish("angler").unwrap();
        assert_eq!(
            (angler.count, angler.points, angler.outer_ring_only),
            (2, 3, true)
        );
        for f in s.card.fish.iter().filter(|f| f.species != "angler") {
            assert!((1..=3).contains(&f.points), "{}", f.species);
            assert!(f.is_our_reading(), "{} must say it is our reading", f.species);
        }
        assert_eq!(s.card.solo_ignores_first, 4);
        assert_eq!(s.all_tiles().len(), 60);
    }

    #[test]
    fn solo_ignores_the_first_four_and_simplified_ignores_all() {
        let s = TileSet::default_set().unwrap();
        let first = s.card.fish[0].species.clone();
        let fifth = s.card.fish[4].species.clone();
        let solo = EffectRules {
            solo: true,
            simplified: false,
        };
        let multi = EffectRules::default();
        let simple = EffectRules {
            solo: false,
            simplified: true,
        };
        assert!(matches!(s.effect_ruling(&first, multi), EffectRuling::Applies(_)));
        assert_eq!(s.effect_ruling(&first, solo), EffectRuling::IgnoredInSoloPlay);
        assert!(matches!(s.effect_ruling(&fifth, solo), EffectRuling::Applies(_)));
        assert_eq!(
            s.effect_ruling(&fifth, simple),
            EffectRuling::IgnoredInSimplifiedPlay
        );
        assert_eq!(s.effect_ruling("angler", multi), EffectRuling::NoEffect);
    }

    #[test]
    fn bad_sets_name_the_field() {
        let twice = DEFAULT_TILES_TOML.replace("species = \"swordfish\"", "species = \"shark\"");
        let e = TileSet::from_toml_str(&twice, "t.toml").unwrap_err().to_string();
        assert!(e.contains("t.toml") && e.contains("card.fish[1].species"), "{e}");
        let bad_effect = DEFAULT_TILES_TOML.replace("effect = \"play_again\"", "effect = \"fly\"");
        let e = TileSet::from_toml_str(&bad_effect, "t.toml")
            .unwrap_err()
            .to_string();
        assert!(e.contains("t.toml") && e.contains("fly"), "{e}");
        let solo = DEFAULT_TILES_TOML.replace("solo_ignores_first = 4", "solo_ignores_first = 40");
        let e = TileSet::from_toml_str(&solo, "t.toml").unwrap_err().to_string();
        assert!(e.contains("card.solo_ignores_first"), "{e}");
    }
}
