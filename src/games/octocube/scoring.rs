//! Scoring: the series table of a Score action, and the final scoring with its majorities.
//!
//! Final scoring (rulebook, "Final Scoring"): VP tokens earned during the game; 3 VP per coin;
//! for each background colour (row) 5 VP to the player with the most tiles and 2 VP to the second;
//! for each object type (column) first/second place VP from the rulebook's table. Ties: every
//! player tied for a place receives its VP, but after a tie for first there is no second place.
//! A player with no tile in a category never places in it. The most VP wins; a tie goes to the
//! tied player with the most object tiles; if still tied, they share the win.
//!
//! [`score_final`] returns every figure and the reason for every place as data
//! ([`PlaceReason`], [`TieBreak`]) as well as sentences ([`FinalScore::explanation`]), so the app's
//! score sheet and `octoref score octocube` say the same thing.

use super::data::{CUBE_FACES, DataError, OctocubeData, PlaceVp, ScoringTables};
use super::player_board::TileCounts;
use super::tile::{Category, Object, Tile};
use serde::{Deserialize, Serialize};

/// Most players in one game (one cube each).
pub const MAX_PLAYERS: usize = 4;

/// Most Score actions (`retrievals`) one player may list. A game gives each player a few dozen
/// turns; the limit bounds the work and the report's size on a hostile file (a retrieval may be
/// empty, "all, some, or none", so the box's contents alone do not bound their number).
pub const MAX_RETRIEVALS: usize = 1_000;

/// What one Score action earned: the series VP per object type and the coins.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct RetrievalScore {
    /// Each object type retrieved, with how many and the VP the series earned.
    pub series: Vec<Series>,
    /// Sum of the series VP.
    pub vp: u32,
    pub coins: u32,
}

/// A series of same-object tiles retrieved in one Score action.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Series {
    pub object: Object,
    pub tiles: u32,
    pub vp: u32,
}

/// Scores the tiles retrieved in one Score action: each object type is a series, whatever the
/// backgrounds (rulebook example: 3 starfish + 1 amphora -> 4 + 0 VP; the coin is kept for later).
pub fn score_retrieval(
    retrieved: impl IntoIterator<Item = RetrievedTile>,
    tables: &ScoringTables,
) -> RetrievalScore {
    let mut per_object = [0u32; 5];
    let mut coins = 0u32;
    for t in retrieved {
        match t {
            RetrievedTile::Object(o) => per_object[o.index()] += 1,
            RetrievedTile::Coin => coins += 1,
        }
    }
    let series: Vec<Series> = Object::ALL
        .into_iter()
        .filter(|o| per_object[o.index()] > 0)
        .map(|o| {
            let n = per_object[o.index()];
            Series {
                object: o,
                tiles: n,
                vp: tables.series(n as usize),
            }
        })
        .collect();
    RetrievalScore {
        vp: series.iter().map(|s| s.vp).sum(),
        series,
        coins,
    }
}

/// A tile as a retrieval lists it: an object type (background irrelevant) or a coin. Written
/// `"starfish"` or `"coin"`; a full tile such as `"starfish/white"` is accepted too.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub enum RetrievedTile {
    Object(Object),
    Coin,
}

impl From<Tile> for RetrievedTile {
    fn from(t: Tile) -> Self {
        match t {
            Tile::Object(o) => RetrievedTile::Object(o.object),
            Tile::Coin => RetrievedTile::Coin,
        }
    }
}

impl std::str::FromStr for RetrievedTile {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        if s == "coin" {
            return Ok(RetrievedTile::Coin);
        }
        if s.contains('/') {
            return s.parse::<Tile>().map(RetrievedTile::from);
        }
        s.parse::<Object>().map(RetrievedTile::Object).map_err(|_| {
            format!("unknown tile {s:?}; expected starfish, amphora, sextant, pearl, diamond or coin")
        })
    }
}

impl TryFrom<String> for RetrievedTile {
    type Error = String;
    fn try_from(s: String) -> Result<Self, Self::Error> {
        s.parse()
    }
}

impl From<RetrievedTile> for String {
    fn from(t: RetrievedTile) -> String {
        match t {
            RetrievedTile::Object(o) => o.as_str().to_string(),
            RetrievedTile::Coin => "coin".to_string(),
        }
    }
}

/// The end-of-game figures of one player (the input of `octoref score octocube`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FinalPlayerInput {
    pub name: String,
    /// Total value of the VP tokens taken during the game.
    #[serde(default)]
    pub vp_tokens: u32,
    /// Coin tiles beside the player board.
    #[serde(default)]
    pub coins: u32,
    /// The player board.
    #[serde(default)]
    pub tiles: TileCounts,
    /// The tiles taken at each Score action; each is scored with the series table and its coins
    /// are added to `coins` (instead of, or as well as, `vp_tokens`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub retrievals: Vec<Vec<RetrievedTile>>,
}

/// Everything the final scoring needs.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FinalInput {
    pub players: Vec<FinalPlayerInput>,
}

/// Input that cannot come from a real game: the field (JSON path) and what was expected.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("field `{field}`: {message}")]
pub struct InputError {
    pub field: String,
    pub message: String,
}

fn input_err(field: impl Into<String>, message: impl Into<String>) -> InputError {
    InputError {
        field: field.into(),
        message: message.into(),
    }
}

/// Why the final scoring could not be done.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ScoreError {
    #[error(transparent)]
    Input(#[from] InputError),
    #[error(transparent)]
    Data(#[from] DataError),
}

impl FinalInput {
    /// Checks what a real game allows: 1 to 4 players with distinct, non-empty names; no more
    /// tiles of an object type or coins than the box holds, for each player and for all players
    /// together; at most 6 tiles per retrieval (one cube).
    pub fn validate(&self, data: &OctocubeData) -> Result<(), InputError> {
        let box_ = &data.contents;
        if self.players.is_empty() || self.players.len() > MAX_PLAYERS {
            return Err(input_err(
                "players",
                format!(
                    "{} players; expected 1 to {MAX_PLAYERS} (one cube each)",
                    self.players.len()
                ),
            ));
        }
        let mut board_totals = [0u64; 5];
        let mut retrieved_totals = [0u64; 5];
        let mut coin_total = 0u64;
        for (i, p) in self.players.iter().enumerate() {
            let at = format!("players[{i}]");
            if p.name.trim().is_empty() {
                return Err(input_err(
                    format!("{at}.name"),
                    "empty; expected the player's name",
                ));
            }
            if let Some(j) = self.players[..i].iter().position(|q| q.name == p.name) {
                return Err(input_err(
                    format!("{at}.name"),
                    format!(
                        "{:?} is named twice (also players[{j}]); expected one entry per player",
                        p.name
                    ),
                ));
            }
            for o in Object::ALL {
                let limit = u64::from(box_.object_count(o));
                // Per space first, so the column sum below cannot overflow.
                for (tile, n) in p.tiles.iter().filter(|(t, _)| t.object == o) {
                    if u64::from(n) > limit {
                        return Err(input_err(
                            format!("{at}.tiles.{o}.{}", tile.background),
                            format!("{n} {o} tiles, but the box holds only {limit}"),
                        ));
                    }
                }
                let n = u64::from(p.tiles.object_total(o));
                if n > limit {
                    return Err(input_err(
                        format!("{at}.tiles.{o}"),
                        format!("{n} {o} tiles in all, but the box holds only {limit}"),
                    ));
                }
                board_totals[o.index()] += n;
            }
            if p.retrievals.len() > MAX_RETRIEVALS {
                return Err(input_err(
                    format!("{at}.retrievals"),
                    format!(
                        "{} Score actions; expected at most {MAX_RETRIEVALS} (a game has a few dozen turns)",
                        p.retrievals.len()
                    ),
                ));
            }
            let mut retrieved = [0u64; 5];
            let mut retrieved_coins = 0u64;
            for (r, tiles) in p.retrievals.iter().enumerate() {
                if tiles.len() > CUBE_FACES {
                    return Err(input_err(
                        format!("{at}.retrievals[{r}]"),
                        format!(
                            "{} tiles in one Score action; a cube holds at most {CUBE_FACES}",
                            tiles.len()
                        ),
                    ));
                }
                for t in tiles {
                    match t {
                        RetrievedTile::Object(o) => retrieved[o.index()] += 1,
                        RetrievedTile::Coin => retrieved_coins += 1,
                    }
                }
            }
            for o in Object::ALL {
                let limit = u64::from(box_.object_count(o));
                if retrieved[o.index()] > limit {
                    return Err(input_err(
                        format!("{at}.retrievals"),
                        format!(
                            "{} {o} tiles retrieved, but the box holds only {limit}",
                            retrieved[o.index()]
                        ),
                    ));
                }
                retrieved_totals[o.index()] += retrieved[o.index()];
            }
            let coins = u64::from(p.coins) + retrieved_coins;
            if coins > u64::from(box_.coins) {
                return Err(input_err(
                    format!("{at}.coins"),
                    format!(
                        "{coins} coins (with those in retrievals), but the box holds only {}",
                        box_.coins
                    ),
                ));
            }
            coin_total += coins;
        }
        for o in Object::ALL {
            let limit = u64::from(box_.object_count(o));
            if board_totals[o.index()] > limit {
                return Err(input_err(
                    format!("players[*].tiles.{o}"),
                    format!(
                        "the players hold {} {o} tiles together, but the box holds only {limit}",
                        board_totals[o.index()]
                    ),
                ));
            }
            if retrieved_totals[o.index()] > limit {
                return Err(input_err(
                    "players[*].retrievals",
                    format!(
                        "the players retrieved {} {o} tiles together, but the box holds only {limit}",
                        retrieved_totals[o.index()]
                    ),
                ));
            }
        }
        if coin_total > u64::from(box_.coins) {
            return Err(input_err(
                "players[*].coins",
                format!(
                    "the players hold {coin_total} coins together, but the box holds only {}",
                    box_.coins
                ),
            ));
        }
        Ok(())
    }
}

/// Why a player got (or did not get) a place in a category.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PlaceReason {
    /// The most tiles, alone.
    First,
    /// Tied for the most tiles: every tied player gets first place VP.
    SharedFirst,
    /// The second highest count, alone.
    Second,
    /// Tied for the second highest count: every tied player gets second place VP.
    SharedSecond,
    /// Has tiles but no place: first place was shared, so there is no second place.
    NoSecondAfterSharedFirst,
    /// Has tiles but fewer than first and second place.
    BehindSecond,
    /// No tile in this category: never places.
    NoTiles,
}

/// One player's result in one category.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CategoryEntry {
    pub name: String,
    pub count: u32,
    /// 1 or 2, or `None` without a place.
    pub place: Option<u8>,
    pub vp: u32,
    pub reason: PlaceReason,
}

/// The majority of one category.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CategoryResult {
    /// Written `{"kind": "background" | "object", "name": ...}`.
    pub category: Category,
    pub first_vp: u32,
    pub second_vp: u32,
    /// Every player, in input order.
    pub entries: Vec<CategoryEntry>,
    pub first: Vec<String>,
    pub second: Vec<String>,
    /// One sentence saying who placed and why.
    pub explanation: String,
}

/// A player's place and VP in one category (the per-player view of [`CategoryResult`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayerCategory {
    pub category: Category,
    pub count: u32,
    pub place: Option<u8>,
    pub vp: u32,
    pub reason: PlaceReason,
}

/// One player's final score. Field names are the `octoref score octocube` contract.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayerScore {
    pub name: String,
    /// VP tokens: the given `vp_tokens` plus the series VP of the retrievals.
    pub vp_tokens: u32,
    /// The part of `vp_tokens` that comes from the retrievals.
    pub retrieval_vp: u32,
    /// Coins, including those listed in retrievals.
    pub coins: u32,
    pub coins_vp: u32,
    /// Background (row) majorities.
    pub colors_vp: u32,
    /// Object type (column) majorities.
    pub objects_vp: u32,
    pub total: u32,
    /// Object tiles on the player board: the winner's tie-break.
    pub object_tiles: u32,
    /// 1 = best. Ordered by total, then object tiles; equal on both share a rank.
    pub rank: u32,
    pub winner: bool,
    /// Each retrieval's series, in order.
    pub retrievals: Vec<RetrievalScore>,
    pub categories: Vec<PlayerCategory>,
}

/// How a tie on total VP was broken.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TieBreak {
    /// The VP total the players tied on.
    pub total: u32,
    /// The tied players with their object tiles.
    pub tied: Vec<TiedPlayer>,
    /// Who won the tie-break (several when still tied).
    pub winners: Vec<String>,
    /// True when the object tiles did not separate them: they share the win.
    pub still_tied: bool,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TiedPlayer {
    pub name: String,
    pub object_tiles: u32,
}

/// The whole final scoring.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FinalScore {
    /// In input order.
    pub players: Vec<PlayerScore>,
    /// The nine categories: four backgrounds, then five objects.
    pub categories: Vec<CategoryResult>,
    /// Several only if still tied after the object tiles.
    pub winners: Vec<String>,
    /// Present when the best total was tied (for first place); ties lower down are in `explanation`.
    pub tie_break: Option<TieBreak>,
    /// Sentences: each category, each tie-break, the winner.
    pub explanation: Vec<String>,
    /// VP per coin used.
    pub coin_vp: u32,
}

/// Final scoring with the compiled-in tables and box contents (see [`score_final_with`]).
pub fn score_final(input: &FinalInput) -> Result<FinalScore, ScoreError> {
    score_final_with(input, OctocubeData::builtin()?)
}

/// Validates `input` against the box ([`FinalInput::validate`]) and scores it.
pub fn score_final_with(input: &FinalInput, data: &OctocubeData) -> Result<FinalScore, ScoreError> {
    input.validate(data)?;
    let tables = &data.scoring;
    let mut players: Vec<PlayerScore> = input
        .players
        .iter()
        .map(|p| {
            let retrievals: Vec<RetrievalScore> = p
                .retrievals
                .iter()
                .map(|r| score_retrieval(r.iter().copied(), tables))
                .collect();
            let retrieval_vp: u32 = retrievals.iter().map(|r| r.vp).sum();
            let coins = p.coins + retrievals.iter().map(|r| r.coins).sum::<u32>();
            PlayerScore {
                name: p.name.clone(),
                vp_tokens: p.vp_tokens.saturating_add(retrieval_vp),
                retrieval_vp,
                coins,
                coins_vp: coins.saturating_mul(tables.coin_vp),
                colors_vp: 0,
                objects_vp: 0,
                total: 0,
                object_tiles: p.tiles.total(),
                rank: 0,
                winner: false,
                retrievals,
                categories: Vec::new(),
            }
        })
        .collect();

    let boards: Vec<&TileCounts> = input.players.iter().map(|p| &p.tiles).collect();
    let names: Vec<&str> = input.players.iter().map(|p| p.name.as_str()).collect();
    let categories: Vec<CategoryResult> = Category::all()
        .into_iter()
        .map(|c| {
            let counts: Vec<u32> = boards.iter().map(|b| b.category_total(c)).collect();
            majority(c, tables.place_vp(c), &names, &counts)
        })
        .collect();
    for c in &categories {
        for (p, e) in players.iter_mut().zip(&c.entries) {
            match c.category {
                Category::Background(_) => p.colors_vp += e.vp,
                Category::Object(_) => p.objects_vp += e.vp,
            }
            p.categories.push(PlayerCategory {
                category: c.category,
                count: e.count,
                place: e.place,
                vp: e.vp,
                reason: e.reason,
            });
        }
    }
    for p in &mut players {
        p.total = p
            .vp_tokens
            .saturating_add(p.coins_vp)
            .saturating_add(p.colors_vp)
            .saturating_add(p.objects_vp);
    }
    let keys: Vec<(u32, u32)> = players.iter().map(|p| (p.total, p.object_tiles)).collect();
    for (i, p) in players.iter_mut().enumerate() {
        p.rank = 1 + keys.iter().filter(|k| **k > keys[i]).count() as u32;
        p.winner = p.rank == 1;
    }
    let winners: Vec<String> = players
        .iter()
        .filter(|p| p.winner)
        .map(|p| p.name.clone())
        .collect();

    let mut explanation: Vec<String> = categories.iter().map(|c| c.explanation.clone()).collect();
    let mut tie_break = None;
    let mut totals: Vec<u32> = players.iter().map(|p| p.total).collect();
    totals.sort_unstable_by(|a, b| b.cmp(a));
    totals.dedup();
    for (k, total) in totals.iter().enumerate() {
        let tied: Vec<TiedPlayer> = players
            .iter()
            .filter(|p| p.total == *total)
            .map(|p| TiedPlayer {
                name: p.name.clone(),
                object_tiles: p.object_tiles,
            })
            .collect();
        if tied.len() < 2 {
            continue;
        }
        let most = tied.iter().map(|t| t.object_tiles).max().unwrap_or(0);
        let best: Vec<String> = tied
            .iter()
            .filter(|t| t.object_tiles == most)
            .map(|t| t.name.clone())
            .collect();
        let tiles_said = tied
            .iter()
            .map(|t| format!("{} {}", t.name, t.object_tiles))
            .collect::<Vec<_>>()
            .join(", ");
        let sentence = if k == 0 {
            if best.len() == 1 {
                format!(
                    "Tie-break: {} tie on {total} VP; the tied player with the most object tiles wins ({tiles_said}): {} wins.",
                    join_names(tied.iter().map(|t| t.name.as_str())),
                    best[0]
                )
            } else {
                format!(
                    "Tie-break: {} tie on {total} VP and {} still tie on object tiles ({tiles_said}): they share the win.",
                    join_names(tied.iter().map(|t| t.name.as_str())),
                    join_names(best.iter().map(String::as_str)),
                )
            }
        } else {
            format!(
                "Ranking: {} tie on {total} VP; object tiles order them ({tiles_said}).",
                join_names(tied.iter().map(|t| t.name.as_str())),
            )
        };
        explanation.push(sentence);
        if k == 0 {
            tie_break = Some(TieBreak {
                total: *total,
                still_tied: best.len() > 1,
                winners: best,
                tied,
            });
        }
    }
    explanation.push(match winners.as_slice() {
        [one] => format!("Winner: {one}."),
        many => format!(
            "Winners (shared): {}.",
            join_names(many.iter().map(String::as_str))
        ),
    });
    Ok(FinalScore {
        players,
        categories,
        winners,
        tie_break,
        explanation,
        coin_vp: tables.coin_vp,
    })
}

/// First and second place in one category, with a reason for every player.
fn majority(category: Category, vp: PlaceVp, names: &[&str], counts: &[u32]) -> CategoryResult {
    let mut levels: Vec<u32> = counts.iter().copied().filter(|n| *n > 0).collect();
    levels.sort_unstable_by(|a, b| b.cmp(a));
    levels.dedup();
    let top = levels.first().copied();
    let n_top = top.map_or(0, |t| counts.iter().filter(|n| **n == t).count());
    // A tie for first leaves no second place.
    let runner_up = if n_top == 1 { levels.get(1).copied() } else { None };
    let n_runner = runner_up.map_or(0, |r| counts.iter().filter(|n| **n == r).count());

    let entries: Vec<CategoryEntry> = names
        .iter()
        .zip(counts)
        .map(|(name, &count)| {
            let (place, reason) = if count == 0 {
                (None, PlaceReason::NoTiles)
            } else if Some(count) == top {
                (
                    Some(1),
                    if n_top > 1 {
                        PlaceReason::SharedFirst
                    } else {
                        PlaceReason::First
                    },
                )
            } else if Some(count) == runner_up {
                (
                    Some(2),
                    if n_runner > 1 {
                        PlaceReason::SharedSecond
                    } else {
                        PlaceReason::Second
                    },
                )
            } else if n_top > 1 {
                (None, PlaceReason::NoSecondAfterSharedFirst)
            } else {
                (None, PlaceReason::BehindSecond)
            };
            let vp = match place {
                Some(1) => vp.first,
                Some(2) => vp.second,
                _ => 0,
            };
            CategoryEntry {
                name: (*name).to_string(),
                count,
                place,
                vp,
                reason,
            }
        })
        .collect();
    let first: Vec<String> = entries
        .iter()
        .filter(|e| e.place == Some(1))
        .map(|e| e.name.clone())
        .collect();
    let second: Vec<String> = entries
        .iter()
        .filter(|e| e.place == Some(2))
        .map(|e| e.name.clone())
        .collect();
    let explanation = explain_category(category, vp, &entries, &first, &second);
    CategoryResult {
        category,
        first_vp: vp.first,
        second_vp: vp.second,
        entries,
        first,
        second,
        explanation,
    }
}

fn explain_category(
    category: Category,
    vp: PlaceVp,
    entries: &[CategoryEntry],
    first: &[String],
    second: &[String],
) -> String {
    let counts = entries
        .iter()
        .map(|e| format!("{} {}", e.name, e.count))
        .collect::<Vec<_>>()
        .join(", ");
    let mut parts: Vec<String> = Vec::new();
    let names_with = |reason: PlaceReason| {
        entries
            .iter()
            .filter(|e| e.reason == reason)
            .map(|e| e.name.as_str())
            .collect::<Vec<_>>()
    };
    match first {
        [] => parts.push("nobody has a tile, so nobody places".to_string()),
        [one] => parts.push(format!("{one} is first ({} VP)", vp.first)),
        many => parts.push(format!(
            "{} tie for first ({} VP each)",
            join_names(many.iter().map(String::as_str)),
            vp.first
        )),
    }
    match second {
        [] => {
            if first.len() > 1 {
                let shut_out = names_with(PlaceReason::NoSecondAfterSharedFirst);
                if shut_out.is_empty() {
                    parts.push("no second place after a tie for first".to_string());
                } else {
                    let verb = if shut_out.len() == 1 { "gets" } else { "get" };
                    parts.push(format!(
                        "no second place after a tie for first, so {} {verb} nothing",
                        join_names(shut_out.into_iter())
                    ));
                }
            } else if first.len() == 1 {
                parts.push("nobody else has a tile, so there is no second place".to_string());
            }
        }
        [one] => parts.push(format!("{one} is second ({} VP)", vp.second)),
        many => parts.push(format!(
            "{} tie for second ({} VP each)",
            join_names(many.iter().map(String::as_str)),
            vp.second
        )),
    }
    let behind = names_with(PlaceReason::BehindSecond);
    if !behind.is_empty() {
        let verb = if behind.len() == 1 { "has" } else { "have" };
        parts.push(format!(
            "{} {verb} fewer tiles than second place",
            join_names(behind.into_iter())
        ));
    }
    let none = names_with(PlaceReason::NoTiles);
    if !none.is_empty() && !first.is_empty() {
        let (has, places) = if none.len() == 1 {
            ("has", "places")
        } else {
            ("have", "place")
        };
        parts.push(format!(
            "{} {has} no {category} tile, so never {places}",
            join_names(none.into_iter()),
        ));
    }
    format!(
        "{category} ({kind}): {counts} -> {}.",
        parts.join("; "),
        kind = match category {
            Category::Background(_) => "row",
            Category::Object(_) => "column",
        }
    )
}

/// "A", "A and B", "A, B and C".
pub fn join_names<'a>(names: impl Iterator<Item = &'a str>) -> String {
    let v: Vec<&str> = names.collect();
    match v.as_slice() {
        [] => String::new(),
        [one] => (*one).to_string(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::octocube::tile::Background;

    fn data() -> &'static OctocubeData {
        OctocubeData::builtin().unwrap()
    }

    fn parse(json: &str) -> FinalInput {
        serde_json::from_str(json).unwrap()
    }

    fn player<'a>(s: &'a FinalScore, name: &str) -> &'a PlayerScore {
        s.players.iter().find(|p| p.name == name).unwrap()
    }

    fn category(s: &FinalScore, c: Category) -> &CategoryResult {
        s.categories.iter().find(|r| r.category == c).unwrap()
    }

    fn entry<'a>(r: &'a CategoryResult, name: &str) -> &'a CategoryEntry {
        r.entries.iter().find(|e| e.name == name).unwrap()
    }

    #[test]
    fn rulebook_example_three_starfish_and_an_amphora_score_4() {
        use RetrievedTile::*;
        let r = score_retrieval(
            [
                Coin,
                Object(super::Object::Starfish),
                Object(super::Object::Starfish),
                Object(super::Object::Starfish),
                Object(super::Object::Amphora),
            ],
            &data().scoring,
        );
        assert_eq!(r.vp, 4);
        assert_eq!(r.coins, 1);
        assert_eq!(
            r.series,
            vec![
                Series {
                    object: super::Object::Starfish,
                    tiles: 3,
                    vp: 4
                },
                Series {
                    object: super::Object::Amphora,
                    tiles: 1,
                    vp: 0
                },
            ]
        );
    }

    #[test]
    fn series_table_is_0_2_4_7_10_15() {
        let t = &data().scoring;
        let vps: Vec<u32> = (1..=6).map(|n| t.series(n)).collect();
        assert_eq!(vps, vec![0, 2, 4, 7, 10, 15]);
    }

    #[test]
    fn sole_first_and_sole_second() {
        let s = score_final(&parse(
            r#"{"players": [
                {"name": "Ana", "tiles": {"diamond": {"white": 3}}},
                {"name": "Ben", "tiles": {"diamond": {"green": 2}}},
                {"name": "Cy", "tiles": {"diamond": {"green": 1}}}]}"#,
        ))
        .unwrap();
        let d = category(&s, Category::Object(super::Object::Diamond));
        assert_eq!(d.first, vec!["Ana"]);
        assert_eq!(d.second, vec!["Ben"]);
        assert_eq!(entry(d, "Ana").vp, 7);
        assert_eq!(entry(d, "Ben").vp, 4);
        assert_eq!(entry(d, "Cy").reason, PlaceReason::BehindSecond);
        assert_eq!(entry(d, "Cy").vp, 0);
        // White row: only Ana -> first, nobody second.
        let w = category(&s, Category::Background(Background::White));
        assert_eq!(w.first, vec!["Ana"]);
        assert!(w.second.is_empty());
        assert_eq!(entry(w, "Ben").reason, PlaceReason::NoTiles);
        // Green row: Ben 2, Cy 1.
        let g = category(&s, Category::Background(Background::Green));
        assert_eq!((entry(g, "Ben").vp, entry(g, "Cy").vp), (5, 2));
        assert_eq!(player(&s, "Ana").objects_vp, 7);
        assert_eq!(player(&s, "Ana").colors_vp, 5);
        assert_eq!(player(&s, "Cy").total, 2);
    }

    #[test]
    fn a_tie_for_first_shares_first_and_leaves_no_second() {
        let s = score_final(&parse(
            r#"{"players": [
                {"name": "Ana", "tiles": {"pearl": {"white": 2}}},
                {"name": "Ben", "tiles": {"pearl": {"white": 2}}},
                {"name": "Cy", "tiles": {"pearl": {"white": 1}}}]}"#,
        ))
        .unwrap();
        let p = category(&s, Category::Object(super::Object::Pearl));
        assert_eq!(p.first, vec!["Ana", "Ben"]);
        assert!(p.second.is_empty());
        assert_eq!(entry(p, "Ana").vp, 6);
        assert_eq!(entry(p, "Ben").vp, 6);
        assert_eq!(entry(p, "Ana").reason, PlaceReason::SharedFirst);
        assert_eq!(entry(p, "Cy").reason, PlaceReason::NoSecondAfterSharedFirst);
        assert_eq!(entry(p, "Cy").vp, 0);
        assert!(p.explanation.contains("no second place"), "{}", p.explanation);
        let w = category(&s, Category::Background(Background::White));
        assert_eq!(
            (entry(w, "Ana").vp, entry(w, "Ben").vp, entry(w, "Cy").vp),
            (5, 5, 0)
        );
    }

    #[test]
    fn a_tie_for_second_shares_second() {
        let s = score_final(&parse(
            r#"{"players": [
                {"name": "Ana", "tiles": {"sextant": {"dark_blue": 4}}},
                {"name": "Ben", "tiles": {"sextant": {"dark_blue": 2}}},
                {"name": "Cy", "tiles": {"sextant": {"green": 2}}},
                {"name": "Di", "tiles": {"sextant": {"green": 1}}}]}"#,
        ))
        .unwrap();
        let x = category(&s, Category::Object(super::Object::Sextant));
        assert_eq!(x.first, vec!["Ana"]);
        assert_eq!(x.second, vec!["Ben", "Cy"]);
        assert_eq!(entry(x, "Ben").reason, PlaceReason::SharedSecond);
        assert_eq!((entry(x, "Ben").vp, entry(x, "Cy").vp), (2, 2));
        assert_eq!(entry(x, "Di").reason, PlaceReason::BehindSecond);
        assert_eq!(player(&s, "Ana").objects_vp, 5);
    }

    #[test]
    fn a_player_with_no_tile_never_places_even_when_alone_behind() {
        // Two players: Ana has starfish, Ben none: Ben is not second.
        let s = score_final(&parse(
            r#"{"players": [
                {"name": "Ana", "tiles": {"starfish": {"white": 1}}},
                {"name": "Ben"}]}"#,
        ))
        .unwrap();
        let st = category(&s, Category::Object(super::Object::Starfish));
        assert_eq!(st.first, vec!["Ana"]);
        assert!(st.second.is_empty());
        assert_eq!(entry(st, "Ben").reason, PlaceReason::NoTiles);
        assert_eq!(entry(st, "Ben").place, None);
        // Nobody has an amphora: nobody places, nobody scores.
        let am = category(&s, Category::Object(super::Object::Amphora));
        assert!(am.first.is_empty() && am.second.is_empty());
        assert!(
            am.entries
                .iter()
                .all(|e| e.vp == 0 && e.reason == PlaceReason::NoTiles)
        );
    }

    #[test]
    fn starfish_second_place_is_a_place_worth_0() {
        let s = score_final(&parse(
            r#"{"players": [
                {"name": "Ana", "tiles": {"starfish": {"white": 3}}},
                {"name": "Ben", "tiles": {"starfish": {"white": 1}}}]}"#,
        ))
        .unwrap();
        let st = category(&s, Category::Object(super::Object::Starfish));
        assert_eq!(entry(st, "Ben").place, Some(2));
        assert_eq!(entry(st, "Ben").vp, 0);
        assert_eq!(entry(st, "Ana").vp, 3);
    }

    #[test]
    fn all_tied_for_first_share_it() {
        let s = score_final(&parse(
            r#"{"players": [
                {"name": "Ana", "tiles": {"amphora": {"green": 2}}},
                {"name": "Ben", "tiles": {"amphora": {"green": 2}}},
                {"name": "Cy", "tiles": {"amphora": {"green": 2}}}]}"#,
        ))
        .unwrap();
        let a = category(&s, Category::Object(super::Object::Amphora));
        assert_eq!(a.first.len(), 3);
        assert!(a.entries.iter().all(|e| e.vp == 4));
    }

    #[test]
    fn totals_add_tokens_coins_rows_and_columns() {
        let s = score_final(&parse(
            r#"{"players": [
                {"name": "Ana", "vp_tokens": 17, "coins": 2,
                 "tiles": {"starfish": {"white": 2, "light_blue": 1}, "pearl": {"dark_blue": 3}}},
                {"name": "Ben", "vp_tokens": 20, "coins": 1,
                 "tiles": {"starfish": {"white": 1}, "pearl": {"dark_blue": 1}}}]}"#,
        ))
        .unwrap();
        let ana = player(&s, "Ana");
        assert_eq!(ana.coins_vp, 6);
        // Rows: white 2 vs 1 -> 5; light blue alone -> 5; dark blue 3 vs 1 -> 5.
        assert_eq!(ana.colors_vp, 15);
        // Starfish 3 vs 1 -> 3; pearl 3 vs 1 -> 6.
        assert_eq!(ana.objects_vp, 9);
        assert_eq!(ana.total, 17 + 6 + 15 + 9);
        assert_eq!(ana.object_tiles, 6);
        let ben = player(&s, "Ben");
        // Rows: white second 2, dark blue second 2; starfish second 0; pearl second 3.
        assert_eq!((ben.colors_vp, ben.objects_vp), (4, 3));
        assert_eq!(ben.total, 20 + 3 + 4 + 3);
        assert_eq!(s.winners, vec!["Ana"]);
        assert_eq!((ana.rank, ben.rank), (1, 2));
        assert!(s.tie_break.is_none());
    }

    #[test]
    fn a_tied_total_goes_to_the_most_object_tiles() {
        // Ana: 19 + white shared first 5 + starfish shared first 3 = 27.
        // Ben: 10 + white shared first 5 + green 5 + starfish shared first 3 + amphora 4 = 27.
        let s = score_final(&parse(
            r#"{"players": [
                {"name": "Ana", "vp_tokens": 19, "tiles": {"starfish": {"white": 1}}},
                {"name": "Ben", "vp_tokens": 10, "tiles": {"starfish": {"green": 1}, "amphora": {"white": 1}}}]}"#,
        ))
        .unwrap();
        assert_eq!(player(&s, "Ana").total, 27);
        assert_eq!(player(&s, "Ana").total, player(&s, "Ben").total);
        assert_eq!(s.winners, vec!["Ben"]);
        let tb = s.tie_break.as_ref().unwrap();
        assert_eq!(tb.winners, vec!["Ben"]);
        assert!(!tb.still_tied);
        assert_eq!((player(&s, "Ben").rank, player(&s, "Ana").rank), (1, 2));
        assert!(
            s.explanation
                .iter()
                .any(|l| l.starts_with("Tie-break") && l.contains("Ben wins"))
        );
    }

    #[test]
    fn still_tied_after_object_tiles_share_the_win() {
        let s = score_final(&parse(
            r#"{"players": [
                {"name": "Ana", "vp_tokens": 5, "tiles": {"starfish": {"white": 1}}},
                {"name": "Ben", "vp_tokens": 5, "tiles": {"starfish": {"white": 1}}},
                {"name": "Cy", "vp_tokens": 1}]}"#,
        ))
        .unwrap();
        assert_eq!(s.winners, vec!["Ana", "Ben"]);
        assert!(s.tie_break.as_ref().unwrap().still_tied);
        assert_eq!(player(&s, "Cy").rank, 3);
        assert!(s.explanation.last().unwrap().contains("shared"));
    }

    #[test]
    fn retrievals_are_scored_and_their_coins_added() {
        let s = score_final(&parse(
            r#"{"players": [
                {"name": "Ana", "vp_tokens": 1, "coins": 1,
                 "retrievals": [["starfish", "starfish", "starfish", "amphora", "coin"], ["pearl/white", "pearl"]],
                 "tiles": {"starfish": {"white": 3}, "amphora": {"green": 1}, "pearl": {"white": 2}}}]}"#,
        ))
        .unwrap();
        let ana = player(&s, "Ana");
        assert_eq!(ana.retrieval_vp, 4 + 2);
        assert_eq!(ana.vp_tokens, 1 + 6);
        assert_eq!(ana.coins, 2);
        assert_eq!(ana.coins_vp, 6);
    }

    #[test]
    fn impossible_input_names_the_field() {
        let err = |json: &str| score_final(&parse(json)).unwrap_err().to_string();
        let e = err(r#"{"players": [{"name": "Ana", "tiles": {"diamond": {"white": 10}}}]}"#);
        assert!(e.contains("players[0].tiles.diamond"), "{e}");
        let e = err(
            r#"{"players": [{"name": "Ana", "tiles": {"diamond": {"white": 5}}},
                            {"name": "Ben", "tiles": {"diamond": {"green": 5}}}]}"#,
        );
        assert!(e.contains("players[*].tiles.diamond") && e.contains("10"), "{e}");
        let e = err(r#"{"players": [{"name": "Ana"}, {"name": "Ana"}]}"#);
        assert!(e.contains("players[1].name") && e.contains("twice"), "{e}");
        let e = err(r#"{"players": [{"name": "Ana", "coins": 7}, {"name": "Ben", "coins": 6}]}"#);
        assert!(e.contains("players[*].coins"), "{e}");
        let e = err(
            r#"{"players": [{"name": "Ana", "retrievals": [["coin","coin","coin","coin","coin","coin","coin"]]}]}"#,
        );
        assert!(e.contains("players[0].retrievals[0]"), "{e}");
        let e = err(r#"{"players": []}"#);
        assert!(e.contains("players"), "{e}");
        let e = err(r#"{"players": [{"name": " "}]}"#);
        assert!(e.contains("players[0].name"), "{e}");
        // Retrievals need not match the board (a record may list only some Score actions).
        assert!(
            score_final(&parse(
                r#"{"players": [{"name": "A", "tiles": {"pearl": {"white": 12}}},
                                {"name": "B", "retrievals": [["pearl"]]}]}"#
            ))
            .is_ok()
        );
    }

    #[test]
    fn unknown_objects_and_colours_are_rejected_by_name() {
        let e = serde_json::from_str::<FinalInput>(
            r#"{"players": [{"name": "Ana", "tiles": {"diamonds": {"white": 1}}}]}"#,
        )
        .unwrap_err()
        .to_string();
        assert!(e.contains("diamonds"), "{e}");
        let e = serde_json::from_str::<FinalInput>(
            r#"{"players": [{"name": "Ana", "tiles": {"pearl": {"purple": 1}}}]}"#,
        )
        .unwrap_err()
        .to_string();
        assert!(e.contains("purple"), "{e}");
        let e = serde_json::from_str::<FinalInput>(
            r#"{"players": [{"name": "Ana", "retrievals": [["shell"]]}]}"#,
        )
        .unwrap_err()
        .to_string();
        assert!(e.contains("shell"), "{e}");
    }
}
