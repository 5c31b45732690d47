//! `octoref calibrate --board IMG [--ocean IMG] [--square-mm 40] --out FILE.json [--json]`.

use super::{CliError, CliResult};
use clap::Args;
use std::path::PathBuf;

#[derive(Debug, Args)]
pub struct CalibrateArgs {
    /// A capture of the ChArUco board lying flat in the ocean.
    #[arg(long, value_name = "IMG")]
    pub board: Option<PathBuf>,
    /// A capture of the set-up table without pieces (string, beads, crab only).
    #[arg(long, value_name = "IMG")]
    pub ocean: Option<PathBuf>,
    /// The printed square size you measured, in mm (printers rescale: measure one square).
    #[arg(long, value_name = "MM", default_value_t = 40.0)]
    pub square_mm: f64,
    /// More board views (different positions/angles) to calibrate the lens, with distortion.
    #[arg(long, value_name = "IMG", num_args = 1..)]
    pub intrinsics: Vec<PathBuf>,
    /// Without a board: four image points x1,y1,x2,y2,x3,y3,x4,y4 of a known rectangle's corners.
    #[arg(long, value_name = "X1,Y1,...")]
    pub points: Option<String>,
    /// The rectangle's size for --points, W,H in mm (e.g. the box lid 245,245).
    #[arg(long, value_name = "W,H")]
    pub rect_mm: Option<String>,
    /// With --points: the image the points were taken in (for its size and the ocean).
    #[arg(long, value_name = "IMG")]
    pub image: Option<PathBuf>,
    /// Where to write the profile.
    #[arg(long, value_name = "FILE.json")]
    pub out: PathBuf,
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: &CalibrateArgs) -> CliResult {
    let _ = args;
    Err(CliError::failed(anyhow::anyhow!("calibrate: not built yet")))
}
