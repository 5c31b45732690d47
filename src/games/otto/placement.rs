//! Placing a tile, and every rule that can forbid it ("Playing a tile" and "Examples of incorrect
//! tile placement" in the rulebook).
//!
//! [`check_placement`] answers "may this tile go here, and what does it score?" without changing
//! the board. It traces the arms once and runs the completion search (`completion.rs`), a few
//! microseconds on the 9 x 9 Ocean, so the app may call it for every square every frame.

use super::arm::{Arm, Blocker, trace_arms};
use super::board::{Board, Cell, Edge, OceanView, Side};
use super::completion::{Stranding, check_completable};
use super::scoring::{Points, score_tile};
use super::tile::{ArmTile, EndTile, Tile, TileKind};
use serde::{Deserialize, Serialize};

/// A tile put on a square.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Placement {
    pub cell: Cell,
    #[serde(flatten)]
    pub tile: Tile,
}

/// Why a tile may not go where it was put. The messages read like the rulebook.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error, Serialize, Deserialize)]
#[serde(tag = "rule", rename_all = "snake_case")]
pub enum IllegalReason {
    #[error("{cell} is not a square of the Ocean")]
    OffTheOcean { cell: Cell },
    #[error("{cell} is under the Otto tile")]
    OnOtto { cell: Cell },
    #[error("{cell} already holds a tile")]
    SquareTaken { cell: Cell },
    #[error(
        "this tile is not joined to a tile already in play: a tile must be placed against another tile already on the Ocean"
    )]
    NotAgainstATile { cell: Cell },
    #[error(
        "an Arm tile must start an arm next to the Otto tile or extend an arm from its last Arm tile, and {cell} is not where any arm goes on"
    )]
    ArmNotAtOpenEnd { cell: Cell },
    #[error(
        "an End tile must complete an arm by joining its last Arm tile, and {cell} is not where any arm goes on"
    )]
    EndNotAtOpenEnd { cell: Cell },
    #[error(
        "the open ends must join: the arm from socket {socket} reaches {cell} through its {expected} edge, but this tile joins through its {got} edge"
    )]
    OpenEndsDoNotJoin {
        socket: Cell,
        cell: Cell,
        expected: Edge,
        got: Edge,
    },
    #[error(
        "this tile has suckers on the opposite side to the arm it joins: the suckers must continue along the {arm} side of the arm from socket {socket}"
    )]
    SuckersSwapSides { socket: Cell, arm: Side, tile: Side },
    #[error(
        "this arm is not long enough: an arm must consist of at least 1 Arm tile before it can be completed with an End tile (the arm from socket {socket} has none yet)"
    )]
    EndBeforeArmTile { socket: Cell },
    #[error("the {species} fish needs to be placed on one of the outer perimeter of squares")]
    FishNotOnOuterRing { species: String, cell: Cell },
    #[error(
        "{socket} is where one of Otto's arms starts: only an Arm tile joining Otto may go there, or the arm could never be extended"
    )]
    SocketBlocked { socket: Cell },
    #[error(
        "this would make it impossible for the arm from socket {socket} to be completed by an End tile: its open end would face {blocker}"
    )]
    ArmBlocked { socket: Cell, blocker: Blocker },
    #[error(
        "a tile placed on {cell} would either stop an arm extending or join 2 arms together (the arms from sockets {socket_a} and {socket_b} would both go on there)"
    )]
    ArmsWouldMeet {
        socket_a: Cell,
        socket_b: Cell,
        cell: Cell,
    },
    #[error(
        "the arm from socket {socket} (not yet started) would be unable to be extended long enough: it needs room for at least 1 Arm tile and its End tile"
    )]
    NoRoomForArm { socket: Cell },
}

impl IllegalReason {
    /// A stable snake_case name for the rule, for JSON output and tests.
    pub fn rule(&self) -> &'static str {
        match self {
            IllegalReason::OffTheOcean { .. } => "off_the_ocean",
            IllegalReason::OnOtto { .. } => "on_otto",
            IllegalReason::SquareTaken { .. } => "square_taken",
            IllegalReason::NotAgainstATile { .. } => "not_against_a_tile",
            IllegalReason::ArmNotAtOpenEnd { .. } => "arm_not_at_open_end",
            IllegalReason::EndNotAtOpenEnd { .. } => "end_not_at_open_end",
            IllegalReason::OpenEndsDoNotJoin { .. } => "open_ends_do_not_join",
            IllegalReason::SuckersSwapSides { .. } => "suckers_swap_sides",
            IllegalReason::EndBeforeArmTile { .. } => "end_before_arm_tile",
            IllegalReason::FishNotOnOuterRing { .. } => "fish_not_on_outer_ring",
            IllegalReason::SocketBlocked { .. } => "socket_blocked",
            IllegalReason::ArmBlocked { .. } => "arm_blocked",
            IllegalReason::ArmsWouldMeet { .. } => "arms_would_meet",
            IllegalReason::NoRoomForArm { .. } => "no_room_for_arm",
        }
    }
}

impl From<Stranding> for IllegalReason {
    fn from(s: Stranding) -> IllegalReason {
        match s {
            Stranding::Blocked {
                socket,
                blocker: Blocker::Tile { cell },
            } if cell == socket => IllegalReason::SocketBlocked { socket },
            Stranding::Blocked { socket, blocker } => IllegalReason::ArmBlocked { socket, blocker },
            Stranding::OpenEndsMeet {
                socket_a,
                socket_b,
                cell,
            } => IllegalReason::ArmsWouldMeet {
                socket_a,
                socket_b,
                cell,
            },
            Stranding::NoRoom { socket } => IllegalReason::NoRoomForArm { socket },
        }
    }
}

/// May `placement` be made on `board`, and what does it score? Checks, in this order: the square
/// is on the Ocean, free, and against a tile (Otto counts); an Arm tile starts or extends an arm
/// at its open end, joining it, with the suckers on the arm's side; an End tile joins the last
/// Arm tile of an arm that has one; a fish that must go on the outer ring does; and afterwards
/// every arm can still be completed and no two arms are joined.
pub fn check_placement(board: &Board, placement: &Placement) -> Result<Points, IllegalReason> {
    let layout = board.layout();
    let cell = placement.cell;
    if !layout.contains(cell) {
        return Err(IllegalReason::OffTheOcean { cell });
    }
    if layout.is_otto(cell) {
        return Err(IllegalReason::OnOtto { cell });
    }
    if board.tile_at(cell).is_some() {
        return Err(IllegalReason::SquareTaken { cell });
    }
    let against = Edge::ALL
        .into_iter()
        .filter_map(|e| layout.neighbour(cell, e))
        .any(|n| layout.is_otto(n) || board.tile_at(n).is_some());
    if !against {
        return Err(IllegalReason::NotAgainstATile { cell });
    }
    let arm_here = board
        .arms()
        .iter()
        .find(|a| a.open_end().is_some_and(|o| o.cell == cell));
    let mut arm_tiles = 0;
    match &placement.tile {
        Tile::Arm(t) => {
            let arm = arm_here.ok_or(IllegalReason::ArmNotAtOpenEnd { cell })?;
            joins(arm, cell, t.from)?;
            if t.suckers != arm.suckers {
                return Err(IllegalReason::SuckersSwapSides {
                    socket: arm.socket_cell,
                    arm: arm.suckers,
                    tile: t.suckers,
                });
            }
        }
        Tile::End(e) => {
            let arm = arm_here.ok_or(IllegalReason::EndNotAtOpenEnd { cell })?;
            joins(arm, cell, e.from)?;
            if !arm.is_started() {
                return Err(IllegalReason::EndBeforeArmTile {
                    socket: arm.socket_cell,
                });
            }
            arm_tiles = arm.tiles.len() as u32;
        }
        Tile::Fish(f) => {
            if f.outer_ring_only && !layout.is_outer_ring(cell) {
                return Err(IllegalReason::FishNotOnOuterRing {
                    species: f.species.clone(),
                    cell,
                });
            }
        }
        Tile::Bubbles => {}
    }
    let view = OceanView::with(board, cell, &placement.tile);
    let after = trace_arms(&view);
    check_completable(&view, &after)?;
    Ok(score_tile(
        &placement.tile,
        arm_tiles,
        layout.is_seaweed(cell),
        layout.is_coral(cell),
    ))
}

fn joins(arm: &Arm, cell: Cell, from: Edge) -> Result<(), IllegalReason> {
    match arm.open_end() {
        Some(o) if o.from != from => Err(IllegalReason::OpenEndsDoNotJoin {
            socket: arm.socket_cell,
            cell,
            expected: o.from,
            got: from,
        }),
        _ => Ok(()),
    }
}

/// Every legal placement of a tile of this kind on `board` (every square and every way round).
pub fn legal_placements(board: &Board, kind: &TileKind) -> Vec<Placement> {
    let mut candidates = candidate_placements(board, kind);
    candidates.retain(|p| check_placement(board, p).is_ok());
    candidates
}

/// Can a tile of this kind go anywhere on `board`?
pub fn is_playable(board: &Board, kind: &TileKind) -> bool {
    candidate_placements(board, kind)
        .iter()
        .any(|p| check_placement(board, p).is_ok())
}

/// The placements worth checking: arm tiles and End tiles only at open ends, others anywhere.
fn candidate_placements(board: &Board, kind: &TileKind) -> Vec<Placement> {
    let mut candidates = Vec::new();
    match kind {
        TileKind::StraightArm | TileKind::CurveSuckersInside | TileKind::CurveSuckersOutside => {
            for arm in board.arms() {
                let Some(open) = arm.open_end() else { continue };
                for to in Edge::ALL.into_iter().filter(|&e| e != open.from) {
                    if let Ok(t) = ArmTile::new(open.from, to, arm.suckers) {
                        let tile = Tile::Arm(t);
                        if tile.kind() == *kind {
                            candidates.push(Placement {
                                cell: open.cell,
                                tile,
                            });
                        }
                    }
                }
            }
        }
        TileKind::PlainEnd | TileKind::ShellEnd => {
            let shell = *kind == TileKind::ShellEnd;
            for arm in board.arms() {
                if let Some(open) = arm.open_end() {
                    let tile = Tile::End(EndTile {
                        from: open.from,
                        shell,
                    });
                    candidates.push(Placement {
                        cell: open.cell,
                        tile,
                    });
                }
            }
        }
        TileKind::Fish(f) => {
            let tile = Tile::Fish(f.clone());
            candidates.extend(board.layout().cells().map(|cell| Placement {
                cell,
                tile: tile.clone(),
            }));
        }
        TileKind::Bubbles => {
            candidates.extend(board.layout().cells().map(|cell| Placement {
                cell,
                tile: Tile::Bubbles,
            }));
        }
    }
    candidates
}
