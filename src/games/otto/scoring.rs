//! Scoring, as the rulebook's "Scoring" and "End of game" sections say.
//!
//! One tile: an Arm tile scores 1; a Fish tile the points shown on it; a Bubbles tile 0; an End
//! tile 1 plus 1 per Arm tile of the arm it completes; an End tile holding a shell 2 plus 2 per
//! Arm tile. Then +1 on a Seaweed square, then x2 on a Coral square (`docs/spec/games.md` fixes
//! that order). At the end each player deducts 1 point per tile left in hand — in solo play, per
//! tile left both in hand and in the draw pile. The most points wins; the rulebook names no
//! tie-break, so tied players share the rank.

use super::tile::Tile;
use serde::{Deserialize, Serialize};

pub const ARM_TILE_POINTS: u32 = 1;
pub const BUBBLES_POINTS: u32 = 0;
pub const END_POINTS: u32 = 1;
pub const END_POINTS_PER_ARM_TILE: u32 = 1;
pub const SHELL_END_POINTS: u32 = 2;
pub const SHELL_END_POINTS_PER_ARM_TILE: u32 = 2;
pub const SEAWEED_BONUS: u32 = 1;
pub const CORAL_MULTIPLIER: u32 = 2;
pub const HAND_PENALTY_PER_TILE: u32 = 1;

/// The points one placed tile scores, with how they were reached.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Points {
    /// The tile's own points (for an End tile, including its arm).
    pub base: u32,
    /// +1 on a Seaweed square, else 0.
    pub seaweed_bonus: u32,
    /// 2 on a Coral square, else 1.
    pub coral_multiplier: u32,
    /// (base + seaweed_bonus) x coral_multiplier.
    pub total: u32,
    /// For an End tile: the number of Arm tiles in the arm it completes.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub arm_tiles: Option<u32>,
}

/// What the tile itself scores before the square's bonuses. `arm_tiles` is the number of Arm
/// tiles of the arm an End tile completes (ignored for other tiles).
pub fn base_points(tile: &Tile, arm_tiles: u32) -> u32 {
    match tile {
        Tile::Arm(_) => ARM_TILE_POINTS,
        Tile::End(e) if e.shell => SHELL_END_POINTS + SHELL_END_POINTS_PER_ARM_TILE * arm_tiles,
        Tile::End(_) => END_POINTS + END_POINTS_PER_ARM_TILE * arm_tiles,
        Tile::Fish(f) => f.points,
        Tile::Bubbles => BUBBLES_POINTS,
    }
}

/// Scores one tile on its square.
pub fn score_tile(tile: &Tile, arm_tiles: u32, on_seaweed: bool, on_coral: bool) -> Points {
    let base = base_points(tile, arm_tiles);
    let seaweed_bonus = if on_seaweed { SEAWEED_BONUS } else { 0 };
    let coral_multiplier = if on_coral { CORAL_MULTIPLIER } else { 1 };
    Points {
        base,
        seaweed_bonus,
        coral_multiplier,
        total: (base + seaweed_bonus) * coral_multiplier,
        arm_tiles: matches!(tile, Tile::End(_)).then_some(arm_tiles),
    }
}

/// The end-of-game deduction for the tiles a player still holds (and, in solo play, the tiles
/// still in the draw pile: pass them in `tiles_left`).
pub fn hand_penalty(tiles_left: u32) -> u32 {
    HAND_PENALTY_PER_TILE * tiles_left
}

/// Ranks totals, highest first; equal totals share a rank (1, 1, 3, ...).
pub fn ranks(totals: &[i64]) -> Vec<u32> {
    totals
        .iter()
        .map(|t| 1 + totals.iter().filter(|o| *o > t).count() as u32)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::otto::board::{Edge, Side};
    use crate::games::otto::fish::FishEffect;
    use crate::games::otto::tile::{ArmTile, EndTile, FishTile};

    fn shell_end() -> Tile {
        Tile::End(EndTile {
            from: Edge::S,
            shell: true,
        })
    }

    /// The rulebook's worked example: an arm of 5 Arm tiles completed by an End tile holding a
    /// shell on a Coral square scores 6 x 2 x 2 = 24.
    #[test]
    fn shell_end_on_coral_scores_24_for_five_arm_tiles() {
        let p = score_tile(&shell_end(), 5, false, true);
        assert_eq!(p.total, 24);
        assert_eq!((p.base, p.coral_multiplier, p.arm_tiles), (12, 2, Some(5)));
    }

    #[test]
    fn each_tile_scores_as_the_rulebook_says() {
        let arm = Tile::Arm(ArmTile::new(Edge::S, Edge::N, Side::Left).unwrap());
        let end = Tile::End(EndTile {
            from: Edge::S,
            shell: false,
        });
        let fish = Tile::Fish(FishTile {
            species: "angler".into(),
            points: 3,
            outer_ring_only: true,
            effect: FishEffect::None,
        });
        assert_eq!(score_tile(&arm, 0, false, false).total, 1);
        assert_eq!(score_tile(&end, 3, false, false).total, 4);
        assert_eq!(score_tile(&shell_end(), 3, false, false).total, 8);
        assert_eq!(score_tile(&fish, 0, false, false).total, 3);
        assert_eq!(score_tile(&Tile::Bubbles, 0, false, false).total, 0);
        // "Placing any tile (including a Bubbles tile) on a Seaweed square scores 1 extra point."
        assert_eq!(score_tile(&Tile::Bubbles, 0, true, false).total, 1);
        assert_eq!(score_tile(&fish, 0, true, false).total, 4);
        // "completing an Arm with its End tile placed on a Coral square will score 2 points for
        // each tile of that arm (including the End tile)": 3 Arm tiles + End = 4 tiles -> 8.
        assert_eq!(score_tile(&end, 3, false, true).total, 8);
        // ... "with an End tile holding a shell ... 4 points for each tile": 4 tiles -> 16.
        assert_eq!(score_tile(&shell_end(), 3, false, true).total, 16);
        // Seaweed first, then coral.
        assert_eq!(score_tile(&arm, 0, true, true).total, 4);
    }

    #[test]
    fn ties_share_a_rank() {
        assert_eq!(ranks(&[10, 12, 10, 3]), vec![2, 1, 2, 4]);
        assert_eq!(ranks(&[-2]), vec![1]);
        assert_eq!(hand_penalty(3), 3);
    }
}
