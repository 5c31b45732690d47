//! BAD No.2's input: which treasure types a player has loaded. The game state's loads and the
//! treasures seen standing on the player's ship both count; where they disagree, the players are
//! asked, and until they answer the union counts (forbidding a flick is the reversible mistake).

use super::question::Question;
use crate::games::crash_octopus::{PlayerColor, TreasureType};
use std::collections::BTreeSet;

/// A treasure seen standing on a ship.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SeenLoad {
    pub id: String,
    pub treasure: Option<TreasureType>,
}

/// The types that count as loaded for one player, and the questions a disagreement raises.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Loads {
    pub types: BTreeSet<TreasureType>,
    pub questions: Vec<Question>,
}

/// Merges the game state's loads for `player` (`None`: no game state known) with what is seen on
/// the player's ship (`ship_seen = false`: the ship itself was not found, so absence proves
/// nothing).
pub fn merge_loads(
    player: PlayerColor,
    recorded: Option<&BTreeSet<TreasureType>>,
    seen: &[SeenLoad],
    ship_seen: bool,
) -> Loads {
    let seen_types: BTreeSet<TreasureType> = seen.iter().filter_map(|s| s.treasure).collect();
    let mut out = Loads {
        types: seen_types.clone(),
        questions: Vec::new(),
    };
    let Some(recorded) = recorded else {
        return out;
    };
    out.types.extend(recorded.iter().copied());
    for s in seen {
        if let Some(t) = s.treasure
            && !recorded.contains(&t)
        {
            out.questions.push(Question::LoadNotInGame {
                player,
                piece: s.id.clone(),
                treasure: t,
            });
        }
    }
    if ship_seen {
        for &t in recorded.difference(&seen_types) {
            out.questions.push(Question::LoadNotSeen { player, treasure: t });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use TreasureType::*;

    fn seen(id: &str, t: TreasureType) -> SeenLoad {
        SeenLoad {
            id: id.into(),
            treasure: Some(t),
        }
    }

    #[test]
    fn both_sources_count_and_disagreements_are_questions() {
        let recorded = BTreeSet::from([Gold, Captain]);
        let l = merge_loads(
            PlayerColor::Orange,
            Some(&recorded),
            &[seen("p7", Gem), seen("p8", Gold)],
            true,
        );
        assert_eq!(l.types, BTreeSet::from([Captain, Gold, Gem]));
        assert_eq!(
            l.questions,
            vec![
                Question::LoadNotInGame {
                    player: PlayerColor::Orange,
                    piece: "p7".into(),
                    treasure: Gem
                },
                Question::LoadNotSeen {
                    player: PlayerColor::Orange,
                    treasure: Captain
                },
            ]
        );
    }

    #[test]
    fn without_a_game_state_only_the_ship_counts_and_nothing_is_asked() {
        let l = merge_loads(PlayerColor::Green, None, &[seen("p1", Chest)], true);
        assert_eq!(l.types, BTreeSet::from([Chest]));
        assert!(l.questions.is_empty());
    }

    #[test]
    fn an_unseen_ship_proves_no_load_missing() {
        let recorded = BTreeSet::from([Gold]);
        let l = merge_loads(PlayerColor::Blue, Some(&recorded), &[], false);
        assert_eq!(l.types, recorded);
        assert!(l.questions.is_empty());
    }
}
