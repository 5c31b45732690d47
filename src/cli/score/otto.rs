//! `octoref score otto FILE.json [--json]`: scores an Otto the Octopus game record
//! (`docs/spec/cli.md`, "Otto game record").
//!
//! Prints a readable breakdown on stderr (every move, the final Ocean, the ranking); with
//! `--json`, the full report as one JSON document on stdout and a one-line summary on stderr.
//! The record's `board` and `tiles` are `"default"` (compiled in from `assets/`) or TOML files,
//! relative to the record. Bad input exits 2 naming the file and the field; illegal moves are
//! reported, not errors.

use crate::cli::{CliError, CliResult, emit_json, say};
use crate::fsutil::{FileError, parse_json, read_input};
use crate::games::otto::arm::ArmEnd;
use crate::games::otto::record::{DEFAULT_SOURCE, MoveReport, RecordReport};
use crate::games::otto::{
    ArmShape, Board, BoardLayout, Cell, Edge, FishEffect, GameRecord, Tile, TileSet, score_record,
};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

pub fn run(file: &Path, json: bool) -> CliResult {
    let bytes = read_input(file).map_err(CliError::input)?;
    let OttoScore { report, tiles } = score_bytes(&bytes, file)?;
    if json {
        say(&summary(&report));
        emit_json(&report)
    } else {
        say(&breakdown(&report, &tiles));
        Ok(())
    }
}

/// A scored record and the tile set it was scored with (the breakdown names fish by it).
#[derive(Debug)]
pub struct OttoScore {
    pub report: RecordReport,
    pub tiles: TileSet,
}

/// Parses a game record (the bytes of `file`, which names it in messages), loads the board and
/// tile set it names (relative to `file`) and scores it: all that `run` does but reading the
/// record and printing. Bad input is [`CliError::Input`] naming the file and the field; it never
/// panics, whatever the bytes (fuzzed by `fuzz/`).
pub fn score_bytes(bytes: &[u8], file: &Path) -> Result<OttoScore, CliError> {
    let record: GameRecord = parse_json(bytes, file).map_err(CliError::input)?;
    let layout = load_board(file, &record.board)?;
    let tiles = load_tiles(file, &record.tiles)?;
    let report = score_parsed(&record, layout, &tiles, file)?;
    Ok(OttoScore { report, tiles })
}

/// Scores a parsed record on a given board and tile set; errors name `file` and the field.
pub fn score_parsed(
    record: &GameRecord,
    layout: BoardLayout,
    tiles: &TileSet,
    file: &Path,
) -> Result<RecordReport, CliError> {
    score_record(record, layout, tiles).map_err(|e| {
        CliError::input(FileError::Invalid {
            path: file.to_path_buf(),
            field: e.field,
            message: e.message,
        })
    })
}

/// A file named by a record, relative to the record's directory.
fn beside(record: &Path, name: &str) -> PathBuf {
    let named = Path::new(name);
    match record.parent() {
        Some(dir) if named.is_relative() => dir.join(named),
        _ => named.to_path_buf(),
    }
}

fn field_error(record: &Path, field: &str, message: String) -> CliError {
    CliError::input(FileError::Invalid {
        path: record.to_path_buf(),
        field: field.into(),
        message,
    })
}

fn load_board(record: &Path, source: &str) -> Result<BoardLayout, CliError> {
    if source == DEFAULT_SOURCE {
        return BoardLayout::default_layout().map_err(CliError::failed);
    }
    let path = beside(record, source);
    let bytes =
        read_input(&path).map_err(|e| field_error(record, "board", format!("cannot read the board: {e}")))?;
    let text = String::from_utf8_lossy(&bytes);
    BoardLayout::from_toml_str(&text, &path.display().to_string())
        .map_err(|e| field_error(record, "board", format!("not a valid board: {e}")))
}

fn load_tiles(record: &Path, source: &str) -> Result<TileSet, CliError> {
    if source == DEFAULT_SOURCE {
        return TileSet::default_set().map_err(CliError::failed);
    }
    let path = beside(record, source);
    let bytes = read_input(&path)
        .map_err(|e| field_error(record, "tiles", format!("cannot read the tile set: {e}")))?;
    let text = String::from_utf8_lossy(&bytes);
    TileSet::from_toml_str(&text, &path.display().to_string())
        .map_err(|e| field_error(record, "tiles", format!("not a valid tile set: {e}")))
}

/// One line: moves, illegal moves, ranking, winners.
pub fn summary(report: &RecordReport) -> String {
    let illegal = report.moves.iter().filter(|m| !m.legal).count();
    let ranking = report
        .players
        .iter()
        .map(|p| format!("{} {} ({})", p.rank, p.name, p.total))
        .collect::<Vec<_>>()
        .join(", ");
    format!(
        "Otto: {} moves ({illegal} illegal); ranking: {ranking}; winner{}: {}",
        report.moves.len(),
        if report.winners.len() > 1 { "s (tied)" } else { "" },
        report.winners.join(", ")
    )
}

/// The readable breakdown: moves, the final Ocean, results, notes.
pub fn breakdown(report: &RecordReport, tiles: &TileSet) -> String {
    let mut out = String::new();
    let mode = match (report.solo, report.open, report.simplified) {
        (true, _, true) => "solo, simplified play",
        (true, _, false) => "solo play",
        (false, true, true) => "open, simplified play",
        (false, true, false) => "open play",
        (false, false, true) => "simplified play",
        (false, false, false) => "standard play",
    };
    let names: Vec<&str> = report.players.iter().map(|p| p.name.as_str()).collect();
    let _ = writeln!(
        out,
        "Otto the Octopus — {} ({mode}); board: {}; tiles: {}",
        names.join(", "),
        report.board,
        report.tiles
    );
    let _ = writeln!(out, "\nMoves:");
    let width = names.iter().map(|n| n.chars().count()).max().unwrap_or(0);
    for m in &report.moves {
        if !m.missed_turns.is_empty() {
            let _ = writeln!(out, "       ({} missed a turn)", m.missed_turns.join(", "));
        }
        let _ = writeln!(
            out,
            "  {:>3}  {:<width$}  {}",
            m.index,
            m.player,
            describe_move(m, tiles)
        );
    }
    if let Some(board) = &report.final_board {
        let _ = writeln!(out, "\nThe Ocean at the end:");
        for line in render_board(board) {
            let _ = writeln!(out, "  {line}");
        }
        let _ = writeln!(
            out,
            "  (## Otto, │─┌┐└┘ arm, e End, @ End with shell, f fish, o bubbles, * Coral, \" Seaweed)"
        );
        let completed = board.arms().iter().filter(|a| a.is_completed()).count();
        let _ = writeln!(out, "  Arms completed: {completed} of {}", board.arms().len());
    }
    let _ = writeln!(out, "\nResults:");
    for p in &report.players {
        let _ = writeln!(
            out,
            "  {}. {:<width$}  placed {:>3}  - {} tile(s) left = {:>3}",
            p.rank, p.name, p.placed_points, p.tiles_left, p.total
        );
    }
    if let Some(pile) = report.draw_pile {
        let _ = writeln!(
            out,
            "  (solo: the {pile} tile(s) left in the draw pile count against you)"
        );
    }
    let _ = writeln!(
        out,
        "{}: {}",
        if report.winners.len() > 1 {
            "Winners (tied)"
        } else {
            "Winner"
        },
        report.winners.join(", ")
    );
    let _ = writeln!(out, "\nNotes:");
    for line in &report.explanation {
        let _ = writeln!(out, "  - {line}");
    }
    out.trim_end().to_string()
}

fn describe_move(m: &MoveReport, tiles: &TileSet) -> String {
    let Some(p) = &m.placement else {
        return "pass".into();
    };
    let what = match &p.tile {
        Tile::Arm(a) => format!(
            "{} on {} ({} -> {}, suckers {})",
            match a.shape() {
                ArmShape::Straight => "Arm tile (straight)",
                ArmShape::CurveSuckersInside => "Arm tile (curve, suckers inside)",
                ArmShape::CurveSuckersOutside => "Arm tile (curve, suckers outside)",
            },
            p.cell,
            a.from,
            a.to,
            a.suckers
        ),
        Tile::End(e) => format!(
            "End tile{} on {} (from {}){}",
            if e.shell { " with a shell" } else { "" },
            p.cell,
            e.from,
            m.completes_arm
                .map(|s| format!(", completes the arm from {s}"))
                .unwrap_or_default()
        ),
        Tile::Fish(f) => format!(
            "{} on {}",
            tiles
                .fish(&f.species)
                .map_or(f.species.as_str(), |s| s.name.as_str()),
            p.cell
        ),
        Tile::Bubbles => format!("Bubbles on {}", p.cell),
    };
    if !m.legal {
        return format!(
            "{what}: ILLEGAL, not placed — {}",
            m.reason.as_deref().unwrap_or("breaks a placement rule")
        );
    }
    let mut text = format!(
        "{what}: {} point{}",
        m.points,
        if m.points == 1 { "" } else { "s" }
    );
    if let Some(b) = &m.breakdown {
        let mut parts = Vec::new();
        if let Some(n) = b.arm_tiles {
            parts.push(format!("{} for {n} Arm tile(s)", b.base));
        } else if b.seaweed_bonus > 0 || b.coral_multiplier > 1 {
            parts.push(b.base.to_string());
        }
        if b.seaweed_bonus > 0 {
            parts.push(format!("+{} Seaweed", b.seaweed_bonus));
        }
        if b.coral_multiplier > 1 {
            parts.push(format!("x{} Coral", b.coral_multiplier));
        }
        if !parts.is_empty() {
            let _ = write!(text, " ({})", parts.join(" "));
        }
    }
    if let Some(e) = &m.effect
        && e.effect != FishEffect::None
    {
        let _ = write!(
            text,
            "; effect: {} — {}{}",
            e.description,
            e.note,
            if e.our_reading {
                " [octoref's reading of the card]"
            } else {
                ""
            }
        );
    }
    text
}

/// The Ocean as text, two characters per square, row 0 at the top.
fn render_board(board: &Board) -> Vec<String> {
    let layout = board.layout();
    let mut lines = Vec::with_capacity(usize::from(layout.height()) + 1);
    let header: String = (0..layout.width()).map(|x| format!("{:<2}", x % 10)).collect();
    lines.push(format!("   {}", header.trim_end()));
    for y in 0..layout.height() {
        let mut row = format!("{:>2} ", y);
        for x in 0..layout.width() {
            let cell = Cell::new(x, y);
            let (glyph, east) = match board.tile_at(cell) {
                _ if layout.is_otto(cell) => ('#', '#'),
                Some(Tile::Arm(a)) => (
                    arm_glyph(a.from, a.to),
                    if a.from == Edge::E || a.to == Edge::E {
                        '─'
                    } else {
                        ' '
                    },
                ),
                Some(Tile::End(e)) => (
                    if e.shell { '@' } else { 'e' },
                    if e.from == Edge::E { '─' } else { ' ' },
                ),
                Some(Tile::Fish(_)) => ('f', ' '),
                Some(Tile::Bubbles) => ('o', ' '),
                None if layout.is_coral(cell) => ('*', ' '),
                None if layout.is_seaweed(cell) => ('"', ' '),
                None => ('.', ' '),
            };
            row.push(glyph);
            row.push(east);
        }
        lines.push(row.trim_end().to_string());
    }
    let open = board
        .arms()
        .iter()
        .filter(|a| matches!(a.end, ArmEnd::Open { .. }) && a.is_started())
        .count();
    if open > 0 {
        lines.push(format!("({open} arm(s) started but not completed)"));
    }
    lines
}

fn arm_glyph(a: Edge, b: Edge) -> char {
    use Edge::{E, N, S, W};
    match (a, b) {
        (N, S) | (S, N) => '│',
        (E, W) | (W, E) => '─',
        (N, E) | (E, N) => '└',
        (N, W) | (W, N) => '┘',
        (S, E) | (E, S) => '┌',
        _ => '┐',
    }
}
