//! The Ocean: a grid of squares with the Otto tile in the middle, Otto's arm sockets, and the
//! Coral and Seaweed squares; and the tiles placed on it so far.
//!
//! Conventions (`docs/spec/cli.md`): squares are `[x, y]`, x to the right, y down, from `[0, 0]`
//! at the top-left square. The edges of a square are `N` (towards y - 1, "up"), `E` (x + 1),
//! `S` (y + 1) and `W` (x - 1). Looking along a direction of travel, `left` and `right` are as
//! seen from above: heading `N`, left is `W`.
//!
//! The layout is data (`assets/otto_board.toml`, defaults from `docs/spec/games.md`); [`Board`]
//! holds a layout and the tiles placed on it. Tiles only get onto a board through
//! [`Board::place`], which checks every placement rule, so a board is always a legal position.

use super::arm::{Arm, trace_arms};
use super::placement::{IllegalReason, Placement, check_placement};
use super::scoring::Points;
use super::tile::Tile;
use serde::{Deserialize, Serialize};

/// The default Ocean, compiled in so the program works from any directory.
pub const DEFAULT_BOARD_TOML: &str = include_str!("../../../assets/otto_board.toml");
/// Where the default Ocean comes from, as error messages name it.
pub const DEFAULT_BOARD_SOURCE: &str = "assets/otto_board.toml";
/// Largest Ocean side accepted, in squares (the real Ocean is 9).
pub const MAX_OCEAN_SIDE: u8 = 64;
/// Smallest Ocean side accepted: Otto and a ring of squares around him.
pub const MIN_OCEAN_SIDE: u8 = 3;

/// One square of the Ocean, `[x, y]` from the top-left.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(from = "[u8; 2]", into = "[u8; 2]")]
pub struct Cell {
    pub x: u8,
    pub y: u8,
}

impl Cell {
    pub const fn new(x: u8, y: u8) -> Cell {
        Cell { x, y }
    }
}

impl From<[u8; 2]> for Cell {
    fn from([x, y]: [u8; 2]) -> Cell {
        Cell { x, y }
    }
}

impl From<Cell> for [u8; 2] {
    fn from(c: Cell) -> [u8; 2] {
        [c.x, c.y]
    }
}

impl std::fmt::Display for Cell {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "[{}, {}]", self.x, self.y)
    }
}

/// An edge of a square, and the direction across it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Edge {
    #[serde(alias = "n", alias = "north")]
    N,
    #[serde(alias = "e", alias = "east")]
    E,
    #[serde(alias = "s", alias = "south")]
    S,
    #[serde(alias = "w", alias = "west")]
    W,
}

impl Edge {
    pub const ALL: [Edge; 4] = [Edge::N, Edge::E, Edge::S, Edge::W];

    pub fn opposite(self) -> Edge {
        match self {
            Edge::N => Edge::S,
            Edge::E => Edge::W,
            Edge::S => Edge::N,
            Edge::W => Edge::E,
        }
    }

    /// Heading in this direction, the direction on the left-hand side.
    pub fn to_left(self) -> Edge {
        match self {
            Edge::N => Edge::W,
            Edge::W => Edge::S,
            Edge::S => Edge::E,
            Edge::E => Edge::N,
        }
    }

    /// Heading in this direction, the direction on the right-hand side.
    pub fn to_right(self) -> Edge {
        self.to_left().opposite()
    }

    pub fn letter(self) -> &'static str {
        match self {
            Edge::N => "N",
            Edge::E => "E",
            Edge::S => "S",
            Edge::W => "W",
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Edge::N => "north",
            Edge::E => "east",
            Edge::S => "south",
            Edge::W => "west",
        }
    }
}

impl std::fmt::Display for Edge {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.letter())
    }
}

/// A side of an arm, looking along it away from Otto.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Side {
    Left,
    Right,
}

impl Side {
    pub fn opposite(self) -> Side {
        match self {
            Side::Left => Side::Right,
            Side::Right => Side::Left,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Side::Left => "left",
            Side::Right => "right",
        }
    }
}

impl std::fmt::Display for Side {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// Where the Otto tile lies: `size` squares from `top_left`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OttoArea {
    pub top_left: Cell,
    pub size: [u8; 2],
}

impl OttoArea {
    pub fn contains(&self, cell: Cell) -> bool {
        let [w, h] = self.size;
        let (x0, y0) = (u16::from(self.top_left.x), u16::from(self.top_left.y));
        let (x, y) = (u16::from(cell.x), u16::from(cell.y));
        x >= x0 && x < x0 + u16::from(w) && y >= y0 && y < y0 + u16::from(h)
    }
}

/// One of Otto's arm sockets: the square where the arm's first Arm tile goes, the edge of that
/// square touching Otto, and the side its suckers are on (looking along the arm away from Otto).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Socket {
    pub cell: Cell,
    pub from: Edge,
    pub suckers: Side,
}

/// The Ocean's layout: size, Otto, sockets and bonus squares. Build it with
/// [`BoardLayout::default_layout`] or [`BoardLayout::from_toml_str`], which check it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BoardLayout {
    /// Width and height in squares.
    pub size: [u8; 2],
    pub otto: OttoArea,
    #[serde(rename = "socket")]
    pub sockets: Vec<Socket>,
    #[serde(default)]
    pub coral: Vec<Cell>,
    #[serde(default)]
    pub seaweed: Vec<Cell>,
}

/// A layout that cannot be read or does not make sense. Messages name the source and the field.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BoardError {
    #[error("{source_name}: {message}")]
    Parse { source_name: String, message: String },
    #[error("{source_name}: field `{field}`: expected {expected}")]
    Invalid {
        source_name: String,
        field: String,
        expected: String,
    },
}

impl BoardLayout {
    /// The default Ocean (`assets/otto_board.toml`).
    pub fn default_layout() -> Result<BoardLayout, BoardError> {
        BoardLayout::from_toml_str(DEFAULT_BOARD_TOML, DEFAULT_BOARD_SOURCE)
    }

    /// Parses and checks a layout; `source_name` (a path) is used in error messages.
    pub fn from_toml_str(text: &str, source_name: &str) -> Result<BoardLayout, BoardError> {
        let layout: BoardLayout = toml::from_str(text).map_err(|e| BoardError::Parse {
            source_name: source_name.to_string(),
            message: e.to_string(),
        })?;
        layout.validate(source_name)?;
        Ok(layout)
    }

    fn validate(&self, source_name: &str) -> Result<(), BoardError> {
        let invalid = |field: String, expected: &str| BoardError::Invalid {
            source_name: source_name.to_string(),
            field,
            expected: expected.to_string(),
        };
        let side_ok = |s: u8| (MIN_OCEAN_SIDE..=MAX_OCEAN_SIDE).contains(&s);
        if !self.size.iter().all(|&s| side_ok(s)) {
            return Err(invalid(
                "size".into(),
                &format!("[width, height] from {MIN_OCEAN_SIDE} to {MAX_OCEAN_SIDE} squares"),
            ));
        }
        let [ow, oh] = self.otto.size;
        let otto_fits = ow >= 1
            && oh >= 1
            && u16::from(self.otto.top_left.x) + u16::from(ow) <= u16::from(self.size[0])
            && u16::from(self.otto.top_left.y) + u16::from(oh) <= u16::from(self.size[1]);
        if !otto_fits {
            return Err(invalid("otto".into(), "an Otto tile lying wholly on the Ocean"));
        }
        if self.sockets.is_empty() {
            return Err(invalid("socket".into(), "at least one arm socket"));
        }
        for (i, s) in self.sockets.iter().enumerate() {
            if !self.contains(s.cell) || self.is_otto(s.cell) {
                return Err(invalid(
                    format!("socket[{i}].cell"),
                    "a square on the Ocean, beside the Otto tile",
                ));
            }
            if !self.neighbour(s.cell, s.from).is_some_and(|n| self.is_otto(n)) {
                return Err(invalid(
                    format!("socket[{i}].from"),
                    "the edge of the socket's square that touches the Otto tile",
                ));
            }
            if self.sockets[..i].iter().any(|o| o.cell == s.cell) {
                return Err(invalid(
                    format!("socket[{i}].cell"),
                    "a square used by no other socket",
                ));
            }
        }
        for (name, cells) in [("coral", &self.coral), ("seaweed", &self.seaweed)] {
            for (i, &c) in cells.iter().enumerate() {
                if !self.contains(c) || self.is_otto(c) {
                    return Err(invalid(
                        format!("{name}[{i}]"),
                        "a square on the Ocean, not under the Otto tile",
                    ));
                }
            }
        }
        Ok(())
    }

    pub fn width(&self) -> u8 {
        self.size[0]
    }

    pub fn height(&self) -> u8 {
        self.size[1]
    }

    /// The square at `[x, y]`, if it is on the Ocean (any integers accepted).
    pub fn cell_at(&self, x: i64, y: i64) -> Option<Cell> {
        let ok = (0..i64::from(self.width())).contains(&x) && (0..i64::from(self.height())).contains(&y);
        ok.then(|| Cell::new(x as u8, y as u8))
    }

    pub fn contains(&self, cell: Cell) -> bool {
        cell.x < self.width() && cell.y < self.height()
    }

    /// Is this square under the Otto tile?
    pub fn is_otto(&self, cell: Cell) -> bool {
        self.otto.contains(cell)
    }

    pub fn is_coral(&self, cell: Cell) -> bool {
        self.coral.contains(&cell)
    }

    pub fn is_seaweed(&self, cell: Cell) -> bool {
        self.seaweed.contains(&cell)
    }

    /// Is this square on the outer perimeter of the Ocean?
    pub fn is_outer_ring(&self, cell: Cell) -> bool {
        self.contains(cell)
            && (cell.x == 0 || cell.y == 0 || cell.x + 1 == self.width() || cell.y + 1 == self.height())
    }

    /// The square across `edge` of `cell`, if it is on the Ocean.
    pub fn neighbour(&self, cell: Cell, edge: Edge) -> Option<Cell> {
        let (x, y) = (i64::from(cell.x), i64::from(cell.y));
        match edge {
            Edge::N => self.cell_at(x, y - 1),
            Edge::E => self.cell_at(x + 1, y),
            Edge::S => self.cell_at(x, y + 1),
            Edge::W => self.cell_at(x - 1, y),
        }
    }

    /// Index of `cell` in row-major order (callers check `contains` first).
    pub fn index(&self, cell: Cell) -> usize {
        usize::from(cell.y) * usize::from(self.width()) + usize::from(cell.x)
    }

    pub fn cell_count(&self) -> usize {
        usize::from(self.width()) * usize::from(self.height())
    }

    /// Every square, row by row from the top-left.
    pub fn cells(&self) -> impl Iterator<Item = Cell> + '_ {
        (0..self.height()).flat_map(move |y| (0..self.width()).map(move |x| Cell::new(x, y)))
    }

    /// The socket whose square is `cell`, with its index.
    pub fn socket_at(&self, cell: Cell) -> Option<usize> {
        self.sockets.iter().position(|s| s.cell == cell)
    }
}

/// The Ocean with the tiles placed on it. Always a legal position: tiles are added only through
/// [`Board::place`] (or deserialised, which replays and checks every placement in order).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "BoardData", into = "BoardData")]
pub struct Board {
    layout: BoardLayout,
    squares: Vec<Option<Tile>>,
    /// The placements in the order they were made.
    order: Vec<Cell>,
    /// The arms traced from the sockets, kept up to date by `place`.
    arms: Vec<Arm>,
}

/// A board as saved: its layout and its placements in order.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct BoardData {
    pub layout: BoardLayout,
    pub placed: Vec<Placement>,
}

impl TryFrom<BoardData> for Board {
    type Error = String;
    fn try_from(data: BoardData) -> Result<Board, String> {
        data.layout.validate("saved board").map_err(|e| e.to_string())?;
        let mut board = Board::new(data.layout);
        for (i, p) in data.placed.into_iter().enumerate() {
            board
                .place(p)
                .map_err(|e| format!("placed[{i}] is not a legal placement: {e}"))?;
        }
        Ok(board)
    }
}

impl From<Board> for BoardData {
    fn from(board: Board) -> BoardData {
        let placed = board.placements();
        BoardData {
            layout: board.layout,
            placed,
        }
    }
}

impl Board {
    /// An empty Ocean with only the Otto tile on it.
    pub fn new(layout: BoardLayout) -> Board {
        let squares = vec![None; layout.cell_count()];
        let mut board = Board {
            layout,
            squares,
            order: Vec::new(),
            arms: Vec::new(),
        };
        board.arms = trace_arms(&board.view());
        board
    }

    pub fn layout(&self) -> &BoardLayout {
        &self.layout
    }

    /// The tile on `cell`, if any (None off the Ocean and under Otto).
    pub fn tile_at(&self, cell: Cell) -> Option<&Tile> {
        if !self.layout.contains(cell) {
            return None;
        }
        self.squares.get(self.layout.index(cell)).and_then(Option::as_ref)
    }

    /// Is `cell` on the Ocean, not under Otto, and empty?
    pub fn is_free(&self, cell: Cell) -> bool {
        self.view().is_free(cell)
    }

    /// The tiles on the Ocean in the order they were placed.
    pub fn placements(&self) -> Vec<Placement> {
        self.order
            .iter()
            .filter_map(|&cell| {
                self.tile_at(cell).map(|t| Placement {
                    cell,
                    tile: t.clone(),
                })
            })
            .collect()
    }

    pub fn placed_count(&self) -> usize {
        self.order.len()
    }

    /// Otto's arms, one per socket in the layout's order.
    pub fn arms(&self) -> &[Arm] {
        &self.arms
    }

    /// Places a tile if every rule allows it, and returns the points it scores.
    /// On error nothing changes.
    pub fn place(&mut self, placement: Placement) -> Result<Points, IllegalReason> {
        let points = check_placement(self, &placement)?;
        let index = self.layout.index(placement.cell);
        if let Some(square) = self.squares.get_mut(index) {
            *square = Some(placement.tile);
            self.order.push(placement.cell);
            self.arms = trace_arms(&self.view());
        }
        Ok(points)
    }

    pub(crate) fn view(&self) -> OceanView<'_> {
        OceanView {
            board: self,
            extra: None,
        }
    }
}

/// The board as it would be with one more tile on it, without copying it.
#[derive(Debug, Clone, Copy)]
pub(crate) struct OceanView<'a> {
    board: &'a Board,
    extra: Option<PlacedRef<'a>>,
}

#[derive(Debug, Clone, Copy)]
struct PlacedRef<'a> {
    cell: Cell,
    tile: &'a Tile,
}

impl<'a> OceanView<'a> {
    pub(crate) fn with(board: &'a Board, cell: Cell, tile: &'a Tile) -> OceanView<'a> {
        OceanView {
            board,
            extra: Some(PlacedRef { cell, tile }),
        }
    }

    pub(crate) fn layout(&self) -> &'a BoardLayout {
        &self.board.layout
    }

    pub(crate) fn tile_at(&self, cell: Cell) -> Option<&'a Tile> {
        match self.extra {
            Some(p) if p.cell == cell => Some(p.tile),
            _ => self.board.tile_at(cell),
        }
    }

    pub(crate) fn is_free(&self, cell: Cell) -> bool {
        let layout = self.layout();
        layout.contains(cell) && !layout.is_otto(cell) && self.tile_at(cell).is_none()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_layout_matches_games_md() {
        let l = BoardLayout::default_layout().unwrap();
        assert_eq!(l.size, [9, 9]);
        assert!(l.is_otto(Cell::new(3, 3)) && l.is_otto(Cell::new(5, 5)) && l.is_otto(Cell::new(4, 4)));
        assert!(!l.is_otto(Cell::new(2, 4)) && !l.is_otto(Cell::new(6, 4)));
        let mut sockets: Vec<[u8; 2]> = l.sockets.iter().map(|s| s.cell.into()).collect();
        sockets.sort();
        assert_eq!(
            sockets,
            vec![[2, 3], [2, 5], [3, 2], [3, 6], [5, 2], [5, 6], [6, 3], [6, 5]]
        );
        assert_eq!(l.coral.len(), 4);
        assert!(l.is_coral(Cell::new(8, 8)) && l.is_seaweed(Cell::new(6, 8)));
        assert!(l.is_outer_ring(Cell::new(0, 5)) && !l.is_outer_ring(Cell::new(1, 5)));
    }

    /// games.md: suckers on the side away from the middle of Otto's side.
    #[test]
    fn socket_suckers_point_away_from_the_middle_of_ottos_side() {
        let l = BoardLayout::default_layout().unwrap();
        let middle = Cell::new(4, 4);
        for s in &l.sockets {
            let heading = s.from.opposite();
            let suckers_dir = match s.suckers {
                Side::Left => heading.to_left(),
                Side::Right => heading.to_right(),
            };
            let toward_middle = match suckers_dir {
                Edge::N => s.cell.y > middle.y,
                Edge::S => s.cell.y < middle.y,
                Edge::E => s.cell.x < middle.x,
                Edge::W => s.cell.x > middle.x,
            };
            assert!(!toward_middle, "socket {}", s.cell);
        }
    }

    #[test]
    fn left_and_right_are_seen_from_above() {
        assert_eq!(Edge::N.to_left(), Edge::W);
        assert_eq!(Edge::E.to_left(), Edge::N);
        assert_eq!(Edge::S.to_right(), Edge::W);
        assert_eq!(Edge::W.to_right(), Edge::N);
    }

    #[test]
    fn bad_layouts_name_the_field() {
        let base = DEFAULT_BOARD_TOML;
        let off = base.replace("cell = [3, 2]", "cell = [3, 12]");
        let e = BoardLayout::from_toml_str(&off, "b.toml")
            .unwrap_err()
            .to_string();
        assert!(e.contains("b.toml") && e.contains("socket[0].cell"), "{e}");
        let wrong_from = base.replacen("from = \"S\"", "from = \"N\"", 1);
        let e = BoardLayout::from_toml_str(&wrong_from, "b.toml")
            .unwrap_err()
            .to_string();
        assert!(e.contains("socket[0].from"), "{e}");
        let coral_on_otto = base.replace("[0, 0], [8, 0]", "[4, 4], [8, 0]");
        let e = BoardLayout::from_toml_str(&coral_on_otto, "b.toml")
            .unwrap_err()
            .to_string();
        assert!(e.contains("coral[0]"), "{e}");
        let e = BoardLayout::from_toml_str("size = 9", "b.toml")
            .unwrap_err()
            .to_string();
        assert!(e.contains("b.toml"), "{e}");
    }

    #[test]
    fn neighbours_stay_on_the_ocean() {
        let l = BoardLayout::default_layout().unwrap();
        assert_eq!(l.neighbour(Cell::new(0, 0), Edge::N), None);
        assert_eq!(l.neighbour(Cell::new(0, 0), Edge::W), None);
        assert_eq!(l.neighbour(Cell::new(0, 0), Edge::E), Some(Cell::new(1, 0)));
        assert_eq!(l.neighbour(Cell::new(8, 8), Edge::S), None);
        assert_eq!(l.cell_at(-1, 3), None);
        assert_eq!(l.cell_at(9, 3), None);
    }
}
