//! The tiles: Arm tiles (straight, or a curve with the suckers inside or outside the bend), End
//! tiles (plain or holding a shell), Fish tiles and Bubbles tiles.
//!
//! A placed Arm tile is described the way a game record writes it (`docs/spec/cli.md`): `from` is
//! the edge that joins the arm toward Otto, `to` the open edge, and `suckers` the side of the
//! suckers looking along the arm away from Otto. Which physical tile that is (its [`ArmShape`])
//! follows from those three: `from` opposite `to` is straight; otherwise the arm bends left or
//! right, and the suckers are inside the bend when they are on the side it turns to.

use super::board::{Edge, Side};
use super::fish::FishEffect;
use serde::{Deserialize, Serialize};

/// The three kinds of Arm tile in the box.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ArmShape {
    Straight,
    CurveSuckersInside,
    CurveSuckersOutside,
}

/// Which way an Arm tile takes the arm, looking along it away from Otto.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Bend {
    Straight,
    Left,
    Right,
}

/// An Arm tile as placed: joined toward Otto through `from`, open through `to`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(try_from = "ArmTileData")]
pub struct ArmTile {
    pub from: Edge,
    pub to: Edge,
    pub suckers: Side,
}

#[derive(Debug, Clone, Copy, Deserialize)]
struct ArmTileData {
    from: Edge,
    to: Edge,
    suckers: Side,
}

impl TryFrom<ArmTileData> for ArmTile {
    type Error = TileError;
    fn try_from(d: ArmTileData) -> Result<ArmTile, TileError> {
        ArmTile::new(d.from, d.to, d.suckers)
    }
}

/// A tile description that no real tile matches.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TileError {
    #[error("an Arm tile joins two different edges: `from` and `to` are both {0}")]
    SameEdges(Edge),
}

impl ArmTile {
    pub fn new(from: Edge, to: Edge, suckers: Side) -> Result<ArmTile, TileError> {
        if from == to {
            return Err(TileError::SameEdges(from));
        }
        Ok(ArmTile { from, to, suckers })
    }

    /// Which way the arm goes across this tile (entering through `from`, leaving through `to`).
    pub fn bend(&self) -> Bend {
        let heading = self.from.opposite();
        if self.to == heading {
            Bend::Straight
        } else if self.to == heading.to_left() {
            Bend::Left
        } else {
            Bend::Right
        }
    }

    /// The physical tile: straight, or a curve with its suckers inside or outside the bend.
    pub fn shape(&self) -> ArmShape {
        match (self.bend(), self.suckers) {
            (Bend::Straight, _) => ArmShape::Straight,
            (Bend::Left, Side::Left) | (Bend::Right, Side::Right) => ArmShape::CurveSuckersInside,
            _ => ArmShape::CurveSuckersOutside,
        }
    }
}

/// An End tile as placed: joined to the arm's last Arm tile through `from`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct EndTile {
    pub from: Edge,
    #[serde(default)]
    pub shell: bool,
}

/// A Fish tile: its species and what the Fish Identifier card says about it.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct FishTile {
    pub species: String,
    pub points: u32,
    /// Must go on the outer ring of squares (the Angler Fish).
    #[serde(default)]
    pub outer_ring_only: bool,
    #[serde(default = "no_effect")]
    pub effect: FishEffect,
}

fn no_effect() -> FishEffect {
    FishEffect::None
}

/// A tile as it lies on the Ocean.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "tile", rename_all = "snake_case")]
pub enum Tile {
    Arm(ArmTile),
    End(EndTile),
    Fish(FishTile),
    Bubbles,
}

/// A tile as it lies in a hand or the draw pile: which physical tile, not yet turned any way.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum TileKind {
    StraightArm,
    CurveSuckersInside,
    CurveSuckersOutside,
    PlainEnd,
    ShellEnd,
    Fish(FishTile),
    Bubbles,
}

impl Tile {
    /// Which physical tile this is.
    pub fn kind(&self) -> TileKind {
        match self {
            Tile::Arm(a) => match a.shape() {
                ArmShape::Straight => TileKind::StraightArm,
                ArmShape::CurveSuckersInside => TileKind::CurveSuckersInside,
                ArmShape::CurveSuckersOutside => TileKind::CurveSuckersOutside,
            },
            Tile::End(e) if e.shell => TileKind::ShellEnd,
            Tile::End(_) => TileKind::PlainEnd,
            Tile::Fish(f) => TileKind::Fish(f.clone()),
            Tile::Bubbles => TileKind::Bubbles,
        }
    }

    /// The record's name for the tile type: `arm`, `end`, `fish` or `bubbles`.
    pub fn type_name(&self) -> &'static str {
        match self {
            Tile::Arm(_) => "arm",
            Tile::End(_) => "end",
            Tile::Fish(_) => "fish",
            Tile::Bubbles => "bubbles",
        }
    }
}

impl TileKind {
    /// A short name for output: `straight_arm`, `shell_end`, `fish:angler`, ...
    pub fn label(&self) -> String {
        match self {
            TileKind::StraightArm => "straight_arm".into(),
            TileKind::CurveSuckersInside => "curve_suckers_inside".into(),
            TileKind::CurveSuckersOutside => "curve_suckers_outside".into(),
            TileKind::PlainEnd => "plain_end".into(),
            TileKind::ShellEnd => "shell_end".into(),
            TileKind::Fish(f) => format!("fish:{}", f.species),
            TileKind::Bubbles => "bubbles".into(),
        }
    }

    /// The same words a player would use: "a straight Arm tile", "an End tile with a shell".
    pub fn describe(&self) -> String {
        match self {
            TileKind::StraightArm => "a straight Arm tile".into(),
            TileKind::CurveSuckersInside => "a curved Arm tile with the suckers inside".into(),
            TileKind::CurveSuckersOutside => "a curved Arm tile with the suckers outside".into(),
            TileKind::PlainEnd => "an End tile".into(),
            TileKind::ShellEnd => "an End tile holding a shell".into(),
            TileKind::Fish(f) => format!("a Fish tile ({})", f.species),
            TileKind::Bubbles => "a Bubbles tile".into(),
        }
    }

    pub fn is_arm(&self) -> bool {
        matches!(
            self,
            TileKind::StraightArm | TileKind::CurveSuckersInside | TileKind::CurveSuckersOutside
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn arm(from: Edge, to: Edge, suckers: Side) -> ArmTile {
        ArmTile::new(from, to, suckers).unwrap()
    }

    #[test]
    fn shape_follows_from_edges_and_suckers() {
        // Heading north through the tile.
        assert_eq!(arm(Edge::S, Edge::N, Side::Left).shape(), ArmShape::Straight);
        assert_eq!(arm(Edge::S, Edge::N, Side::Right).shape(), ArmShape::Straight);
        // Turning left (to the west), suckers on the left: inside the bend.
        assert_eq!(
            arm(Edge::S, Edge::W, Side::Left).shape(),
            ArmShape::CurveSuckersInside
        );
        assert_eq!(
            arm(Edge::S, Edge::W, Side::Right).shape(),
            ArmShape::CurveSuckersOutside
        );
        assert_eq!(
            arm(Edge::S, Edge::E, Side::Right).shape(),
            ArmShape::CurveSuckersInside
        );
        assert_eq!(
            arm(Edge::S, Edge::E, Side::Left).shape(),
            ArmShape::CurveSuckersOutside
        );
    }

    /// Read in the other direction the same physical tile swaps `from`/`to` and left/right.
    #[test]
    fn shape_does_not_depend_on_reading_direction() {
        for from in Edge::ALL {
            for to in Edge::ALL.into_iter().filter(|&t| t != from) {
                for s in [Side::Left, Side::Right] {
                    let a = arm(from, to, s);
                    let b = arm(to, from, s.opposite());
                    assert_eq!(a.shape(), b.shape(), "{a:?}");
                }
            }
        }
    }

    #[test]
    fn an_arm_tile_needs_two_edges() {
        assert_eq!(
            ArmTile::new(Edge::N, Edge::N, Side::Left),
            Err(TileError::SameEdges(Edge::N))
        );
        let e = serde_json::from_str::<Tile>(r#"{"tile":"arm","from":"N","to":"N","suckers":"left"}"#);
        assert!(e.is_err());
    }

    #[test]
    fn tiles_serialise_like_the_game_record() {
        let t = Tile::Arm(arm(Edge::S, Edge::N, Side::Left));
        let v = serde_json::to_value(&t).unwrap();
        assert_eq!(
            v,
            serde_json::json!({"tile": "arm", "from": "S", "to": "N", "suckers": "left"})
        );
        let e: Tile = serde_json::from_str(r#"{"tile":"end","from":"S","shell":true}"#).unwrap();
        assert_eq!(e.kind(), TileKind::ShellEnd);
    }
}
