//! The octopus attack: who drops the ink die, in which order, and what a drop does.
//!
//! - Order: starting from the player after the one who triggered it (who moved the crab onto a black
//!   bead), each player drops once, ending with the one who triggered it. The Pink Pirate takes part
//!   like everyone else.
//! - With 2 players they alternate until each has dropped twice: trigger A gives B, A, B, A.
//! - The Pirate's solo attack (its canon touched a head) is one drop by the Pirate alone.
//! - A drop that hits a ship is a successful attack, even on the dropper's own ship: that ship's
//!   toppled treasures stay in the ocean and no octopus piece moves. Otherwise the die's top says what
//!   moves: black a tentacle, red an octopus head (`little_octopus.rs` for which head).
//! - When the Pirate's drop succeeds it may steal what fell (`pirate.rs`).
//! - When the last drop is made the attack is over and the turn ends (`ending.rs`).

use super::error::RuleError;
use super::event::{DieTop, Head, InkDrop};
use super::game::{Game, Phase};
use super::player::PlayerColor;
use super::treasure::{join_words, list_types, the_types, verb};
use serde::{Deserialize, Serialize};

/// Drops each player makes in a 2-player attack.
pub const TWO_PLAYER_DROPS_EACH: usize = 2;

/// Why the octopus attacks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AttackKind {
    /// The crab stepped over a black bead.
    Counter,
    /// The counter reached its end (on a black bead, or a final attack after a blue one).
    Final,
    /// The Pink Pirate's canon touched a head: its solo attack.
    Pirate,
}

/// An octopus attack under way.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Attack {
    pub kind: AttackKind,
    /// Whose load (or canon) started it; the last to drop.
    pub trigger: PlayerColor,
    /// Every drop in order, including those already made.
    pub order: Vec<PlayerColor>,
    /// How many drops have been made.
    pub done: usize,
    /// The Pirate's solo attack drops only on the head its canon touched.
    pub solo_head: Option<Head>,
}

impl Attack {
    /// Who drops next; `None` when every drop has been made.
    pub fn next_dropper(&self) -> Option<PlayerColor> {
        self.order.get(self.done).copied()
    }

    /// The drops still to come, in order.
    pub fn remaining(&self) -> &[PlayerColor] {
        self.order.get(self.done..).unwrap_or(&[])
    }
}

/// The drop order of an attack triggered by `trigger`: the next player first, `trigger` last; with
/// 2 players that round twice.
pub fn drop_order(players: &[PlayerColor], trigger: PlayerColor) -> Vec<PlayerColor> {
    let n = players.len();
    let t = players.iter().position(|&p| p == trigger).unwrap_or(0);
    let round: Vec<PlayerColor> = (1..=n).map(|k| players[(t + k) % n]).collect();
    if n == 2 {
        round.repeat(TWO_PLAYER_DROPS_EACH)
    } else {
        round
    }
}

fn names(players: &[PlayerColor]) -> String {
    players.iter().map(|p| p.as_str()).collect::<Vec<_>>().join(", ")
}

impl Game {
    /// Starts an attack and says who drops first.
    pub(super) fn start_attack(
        &mut self,
        kind: AttackKind,
        trigger: PlayerColor,
        solo_head: Option<Head>,
        out: &mut Vec<String>,
    ) {
        let order = match kind {
            AttackKind::Pirate => vec![trigger],
            AttackKind::Counter | AttackKind::Final => drop_order(&self.setup.players, trigger),
        };
        match kind {
            AttackKind::Pirate => out.push(format!(
                "The Pink Pirate makes an octopus attack by itself: pink drops the ink die on {}.",
                solo_head.unwrap_or_default()
            )),
            AttackKind::Final => {
                self.final_attack_started = true;
                out.push(format!(
                    "The Octo-Counter has reached its end: the final octopus attack. Drop order: {}.",
                    names(&order)
                ));
            }
            AttackKind::Counter => {
                out.push(format!("Drop order: {}.", names(&order)));
            }
        }
        self.phase = Phase::Attack(Attack {
            kind,
            trigger,
            order,
            done: 0,
            solo_head,
        });
    }

    pub(super) fn drop(&mut self, d: &InkDrop, out: &mut Vec<String>) -> Result<(), RuleError> {
        let Phase::Attack(attack) = &self.phase else {
            return Err(RuleError::DropWithoutAttack {
                expected: self.active_player(),
                action: super::game::turn_action(self.active_player()),
            });
        };
        let mut attack = attack.clone();
        let p = d.player;
        let expected = attack.next_dropper().unwrap_or(attack.trigger);
        if p != expected {
            return Err(RuleError::ExpectedDrop {
                expected,
                got: p,
                order: names(attack.remaining()),
            });
        }
        let head = self.check_drop_head(d.head, attack.solo_head)?;
        if let Some(ship) = d.hit_ship {
            self.index_of(ship, "hit_ship")?;
        }
        self.check_type_list("toppled", &d.toppled)?;
        match d.hit_ship {
            Some(ship) => self.check_on_ship("toppled", ship, &d.toppled)?,
            None if !d.toppled.is_empty() => {
                return Err(RuleError::ToppledWithoutHit {
                    toppled: list_types(&self.sorted(&d.toppled)),
                });
            }
            None => {}
        }
        self.check_steal(d)?;

        match d.hit_ship {
            Some(ship) => {
                self.topple(ship, &d.toppled);
                let whose = if ship == p {
                    "its own ship".to_string()
                } else {
                    format!("{ship}'s ship")
                };
                let fell = if d.toppled.is_empty() {
                    "nothing falls".to_string()
                } else {
                    let n = d.toppled.len();
                    let stays = if d.stolen.is_empty() {
                        format!(" and {} there", verb(n, "stays", "stay"))
                    } else {
                        String::new()
                    };
                    format!(
                        "{} {} into the ocean{stays}",
                        the_types(&self.sorted(&d.toppled)),
                        verb(n, "falls", "fall"),
                    )
                };
                out.push(format!(
                    "{p} drops the ink die and hits {whose}: {fell}. A successful attack: nothing else moves."
                ));
                self.steal(d, out);
            }
            None => out.push(format!(
                "{p} drops the ink die and hits no ship: {}",
                self.die_top_ruling(d.top, head)
            )),
        }

        attack.done += 1;
        match attack.next_dropper() {
            Some(next) => {
                out.push(format!("Next drop: {next}."));
                self.phase = Phase::Attack(attack);
            }
            None => {
                out.push("The octopus attack is over.".to_string());
                self.phase = Phase::Turn;
                self.end_turn(out);
            }
        }
        Ok(())
    }

    /// What the players do after a drop that hit no ship.
    fn die_top_ruling(&self, top: Option<DieTop>, head: Head) -> String {
        match top {
            Some(DieTop::Black) => "black on top: move a tentacle (any one) next to the die.".into(),
            Some(DieTop::Red) => format!("red on top: {}.", self.red_top_move(head)),
            None => "nothing moves.".into(),
        }
    }
}

/// `a, b and c` for a list of players.
pub(super) fn player_words(players: &[PlayerColor]) -> String {
    join_words(&players.iter().map(|p| p.as_str()).collect::<Vec<_>>())
}

#[cfg(test)]
mod tests {
    use super::*;
    use PlayerColor::*;

    #[test]
    fn drops_start_after_the_trigger_and_end_with_it() {
        let four = [Orange, Green, Blue, Purple];
        assert_eq!(drop_order(&four, Blue), vec![Purple, Orange, Green, Blue]);
        assert_eq!(drop_order(&four, Purple), vec![Orange, Green, Blue, Purple]);
        let three = [Orange, Green, Pink];
        assert_eq!(drop_order(&three, Green), vec![Pink, Orange, Green]);
    }

    #[test]
    fn two_players_alternate_until_each_has_dropped_twice() {
        assert_eq!(
            drop_order(&[Orange, Green], Orange),
            vec![Green, Orange, Green, Orange]
        );
        assert_eq!(
            drop_order(&[Orange, Green], Green),
            vec![Orange, Green, Orange, Green]
        );
    }

    #[test]
    fn remaining_drops_shrink_as_drops_are_made() {
        let mut a = Attack {
            kind: AttackKind::Counter,
            trigger: Orange,
            order: vec![Green, Orange],
            done: 0,
            solo_head: None,
        };
        assert_eq!(a.next_dropper(), Some(Green));
        a.done = 1;
        assert_eq!(a.remaining(), &[Orange]);
        a.done = 2;
        assert_eq!(a.next_dropper(), None);
        assert!(a.remaining().is_empty());
    }
}

#[cfg(test)]
mod game_tests {
    use super::super::error::RuleError;
    use super::super::event::{DieTop, Head};
    use super::super::game::{Game, Next};
    use super::super::testkit::*;
    use super::*;
    use crate::games::crash_octopus::TreasureType::*;
    use PlayerColor::*;

    fn next_dropper(g: &Game) -> Option<PlayerColor> {
        match g.next() {
            Next::Drop { player, .. } => Some(player),
            _ => None,
        }
    }

    #[test]
    fn a_black_bead_starts_an_attack_from_the_next_player_ending_with_the_trigger() {
        let mut g = new_game(&[Orange, Green, Blue], modules(false, false, false), "BKBBB");
        play(&mut g, &[flick(Orange, Gold)]);
        let lines = g.apply(&flick(Green, Gem)).unwrap();
        assert!(
            lines.iter().any(|l| l.contains("(black): octopus attack!")),
            "{lines:?}"
        );
        assert!(lines.iter().any(|l| l == "Drop order: blue, orange, green."));
        let Next::Drop { player, attack } = g.next() else {
            panic!("expected a drop")
        };
        assert_eq!(player, Blue);
        assert_eq!(attack.order, vec![Blue, Orange, Green]);
        assert_eq!((attack.kind, attack.trigger), (AttackKind::Counter, Green));

        let e = refused(&mut g, flick(Blue, Chest));
        assert_eq!(
            e,
            RuleError::AttackUnderWay {
                expected: Blue,
                got: Blue,
                got_kind: "flick"
            }
        );
        let e = refused(&mut g, drop_(Orange));
        assert_eq!(
            e,
            RuleError::ExpectedDrop {
                expected: Blue,
                got: Orange,
                order: "blue, orange, green".into()
            }
        );
        play(&mut g, &[drop_(Blue), drop_(Orange)]);
        assert_eq!(next_dropper(&g), Some(Green));
        let lines = g.apply(&drop_(Green)).unwrap();
        assert!(lines.iter().any(|l| l == "The octopus attack is over."));
        // Turns go back to normal: the player after the one who triggered it.
        assert_eq!(g.next(), Next::Turn { player: Blue });
        assert_eq!(g.turn(), 3);
        assert_eq!(g.counter().crab(), 2);
    }

    #[test]
    fn rulebook_when_d_triggers_a_to_d_drop_then_a_plays() {
        let mut g = new_game(
            &[Orange, Green, Blue, Purple],
            modules(false, false, false),
            "BBBKBB",
        );
        play(
            &mut g,
            &[
                flick(Orange, Gold),
                flick(Green, Gold),
                flick(Blue, Gold),
                flick(Purple, Gold),
            ],
        );
        assert_eq!(g.attack().unwrap().order, vec![Orange, Green, Blue, Purple]);
        play(&mut g, &[drop_(Orange), drop_(Green), drop_(Blue), drop_(Purple)]);
        assert_eq!(g.next(), Next::Turn { player: Orange });
    }

    #[test]
    fn rulebook_two_players_alternate_until_each_has_dropped_twice() {
        let mut g = new_game(&[Orange, Green], modules(false, false, false), "KBBBB");
        play(&mut g, &[flick(Orange, Gold)]);
        let mut seen = Vec::new();
        while let Some(p) = next_dropper(&g) {
            seen.push(p);
            play(&mut g, &[drop_(p)]);
        }
        assert_eq!(seen, vec![Green, Orange, Green, Orange]);
        assert_eq!(g.next(), Next::Turn { player: Green });
        // Green triggers the next one: orange drops first.
        let mut g = new_game(&[Orange, Green], modules(false, false, false), "BKBBB");
        play(&mut g, &[flick(Orange, Gold), flick(Green, Gold)]);
        assert_eq!(g.attack().unwrap().order, vec![Orange, Green, Orange, Green]);
    }

    #[test]
    fn a_drop_that_hits_a_ship_topples_its_treasures_into_the_ocean() {
        let mut g = new_game(&[Orange, Green, Blue], modules(false, false, false), "BBKBB");
        play(
            &mut g,
            &[flick(Orange, Gold), flick(Green, Gem), flick(Blue, Gold)],
        );
        // blue triggered: orange, green, blue.
        let e = refused(&mut g, hit(Orange, Green, &[Gold]));
        assert_eq!(
            e.to_string(),
            "`toppled`: the gold is not loaded on green's ship; expected some of what it holds: gem"
        );
        let e = refused(&mut g, hit(Orange, Purple, &[]));
        assert!(matches!(
            e,
            RuleError::UnknownPlayer {
                field: "hit_ship",
                ..
            }
        ));
        let e = refused(&mut g, {
            let mut d = drop_(Orange);
            if let super::super::event::Event::Drop(x) = &mut d {
                x.toppled = vec![Gem];
            }
            d
        });
        assert!(matches!(e, RuleError::ToppledWithoutHit { .. }));
        let lines = g.apply(&hit(Orange, Green, &[Gem])).unwrap();
        assert!(
            lines[0].contains("hits green's ship: the gem falls into the ocean"),
            "{lines:?}"
        );
        assert!(loaded(&g, Green).is_empty());
        assert_eq!(g.ocean().count(Gem), 4);
        // Hitting one's own ship is a successful attack too, and topples.
        let lines = g.apply(&hit(Green, Green, &[])).unwrap();
        assert!(lines[0].contains("hits its own ship: nothing falls"), "{lines:?}");
        play(&mut g, &[hit(Blue, Blue, &[Gold])]);
        assert!(loaded(&g, Blue).is_empty());
        assert_eq!(g.ocean().count(Gold), 3);
        assert_eq!(g.next(), Next::Turn { player: Orange });
    }

    #[test]
    fn the_die_top_says_what_moves_when_no_ship_is_hit() {
        let mut g = new_game(&[Orange, Green], modules(false, false, false), "KBBBB");
        play(&mut g, &[flick(Orange, Gold)]);
        let l = g.apply(&drop_top(Green, DieTop::Black, None)).unwrap();
        assert!(l[0].contains("black on top: move a tentacle"), "{l:?}");
        let l = g.apply(&drop_top(Orange, DieTop::Red, None)).unwrap();
        assert!(
            l[0].contains("red on top: move the octopus head next to the die"),
            "{l:?}"
        );
        let e = refused(&mut g, drop_top(Green, DieTop::Red, Some(Head::Little)));
        assert_eq!(
            e,
            RuleError::ModuleOff {
                field: "head",
                module: "little_octopus"
            }
        );
    }
}
