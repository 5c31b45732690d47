//! `octoref score octocube`.

use crate::cli::{CliError, CliResult};
use std::path::Path;

pub fn run(file: &Path, json: bool) -> CliResult {
    let _ = (file, json);
    Err(CliError::failed(anyhow::anyhow!("score octocube: not built yet")))
}
