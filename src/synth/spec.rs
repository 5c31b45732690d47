//! What the caller asks for: [`SceneSpec`] (seed, players, modules, resolution, optional fixed
//! camera height/tilt, bead sequence) and the game's piece sets that follow from it.

use super::SynthError;
use crate::games::crash_octopus::{BeadSequence, PlayerColor, TreasureType};
use serde::{Deserialize, Serialize};

/// Players who sail a ship (the Pink Pirate comes on top with its module).
pub const SHIP_PLAYERS_RANGE: (u8, u8) = (2, 4);
/// The ship colours in the order players take them.
pub const SHIP_COLOURS: [PlayerColor; 4] = [
    PlayerColor::Orange,
    PlayerColor::Green,
    PlayerColor::Blue,
    PlayerColor::Purple,
];

/// Optional modules of the Pink Pirates box.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Modules {
    pub pink_pirate: bool,
    pub little_octopus: bool,
    pub island: bool,
}

/// The same modules as the referee's game context names them.
impl From<Modules> for crate::referee::Modules {
    fn from(m: Modules) -> Self {
        Self {
            pink_pirate: m.pink_pirate,
            little_octopus: m.little_octopus,
            island: m.island,
        }
    }
}

impl Modules {
    /// Parses module names as on the command line: `pink_pirate`, `little_octopus`, `island`.
    pub fn from_names<S: AsRef<str>>(names: &[S]) -> Result<Self, SynthError> {
        let mut m = Modules::default();
        for n in names {
            match n.as_ref().trim() {
                "pink_pirate" => m.pink_pirate = true,
                "little_octopus" => m.little_octopus = true,
                "island" => m.island = true,
                "" => {}
                other => {
                    return Err(SynthError::Spec {
                        field: "modules",
                        expected: format!("pink_pirate, little_octopus or island, got {other:?}"),
                    });
                }
            }
        }
        Ok(m)
    }

    pub fn names(&self) -> Vec<&'static str> {
        let mut v = Vec::new();
        if self.pink_pirate {
            v.push("pink_pirate");
        }
        if self.little_octopus {
            v.push("little_octopus");
        }
        if self.island {
            v.push("island");
        }
        v
    }
}

/// Image size in pixels.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Resolution {
    pub width: u32,
    pub height: u32,
}

impl Resolution {
    pub const HD: Resolution = Resolution {
        width: 1280,
        height: 720,
    };
    pub const FULL_HD: Resolution = Resolution {
        width: 1920,
        height: 1080,
    };
}

impl std::str::FromStr for Resolution {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let bad = || format!("expected WIDTHxHEIGHT like 1280x720, got {s:?}");
        let (w, h) = s.split_once(['x', 'X']).ok_or_else(bad)?;
        let width: u32 = w.trim().parse().map_err(|_| bad())?;
        let height: u32 = h.trim().parse().map_err(|_| bad())?;
        if !(160..=7680).contains(&width) || !(120..=4320).contains(&height) {
            return Err(format!("{s}: expected a size between 160x120 and 7680x4320"));
        }
        Ok(Resolution { width, height })
    }
}

/// Everything the caller chooses about a scene; the rest comes from the seed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SceneSpec {
    pub seed: u64,
    /// Players with a ship, 2..=4 (orange, green, blue, purple in that order).
    pub players: u8,
    pub modules: Modules,
    /// `None`: 1280x720 most of the time, sometimes 1920x1080.
    #[serde(default)]
    pub resolution: Option<Resolution>,
    /// Fixed camera height above the table, mm (`None`: sampled).
    #[serde(default)]
    pub height_mm: Option<f64>,
    /// Fixed camera tilt from vertical, degrees (`None`: sampled).
    #[serde(default)]
    pub tilt_deg: Option<f64>,
    /// Force lens distortion on or off (`None`: sampled).
    #[serde(default)]
    pub distortion: Option<bool>,
    /// The bead sequence (`None`: the default `BBBKBBBKBBKBBKKK`).
    #[serde(default)]
    pub beads: Option<BeadSequence>,
}

impl SceneSpec {
    /// A scene of `players` ship players with no module and everything else sampled.
    pub fn new(seed: u64, players: u8) -> Self {
        Self {
            seed,
            players,
            modules: Modules::default(),
            resolution: None,
            height_mm: None,
            tilt_deg: None,
            distortion: None,
            beads: None,
        }
    }

    /// Checks the spec; errors name the field.
    pub fn validate(&self) -> Result<(), SynthError> {
        let (lo, hi) = SHIP_PLAYERS_RANGE;
        if !(lo..=hi).contains(&self.players) {
            return Err(SynthError::Spec {
                field: "players",
                expected: format!("{lo} to {hi} players with a ship, got {}", self.players),
            });
        }
        if let Some(h) = self.height_mm {
            let (a, b) = super::rig::HEIGHT_RANGE_MM;
            if !(a..=b).contains(&h) {
                return Err(SynthError::Spec {
                    field: "height_mm",
                    expected: format!("a camera height between {a} and {b} mm, got {h}"),
                });
            }
        }
        if let Some(t) = self.tilt_deg {
            let (a, b) = super::rig::TILT_RANGE_DEG;
            if !(a..=b).contains(&t) {
                return Err(SynthError::Spec {
                    field: "tilt_deg",
                    expected: format!("a tilt between {a} and {b} degrees, got {t}"),
                });
            }
        }
        if let Some(b) = &self.beads
            && b.is_empty()
        {
            return Err(SynthError::Spec {
                field: "beads",
                expected: "at least one bead".into(),
            });
        }
        Ok(())
    }

    /// Every player's colour, ship players first, the Pink Pirate last.
    pub fn player_colours(&self) -> Vec<PlayerColor> {
        let mut v: Vec<PlayerColor> = SHIP_COLOURS.iter().take(self.players as usize).copied().collect();
        if self.modules.pink_pirate {
            v.push(PlayerColor::Pink);
        }
        v
    }

    /// The treasures in play (rulebook set-up): 2 players use 3 sets of the 5 types, 3-4 players
    /// all 4 sets; 5 players (with the Pink Pirate) drop the gem and add rose and bottle.
    pub fn treasure_set(&self) -> Vec<TreasureType> {
        let total = self.player_colours().len();
        let types: &[TreasureType] = if total >= 5 {
            &[
                TreasureType::Captain,
                TreasureType::Goblet,
                TreasureType::Gold,
                TreasureType::Chest,
                TreasureType::Bottle,
                TreasureType::Rose,
            ]
        } else {
            &[
                TreasureType::Captain,
                TreasureType::Goblet,
                TreasureType::Gold,
                TreasureType::Gem,
                TreasureType::Chest,
            ]
        };
        let sets = if total <= 2 { 3 } else { 4 };
        let mut out = Vec::with_capacity(types.len() * sets);
        for &t in types {
            for _ in 0..sets {
                out.push(t);
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn treasure_sets_follow_the_rulebook() {
        let mut s = SceneSpec::new(1, 2);
        assert_eq!(s.treasure_set().len(), 15);
        s.players = 4;
        assert_eq!(s.treasure_set().len(), 20);
        s.modules.pink_pirate = true;
        let set = s.treasure_set();
        assert_eq!(set.len(), 24);
        assert!(!set.contains(&TreasureType::Gem));
        assert_eq!(s.player_colours().last(), Some(&PlayerColor::Pink));
        s.players = 2;
        assert_eq!(s.treasure_set().len(), 20, "2 ships + the pirate = 3 players");
    }

    #[test]
    fn bad_specs_name_the_field() {
        let mut s = SceneSpec::new(1, 7);
        assert!(s.validate().unwrap_err().to_string().contains("players"));
        s.players = 3;
        s.tilt_deg = Some(50.0);
        assert!(s.validate().unwrap_err().to_string().contains("tilt_deg"));
        assert!(
            Modules::from_names(&["island", "kraken"])
                .unwrap_err()
                .to_string()
                .contains("kraken")
        );
        assert_eq!("1920x1080".parse::<Resolution>().unwrap(), Resolution::FULL_HD);
        assert!("1920".parse::<Resolution>().is_err());
    }
}
