//! The demo's game, followed as it is played, and the game context the referee rules in.
//!
//! While the built-in demo runs, the Crash Octopus panel can show the demo's scripted game: the
//! set-up and each event as the picture shows it (taken from [`DemoHandle::info`] of the frame on
//! screen), a new game when the demo loops. It lives only in memory: the players' own saved game
//! is never touched by it.

use crate::capture::{DemoHandle, DemoPhase};
use crate::games::crash_octopus::Game;
use crate::referee::{self, GameContext};

/// The game around the table for the referee: turn order, whose action it is (the flicker, or
/// the player dropping the ink die), what each ship holds, the modules.
pub fn game_context(game: &Game) -> GameContext {
    let m = game.setup().modules;
    GameContext {
        players: game.players().to_vec(),
        active: game.next().player(),
        loaded: Some(
            game.ships()
                .iter()
                .map(|s| (s.owner, s.loaded().clone()))
                .collect(),
        ),
        modules: referee::Modules {
            pink_pirate: m.pink_pirate,
            little_octopus: m.little_octopus,
            island: m.island,
        },
        ..GameContext::default()
    }
}

/// The demo's game as far as the picture on screen has got.
#[derive(Debug)]
pub struct DemoTable {
    handle: DemoHandle,
    /// (demo loop, events recorded) of `game`.
    at: Option<(u64, usize)>,
    game: Option<Game>,
    caption: String,
    acting: bool,
    problem: Option<String>,
}

impl DemoTable {
    pub fn new(handle: DemoHandle) -> Self {
        DemoTable {
            handle,
            at: None,
            game: None,
            caption: String::new(),
            acting: false,
            problem: None,
        }
    }

    /// Catches up with frame `seq` (the one on screen; the newest delivered when `None`).
    /// Returns whether the game changed.
    pub fn follow(&mut self, seq: Option<u64>) -> bool {
        let Some(info) = seq
            .and_then(|s| self.handle.info(s))
            .or_else(|| self.handle.latest())
        else {
            return false;
        };
        self.caption = info.caption.to_string();
        self.acting = info.phase == DemoPhase::Acting;
        let at = (info.game, info.record.events.len());
        if self.at == Some(at) {
            return false;
        }
        self.at = Some(at);
        match Game::replay(&info.record) {
            Ok(g) => {
                self.game = Some(g);
                self.problem = None;
            }
            Err(e) => self.problem = Some(format!("The demo's game could not be followed: {e}")),
        }
        true
    }

    pub fn game(&self) -> Option<&Game> {
        self.game.as_ref()
    }

    /// What is happening at the table, in the script's words.
    pub fn caption(&self) -> &str {
        &self.caption
    }

    /// Whether a player's hand is over the table right now.
    pub fn acting(&self) -> bool {
        self.acting
    }

    /// Which loop of the demo this is, from 1.
    pub fn game_number(&self) -> Option<u64> {
        self.at.map(|(g, _)| g + 1)
    }

    pub fn problem(&self) -> Option<&str> {
        self.problem.as_deref()
    }

    pub fn handle(&self) -> &DemoHandle {
        &self.handle
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::crash_octopus::{Event, Flick, Modules, PlayerColor, Record, TreasureType};
    use PlayerColor::*;

    #[test]
    fn the_context_follows_the_game() {
        let mut r = Record::new(vec![Orange, Green], Modules::default());
        r.beads = Some("BKBB".parse().unwrap());
        let mut g = Game::replay(&r).unwrap();
        let ctx = game_context(&g);
        assert_eq!(ctx.players, vec![Orange, Green]);
        assert_eq!(ctx.active, Some(Orange));
        g.apply(&Event::Flick(Flick {
            player: Orange,
            loaded: Some(TreasureType::Gold),
            toppled: vec![],
        }))
        .unwrap();
        let ctx = game_context(&g);
        assert_eq!(ctx.active, Some(Green));
        let loaded = ctx.loaded.unwrap();
        assert!(loaded[&Orange].contains(&TreasureType::Gold));
        assert!(loaded[&Green].is_empty());
        ctx_valid(&g);
    }

    fn ctx_valid(g: &Game) {
        assert!(game_context(g).validate().is_ok());
    }
}
