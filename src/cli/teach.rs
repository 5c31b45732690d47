//! `octoref teach --calibration FILE.json --piece NAME IMG... [--at X,Y] [--json]`: learns how a
//! piece of the user's set looks (colours, size) from frames and stores it in the profile
//! (`vision::teach`; the profile is rewritten atomically, everything else in it kept).

use super::analyze::{load_frame, load_profile};
use super::{CliError, CliResult, emit_json, say};
use crate::table::{Catalog, PointMm};
use crate::vision::teach::{self, Lesson, Pick};
use anyhow::anyhow;
use clap::Args;
use std::path::PathBuf;

#[derive(Debug, Args)]
pub struct TeachArgs {
    #[arg(long, value_name = "FILE.json")]
    pub calibration: PathBuf,
    /// Catalog name of the piece shown (e.g. gold, ship_orange, crab).
    #[arg(long)]
    pub piece: String,
    /// Frames showing the piece alone on the table (or, with --at, anywhere in the frame).
    #[arg(required = true)]
    pub images: Vec<PathBuf>,
    /// Pick the piece at this table point, in mm (as `analyze` reports positions): X,Y.
    #[arg(long, value_name = "X,Y", allow_hyphen_values = true)]
    pub at: Option<String>,
    /// Print what was learnt as JSON.
    #[arg(long)]
    pub json: bool,
}

fn parse_at(text: &str) -> Result<PointMm, CliError> {
    let v: Result<Vec<f64>, _> = text.split(',').map(|t| t.trim().parse::<f64>()).collect();
    match v.as_deref() {
        Ok([x, y]) if x.is_finite() && y.is_finite() => Ok(PointMm::new(*x, *y)),
        _ => Err(CliError::input(anyhow!(
            "--at {text:?}: expected two comma-separated numbers in mm, e.g. --at 412.5,280"
        ))),
    }
}

pub fn run(args: &TeachArgs) -> CliResult {
    let pick = match &args.at {
        Some(t) => Pick::At(parse_at(t)?),
        None => Pick::Alone,
    };
    let mut loaded = load_profile(&args.calibration)?;
    let catalog = Catalog::default_catalog();
    let frames = args
        .images
        .iter()
        .map(|p| load_frame(p, &loaded))
        .collect::<Result<Vec<_>, _>>()?;
    let lesson = teach::teach(
        &loaded.profile,
        &loaded.reference,
        &catalog,
        &args.piece,
        &frames,
        pick,
    )
    .map_err(|e| {
        let e = match &e {
            teach::TeachError::Frame { frame, .. }
            | teach::TeachError::NothingFound { frame }
            | teach::TeachError::Several { frame, .. }
            | teach::TeachError::NothingAt { frame, .. }
            | teach::TeachError::SeveralAt { frame, .. }
            | teach::TeachError::Shape { frame, .. }
            | teach::TeachError::Size { frame, .. } => match args.images.get(frame.saturating_sub(1)) {
                Some(p) => anyhow!("{}: {e}", p.display()),
                None => anyhow!("{e}"),
            },
            _ => anyhow!("{e}"),
        };
        CliError::input(e)
    })?;
    lesson
        .store(&mut loaded.profile)
        .map_err(|e| CliError::failed(anyhow!("{}: {e}", args.calibration.display())))?;
    loaded
        .profile
        .save(&args.calibration)
        .map_err(|e| CliError::failed(anyhow!("{e}")))?;
    say(&describe(&lesson, &args.calibration.display().to_string()));
    if args.json {
        emit_json(&lesson)?;
    }
    Ok(())
}

/// What was learnt, in plain words.
pub fn describe(lesson: &Lesson, profile: &str) -> String {
    let mut lines = vec![format!(
        "taught {} from {} frame{} into {profile}",
        lesson.piece,
        lesson.frames.len(),
        if lesson.frames.len() == 1 { "" } else { "s" }
    )];
    for (k, c) in lesson.colours.iter().enumerate() {
        lines.push(format!(
            "  colour {}: {} (catalog {}), spread {:.3}, brightness {:.2}-{:.2} of the table, {} pixels",
            k + 1,
            c.mean_hex,
            c.catalog_hex.as_deref().unwrap_or("-"),
            c.chroma_sigma,
            c.brightness[0],
            c.brightness[1],
            c.pixels
        ));
    }
    let size = if !lesson.size_measured {
        "not measured: the piece shows only partly against the table, so the catalog's size is kept"
            .to_string()
    } else if (lesson.taught.scale - 1.0).abs() < 1e-9 {
        format!(
            "as the catalog's (measured {:.2} times, within {:.0} %)",
            lesson.measured_scale,
            100.0 * teach::SCALE_DEADBAND
        )
    } else {
        format!("{:.2} times the catalog's", lesson.taught.scale)
    };
    lines.push(format!(
        "  size: {size}; footprint {:.0} mm² (catalog {:.0} mm²)",
        lesson.taught.area_mm2, lesson.catalog_area_mm2
    ));
    for (k, f) in lesson.frames.iter().enumerate() {
        lines.push(format!(
            "  frame {}: at ({:.1}, {:.1}) mm, {:.0} deg, seen {:.0} mm², outline match {:.2}",
            k + 1,
            f.center_mm[0],
            f.center_mm[1],
            f.angle_deg,
            f.silhouette_mm2,
            f.overlap
        ));
    }
    lines.join("\n")
}
