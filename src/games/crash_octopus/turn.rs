//! A sailor's turn: flick a treasure, or navigate.
//!
//! - Flick, missed: the turn ends. Hit and loaded: the treasure goes onto the ship, the crab steps
//!   over one bead (blue: end of turn; black: octopus attack). Own loaded treasures knocked off by the
//!   hit stay in the ocean for anyone to collect, and the crab does not move back. A hit that loads
//!   nothing (e.g. only a type the ship already holds reached it) ends the turn without a step.
//! - A type the ship already holds is never loaded (BAD No.2); a type with no piece left in the ocean
//!   cannot be loaded either. Which treasure may be flicked (BAD No.1, the closest one) is the
//!   referee's ruling on the table, not part of the event.
//! - Navigate: the anchor is flicked and the ship moved next to it; if the anchor leaves the ocean the
//!   navigation fails and the turn ends. With the Nameless Island the anchor may collect the island's
//!   treasure (`island.rs`).
//! - Accidental topples by a sailor's hand, flag or anchor are put back by the owner, and treasures
//!   knocked out of the ocean are dropped back over a head by the previous player: neither changes
//!   what is on the ships, so neither is an event.

use super::attack::AttackKind;
use super::beads::Bead;
use super::error::RuleError;
use super::event::{Flick, Navigate};
use super::game::Game;
use super::treasure::{the_types, verb};

impl Game {
    pub(super) fn flick(&mut self, f: &Flick, out: &mut Vec<String>) -> Result<(), RuleError> {
        let p = f.player;
        self.check_type_list("toppled", &f.toppled)?;
        self.check_on_ship("toppled", p, &f.toppled)?;
        if let Some(t) = f.loaded {
            self.check_loadable("loaded", p, t)?;
        }
        self.topple(p, &f.toppled);
        let toppled = the_types(&self.sorted(&f.toppled));
        let n = f.toppled.len();
        match f.loaded {
            None if f.toppled.is_empty() => {
                out.push(format!("{p} flicks and misses the ship: end of turn."));
                self.end_turn(out);
            }
            None => {
                out.push(format!(
                    "{p} hits its own ship but loads nothing; {toppled} {} into the ocean and {} there: end of turn.",
                    verb(n, "falls", "fall"),
                    verb(n, "stays", "stay")
                ));
                self.end_turn(out);
            }
            Some(t) => {
                self.load(p, t);
                if f.toppled.is_empty() {
                    out.push(format!("{p} loads the {t}."));
                } else {
                    out.push(format!(
                        "{p} loads the {t}; {toppled} toppled off the ship and {} in the ocean.",
                        verb(n, "stays", "stay")
                    ));
                }
                self.step_crab(out);
            }
        }
        Ok(())
    }

    pub(super) fn navigate(&mut self, n: &Navigate, out: &mut Vec<String>) -> Result<(), RuleError> {
        let p = n.player;
        if let Some(t) = n.island {
            self.check_island(p, t, n.failed, n.closest_to_island)?;
        }
        if n.failed {
            out.push(format!(
                "{p}'s anchor left the ocean: the navigation failed, the anchor goes back and the ship stays: end of turn."
            ));
            self.end_turn(out);
            return Ok(());
        }
        out.push(format!("{p} navigates: the ship moves next to its anchor."));
        match n.island {
            Some(t) => {
                let moves_crab = self.collect_from_island(p, t, n.closest_to_island, out);
                if moves_crab {
                    self.step_crab(out);
                } else {
                    self.end_turn(out);
                }
            }
            None => {
                out.push(format!("End of {p}'s turn."));
                self.end_turn(out);
            }
        }
        Ok(())
    }

    /// The crab steps over one bead after a load by a sailor: blue ends the turn, black starts an
    /// octopus attack (the final one when it was the last bead).
    pub(super) fn step_crab(&mut self, out: &mut Vec<String>) {
        let p = self.active_player();
        let total = self.counter.beads().len();
        match self.counter.step() {
            None => self.end_turn(out),
            Some(step) => match step.bead {
                Bead::Blue => {
                    out.push(format!(
                        "The crab steps over bead {} of {total} (blue): end of {p}'s turn.",
                        step.number
                    ));
                    self.end_turn(out);
                }
                Bead::Black => {
                    let kind = if step.reached_end {
                        AttackKind::Final
                    } else {
                        AttackKind::Counter
                    };
                    out.push(format!(
                        "The crab steps over bead {} of {total} (black): octopus attack!",
                        step.number
                    ));
                    self.start_attack(kind, p, None, out);
                }
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::error::RuleError;
    use super::super::game::Next;
    use super::super::testkit::*;
    use crate::games::crash_octopus::{PlayerColor::*, TreasureType::*};

    const BEADS: &str = "BBBKBBBKBBKBBKKK";

    #[test]
    fn a_load_steps_the_crab_and_a_blue_bead_ends_the_turn() {
        let mut g = new_game(&[Orange, Green], modules(false, false, false), BEADS);
        assert_eq!(g.next(), Next::Turn { player: Orange });
        let lines = g.apply(&flick(Orange, Gold)).unwrap();
        assert!(
            lines.iter().any(|l| l.contains("bead 1 of 16 (blue)")),
            "{lines:?}"
        );
        assert_eq!(g.counter().crab(), 1);
        assert_eq!(loaded(&g, Orange), vec![Gold]);
        assert_eq!(g.ocean().count(Gold), 2);
        assert_eq!(g.next(), Next::Turn { player: Green });
        assert_eq!(g.turn(), 2);
    }

    #[test]
    fn a_miss_or_a_navigation_ends_the_turn_without_moving_the_crab() {
        let mut g = new_game(&[Orange, Green, Blue], modules(false, false, false), BEADS);
        play(&mut g, &[miss(Orange), navigate(Green)]);
        assert_eq!(g.counter().crab(), 0);
        assert_eq!(g.next(), Next::Turn { player: Blue });
        let failed = super::super::event::Event::Navigate(super::super::event::Navigate {
            player: Blue,
            failed: true,
            island: None,
            closest_to_island: None,
        });
        let lines = g.apply(&failed).unwrap();
        assert!(lines[0].contains("navigation failed"));
        assert_eq!(g.next(), Next::Turn { player: Orange });
        assert_eq!(g.turn(), 4);
    }

    #[test]
    fn own_toppled_treasures_stay_in_the_ocean_and_the_crab_never_moves_back() {
        let mut g = new_game(&[Orange, Green], modules(false, false, false), BEADS);
        play(
            &mut g,
            &[
                flick(Orange, Gold),
                miss(Green),
                flick(Orange, Gem),
                miss(Green),
                flick_toppling(Orange, Some(Chest), &[Gold, Gem]),
            ],
        );
        assert_eq!(loaded(&g, Orange), vec![Chest]);
        assert_eq!(g.ocean().count(Gold), 3);
        assert_eq!(g.ocean().count(Gem), 3);
        assert_eq!(g.counter().crab(), 3);
        // A hit that loads nothing but topples: no step, the treasures stay in the ocean.
        play(&mut g, &[miss(Green), flick_toppling(Orange, None, &[Chest])]);
        assert!(loaded(&g, Orange).is_empty());
        assert_eq!(g.counter().crab(), 3);
        assert_eq!(g.next(), Next::Turn { player: Green });
    }

    #[test]
    fn bad_no_2_a_ship_never_loads_a_type_twice() {
        let mut g = new_game(&[Orange, Green], modules(false, false, false), BEADS);
        play(&mut g, &[flick(Orange, Gold), miss(Green)]);
        let e = refused(&mut g, flick(Orange, Gold));
        assert_eq!(
            e,
            RuleError::AlreadyLoaded {
                field: "loaded",
                player: Orange,
                treasure: Gold
            }
        );
        assert!(e.to_string().contains("BAD No.2"));
        // Not even when the gold on board topples in the same flick.
        let e = refused(&mut g, flick_toppling(Orange, Some(Gold), &[Gold]));
        assert!(matches!(e, RuleError::AlreadyLoaded { .. }));
    }

    #[test]
    fn treasures_are_conserved_a_type_with_no_piece_left_cannot_be_loaded() {
        let mut setup = super::super::setup::Setup::new(
            vec![Orange, Green],
            modules(false, false, false),
            Some(BEADS.parse().unwrap()),
            None,
            &data(),
        )
        .unwrap();
        setup.treasures.per_type = 1;
        let mut g = super::super::game::Game::new(setup).unwrap();
        play(&mut g, &[flick(Orange, Gold)]);
        let e = refused(&mut g, flick(Green, Gold));
        assert_eq!(
            e.to_string(),
            "`loaded`: no gold is left in the ocean (all 1 are on ships: orange); expected a type still in the ocean"
        );
        assert_eq!(g.loadable(Green), vec![Captain, Goblet, Gem, Chest]);
    }

    #[test]
    fn toppled_must_be_on_the_ship_once_and_in_play() {
        let mut g = new_game(&[Orange, Green], modules(false, false, false), BEADS);
        play(&mut g, &[flick(Orange, Gold), miss(Green)]);
        let e = refused(&mut g, flick_toppling(Orange, Some(Gem), &[Chest]));
        assert_eq!(
            e,
            RuleError::NotOnShip {
                field: "toppled",
                ship: Orange,
                treasure: Chest,
                loaded: "gold".into()
            }
        );
        let e = refused(&mut g, flick_toppling(Orange, Some(Gem), &[Gold, Gold]));
        assert!(matches!(
            e,
            RuleError::ListedTwice {
                field: "toppled",
                treasure: Gold
            }
        ));
        let e = refused(&mut g, flick(Orange, Rose));
        assert!(e.to_string().contains("the rose is not in this game"), "{e}");
    }

    #[test]
    fn events_out_of_turn_say_what_was_expected() {
        let mut g = new_game(&[Orange, Green], modules(false, false, false), BEADS);
        let e = refused(&mut g, flick(Green, Gold));
        assert_eq!(
            e,
            RuleError::NotYourTurn {
                expected: Orange,
                got: Green,
                action: "flick or navigate"
            }
        );
        assert_eq!(
            e.to_string(),
            "it is orange's turn, not green's; expected a flick or navigate by orange"
        );
        let e = refused(&mut g, drop_(Orange));
        assert_eq!(
            e.to_string(),
            "no octopus attack is under way, so nobody drops the ink die; expected a flick or navigate by orange"
        );
        let e = refused(&mut g, flick(Blue, Gold));
        assert!(matches!(
            e,
            RuleError::UnknownPlayer {
                player: Blue,
                field: "player",
                ..
            }
        ));
        assert!(e.to_string().contains("expected one of orange, green"));
        let e = refused(&mut g, canon(true));
        assert!(matches!(e, RuleError::UnknownPlayer { player: Pink, .. }));
    }
}
