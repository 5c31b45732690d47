//! `octoref teach --calibration FILE.json --piece NAME IMG...`.

use super::{CliError, CliResult};
use clap::Args;
use std::path::PathBuf;

#[derive(Debug, Args)]
pub struct TeachArgs {
    #[arg(long, value_name = "FILE.json")]
    pub calibration: PathBuf,
    /// Catalog name of the piece shown (e.g. gold, ship_orange, crab).
    #[arg(long)]
    pub piece: String,
    /// Frames showing the piece alone on the table.
    #[arg(required = true)]
    pub images: Vec<PathBuf>,
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: &TeachArgs) -> CliResult {
    let _ = args;
    Err(CliError::failed(anyhow::anyhow!("teach: not built yet")))
}
