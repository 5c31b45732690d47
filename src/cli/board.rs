//! `octoref board --out FILE.png|FILE.pdf`.

use super::{CliError, CliResult};
use clap::Args;
use std::path::PathBuf;

#[derive(Debug, Args)]
pub struct BoardArgs {
    /// Output file: .png or .pdf (300 dpi).
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
}

pub fn run(args: &BoardArgs) -> CliResult {
    let _ = args;
    Err(CliError::failed(anyhow::anyhow!("board: not built yet")))
}
