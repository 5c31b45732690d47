//! The Nameless Island (module): a treasure lying on the island is collected by touching it with a
//! flicked anchor (or the Octo-Canon), "except the player whose anchor (or Octo-Canon) is closest
//! to the island, measured at the start of the turn" (games.md; the Pirate's rule: "if the
//! Octo-Canon is closer to the island than the other anchors, it cannot collect the treasure").
//! Gaps are footprint to footprint; the same tolerance as for treasures makes a call too close.

use super::closest::rank_by_gap;
use super::question::Question;
use super::rulings::{AnchorGap, IslandRuling};
use super::words;
use crate::games::crash_octopus::PlayerColor;

/// Calls who is closest to the island among `gaps` (anchors and the Octo-Canon in the ocean).
pub fn call_island(
    island_id: &str,
    treasures: Vec<String>,
    mut gaps: Vec<AnchorGap>,
    tolerance_mm: f64,
) -> IslandRuling {
    let within = rank_by_gap(&mut gaps, |g| g.gap_mm, |g| g.id.as_str(), tolerance_mm);
    IslandRuling {
        id: island_id.to_string(),
        treasures,
        closest: gaps.first().map(|g| g.player),
        too_close_to_call: within >= 2,
        closest_candidates: gaps[..within].iter().map(|g| g.player).collect(),
        gaps_mm: gaps,
    }
}

fn anchor_name(p: PlayerColor) -> String {
    if p.is_pirate() {
        "the Octo-Canon".into()
    } else {
        format!("the {p} anchor")
    }
}

fn who(p: PlayerColor) -> String {
    if p.is_pirate() {
        "the Pirate".into()
    } else {
        p.to_string()
    }
}

/// The island ruling in plain words, and the question a tie raises.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct IslandWords {
    pub messages: Vec<String>,
    pub question: Option<Question>,
}

/// The island ruling in plain words (only when a treasure lies on it).
pub fn island_messages(r: &IslandRuling) -> IslandWords {
    if r.treasures.is_empty() {
        return IslandWords::default();
    }
    let Some(first) = r.gaps_mm.first() else {
        return IslandWords::default();
    };
    if r.too_close_to_call {
        let tied = &r.gaps_mm[..r.closest_candidates.len()];
        let names: Vec<String> = tied.iter().map(|g| anchor_name(g.player)).collect();
        let gaps: Vec<String> = tied.iter().map(|g| words::mm(g.gap_mm)).collect();
        let text = format!(
            "Nameless Island: too close to call between {}: {} mm away (± {} mm) — choose \
             together who may not collect the island's treasure this turn, or measure by hand.",
            words::and_list(&names),
            words::and_list(&gaps),
            words::mm(first.uncertainty_mm),
        );
        let q = Question::IslandTooCloseToCall {
            players: r.closest_candidates.clone(),
        };
        IslandWords {
            messages: vec![text],
            question: Some(q),
        }
    } else {
        let mut text = format!(
            "Nameless Island: {} is the closest to the island ({} mm): {} may not collect the \
             island's treasure this turn (measured at the start of the turn)",
            anchor_name(first.player),
            words::mm(first.gap_mm),
            who(first.player),
        );
        if first.player.is_pirate() {
            text.push_str("; the Pirate may move the pirate ship instead");
        }
        text.push('.');
        IslandWords {
            messages: vec![text],
            question: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use PlayerColor::*;

    fn a(player: PlayerColor, id: &str, gap_mm: f64) -> AnchorGap {
        AnchorGap {
            player,
            id: id.into(),
            gap_mm,
            uncertainty_mm: 1.4,
        }
    }

    #[test]
    fn the_closest_anchor_may_not_collect() {
        let r = call_island(
            "p20",
            vec!["p3".into()],
            vec![a(Green, "p6", 40.0), a(Orange, "p5", 23.0), a(Pink, "p9", 60.0)],
            3.0,
        );
        assert_eq!(r.closest, Some(Orange));
        assert!(!r.too_close_to_call);
        let IslandWords {
            messages: msgs,
            question: q,
        } = island_messages(&r);
        assert!(q.is_none());
        assert!(
            msgs[0]
                .contains("the orange anchor is the closest to the island (23.0 mm): orange may not collect")
        );
    }

    #[test]
    fn the_octo_canon_counts_and_ties_are_asked() {
        let r = call_island(
            "p20",
            vec!["p3".into()],
            vec![a(Pink, "p9", 20.0), a(Blue, "p7", 22.0)],
            3.0,
        );
        assert!(r.too_close_to_call);
        assert_eq!(r.closest_candidates, vec![Pink, Blue]);
        let IslandWords {
            messages: msgs,
            question: q,
        } = island_messages(&r);
        assert!(
            msgs[0].contains("the Octo-Canon and the blue anchor"),
            "{}",
            msgs[0]
        );
        assert_eq!(
            q,
            Some(Question::IslandTooCloseToCall {
                players: vec![Pink, Blue]
            })
        );
        let alone = call_island("p20", vec!["p3".into()], vec![a(Pink, "p9", 20.0)], 3.0);
        assert!(island_messages(&alone).messages[0].contains("the Pirate may not collect"));
        let bare = call_island("p20", Vec::new(), vec![a(Pink, "p9", 20.0)], 3.0);
        assert!(island_messages(&bare).messages.is_empty());
    }
}
