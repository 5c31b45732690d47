//! `octoref score crash-octopus FILE.json [--json]`: the final ranking of a game from what is on the
//! ships, with the reason for every tie-break (`spec/cli.md`).

use crate::cli::{CliError, CliResult, emit_json, say};
use crate::fsutil;
use crate::games::crash_octopus::RulesData;
use crate::games::crash_octopus::score::ScoreSheet;
use anyhow::anyhow;
use std::path::Path;

pub fn run(file: &Path, json: bool) -> CliResult {
    let data = RulesData::builtin().map_err(CliError::failed)?;
    let sheet: ScoreSheet = fsutil::read_json(file).map_err(CliError::input)?;
    let ranking = sheet
        .rank(&data)
        .map_err(|e| CliError::input(anyhow!("{}: {e}", file.display())))?;
    for line in &ranking.explanation {
        say(line);
    }
    if json {
        emit_json(&ranking)?;
    }
    Ok(())
}
