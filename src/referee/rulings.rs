//! The rulings of one table reading, as `analyze` prints them (`cli.md`, field names are a
//! contract; the extra fields are documented here), and their digest for the commit gate.

use super::question::Question;
use crate::games::crash_octopus::{PlayerColor, TreasureType};
use serde::{Deserialize, Serialize, Serializer};
use std::collections::BTreeMap;

/// Everything the referee rules on one reading.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Rulings {
    /// One entry per player who flicks treasures (never the Pink Pirate). Empty when the view is
    /// obstructed or moved: no ruling is better than a wrong one.
    pub players: BTreeMap<PlayerColor, PlayerRulings>,
    /// Pieces whose centre lies outside the ocean. Never the crab or a bead (they sit on the
    /// string), never a loaded treasure (it travels with its ship).
    pub out_of_ocean: Vec<String>,
    /// Plain-word rulings for the family at the table, most important first.
    pub messages: Vec<String>,
    /// Extra: treasures (not loaded) whose footprint crosses the string.
    #[serde(default)]
    pub on_string: Vec<String>,
    /// Extra: the treasures to drop back over the octopus head, and who drops them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub redrop: Option<Redrop>,
    /// Extra: ships and tentacles outside the ocean, to be put back inside at once.
    #[serde(default)]
    pub put_back: Vec<String>,
    /// Extra: what loading a treasure now does on the Octo-Counter.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub next_load: Option<NextLoad>,
    /// Extra: who drops the ink die, in order, if the active player loads a treasure now and the
    /// octopus attacks (empty when no attack would follow or the active player is not known).
    #[serde(default)]
    pub attack_order: Vec<PlayerColor>,
    /// Extra: the Nameless Island (module), when it is seen.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub island: Option<IslandRuling>,
    /// Extra: what the players should confirm or correct; never decided silently.
    #[serde(default)]
    pub questions: Vec<Question>,
}

/// What one player may and may not flick.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PlayerRulings {
    /// Extra: the id of the player's ship the gaps are measured from.
    #[serde(default)]
    pub ship: String,
    /// Treasure types loaded: the game state's, plus any seen on the ship (hierarchy order).
    pub loaded: Vec<TreasureType>,
    /// Gap from the ship to every candidate treasure (in the ocean, not loaded, not on the
    /// island), smallest first.
    pub gaps_mm: Vec<TreasureGap>,
    /// The treasure with the smallest gap; `null` when no treasure is in the ocean. When the call
    /// is too close this is only the smallest *measured* gap: see `closest_candidates`.
    pub closest: Option<String>,
    /// The runner-up is within the tolerance of the closest: the players choose together.
    pub too_close_to_call: bool,
    /// Extra: every treasure within the tolerance of the closest (just the closest when the call
    /// is clear, empty when there is none).
    #[serde(default)]
    pub closest_candidates: Vec<String>,
    /// Candidate treasures this player may flick now, smallest gap first.
    pub flickable: Vec<String>,
    /// Candidate treasures this player may not flick now, with the reason. `flickable` and
    /// `forbidden` together hold every candidate treasure exactly once.
    pub forbidden: Vec<Forbidden>,
}

/// The gap from a ship to one treasure.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TreasureGap {
    pub id: String,
    #[serde(rename = "type")]
    pub treasure: Option<TreasureType>,
    /// Smallest footprint-to-footprint distance, mm (printed to 0.1 mm).
    #[serde(serialize_with = "tenth")]
    pub gap_mm: f64,
    /// Extra: one sigma of that gap, mm, from both pieces' measurement uncertainty.
    #[serde(default, serialize_with = "tenth")]
    pub uncertainty_mm: f64,
}

/// A treasure a player may not flick, and why.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Forbidden {
    pub id: String,
    /// The firmest reason (the first of `reasons`).
    pub reason: ForbidReason,
    /// Extra: every reason that applies, firmest first.
    #[serde(default)]
    pub reasons: Vec<ForbidReason>,
}

/// Why a treasure may not be flicked. Ordered firmest first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ForbidReason {
    /// BAD No.1: the closest treasure to the player's ship.
    Closest,
    /// BAD No.2: the player has already loaded this type.
    TypeLoaded,
    /// One of several treasures too close to call as the closest: the players choose together
    /// which one counts as the closest; the others may then be flicked.
    TooCloseToCall,
    /// The treasure's type is not known, so BAD No.2 cannot be checked: the players say.
    UnknownType,
}

impl ForbidReason {
    pub fn as_str(self) -> &'static str {
        match self {
            ForbidReason::Closest => "closest",
            ForbidReason::TypeLoaded => "type_loaded",
            ForbidReason::TooCloseToCall => "too_close_to_call",
            ForbidReason::UnknownType => "unknown_type",
        }
    }
}

/// Treasures to drop back into the ocean over the octopus head.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Redrop {
    /// Who drops them: the player before the active one. `None` when the turn order or the active
    /// player is not known, or at set-up (the first player drops them all).
    pub by: Option<PlayerColor>,
    pub ids: Vec<String>,
    /// All the treasures are outside and none is loaded: the set-up drop.
    #[serde(default)]
    pub setup: bool,
}

/// What loading a treasure now does on the Octo-Counter.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum NextLoad {
    /// The crab steps onto a blue bead: the turn ends.
    TurnEnds,
    /// The crab steps onto a black bead: the octopus attacks.
    OctopusAttack,
    /// The crab has stepped over the last bead: the game is over after the final attack.
    CounterAtEnd,
}

/// Who is closest to the Nameless Island: that player may not collect its treasure this turn.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct IslandRuling {
    pub id: String,
    /// Treasures lying on the island.
    pub treasures: Vec<String>,
    /// Gap from every anchor (and the Octo-Canon) in the ocean to the island, smallest first.
    pub gaps_mm: Vec<AnchorGap>,
    pub closest: Option<PlayerColor>,
    pub too_close_to_call: bool,
    pub closest_candidates: Vec<PlayerColor>,
}

/// The gap from one player's anchor (or the Pirate's Octo-Canon) to the island.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AnchorGap {
    pub player: PlayerColor,
    pub id: String,
    #[serde(serialize_with = "tenth")]
    pub gap_mm: f64,
    #[serde(default, serialize_with = "tenth")]
    pub uncertainty_mm: f64,
}

/// Lengths are printed to 0.1 mm: the measurement is not finer than that.
fn tenth<S: Serializer>(v: &f64, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_f64((v * 10.0).round() / 10.0)
}

/// The decisions of a [`Rulings`], without the measurements that jitter from frame to frame:
/// two readings with the same digest rule the same way. Piece ids must be stable across frames
/// (vision tracks them) for two readings of an unchanged table to agree.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct RulingsDigest {
    pub players: BTreeMap<PlayerColor, PlayerDigest>,
    pub out_of_ocean: Vec<String>,
    pub on_string: Vec<String>,
    pub redrop: Option<Redrop>,
    pub put_back: Vec<String>,
    pub next_load: Option<NextLoad>,
    pub attack_order: Vec<PlayerColor>,
    pub island: Option<(String, Vec<PlayerColor>)>,
    pub questions: Vec<String>,
}

/// One player's decisions (see [`RulingsDigest`]).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct PlayerDigest {
    pub ship: String,
    pub loaded: Vec<TreasureType>,
    pub closest_candidates: Vec<String>,
    pub flickable: Vec<String>,
    pub forbidden: Vec<(String, ForbidReason)>,
}

fn sorted(ids: &[String]) -> Vec<String> {
    let mut v = ids.to_vec();
    v.sort();
    v
}

impl PlayerRulings {
    /// How much farther the runner-up is than the closest, mm: the margin of the call (`None`
    /// with fewer than two candidate treasures). `octoref bench` scores calls by the true margin.
    pub fn margin_mm(&self) -> Option<f64> {
        match self.gaps_mm.as_slice() {
            [first, second, ..] => Some(second.gap_mm - first.gap_mm),
            _ => None,
        }
    }
}

impl Rulings {
    /// The decisions only (see [`RulingsDigest`]).
    pub fn digest(&self) -> RulingsDigest {
        RulingsDigest {
            players: self
                .players
                .iter()
                .map(|(&color, p)| {
                    let mut forbidden: Vec<(String, ForbidReason)> =
                        p.forbidden.iter().map(|f| (f.id.clone(), f.reason)).collect();
                    forbidden.sort();
                    let digest = PlayerDigest {
                        ship: p.ship.clone(),
                        loaded: p.loaded.clone(),
                        closest_candidates: sorted(&p.closest_candidates),
                        flickable: sorted(&p.flickable),
                        forbidden,
                    };
                    (color, digest)
                })
                .collect(),
            out_of_ocean: sorted(&self.out_of_ocean),
            on_string: sorted(&self.on_string),
            redrop: self.redrop.clone().map(|mut r| {
                r.ids.sort();
                r
            }),
            put_back: sorted(&self.put_back),
            next_load: self.next_load,
            attack_order: self.attack_order.clone(),
            island: self.island.as_ref().map(|i| {
                let mut c = i.closest_candidates.clone();
                c.sort();
                (i.id.clone(), c)
            }),
            questions: {
                let mut q: Vec<String> = self.questions.iter().map(Question::key).collect();
                q.sort();
                q
            },
        }
    }
}
