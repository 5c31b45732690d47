//! Kids version (rulebook, "Kids Version"): the kids side of the player board and the Retrieve
//! Your Cube action.
//!
//! A kids board has 16 spaces of one tile each (`assets/octocube.toml`, `[kids]`): an object on a
//! plain background takes exactly that tile; an object on a multicoloured background takes that
//! object in any colour; a plain space with no object takes any tile of its colour. Retrieving
//! places the cube's tiles on valid spaces (a tile that still fits a free space must be placed),
//! keeps the coins beside the board, and stacks the leftovers in the play area: on an Abyss tile
//! (which goes back to the supply) or, with no Abyss tile free, atop a shortest stack. The game
//! ends when a board is complete; after the round, the complete boards win, most coins first.

use super::cube::Position;
use super::data::KidsSpaceSpec;
use super::game::{Board, CubeLocation, Event, Game, RuleError};
use super::play_area::{Cell, Space};
use super::tile::{ObjectTile, Power, Tile};
use serde::{Deserialize, Serialize};

/// One space of a kids board and the tile on it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct KidsSpace {
    pub spec: KidsSpaceSpec,
    pub tile: Option<ObjectTile>,
}

impl KidsSpace {
    /// Whether `tile` matches this space (ignoring whether the space is free).
    pub fn accepts(&self, tile: ObjectTile) -> bool {
        self.spec.object.is_none_or(|o| o == tile.object)
            && self.spec.background.is_none_or(|b| b == tile.background)
    }

    /// Spaces asking for both object and colour are the hardest to fill.
    fn specificity(&self) -> u8 {
        u8::from(self.spec.object.is_some()) + u8::from(self.spec.background.is_some())
    }
}

/// The kids side of a player board.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct KidsBoard {
    pub spaces: Vec<KidsSpace>,
}

/// Put the tile on the cube's `position` face on kids board space `space` (0-based, in the
/// order of `[kids].board`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Placement {
    pub position: Position,
    pub space: usize,
}

impl KidsBoard {
    pub fn new(specs: &[KidsSpaceSpec]) -> Self {
        KidsBoard {
            spaces: specs.iter().map(|s| KidsSpace { spec: *s, tile: None }).collect(),
        }
    }

    pub fn placed_count(&self) -> usize {
        self.spaces.iter().filter(|s| s.tile.is_some()).count()
    }

    /// Every space holds a tile.
    pub fn is_complete(&self) -> bool {
        self.spaces.iter().all(|s| s.tile.is_some())
    }

    /// A free space that takes `tile`.
    pub fn free_space_for(&self, tile: ObjectTile) -> Option<usize> {
        self.spaces
            .iter()
            .position(|s| s.tile.is_none() && s.accepts(tile))
    }

    /// For each tile, the space it goes on (or `None`): the most tiles placed, then the most on
    /// the most specific spaces. Exhaustive search; a cube holds at most six tiles.
    pub fn best_placement(&self, tiles: &[ObjectTile]) -> Vec<Option<usize>> {
        let mut best = (Vec::new(), (0usize, 0usize));
        let mut current = Vec::with_capacity(tiles.len());
        let mut used = vec![false; self.spaces.len()];
        self.search(tiles, &mut current, &mut used, (0, 0), &mut best);
        best.0
    }

    fn search(
        &self,
        tiles: &[ObjectTile],
        current: &mut Vec<Option<usize>>,
        used: &mut Vec<bool>,
        score: (usize, usize),
        best: &mut (Vec<Option<usize>>, (usize, usize)),
    ) {
        let i = current.len();
        if i == tiles.len() {
            if best.0.is_empty() || score > best.1 {
                *best = (current.clone(), score);
            }
            return;
        }
        let mut options: Vec<usize> = (0..self.spaces.len())
            .filter(|s| !used[*s] && self.spaces[*s].tile.is_none() && self.spaces[*s].accepts(tiles[i]))
            .collect();
        options.sort_by_key(|s| std::cmp::Reverse(self.spaces[*s].specificity()));
        for s in options {
            used[s] = true;
            current.push(Some(s));
            let spec = usize::from(self.spaces[s].specificity());
            self.search(tiles, current, used, (score.0 + 1, score.1 + spec), best);
            current.pop();
            used[s] = false;
        }
        current.push(None);
        self.search(tiles, current, used, score, best);
        current.pop();
    }
}

impl Game {
    pub(super) fn retrieve(
        &mut self,
        placements: Option<&[Placement]>,
        leftover_order: Option<&[Position]>,
        leftover_to: Option<Cell>,
        abyss: Option<Power>,
        ev: &mut Vec<Event>,
    ) -> Result<(), RuleError> {
        let seat = self.current;
        if self.players[seat].cube_cell().is_none() {
            return Err(RuleError::MustEnter);
        }
        let Board::Kids(board) = &self.players[seat].board else {
            return Err(RuleError::Invalid("this player has no kids board".into()));
        };
        let mut board = board.clone();
        let cube = &self.players[seat].cube;
        let objects: Vec<(Position, ObjectTile)> = cube
            .tiles()
            .filter_map(|(p, t)| t.as_object().map(|o| (p, o)))
            .collect();
        let coins = cube.tiles().filter(|(_, t)| *t == Tile::Coin).count() as u32;

        // Where each object tile goes.
        let chosen: Vec<Option<usize>> = match placements {
            None => board.best_placement(&objects.iter().map(|(_, t)| *t).collect::<Vec<_>>()),
            Some(list) => {
                let mut chosen = vec![None; objects.len()];
                for (k, pl) in list.iter().enumerate() {
                    let i = objects
                        .iter()
                        .position(|(p, _)| *p == pl.position)
                        .ok_or_else(|| {
                            RuleError::Invalid(format!(
                                "placements[{k}]: no object tile on the {} face",
                                pl.position
                            ))
                        })?;
                    if chosen[i].is_some() {
                        return Err(RuleError::ListedTwice {
                            position: pl.position,
                        });
                    }
                    let space = board.spaces.get(pl.space).ok_or_else(|| {
                        RuleError::Invalid(format!(
                            "placements[{k}]: space {} does not exist (the board has {})",
                            pl.space,
                            board.spaces.len()
                        ))
                    })?;
                    if space.tile.is_some() || chosen.contains(&Some(pl.space)) {
                        return Err(RuleError::Invalid(format!(
                            "placements[{k}]: space {} already holds a tile",
                            pl.space
                        )));
                    }
                    if !space.accepts(objects[i].1) {
                        return Err(RuleError::Invalid(format!(
                            "placements[{k}]: {} does not match space {}",
                            objects[i].1, pl.space
                        )));
                    }
                    chosen[i] = Some(pl.space);
                }
                chosen
            }
        };
        let mut placed = Vec::new();
        for ((_, tile), space) in objects.iter().zip(&chosen) {
            if let Some(s) = space {
                board.spaces[*s].tile = Some(*tile);
                placed.push((Tile::Object(*tile), *s));
            }
        }
        let leftover_positions: Vec<Position> = objects
            .iter()
            .zip(&chosen)
            .filter(|(_, s)| s.is_none())
            .map(|((p, _), _)| *p)
            .collect();
        for p in &leftover_positions {
            if let Some((_, t)) = objects.iter().find(|(q, _)| q == p)
                && let Some(s) = board.free_space_for(*t)
            {
                return Err(RuleError::Invalid(format!(
                    "the {t} tile on the {p} face still fits space {s}: it must be placed"
                )));
            }
        }
        let order: Vec<Position> = match leftover_order {
            None => leftover_positions.clone(),
            Some(order) => {
                let mut sorted = order.to_vec();
                sorted.sort();
                let mut expected = leftover_positions.clone();
                expected.sort();
                if sorted != expected {
                    return Err(RuleError::Invalid(format!(
                        "leftover_order must list exactly the faces of the tiles left over: {}",
                        leftover_positions
                            .iter()
                            .map(|p| p.as_str())
                            .collect::<Vec<_>>()
                            .join(", ")
                    )));
                }
                order.to_vec()
            }
        };

        self.check_abyss_choice(abyss)?;
        self.leave_space(seat, abyss, ev);
        let player = &mut self.players[seat];
        player.location = CubeLocation::PersonalArea;
        let leftovers: Vec<Tile> = order.iter().filter_map(|p| player.cube.tile_at(*p)).collect();
        player.cube.take_all();
        player.coins += coins;
        player.board = Board::Kids(board);

        let leftovers_to = if leftovers.is_empty() {
            None
        } else {
            Some(self.stack_leftovers(leftovers.clone(), leftover_to, ev)?)
        };
        ev.push(Event::Retrieved {
            player: seat,
            placed,
            coins,
            leftovers,
            leftovers_to,
        });
        Ok(())
    }

    /// Spaces where leftovers may go: unoccupied Abyss tiles, or if there are none, the shortest
    /// unoccupied stacks.
    pub fn leftover_targets(&self) -> Vec<Cell> {
        let free: Vec<(Cell, &Space)> = self
            .play_area
            .iter()
            .filter(|(c, _)| !self.is_occupied(*c))
            .collect();
        let abyss: Vec<Cell> = free
            .iter()
            .filter(|(_, s)| s.abyss().is_some())
            .map(|(c, _)| *c)
            .collect();
        if !abyss.is_empty() {
            return abyss;
        }
        let shortest = free.iter().map(|(_, s)| s.height()).min().unwrap_or(0);
        free.iter()
            .filter(|(_, s)| s.height() == shortest)
            .map(|(c, _)| *c)
            .collect()
    }

    fn stack_leftovers(
        &mut self,
        leftovers: Vec<Tile>,
        to: Option<Cell>,
        ev: &mut Vec<Event>,
    ) -> Result<Cell, RuleError> {
        let targets = self.leftover_targets();
        let cell = match to {
            None => *targets
                .first()
                .ok_or_else(|| RuleError::Invalid("no unoccupied space for the leftovers".into()))?,
            Some(c) if targets.contains(&c) => c,
            Some(c) => {
                return Err(RuleError::Invalid(format!(
                    "leftovers cannot go on {c}; allowed: {}",
                    targets
                        .iter()
                        .map(|t| t.to_string())
                        .collect::<Vec<_>>()
                        .join(", ")
                )));
            }
        };
        let space = self
            .play_area
            .space_mut(cell)
            .ok_or(RuleError::OutsidePlayArea { cell })?;
        match space {
            Space::Abyss(a) => {
                let abyss = *a;
                *space = Space::Stack(leftovers);
                self.abyss_supply.push(abyss);
                ev.push(Event::AbyssReturned { cell, abyss });
            }
            Space::Stack(tiles) => tiles.extend(leftovers),
        }
        Ok(cell)
    }

    /// Kids version, once the game is over: the seats with a complete board that have the most
    /// coins (several when still tied). Empty before the end or if nobody completed a board.
    pub fn kids_winners(&self) -> Vec<usize> {
        if !self.is_over() {
            return Vec::new();
        }
        let complete: Vec<usize> = (0..self.players.len())
            .filter(|s| matches!(&self.players[*s].board, Board::Kids(k) if k.is_complete()))
            .collect();
        let most = complete.iter().map(|s| self.players[*s].coins).max().unwrap_or(0);
        complete
            .into_iter()
            .filter(|s| self.players[*s].coins == most)
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::octocube::data::OctocubeData;

    fn board() -> KidsBoard {
        KidsBoard::new(&OctocubeData::builtin().unwrap().kids.board)
    }

    fn t(s: &str) -> ObjectTile {
        s.parse().unwrap()
    }

    #[test]
    fn spaces_accept_by_object_colour_or_both() {
        let b = board();
        let colour_only = &b.spaces[0]; // white
        assert!(colour_only.accepts(t("diamond/white")));
        assert!(!colour_only.accepts(t("diamond/green")));
        let object_only = &b.spaces[4]; // starfish, any colour
        assert!(object_only.accepts(t("starfish/dark_blue")));
        assert!(!object_only.accepts(t("pearl/dark_blue")));
        let exact = &b.spaces[9]; // starfish/white
        assert!(exact.accepts(t("starfish/white")));
        assert!(!exact.accepts(t("starfish/green")));
    }

    #[test]
    fn best_placement_fills_exact_spaces_first_and_places_the_most() {
        let b = board();
        let p = b.best_placement(&[t("starfish/white"), t("starfish/white"), t("starfish/white")]);
        // exact starfish/white (9), then starfish any (4) and white any (0), in some order.
        assert_eq!(p[0], Some(9));
        let mut rest = vec![p[1].unwrap(), p[2].unwrap()];
        rest.sort();
        assert_eq!(rest, vec![0, 4]);
        let p = b.best_placement(&[t("starfish/white"); 4]);
        assert_eq!(p.iter().filter(|s| s.is_some()).count(), 3);
    }
}
