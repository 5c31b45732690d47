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
