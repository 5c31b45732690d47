//! The play area: a square grid of spaces, each the top of a stack or an Abyss tile.
//!
//! Conventions: a cell is `[x, y]`, x to the right (east), y down (south), from `[0, 0]` at the
//! top-left, as the set-up diagrams are read. Adjacency is orthogonal only (rulebook vocabulary).
//! A stack lists its tiles bottom first; its top tile is the last. An empty stack is a space whose
//! tiles are all gone and that has no Abyss tile (yet): the moment between a cube taking a stack's
//! last tile and that cube leaving, or when the Abyss supply ran out.

use super::tile::{AbyssTile, Tile};
use serde::{Deserialize, Serialize};

/// A grid cell `[x, y]`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(from = "[u8; 2]", into = "[u8; 2]")]
pub struct Cell {
    pub x: u8,
    pub y: u8,
}

impl Cell {
    pub const fn new(x: u8, y: u8) -> Self {
        Cell { x, y }
    }
}

impl From<[u8; 2]> for Cell {
    fn from([x, y]: [u8; 2]) -> Self {
        Cell { x, y }
    }
}

impl From<Cell> for [u8; 2] {
    fn from(c: Cell) -> Self {
        [c.x, c.y]
    }
}

impl std::fmt::Display for Cell {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "[{}, {}]", self.x, self.y)
    }
}

/// A compass direction on the table: north is up the grid (y - 1), east is x + 1.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Direction {
    North,
    East,
    South,
    West,
}

impl Direction {
    pub const ALL: [Direction; 4] = [
        Direction::North,
        Direction::East,
        Direction::South,
        Direction::West,
    ];

    pub fn opposite(self) -> Direction {
        match self {
            Direction::North => Direction::South,
            Direction::East => Direction::West,
            Direction::South => Direction::North,
            Direction::West => Direction::East,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Direction::North => "north",
            Direction::East => "east",
            Direction::South => "south",
            Direction::West => "west",
        }
    }
}

impl std::fmt::Display for Direction {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// What lies on a space of the play area.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Space {
    /// Object and Coin tiles, bottom first (may be empty, see the module doc).
    Stack(Vec<Tile>),
    Abyss(AbyssTile),
}

impl Space {
    /// The visible tile that a cube or a power could take.
    pub fn top_tile(&self) -> Option<Tile> {
        match self {
            Space::Stack(tiles) => tiles.last().copied(),
            Space::Abyss(_) => None,
        }
    }

    /// Tiles in the stack (0 for an Abyss tile).
    pub fn height(&self) -> usize {
        match self {
            Space::Stack(tiles) => tiles.len(),
            Space::Abyss(_) => 0,
        }
    }

    pub fn abyss(&self) -> Option<AbyssTile> {
        match self {
            Space::Abyss(a) => Some(*a),
            Space::Stack(_) => None,
        }
    }
}

/// The grid of spaces. Which spaces hold a cube is the game's business ([`super::game::Game`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayArea {
    size: u8,
    /// Row-major, `y * size + x`.
    spaces: Vec<Space>,
}

impl PlayArea {
    /// A grid from its rows (top row first). `None` when the rows are not square.
    pub fn from_rows(rows: Vec<Vec<Space>>) -> Option<PlayArea> {
        let size = rows.len();
        if size == 0 || size > u8::MAX as usize || rows.iter().any(|r| r.len() != size) {
            return None;
        }
        Some(PlayArea {
            size: size as u8,
            spaces: rows.into_iter().flatten().collect(),
        })
    }

    /// Side of the grid.
    pub fn size(&self) -> u8 {
        self.size
    }

    pub fn contains(&self, cell: Cell) -> bool {
        cell.x < self.size && cell.y < self.size
    }

    fn index(&self, cell: Cell) -> Option<usize> {
        self.contains(cell)
            .then(|| cell.y as usize * self.size as usize + cell.x as usize)
    }

    pub fn space(&self, cell: Cell) -> Option<&Space> {
        self.index(cell).and_then(|i| self.spaces.get(i))
    }

    pub fn space_mut(&mut self, cell: Cell) -> Option<&mut Space> {
        self.index(cell).and_then(|i| self.spaces.get_mut(i))
    }

    /// Every cell, row by row.
    pub fn cells(&self) -> impl Iterator<Item = Cell> + '_ {
        let n = self.size;
        (0..n).flat_map(move |y| (0..n).map(move |x| Cell::new(x, y)))
    }

    /// Every cell with its space, row by row.
    pub fn iter(&self) -> impl Iterator<Item = (Cell, &Space)> + '_ {
        self.cells().zip(self.spaces.iter())
    }

    /// A space on the outer ring of the grid (where cubes enter).
    pub fn is_edge(&self, cell: Cell) -> bool {
        self.contains(cell)
            && (cell.x == 0 || cell.y == 0 || cell.x + 1 == self.size || cell.y + 1 == self.size)
    }

    /// The cell one step in `direction`, if it is in the grid.
    pub fn neighbour(&self, cell: Cell, direction: Direction) -> Option<Cell> {
        let (x, y) = (cell.x as i16, cell.y as i16);
        let (nx, ny) = match direction {
            Direction::North => (x, y - 1),
            Direction::East => (x + 1, y),
            Direction::South => (x, y + 1),
            Direction::West => (x - 1, y),
        };
        let n = self.size as i16;
        ((0..n).contains(&nx) && (0..n).contains(&ny)).then(|| Cell::new(nx as u8, ny as u8))
    }

    /// The orthogonally adjacent cells.
    pub fn neighbours(&self, cell: Cell) -> impl Iterator<Item = (Direction, Cell)> + '_ {
        Direction::ALL
            .into_iter()
            .filter_map(move |d| self.neighbour(cell, d).map(|c| (d, c)))
    }

    pub fn is_adjacent(&self, a: Cell, b: Cell) -> bool {
        self.neighbours(a).any(|(_, c)| c == b)
    }

    /// Object and Coin tiles in all stacks.
    pub fn tile_count(&self) -> usize {
        self.spaces.iter().map(Space::height).sum()
    }

    /// All Object and Coin tiles in the stacks.
    pub fn tiles(&self) -> impl Iterator<Item = Tile> + '_ {
        self.spaces
            .iter()
            .flat_map(|s| match s {
                Space::Stack(t) => t.as_slice(),
                Space::Abyss(_) => &[],
            })
            .copied()
    }

    /// Abyss tiles lying in the play area.
    pub fn abyss_tiles(&self) -> impl Iterator<Item = (Cell, AbyssTile)> + '_ {
        self.iter().filter_map(|(c, s)| s.abyss().map(|a| (c, a)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::octocube::tile::Power;

    fn grid(n: usize) -> PlayArea {
        PlayArea::from_rows(vec![vec![Space::Stack(vec![Tile::Coin]); n]; n]).unwrap()
    }

    #[test]
    fn adjacency_is_orthogonal_and_stays_in_the_grid() {
        let a = grid(5);
        let corner: Vec<_> = a.neighbours(Cell::new(0, 0)).collect();
        assert_eq!(
            corner,
            vec![
                (Direction::East, Cell::new(1, 0)),
                (Direction::South, Cell::new(0, 1))
            ]
        );
        assert_eq!(a.neighbours(Cell::new(2, 2)).count(), 4);
        assert!(!a.is_adjacent(Cell::new(1, 1), Cell::new(2, 2)));
        assert_eq!(
            a.neighbour(Cell::new(2, 2), Direction::North),
            Some(Cell::new(2, 1))
        );
        assert_eq!(a.neighbour(Cell::new(4, 2), Direction::East), None);
    }

    #[test]
    fn edge_spaces_are_the_outer_ring() {
        let a = grid(5);
        assert_eq!(a.cells().filter(|c| a.is_edge(*c)).count(), 16);
        assert!(!a.is_edge(Cell::new(2, 2)));
        let b = grid(4);
        assert_eq!(b.cells().filter(|c| b.is_edge(*c)).count(), 12);
    }

    #[test]
    fn spaces_report_their_top_tile() {
        let s = Space::Stack(vec![Tile::Coin, "pearl/green".parse().unwrap()]);
        assert_eq!(s.top_tile(), Some("pearl/green".parse().unwrap()));
        let a = Space::Abyss(AbyssTile {
            power: Power::A,
            power_side_up: false,
        });
        assert_eq!(a.top_tile(), None);
        assert_eq!(serde_json::to_string(&Cell::new(3, 1)).unwrap(), "[3,1]");
    }
}
