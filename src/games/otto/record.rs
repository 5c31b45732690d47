//! The Otto game record of `docs/spec/cli.md`, and scoring it move by move.
//!
//! ```json
//! {"board": "default", "players": ["Ana", "Ben"],
//!  "moves": [{"player": "Ana", "tile": "arm", "cell": [3, 2], "from": "S", "to": "N", "suckers": "left"},
//!            {"player": "Ben", "pass": true}],
//!  "hands": {"Ana": 1, "Ben": 0}}
//! ```
//! Optional fields: `tiles` (the tile set, "default" or a file), `open` and `simplified` (play
//! variants); solo play is a record with one player. `hands` counts the tiles each player still
//! holds at the end (missing players hold none).
//!
//! Bad input — an unknown tile or species, a square off the Ocean, a move by someone not in the
//! game, more tiles of a kind than the box holds — is a [`RecordError`] naming the field and the
//! move's index. An illegal move is not an input error: it is reported with the rule it breaks,
//! not applied, its player's turn is over, and the record goes on.
//!
//! Turn order is followed, not enforced: a record need not write down every pass, so when a move
//! is made by someone other than the player whose turn it was, the players in between are taken
//! to have missed their turns (and the report lists them). Fish effects that change turn order
//! (play again, next player misses a turn, reverse) are applied to that bookkeeping; effects on
//! hands are reported but cannot be checked, since a record does not list the tiles in hand.

use super::board::{Board, BoardLayout, Cell, Edge, Side};
use super::fish::FishEffect;
use super::placement::{Placement, check_placement};
use super::scoring::{Points, hand_penalty, ranks};
use super::tile::{ArmTile, EndTile, Tile, TileKind};
use super::tile_set::{EffectRules, EffectRuling, TileSet};
use super::turns::TurnOrder;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The name that selects the built-in board or tile set.
pub const DEFAULT_SOURCE: &str = "default";

/// Most players a record may name: the box's 60 tiles deal a hand of 3 to at most 20 players.
/// The limit also keeps checking names for duplicates cheap on a hostile file.
pub const MAX_PLAYERS: usize = 20;

/// Most moves a record may hold. A game places at most the box's 60 tiles, with passes between;
/// the limit bounds the time and memory scoring may take, so a hostile million-move file is
/// refused at once with a clear error.
pub const MAX_MOVES: usize = 10_000;

fn default_source() -> String {
    DEFAULT_SOURCE.to_string()
}

/// A game record as written in a file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GameRecord {
    /// `"default"`, or a board TOML file (relative to the record).
    #[serde(default = "default_source")]
    pub board: String,
    /// `"default"`, or a tile-set TOML file (relative to the record).
    #[serde(default = "default_source")]
    pub tiles: String,
    /// In playing order; the first played first.
    pub players: Vec<String>,
    pub moves: Vec<RecordedMove>,
    /// Tiles left in each player's hand at the end.
    #[serde(default)]
    pub hands: BTreeMap<String, u32>,
    #[serde(default)]
    pub open: bool,
    #[serde(default)]
    pub simplified: bool,
}

/// One move as written: a tile placed, or `"pass": true`.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RecordedMove {
    pub player: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tile: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cell: Option<[i64; 2]>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub from: Option<Edge>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub to: Option<Edge>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub suckers: Option<Side>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shell: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub species: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub points: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pass: Option<bool>,
}

/// Bad input in a record: which field (a JSON path such as `moves[3].cell`) and what was wrong.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("field `{field}`: {message}")]
pub struct RecordError {
    pub field: String,
    pub message: String,
}

fn bad(field: impl Into<String>, message: impl Into<String>) -> RecordError {
    RecordError {
        field: field.into(),
        message: message.into(),
    }
}

/// A fish effect as the report tells it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct EffectReport {
    pub effect: FishEffect,
    pub description: &'static str,
    /// Applied to the turn order (or, for effects on hands, in force but not checkable).
    pub applied: bool,
    pub note: String,
    /// The effect is octoref's reading of the Fish Identifier card.
    pub our_reading: bool,
}

/// One move, judged.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct MoveReport {
    pub index: usize,
    pub player: String,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub pass: bool,
    /// The tile placed, as the record wrote it (`tile`, `cell`, `from`, `to`, ...).
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    pub placed: Option<PlacedEcho>,
    #[serde(skip)]
    pub placement: Option<Placement>,
    /// Which physical tile (`straight_arm`, `shell_end`, `fish:angler`, ...).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kind: Option<String>,
    pub legal: bool,
    pub points: u32,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub breakdown: Option<Points>,
    /// Why the move is illegal, in the rulebook's words.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// The rule broken, as a stable name (`suckers_swap_sides`, ...).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rule: Option<&'static str>,
    /// For an End tile: the socket of the arm it completes.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub completes_arm: Option<Cell>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub effect: Option<EffectReport>,
    /// Players whose turns were missed just before this move.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub missed_turns: Vec<String>,
}

/// A placement in the record's own words. (A fish's card data is not repeated: its `points` and
/// `effect` would collide with the move's.)
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PlacedEcho {
    pub tile: &'static str,
    pub cell: Cell,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub from: Option<Edge>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub to: Option<Edge>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub suckers: Option<Side>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub shell: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub species: Option<String>,
}

impl PlacedEcho {
    fn of(p: &Placement) -> PlacedEcho {
        let mut echo = PlacedEcho {
            tile: p.tile.type_name(),
            cell: p.cell,
            from: None,
            to: None,
            suckers: None,
            shell: None,
            species: None,
        };
        match &p.tile {
            Tile::Arm(a) => {
                echo.from = Some(a.from);
                echo.to = Some(a.to);
                echo.suckers = Some(a.suckers);
            }
            Tile::End(e) => {
                echo.from = Some(e.from);
                echo.shell = Some(e.shell);
            }
            Tile::Fish(f) => echo.species = Some(f.species.clone()),
            Tile::Bubbles => {}
        }
        echo
    }
}

/// One player's result.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PlayerReport {
    pub name: String,
    pub tiles_placed: u32,
    pub placed_points: u32,
    /// Tiles left in hand (from the record's `hands`).
    pub hand: u32,
    /// Tiles counted against the player: the hand, plus the draw pile in solo play.
    pub tiles_left: u32,
    pub hand_penalty: u32,
    pub total: i64,
    pub rank: u32,
}

/// One of Otto's arms at the end.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ArmReport {
    pub socket: Cell,
    pub arm_tiles: u32,
    pub completed: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub shell: Option<bool>,
}

/// The scored record: every move judged, and the players ranked.
#[derive(Debug, Clone, Serialize)]
pub struct RecordReport {
    pub board: String,
    pub tiles: String,
    pub solo: bool,
    pub open: bool,
    pub simplified: bool,
    pub moves: Vec<MoveReport>,
    pub players: Vec<PlayerReport>,
    /// The players ranked first (several when tied: the rulebook names no tie-break).
    pub winners: Vec<String>,
    /// Solo play: the tiles left in the draw pile (they count against the player).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub draw_pile: Option<u32>,
    pub arms: Vec<ArmReport>,
    /// Readings and assumptions that shaped the result.
    pub explanation: Vec<String>,
    /// The Ocean after the last move.
    #[serde(skip)]
    pub final_board: Option<Board>,
}

/// A record's move once checked: who, and what.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Action {
    Pass,
    Place(Placement),
}

impl GameRecord {
    /// The players' indices by name, checking names are given and distinct.
    fn check_players(&self) -> Result<(), RecordError> {
        if self.players.is_empty() {
            return Err(bad("players", "expected at least one player's name"));
        }
        if self.players.len() > MAX_PLAYERS {
            return Err(bad(
                "players",
                format!(
                    "{} players; expected at most {MAX_PLAYERS} (the box deals a hand of 3 to at most 20)",
                    self.players.len()
                ),
            ));
        }
        if self.moves.len() > MAX_MOVES {
            return Err(bad(
                "moves",
                format!(
                    "{} moves; expected at most {MAX_MOVES} (a whole game is a few dozen)",
                    self.moves.len()
                ),
            ));
        }
        for (i, name) in self.players.iter().enumerate() {
            if name.trim().is_empty() {
                return Err(bad(
                    format!("players[{i}]"),
                    "expected a name, got an empty string",
                ));
            }
            if self.players[..i].contains(name) {
                return Err(bad(
                    format!("players[{i}]"),
                    format!("{name:?} is listed twice; each player needs their own name"),
                ));
            }
        }
        for name in self.hands.keys() {
            if !self.players.contains(name) {
                return Err(bad(
                    format!("hands.{name}"),
                    format!(
                        "{name:?} is not a player in this game (players: {})",
                        self.players.join(", ")
                    ),
                ));
            }
        }
        Ok(())
    }

    fn player_index(&self, index: usize, name: &str) -> Result<usize, RecordError> {
        self.players.iter().position(|p| p == name).ok_or_else(|| {
            bad(
                format!("moves[{index}].player"),
                format!(
                    "{name:?} is not a player in this game (players: {})",
                    self.players.join(", ")
                ),
            )
        })
    }
}

/// Turns a written move into a checked one (fields present, known, on the Ocean).
fn read_move(
    index: usize,
    m: &RecordedMove,
    layout: &BoardLayout,
    tiles: &TileSet,
) -> Result<Action, RecordError> {
    let field = |name: &str| format!("moves[{index}].{name}");
    let present: [(&str, bool); 8] = [
        ("tile", m.tile.is_some()),
        ("cell", m.cell.is_some()),
        ("from", m.from.is_some()),
        ("to", m.to.is_some()),
        ("suckers", m.suckers.is_some()),
        ("shell", m.shell.is_some()),
        ("species", m.species.is_some()),
        ("points", m.points.is_some()),
    ];
    if m.pass == Some(true) {
        if let Some((name, _)) = present.iter().find(|(_, p)| *p) {
            return Err(bad(
                field(name),
                "a pass places no tile; remove this field or `pass`",
            ));
        }
        return Ok(Action::Pass);
    }
    let tile_name = m.tile.as_deref().ok_or_else(|| {
        bad(
            field("tile"),
            "expected a tile (\"arm\", \"end\", \"fish\" or \"bubbles\") or \"pass\": true",
        )
    })?;
    let allowed: &[&str] = match tile_name {
        "arm" => &["tile", "cell", "from", "to", "suckers"],
        "end" => &["tile", "cell", "from", "shell"],
        "fish" => &["tile", "cell", "species", "points"],
        "bubbles" => &["tile", "cell"],
        other => {
            return Err(bad(
                field("tile"),
                format!("unknown tile {other:?}; expected \"arm\", \"end\", \"fish\" or \"bubbles\""),
            ));
        }
    };
    if let Some((name, _)) = present.iter().find(|(n, p)| *p && !allowed.contains(n)) {
        return Err(bad(
            field(name),
            format!(
                "a tile of type {tile_name:?} has no `{name}` (it has: {})",
                allowed.join(", ")
            ),
        ));
    }
    let [x, y] = m.cell.ok_or_else(|| {
        bad(
            field("cell"),
            "expected the square the tile was placed on, [x, y]",
        )
    })?;
    let cell = layout.cell_at(x, y).ok_or_else(|| {
        bad(
            field("cell"),
            format!(
                "[{x}, {y}] is off the Ocean; expected x from 0 to {} and y from 0 to {}",
                layout.width() - 1,
                layout.height() - 1
            ),
        )
    })?;
    let need_edge = |e: Option<Edge>, name: &str, what: &str| {
        e.ok_or_else(|| {
            bad(
                field(name),
                format!("expected {what}: \"N\", \"E\", \"S\" or \"W\""),
            )
        })
    };
    let tile = match tile_name {
        "arm" => {
            let from = need_edge(m.from, "from", "the edge that joins the arm toward Otto")?;
            let to = need_edge(m.to, "to", "the open edge of the arm")?;
            let suckers = m.suckers.ok_or_else(|| {
                bad(
                    field("suckers"),
                    "expected \"left\" or \"right\": the side of the suckers looking along the arm away from Otto",
                )
            })?;
            let arm = ArmTile::new(from, to, suckers).map_err(|e| bad(field("to"), e.to_string()))?;
            Tile::Arm(arm)
        }
        "end" => Tile::End(EndTile {
            from: need_edge(m.from, "from", "the edge that joins the arm's last Arm tile")?,
            shell: m.shell.unwrap_or(false),
        }),
        "fish" => {
            let species = m.species.as_deref().ok_or_else(|| {
                bad(
                    field("species"),
                    format!(
                        "expected the fish's species, one of: {}",
                        tiles.species().join(", ")
                    ),
                )
            })?;
            let spec = tiles.fish(species).ok_or_else(|| {
                bad(
                    field("species"),
                    format!(
                        "unknown fish {species:?}; the Fish Identifier card has: {}",
                        tiles.species().join(", ")
                    ),
                )
            })?;
            if let Some(p) = m.points.filter(|&p| p != spec.points) {
                return Err(bad(
                    field("points"),
                    format!(
                        "{p} points, but the {} shows {} on the card",
                        spec.name, spec.points
                    ),
                ));
            }
            Tile::Fish(spec.tile())
        }
        _ => Tile::Bubbles,
    };
    Ok(Action::Place(Placement { cell, tile }))
}

/// Scores a game record on `layout` with `tiles` (the board and tile set the record names). See
/// the module doc for what is bad input and what is an illegal move.
pub fn score_record(
    record: &GameRecord,
    layout: BoardLayout,
    tiles: &TileSet,
) -> Result<RecordReport, RecordError> {
    record.check_players()?;
    let solo = record.players.len() == 1;
    let rules = EffectRules {
        solo,
        simplified: record.simplified,
    };
    let mut board = Board::new(layout);
    let mut turns = TurnOrder::new(record.players.len());
    let mut used: BTreeMap<TileKind, u32> = BTreeMap::new();
    let mut placed_points = vec![0u32; record.players.len()];
    let mut tiles_placed = vec![0u32; record.players.len()];
    let mut moves = Vec::with_capacity(record.moves.len());
    let mut missed_before: Vec<usize> = Vec::new();
    let mut hand_effects = false;
    let mut skipped_passes = false;

    for (index, m) in record.moves.iter().enumerate() {
        let player = record.player_index(index, &m.player)?;
        let action = read_move(index, m, board.layout(), tiles)?;
        let jumped = turns.jump_to(player);
        skipped_passes |= !jumped.is_empty();
        missed_before.extend(jumped);
        let mut report = MoveReport {
            index,
            player: m.player.clone(),
            pass: false,
            placed: None,
            placement: None,
            kind: None,
            legal: true,
            points: 0,
            breakdown: None,
            reason: None,
            rule: None,
            completes_arm: None,
            effect: None,
            missed_turns: missed_before
                .drain(..)
                .filter_map(|p| record.players.get(p).cloned())
                .collect(),
        };
        match action {
            Action::Pass => report.pass = true,
            Action::Place(placement) => {
                let kind = placement.tile.kind();
                report.kind = Some(kind.label());
                match check_placement(&board, &placement) {
                    Err(reason) => {
                        report.legal = false;
                        report.rule = Some(reason.rule());
                        report.reason = Some(reason.to_string());
                    }
                    Ok(_) => {
                        let n = used.entry(kind.clone()).or_insert(0);
                        *n += 1;
                        let in_box = tiles.count(&kind);
                        if *n > in_box {
                            let f = if matches!(kind, TileKind::Fish(_)) {
                                "species"
                            } else {
                                "tile"
                            };
                            return Err(bad(
                                format!("moves[{index}].{f}"),
                                format!(
                                    "this is tile number {n} of kind {}, but the box holds {in_box} ({})",
                                    kind.label(),
                                    record.tiles
                                ),
                            ));
                        }
                        if let Tile::End(_) = placement.tile {
                            report.completes_arm = board
                                .arms()
                                .iter()
                                .find(|a| a.open_end().is_some_and(|o| o.cell == placement.cell))
                                .map(|a| a.socket_cell);
                        }
                        let points = board.place(placement.clone()).map_err(|e| {
                            bad(
                                format!("moves[{index}]"),
                                format!("internal: a checked placement failed: {e}"),
                            )
                        })?;
                        if let Some(p) = placed_points.get_mut(player) {
                            *p += points.total;
                        }
                        if let Some(t) = tiles_placed.get_mut(player) {
                            *t += 1;
                        }
                        report.points = points.total;
                        report.breakdown = Some(points);
                        if let Tile::Fish(f) = &placement.tile {
                            let e = fish_effect(tiles, &f.species, rules, &mut turns, record);
                            hand_effects |= e.applied && !e.effect.changes_turn_order();
                            report.effect = Some(e);
                        }
                    }
                }
                report.placed = Some(PlacedEcho::of(&placement));
                report.placement = Some(placement);
            }
        }
        let change = turns.end_turn();
        missed_before.extend(change.missed);
        moves.push(report);
    }

    let placed_total: u32 = tiles_placed.iter().sum();
    let hands: Vec<u32> = record
        .players
        .iter()
        .map(|p| record.hands.get(p).copied().unwrap_or(0))
        .collect();
    let in_hands: u32 = hands.iter().sum();
    let in_box = tiles.total();
    if placed_total + in_hands > in_box {
        return Err(bad(
            "hands",
            format!(
                "{placed_total} tiles placed and {in_hands} in hand, but the box holds only {in_box} ({})",
                record.tiles
            ),
        ));
    }
    let draw_pile = solo.then(|| in_box - placed_total - in_hands);
    let mut players: Vec<PlayerReport> = record
        .players
        .iter()
        .enumerate()
        .map(|(i, name)| {
            let hand = hands.get(i).copied().unwrap_or(0);
            let tiles_left = hand + draw_pile.unwrap_or(0);
            let penalty = hand_penalty(tiles_left);
            let placed = placed_points.get(i).copied().unwrap_or(0);
            PlayerReport {
                name: name.clone(),
                tiles_placed: tiles_placed.get(i).copied().unwrap_or(0),
                placed_points: placed,
                hand,
                tiles_left,
                hand_penalty: penalty,
                total: i64::from(placed) - i64::from(penalty),
                rank: 0,
            }
        })
        .collect();
    let totals: Vec<i64> = players.iter().map(|p| p.total).collect();
    for (p, r) in players.iter_mut().zip(ranks(&totals)) {
        p.rank = r;
    }
    let winners = players
        .iter()
        .filter(|p| p.rank == 1)
        .map(|p| p.name.clone())
        .collect();
    let arms = board
        .arms()
        .iter()
        .map(|a| ArmReport {
            socket: a.socket_cell,
            arm_tiles: a.tiles.len() as u32,
            completed: a.is_completed(),
            shell: match a.end {
                super::arm::ArmEnd::Completed { shell, .. } => Some(shell),
                _ => None,
            },
        })
        .collect();
    let explanation = explain(record, solo, draw_pile, hand_effects, skipped_passes);
    Ok(RecordReport {
        board: record.board.clone(),
        tiles: record.tiles.clone(),
        solo,
        open: record.open,
        simplified: record.simplified,
        moves,
        players,
        winners,
        draw_pile,
        arms,
        explanation,
        final_board: Some(board),
    })
}

/// Applies a fish's effect to the turn order and says what it did.
fn fish_effect(
    tiles: &TileSet,
    species: &str,
    rules: EffectRules,
    turns: &mut TurnOrder,
    record: &GameRecord,
) -> EffectReport {
    let spec = tiles.fish(species);
    let effect = spec.map_or(FishEffect::None, |f| f.effect);
    let our_reading = spec.is_some_and(|f| f.is_our_reading());
    let (applied, note) = match tiles.effect_ruling(species, rules) {
        EffectRuling::NoEffect => (false, "no effect".to_string()),
        EffectRuling::IgnoredInSimplifiedPlay => (false, "ignored in simplified play".into()),
        EffectRuling::IgnoredInSoloPlay => (
            false,
            "ignored in solo play (one of the first fish on the Fish Identifier card)".into(),
        ),
        EffectRuling::Applies(e) => {
            let next = turns.next_player().and_then(|n| record.players.get(n).cloned());
            match e {
                FishEffect::PlayAgain => {
                    turns.grant_bonus_turn();
                    (true, "the same player plays again".into())
                }
                FishEffect::NextPlayerMissesTurn => match (turns.next_player(), next) {
                    (Some(n), Some(name)) => {
                        turns.miss_next_turn(n);
                        (true, format!("{name} misses their next turn"))
                    }
                    _ => (false, "there is no other player".into()),
                },
                FishEffect::ReverseDirection => {
                    turns.reverse();
                    (true, "play passes the other way from now on".into())
                }
                FishEffect::DrawExtra | FishEffect::OthersDrawOne | FishEffect::StealFromNext => {
                    (true, "changes hands, which a game record does not list".into())
                }
                FishEffect::None => (false, "no effect".into()),
            }
        }
    };
    EffectReport {
        effect,
        description: effect.describe(),
        applied,
        note,
        our_reading,
    }
}

fn explain(
    record: &GameRecord,
    solo: bool,
    draw_pile: Option<u32>,
    hand_effects: bool,
    skipped_passes: bool,
) -> Vec<String> {
    let mut lines = vec![
        "Each tile scores its points, +1 on a Seaweed square, then x2 on a Coral square; an End tile \
         scores 1 + 1 per Arm tile of its arm (with a shell: 2 + 2 per Arm tile)."
            .to_string(),
        "Illegal moves score nothing, are not placed, and end their player's turn.".to_string(),
    ];
    if solo {
        lines.push(format!(
            "Solo play: 1 point is deducted for each tile left in hand and in the draw pile ({} in the pile).",
            draw_pile.unwrap_or(0)
        ));
    } else {
        lines.push("1 point is deducted for each tile left in a player's hand.".to_string());
    }
    if record.hands.is_empty() {
        lines.push("The record gives no `hands`: every hand is taken to be empty.".to_string());
    }
    if record.simplified {
        lines.push("Simplified play: fish effects are ignored.".to_string());
    }
    if record.open {
        lines.push("Open play: hands were partly visible; scoring is the same.".to_string());
    }
    if skipped_passes {
        lines.push(
            "Where a move was made out of turn, the players in between are taken to have missed their turns."
                .to_string(),
        );
    }
    if hand_effects {
        lines.push(
            "Some fish effects change hands; the record does not list hands, so they are not checked."
                .to_string(),
        );
    }
    lines.push(
        "There is no tie-break in the rulebook: tied players share the rank (several winners).".to_string(),
    );
    lines
}
