//! Shorthands for the rules' unit tests.

use super::event::{Canon, DieTop, Event, Flick, Head, InkDrop, Navigate};
use super::game::Game;
use super::player::PlayerColor;
use super::rules_data::RulesData;
use super::setup::{Modules, Setup};
use super::treasure::TreasureType;

pub fn data() -> RulesData {
    RulesData::builtin().unwrap()
}

pub fn modules(pirate: bool, little: bool, island: bool) -> Modules {
    Modules {
        pink_pirate: pirate,
        little_octopus: little,
        island,
    }
}

pub fn new_game(players: &[PlayerColor], m: Modules, beads: &str) -> Game {
    let setup = Setup::new(players.to_vec(), m, Some(beads.parse().unwrap()), None, &data()).unwrap();
    Game::new(setup).unwrap()
}

pub fn flick(p: PlayerColor, t: TreasureType) -> Event {
    Event::Flick(Flick {
        player: p,
        loaded: Some(t),
        toppled: vec![],
    })
}

pub fn flick_toppling(p: PlayerColor, t: Option<TreasureType>, toppled: &[TreasureType]) -> Event {
    Event::Flick(Flick {
        player: p,
        loaded: t,
        toppled: toppled.to_vec(),
    })
}

pub fn miss(p: PlayerColor) -> Event {
    Event::Flick(Flick {
        player: p,
        loaded: None,
        toppled: vec![],
    })
}

pub fn navigate(p: PlayerColor) -> Event {
    Event::Navigate(Navigate {
        player: p,
        failed: false,
        island: None,
        closest_to_island: None,
    })
}

pub fn island_nav(p: PlayerColor, t: TreasureType, closest: Option<PlayerColor>) -> Event {
    Event::Navigate(Navigate {
        player: p,
        failed: false,
        island: Some(t),
        closest_to_island: closest,
    })
}

pub fn canon(touched_head: bool) -> Event {
    Event::Canon(Canon {
        player: PlayerColor::Pink,
        touched_head,
        head: None,
        island: None,
        closest_to_island: None,
        failed: false,
    })
}

pub fn canon_full(c: Canon) -> Event {
    Event::Canon(c)
}

pub fn canon_struct() -> Canon {
    Canon {
        player: PlayerColor::Pink,
        touched_head: false,
        head: None,
        island: None,
        closest_to_island: None,
        failed: false,
    }
}

/// A drop that hits no ship.
pub fn drop_(p: PlayerColor) -> Event {
    Event::Drop(InkDrop {
        player: p,
        hit_ship: None,
        toppled: vec![],
        top: None,
        head: None,
        stolen: vec![],
    })
}

pub fn drop_top(p: PlayerColor, top: DieTop, head: Option<Head>) -> Event {
    Event::Drop(InkDrop {
        player: p,
        hit_ship: None,
        toppled: vec![],
        top: Some(top),
        head,
        stolen: vec![],
    })
}

pub fn hit(p: PlayerColor, ship: PlayerColor, toppled: &[TreasureType]) -> Event {
    Event::Drop(InkDrop {
        player: p,
        hit_ship: Some(ship),
        toppled: toppled.to_vec(),
        top: None,
        head: None,
        stolen: vec![],
    })
}

pub fn steal(ship: PlayerColor, toppled: &[TreasureType], stolen: &[TreasureType]) -> Event {
    Event::Drop(InkDrop {
        player: PlayerColor::Pink,
        hit_ship: Some(ship),
        toppled: toppled.to_vec(),
        top: None,
        head: None,
        stolen: stolen.to_vec(),
    })
}

/// Applies every event; panics with the index and error of the first refused one.
pub fn play(g: &mut Game, events: &[Event]) {
    for (i, e) in events.iter().enumerate() {
        if let Err(err) = g.apply(e) {
            panic!("event {i} ({e:?}) refused: {err}\nlog: {:#?}", g.log());
        }
    }
}

/// Applies an event that must be refused, checks that the game did not change, returns the error.
#[allow(clippy::needless_pass_by_value)] // tests read better with events built inline
pub fn refused(g: &mut Game, e: Event) -> super::error::RuleError {
    let before = g.clone();
    let err = g.apply(&e).expect_err("the event should have been refused");
    assert_eq!(*g, before, "a refused event changed the game");
    err
}

pub fn loaded(g: &Game, p: PlayerColor) -> Vec<TreasureType> {
    g.ship(p).unwrap().loaded().iter().copied().collect()
}
