//! Otto's arms, traced from his sockets: the Arm tiles of each arm from Otto outwards, and how it
//! ends — open (the square where the next tile goes), completed by an End tile, or blocked.
//!
//! An arm follows its tiles: from a socket's square, through each Arm tile whose `from` edge
//! faces the previous tile (or Otto), leaving through its `to` edge. It ends at the first square
//! that does not continue it. On a legal board no arm is ever blocked; blocked arms appear only
//! while a placement is being judged.

use super::board::{Cell, Edge, OceanView, Side};
use super::tile::Tile;
use serde::{Deserialize, Serialize};

/// What stops an arm from going on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "blocker", rename_all = "snake_case")]
pub enum Blocker {
    /// The open end faces the edge of the Ocean.
    EdgeOfOcean,
    /// The open end faces the Otto tile.
    Otto,
    /// The open end faces a tile that does not continue the arm.
    Tile { cell: Cell },
}

impl std::fmt::Display for Blocker {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Blocker::EdgeOfOcean => f.write_str("the edge of the Ocean"),
            Blocker::Otto => f.write_str("the Otto tile"),
            Blocker::Tile { cell } => write!(f, "the tile on {cell}"),
        }
    }
}

/// How an arm ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "state", rename_all = "snake_case")]
pub enum ArmEnd {
    /// The next tile of the arm goes on `cell`, joining it through its `from` edge.
    Open { cell: Cell, from: Edge },
    /// An End tile on `cell` completes the arm.
    Completed { cell: Cell, shell: bool },
    /// The arm can go no further.
    Blocked { blocker: Blocker },
}

/// One of Otto's arms.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Arm {
    /// Index of the socket in the layout.
    pub socket: usize,
    /// The socket's square (where the arm's first Arm tile goes).
    pub socket_cell: Cell,
    /// The side of the suckers, looking along the arm away from Otto; fixed by the socket.
    pub suckers: Side,
    /// The squares of its Arm tiles, from Otto outwards.
    pub tiles: Vec<Cell>,
    pub end: ArmEnd,
}

impl Arm {
    /// Has the arm at least one Arm tile?
    pub fn is_started(&self) -> bool {
        !self.tiles.is_empty()
    }

    pub fn is_completed(&self) -> bool {
        matches!(self.end, ArmEnd::Completed { .. })
    }

    /// Where the arm's next tile goes, and the edge it joins through, if the arm is open.
    pub fn open_end(&self) -> Option<OpenEnd> {
        match self.end {
            ArmEnd::Open { cell, from } => Some(OpenEnd { cell, from }),
            _ => None,
        }
    }

    /// The squares the arm covers: its Arm tiles and its End tile.
    pub fn covered(&self) -> Vec<Cell> {
        let mut cells = self.tiles.clone();
        if let ArmEnd::Completed { cell, .. } = self.end {
            cells.push(cell);
        }
        cells
    }
}

/// The square where an open arm's next tile goes, and the edge that tile must join through.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OpenEnd {
    pub cell: Cell,
    pub from: Edge,
}

/// Traces every arm of the view, one per socket in the layout's order.
pub(crate) fn trace_arms(view: &OceanView<'_>) -> Vec<Arm> {
    let layout = view.layout();
    layout
        .sockets
        .iter()
        .enumerate()
        .map(|(socket, s)| {
            let mut tiles = Vec::new();
            let mut cell = s.cell;
            let mut from = s.from;
            // An arm can never be longer than the Ocean has squares; the bound only guards
            // against a malformed board looping.
            let end = loop {
                if tiles.len() > layout.cell_count() {
                    break ArmEnd::Blocked {
                        blocker: Blocker::Tile { cell },
                    };
                }
                match view.tile_at(cell) {
                    None => break ArmEnd::Open { cell, from },
                    Some(Tile::Arm(a)) if a.from == from => {
                        tiles.push(cell);
                        match layout.neighbour(cell, a.to) {
                            None => {
                                break ArmEnd::Blocked {
                                    blocker: Blocker::EdgeOfOcean,
                                };
                            }
                            Some(next) if layout.is_otto(next) => {
                                break ArmEnd::Blocked {
                                    blocker: Blocker::Otto,
                                };
                            }
                            Some(next) => {
                                cell = next;
                                from = a.to.opposite();
                            }
                        }
                    }
                    Some(Tile::End(e)) if e.from == from && !tiles.is_empty() => {
                        break ArmEnd::Completed { cell, shell: e.shell };
                    }
                    Some(_) => {
                        break ArmEnd::Blocked {
                            blocker: Blocker::Tile { cell },
                        };
                    }
                }
            };
            Arm {
                socket,
                socket_cell: s.cell,
                suckers: s.suckers,
                tiles,
                end,
            }
        })
        .collect()
}
