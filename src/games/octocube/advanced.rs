//! Advanced version (rulebook, "Advanced Version"): Abyss tiles lie Power side up; a player may
//! trigger the power of one Abyss tile adjacent to their cube instead of an action, or of the
//! Abyss tile their cube just rolled onto.
//!
//! Readings where the rulebook is short: a power's tile going to the player board must match a
//! board space, so a coin can be neither swapped onto the board (B, F) nor taken from it; a cube
//! that power C, E or G sets down comes to rest there (magnetism applies); power D, like a roll,
//! puts an Abyss tile where it takes a stack's last tile; power H swaps any two unoccupied spaces
//! (a stack or an Abyss tile, which the rulebook counts as a stack).

use super::cube::{Orientation, Position};
use super::game::{Board, CubeLocation, Event, Game, RuleError, Version};
use super::play_area::{Cell, Direction, Space};
use super::tile::{ObjectTile, Power, Tile};
use serde::{Deserialize, Serialize};

/// What a triggered power does, with the player's choices. Seats are indexes into
/// [`Game::players`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum PowerUse {
    /// A: perform the Roll action.
    Roll { direction: Direction },
    /// B: swap the cube's top tile with this tile from the player board.
    SwapTopWithBoard { board_tile: ObjectTile },
    /// C: move the cube, orientation unchanged, to any unoccupied space.
    Relocate { cell: Cell },
    /// D: take the visible tile at `cell` onto the cube's empty top face.
    TakeTile { cell: Cell },
    /// E: turn the cube any way, on its space.
    Reorient { orientation: Orientation },
    /// F: swap the visible tile at the adjacent `cell` with this tile from the player board.
    SwapAdjacentWithBoard { cell: Cell, board_tile: ObjectTile },
    /// G: swap places with this opponent's cube.
    SwapCubes { seat: usize },
    /// H: swap two unoccupied stacks.
    SwapStacks { a: Cell, b: Cell },
    /// I: swap the cube's top tile with the top tile of this opponent's cube.
    SwapTopTiles { seat: usize },
}

impl PowerUse {
    /// The letter of the power this is.
    pub fn power(&self) -> Power {
        match self {
            PowerUse::Roll { .. } => Power::A,
            PowerUse::SwapTopWithBoard { .. } => Power::B,
            PowerUse::Relocate { .. } => Power::C,
            PowerUse::TakeTile { .. } => Power::D,
            PowerUse::Reorient { .. } => Power::E,
            PowerUse::SwapAdjacentWithBoard { .. } => Power::F,
            PowerUse::SwapCubes { .. } => Power::G,
            PowerUse::SwapStacks { .. } => Power::H,
            PowerUse::SwapTopTiles { .. } => Power::I,
        }
    }
}

fn cannot(power: Power, why: impl std::fmt::Display) -> RuleError {
    RuleError::Invalid(format!("power {power}: {why}"))
}

impl Game {
    pub(super) fn use_power(
        &mut self,
        at: Cell,
        effect: &PowerUse,
        abyss: Option<Power>,
        landed: bool,
        ev: &mut Vec<Event>,
    ) -> Result<(), RuleError> {
        if self.version != Version::Advanced {
            return Err(RuleError::WrongVersion {
                action: "an Abyss power",
                version: self.version,
            });
        }
        let seat = self.current;
        let cube_cell = self.players[seat].cube_cell().ok_or(RuleError::MustEnter)?;
        let tile = match self.space(at)? {
            Space::Abyss(a) if a.power_side_up => *a,
            _ => {
                return Err(RuleError::Invalid(format!(
                    "there is no Abyss tile Power side up at {at}"
                )));
            }
        };
        if landed {
            if at != cube_cell {
                return Err(RuleError::Invalid(format!(
                    "your cube rolled onto {cube_cell}, not {at}"
                )));
            }
        } else if !self.play_area.is_adjacent(cube_cell, at) {
            return Err(RuleError::Invalid(format!(
                "the Abyss tile at {at} is not adjacent to your cube at {cube_cell}"
            )));
        }
        let power = effect.power();
        if power != tile.power {
            return Err(RuleError::Invalid(format!(
                "the Abyss tile at {at} has power {}, not {power}",
                tile.power
            )));
        }
        self.check_abyss_choice(abyss)?;
        ev.push(Event::PowerUsed {
            player: seat,
            cell: at,
            power,
        });
        match effect {
            PowerUse::Roll { direction } => self.roll(*direction, abyss, None, ev),
            PowerUse::SwapTopWithBoard { board_tile } => {
                let top = self.players[seat].cube.tile_at(Position::Top);
                let top = match top {
                    None => return Err(cannot(power, "the top face of your cube has no tile")),
                    Some(Tile::Coin) => {
                        return Err(cannot(power, "a coin has no space on the player board"));
                    }
                    Some(Tile::Object(t)) => t,
                };
                let player = &mut self.players[seat];
                let Board::Basic(board) = &mut player.board else {
                    return Err(cannot(power, "no player board"));
                };
                if !board.remove(*board_tile) {
                    return Err(cannot(power, format!("no {board_tile} tile on your board")));
                }
                board.add(top);
                player
                    .cube
                    .replace(Position::Top, Some(Tile::Object(*board_tile)));
                Ok(())
            }
            PowerUse::Relocate { cell } => {
                self.space(*cell)?;
                if self.is_occupied(*cell) {
                    return Err(RuleError::Occupied { cell: *cell });
                }
                self.leave_space(seat, abyss, ev);
                self.players[seat].location = CubeLocation::PlayArea(*cell);
                self.come_to_rest(seat, ev);
                Ok(())
            }
            PowerUse::TakeTile { cell } => {
                if self.players[seat].cube.tile_at(Position::Top).is_some() {
                    return Err(cannot(power, "the top face of your cube already has a tile"));
                }
                if self.is_occupied(*cell) {
                    return Err(cannot(power, format!("the tile at {cell} is under a cube")));
                }
                let Some(Space::Stack(tiles)) = self.play_area.space_mut(*cell) else {
                    return Err(cannot(power, format!("no tile to take at {cell}")));
                };
                let Some(t) = tiles.pop() else {
                    return Err(cannot(power, format!("no tile to take at {cell}")));
                };
                let emptied = tiles.is_empty();
                let _ = self.players[seat].cube.attach(Position::Top, t);
                ev.push(Event::Took {
                    player: seat,
                    cell: *cell,
                    tile: t,
                    position: Position::Top,
                });
                if emptied {
                    self.place_abyss(*cell, abyss, ev);
                }
                Ok(())
            }
            PowerUse::Reorient { orientation } => {
                self.players[seat].cube.orientation = *orientation;
                self.come_to_rest(seat, ev);
                Ok(())
            }
            PowerUse::SwapAdjacentWithBoard { cell, board_tile } => {
                if !self.play_area.is_adjacent(cube_cell, *cell) || self.is_occupied(*cell) {
                    return Err(cannot(
                        power,
                        format!("{cell} is not an unoccupied space adjacent to your cube"),
                    ));
                }
                let visible = self.space(*cell)?.top_tile();
                let taken = match visible {
                    Some(Tile::Object(t)) => t,
                    Some(Tile::Coin) => {
                        return Err(cannot(power, "a coin has no space on the player board"));
                    }
                    None => return Err(cannot(power, format!("no tile at {cell}"))),
                };
                let Board::Basic(board) = &mut self.players[seat].board else {
                    return Err(cannot(power, "no player board"));
                };
                if !board.remove(*board_tile) {
                    return Err(cannot(power, format!("no {board_tile} tile on your board")));
                }
                board.add(taken);
                if let Some(Space::Stack(tiles)) = self.play_area.space_mut(*cell) {
                    tiles.pop();
                    tiles.push(Tile::Object(*board_tile));
                }
                Ok(())
            }
            PowerUse::SwapCubes { seat: other } => {
                let other = *other;
                let other_cell = self
                    .players
                    .get(other)
                    .and_then(|p| p.cube_cell())
                    .filter(|_| other != seat)
                    .ok_or_else(|| cannot(power, format!("seat {other} has no cube in the play area")))?;
                self.leave_space(seat, abyss, ev);
                self.leave_space(other, None, ev);
                self.players[seat].location = CubeLocation::PlayArea(other_cell);
                self.players[other].location = CubeLocation::PlayArea(cube_cell);
                self.come_to_rest(seat, ev);
                self.come_to_rest(other, ev);
                Ok(())
            }
            PowerUse::SwapStacks { a, b } => {
                for c in [a, b] {
                    if self.is_occupied(*c) {
                        return Err(RuleError::Occupied { cell: *c });
                    }
                    if matches!(self.space(*c)?, Space::Stack(t) if t.is_empty()) {
                        return Err(cannot(power, format!("there is no stack at {c}")));
                    }
                }
                if a == b {
                    return Err(cannot(power, "choose two different stacks"));
                }
                let sa = self.space(*a)?.clone();
                let sb = self.space(*b)?.clone();
                if let Some(s) = self.play_area.space_mut(*a) {
                    *s = sb;
                }
                if let Some(s) = self.play_area.space_mut(*b) {
                    *s = sa;
                }
                Ok(())
            }
            PowerUse::SwapTopTiles { seat: other } => {
                let other = *other;
                if other == seat || self.players.get(other).and_then(|p| p.cube_cell()).is_none() {
                    return Err(cannot(
                        power,
                        format!("seat {other} has no cube in the play area"),
                    ));
                }
                let mine = self.players[seat].cube.tile_at(Position::Top);
                let theirs = self.players[other].cube.tile_at(Position::Top);
                let (Some(mine), Some(theirs)) = (mine, theirs) else {
                    return Err(cannot(power, "both cubes need a tile on their top face"));
                };
                self.players[seat].cube.replace(Position::Top, Some(theirs));
                self.players[other].cube.replace(Position::Top, Some(mine));
                Ok(())
            }
        }
    }

    /// Every use of the power of the Abyss tile at `at` (no checks of adjacency: the caller
    /// lists the tiles the current player may trigger).
    pub(super) fn push_powers(&self, at: Cell, out: &mut Vec<super::actions::Action>) {
        let Some(Space::Abyss(tile)) = self.play_area.space(at) else {
            return;
        };
        if !tile.power_side_up {
            return;
        }
        let seat = self.current;
        let me = &self.players[seat];
        let Some(my_cell) = me.cube_cell() else { return };
        let board_tiles: Vec<ObjectTile> = match &me.board {
            Board::Basic(b) => b.iter().map(|(t, _)| t).collect(),
            Board::Kids(_) => Vec::new(),
        };
        let free_cells: Vec<Cell> = self.play_area.cells().filter(|c| !self.is_occupied(*c)).collect();
        let top = me.cube.tile_at(Position::Top);
        let mut uses: Vec<PowerUse> = Vec::new();
        match tile.power {
            Power::A => {
                for (direction, _) in self.free_neighbours(my_cell) {
                    uses.push(PowerUse::Roll { direction });
                }
            }
            Power::B => {
                if let Some(Tile::Object(_)) = top {
                    for t in &board_tiles {
                        uses.push(PowerUse::SwapTopWithBoard { board_tile: *t });
                    }
                }
            }
            Power::C => {
                for c in &free_cells {
                    uses.push(PowerUse::Relocate { cell: *c });
                }
            }
            Power::D => {
                if top.is_none() {
                    for c in &free_cells {
                        if self.play_area.space(*c).and_then(Space::top_tile).is_some() {
                            uses.push(PowerUse::TakeTile { cell: *c });
                        }
                    }
                }
            }
            Power::E => {
                for o in Orientation::all() {
                    if o != me.cube.orientation {
                        uses.push(PowerUse::Reorient { orientation: o });
                    }
                }
            }
            Power::F => {
                for (_, c) in self.free_neighbours(my_cell) {
                    if let Some(Tile::Object(_)) = self.play_area.space(c).and_then(Space::top_tile) {
                        for t in &board_tiles {
                            uses.push(PowerUse::SwapAdjacentWithBoard {
                                cell: c,
                                board_tile: *t,
                            });
                        }
                    }
                }
            }
            Power::G => {
                for s in self.opponents_in_play() {
                    uses.push(PowerUse::SwapCubes { seat: s });
                }
            }
            Power::H => {
                let stacks: Vec<Cell> = free_cells
                    .iter()
                    .copied()
                    .filter(|c| !matches!(self.play_area.space(*c), Some(Space::Stack(t)) if t.is_empty()))
                    .collect();
                for (i, a) in stacks.iter().enumerate() {
                    for b in &stacks[i + 1..] {
                        uses.push(PowerUse::SwapStacks { a: *a, b: *b });
                    }
                }
            }
            Power::I => {
                if top.is_some() {
                    for s in self.opponents_in_play() {
                        if self.players[s].cube.tile_at(Position::Top).is_some() {
                            uses.push(PowerUse::SwapTopTiles { seat: s });
                        }
                    }
                }
            }
        }
        out.extend(uses.into_iter().map(|effect| super::actions::Action::Power {
            at,
            effect,
            abyss: None,
        }));
    }
}
