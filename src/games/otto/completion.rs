//! Can every arm still be completed? "A tile must never be placed in such a way as to make it
//! impossible for an arm to be extended or completed or so that 2 arms are joined together."
//!
//! Every arm that is not complete — started or not yet started — must be completable at the same
//! time, on free squares, with no square serving two arms. An arm with at least one Arm tile
//! needs only its open end's square (an End tile completes it there). An arm not yet started
//! needs its socket's square for its first Arm tile and one more free square beside it for the
//! End tile, since "an arm must consist of at least 1 Arm tile before it can be completed".
//! Longer paths never help: any arm that can be completed at all can be completed this shortly.
//! So the search is a matching of the unstarted arms to distinct free squares beside their
//! sockets, once no two arms' open ends share a square (a tile there would either stop one arm or
//! join both). Whatever shape the squares take, any such path can be laid with the tiles' shapes
//! (straight or a bend left or right), so the search is over squares alone; it does not count the
//! tiles left in the box.

use super::arm::{Arm, ArmEnd, Blocker};
use super::board::{Cell, Edge, OceanView};
use serde::{Deserialize, Serialize};

/// Why some arm could no longer be extended and completed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "stranding", rename_all = "snake_case")]
pub enum Stranding {
    /// An arm's open end faces the edge of the Ocean, Otto, or a tile that does not continue it.
    Blocked { socket: Cell, blocker: Blocker },
    /// Two arms' next tiles would go on the same square: a tile there would either stop one arm
    /// extending or join both arms together.
    OpenEndsMeet {
        socket_a: Cell,
        socket_b: Cell,
        cell: Cell,
    },
    /// An arm not yet started has no room left for one Arm tile and its End tile.
    NoRoom { socket: Cell },
}

/// Checks that all incomplete arms can be completed together (see the module doc).
/// `arms` must be the arms traced on `view`.
pub(crate) fn check_completable(view: &OceanView<'_>, arms: &[Arm]) -> Result<(), Stranding> {
    // Two arms can only come to be joined through a square both would go on next (reported
    // below); an arm whose end faces another arm's tile is blocked by it.
    for a in arms {
        if let ArmEnd::Blocked { blocker } = a.end {
            return Err(Stranding::Blocked {
                socket: a.socket_cell,
                blocker,
            });
        }
    }
    let open: Vec<(&Arm, Cell, Edge)> = arms
        .iter()
        .filter_map(|a| a.open_end().map(|o| (a, o.cell, o.from)))
        .collect();
    for (i, (a, cell, _)) in open.iter().enumerate() {
        if let Some((b, _, _)) = open[..i].iter().find(|(_, c, _)| c == cell) {
            return Err(Stranding::OpenEndsMeet {
                socket_a: b.socket_cell,
                socket_b: a.socket_cell,
                cell: *cell,
            });
        }
    }
    // Unstarted arms: each needs one more free square beside its socket, not wanted by any other
    // arm. Candidates exclude every open end (those squares are spoken for).
    let layout = view.layout();
    let claimed: Vec<Cell> = open.iter().map(|(_, c, _)| *c).collect();
    let unstarted: Vec<(&Arm, Vec<Cell>)> = open
        .iter()
        .filter(|(a, _, _)| !a.is_started())
        .map(|&(a, cell, from)| {
            let room = Edge::ALL
                .into_iter()
                .filter(|&e| e != from)
                .filter_map(|e| layout.neighbour(cell, e))
                .filter(|&n| view.is_free(n) && !claimed.contains(&n))
                .collect();
            (a, room)
        })
        .collect();
    let candidates: Vec<Vec<Cell>> = unstarted.iter().map(|(_, room)| room.clone()).collect();
    if let Some(stuck) = unmatched(&candidates) {
        let socket = unstarted
            .get(stuck)
            .map_or(Cell::new(0, 0), |(a, _)| a.socket_cell);
        return Err(Stranding::NoRoom { socket });
    }
    Ok(())
}

/// Finds a choice of one distinct square per arm from its candidates (a bipartite matching by
/// augmenting paths). Returns the index of an arm left without a square, or None if all got one.
fn unmatched(candidates: &[Vec<Cell>]) -> Option<usize> {
    let mut owner: Vec<(Cell, usize)> = Vec::new();
    for arm in 0..candidates.len() {
        let mut visited = Vec::new();
        if !augment(arm, candidates, &mut owner, &mut visited) {
            return Some(arm);
        }
    }
    None
}

fn augment(
    arm: usize,
    candidates: &[Vec<Cell>],
    owner: &mut Vec<(Cell, usize)>,
    visited: &mut Vec<Cell>,
) -> bool {
    let Some(room) = candidates.get(arm) else {
        return false;
    };
    for &cell in room {
        if visited.contains(&cell) {
            continue;
        }
        visited.push(cell);
        let current = owner.iter().position(|&(c, _)| c == cell);
        let free = match current {
            None => true,
            Some(k) => {
                let other = owner[k].1;
                augment(other, candidates, owner, visited)
            }
        };
        if free {
            // The recursive call may have reassigned other squares; this one is ours now.
            owner.retain(|&(c, _)| c != cell);
            owner.push((cell, arm));
            return true;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c(x: u8, y: u8) -> Cell {
        Cell::new(x, y)
    }

    #[test]
    fn matching_finds_a_square_for_each_arm_when_it_can() {
        // Arm 0 could take a or b, arm 1 only a: arm 0 must give way.
        let a = c(2, 2);
        let b = c(3, 1);
        assert_eq!(unmatched(&[vec![a, b], vec![a]]), None);
        assert_eq!(unmatched(&[vec![a], vec![a, b]]), None);
        assert_eq!(unmatched(&[vec![a], vec![a]]), Some(1));
        assert_eq!(unmatched(&[vec![], vec![a]]), Some(0));
        assert_eq!(unmatched(&[vec![a, b], vec![a, b], vec![b]]), Some(2));
    }
}
