//! The Pink Pirate (module): its only action is the flick of the Octo-Canon, and it steals.
//!
//! - The canon touched an octopus head: after moving its ship the Pirate makes one octopus attack by
//!   itself (with Little Octopus, only on the head the canon touched).
//! - The canon left the ocean: the navigation failed, nothing else happens, even if it touched a head
//!   on the way.
//! - The canon may collect the island's treasure like an anchor (`island.rs`). When it touched both the
//!   island and a head, octoref applies the island first, then the solo attack.
//! - When a drop of the Pirate succeeds (its solo attack or its drop in a normal attack) it may steal
//!   what fell, except types it already holds; those stay in the ocean. octoref lets it steal any part
//!   of what fell. A drop on its own ship steals nothing.
//! - The Pirate never moves the crab: not for a steal, not for the island's treasure.
//! - The Pirate can be attacked like any ship and keeps what is left.

use super::attack::AttackKind;
use super::error::RuleError;
use super::event::{Canon, Head, InkDrop};
use super::game::Game;
use super::player::PlayerColor;
use super::treasure::{list_types, the_types, verb};

impl Game {
    pub(super) fn canon(&mut self, c: &Canon, out: &mut Vec<String>) -> Result<(), RuleError> {
        let p = c.player;
        if c.head.is_some() && !c.touched_head {
            return Err(RuleError::HeadWithoutTouch);
        }
        let head = self.check_canon_head(c.head)?;
        if let Some(t) = c.island {
            self.check_island(p, t, c.failed, c.closest_to_island)?;
        }
        if c.failed {
            let lost = if c.touched_head {
                " It touched a head on the way, but there is no octopus attack."
            } else {
                ""
            };
            out.push(format!(
                "The Octo-Canon left the ocean: the Pirate's navigation failed; the canon goes back and the pirate ship stays.{lost} End of pink's turn."
            ));
            self.end_turn(out);
            return Ok(());
        }
        out.push("pink flicks the Octo-Canon and moves the pirate ship next to it.".to_string());
        if let Some(t) = c.island {
            // The Pirate never moves the crab, whatever the island rule says for sailors.
            self.collect_from_island(p, t, c.closest_to_island, out);
        }
        if c.touched_head {
            out.push(format!("The Octo-Canon touched {head}."));
            self.start_attack(AttackKind::Pirate, p, Some(head), out);
        } else {
            out.push("End of pink's turn.".to_string());
            self.end_turn(out);
        }
        Ok(())
    }

    /// Checks a drop's `stolen` list (see the module doc).
    pub(super) fn check_steal(&self, d: &InkDrop) -> Result<(), RuleError> {
        if d.stolen.is_empty() {
            return Ok(());
        }
        if !d.player.is_pirate() {
            return Err(RuleError::StealByNonPirate { player: d.player });
        }
        self.check_type_list("stolen", &d.stolen)?;
        if d.hit_ship == Some(PlayerColor::Pink) {
            return Err(RuleError::StolenFromOwnShip);
        }
        for &t in &d.stolen {
            if !d.toppled.contains(&t) {
                return Err(RuleError::StolenNotToppled {
                    treasure: t,
                    toppled: list_types(&self.sorted(&d.toppled)),
                });
            }
            if self.ship(PlayerColor::Pink).is_some_and(|s| s.holds(t)) {
                return Err(RuleError::StolenAlreadyHeld { treasure: t });
            }
        }
        Ok(())
    }

    /// Loads the stolen treasures onto the pirate ship (after the drop toppled them into the ocean).
    pub(super) fn steal(&mut self, d: &InkDrop, out: &mut Vec<String>) {
        if d.stolen.is_empty() {
            return;
        }
        for &t in &d.stolen {
            self.load(PlayerColor::Pink, t);
        }
        out.push(format!(
            "The Pink Pirate steals {} and loads {} onto the pirate ship (the crab does not move).",
            the_types(&self.sorted(&d.stolen)),
            verb(d.stolen.len(), "it", "them")
        ));
        let left: Vec<_> = d
            .toppled
            .iter()
            .filter(|t| !d.stolen.contains(t))
            .copied()
            .collect();
        if !left.is_empty() {
            out.push(format!(
                "{} {} in the ocean.",
                capitalize(&the_types(&self.sorted(&left))),
                verb(left.len(), "stays", "stay")
            ));
        }
    }

    /// The head the canon touched; `little` only with the Little Octopus module.
    fn check_canon_head(&self, head: Option<Head>) -> Result<Head, RuleError> {
        self.check_head_module(head)
    }
}

fn capitalize(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(first) => first.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::super::attack::AttackKind;
    use super::super::ending::EndReason;
    use super::super::game::Next;
    use super::super::testkit::*;
    use super::*;
    use crate::games::crash_octopus::TreasureType::*;
    use PlayerColor::*;

    fn island_canon(t: super::super::treasure::TreasureType) -> super::super::event::Event {
        canon_full(Canon {
            island: Some(t),
            closest_to_island: Some(Orange),
            ..canon_struct()
        })
    }

    #[test]
    fn the_pirate_plays_last_and_only_flicks_the_canon() {
        let mut g = new_game(&[Orange, Green, Pink], modules(true, false, false), "BBBBBBBB");
        let e = refused(&mut g, canon(false));
        assert_eq!(
            e,
            RuleError::NotYourTurn {
                expected: Orange,
                got: Pink,
                action: "flick or navigate"
            }
        );
        let e = refused(
            &mut g,
            canon_full(Canon {
                player: Orange,
                ..canon_struct()
            }),
        );
        assert_eq!(e, RuleError::CanonNotPirate { player: Orange });
        play(&mut g, &[miss(Orange), miss(Green)]);
        assert_eq!(g.next(), Next::Turn { player: Pink });
        let e = refused(&mut g, flick(Pink, Gold));
        assert_eq!(e, RuleError::PirateUsesCanon { got_kind: "flick" });
        assert!(e.to_string().contains("expected a canon by pink"));
        let e = refused(&mut g, navigate(Pink));
        assert_eq!(e, RuleError::PirateUsesCanon { got_kind: "navigate" });
        play(&mut g, &[canon(false)]);
        assert_eq!(g.next(), Next::Turn { player: Orange });
    }

    #[test]
    fn the_pirate_never_moves_the_crab() {
        let mut g = new_game(&[Orange, Green, Pink], modules(true, false, true), "BKBBBBBB");
        play(&mut g, &[flick(Orange, Gold), miss(Green)]);
        assert_eq!(g.counter().crab(), 1);
        // The island's treasure: no step.
        let lines = g.apply(&island_canon(Captain)).unwrap();
        assert!(
            lines.iter().any(|l| l.contains("the crab does not move")),
            "{lines:?}"
        );
        assert_eq!(g.counter().crab(), 1);
        assert_eq!(loaded(&g, Pink), vec![Captain]);
        // A steal in its solo attack: no step either.
        play(
            &mut g,
            &[
                miss(Orange),
                miss(Green),
                canon(true),
                steal(Orange, &[Gold], &[Gold]),
            ],
        );
        assert_eq!(g.counter().crab(), 1);
        assert_eq!(loaded(&g, Pink), vec![Captain, Gold]);
        // The next sailor's load steps onto the black bead: the crab was where the sailors left it.
        play(&mut g, &[flick(Orange, Gem)]);
        assert_eq!(g.counter().crab(), 2);
        assert_eq!(g.attack().unwrap().kind, AttackKind::Counter);
    }

    #[test]
    fn touching_a_head_gives_the_pirate_one_solo_attack() {
        let mut g = new_game(&[Orange, Green, Pink], modules(true, false, false), "BBBBBBBB");
        play(&mut g, &[flick(Orange, Gold), miss(Green)]);
        let lines = g.apply(&canon(true)).unwrap();
        assert!(lines.iter().any(|l| l.contains("attack by itself")), "{lines:?}");
        let a = g.attack().unwrap();
        assert_eq!((a.kind, a.order.clone()), (AttackKind::Pirate, vec![Pink]));
        let e = refused(&mut g, drop_(Orange));
        assert!(matches!(
            e,
            RuleError::ExpectedDrop {
                expected: Pink,
                got: Orange,
                ..
            }
        ));
        let lines = g.apply(&steal(Orange, &[Gold], &[Gold])).unwrap();
        assert!(
            lines.iter().any(|l| l.contains("steals the gold and loads it")),
            "{lines:?}"
        );
        assert_eq!(loaded(&g, Pink), vec![Gold]);
        assert!(loaded(&g, Orange).is_empty());
        assert_eq!(g.ocean().count(Gold), 3);
        assert_eq!(g.next(), Next::Turn { player: Orange });
        assert_eq!(g.turn(), 4);
    }

    #[test]
    fn a_failed_canon_makes_no_attack_even_after_touching_a_head() {
        let mut g = new_game(&[Orange, Green, Pink], modules(true, false, false), "BBBBBBBB");
        play(&mut g, &[miss(Orange), miss(Green)]);
        let lines = g
            .apply(&canon_full(Canon {
                touched_head: true,
                failed: true,
                ..canon_struct()
            }))
            .unwrap();
        assert!(lines[0].contains("no octopus attack"), "{lines:?}");
        assert_eq!(g.next(), Next::Turn { player: Orange });
    }

    #[test]
    fn the_pirate_steals_only_what_fell_and_only_types_it_lacks() {
        let mut g = new_game(&[Orange, Green, Pink], modules(true, false, false), "BBBBBBBB");
        play(
            &mut g,
            &[
                flick(Orange, Gold),
                flick(Green, Gold),
                canon(true),
                steal(Orange, &[Gold], &[Gold]),
                flick(Orange, Gem),
                flick(Green, Gem),
                canon(true),
            ],
        );
        // Pink holds gold; green holds gold and gem.
        let e = refused(&mut g, steal(Green, &[Gold, Gem], &[Gold]));
        assert_eq!(e, RuleError::StolenAlreadyHeld { treasure: Gold });
        let e = refused(&mut g, steal(Green, &[Gem], &[Gold]));
        assert!(matches!(e, RuleError::StolenNotToppled { treasure: Gold, .. }));
        let e = refused(&mut g, steal(Pink, &[Gold], &[Gold]));
        assert_eq!(e, RuleError::StolenFromOwnShip);
        let lines = g.apply(&steal(Green, &[Gold, Gem], &[Gem])).unwrap();
        assert!(
            lines.iter().any(|l| l == "The gold stays in the ocean."),
            "{lines:?}"
        );
        assert_eq!(loaded(&g, Pink), vec![Gold, Gem]);
        assert!(loaded(&g, Green).is_empty());
        // Only the Pirate steals.
        let mut g = new_game(&[Orange, Green, Pink], modules(true, false, false), "KBBBBBBB");
        play(&mut g, &[flick(Orange, Gold)]);
        let mut d = hit(Green, Orange, &[Gold]);
        if let super::super::event::Event::Drop(x) = &mut d {
            x.stolen = vec![Gold];
        }
        assert_eq!(refused(&mut g, d), RuleError::StealByNonPirate { player: Green });
    }

    #[test]
    fn a_steal_in_a_normal_attack_can_complete_the_pirates_set() {
        let mut g = new_game(&[Orange, Green, Pink], modules(true, false, true), "BKBBBB");
        for t in [Captain, Goblet, Gem, Chest] {
            play(&mut g, &[miss(Orange), miss(Green), island_canon(t)]);
        }
        play(
            &mut g,
            &[flick(Orange, Gold), miss(Green), canon(false), flick(Orange, Gem)],
        );
        assert_eq!(g.attack().unwrap().order, vec![Green, Pink, Orange]);
        play(&mut g, &[drop_(Green), steal(Orange, &[Gold, Gem], &[Gold])]);
        // The win is checked at the end of orange's turn, after the last drop.
        assert!(!g.is_over());
        play(&mut g, &[drop_(Orange)]);
        let end = g.ending().unwrap();
        assert_eq!(
            end.reason,
            EndReason::AllTypes {
                winners: vec![Pink],
                types: 5
            }
        );
        assert_eq!(end.ranking.entries[0].name, "pink");
        assert!(end.ranking.entries[0].winner);
    }
}
