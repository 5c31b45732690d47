//! `octoref analyze --calibration FILE.json IMG... [--players ...] [--active orange] [--json]`.

use super::{CliError, CliResult};
use clap::Args;
use std::path::PathBuf;

#[derive(Debug, Args)]
pub struct AnalyzeArgs {
    #[arg(long, value_name = "FILE.json")]
    pub calibration: PathBuf,
    /// Frames to analyse.
    #[arg(required = true)]
    pub images: Vec<PathBuf>,
    /// Players in turn order, by colour: orange,green,blue,purple[,pink].
    #[arg(long, value_delimiter = ',')]
    pub players: Vec<String>,
    /// The player about to flick.
    #[arg(long)]
    pub active: Option<String>,
    /// Gaps closer than this to the closest are "too close to call", mm.
    #[arg(long, value_name = "MM", default_value_t = 3.0)]
    pub tolerance_mm: f64,
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: &AnalyzeArgs) -> CliResult {
    let _ = args;
    Err(CliError::failed(anyhow::anyhow!("analyze: not built yet")))
}
