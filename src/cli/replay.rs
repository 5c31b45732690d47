//! `octoref replay crash-octopus FILE.json [--json]`.

use super::{CliError, CliResult};
use clap::{Args, ValueEnum};
use std::path::PathBuf;

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ReplayGame {
    CrashOctopus,
}

#[derive(Debug, Args)]
pub struct ReplayArgs {
    #[arg(value_enum)]
    pub game: ReplayGame,
    /// The game record.
    pub file: PathBuf,
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: &ReplayArgs) -> CliResult {
    let _ = args;
    Err(CliError::failed(anyhow::anyhow!("replay: not built yet")))
}
