//! The end of a turn, the end of the game and the ranking.
//!
//! Readings octoref uses (the rulebook's "Important Note" and where it leaves room):
//! - The checks run at the end of every turn, after the octopus attack the turn caused, if any.
//! - A player who holds every type in play then wins at once, whoever's turn it was (the Pirate can
//!   complete its set by stealing during someone else's attack). So a fifth type loaded on a blue
//!   bead wins at once; on a black bead the attack comes first and the win stands only if the ship
//!   still holds every type afterwards, otherwise the game goes on. This also applies when the same
//!   load reaches the end of the counter: holding every type beats the counter's end.
//! - When the crab has stepped over the last bead, exactly one final octopus attack is played: the
//!   attack of that black bead, or, when the last bead is blue, an attack played anyway, in the usual
//!   order from the player after the one who moved the crab. Then the game is over.
//! - Ranking: by the number of types loaded, then by the hierarchy (both orders in
//!   `assets/crash_octopus.toml`): who has the highest type wins the tie; if both or neither have it,
//!   the next type decides, and so on. Only identical sets stay tied, and then the rank is shared
//!   (rank numbers skip after a shared rank: 1, 1, 3). Every player ranked first is a winner.

use super::attack::{AttackKind, player_words};
use super::game::{Game, Phase};
use super::player::PlayerColor;
use super::treasure::{Hierarchy, TreasureType, list_types};
use serde::{Deserialize, Serialize};
use std::cmp::Ordering;

/// Why the game ended.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "reason", rename_all = "snake_case")]
pub enum EndReason {
    /// At the end of a turn these players held every type in play.
    AllTypes { winners: Vec<PlayerColor>, types: usize },
    /// The counter reached its end and the final attack was played.
    CounterEnd,
}

impl std::fmt::Display for EndReason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            EndReason::AllTypes { winners, types } => {
                let verb = if winners.len() == 1 { "has" } else { "have" };
                write!(
                    f,
                    "{} {verb} loaded all {types} treasure types",
                    player_words(winners)
                )
            }
            EndReason::CounterEnd => write!(
                f,
                "the Octo-Counter has reached its end and the final octopus attack is over"
            ),
        }
    }
}

/// How the game ended, with the final ranking.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Ending {
    pub reason: EndReason,
    pub ranking: Ranking,
}

/// A player to rank: a name (a colour in a game, any name in `score`) and the types on the ship.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Contender {
    pub name: String,
    pub loaded: Vec<TreasureType>,
}

/// One line of the ranking (`score crash-octopus`'s contract: `name`, `rank`, `types`, `winner`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RankEntry {
    pub name: String,
    /// 1 for the best; shared ranks repeat and the next rank skips (1, 1, 3).
    pub rank: u32,
    /// The number of types loaded.
    pub types: u32,
    /// The types loaded, highest first.
    pub loaded: Vec<TreasureType>,
    pub winner: bool,
}

/// The final ranking with its reasons in plain words.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Ranking {
    /// The tie-break order used, highest first.
    pub hierarchy: Hierarchy,
    /// Best first.
    #[serde(rename = "ranking")]
    pub entries: Vec<RankEntry>,
    pub explanation: Vec<String>,
}

impl Ranking {
    pub fn winners(&self) -> Vec<&str> {
        self.entries
            .iter()
            .filter(|e| e.winner)
            .map(|e| e.name.as_str())
            .collect()
    }
}

/// Compares two sets of types: more types first, then the hierarchy. `Less` = `a` ranks better.
fn compare(a: &[TreasureType], b: &[TreasureType], h: &Hierarchy) -> Ordering {
    b.len().cmp(&a.len()).then_with(|| {
        for t in h.types() {
            match (a.contains(t), b.contains(t)) {
                (true, false) => return Ordering::Less,
                (false, true) => return Ordering::Greater,
                _ => {}
            }
        }
        Ordering::Equal
    })
}

/// Ranks the contenders and explains every tie-break. Contenders with equal sets keep their input
/// order and share a rank.
pub fn rank(contenders: &[Contender], hierarchy: &Hierarchy) -> Ranking {
    let mut sorted: Vec<Contender> = contenders
        .iter()
        .map(|c| Contender {
            name: c.name.clone(),
            loaded: hierarchy.sorted(&c.loaded),
        })
        .collect();
    sorted.sort_by(|a, b| compare(&a.loaded, &b.loaded, hierarchy));

    let mut entries: Vec<RankEntry> = Vec::with_capacity(sorted.len());
    for (i, c) in sorted.iter().enumerate() {
        let rank = match (i, entries.last()) {
            (1.., Some(prev)) if compare(&sorted[i - 1].loaded, &c.loaded, hierarchy) == Ordering::Equal => {
                prev.rank
            }
            _ => i as u32 + 1,
        };
        entries.push(RankEntry {
            name: c.name.clone(),
            rank,
            types: c.loaded.len() as u32,
            loaded: c.loaded.clone(),
            winner: rank == 1,
        });
    }

    let mut explanation = vec![format!(
        "Ranked by the number of treasure types; ties are broken by the hierarchy {hierarchy}."
    )];
    for e in &entries {
        let what = if e.loaded.is_empty() {
            "no treasure".to_string()
        } else {
            format!("{} ({})", count_types(e.loaded.len()), list_types(&e.loaded))
        };
        explanation.push(format!("{}. {}: {what}", e.rank, e.name));
    }
    for pair in sorted.windows(2) {
        let [a, b] = pair else { continue };
        if a.loaded.len() == b.loaded.len() {
            explanation.push(tie_break(a, b, &entries, hierarchy));
        }
    }
    let winners: Vec<&str> = entries
        .iter()
        .filter(|e| e.winner)
        .map(|e| e.name.as_str())
        .collect();
    match winners.as_slice() {
        [] => {}
        [one] => explanation.push(format!("{one} wins.")),
        many => explanation.push(format!("{} share the win.", super::treasure::join_words(many))),
    }
    Ranking {
        hierarchy: hierarchy.clone(),
        entries,
        explanation,
    }
}

fn count_types(n: usize) -> String {
    if n == 1 {
        "1 type".into()
    } else {
        format!("{n} types")
    }
}

/// Why `a` ranks before `b` although they have the same number of types (or why they share a rank).
fn tie_break(a: &Contender, b: &Contender, entries: &[RankEntry], h: &Hierarchy) -> String {
    let n = a.loaded.len();
    let both = if n == 0 {
        format!("{} and {} both have no treasure", a.name, b.name)
    } else {
        format!("{} and {} both have {}", a.name, b.name, count_types(n))
    };
    let mut shared = Vec::new();
    for &t in h.types() {
        match (a.loaded.contains(&t), b.loaded.contains(&t)) {
            (true, true) => shared.push(t),
            (true, false) => {
                let also = if shared.is_empty() {
                    String::new()
                } else {
                    format!(" and both have the {}", list_types(&shared))
                };
                return format!("{both}{also}; {} has the {t}, {} does not.", a.name, b.name);
            }
            _ => {}
        }
    }
    let rank = entries
        .iter()
        .find(|e| e.name == b.name)
        .map(|e| e.rank)
        .unwrap_or(0);
    if n == 0 {
        format!("{both}: they share rank {rank}.")
    } else {
        format!("{both}, the same ones: they share rank {rank}.")
    }
}

impl Game {
    /// The end of the active player's turn (after any attack it caused): a win, the final attack,
    /// the end of the game, or the next player's turn.
    pub(super) fn end_turn(&mut self, out: &mut Vec<String>) {
        self.phase = Phase::Turn;
        let all = self.setup.treasures.hierarchy.len();
        let full: Vec<PlayerColor> = self
            .ships
            .iter()
            .filter(|s| all > 0 && s.type_count() >= all)
            .map(|s| s.owner)
            .collect();
        if !full.is_empty() {
            self.finish(
                EndReason::AllTypes {
                    winners: full,
                    types: all,
                },
                out,
            );
            return;
        }
        if self.counter.at_end() {
            if self.final_attack_started {
                self.finish(EndReason::CounterEnd, out);
            } else {
                let p = self.active_player();
                self.start_attack(AttackKind::Final, p, None, out);
            }
            return;
        }
        self.active = (self.active + 1) % self.ships.len().max(1);
        self.turn += 1;
        out.push(format!("Turn {}: {}'s turn.", self.turn, self.active_player()));
    }

    fn finish(&mut self, reason: EndReason, out: &mut Vec<String>) {
        let contenders: Vec<Contender> = self
            .ships
            .iter()
            .map(|s| Contender {
                name: s.owner.as_str().to_string(),
                loaded: s.loaded().iter().copied().collect(),
            })
            .collect();
        let ranking = rank(&contenders, &self.setup.treasures.hierarchy);
        out.push(format!("Game over: {reason}."));
        out.extend(ranking.explanation.iter().cloned());
        self.ending = Some(Ending { reason, ranking });
        self.phase = Phase::Over;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::crash_octopus::rules_data::RulesData;
    use TreasureType::*;

    fn c(name: &str, loaded: &[TreasureType]) -> Contender {
        Contender {
            name: name.into(),
            loaded: loaded.to_vec(),
        }
    }

    fn five() -> Hierarchy {
        RulesData::builtin().unwrap().types(5).unwrap().clone()
    }

    fn six() -> Hierarchy {
        RulesData::builtin().unwrap().types(6).unwrap().clone()
    }

    fn order(r: &Ranking) -> Vec<(&str, u32)> {
        r.entries.iter().map(|e| (e.name.as_str(), e.rank)).collect()
    }

    #[test]
    fn more_types_rank_first() {
        let r = rank(&[c("green", &[Chest]), c("orange", &[Gem, Chest, Gold])], &five());
        assert_eq!(order(&r), vec![("orange", 1), ("green", 2)]);
        assert_eq!(r.entries[0].types, 3);
        assert_eq!(r.entries[0].loaded, vec![Gold, Gem, Chest]);
        assert!(r.entries[0].winner && !r.entries[1].winner);
        assert_eq!(r.explanation.last().unwrap(), "orange wins.");
    }

    #[test]
    fn five_type_ties_follow_captain_goblet_gold_gem_chest() {
        // Each pair differs at exactly one step of the hierarchy.
        let r = rank(
            &[
                c("a", &[Gem, Chest]),
                c("b", &[Gold, Chest]),
                c("c", &[Goblet, Chest]),
                c("d", &[Captain, Chest]),
                c("e", &[Gem, Gold]),
            ],
            &five(),
        );
        assert_eq!(order(&r), vec![("d", 1), ("c", 2), ("e", 3), ("b", 4), ("a", 5)]);
        assert!(
            r.explanation
                .contains(&"d and c both have 2 types; d has the captain, c does not.".to_string())
        );
        // e = gold + gem beats b = gold + chest on the gem, after both have the gold.
        assert!(r.explanation.contains(
            &"e and b both have 2 types and both have the gold; e has the gem, b does not.".to_string()
        ));
    }

    #[test]
    fn six_type_ties_follow_captain_goblet_gold_chest_bottle_rose() {
        let r = rank(
            &[
                c("rose", &[Rose]),
                c("bottle", &[Bottle]),
                c("chest", &[Chest]),
                c("gold", &[Gold]),
            ],
            &six(),
        );
        assert_eq!(
            order(&r),
            vec![("gold", 1), ("chest", 2), ("bottle", 3), ("rose", 4)]
        );
        // In the five-type order the chest is last; with six types it beats the bottle and rose.
        assert!(r.explanation[0].contains("captain > goblet > gold > chest > bottle > rose"));
    }

    #[test]
    fn the_orders_differ_where_the_rulebooks_differ() {
        // Gem against chest only exists in the five-type game: gem is higher.
        let r = rank(&[c("x", &[Chest]), c("y", &[Gem])], &five());
        assert_eq!(order(&r), vec![("y", 1), ("x", 2)]);
    }

    #[test]
    fn a_tie_that_survives_the_hierarchy_is_shared() {
        let r = rank(
            &[
                c("orange", &[Gold, Gem]),
                c("green", &[Captain]),
                c("blue", &[Gem, Gold]),
                c("purple", &[]),
            ],
            &five(),
        );
        assert_eq!(
            order(&r),
            vec![("orange", 1), ("blue", 1), ("green", 3), ("purple", 4)]
        );
        assert!(r.entries[0].winner && r.entries[1].winner && !r.entries[2].winner);
        assert!(
            r.explanation.contains(
                &"orange and blue both have 2 types, the same ones: they share rank 1.".to_string()
            )
        );
        assert_eq!(r.explanation.last().unwrap(), "orange and blue share the win.");
        assert_eq!(r.winners(), vec!["orange", "blue"]);
        let r = rank(&[c("a", &[]), c("b", &[])], &five());
        assert_eq!(order(&r), vec![("a", 1), ("b", 1)]);
        assert!(
            r.explanation
                .contains(&"a and b both have no treasure: they share rank 1.".to_string())
        );
    }
}

#[cfg(test)]
mod game_tests {
    use super::super::error::RuleError;
    use super::super::game::{Game, Next};
    use super::super::testkit::*;
    use super::*;
    use PlayerColor::*;
    use TreasureType::*;

    const FIVE: [TreasureType; 5] = [Captain, Goblet, Gold, Gem, Chest];

    /// Orange loads the five types in order while green misses; stops after orange's fifth load.
    fn orange_loads_five(beads: &str) -> Game {
        let mut g = new_game(&[Orange, Green], modules(false, false, false), beads);
        for (i, t) in FIVE.into_iter().enumerate() {
            play(&mut g, &[flick(Orange, t)]);
            if i < 4 {
                play(&mut g, &[miss(Green)]);
            }
        }
        g
    }

    #[test]
    fn all_types_at_the_end_of_a_turn_on_a_blue_bead_win_at_once() {
        let g = orange_loads_five("BBBBBBBBBBBBBBBB");
        let end = g.ending().unwrap();
        assert_eq!(
            end.reason,
            EndReason::AllTypes {
                winners: vec![Orange],
                types: 5
            }
        );
        assert_eq!(g.next(), Next::Over);
        assert_eq!(end.ranking.entries[0].name, "orange");
        assert!(end.ranking.entries[0].winner && !end.ranking.entries[1].winner);
        assert!(
            g.log()
                .iter()
                .any(|l| l == "Game over: orange has loaded all 5 treasure types.")
        );
    }

    #[test]
    fn rulebook_fifth_type_on_a_black_bead_attack_first_then_the_win_stands() {
        let mut g = orange_loads_five("BBBBKBBBBBB");
        // The attack comes first: no winner yet.
        assert!(!g.is_over());
        assert_eq!(g.attack().unwrap().order, vec![Green, Orange, Green, Orange]);
        play(&mut g, &[drop_(Green), drop_(Orange), drop_(Green)]);
        assert!(!g.is_over());
        play(&mut g, &[drop_(Orange)]);
        assert!(matches!(
            g.ending().unwrap().reason,
            EndReason::AllTypes { ref winners, .. } if winners == &vec![Orange]
        ));
    }

    #[test]
    fn rulebook_fifth_type_toppled_in_that_attack_the_game_goes_on() {
        let mut g = orange_loads_five("BBBBKBBBBBB");
        play(
            &mut g,
            &[
                drop_(Green),
                drop_(Orange),
                hit(Green, Orange, &[Gold]),
                drop_(Orange),
            ],
        );
        assert!(!g.is_over());
        assert_eq!(g.next(), Next::Turn { player: Green });
        assert_eq!(loaded(&g, Orange), vec![Captain, Goblet, Gem, Chest]);
    }

    #[test]
    fn the_counters_end_plays_one_final_attack_even_after_a_blue_bead() {
        let mut g = new_game(&[Orange, Green], modules(false, false, false), "BB");
        play(&mut g, &[flick(Orange, Gold)]);
        let lines = g.apply(&flick(Green, Gem)).unwrap();
        assert!(
            lines
                .iter()
                .any(|l| l.contains("reached its end: the final octopus attack"))
        );
        let a = g.attack().unwrap();
        assert_eq!((a.kind, a.trigger), (AttackKind::Final, Green));
        assert_eq!(a.order, vec![Orange, Green, Orange, Green]);
        play(
            &mut g,
            &[drop_(Orange), drop_(Green), drop_(Orange), drop_(Green)],
        );
        let end = g.ending().unwrap();
        assert_eq!(end.reason, EndReason::CounterEnd);
        // Ranking: 1 type each; gold beats gem in the hierarchy.
        assert_eq!(end.ranking.winners(), vec!["orange"]);
        assert!(end.ranking.explanation.contains(
            &"orange and green both have 1 type; orange has the gold, green does not.".to_string()
        ));
        let e = refused(&mut g, flick(Green, Chest));
        assert!(matches!(e, RuleError::GameOver { .. }));
        assert!(e.to_string().contains("the Octo-Counter has reached its end"));
    }

    #[test]
    fn a_black_last_bead_is_the_final_attack_and_there_is_no_second_one() {
        let mut g = new_game(&[Orange, Green, Blue], modules(false, false, false), "BK");
        play(&mut g, &[flick(Orange, Gold), flick(Green, Gem)]);
        assert_eq!(g.attack().unwrap().kind, AttackKind::Final);
        play(&mut g, &[hit(Blue, Orange, &[Gold]), drop_(Orange), drop_(Green)]);
        let end = g.ending().unwrap();
        assert_eq!(end.reason, EndReason::CounterEnd);
        // The final attack counts: orange lost its gold.
        assert_eq!(end.ranking.winners(), vec!["green"]);
        assert_eq!(
            end.ranking
                .entries
                .iter()
                .map(|e| (e.name.as_str(), e.rank))
                .collect::<Vec<_>>(),
            vec![("green", 1), ("orange", 2), ("blue", 2)]
        );
    }

    #[test]
    fn holding_every_type_beats_the_counters_end() {
        let g = orange_loads_five("BBBBB");
        assert!(g.attack().is_none());
        assert!(matches!(g.ending().unwrap().reason, EndReason::AllTypes { .. }));
    }
}
