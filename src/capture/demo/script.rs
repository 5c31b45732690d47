//! The demo's script as data (`assets/demo/game.json`): the scene to render, then the game step
//! by step. A step is an optional event in the replay format (`spec/cli.md`) plus how the table
//! changes: which treasure is flicked onto which ship, where a missed or toppled treasure comes
//! to rest, where the ink die lands, which tentacle or head moves, where a ship navigates to.
//!
//! The game's set-up (players in turn order, modules, beads) is the scene's: the record and the
//! rendered table cannot disagree about it.
//!
//! Pieces are named by [`Selector`]s, a small text language, so the script need not hard-code
//! piece ids where the rules decide (e.g. "a gold bar orange may flick"):
//!
//! | selector               | the piece                                                             |
//! |------------------------|-----------------------------------------------------------------------|
//! | `p18`                  | the piece with this id                                                |
//! | `head`, `die`          | the octopus head, the ink die                                         |
//! | `ship:orange`          | orange's ship (`anchor:orange`: its anchor)                           |
//! | `treasure:gold`        | a gold treasure the acting player may flick now (the referee says so), the one nearest their ship |
//! | `loaded:green:captain` | the captain loaded on green's ship                                    |
//! | `out_of_ocean`         | the one treasure lying outside the ocean                              |
//! | `nearest:tentacle:die` | the tentacle nearest the die (`nearest:KIND:SELECTOR`)                |
//!
//! Conventions: lengths in millimetres, bearings in degrees in the table frame (0 = +x, 90 = +y),
//! durations in seconds.

use crate::games::crash_octopus::{DieTop, Event, PlayerColor, TreasureType};
use crate::synth::SceneSpec;
use crate::table::PieceKind;
use serde::{Deserialize, Serialize};

/// Where the script lives in the source tree (it is compiled into the binary).
pub const SCRIPT_FILE: &str = "assets/demo/game.json";
/// The script format this program reads.
pub const SCRIPT_VERSION: u32 = 1;

/// The whole script.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Script {
    pub version: u32,
    /// The table: seed, players, resolution, camera; the game's players and beads come from it.
    pub scene: SceneSpec,
    pub steps: Vec<ScriptStep>,
}

/// One step of the game: what happens, how the table changes, how long the table then stays still.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScriptStep {
    /// What the step shows, in plain words (the app may show it next to the true game).
    pub caption: String,
    /// The rules' event (replay format); `None` for what the rules do not record (the set-up
    /// drop, a treasure dropped back over the head).
    #[serde(default)]
    pub event: Option<Event>,
    /// Who acts when there is no event.
    #[serde(default)]
    pub by: Option<PlayerColor>,
    /// The changes, applied in order.
    #[serde(default)]
    pub table: Vec<Change>,
    /// Whether a hand is over the ocean while the player acts.
    #[serde(default = "default_hand")]
    pub hand: bool,
    /// Where the hand reaches (default: where the step's main change happens; the head for a drop).
    #[serde(default)]
    pub hand_over: Option<Selector>,
    /// How long the table then stays still, s (default: [`super::STILL_S`], or
    /// [`super::DROP_STILL_S`] after a drop).
    #[serde(default)]
    pub still_s: Option<f64>,
}

fn default_hand() -> bool {
    true
}

/// One change of the table.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Change {
    /// A treasure lands on a ship's deck (a flick that hit the ship, loaded by hand).
    Load(Load),
    /// A piece comes to rest on the table somewhere else (a miss, a topple, a moved tentacle).
    Move(Move),
    /// The ink die lands.
    Die(DieLanding),
    /// The anchor is flicked and the ship moved next to it, with its cargo.
    Navigate(NavigateTo),
    /// `piece` comes to rest `margin_mm` closer to `ship` than `with` (which stays): the two are
    /// then the ship's closest treasures, too close to call.
    Tie(Tie),
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Load {
    pub treasure: Selector,
    pub ship: PlayerColor,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Move {
    pub piece: Selector,
    pub to: Target,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DieLanding {
    /// The top colour; the die keeps its old top when left out (it rolled out of the ocean).
    #[serde(default)]
    pub top: Option<DieTop>,
    pub to: Target,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NavigateTo {
    pub player: PlayerColor,
    /// Where the flicked anchor comes to rest; the ship is put next to it.
    pub anchor: Target,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Tie {
    pub ship: PlayerColor,
    pub piece: Selector,
    pub with: Selector,
    pub margin_mm: f64,
}

/// Where a piece comes to rest.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Target {
    /// In the ocean, `gap_mm` from the footprint of `of` (as it was before this change), in the
    /// direction `bearing_deg` from its centre (default: towards the middle of the ocean). When
    /// that spot is taken, the nearest free bearing is used.
    Near {
        of: Selector,
        gap_mm: f64,
        #[serde(default)]
        bearing_deg: Option<f64>,
    },
    /// Just outside the string, at the stretch of string nearest `near`.
    Outside { near: Selector },
}

/// A piece named in the script; see the module docs for the syntax.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub enum Selector {
    Id(String),
    Head,
    Die,
    OutOfOcean,
    Ship(PlayerColor),
    Anchor(PlayerColor),
    /// A treasure of this type the acting player may flick, the one nearest their ship.
    Flickable(TreasureType),
    Loaded(PlayerColor, TreasureType),
    Nearest(PieceKind, Box<Selector>),
}

impl std::str::FromStr for Selector {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let bad = |why: String| {
            format!(
                "{s:?}: {why}; expected a piece id like \"p18\", head, die, out_of_ocean, ship:COLOUR, \
                 anchor:COLOUR, treasure:TYPE, loaded:COLOUR:TYPE or nearest:KIND:SELECTOR"
            )
        };
        match s {
            "head" => return Ok(Selector::Head),
            "die" => return Ok(Selector::Die),
            "out_of_ocean" => return Ok(Selector::OutOfOcean),
            _ => {}
        }
        if let Some(n) = s.strip_prefix('p')
            && !n.is_empty()
            && n.bytes().all(|b| b.is_ascii_digit())
        {
            return Ok(Selector::Id(s.to_string()));
        }
        let (head, rest) = s.split_once(':').ok_or_else(|| bad("not a selector".into()))?;
        match head {
            "ship" => rest.parse().map(Selector::Ship).map_err(bad),
            "anchor" => rest.parse().map(Selector::Anchor).map_err(bad),
            "treasure" => rest.parse().map(Selector::Flickable).map_err(bad),
            "loaded" => {
                let (colour, kind) = rest
                    .split_once(':')
                    .ok_or_else(|| bad("loaded needs a colour and a type".into()))?;
                Ok(Selector::Loaded(
                    colour.parse().map_err(bad)?,
                    kind.parse().map_err(bad)?,
                ))
            }
            "nearest" => {
                let (kind, to) = rest
                    .split_once(':')
                    .ok_or_else(|| bad("nearest needs a piece kind and a selector".into()))?;
                Ok(Selector::Nearest(
                    kind.parse().map_err(bad)?,
                    Box::new(to.parse()?),
                ))
            }
            other => Err(bad(format!("unknown selector {other:?}"))),
        }
    }
}

impl TryFrom<String> for Selector {
    type Error = String;
    fn try_from(s: String) -> Result<Self, Self::Error> {
        s.parse()
    }
}

impl std::fmt::Display for Selector {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Selector::Id(id) => f.write_str(id),
            Selector::Head => f.write_str("head"),
            Selector::Die => f.write_str("die"),
            Selector::OutOfOcean => f.write_str("out_of_ocean"),
            Selector::Ship(c) => write!(f, "ship:{c}"),
            Selector::Anchor(c) => write!(f, "anchor:{c}"),
            Selector::Flickable(t) => write!(f, "treasure:{t}"),
            Selector::Loaded(c, t) => write!(f, "loaded:{c}:{t}"),
            Selector::Nearest(k, to) => write!(f, "nearest:{k}:{to}"),
        }
    }
}

impl From<Selector> for String {
    fn from(s: Selector) -> String {
        s.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn selectors_round_trip() {
        for s in [
            "p18",
            "head",
            "die",
            "out_of_ocean",
            "ship:orange",
            "anchor:blue",
            "treasure:gold",
            "loaded:green:captain",
            "nearest:tentacle:die",
            "nearest:treasure:ship:blue",
        ] {
            let sel: Selector = s.parse().unwrap();
            assert_eq!(sel.to_string(), s);
        }
        assert_eq!(
            "nearest:treasure:ship:blue".parse::<Selector>().unwrap(),
            Selector::Nearest(PieceKind::Treasure, Box::new(Selector::Ship(PlayerColor::Blue)))
        );
    }

    #[test]
    fn bad_selectors_say_what_was_expected() {
        for (s, says) in [
            ("ship:red", "unknown player colour"),
            ("treasure:pearl", "unknown treasure type"),
            ("loaded:green", "needs a colour and a type"),
            ("nearest:kraken:die", "unknown piece kind"),
            ("p", "not a selector"),
            ("boat:orange", "unknown selector"),
        ] {
            let e = s.parse::<Selector>().unwrap_err();
            assert!(e.contains(says), "{s}: {e}");
            assert!(e.contains("expected"), "{s}: {e}");
        }
    }

    #[test]
    fn steps_refuse_unknown_fields_and_take_replay_events() {
        let step: ScriptStep = serde_json::from_str(
            r#"{"caption": "x", "event": {"flick": {"player": "orange", "loaded": "gold"}},
                "table": [{"load": {"treasure": "treasure:gold", "ship": "orange"}},
                          {"move": {"piece": "loaded:orange:gem", "to": {"near": {"of": "ship:orange", "gap_mm": 12}}}},
                          {"die": {"top": "black", "to": {"outside": {"near": "head"}}}}]}"#,
        )
        .unwrap();
        assert!(step.hand && step.still_s.is_none());
        assert_eq!(step.table.len(), 3);
        assert!(matches!(step.event, Some(Event::Flick(_))));
        let e = serde_json::from_str::<ScriptStep>(r#"{"caption": "x", "hands": false}"#).unwrap_err();
        assert!(e.to_string().contains("unknown field `hands`"), "{e}");
        let e =
            serde_json::from_str::<Change>(r#"{"load": {"treasure": "treasure:pearl", "ship": "orange"}}"#)
                .unwrap_err();
        assert!(e.to_string().contains("unknown treasure type"), "{e}");
    }
}
