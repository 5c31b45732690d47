//! Which candidate treasures a player may flick: BAD No.1 (not the closest to your ship) and
//! BAD No.2 (not a type you have already loaded), together.
//!
//! When the closest is too close to call, every tied treasure is forbidden with the reason
//! `too_close_to_call` until the players agree which one counts as the closest: the rulebook lets
//! them choose, so octoref does not choose for them. The others of the tie may then be flicked
//! (unless forbidden for another reason). The program never forbids an indirect hit (games.md):
//! it only rules on what may be flicked directly.

use super::closest::ClosestCall;
use super::rulings::{ForbidReason, Forbidden};
use crate::games::crash_octopus::TreasureType;
use std::collections::BTreeSet;

/// Every candidate treasure sorted into flickable or forbidden, smallest gap first.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct FlickRuling {
    pub flickable: Vec<String>,
    pub forbidden: Vec<Forbidden>,
}

/// Sorts the candidate treasures of `call` for a player who has loaded `loaded`.
pub fn may_flick(call: &ClosestCall, loaded: &BTreeSet<TreasureType>) -> FlickRuling {
    let mut out = FlickRuling::default();
    for gap in &call.gaps {
        let mut reasons = Vec::new();
        let tied = call.too_close_to_call && call.candidates.contains(&gap.id);
        if call.closest.as_deref() == Some(gap.id.as_str()) && !call.too_close_to_call {
            reasons.push(ForbidReason::Closest);
        }
        match gap.treasure {
            Some(t) if loaded.contains(&t) => reasons.push(ForbidReason::TypeLoaded),
            Some(_) => {}
            None => reasons.push(ForbidReason::UnknownType),
        }
        if tied {
            reasons.push(ForbidReason::TooCloseToCall);
        }
        reasons.sort();
        match reasons.first() {
            None => out.flickable.push(gap.id.clone()),
            Some(&reason) => out.forbidden.push(Forbidden {
                id: gap.id.clone(),
                reason,
                reasons,
            }),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::super::closest::call_closest;
    use super::super::rulings::TreasureGap;
    use super::*;
    use TreasureType::*;
    use proptest::prelude::*;

    fn g(id: &str, t: Option<TreasureType>, gap_mm: f64) -> TreasureGap {
        TreasureGap {
            id: id.into(),
            treasure: t,
            gap_mm,
            uncertainty_mm: 1.4,
        }
    }

    fn reasons_of(r: &FlickRuling, id: &str) -> Vec<ForbidReason> {
        r.forbidden
            .iter()
            .find(|f| f.id == id)
            .map(|f| f.reasons.clone())
            .unwrap_or_default()
    }

    #[test]
    fn the_cli_example() {
        // cli.md: orange has loaded gold; p4 (gem) is the closest; p8 is a gold.
        let call = call_closest(
            vec![
                g("p4", Some(Gem), 12.3),
                g("p5", Some(Chest), 30.0),
                g("p7", Some(Captain), 45.0),
                g("p8", Some(Gold), 50.0),
            ],
            3.0,
        );
        let r = may_flick(&call, &BTreeSet::from([Gold]));
        assert_eq!(r.flickable, vec!["p5", "p7"]);
        let forbidden: Vec<(&str, ForbidReason)> =
            r.forbidden.iter().map(|f| (f.id.as_str(), f.reason)).collect();
        assert_eq!(
            forbidden,
            vec![("p4", ForbidReason::Closest), ("p8", ForbidReason::TypeLoaded)]
        );
    }

    #[test]
    fn the_closest_of_a_loaded_type_carries_both_reasons() {
        let call = call_closest(vec![g("p1", Some(Gold), 5.0), g("p2", Some(Gem), 20.0)], 3.0);
        let r = may_flick(&call, &BTreeSet::from([Gold]));
        assert_eq!(
            reasons_of(&r, "p1"),
            vec![ForbidReason::Closest, ForbidReason::TypeLoaded]
        );
        assert_eq!(r.flickable, vec!["p2"]);
    }

    #[test]
    fn a_tie_forbids_every_tied_treasure_until_the_players_choose() {
        let call = call_closest(
            vec![
                g("p3", Some(Gold), 14.1),
                g("p9", Some(Chest), 15.0),
                g("p6", None, 16.5),
                g("p2", Some(Gem), 30.0),
            ],
            3.0,
        );
        let r = may_flick(&call, &BTreeSet::from([Gold]));
        assert_eq!(
            reasons_of(&r, "p3"),
            vec![ForbidReason::TypeLoaded, ForbidReason::TooCloseToCall]
        );
        assert_eq!(reasons_of(&r, "p9"), vec![ForbidReason::TooCloseToCall]);
        assert_eq!(
            reasons_of(&r, "p6"),
            vec![ForbidReason::TooCloseToCall, ForbidReason::UnknownType]
        );
        assert_eq!(r.flickable, vec!["p2"]);
    }

    proptest! {
        #[test]
        fn forbidden_and_flickable_split_the_candidates(
            gaps in prop::collection::vec((0.0..200.0f64, 0usize..8), 0..25),
            loaded in prop::collection::btree_set(0usize..7, 0..5),
            tol in 0.0..10.0f64,
        ) {
            let gaps: Vec<TreasureGap> = gaps
                .into_iter()
                .enumerate()
                .map(|(i, (gap, t))| g(&format!("p{i}"), TreasureType::ALL.get(t).copied(), gap))
                .collect();
            let ids: BTreeSet<String> = gaps.iter().map(|g| g.id.clone()).collect();
            let loaded: BTreeSet<TreasureType> =
                loaded.into_iter().map(|i| TreasureType::ALL[i]).collect();
            let call = call_closest(gaps, tol);
            let r = may_flick(&call, &loaded);
            let flick: BTreeSet<String> = r.flickable.iter().cloned().collect();
            let forbid: BTreeSet<String> = r.forbidden.iter().map(|f| f.id.clone()).collect();
            prop_assert_eq!(flick.len(), r.flickable.len());
            prop_assert_eq!(forbid.len(), r.forbidden.len());
            prop_assert!(flick.is_disjoint(&forbid));
            let union: BTreeSet<String> = flick.union(&forbid).cloned().collect();
            prop_assert_eq!(union, ids);
            if let Some(c) = &call.closest {
                prop_assert!(forbid.contains(c), "the closest is never flickable");
            }
            for f in &r.forbidden {
                prop_assert_eq!(Some(&f.reason), f.reasons.first());
            }
        }
    }
}
