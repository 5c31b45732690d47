//! The state of a game as `octoref replay crash-octopus --json` prints it (`spec/cli.md`):
//! `turn`, `next` (`{"action": "turn"|"drop", "player"}`, null once the game is over), `crab`,
//! `attack` (`{"pending", "order"}`), `players` (`{"orange": {"loaded": [...]}}` in turn order),
//! `game_over`, `ranking` (empty until the game is over), `log`. Other fields are extras.

use super::attack::AttackKind;
use super::beads::Bead;
use super::ending::{EndReason, RankEntry};
use super::game::{Game, Next, turn_action};
use super::player::PlayerColor;
use super::treasure::{TreasureType, list_types};
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameSummary {
    pub turn: u32,
    pub next: Option<NextAction>,
    /// Beads the crab has stepped over.
    pub crab: usize,
    pub beads: String,
    /// The bead the next load steps over (`null` at the end of the counter).
    pub next_bead: Option<Bead>,
    pub attack: AttackSummary,
    pub players: OrderedMap<PlayerColor, PlayerSummary>,
    /// Pieces of each type on no ship (in the ocean or on the island), highest type first.
    pub ocean: OrderedMap<TreasureType, u8>,
    pub game_over: bool,
    pub end: Option<EndReason>,
    pub ranking: Vec<RankEntry>,
    /// The ranking's reasons in plain words (empty until the game is over).
    pub explanation: Vec<String>,
    pub log: Vec<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ActionKind {
    Turn,
    Drop,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct NextAction {
    pub action: ActionKind,
    pub player: PlayerColor,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AttackSummary {
    /// An octopus attack is under way.
    pub pending: bool,
    /// Its whole drop order (empty when none is under way).
    pub order: Vec<PlayerColor>,
    /// Drops made so far.
    pub done: usize,
    /// Drops still to come.
    pub remaining: Vec<PlayerColor>,
    pub kind: Option<AttackKind>,
    pub trigger: Option<PlayerColor>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayerSummary {
    /// Highest type first.
    pub loaded: Vec<TreasureType>,
    pub types: usize,
}

/// A JSON object whose keys keep their order (turn order, hierarchy order).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OrderedMap<K, V>(pub Vec<(K, V)>);

impl<K: Serialize, V: Serialize> Serialize for OrderedMap<K, V> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut m = s.serialize_map(Some(self.0.len()))?;
        for (k, v) in &self.0 {
            m.serialize_entry(k, v)?;
        }
        m.end()
    }
}

impl<'de, K: Deserialize<'de>, V: Deserialize<'de>> Deserialize<'de> for OrderedMap<K, V> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Vis<K, V>(std::marker::PhantomData<(K, V)>);
        impl<'de, K: Deserialize<'de>, V: Deserialize<'de>> serde::de::Visitor<'de> for Vis<K, V> {
            type Value = OrderedMap<K, V>;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("an object")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(self, mut a: A) -> Result<Self::Value, A::Error> {
                let mut v = Vec::new();
                while let Some(entry) = a.next_entry()? {
                    v.push(entry);
                }
                Ok(OrderedMap(v))
            }
        }
        d.deserialize_map(Vis(std::marker::PhantomData))
    }
}

impl GameSummary {
    pub fn of(game: &Game) -> GameSummary {
        let next = match game.next() {
            Next::Turn { player } => Some(NextAction {
                action: ActionKind::Turn,
                player,
            }),
            Next::Drop { player, .. } => Some(NextAction {
                action: ActionKind::Drop,
                player,
            }),
            Next::Over => None,
        };
        let attack = match game.attack() {
            Some(a) => AttackSummary {
                pending: true,
                order: a.order.clone(),
                done: a.done,
                remaining: a.remaining().to_vec(),
                kind: Some(a.kind),
                trigger: Some(a.trigger),
            },
            None => AttackSummary {
                pending: false,
                order: Vec::new(),
                done: 0,
                remaining: Vec::new(),
                kind: None,
                trigger: None,
            },
        };
        let h = &game.setup().treasures.hierarchy;
        let players = OrderedMap(
            game.ships()
                .iter()
                .map(|s| {
                    let loaded = h.sorted(s.loaded());
                    (
                        s.owner,
                        PlayerSummary {
                            types: loaded.len(),
                            loaded,
                        },
                    )
                })
                .collect(),
        );
        let ocean = OrderedMap(h.types().iter().map(|&t| (t, game.ocean().count(t))).collect());
        let ending = game.ending();
        GameSummary {
            turn: game.turn(),
            next,
            crab: game.counter().crab(),
            beads: game.counter().beads().to_string(),
            next_bead: game.counter().next_bead(),
            attack,
            players,
            ocean,
            game_over: game.is_over(),
            end: ending.map(|e| e.reason.clone()),
            ranking: ending.map(|e| e.ranking.entries.clone()).unwrap_or_default(),
            explanation: ending.map(|e| e.ranking.explanation.clone()).unwrap_or_default(),
            log: game.log().to_vec(),
        }
    }

    /// Where the game stands, in plain words: what comes next, the counter, the ships, and (with
    /// `with_ranking`, once the game is over) the ranking with its reasons, which the log also ends
    /// with.
    pub fn status_lines(&self, with_ranking: bool) -> Vec<String> {
        let mut lines = Vec::new();
        match (&self.next, &self.end) {
            (_, Some(end)) => lines.push(format!("The game is over: {end}.")),
            (Some(n), None) => match n.action {
                ActionKind::Turn => lines.push(format!(
                    "Now: turn {}, {}'s turn ({}).",
                    self.turn,
                    n.player,
                    turn_action(n.player)
                )),
                ActionKind::Drop => lines.push(format!(
                    "Now: an octopus attack is under way; {} drops the ink die next (still to drop: {}).",
                    n.player,
                    self.attack
                        .remaining
                        .iter()
                        .map(|p| p.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                )),
            },
            (None, None) => {}
        }
        let next_bead = match self.next_bead {
            Some(Bead::Blue) => "the next load steps over a blue bead".to_string(),
            Some(Bead::Black) => "the next load steps over a black bead: the octopus will attack".to_string(),
            None => "the counter has reached its end".to_string(),
        };
        lines.push(format!(
            "Octo-Counter {}: the crab has stepped over {} of {} beads; {next_bead}.",
            self.beads,
            self.crab,
            self.beads.len()
        ));
        for (p, s) in &self.players.0 {
            lines.push(match s.types {
                0 => format!("{p}: nothing loaded."),
                1 => format!("{p}: 1 type loaded ({}).", list_types(&s.loaded)),
                n => format!("{p}: {n} types loaded ({}).", list_types(&s.loaded)),
            });
        }
        if with_ranking && self.game_over {
            lines.extend(self.explanation.iter().cloned());
        }
        lines
    }
}
