//! Pieces out of the ocean, and what the rulebook says happens to them.
//!
//! - Treasures: "If any treasure goes out of the ocean area as a result of your flicking ... the
//!   previous player (in playing order) takes that treasure and drops it over the octopus head"
//!   ("if there are multiple, drop them all at once"); "Even if a treasure that hits your ship goes
//!   out of the ocean area, you may still load it". The same holds for the Octopus Attack. At
//!   set-up, every treasure is outside and the first player drops them all.
//! - "If a tentacle or a ship goes out of the ocean area, immediately put it back inside in a
//!   location that is closest to the place it went out."
//! - Anchor: "If the anchor gets knocked out of the ocean area, the navigation has failed. Put the
//!   anchor back in its original location and end your turn." The Octo-Canon likewise, and the
//!   Pirate's turn ends with no octopus attack.
//!
//! A piece is out of the ocean when its footprint centre is (table.md). The crab and the beads sit
//! on the string and are never out; a loaded treasure travels with its ship and is never listed.
//! The ink die, the heads and the island are listed without a message: the rulebook gives them no
//! out-of-ocean rule outside an attack (and the die waits outside between attacks).

use super::context::GameContext;
use super::rulings::Redrop;
use super::words;
use crate::table::{PieceKind, PieceReport};

/// The out-of-ocean part of the rulings.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct OutOfOcean {
    pub ids: Vec<String>,
    pub redrop: Option<Redrop>,
    pub put_back: Vec<String>,
    pub messages: Vec<String>,
}

/// A piece with its in-the-ocean flag, as judged against the ocean polygon.
#[derive(Debug, Clone, Copy)]
pub struct Placed<'a> {
    pub piece: &'a PieceReport,
    pub in_ocean: bool,
}

/// Rules on every piece outside the ocean.
pub fn out_of_ocean(pieces: &[Placed<'_>], ctx: &GameContext) -> OutOfOcean {
    let mut out = OutOfOcean::default();
    let mut lost_treasures: Vec<&PieceReport> = Vec::new();
    let mut treasures_inside = 0usize;
    for placed in pieces {
        let p = placed.piece;
        let loaded = p.piece == PieceKind::Treasure && p.loaded_on.is_some();
        if matches!(p.piece, PieceKind::Crab | PieceKind::Bead) || loaded {
            continue;
        }
        if placed.in_ocean {
            if p.piece == PieceKind::Treasure {
                treasures_inside += 1;
            }
            continue;
        }
        out.ids.push(p.id.clone());
        let name = words::capitalise(&words::piece(p.piece, p.color, &p.id));
        match p.piece {
            PieceKind::Treasure => lost_treasures.push(p),
            PieceKind::Ship | PieceKind::PirateShip | PieceKind::Tentacle => {
                out.put_back.push(p.id.clone());
                out.messages.push(format!(
                    "{name} is out of the ocean: put it back inside at once, as close as possible \
                     to where it went out."
                ));
            }
            PieceKind::Anchor => {
                let whose = p
                    .color
                    .map_or_else(|| "the player".to_string(), |c| c.to_string());
                out.messages.push(format!(
                    "{name} is out of the ocean: if it was just flicked to navigate, the \
                     navigation failed — put it back where it was, and {whose}'s turn ends."
                ));
            }
            PieceKind::OctoCanon => out.messages.push(format!(
                "{name} is out of the ocean: if the Pirate just flicked it, the navigation failed \
                 — put it back where it was, leave the pirate ship, and the turn ends with no \
                 octopus attack."
            )),
            _ => {}
        }
    }
    let any_loaded = pieces
        .iter()
        .any(|pl| pl.piece.piece == PieceKind::Treasure && pl.piece.loaded_on.is_some());
    if !lost_treasures.is_empty() {
        let setup = treasures_inside == 0 && !any_loaded;
        let ids: Vec<String> = lost_treasures.iter().map(|t| t.id.clone()).collect();
        let names: Vec<String> = lost_treasures
            .iter()
            .map(|t| words::treasure(&t.id, t.treasure))
            .collect();
        let by = if setup {
            None
        } else {
            ctx.active.and_then(|a| ctx.previous_player(a))
        };
        let head = if ctx.modules.little_octopus {
            "the octopus head (or Little Octopus's)"
        } else {
            "the octopus head"
        };
        let (them, together) = if ids.len() == 1 {
            ("it", "")
        } else {
            ("them", " together")
        };
        let message = if setup {
            format!(
                "Set-up: every treasure is outside the ocean. The first player drops them all \
                 together over {head}; any that land outside are gathered and dropped again."
            )
        } else {
            let who = match (by, ctx.active) {
                (Some(b), Some(a)) => format!("{}, the player before {a},", words::player_cap(b)),
                _ => "The player before the one whose flick (or die) sent it out".to_string(),
            };
            let mut m = format!(
                "Out of the ocean: {}. {who} drops {them}{together} over {head}.",
                words::and_list(&names)
            );
            if let Some(a) = ctx.active.filter(|a| !a.is_pirate()) {
                m.push_str(&format!(
                    " (A treasure that hit {a}'s ship on its way out may be loaded by {a} instead.)"
                ));
            }
            m
        };
        out.messages.insert(0, message);
        out.redrop = Some(Redrop { by, ids, setup });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::crash_octopus::{PlayerColor, TreasureType};
    use crate::table::{PointMm, PolygonMm};
    use PlayerColor::*;

    fn piece(id: &str, kind: PieceKind) -> PieceReport {
        PieceReport {
            treasure: (kind == PieceKind::Treasure).then_some(TreasureType::Gold),
            color: matches!(kind, PieceKind::Ship | PieceKind::Anchor).then_some(Orange),
            ..PieceReport::placed(id, kind, PointMm::default(), PolygonMm::default())
        }
    }

    #[test]
    fn the_previous_player_redrops_and_ships_go_back_at_once() {
        let pieces = [
            piece("p1", PieceKind::Treasure),
            piece("p2", PieceKind::Treasure),
            piece("p3", PieceKind::Ship),
            piece("p4", PieceKind::Crab),
            piece("p5", PieceKind::Tentacle),
            piece("p6", PieceKind::InkDie),
        ];
        let mut placed: Vec<Placed> = pieces
            .iter()
            .map(|p| Placed {
                piece: p,
                in_ocean: false,
            })
            .collect();
        placed[1].in_ocean = true;
        let mut ctx = GameContext::with_players(vec![Orange, Green, Blue]);
        ctx.active = Some(Orange);
        let out = out_of_ocean(&placed, &ctx);
        assert_eq!(out.ids, vec!["p1", "p3", "p5", "p6"]);
        assert_eq!(out.put_back, vec!["p3", "p5"]);
        let redrop = out.redrop.unwrap();
        assert_eq!(redrop.by, Some(Blue));
        assert!(!redrop.setup);
        assert!(
            out.messages[0].starts_with(
                "Out of the ocean: the gold (p1). Blue, the player before orange, drops it over the octopus head."
            ),
            "{}",
            out.messages[0]
        );
        assert!(
            out.messages[1].contains("the orange ship (p3) is out of the ocean")
                || out.messages[1].starts_with("The orange ship (p3) is out of the ocean")
        );
    }

    #[test]
    fn at_set_up_the_first_player_drops_everything() {
        let pieces = [piece("p1", PieceKind::Treasure), piece("p2", PieceKind::Treasure)];
        let placed: Vec<Placed> = pieces
            .iter()
            .map(|p| Placed {
                piece: p,
                in_ocean: false,
            })
            .collect();
        let out = out_of_ocean(&placed, &GameContext::default());
        let redrop = out.redrop.unwrap();
        assert!(redrop.setup && redrop.by.is_none());
        assert!(out.messages[0].starts_with("Set-up:"));
    }
}
