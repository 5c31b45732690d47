//! Little Octopus (module): a second, smaller octopus head.
//!
//! - A drop of the ink die may aim at either head (`drop.head`, the giant's when left out).
//! - Red on top moves the head the die was dropped on; when the Pink Pirate plays too, red lets the
//!   player move either head.
//! - The Pirate's solo attack drops only on the head its canon touched (`canon.head`).
//! - A treasure put back into the ocean may be dropped over either head: not an event.
//!
//! Without the module `head` may only be `giant`.

use super::error::RuleError;
use super::event::Head;
use super::game::Game;

impl Game {
    /// The head named by an event, checked against the module.
    pub(super) fn check_head_module(&self, head: Option<Head>) -> Result<Head, RuleError> {
        match head {
            Some(Head::Little) if !self.setup.modules.little_octopus => Err(RuleError::ModuleOff {
                field: "head",
                module: "little_octopus",
            }),
            h => Ok(h.unwrap_or_default()),
        }
    }

    /// The head a drop aims at; in the Pirate's solo attack it must be the one its canon touched.
    pub(super) fn check_drop_head(
        &self,
        head: Option<Head>,
        solo_head: Option<Head>,
    ) -> Result<Head, RuleError> {
        let got = self.check_head_module(head)?;
        match solo_head {
            Some(touched) if touched != got => Err(RuleError::WrongHead { touched, got }),
            _ => Ok(got),
        }
    }

    /// What red on top lets the dropper move.
    pub(super) fn red_top_move(&self, dropped_on: Head) -> String {
        let m = self.setup.modules;
        if !m.little_octopus {
            "move the octopus head next to the die".into()
        } else if m.pink_pirate {
            "move either octopus head (the giant's or Little Octopus's) next to the die".into()
        } else {
            format!("move {dropped_on} next to the die")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::event::{Canon, DieTop};
    use super::super::game::Next;
    use super::super::testkit::*;
    use super::*;
    use crate::games::crash_octopus::{PlayerColor::*, TreasureType::Gold};

    #[test]
    fn red_moves_the_head_the_die_was_dropped_on() {
        let mut g = new_game(&[Orange, Green], modules(false, true, false), "KBBBB");
        play(&mut g, &[flick(Orange, Gold)]);
        let l = g
            .apply(&drop_top(Green, DieTop::Red, Some(Head::Little)))
            .unwrap();
        assert!(
            l[0].contains("red on top: move Little Octopus's head next to the die"),
            "{l:?}"
        );
        let l = g.apply(&drop_top(Orange, DieTop::Red, None)).unwrap();
        assert!(
            l[0].contains("move the giant octopus's head next to the die"),
            "{l:?}"
        );
    }

    #[test]
    fn with_the_pirate_red_moves_either_head() {
        let mut g = new_game(&[Orange, Green, Pink], modules(true, true, false), "KBBBB");
        play(&mut g, &[flick(Orange, Gold)]);
        let l = g.apply(&drop_top(Green, DieTop::Red, Some(Head::Giant))).unwrap();
        assert!(l[0].contains("move either octopus head"), "{l:?}");
    }

    #[test]
    fn the_pirates_solo_attack_drops_only_on_the_head_its_canon_touched() {
        let mut g = new_game(&[Orange, Green, Pink], modules(true, true, false), "BBBBB");
        play(&mut g, &[miss(Orange), miss(Green)]);
        let e = refused(
            &mut g,
            canon_full(Canon {
                head: Some(Head::Little),
                ..canon_struct()
            }),
        );
        assert_eq!(e, RuleError::HeadWithoutTouch);
        play(
            &mut g,
            &[canon_full(Canon {
                touched_head: true,
                head: Some(Head::Little),
                ..canon_struct()
            })],
        );
        assert_eq!(g.attack().unwrap().solo_head, Some(Head::Little));
        let e = refused(&mut g, drop_(Pink));
        assert_eq!(
            e,
            RuleError::WrongHead {
                touched: Head::Little,
                got: Head::Giant
            }
        );
        assert!(
            e.to_string()
                .contains("only on the head its canon touched (Little Octopus's head)")
        );
        play(&mut g, &[drop_top(Pink, DieTop::Black, Some(Head::Little))]);
        assert_eq!(g.next(), Next::Turn { player: Orange });
    }

    #[test]
    fn without_the_module_only_the_giant_head_exists() {
        let mut g = new_game(&[Orange, Green, Pink], modules(true, false, false), "BBBBB");
        play(&mut g, &[miss(Orange), miss(Green)]);
        let e = refused(
            &mut g,
            canon_full(Canon {
                touched_head: true,
                head: Some(Head::Little),
                ..canon_struct()
            }),
        );
        assert_eq!(
            e,
            RuleError::ModuleOff {
                field: "head",
                module: "little_octopus"
            }
        );
        play(
            &mut g,
            &[
                canon_full(Canon {
                    touched_head: true,
                    head: Some(Head::Giant),
                    ..canon_struct()
                }),
                drop_top(Pink, DieTop::Red, Some(Head::Giant)),
            ],
        );
        assert_eq!(g.next(), Next::Turn { player: Orange });
    }
}
