//! `octoref score crash-octopus|octocube|otto FILE.json [--json]`.

pub mod crash_octopus;
pub mod octocube;
pub mod otto;

use super::CliResult;
use clap::{Args, ValueEnum};
use std::path::PathBuf;

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Game {
    CrashOctopus,
    Octocube,
    Otto,
}

#[derive(Debug, Args)]
pub struct ScoreArgs {
    /// Which game the file records.
    #[arg(value_enum)]
    pub game: Game,
    /// The end-of-game file (formats in the README and `cli.md`).
    pub file: PathBuf,
    /// Print one JSON document on stdout.
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: &ScoreArgs) -> CliResult {
    match args.game {
        Game::CrashOctopus => crash_octopus::run(&args.file, args.json),
        Game::Octocube => octocube::run(&args.file, args.json),
        Game::Otto => otto::run(&args.file, args.json),
    }
}
