//! `octoref score otto`.

use crate::cli::{CliError, CliResult};
use std::path::Path;

pub fn run(file: &Path, json: bool) -> CliResult {
    let _ = (file, json);
    Err(CliError::failed(anyhow::anyhow!("score otto: not built yet")))
}
