//! `octoref score crash-octopus FILE.json [--json]`: the final ranking of a game from what is on the
//! ships, with the reason for every tie-break (`spec/cli.md`).

use crate::cli::{CliError, CliResult, emit_json, say};
use crate::fsutil;
use crate::games::crash_octopus::RulesData;
use crate::games::crash_octopus::ending::Ranking;
use crate::games::crash_octopus::score::ScoreSheet;
use anyhow::anyhow;
use std::path::Path;

pub fn run(file: &Path, json: bool) -> CliResult {
    let bytes = fsutil::read_input(file).map_err(CliError::input)?;
    let ranking = score_bytes(&bytes, file)?;
    for line in &ranking.explanation {
        say(line);
    }
    if json {
        emit_json(&ranking)?;
    }
    Ok(())
}

/// Parses a score sheet (the bytes of `file`, which names it in messages) and ranks it: all that
/// `run` does but reading the file and printing. Bad input is [`CliError::Input`] naming `file`
/// and the field; it never panics, whatever the bytes (fuzzed by `fuzz/`).
pub fn score_bytes(bytes: &[u8], file: &Path) -> Result<Ranking, CliError> {
    let data = RulesData::builtin().map_err(CliError::failed)?;
    let sheet: ScoreSheet = fsutil::parse_json(bytes, file).map_err(CliError::input)?;
    sheet
        .rank(&data)
        .map_err(|e| CliError::input(anyhow!("{}: {e}", file.display())))
}
