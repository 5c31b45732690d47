//! The `octoref` binary: the app with no subcommand, headless subcommands otherwise.

use clap::Parser;
use octoref::cli::{self, Cli};
use std::process::ExitCode;

fn main() -> ExitCode {
    let _ = tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("warn")),
        )
        .with_writer(std::io::stderr)
        .try_init();
    let args = Cli::parse();
    let result = match args.command {
        Some(command) => cli::run(command),
        None => octoref::app::run(&args.app).map_err(|e| {
            if e.is::<octoref::app::UsageError>() {
                cli::CliError::Input(e)
            } else {
                cli::CliError::Failed(e)
            }
        }),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            cli::say(&format!("error: {e}"));
            ExitCode::from(e.exit_code())
        }
    }
}
