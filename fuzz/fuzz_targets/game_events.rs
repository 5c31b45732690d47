//! The app's saved game (a Crash Octopus [`Record`]) built event by event from the fuzzer's
//! choices, so play reaches deep states that JSON mutation rarely finds. After every event:
//! a refused event leaves the game unchanged, the crab never moves back and moves at most one
//! bead, treasures are conserved (each type's pieces are on ships or in the ocean); at the end
//! the record saves and loads back unchanged, replays to the same game, and undo (replaying all
//! but the last event, then the last) lands on the same game.
#![no_main]
use libfuzzer_sys::arbitrary::{Result, Unstructured};
use libfuzzer_sys::fuzz_target;
use octoref::games::crash_octopus::{
    Canon, DieTop, Event, Flick, Game, Head, InkDrop, Modules, Navigate, PlayerColor, Record,
    TreasureType,
};

/// Events per input: a whole game and then some.
const MAX_EVENTS: usize = 300;

fn types(u: &mut Unstructured, from: &[TreasureType]) -> Result<Vec<TreasureType>> {
    let mut out = Vec::new();
    for &t in from {
        if u.ratio(1, 3)? {
            out.push(t);
        }
    }
    // Now and then, a type twice or one from outside the list.
    if u.ratio(1, 16)? {
        out.push(*u.choose(&TreasureType::ALL)?);
    }
    Ok(out)
}

fn event(u: &mut Unstructured, game: &Game) -> Result<Event> {
    let expected = game.next().player();
    let player = match expected {
        Some(p) if u.ratio(7, 8)? => p,
        _ => *u.choose(&PlayerColor::ALL)?,
    };
    let own: Vec<TreasureType> = game
        .ship(player)
        .map(|s| s.loaded().iter().copied().collect())
        .unwrap_or_default();
    let in_play = game.setup().treasures.hierarchy.types().to_vec();
    let pick_type = |u: &mut Unstructured| -> Result<Option<TreasureType>> {
        Ok(if u.ratio(1, 4)? {
            None
        } else if u.ratio(7, 8)? && !in_play.is_empty() {
            Some(*u.choose(&in_play)?)
        } else {
            Some(*u.choose(&TreasureType::ALL)?)
        })
    };
    let someone = |u: &mut Unstructured| -> Result<Option<PlayerColor>> {
        Ok(if u.ratio(1, 2)? {
            None
        } else if u.ratio(7, 8)? {
            Some(*u.choose(game.players())?)
        } else {
            Some(*u.choose(&PlayerColor::ALL)?)
        })
    };
    let head = |u: &mut Unstructured| -> Result<Option<Head>> {
        Ok(*u.choose(&[None, Some(Head::Giant), Some(Head::Little)])?)
    };
    let drop_wanted = game.attack().is_some();
    let kind = if drop_wanted && u.ratio(7, 8)? {
        3
    } else if player.is_pirate() && u.ratio(7, 8)? {
        2
    } else {
        u.int_in_range(0..=3)?
    };
    Ok(match kind {
        0 => Event::Flick(Flick {
            player,
            loaded: pick_type(u)?,
            toppled: types(u, &own)?,
        }),
        1 => Event::Navigate(Navigate {
            player,
            failed: u.ratio(1, 4)?,
            island: pick_type(u)?,
            closest_to_island: someone(u)?,
        }),
        2 => Event::Canon(Canon {
            player,
            touched_head: u.arbitrary()?,
            head: head(u)?,
            island: pick_type(u)?,
            closest_to_island: someone(u)?,
            failed: u.ratio(1, 4)?,
        }),
        _ => {
            let hit_ship = someone(u)?;
            let theirs: Vec<TreasureType> = hit_ship
                .and_then(|s| game.ship(s))
                .map(|s| s.loaded().iter().copied().collect())
                .unwrap_or_default();
            let toppled = types(u, &theirs)?;
            let stolen = if u.ratio(1, 2)? { types(u, &toppled)? } else { Vec::new() };
            Event::Drop(InkDrop {
                player,
                hit_ship,
                toppled,
                top: *u.choose(&[None, Some(DieTop::Black), Some(DieTop::Red)])?,
                head: head(u)?,
                stolen,
            })
        }
    })
}

fn check_conservation(game: &Game) {
    let set = &game.setup().treasures;
    for &t in set.hierarchy.types() {
        let on_ships = game.ships().iter().filter(|s| s.holds(t)).count();
        assert_eq!(
            on_ships + usize::from(game.ocean().count(t)),
            usize::from(set.per_type),
            "the {t} pieces are not all on ships or in the ocean"
        );
    }
    for s in game.ships() {
        assert!(s.loaded().iter().all(|t| set.hierarchy.contains(*t)));
    }
}

fn play(u: &mut Unstructured) -> Result<()> {
    let sailors = u.int_in_range(2..=4)?;
    let pirate = u.arbitrary()?;
    let modules = Modules {
        pink_pirate: pirate,
        little_octopus: u.arbitrary()?,
        island: u.arbitrary()?,
    };
    let mut players: Vec<PlayerColor> = PlayerColor::ALL[..sailors].to_vec();
    if pirate {
        players.push(PlayerColor::Pink);
    }
    let mut record = Record::new(players, modules);
    let bead_count = u.int_in_range(1..=24)?;
    let mut beads = String::new();
    for _ in 0..bead_count {
        beads.push(if u.ratio(1, 3)? { 'K' } else { 'B' });
    }
    record.beads = beads.parse().ok();
    let Ok(mut game) = Game::replay(&record) else {
        return Ok(());
    };
    check_conservation(&game);
    while !u.is_empty() && record.events.len() < MAX_EVENTS {
        let e = event(u, &game)?;
        let before = game.clone();
        let crab = game.counter().crab();
        match game.apply(&e) {
            Err(_) => assert_eq!(game, before, "a refused event changed the game"),
            Ok(_) => {
                record.events.push(e);
                let now = game.counter().crab();
                assert!(now >= crab, "the crab moved back from {crab} to {now}");
                assert!(now <= crab + 1, "the crab jumped from {crab} to {now}");
            }
        }
        check_conservation(&game);
        assert_eq!(game.is_over(), game.ending().is_some());
    }
    let saved = serde_json::to_string(&record).unwrap();
    let loaded: Record = serde_json::from_str(&saved).unwrap();
    assert_eq!(loaded, record, "the saved game does not load back");
    let again = Game::replay(&loaded).unwrap();
    assert_eq!(again, game, "replaying the record gives another game");
    if let Some(last) = record.events.last() {
        let mut undone = Game::replay(&record.without_last()).unwrap();
        undone.apply(last).unwrap();
        assert_eq!(undone, game, "undo and redo give another game");
    }
    Ok(())
}

fuzz_target!(|data: &[u8]| {
    let _ = play(&mut Unstructured::new(data));
});
