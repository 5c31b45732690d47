//! `octoref synth --seed N --out DIR [--players 4] [--modules ...]`.

use super::{CliError, CliResult};
use clap::Args;
use std::path::PathBuf;

#[derive(Debug, Args)]
pub struct SynthArgs {
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    #[arg(long, value_name = "DIR")]
    pub out: PathBuf,
    #[arg(long, default_value_t = 4)]
    pub players: u8,
    /// Modules to include: pink_pirate, little_octopus, island.
    #[arg(long, value_delimiter = ',')]
    pub modules: Vec<String>,
    /// Number of game frames to render.
    #[arg(long, default_value_t = 3)]
    pub frames: u32,
}

pub fn run(args: &SynthArgs) -> CliResult {
    let _ = args;
    Err(CliError::failed(anyhow::anyhow!("synth: not built yet")))
}
