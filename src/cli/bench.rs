//! `octoref bench [--scenes N] [--json]`.

use super::{CliError, CliResult};
use clap::Args;

#[derive(Debug, Args)]
pub struct BenchArgs {
    #[arg(long, default_value_t = 30)]
    pub scenes: u32,
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: &BenchArgs) -> CliResult {
    let _ = args;
    Err(CliError::failed(anyhow::anyhow!("bench: not built yet")))
}
