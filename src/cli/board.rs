//! `octoref board --out FILE.png|FILE.pdf`: the printable calibration board.

use super::{CliError, CliResult, say};
use crate::calibrate::board::BoardSpec;
use crate::calibrate::printable::{self, PageLayout};
use crate::fsutil;
use anyhow::anyhow;
use clap::Args;
use std::path::PathBuf;

#[derive(Debug, Args)]
pub struct BoardArgs {
    /// Output file: .png (300 dpi) or .pdf (vector), A4 landscape.
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
}

/// The file formats `board` writes.
enum Format {
    Png,
    Pdf,
}

pub fn run(args: &BoardArgs) -> CliResult {
    let ext = args
        .out
        .extension()
        .map(|e| e.to_string_lossy().to_ascii_lowercase());
    let format = match ext.as_deref() {
        Some("png") => Format::Png,
        Some("pdf") => Format::Pdf,
        _ => {
            return Err(CliError::input(anyhow!(
                "--out {}: expected a file name ending in .png or .pdf",
                args.out.display()
            )));
        }
    };
    let spec = BoardSpec::default();
    let layout = PageLayout::new(&spec).map_err(CliError::failed)?;
    let bytes = match format {
        Format::Png => layout.png_bytes().map_err(CliError::failed)?,
        Format::Pdf => layout.pdf_bytes(),
    };
    fsutil::write_atomic(&args.out, &bytes).map_err(CliError::input)?;
    let (w, h) = spec.size_mm();
    let what = match format {
        Format::Png => format!("{} dpi PNG", printable::DPI),
        Format::Pdf => "PDF".to_string(),
    };
    say(&format!(
        "wrote {}: the ChArUco board ({} x {} squares of {} mm, {w} x {h} mm) on an A4 landscape page, {what}.\n\
         Print it at 100 % (not \"fit to page\"), lay it flat in the ocean, then measure one printed square:\n\
         if it is not {} mm, pass what you measured, e.g. `octoref calibrate --board board.jpg --square-mm 39.5 ...`.",
        args.out.display(),
        spec.squares_x,
        spec.squares_y,
        spec.square_mm,
        spec.square_mm,
    ));
    Ok(())
}
