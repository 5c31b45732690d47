//! The game state and the one way it changes: [`Game::apply`] one [`Event`] at a time.
//!
//! The state is plain data (serde): the set-up, the ships, the treasures on no ship, the counter,
//! whose turn it is and what is expected next (a turn, or a drop of an octopus attack), and the log.
//! A refused event leaves the game exactly as it was, so the app can show the error and carry on;
//! undo is [`Game::replay`] of every event but the last.
//!
//! How the rules are split: `turn.rs` (flick, navigate), `counter.rs` (the crab), `attack.rs` (drop
//! order and drops), `pirate.rs` (the Octo-Canon and stealing), `island.rs`, `little_octopus.rs`,
//! `ending.rs` (end of a turn, winning, ranking).

use super::attack::Attack;
use super::counter::Counter;
use super::ending::Ending;
use super::error::RuleError;
use super::event::Event;
use super::ocean::Ocean;
use super::player::PlayerColor;
use super::record::Record;
use super::rules_data::RulesData;
use super::setup::{Setup, SetupError};
use super::ship::Ship;
use super::treasure::{TreasureType, join_words, list_types};
use serde::{Deserialize, Serialize};

/// What the game waits for.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// The active player's turn: a flick or navigate (a canon for the Pink Pirate).
    Turn,
    /// An octopus attack: drops in the attack's order.
    Attack(Attack),
    /// The game is over.
    Over,
}

/// Whose action comes next, and which kind.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "action", rename_all = "snake_case")]
pub enum Next {
    /// `player` takes a turn: flick or navigate, or for the Pirate a canon.
    Turn { player: PlayerColor },
    /// `player` drops the ink die; `attack` has the whole order and how far it has gone.
    Drop { player: PlayerColor, attack: Attack },
    /// Nothing: the game is over.
    Over,
}

impl Next {
    pub fn player(&self) -> Option<PlayerColor> {
        match self {
            Next::Turn { player } | Next::Drop { player, .. } => Some(*player),
            Next::Over => None,
        }
    }
}

/// A game record could not be replayed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ReplayError {
    /// The record's set-up (`players`, `modules`, `types`) is not one the rules allow.
    #[error("{}: {error}", error.field())]
    Setup { error: SetupError },
    /// The record has more events than [`super::record::MAX_EVENTS`]: nothing is replayed.
    #[error("events: {count} events; at most {max} are accepted (a whole game is a few hundred)")]
    TooManyEvents { count: usize, max: usize },
    /// `events[index]` is not allowed at that moment.
    #[error("events[{index}] ({kind} by {player}): {error}")]
    Event {
        index: usize,
        kind: &'static str,
        player: PlayerColor,
        error: RuleError,
    },
}

/// A game of Crash Octopus in progress (or over).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Game {
    pub(super) setup: Setup,
    /// One per player, in turn order.
    pub(super) ships: Vec<Ship>,
    pub(super) ocean: Ocean,
    pub(super) counter: Counter,
    /// The number of the current turn, from 1.
    pub(super) turn: u32,
    /// Index in turn order of the player whose turn it is (during an attack: whose turn it was).
    pub(super) active: usize,
    pub(super) phase: Phase,
    /// The attack played because the counter reached its end has started.
    pub(super) final_attack_started: bool,
    pub(super) ending: Option<Ending>,
    pub(super) log: Vec<String>,
}

impl Game {
    /// A new game: every treasure in the ocean, the crab before the first bead, the first player to
    /// play.
    pub fn new(setup: Setup) -> Result<Game, SetupError> {
        setup.validate()?;
        let first = setup
            .players
            .first()
            .copied()
            .ok_or(SetupError::PlayerCount { got: 0 })?;
        let set = &setup.treasures;
        let log = vec![
            format!(
                "Players in turn order: {}.",
                join_words(&setup.players.iter().map(|p| p.as_str()).collect::<Vec<_>>())
            ),
            format!(
                "Treasures: {} of each of {} ({} pieces); ties are broken by {}.",
                set.per_type,
                list_types(set.hierarchy.types()),
                set.total_pieces(),
                set.hierarchy
            ),
            format!(
                "Octo-Counter: {} ({} beads, B blue, K black); the crab starts before the first bead.",
                setup.beads,
                setup.beads.len()
            ),
            format!("Turn 1: {first}'s turn."),
        ];
        Ok(Game {
            ships: setup.players.iter().map(|&p| Ship::new(p)).collect(),
            ocean: Ocean::new(&setup.treasures),
            counter: Counter::new(setup.beads.clone()),
            turn: 1,
            active: 0,
            phase: Phase::Turn,
            final_attack_started: false,
            ending: None,
            log,
            setup,
        })
    }

    /// Replays a game record through the rules with the shipped rules data.
    pub fn replay(record: &Record) -> Result<Game, ReplayError> {
        let data = RulesData::builtin().map_err(|e| ReplayError::Setup { error: e.into() })?;
        Game::replay_with(record, &data)
    }

    /// Replays a game record with the given rules data (e.g. the user's own bead sequence).
    pub fn replay_with(record: &Record, data: &RulesData) -> Result<Game, ReplayError> {
        if record.events.len() > super::record::MAX_EVENTS {
            return Err(ReplayError::TooManyEvents {
                count: record.events.len(),
                max: super::record::MAX_EVENTS,
            });
        }
        let setup = record.setup(data).map_err(|error| ReplayError::Setup { error })?;
        let mut game = Game::new(setup).map_err(|error| ReplayError::Setup { error })?;
        for (index, event) in record.events.iter().enumerate() {
            game.apply(event).map_err(|error| ReplayError::Event {
                index,
                kind: event.kind(),
                player: event.player(),
                error,
            })?;
        }
        Ok(game)
    }

    /// Applies one event. On success returns the lines it added to the log; on error the game is
    /// unchanged and the error says what was expected.
    pub fn apply(&mut self, event: &Event) -> Result<Vec<String>, RuleError> {
        let log = std::mem::take(&mut self.log);
        let mut next = self.clone();
        self.log = log;
        let mut out = Vec::new();
        next.apply_event(event, &mut out)?;
        next.log = std::mem::take(&mut self.log);
        next.log.extend(out.iter().cloned());
        *self = next;
        Ok(out)
    }

    fn apply_event(&mut self, event: &Event, out: &mut Vec<String>) -> Result<(), RuleError> {
        self.index_of(event.player(), "player")?;
        match &self.phase {
            Phase::Over => Err(RuleError::GameOver {
                reason: self
                    .ending
                    .as_ref()
                    .map(|e| e.reason.to_string())
                    .unwrap_or_default(),
            }),
            Phase::Attack(attack) => match event {
                Event::Drop(d) => self.drop(d, out),
                other => Err(RuleError::AttackUnderWay {
                    expected: attack.next_dropper().unwrap_or(attack.trigger),
                    got: other.player(),
                    got_kind: other.kind(),
                }),
            },
            Phase::Turn => {
                let expected = self.active_player();
                if let Event::Drop(_) = event {
                    return Err(RuleError::DropWithoutAttack {
                        expected,
                        action: turn_action(expected),
                    });
                }
                if event.player() != expected {
                    return Err(RuleError::NotYourTurn {
                        expected,
                        got: event.player(),
                        action: turn_action(expected),
                    });
                }
                match event {
                    Event::Flick(_) | Event::Navigate(_) if expected.is_pirate() => {
                        Err(RuleError::PirateUsesCanon {
                            got_kind: event.kind(),
                        })
                    }
                    Event::Canon(_) if !expected.is_pirate() => {
                        Err(RuleError::CanonNotPirate { player: expected })
                    }
                    Event::Flick(f) => self.flick(f, out),
                    Event::Navigate(n) => self.navigate(n, out),
                    Event::Canon(c) => self.canon(c, out),
                    Event::Drop(_) => Ok(()),
                }
            }
        }
    }

    /// Whose action comes next, and which kind.
    pub fn next(&self) -> Next {
        match &self.phase {
            Phase::Over => Next::Over,
            Phase::Turn => Next::Turn {
                player: self.active_player(),
            },
            Phase::Attack(a) => match a.next_dropper() {
                Some(player) => Next::Drop {
                    player,
                    attack: a.clone(),
                },
                None => Next::Over,
            },
        }
    }

    pub fn setup(&self) -> &Setup {
        &self.setup
    }

    /// Players in turn order.
    pub fn players(&self) -> &[PlayerColor] {
        &self.setup.players
    }

    pub fn phase(&self) -> &Phase {
        &self.phase
    }

    /// The octopus attack under way, if any.
    pub fn attack(&self) -> Option<&Attack> {
        match &self.phase {
            Phase::Attack(a) => Some(a),
            _ => None,
        }
    }

    /// The number of the current turn (the last one played once the game is over), from 1.
    pub fn turn(&self) -> u32 {
        self.turn
    }

    /// The player whose turn it is (during an attack: whose turn it was).
    pub fn active_player(&self) -> PlayerColor {
        self.ships
            .get(self.active)
            .map(|s| s.owner)
            .unwrap_or(PlayerColor::Orange)
    }

    pub fn counter(&self) -> &Counter {
        &self.counter
    }

    /// Every ship, in turn order.
    pub fn ships(&self) -> &[Ship] {
        &self.ships
    }

    pub fn ship(&self, player: PlayerColor) -> Option<&Ship> {
        self.ships.iter().find(|s| s.owner == player)
    }

    /// The treasures on no ship (in the ocean or on the island).
    pub fn ocean(&self) -> &Ocean {
        &self.ocean
    }

    /// The types `player` may load if one reaches the ship: in play, still in the ocean, and not
    /// already on that ship (BAD No.2). The referee's "forbidden: type_loaded" is the complement.
    pub fn loadable(&self, player: PlayerColor) -> Vec<TreasureType> {
        let Some(ship) = self.ship(player) else {
            return Vec::new();
        };
        self.setup
            .treasures
            .hierarchy
            .types()
            .iter()
            .copied()
            .filter(|&t| !ship.holds(t) && self.ocean.count(t) > 0)
            .collect()
    }

    pub fn is_over(&self) -> bool {
        matches!(self.phase, Phase::Over)
    }

    /// How the game ended and the final ranking; `None` while it goes on.
    pub fn ending(&self) -> Option<&Ending> {
        self.ending.as_ref()
    }

    /// Everything that happened, in plain words.
    pub fn log(&self) -> &[String] {
        &self.log
    }

    // ---- helpers shared by the rules modules ----

    pub(super) fn index_of(&self, player: PlayerColor, field: &'static str) -> Result<usize, RuleError> {
        self.ships
            .iter()
            .position(|s| s.owner == player)
            .ok_or_else(|| RuleError::UnknownPlayer {
                field,
                player,
                players: self.players_text(),
            })
    }

    pub(super) fn players_text(&self) -> String {
        self.setup
            .players
            .iter()
            .map(|p| p.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    }

    pub(super) fn ship_mut(&mut self, player: PlayerColor) -> Option<&mut Ship> {
        self.ships.iter_mut().find(|s| s.owner == player)
    }

    /// Checks that every listed type is in play and listed once.
    pub(super) fn check_type_list(
        &self,
        field: &'static str,
        types: &[TreasureType],
    ) -> Result<(), RuleError> {
        for (i, &t) in types.iter().enumerate() {
            self.check_in_play(field, t)?;
            if types[..i].contains(&t) {
                return Err(RuleError::ListedTwice { field, treasure: t });
            }
        }
        Ok(())
    }

    pub(super) fn check_in_play(&self, field: &'static str, t: TreasureType) -> Result<(), RuleError> {
        let h = &self.setup.treasures.hierarchy;
        if h.contains(t) {
            Ok(())
        } else {
            Err(RuleError::NotInPlay {
                field,
                treasure: t,
                in_play: h
                    .types()
                    .iter()
                    .map(|t| t.as_str())
                    .collect::<Vec<_>>()
                    .join(", "),
            })
        }
    }

    /// Checks that `player` may load `t` now: in play, not on its ship (BAD No.2), still in the ocean.
    pub(super) fn check_loadable(
        &self,
        field: &'static str,
        player: PlayerColor,
        t: TreasureType,
    ) -> Result<(), RuleError> {
        self.check_in_play(field, t)?;
        if self.ship(player).is_some_and(|s| s.holds(t)) {
            return Err(RuleError::AlreadyLoaded {
                field,
                player,
                treasure: t,
            });
        }
        if self.ocean.count(t) == 0 {
            let holders: Vec<&str> = self
                .ships
                .iter()
                .filter(|s| s.holds(t))
                .map(|s| s.owner.as_str())
                .collect();
            return Err(RuleError::NoneInOcean {
                field,
                treasure: t,
                count: self.setup.treasures.per_type,
                holders: join_words(&holders),
            });
        }
        Ok(())
    }

    /// Checks that every listed type is loaded on `ship`.
    pub(super) fn check_on_ship(
        &self,
        field: &'static str,
        ship: PlayerColor,
        types: &[TreasureType],
    ) -> Result<(), RuleError> {
        let Some(s) = self.ship(ship) else {
            return Err(RuleError::UnknownPlayer {
                field,
                player: ship,
                players: self.players_text(),
            });
        };
        for &t in types {
            if !s.holds(t) {
                return Err(RuleError::NotOnShip {
                    field,
                    ship,
                    treasure: t,
                    loaded: list_types(&self.sorted(s.loaded())),
                });
            }
        }
        Ok(())
    }

    /// Types sorted highest first by the game's hierarchy.
    pub(super) fn sorted<'a>(&self, types: impl IntoIterator<Item = &'a TreasureType>) -> Vec<TreasureType> {
        self.setup.treasures.hierarchy.sorted(types)
    }

    /// Moves types from `ship` into the ocean (they were checked to be on it).
    pub(super) fn topple(&mut self, ship: PlayerColor, types: &[TreasureType]) {
        for &t in types {
            if let Some(s) = self.ship_mut(ship)
                && s.topple(t)
            {
                self.ocean.put(t);
            }
        }
    }

    /// Moves one piece of `t` from the ocean onto `player`'s ship (checked with `check_loadable`).
    pub(super) fn load(&mut self, player: PlayerColor, t: TreasureType) {
        if let Some(s) = self.ships.iter_mut().find(|s| s.owner == player)
            && !s.holds(t)
            && self.ocean.take(t)
        {
            s.load(t);
        }
    }
}

/// What a player does on a turn, for messages.
pub(super) fn turn_action(player: PlayerColor) -> &'static str {
    if player.is_pirate() {
        "canon"
    } else {
        "flick or navigate"
    }
}

#[cfg(test)]
mod tests {
    use super::super::event::{Canon, Flick, InkDrop, Navigate};
    use super::super::setup::Modules;
    use super::super::summary::GameSummary;
    use super::super::testkit::*;
    use super::*;
    use PlayerColor::*;
    use TreasureType::*;

    fn record(json: &str) -> Record {
        serde_json::from_str(json).unwrap()
    }

    #[test]
    fn replay_names_the_refused_events_index_and_what_was_expected() {
        // cli.md's example: with these beads no attack is under way at its drops.
        let r = record(
            r#"{"players": ["orange", "green"], "modules": {"pink_pirate": false, "little_octopus": false, "island": false},
                "beads": "BBBKBBBKBBKBBKKK",
                "events": [
                  {"flick": {"player": "orange", "loaded": "gold"}},
                  {"flick": {"player": "green", "loaded": null}},
                  {"flick": {"player": "orange", "loaded": "gem", "toppled": ["gold"]}},
                  {"navigate": {"player": "orange", "failed": false}},
                  {"drop": {"player": "green", "hit_ship": "orange", "toppled": ["gold"]}},
                  {"drop": {"player": "orange", "hit_ship": null, "toppled": []}}
                ]}"#,
        );
        let e = Game::replay(&r).unwrap_err();
        assert_eq!(
            e.to_string(),
            "events[3] (navigate by orange): it is green's turn, not orange's; expected a flick or navigate by green"
        );
        let mut r = r;
        r.events.remove(3);
        let e = Game::replay(&r).unwrap_err();
        assert!(matches!(
            e,
            ReplayError::Event {
                index: 3,
                error: RuleError::DropWithoutAttack { expected: Green, .. },
                ..
            }
        ));
    }

    #[test]
    fn replay_reports_setup_errors_with_their_field() {
        let e = Game::replay(&record(r#"{"players": ["orange", "green", "pink"]}"#)).unwrap_err();
        assert!(
            e.to_string().starts_with("modules: pink (the Pink Pirate)"),
            "{e}"
        );
        let e = Game::replay(&record(r#"{"players": ["orange"]}"#)).unwrap_err();
        assert!(e.to_string().starts_with("players: 1 players"), "{e}");
    }

    #[test]
    fn undo_is_a_replay_of_all_but_the_last_event_and_refused_events_change_nothing() {
        let r = record(
            r#"{"players": ["orange", "green", "blue"], "beads": "BKBB",
                "events": [
                  {"flick": {"player": "orange", "loaded": "gold"}},
                  {"flick": {"player": "green", "loaded": "gem"}},
                  {"drop": {"player": "blue", "hit_ship": "green", "toppled": ["gem"]}}
                ]}"#,
        );
        let full = Game::replay(&r).unwrap();
        let undone = Game::replay(&r.without_last()).unwrap();
        let mut redo = undone.clone();
        redo.apply(r.events.last().unwrap()).unwrap();
        assert_eq!(redo, full);
        assert_eq!(loaded(&undone, Green), vec![Gem]);
        assert!(loaded(&full, Green).is_empty());
        let mut g = full.clone();
        let _ = refused(&mut g, flick(Blue, Gold));
        assert_eq!(g, full);
    }

    #[test]
    fn the_game_is_plain_data_it_round_trips_through_json() {
        let mut g = new_game(&[Orange, Green, Pink], modules(true, true, true), "BKBB");
        play(&mut g, &[flick(Orange, Gold), flick(Green, Gem)]);
        let text = serde_json::to_string(&g).unwrap();
        let back: Game = serde_json::from_str(&text).unwrap();
        assert_eq!(back, g);
        let r = Record {
            events: vec![flick(Orange, Gold)],
            ..Record::new(vec![Orange, Green], Modules::default())
        };
        let back: Record = serde_json::from_str(&serde_json::to_string(&r).unwrap()).unwrap();
        assert_eq!(back, r);
    }

    #[test]
    fn five_players_play_with_six_types() {
        let mut g = new_game(
            &[Orange, Green, Blue, Purple, Pink],
            modules(true, false, false),
            "BBBBBBBB",
        );
        let e = refused(&mut g, flick(Orange, Gem));
        assert!(matches!(e, RuleError::NotInPlay { treasure: Gem, .. }));
        play(&mut g, &[flick(Orange, Rose), flick(Green, Bottle)]);
        assert_eq!(g.ocean().count(Rose), 3);
        assert_eq!(g.setup().treasures.total_pieces(), 24);
    }

    #[test]
    fn the_summary_has_cli_mds_fields() {
        let mut g = new_game(&[Orange, Green, Blue], modules(false, false, false), "BKBB");
        play(&mut g, &[flick(Orange, Gold), flick(Green, Gem)]);
        let v = serde_json::to_value(GameSummary::of(&g)).unwrap();
        assert_eq!(v["turn"], 2);
        assert_eq!(v["next"], serde_json::json!({"action": "drop", "player": "blue"}));
        assert_eq!(v["crab"], 2);
        assert_eq!(v["attack"]["pending"], true);
        assert_eq!(
            v["attack"]["order"],
            serde_json::json!(["blue", "orange", "green"])
        );
        assert_eq!(v["players"]["orange"]["loaded"], serde_json::json!(["gold"]));
        assert_eq!(v["game_over"], false);
        assert_eq!(v["ranking"], serde_json::json!([]));
        assert!(v["log"].as_array().unwrap().len() > 4);
        let keys: Vec<&String> = v["players"].as_object().unwrap().keys().collect();
        assert_eq!(keys.len(), 3);
    }

    mod props {
        use super::*;
        use proptest::prelude::*;

        /// A random intention, turned into an event against the current state so that most are
        /// legal but every kind of mistake also occurs.
        #[derive(Debug, Clone)]
        struct Intent {
            kind: u8,
            right_player: bool,
            player: usize,
            ty: usize,
            mask: u8,
            hit: Option<usize>,
            steal_mask: u8,
            flag: bool,
        }

        fn intent() -> impl Strategy<Value = Intent> {
            (
                0u8..5,
                proptest::bool::weighted(0.85),
                0usize..5,
                0usize..7,
                any::<u8>(),
                proptest::option::of(0usize..5),
                any::<u8>(),
                proptest::bool::weighted(0.2),
            )
                .prop_map(|(kind, right_player, player, ty, mask, hit, steal_mask, flag)| {
                    Intent {
                        kind,
                        right_player,
                        player,
                        ty,
                        mask,
                        hit,
                        steal_mask,
                        flag,
                    }
                })
        }

        fn pick(mask: u8, from: &[TreasureType]) -> Vec<TreasureType> {
            from.iter()
                .enumerate()
                .filter(|(i, _)| mask & (1 << i) != 0)
                .map(|(_, &t)| t)
                .collect()
        }

        fn to_event(g: &Game, i: &Intent) -> Event {
            let player = match (i.right_player, g.next().player()) {
                (true, Some(p)) => p,
                _ => PlayerColor::ALL[i.player],
            };
            let ty = TreasureType::ALL[i.ty];
            let own: Vec<TreasureType> = g
                .ship(player)
                .map(|s| s.loaded().iter().copied().collect())
                .unwrap_or_default();
            let kind = if g.attack().is_some() && i.right_player {
                3
            } else if player.is_pirate() && i.right_player {
                2
            } else {
                i.kind
            };
            match kind {
                0 => Event::Flick(Flick {
                    player,
                    loaded: (!i.flag).then_some(ty),
                    toppled: pick(i.mask, &own),
                }),
                1 => Event::Navigate(Navigate {
                    player,
                    failed: i.flag,
                    island: (i.mask.is_multiple_of(3)).then_some(ty),
                    closest_to_island: i.hit.map(|h| PlayerColor::ALL[h]),
                }),
                2 => Event::Canon(Canon {
                    player,
                    touched_head: i.mask.is_multiple_of(2),
                    head: None,
                    island: (i.mask.is_multiple_of(3)).then_some(ty),
                    closest_to_island: None,
                    failed: i.flag,
                }),
                _ => {
                    let ship = i
                        .hit
                        .map(|h| g.players().get(h % g.players().len()).copied().unwrap_or(Orange));
                    let theirs: Vec<TreasureType> = ship
                        .and_then(|s| g.ship(s))
                        .map(|s| s.loaded().iter().copied().collect())
                        .unwrap_or_default();
                    let toppled = pick(i.mask, &theirs);
                    let stolen = if player.is_pirate() {
                        pick(i.steal_mask, &toppled)
                    } else {
                        vec![]
                    };
                    Event::Drop(InkDrop {
                        player,
                        hit_ship: ship,
                        toppled,
                        top: None,
                        head: None,
                        stolen,
                    })
                }
            }
        }

        proptest! {
            #![proptest_config(ProptestConfig::with_cases(300))]
            #[test]
            fn treasures_are_conserved_the_crab_only_moves_forward_and_replay_reproduces_the_game(
                sailors in 2usize..=4,
                pirate in any::<bool>(),
                island in any::<bool>(),
                beads in "[BK]{1,20}",
                intents in proptest::collection::vec(intent(), 0..120),
            ) {
                let mut players: Vec<PlayerColor> = PlayerColor::ALL[..sailors].to_vec();
                if pirate { players.push(Pink); }
                let mut r = Record::new(players.clone(), Modules { pink_pirate: pirate, little_octopus: false, island });
                r.beads = Some(beads.parse().unwrap());
                let mut g = Game::replay(&r).unwrap();
                let per_type = g.setup().treasures.per_type;
                let types = g.setup().treasures.hierarchy.types().to_vec();
                for i in &intents {
                    let e = to_event(&g, i);
                    let before = g.clone();
                    let crab = g.counter().crab();
                    match g.apply(&e) {
                        Err(_) => prop_assert_eq!(&g, &before),
                        Ok(_) => {
                            r.events.push(e.clone());
                            prop_assert!(g.counter().crab() >= crab);
                            prop_assert!(g.counter().crab() <= crab + 1);
                            if e.player().is_pirate() {
                                prop_assert_eq!(g.counter().crab(), crab);
                            }
                        }
                    }
                    for &t in &types {
                        let on_ships = g.ships().iter().filter(|s| s.holds(t)).count();
                        prop_assert_eq!(on_ships + usize::from(g.ocean().count(t)), usize::from(per_type));
                    }
                    for s in g.ships() {
                        prop_assert!(s.loaded().iter().all(|t| types.contains(t)));
                    }
                    prop_assert_eq!(g.is_over(), g.next() == Next::Over);
                    prop_assert_eq!(g.is_over(), g.ending().is_some());
                }
                let again = Game::replay(&r).unwrap();
                prop_assert_eq!(&again, &g);
                if !r.events.is_empty() {
                    let mut undone = Game::replay(&r.without_last()).unwrap();
                    undone.apply(r.events.last().unwrap()).unwrap();
                    prop_assert_eq!(&undone, &g);
                }
            }
        }
    }
}
