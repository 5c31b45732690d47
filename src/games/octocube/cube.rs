//! An Octopus cube: six magnetic faces, each holding at most one tile, in a full orientation.
//!
//! Conventions: a **position** is where a face is on the table right now (`top`, `bottom`, and
//! the four sides `north`, `east`, `south`, `west`; north is up the play-area grid, y - 1). A
//! **face** is a physical face of the cube, numbered 1 to 6; in the starting orientation face 1 is
//! on top, 2 at the bottom, 3 north, 4 east, 5 south, 6 west. An [`Orientation`] says which face is
//! at each position and is always one of the 24 rotations of a cube (never a mirror image). Tiles
//! stick to faces, so rolling or pivoting moves them with their faces.
//!
//! Rolling "like a wheel" toward a direction tips the cube over its bottom edge on that side: the
//! face on that side goes to the bottom, the top goes to that side, the opposite side comes on top
//! and the bottom goes to the opposite side. Pivoting turns the cube about the vertical axis,
//! clockwise seen from above; top and bottom stay.

use super::play_area::Direction;
use super::tile::Tile;
use serde::{Deserialize, Serialize};

/// Where a face is on the table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Position {
    Top,
    Bottom,
    North,
    East,
    South,
    West,
}

impl Position {
    pub const ALL: [Position; 6] = [
        Position::Top,
        Position::Bottom,
        Position::North,
        Position::East,
        Position::South,
        Position::West,
    ];

    fn index(self) -> usize {
        self as usize
    }

    pub fn opposite(self) -> Position {
        match self {
            Position::Top => Position::Bottom,
            Position::Bottom => Position::Top,
            Position::North => Position::South,
            Position::South => Position::North,
            Position::East => Position::West,
            Position::West => Position::East,
        }
    }

    /// The side facing `direction`.
    pub fn side(direction: Direction) -> Position {
        match direction {
            Direction::North => Position::North,
            Direction::East => Position::East,
            Direction::South => Position::South,
            Direction::West => Position::West,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Position::Top => "top",
            Position::Bottom => "bottom",
            Position::North => "north",
            Position::East => "east",
            Position::South => "south",
            Position::West => "west",
        }
    }
}

impl std::fmt::Display for Position {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A physical face of a cube, 1 to 6.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(try_from = "u8", into = "u8")]
pub struct Face(u8);

impl Face {
    pub const ALL: [Face; 6] = [Face(0), Face(1), Face(2), Face(3), Face(4), Face(5)];

    /// The face's number, 1 to 6.
    pub fn number(self) -> u8 {
        self.0 + 1
    }

    fn index(self) -> usize {
        self.0 as usize
    }
}

impl TryFrom<u8> for Face {
    type Error = String;
    fn try_from(n: u8) -> Result<Self, Self::Error> {
        if (1..=6).contains(&n) {
            Ok(Face(n - 1))
        } else {
            Err(format!("face {n}; expected a face number 1 to 6"))
        }
    }
}

impl From<Face> for u8 {
    fn from(f: Face) -> u8 {
        f.number()
    }
}

/// How far a Pivot turns the cube, clockwise seen from above. Written as 90, 180 or 270 degrees.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "u16", into = "u16")]
pub enum PivotAngle {
    Quarter,
    Half,
    ThreeQuarters,
}

impl PivotAngle {
    pub const ALL: [PivotAngle; 3] = [PivotAngle::Quarter, PivotAngle::Half, PivotAngle::ThreeQuarters];

    pub fn degrees(self) -> u16 {
        match self {
            PivotAngle::Quarter => 90,
            PivotAngle::Half => 180,
            PivotAngle::ThreeQuarters => 270,
        }
    }

    fn quarter_turns(self) -> usize {
        match self {
            PivotAngle::Quarter => 1,
            PivotAngle::Half => 2,
            PivotAngle::ThreeQuarters => 3,
        }
    }
}

impl TryFrom<u16> for PivotAngle {
    type Error = String;
    fn try_from(d: u16) -> Result<Self, Self::Error> {
        PivotAngle::ALL
            .into_iter()
            .find(|a| a.degrees() == d)
            .ok_or_else(|| format!("pivot of {d} degrees; expected 90, 180 or 270"))
    }
}

impl From<PivotAngle> for u16 {
    fn from(a: PivotAngle) -> u16 {
        a.degrees()
    }
}

/// Which face is at each position: one of the 24 rotations of a cube. Written as the faces on top
/// and to the north, `{"top": 1, "north": 3}` (these two fix the rest).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "OrientationSpec", into = "OrientationSpec")]
pub struct Orientation {
    /// `face_at[position.index()]`.
    face_at: [Face; 6],
}

/// The file form of an [`Orientation`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OrientationSpec {
    pub top: Face,
    pub north: Face,
}

impl TryFrom<OrientationSpec> for Orientation {
    type Error = String;
    fn try_from(s: OrientationSpec) -> Result<Self, Self::Error> {
        Orientation::from_top_north(s.top, s.north).ok_or_else(|| {
            format!(
                "faces {} (top) and {} (north) are not neighbours on a cube; expected two adjacent faces (faces 1-2, 3-5 and 4-6 are opposite)",
                s.top.number(),
                s.north.number()
            )
        })
    }
}

impl From<Orientation> for OrientationSpec {
    fn from(o: Orientation) -> Self {
        OrientationSpec {
            top: o.face_at(Position::Top),
            north: o.face_at(Position::North),
        }
    }
}

impl Default for Orientation {
    fn default() -> Self {
        Orientation { face_at: Face::ALL }
    }
}

impl Orientation {
    /// Face 1 on top, 2 at the bottom, 3 north, 4 east, 5 south, 6 west.
    pub fn identity() -> Self {
        Orientation::default()
    }

    pub fn face_at(&self, position: Position) -> Face {
        self.face_at[position.index()]
    }

    /// The orientation after rolling one space toward `direction`.
    pub fn rolled(&self, direction: Direction) -> Orientation {
        let side = Position::side(direction);
        let back = side.opposite();
        let mut next = *self;
        next.face_at[Position::Bottom.index()] = self.face_at(side);
        next.face_at[side.index()] = self.face_at(Position::Top);
        next.face_at[Position::Top.index()] = self.face_at(back);
        next.face_at[back.index()] = self.face_at(Position::Bottom);
        next
    }

    /// The orientation after pivoting where it sits (top and bottom unchanged).
    pub fn pivoted(&self, angle: PivotAngle) -> Orientation {
        let mut o = *self;
        for _ in 0..angle.quarter_turns() {
            let prev = o;
            o.face_at[Position::East.index()] = prev.face_at(Position::North);
            o.face_at[Position::South.index()] = prev.face_at(Position::East);
            o.face_at[Position::West.index()] = prev.face_at(Position::South);
            o.face_at[Position::North.index()] = prev.face_at(Position::West);
        }
        o
    }

    /// All 24 rotations of a cube, the identity first.
    pub fn all() -> Vec<Orientation> {
        let mut found = vec![Orientation::identity()];
        let mut i = 0;
        while i < found.len() {
            let o = found[i];
            for next in [
                o.rolled(Direction::North),
                o.rolled(Direction::East),
                o.pivoted(PivotAngle::Quarter),
            ] {
                if !found.contains(&next) {
                    found.push(next);
                }
            }
            i += 1;
        }
        found
    }

    /// The rotation with `top` on top and `north` to the north; `None` when the two faces are the
    /// same or opposite.
    pub fn from_top_north(top: Face, north: Face) -> Option<Orientation> {
        Orientation::all()
            .into_iter()
            .find(|o| o.face_at(Position::Top) == top && o.face_at(Position::North) == north)
    }
}

/// A tile could not be stuck to a face that already holds one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("the {position} face of the cube already holds a tile")]
pub struct FaceTaken {
    pub position: Position,
}

/// An Octopus cube with the tiles magnetised to its faces.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Cube {
    pub orientation: Orientation,
    /// `tiles[face]`: each face holds at most one tile.
    tiles: [Option<Tile>; 6],
}

impl Cube {
    /// An empty cube in the starting orientation.
    pub fn new() -> Self {
        Cube::default()
    }

    pub fn tile_at(&self, position: Position) -> Option<Tile> {
        self.tiles[self.orientation.face_at(position).index()]
    }

    pub fn tile_on(&self, face: Face) -> Option<Tile> {
        self.tiles[face.index()]
    }

    /// Sticks a tile to the face at `position`; refuses (changing nothing) when that face has one.
    pub fn attach(&mut self, position: Position, tile: Tile) -> Result<(), FaceTaken> {
        let slot = &mut self.tiles[self.orientation.face_at(position).index()];
        if slot.is_some() {
            return Err(FaceTaken { position });
        }
        *slot = Some(tile);
        Ok(())
    }

    /// Removes and returns the tile at `position`.
    pub fn detach(&mut self, position: Position) -> Option<Tile> {
        self.tiles[self.orientation.face_at(position).index()].take()
    }

    /// Replaces the tile at `position`, returning the one it held.
    pub fn replace(&mut self, position: Position, tile: Option<Tile>) -> Option<Tile> {
        std::mem::replace(&mut self.tiles[self.orientation.face_at(position).index()], tile)
    }

    pub fn roll(&mut self, direction: Direction) {
        self.orientation = self.orientation.rolled(direction);
    }

    pub fn pivot(&mut self, angle: PivotAngle) {
        self.orientation = self.orientation.pivoted(angle);
    }

    /// The tiles by position, in [`Position::ALL`] order.
    pub fn tiles(&self) -> impl Iterator<Item = (Position, Tile)> + '_ {
        Position::ALL
            .into_iter()
            .filter_map(|p| self.tile_at(p).map(|t| (p, t)))
    }

    /// Positions whose face holds no tile.
    pub fn empty_positions(&self) -> impl Iterator<Item = Position> + '_ {
        Position::ALL.into_iter().filter(|p| self.tile_at(*p).is_none())
    }

    pub fn tile_count(&self) -> usize {
        self.tiles.iter().flatten().count()
    }

    pub fn is_full(&self) -> bool {
        self.tile_count() == self.tiles.len()
    }

    /// Takes every tile off the cube, in [`Position::ALL`] order.
    pub fn take_all(&mut self) -> Vec<Tile> {
        Position::ALL.into_iter().filter_map(|p| self.detach(p)).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn tile(s: &str) -> Tile {
        s.parse().unwrap()
    }

    #[test]
    fn rolling_north_tips_the_north_face_to_the_bottom() {
        let mut c = Cube::new();
        c.attach(Position::North, tile("pearl/white")).unwrap();
        c.attach(Position::Top, tile("coin")).unwrap();
        c.roll(Direction::North);
        assert_eq!(c.tile_at(Position::Bottom), Some(tile("pearl/white")));
        assert_eq!(c.tile_at(Position::North), Some(tile("coin")));
        c.roll(Direction::South);
        assert_eq!(c.tile_at(Position::North), Some(tile("pearl/white")));
        assert_eq!(c.tile_at(Position::Top), Some(tile("coin")));
    }

    #[test]
    fn rolling_east_moves_the_top_to_the_east_side() {
        let o = Orientation::identity().rolled(Direction::East);
        assert_eq!(o.face_at(Position::East).number(), 1);
        assert_eq!(o.face_at(Position::Bottom).number(), 4);
        assert_eq!(o.face_at(Position::Top).number(), 6);
        assert_eq!(o.face_at(Position::North).number(), 3);
    }

    #[test]
    fn pivot_keeps_top_and_bottom_and_turns_clockwise() {
        let o = Orientation::identity().pivoted(PivotAngle::Quarter);
        assert_eq!(o.face_at(Position::Top).number(), 1);
        assert_eq!(o.face_at(Position::Bottom).number(), 2);
        assert_eq!(o.face_at(Position::East).number(), 3);
        assert_eq!(
            Orientation::identity().pivoted(PivotAngle::ThreeQuarters),
            o.pivoted(PivotAngle::Half)
        );
    }

    #[test]
    fn there_are_24_orientations_and_two_faces_fix_one() {
        let all = Orientation::all();
        assert_eq!(all.len(), 24);
        for o in &all {
            let spec = OrientationSpec::from(*o);
            assert_eq!(Orientation::try_from(spec).unwrap(), *o);
        }
        let f = |n| Face::try_from(n).unwrap();
        assert!(Orientation::from_top_north(f(1), f(2)).is_none());
        assert!(Orientation::from_top_north(f(3), f(3)).is_none());
        let err = serde_json::from_str::<Orientation>(r#"{"top": 4, "north": 6}"#).unwrap_err();
        assert!(err.to_string().contains("not neighbours"), "{err}");
        assert!(serde_json::from_str::<Orientation>(r#"{"top": 7, "north": 1}"#).is_err());
    }

    #[test]
    fn a_face_holds_one_tile() {
        let mut c = Cube::new();
        c.attach(Position::Bottom, tile("coin")).unwrap();
        assert_eq!(
            c.attach(Position::Bottom, tile("pearl/green")),
            Err(FaceTaken {
                position: Position::Bottom
            })
        );
        assert_eq!(c.tile_at(Position::Bottom), Some(tile("coin")));
        assert_eq!(c.tile_count(), 1);
    }

    fn direction() -> impl Strategy<Value = Direction> {
        prop::sample::select(Direction::ALL.to_vec())
    }

    #[derive(Debug, Clone)]
    enum Move {
        Roll(Direction),
        Pivot(PivotAngle),
        Attach(Position),
        Detach(Position),
    }

    fn a_move() -> impl Strategy<Value = Move> {
        let pos = prop::sample::select(Position::ALL.to_vec());
        prop_oneof![
            direction().prop_map(Move::Roll),
            prop::sample::select(PivotAngle::ALL.to_vec()).prop_map(Move::Pivot),
            pos.clone().prop_map(Move::Attach),
            pos.prop_map(Move::Detach),
        ]
    }

    proptest! {
        #[test]
        fn rolling_four_times_one_way_restores_the_orientation(
            start in prop::collection::vec((direction(), prop::sample::select(PivotAngle::ALL.to_vec())), 0..8),
            d in direction(),
        ) {
            let mut o = Orientation::identity();
            for (dir, angle) in start {
                o = o.rolled(dir).pivoted(angle);
            }
            let mut r = o;
            for _ in 0..4 {
                r = r.rolled(d);
            }
            prop_assert_eq!(r, o);
            prop_assert_eq!(o.rolled(d).rolled(d.opposite()), o);
            prop_assert!(Orientation::all().contains(&o));
        }

        #[test]
        fn faces_hold_at_most_one_tile_and_tiles_are_never_lost(moves in prop::collection::vec(a_move(), 0..60)) {
            let mut c = Cube::new();
            let (mut attached, mut detached) = (0usize, 0usize);
            for (i, m) in moves.into_iter().enumerate() {
                match m {
                    Move::Roll(d) => c.roll(d),
                    Move::Pivot(a) => c.pivot(a),
                    Move::Attach(p) => {
                        let had = c.tile_at(p);
                        let t = Tile::object(
                            crate::games::octocube::tile::Object::ALL[i % 5],
                            crate::games::octocube::tile::Background::ALL[i % 4],
                        );
                        match c.attach(p, t) {
                            Ok(()) => { prop_assert!(had.is_none()); attached += 1; }
                            Err(_) => prop_assert_eq!(c.tile_at(p), had),
                        }
                    }
                    Move::Detach(p) => if c.detach(p).is_some() { detached += 1 },
                }
                prop_assert!(c.tile_count() <= 6);
                prop_assert_eq!(c.tile_count(), attached - detached);
                prop_assert_eq!(c.tiles().count(), c.tile_count());
            }
        }
    }
}
