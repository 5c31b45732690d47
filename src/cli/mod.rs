//! The command line (`../shared/spec/cli.md`). Every subcommand prints a short human summary on
//! stderr and, with `--json`, one JSON document on stdout. Exit codes: 0 success, 1 the input was
//! understood but something failed, 2 bad usage or unreadable/invalid input.

pub mod analyze;
pub mod bench;
pub mod board;
pub mod calibrate;
pub mod replay;
pub mod score;
pub mod synth;
pub mod teach;

use clap::{Args, Parser, Subcommand};
use std::io::Write;
use std::path::PathBuf;

/// octoref: a camera referee for octopus tabletop games.
///
/// With no subcommand it opens the desktop app (on the built-in demo when no camera is found).
#[derive(Debug, Parser)]
#[command(name = "octoref", version, about, long_about = None)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
    #[command(flatten)]
    pub app: AppArgs,
}

/// Where the app takes its frames from, and which profile it uses.
#[derive(Debug, Clone, Default, Args)]
pub struct AppArgs {
    /// Use camera number N (see the app's Sources panel for the list).
    #[arg(long, value_name = "N", conflicts_with_all = ["video", "images", "demo"])]
    pub camera: Option<u32>,
    /// Play a video file as the camera.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["images", "demo"])]
    pub video: Option<PathBuf>,
    /// Play a folder of images (sorted by name) as the camera.
    #[arg(long, value_name = "DIR", conflicts_with = "demo")]
    pub images: Option<PathBuf>,
    /// Run the built-in demo: a synthetic table playing a scripted game.
    #[arg(long)]
    pub demo: bool,
    /// Calibration profile to use (default: the last one saved, else the demo profile).
    #[arg(long, value_name = "FILE")]
    pub calibration: Option<PathBuf>,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Calibrate the camera to the table from a board capture (and the empty set-up).
    Calibrate(calibrate::CalibrateArgs),
    /// Find the pieces in frames and give the rulings.
    Analyze(analyze::AnalyzeArgs),
    /// Score the end of a game.
    Score(score::ScoreArgs),
    /// Replay a game record through the rules.
    Replay(replay::ReplayArgs),
    /// Render synthetic table scenes with ground truth.
    Synth(synth::SynthArgs),
    /// Measure accuracy and speed on synthetic scenes.
    Bench(bench::BenchArgs),
    /// Write the printable calibration board.
    Board(board::BoardArgs),
    /// Teach octoref how your pieces look.
    Teach(teach::TeachArgs),
}

/// An error at the command line's edge, carrying its exit code.
#[derive(Debug, thiserror::Error)]
pub enum CliError {
    /// Bad usage or unreadable/invalid input: exit 2.
    #[error("{0:#}")]
    Input(anyhow::Error),
    /// The input was understood but the task failed: exit 1.
    #[error("{0:#}")]
    Failed(anyhow::Error),
}

impl CliError {
    pub fn input(e: impl Into<anyhow::Error>) -> Self {
        CliError::Input(e.into())
    }
    pub fn failed(e: impl Into<anyhow::Error>) -> Self {
        CliError::Failed(e.into())
    }
    pub fn exit_code(&self) -> u8 {
        match self {
            CliError::Input(_) => 2,
            CliError::Failed(_) => 1,
        }
    }
}

pub type CliResult = Result<(), CliError>;

/// Writes one JSON document (pretty, newline-terminated) to stdout.
pub fn emit_json<T: serde::Serialize>(value: &T) -> CliResult {
    let text = serde_json::to_string_pretty(value).map_err(CliError::failed)?;
    let mut out = std::io::stdout().lock();
    writeln!(out, "{text}").map_err(CliError::failed)?;
    Ok(())
}

/// Writes human-readable lines to stderr.
pub fn say(text: &str) {
    let mut err = std::io::stderr().lock();
    let _ = writeln!(err, "{text}");
}

/// Runs a subcommand (the app is started by `main`).
pub fn run(command: Command) -> CliResult {
    match command {
        Command::Calibrate(a) => calibrate::run(&a),
        Command::Analyze(a) => analyze::run(&a),
        Command::Score(a) => score::run(&a),
        Command::Replay(a) => replay::run(&a),
        Command::Synth(a) => synth::run(&a),
        Command::Bench(a) => bench::run(&a),
        Command::Board(a) => board::run(&a),
        Command::Teach(a) => teach::run(&a),
    }
}
