//! `octoref replay crash-octopus FILE.json [--json] [--rules FILE.toml]`: a game record replayed
//! through the rules (`spec/cli.md`). Prints where the game stands (and, without `--json`, the whole
//! log) on stderr; with `--json` one document on stdout. A record the rules refuse is exit 2, with the
//! file, the event's index and what was expected.

use super::{CliError, CliResult, emit_json, say};
use crate::fsutil;
use crate::games::crash_octopus::summary::GameSummary;
use crate::games::crash_octopus::{Game, Record, RulesData};
use anyhow::anyhow;
use clap::{Args, ValueEnum};
use std::path::{Path, PathBuf};

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ReplayGame {
    CrashOctopus,
}

#[derive(Debug, Args)]
pub struct ReplayArgs {
    #[arg(value_enum)]
    pub game: ReplayGame,
    /// The game record: players, modules, beads, events (format in the README and `cli.md`).
    pub file: PathBuf,
    /// Print one JSON document on stdout.
    #[arg(long)]
    pub json: bool,
    /// Game data to use instead of the built-in copy of `assets/crash_octopus.toml` (default bead
    /// sequence, treasure sets, tie-break hierarchies, the island's rule).
    #[arg(long, value_name = "FILE")]
    pub rules: Option<PathBuf>,
}

pub fn run(args: &ReplayArgs) -> CliResult {
    match args.game {
        ReplayGame::CrashOctopus => crash_octopus(args),
    }
}

fn crash_octopus(args: &ReplayArgs) -> CliResult {
    let data = rules_data(args.rules.as_deref())?;
    let bytes = fsutil::read_input(&args.file).map_err(CliError::input)?;
    let summary = replay_bytes(&bytes, &args.file, &data)?;
    if !args.json {
        for line in &summary.log {
            say(line);
        }
        say("");
    }
    for line in summary.status_lines(args.json) {
        say(&line);
    }
    if args.json {
        emit_json(&summary)?;
    }
    Ok(())
}

/// Parses a Crash Octopus game record (the bytes of `file`, which names it in messages) and
/// replays it with `data`: all that `octoref replay` does but reading files and printing. A record
/// the rules refuse is [`CliError::Input`] naming the file and the event's index; it never panics,
/// whatever the bytes (fuzzed by `fuzz/`).
pub fn replay_bytes(bytes: &[u8], file: &Path, data: &RulesData) -> Result<GameSummary, CliError> {
    let record: Record = fsutil::parse_json(bytes, file).map_err(CliError::input)?;
    let game =
        Game::replay_with(&record, data).map_err(|e| CliError::input(anyhow!("{}: {e}", file.display())))?;
    Ok(GameSummary::of(&game))
}

/// The built-in game data, or the user's file.
pub(crate) fn rules_data(path: Option<&Path>) -> Result<RulesData, CliError> {
    match path {
        None => RulesData::builtin().map_err(CliError::failed),
        Some(p) => {
            let bytes = fsutil::read_input(p).map_err(CliError::input)?;
            let text = String::from_utf8(bytes).map_err(|_| {
                CliError::input(anyhow!("{}: not UTF-8 text; expected a TOML file", p.display()))
            })?;
            RulesData::from_toml_str(&text, &p.display().to_string()).map_err(CliError::input)
        }
    }
}
