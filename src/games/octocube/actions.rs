//! The actions of a turn (rulebook, "On Your Turn..."): enter the play area, Roll, Pivot, Score,
//! Pass; the kids' Retrieve ([`super::kids`]) and the advanced Abyss powers ([`super::advanced`]).
//!
//! Magnetism (games.md): a cube that comes to rest on a stack with an empty bottom face takes the
//! stack's top tile onto that face, and the tile leaves the stack with the cube. A cube that comes
//! to rest with a tile already on its bottom face takes nothing; an Abyss tile gives nothing. When
//! a cube leaves a stack whose last tile it took, an Abyss tile from the supply is placed there
//! (the player picks which; by default the first in the supply). If the supply is empty (only
//! possible while the last round is being finished) the space stays bare: an empty stack that
//! cubes may still move onto.

use super::advanced::PowerUse;
use super::cube::{Orientation, PivotAngle, Position};
use super::game::{CubeLocation, Event, Game, Pending, RuleError, Version};
use super::kids::Placement;
use super::play_area::{Cell, Direction, Space};
use super::tile::{Power, Tile};
use serde::{Deserialize, Serialize};

/// One action of the current player, as game records write it, e.g.
/// `{"enter": {"cell": [0, 2], "orientation": {"top": 1, "north": 3}}}`, `{"roll": {"direction": "east"}}`,
/// `{"pivot": {"angle": 90}}`, `{"score": {"collect": ["top", "bottom"]}}`, `"pass"`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum Action {
    /// Place the cube from the personal area on an unoccupied edge space, in any orientation
    /// (in the kids version this is the Roll action from the personal area).
    Enter {
        cell: Cell,
        orientation: Orientation,
    },
    /// Roll like a wheel to the adjacent unoccupied space in `direction`. `abyss` picks the Abyss
    /// tile placed if the stack left behind is empty. Kids version only: `orientation` turns the
    /// cube as the player wishes on arrival; it must put an empty face at the bottom.
    Roll {
        direction: Direction,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        abyss: Option<Power>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        orientation: Option<Orientation>,
    },
    /// Turn the cube where it sits, clockwise seen from above.
    Pivot {
        angle: PivotAngle,
    },
    /// Take the cube back to the personal area and collect the tiles on the listed faces.
    Score {
        collect: Vec<Position>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        abyss: Option<Power>,
    },
    Pass,
    /// Decline a second roll or an Abyss power and end the turn.
    EndTurn,
    /// Kids version: take the cube back, place its tiles on the kids board, stack the leftovers.
    /// Without `placements` the most tiles possible are placed, exact spaces first. Leftovers are
    /// stacked bottom first in `leftover_order` (default: top, bottom, north, east, south, west)
    /// on `leftover_to` (default: the first allowed space).
    Retrieve {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        placements: Option<Vec<Placement>>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        leftover_order: Option<Vec<Position>>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        leftover_to: Option<Cell>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        abyss: Option<Power>,
    },
    /// Advanced version: trigger the power of the Abyss tile at `at` (adjacent to the cube, or
    /// under it just after rolling onto it).
    Power {
        at: Cell,
        #[serde(rename = "use")]
        effect: PowerUse,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        abyss: Option<Power>,
    },
}

impl Action {
    /// A kids Retrieve with every choice left to the defaults.
    pub fn retrieve_default() -> Action {
        Action::Retrieve {
            placements: None,
            leftover_order: None,
            leftover_to: None,
            abyss: None,
        }
    }

    /// Score every tile on the cube.
    pub fn score_all() -> Action {
        Action::Score {
            collect: Position::ALL.to_vec(),
            abyss: None,
        }
    }
}

impl Game {
    pub(super) fn enter(
        &mut self,
        cell: Cell,
        orientation: Orientation,
        ev: &mut Vec<Event>,
    ) -> Result<(), RuleError> {
        let seat = self.current;
        if self.players[seat].cube_cell().is_some() {
            return Err(RuleError::AlreadyInPlay);
        }
        self.space(cell)?;
        if !self.play_area.is_edge(cell) {
            return Err(RuleError::NotAnEdgeSpace { cell });
        }
        if self.is_occupied(cell) {
            return Err(RuleError::Occupied { cell });
        }
        let player = &mut self.players[seat];
        if self.version == Version::Kids && player.cube.tile_at(Position::Bottom).is_some() {
            return Err(RuleError::Invalid(
                "kids version: put an empty face of your cube at the bottom".into(),
            ));
        }
        player.cube.orientation = orientation;
        player.location = CubeLocation::PlayArea(cell);
        player.took_from_space = false;
        ev.push(Event::Entered { player: seat, cell });
        self.come_to_rest(seat, ev);
        Ok(())
    }

    pub(super) fn roll(
        &mut self,
        direction: Direction,
        abyss: Option<Power>,
        orientation: Option<Orientation>,
        ev: &mut Vec<Event>,
    ) -> Result<(), RuleError> {
        let seat = self.current;
        let from = self.players[seat].cube_cell().ok_or(RuleError::MustEnter)?;
        let to = self
            .play_area
            .neighbour(from, direction)
            .ok_or(RuleError::OffTheEdge {
                cell: from,
                direction,
            })?;
        if self.is_occupied(to) {
            return Err(RuleError::Occupied { cell: to });
        }
        let mut cube = self.players[seat].cube.clone();
        cube.roll(direction);
        match (self.version, orientation) {
            (Version::Kids, Some(o)) => cube.orientation = o,
            (Version::Kids, None) => {}
            (_, Some(_)) => {
                return Err(RuleError::Invalid(
                    "only the kids version lets you turn the cube as you roll it".into(),
                ));
            }
            (_, None) => {}
        }
        if self.version == Version::Kids && cube.tile_at(Position::Bottom).is_some() {
            return Err(RuleError::Invalid(
                "kids version: the cube must arrive with an empty face at the bottom; give an orientation"
                    .into(),
            ));
        }
        self.check_abyss_choice(abyss)?;
        self.leave_space(seat, abyss, ev);
        let player = &mut self.players[seat];
        player.cube = cube;
        player.location = CubeLocation::PlayArea(to);
        ev.push(Event::Rolled {
            player: seat,
            from,
            to,
            direction,
        });
        self.come_to_rest(seat, ev);
        self.after_roll(seat, to, ev);
        Ok(())
    }

    /// What reaching `to` by a roll opens up: Abyss tile A's second roll (3-4 players), an Abyss
    /// power (advanced), the kids' compulsory retrieve of a full cube.
    fn after_roll(&mut self, seat: usize, to: Cell, ev: &mut Vec<Event>) {
        let abyss = self.play_area.space(to).and_then(Space::abyss);
        if self.version == Version::Kids && self.players[seat].cube.is_full() {
            self.pending = Some(Pending::MustRetrieve);
            return;
        }
        match abyss {
            Some(a) if a.power_side_up => {
                self.pending = Some(Pending::LandedOnPower { cell: to });
                ev.push(Event::PowerAvailable {
                    player: seat,
                    cell: to,
                    power: a.power,
                });
            }
            Some(a) if a.power == Power::A && self.players.len() >= 3 => {
                // There is one tile A and the second roll moves off it, so this never chains.
                self.pending = Some(Pending::SecondRoll);
                ev.push(Event::SecondRoll { player: seat });
            }
            _ => {}
        }
    }

    pub(super) fn pivot(&mut self, angle: PivotAngle, ev: &mut Vec<Event>) -> Result<(), RuleError> {
        let seat = self.current;
        if self.players[seat].cube_cell().is_none() {
            return Err(RuleError::MustEnter);
        }
        self.players[seat].cube.pivot(angle);
        ev.push(Event::Pivoted { player: seat, angle });
        Ok(())
    }

    pub(super) fn score(
        &mut self,
        collect: &[Position],
        abyss: Option<Power>,
        ev: &mut Vec<Event>,
    ) -> Result<(), RuleError> {
        let seat = self.current;
        if self.players[seat].cube_cell().is_none() {
            return Err(RuleError::MustEnter);
        }
        for (i, pos) in collect.iter().enumerate() {
            if collect[..i].contains(pos) {
                return Err(RuleError::ListedTwice { position: *pos });
            }
            if self.players[seat].cube.tile_at(*pos).is_none() {
                return Err(RuleError::NoTileThere { position: *pos });
            }
        }
        self.check_abyss_choice(abyss)?;
        self.leave_space(seat, abyss, ev);
        let player = &mut self.players[seat];
        player.location = CubeLocation::PersonalArea;
        let collected: Vec<Tile> = collect
            .iter()
            .filter_map(|pos| player.cube.detach(*pos))
            .collect();
        let score = self.collect(seat, &collected);
        ev.push(Event::Scored {
            player: seat,
            collected,
            score,
        });
        Ok(())
    }

    pub(super) fn pass(&mut self, ev: &mut Vec<Event>) -> Result<(), RuleError> {
        let seat = self.current;
        if self.players[seat].cube_cell().is_none() && !self.free_edge_cells().is_empty() {
            return Err(RuleError::MustEnter);
        }
        ev.push(Event::Passed { player: seat });
        Ok(())
    }

    /// Magnetism as the cube comes to rest where it is.
    pub(super) fn come_to_rest(&mut self, seat: usize, ev: &mut Vec<Event>) {
        let Some(cell) = self.players[seat].cube_cell() else {
            return;
        };
        if self.players[seat].cube.tile_at(Position::Bottom).is_some() {
            return;
        }
        let Some(Space::Stack(tiles)) = self.play_area.space_mut(cell) else {
            return;
        };
        let Some(tile) = tiles.pop() else { return };
        let player = &mut self.players[seat];
        // The bottom face is empty (checked above), so attaching cannot fail.
        if player.cube.attach(Position::Bottom, tile).is_ok() {
            player.took_from_space = true;
            ev.push(Event::Took {
                player: seat,
                cell,
                tile,
                position: Position::Bottom,
            });
        }
    }

    /// The cube lifts off its space: if it took that stack's last tile, an Abyss tile is placed.
    /// The caller moves the cube.
    pub(super) fn leave_space(&mut self, seat: usize, abyss: Option<Power>, ev: &mut Vec<Event>) {
        let Some(cell) = self.players[seat].cube_cell() else {
            return;
        };
        let took = std::mem::replace(&mut self.players[seat].took_from_space, false);
        let emptied = matches!(self.play_area.space(cell), Some(Space::Stack(t)) if t.is_empty());
        if took && emptied {
            self.place_abyss(cell, abyss, ev);
        }
    }

    /// Places an Abyss tile from the supply on an emptied stack.
    pub(super) fn place_abyss(&mut self, cell: Cell, choice: Option<Power>, ev: &mut Vec<Event>) {
        if self.abyss_supply.is_empty() {
            ev.push(Event::NoAbyssLeft { cell });
            return;
        }
        let i = choice
            .and_then(|p| self.abyss_supply.iter().position(|a| a.power == p))
            .unwrap_or(0);
        let abyss = self.abyss_supply.remove(i);
        if let Some(space) = self.play_area.space_mut(cell) {
            *space = Space::Abyss(abyss);
        }
        ev.push(Event::AbyssPlaced { cell, abyss });
    }

    /// A chosen Abyss tile must be in the supply (only the advanced version shows the letters,
    /// but a choice is checked in every version).
    pub(super) fn check_abyss_choice(&self, choice: Option<Power>) -> Result<(), RuleError> {
        match choice {
            Some(power) if !self.abyss_supply.iter().any(|a| a.power == power) => {
                Err(RuleError::AbyssNotInSupply { power })
            }
            _ => Ok(()),
        }
    }
}
