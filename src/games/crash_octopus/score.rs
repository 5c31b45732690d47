//! End-of-game scoring from what is on the ships (`octoref score crash-octopus`):
//!
//! ```json
//! {"types": 5, "players": [{"name": "orange", "loaded": ["gold", "gem"]}, {"name": "green", "loaded": []}]}
//! ```
//! `types` (5 or 6) defaults to what the number of players uses (6 only for 5 players). A name is
//! any non-empty text (usually the ship's colour). The sheet is checked like a game: each type is in
//! play and loaded once per ship, and no more ships hold a type than the set has pieces of it.

use super::ending::{Contender, Ranking, rank};
use super::rules_data::RulesData;
use super::treasure::TreasureType;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScoreSheet {
    #[serde(default)]
    pub types: Option<u8>,
    pub players: Vec<ScorePlayer>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScorePlayer {
    pub name: String,
    #[serde(default)]
    pub loaded: Vec<TreasureType>,
}

/// The sheet is not a possible end of game; `field` is its JSON path.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("field `{field}`: {message}")]
pub struct ScoreError {
    pub field: String,
    pub message: String,
}

impl ScoreSheet {
    /// Checks the sheet and ranks the players.
    pub fn rank(&self, data: &RulesData) -> Result<Ranking, ScoreError> {
        let err = |field: String, message: String| ScoreError { field, message };
        let n = self.players.len();
        let counts = data.player_counts();
        let set = data.treasure_set(n, self.types).ok_or_else(|| match self.types {
            Some(t) if data.types(t).is_none() => err(
                "types".into(),
                format!(
                    "{t} is not a number of treasure types; expected one of {}",
                    join(&data.type_counts())
                ),
            ),
            _ => err(
                "players".into(),
                format!(
                    "{n} players; expected {} to {} players",
                    counts.first().copied().unwrap_or(0),
                    counts.last().copied().unwrap_or(0)
                ),
            ),
        })?;
        let h = &set.hierarchy;
        for (i, p) in self.players.iter().enumerate() {
            if p.name.trim().is_empty() {
                return Err(err(
                    format!("players[{i}].name"),
                    "empty; expected a name such as \"orange\"".into(),
                ));
            }
            if let Some(j) = self.players[..i].iter().position(|q| q.name == p.name) {
                return Err(err(
                    format!("players[{i}].name"),
                    format!(
                        "{:?} is also players[{j}]'s name; expected each name once",
                        p.name
                    ),
                ));
            }
            for (k, &t) in p.loaded.iter().enumerate() {
                let field = format!("players[{i}].loaded[{k}]");
                if !h.contains(t) {
                    let hint = if self.types.is_none() {
                        " (say \"types\": 5 or 6 if the game used the other set)"
                    } else {
                        ""
                    };
                    return Err(err(
                        field,
                        format!(
                            "the {t} is not in a {}-type game; expected one of {}{hint}",
                            h.len(),
                            h.types()
                                .iter()
                                .map(|t| t.as_str())
                                .collect::<Vec<_>>()
                                .join(", ")
                        ),
                    ));
                }
                if p.loaded[..k].contains(&t) {
                    return Err(err(
                        field,
                        format!("the {t} is loaded twice; a ship holds each type at most once (BAD No.2)"),
                    ));
                }
            }
        }
        for &t in h.types() {
            let holders = self.players.iter().filter(|p| p.loaded.contains(&t)).count();
            if holders > usize::from(set.per_type) {
                return Err(err(
                    "players".into(),
                    format!(
                        "{holders} ships hold the {t}, but a {n}-player game has only {} of it",
                        set.per_type
                    ),
                ));
            }
        }
        let contenders: Vec<Contender> = self
            .players
            .iter()
            .map(|p| Contender {
                name: p.name.clone(),
                loaded: p.loaded.clone(),
            })
            .collect();
        Ok(rank(&contenders, h))
    }
}

fn join(v: &[u8]) -> String {
    v.iter().map(u8::to_string).collect::<Vec<_>>().join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sheet(json: &str) -> ScoreSheet {
        serde_json::from_str(json).unwrap()
    }

    fn data() -> RulesData {
        RulesData::builtin().unwrap()
    }

    #[test]
    fn ranks_with_the_hierarchy_of_the_player_count() {
        let r = sheet(
            r#"{"players": [{"name": "orange", "loaded": ["chest", "gold"]},
                            {"name": "green", "loaded": ["captain", "gem"]}]}"#,
        )
        .rank(&data())
        .unwrap();
        assert_eq!(r.entries[0].name, "green");
        assert_eq!(r.entries[0].rank, 1);
        assert!(r.explanation.iter().any(|l| l.contains("green has the captain")));
        // Five players: six types; the chest beats the bottle.
        let r = sheet(
            r#"{"players": [{"name": "a", "loaded": ["bottle"]}, {"name": "b", "loaded": ["chest"]},
                            {"name": "c"}, {"name": "d"}, {"name": "e"}]}"#,
        )
        .rank(&data())
        .unwrap();
        assert_eq!(r.entries[0].name, "b");
    }

    #[test]
    fn impossible_sheets_name_the_field() {
        let e = sheet(r#"{"players": [{"name": "a", "loaded": ["gold", "rose"]}, {"name": "b"}]}"#)
            .rank(&data())
            .unwrap_err();
        assert_eq!(e.field, "players[0].loaded[1]");
        assert!(e.message.contains("not in a 5-type game"), "{e}");
        let e = sheet(r#"{"types": 6, "players": [{"name": "a", "loaded": ["gem"]}, {"name": "b"}]}"#)
            .rank(&data())
            .unwrap_err();
        assert_eq!(e.field, "players[0].loaded[0]");
        let e = sheet(r#"{"players": [{"name": "a", "loaded": ["gold", "gold"]}, {"name": "b"}]}"#)
            .rank(&data())
            .unwrap_err();
        assert!(e.message.contains("loaded twice"), "{e}");
        let e = sheet(r#"{"players": [{"name": "a"}, {"name": "a"}]}"#)
            .rank(&data())
            .unwrap_err();
        assert_eq!(e.field, "players[1].name");
        let e = sheet(r#"{"players": [{"name": "a"}]}"#)
            .rank(&data())
            .unwrap_err();
        assert_eq!(e.field, "players");
        assert!(e.message.contains("expected 2 to 5"), "{e}");
        let e = sheet(r#"{"types": 7, "players": [{"name": "a"}, {"name": "b"}]}"#)
            .rank(&data())
            .unwrap_err();
        assert_eq!(e.field, "types");
        // 2 players x 3 pieces: fine; but 5 players cannot all hold the captain (4 pieces).
        let e = sheet(
            r#"{"players": [{"name": "a", "loaded": ["captain"]}, {"name": "b", "loaded": ["captain"]},
                            {"name": "c", "loaded": ["captain"]}, {"name": "d", "loaded": ["captain"]},
                            {"name": "e", "loaded": ["captain"]}]}"#,
        )
        .rank(&data())
        .unwrap_err();
        assert!(e.message.contains("5 ships hold the captain"), "{e}");
    }
}
