//! BAD No.1: "You can't flick the treasure that is closest to your ship."
//!
//! The closest treasure to a ship = the smallest gap among the treasures that are in the ocean,
//! not loaded and not on the Nameless Island (table.md). "If you can't tell which treasure is
//! closest to your ship, you may choose which one to flick (with the consent of other players)":
//! when the runner-up is within the tolerance of the closest, the call is **too close to call**
//! and every treasure within the tolerance is a candidate for the closest.

use super::rulings::TreasureGap;

/// The closest-treasure call for one ship.
#[derive(Debug, Clone, PartialEq)]
pub struct ClosestCall {
    /// Every candidate treasure's gap, smallest first (equal gaps in id order).
    pub gaps: Vec<TreasureGap>,
    /// The smallest measured gap; `None` when no treasure is in the ocean.
    pub closest: Option<String>,
    /// Every treasure within the tolerance of the closest (the closest included).
    pub candidates: Vec<String>,
    /// The runner-up is within the tolerance of the closest.
    pub too_close_to_call: bool,
}

/// Sorts `items` by gap, smallest first (equal gaps by id, so a ruling never depends on input
/// order), and returns how many lie within `tolerance_mm` of the smallest (0 when empty).
pub fn rank_by_gap<T>(
    items: &mut [T],
    gap_of: impl Fn(&T) -> f64,
    id_of: impl Fn(&T) -> &str,
    tolerance_mm: f64,
) -> usize {
    items.sort_by(|a, b| {
        gap_of(a)
            .total_cmp(&gap_of(b))
            .then_with(|| id_of(a).cmp(id_of(b)))
    });
    match items.first() {
        None => 0,
        Some(first) => {
            let limit = gap_of(first) + tolerance_mm;
            items.iter().take_while(|t| gap_of(t) <= limit).count()
        }
    }
}

/// Calls the closest treasure among `gaps` (the candidate treasures' gaps to one ship).
pub fn call_closest(mut gaps: Vec<TreasureGap>, tolerance_mm: f64) -> ClosestCall {
    let within = rank_by_gap(&mut gaps, |g| g.gap_mm, |g| g.id.as_str(), tolerance_mm);
    ClosestCall {
        closest: gaps.first().map(|g| g.id.clone()),
        candidates: gaps[..within].iter().map(|g| g.id.clone()).collect(),
        too_close_to_call: within >= 2,
        gaps,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::crash_octopus::TreasureType;
    use proptest::prelude::*;

    fn g(id: &str, gap_mm: f64) -> TreasureGap {
        TreasureGap {
            id: id.into(),
            treasure: Some(TreasureType::Gold),
            gap_mm,
            uncertainty_mm: 1.4,
        }
    }

    #[test]
    fn a_clear_call_and_a_tie() {
        let clear = call_closest(vec![g("p5", 30.0), g("p4", 12.3), g("p7", 40.0)], 3.0);
        assert_eq!(clear.closest.as_deref(), Some("p4"));
        assert!(!clear.too_close_to_call);
        assert_eq!(clear.candidates, vec!["p4"]);
        assert_eq!(clear.gaps[1].id, "p5");

        // The rulebook: "If you can't tell which treasure is closest to your ship, you may choose".
        let tie = call_closest(vec![g("p9", 15.0), g("p3", 14.1), g("p1", 18.0)], 3.0);
        assert_eq!(tie.closest.as_deref(), Some("p3"));
        assert!(tie.too_close_to_call);
        assert_eq!(tie.candidates, vec!["p3", "p9"]);

        let none = call_closest(Vec::new(), 3.0);
        assert_eq!(none.closest, None);
        assert!(!none.too_close_to_call && none.candidates.is_empty());
    }

    #[test]
    fn the_tolerance_edge_is_inside() {
        assert!(call_closest(vec![g("a", 10.0), g("b", 13.0)], 3.0).too_close_to_call);
        assert!(!call_closest(vec![g("a", 10.0), g("b", 13.01)], 3.0).too_close_to_call);
        // Two treasures touching the ship at once can never be told apart.
        assert!(call_closest(vec![g("a", 0.0), g("b", 0.0)], 0.0).too_close_to_call);
    }

    fn arb_gaps() -> impl Strategy<Value = Vec<TreasureGap>> {
        prop::collection::vec(0.0..300.0f64, 0..25).prop_map(|v| {
            v.into_iter()
                .enumerate()
                .map(|(i, gap)| g(&format!("p{i}"), gap))
                .collect()
        })
    }

    proptest! {
        #[test]
        fn the_closest_is_the_argmin(gaps in arb_gaps(), tol in 0.0..10.0f64) {
            let min = gaps.iter().map(|g| g.gap_mm).fold(f64::INFINITY, f64::min);
            let call = call_closest(gaps.clone(), tol);
            match call.closest {
                None => prop_assert!(gaps.is_empty()),
                Some(id) => {
                    let chosen = gaps.iter().find(|g| g.id == id).unwrap();
                    prop_assert_eq!(chosen.gap_mm, min);
                }
            }
        }

        #[test]
        fn too_close_to_call_iff_the_runner_up_is_within_tolerance(
            gaps in arb_gaps(), tol in 0.0..10.0f64
        ) {
            let mut sorted: Vec<f64> = gaps.iter().map(|g| g.gap_mm).collect();
            sorted.sort_by(f64::total_cmp);
            let expected = sorted.len() >= 2 && sorted[1] - sorted[0] <= tol;
            let call = call_closest(gaps, tol);
            prop_assert_eq!(call.too_close_to_call, expected);
            for c in &call.candidates {
                let gap = call.gaps.iter().find(|g| &g.id == c).unwrap().gap_mm;
                prop_assert!(gap <= sorted[0] + tol);
            }
        }

        #[test]
        fn a_treasure_far_away_never_changes_the_closest(
            gaps in arb_gaps(), tol in 0.0..10.0f64, extra in 0.0..1000.0f64
        ) {
            let before = call_closest(gaps.clone(), tol);
            let min = gaps.iter().map(|g| g.gap_mm).fold(f64::INFINITY, f64::min);
            let mut more = gaps;
            // "Far away": beyond the tolerance of the closest.
            let far = if min.is_finite() { min + tol + 0.001 + extra } else { extra };
            more.push(g("far", far));
            let after = call_closest(more, tol);
            if min.is_finite() {
                prop_assert_eq!(&after.closest, &before.closest);
                prop_assert_eq!(&after.candidates, &before.candidates);
                prop_assert_eq!(after.too_close_to_call, before.too_close_to_call);
            } else {
                prop_assert_eq!(after.closest.as_deref(), Some("far"));
            }
        }
    }
}
