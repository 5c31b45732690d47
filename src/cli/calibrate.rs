//! `octoref calibrate --board IMG [--ocean IMG] [--square-mm 40] [--intrinsics IMG...]
//! [--points x1,y1,... --rect-mm W,H --image IMG] --out FILE.json [--json]`.

use super::{CliError, CliResult, emit_json, say};
use crate::calibrate::CalibrateError;
use crate::calibrate::board::BoardSpec;
use crate::calibrate::charuco::{self, BoardCalibration};
use crate::calibrate::counter::DEFAULT_BEAD_COUNT;
use crate::calibrate::homography;
use crate::calibrate::pose;
use crate::calibrate::profile::{FocalSource, Profile};
use crate::calibrate::setup::{self, SetupReading};
use crate::fsutil;
use crate::games::crash_octopus::RulesData;
use crate::table::{PointPx, PolygonMm};
use anyhow::anyhow;
use clap::Args;
use opencv::core::{Mat, Vector};
use opencv::imgcodecs;
use opencv::prelude::*;
use serde::Serialize;
use std::path::{Path, PathBuf};

/// Squares measured smaller or larger than this are a typo, not a printer's scaling.
const SQUARE_MM_RANGE: (f64, f64) = (10.0, 200.0);

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

/// `--json` output (cli.md's fields plus a few more).
#[derive(Debug, Serialize)]
struct Summary {
    profile: String,
    method: &'static str,
    image_size: [u32; 2],
    reprojection_px: f64,
    mm_per_px: f64,
    mm_per_px_edges: [f64; 2],
    #[serde(skip_serializing_if = "Option::is_none")]
    corners_used: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    square_mm: Option<f64>,
    camera: Option<CameraSummary>,
    ocean: Option<OceanSummary>,
    counter: Option<CounterSummary>,
    reference: Option<String>,
    warnings: Vec<String>,
}

#[derive(Debug, Serialize)]
struct CameraSummary {
    focal_px: f64,
    focal_source: FocalSource,
    height_mm: f64,
    tilt_deg: f64,
    pose_reprojection_px: f64,
    distortion: [f64; 5],
}

#[derive(Debug, Serialize)]
struct OceanSummary {
    polygon_mm: PolygonMm,
    perimeter_mm: f64,
    area_mm2: f64,
    size_mm: [f64; 2],
    seen_fraction: f64,
    longest_gap_mm: f64,
}

#[derive(Debug, Serialize)]
struct CounterSummary {
    beads: String,
    crab: usize,
    next: Option<String>,
    start_certain: bool,
}

fn input(message: String) -> CliError {
    CliError::input(anyhow!(message))
}

/// Maps a calibration error to its exit code, naming the file it came from.
fn calib_error(file: &Path, e: &CalibrateError) -> CliError {
    // A failed extra view already names its own file.
    let wrapped = match e {
        CalibrateError::View { .. } => anyhow!("{e}"),
        _ => anyhow!("{}: {e}", file.display()),
    };
    if e.is_input_error() {
        CliError::Input(wrapped)
    } else {
        CliError::Failed(wrapped)
    }
}

/// Reads an image as 8-bit BGR; unreadable, undecodable or empty images are bad input.
pub fn read_image(path: &Path) -> Result<Mat, CliError> {
    // The still-image loader refuses decompression bombs from the header before decoding.
    crate::capture::still::load_image(path).map_err(|e| input(e.to_string()))
}

fn parse_numbers(flag: &str, text: &str, count: usize, example: &str) -> Result<Vec<f64>, CliError> {
    let values: Result<Vec<f64>, _> = text.split(',').map(|t| t.trim().parse::<f64>()).collect();
    match values {
        Ok(v) if v.len() == count && v.iter().all(|x| x.is_finite()) => Ok(v),
        _ => Err(input(format!(
            "--{flag} {text:?}: expected {count} comma-separated numbers, e.g. {example}"
        ))),
    }
}

/// The reference image's file name for a profile: `<profile stem>_reference.png`.
fn reference_name(out: &Path) -> String {
    let stem = out
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "profile".into());
    format!("{stem}_reference.png")
}

pub fn run(args: &CalibrateArgs) -> CliResult {
    if args.out.is_dir() {
        return Err(input(format!(
            "--out {}: is a directory; expected a profile file name such as calibration/table.json",
            args.out.display()
        )));
    }
    let mut warnings: Vec<String> = Vec::new();
    let (mut profile, board_cal, ocean_image) = match (&args.board, &args.points) {
        (Some(_), Some(_)) => {
            return Err(input(
                "give either --board IMG or --points ... --rect-mm W,H --image IMG, not both".into(),
            ));
        }
        (None, None) => {
            return Err(input(
                "nothing to calibrate from: give --board IMG (a capture of the printed board), or --points x1,y1,...,x4,y4 --rect-mm W,H --image IMG".into(),
            ));
        }
        (Some(board), None) => {
            let (p, cal) = from_board(args, board)?;
            (p, Some(cal), args.ocean.clone())
        }
        (None, Some(points)) => {
            let p = from_points(args, points)?;
            (p, None, args.ocean.clone().or_else(|| args.image.clone()))
        }
    };

    // Models taught for the previous profile at this path stay with the table.
    if let Ok(old) = Profile::load(&args.out) {
        profile.taught = old.taught;
    }

    let mut reading: Option<SetupReading> = None;
    let reference_file = reference_name(&args.out);
    if let Some(path) = &ocean_image {
        let empty = read_image(path)?;
        match setup::add_setup(&mut profile, &empty, DEFAULT_BEAD_COUNT, &reference_file) {
            Ok(r) => {
                profile.source.ocean_image = Some(path.display().to_string());
                if let Err(e) = &r.counter {
                    warnings.push(format!(
                        "{}: Octo-Counter not read: {e}; the profile has the ocean but no bead sequence (type it in the app)",
                        path.display()
                    ));
                }
                if let Ok(c) = &r.counter
                    && !c.start_certain
                {
                    warnings.push(
                        "both ends of the bead run have the same colour, so the start (blue end) was guessed: check the bead sequence".into(),
                    );
                }
                if let Ok(c) = &r.counter
                    && let Ok(boxed) = RulesData::builtin().map(|d| d.counter.beads)
                    && c.beads != boxed
                {
                    warnings.push(format!(
                        "the beads read, {}, are not the box's order, {boxed}: check each bead against the string (a black bead on a dark table can read as blue) and correct counter.beads in the profile, or in the app's calibration, if one was misread",
                        c.beads
                    ));
                }
                reading = Some(r);
            }
            // With four points and no --ocean, the --image is only tried for the string.
            Err(e) if args.ocean.is_none() && !e.is_input_error() => warnings.push(format!(
                "{}: no ocean read ({e}); pass the set-up capture with --ocean",
                path.display()
            )),
            Err(e) => return Err(calib_error(path, &e)),
        }
    } else {
        warnings.push(
            "no --ocean capture: the profile has no ocean, counter or empty-table reference yet; capture the set-up table (string, beads, crab, no pieces) and pass it with --ocean".into(),
        );
    }

    // Write the reference first: a profile never points at a missing image.
    let reference_path = match (&reading, &profile.reference) {
        (Some(r), Some(_)) => {
            let dir = args
                .out
                .parent()
                .filter(|d| !d.as_os_str().is_empty())
                .map(Path::to_path_buf)
                .unwrap_or_else(|| PathBuf::from("."));
            let path = dir.join(&reference_file);
            let mut buf: Vector<u8> = Vector::new();
            imgcodecs::imencode(".png", &r.reference.image, &mut buf, &Vector::new())
                .map_err(CliError::failed)?;
            fsutil::write_atomic(&path, &buf.to_vec()).map_err(CliError::input)?;
            Some(path)
        }
        _ => None,
    };
    profile.save(&args.out).map_err(CliError::input)?;

    let summary = summarise(
        args,
        &profile,
        board_cal.as_ref(),
        reading.as_ref(),
        reference_path.as_deref(),
        warnings,
    );
    say(&human(&summary, args));
    if args.json {
        emit_json(&summary)?;
    }
    Ok(())
}

fn from_board(args: &CalibrateArgs, board: &Path) -> Result<(Profile, BoardCalibration), CliError> {
    if args.points.is_some() || args.rect_mm.is_some() {
        return Err(input("--rect-mm goes with --points, not with --board".into()));
    }
    let (lo, hi) = SQUARE_MM_RANGE;
    if !(args.square_mm.is_finite() && args.square_mm >= lo && args.square_mm <= hi) {
        return Err(input(format!(
            "--square-mm {}: expected the printed square's side in mm, between {lo} and {hi} (40 at 100 % print)",
            args.square_mm
        )));
    }
    let spec = BoardSpec::with_square_mm(args.square_mm);
    let image = read_image(board)?;
    let mut lens = Vec::new();
    for p in &args.intrinsics {
        lens.push((p.display().to_string(), read_image(p)?));
    }
    let cal = charuco::calibrate(&spec, &image, &lens).map_err(|e| calib_error(board, &e))?;
    let mut profile = setup::profile_from_board(&cal, &spec);
    profile.source.board_image = Some(board.display().to_string());
    profile.source.intrinsics_images = args.intrinsics.iter().map(|p| p.display().to_string()).collect();
    Ok((profile, cal))
}

fn from_points(args: &CalibrateArgs, points: &str) -> Result<Profile, CliError> {
    if !args.intrinsics.is_empty() {
        return Err(input(
            "--intrinsics needs --board (lens calibration uses board views)".into(),
        ));
    }
    let image_path = args
        .image
        .as_ref()
        .ok_or_else(|| input("--points needs --image IMG: the capture the points were read from".into()))?;
    let rect = args.rect_mm.as_ref().ok_or_else(|| {
        input("--points needs --rect-mm W,H: the rectangle's size in mm, e.g. 245,245 for the box lid".into())
    })?;
    let v = parse_numbers("points", points, 8, "412,300,868,310,880,640,400,628")?;
    let r = parse_numbers("rect-mm", rect, 2, "245,245")?;
    let image = read_image(image_path)?;
    let (w, h) = (image.cols() as u32, image.rows() as u32);
    let pts = [
        PointPx::new(v[0], v[1]),
        PointPx::new(v[2], v[3]),
        PointPx::new(v[4], v[5]),
        PointPx::new(v[6], v[7]),
    ];
    for (i, p) in pts.iter().enumerate() {
        if p.x < 0.0 || p.y < 0.0 || p.x > (w - 1) as f64 || p.y > (h - 1) as f64 {
            return Err(input(format!(
                "--points: point {} ({}, {}) lies outside the {w}x{h} image {}",
                i + 1,
                p.x,
                p.y,
                image_path.display()
            )));
        }
    }
    let fit = homography::four_points(pts, r[0], r[1])
        .map_err(|e| calib_error(image_path, &CalibrateError::Fit(e)))?;
    let mut profile = setup::profile_from_four_points(&fit, pts, [r[0], r[1]], w, h);
    profile.source.board_image = None;
    Ok(profile)
}

fn summarise(
    args: &CalibrateArgs,
    profile: &Profile,
    board: Option<&BoardCalibration>,
    reading: Option<&SetupReading>,
    reference: Option<&Path>,
    warnings: Vec<String>,
) -> Summary {
    let scale = setup::scale(profile);
    let camera = profile.camera.as_ref().map(|cam| CameraSummary {
        focal_px: cam.intrinsics.fx,
        focal_source: profile.source.focal.unwrap_or(FocalSource::BoardView),
        height_mm: -cam.pose.camera_centre().z,
        tilt_deg: pose::tilt_deg(&cam.pose),
        pose_reprojection_px: board.map(|b| b.pose_reprojection_px).unwrap_or(f64::NAN),
        distortion: cam.intrinsics.distortion,
    });
    let ocean = reading.map(|r| {
        let pts = r.ocean.polygon_mm.points();
        let (mut lo, mut hi) = ((f64::MAX, f64::MAX), (f64::MIN, f64::MIN));
        for p in pts {
            lo = (lo.0.min(p.x), lo.1.min(p.y));
            hi = (hi.0.max(p.x), hi.1.max(p.y));
        }
        OceanSummary {
            polygon_mm: r.ocean.polygon_mm.clone(),
            perimeter_mm: r.ocean.perimeter_mm,
            area_mm2: r.ocean.area_mm2,
            size_mm: [hi.0 - lo.0, hi.1 - lo.1],
            seen_fraction: r.ocean.seen_fraction,
            longest_gap_mm: r.ocean.longest_gap_mm,
        }
    });
    let counter = profile.counter.as_ref().map(|c| CounterSummary {
        beads: c.report.beads.to_string(),
        crab: c.report.crab,
        next: c.report.next.map(|b| b.letter().to_string()),
        start_certain: c.start_certain,
    });
    Summary {
        profile: args.out.display().to_string(),
        method: profile.method.as_str(),
        image_size: [profile.image_size.width, profile.image_size.height],
        reprojection_px: profile.reprojection_px,
        mm_per_px: profile.mm_per_px,
        mm_per_px_edges: [scale.edge_min, scale.edge_max],
        corners_used: board.map(|b| b.corners_used),
        square_mm: profile.board.as_ref().map(|b| b.square_mm),
        camera,
        ocean,
        counter,
        reference: reference.map(|p| p.display().to_string()),
        warnings,
    }
}

fn human(s: &Summary, args: &CalibrateArgs) -> String {
    let mut out = Vec::new();
    match (&args.board, s.corners_used) {
        (Some(b), Some(n)) => out.push(format!(
            "calibrated from {} ({}: {n} board corners)",
            b.display(),
            s.method
        )),
        _ => out.push(format!(
            "calibrated from four points of a {} mm rectangle ({}): lower accuracy than the printed board",
            args.rect_mm.as_deref().unwrap_or("?"),
            s.method
        )),
    }
    out.push(format!("  reprojection error: {:.2} px", s.reprojection_px));
    out.push(format!(
        "  mm per pixel: {:.2} at the centre, {:.2} to {:.2} at the edges",
        s.mm_per_px, s.mm_per_px_edges[0], s.mm_per_px_edges[1]
    ));
    if let Some(c) = &s.camera {
        let source = match c.focal_source {
            FocalSource::BoardView => "measured from the board view",
            FocalSource::MultiView => "calibrated over the --intrinsics views",
            FocalSource::AssumedFieldOfView => {
                "ASSUMED (a 70 degree webcam): the board was seen almost straight on"
            }
        };
        out.push(format!(
            "  camera: {:.0} mm above the table, tilted {:.0} degrees; focal length {:.0} px, {source}",
            c.height_mm, c.tilt_deg, c.focal_px
        ));
        if c.focal_source == FocalSource::AssumedFieldOfView {
            out.push(
                "    (heights of pieces are corrected with this camera; for a measured one tilt the board, or pass --intrinsics with a few tilted board views)".into(),
            );
        }
    }
    if let Some(sq) = s.square_mm {
        if (sq - crate::calibrate::board::SQUARE_MM).abs() < 1e-9 {
            out.push(format!(
                "  board squares taken as {sq} mm: printers rescale, so measure one printed square; if it is not {sq} mm, run again with --square-mm <measured>"
            ));
        } else {
            out.push(format!("  board squares: {sq} mm, as measured (--square-mm)"));
        }
    }
    if let Some(o) = &s.ocean {
        out.push(format!(
            "  ocean: {:.0} mm of string round, {:.0} x {:.0} mm, {:.2} m2 (string seen along {:.0} %, longest gap {:.0} mm)",
            o.perimeter_mm,
            o.size_mm[0],
            o.size_mm[1],
            o.area_mm2 / 1e6,
            o.seen_fraction * 100.0,
            o.longest_gap_mm
        ));
    }
    if let Some(c) = &s.counter {
        out.push(format!(
            "  beads read: {} ({} beads from the {}), crab after {} bead(s){}",
            c.beads,
            c.beads.len(),
            if c.start_certain {
                "blue end"
            } else {
                "guessed start"
            },
            c.crab,
            c.next
                .as_ref()
                .map(|n| format!(", next bead {n}"))
                .unwrap_or_default()
        ));
    }
    for w in &s.warnings {
        out.push(format!("  warning: {w}"));
    }
    match &s.reference {
        Some(r) => out.push(format!("wrote {} and the empty-table reference {r}", s.profile)),
        None => out.push(format!("wrote {}", s.profile)),
    }
    out.join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_parsed_or_named() {
        assert_eq!(
            parse_numbers("rect-mm", "245, 200", 2, "245,245").unwrap(),
            vec![245.0, 200.0]
        );
        let e = parse_numbers("points", "1,2,3", 8, "...")
            .unwrap_err()
            .to_string();
        assert!(e.contains("--points") && e.contains("8 comma-separated"), "{e}");
        assert_eq!(
            reference_name(Path::new("calibration/table.json")),
            "table_reference.png"
        );
    }
}
