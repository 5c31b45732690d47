//! `octoref synth --seed N --out DIR [--players 4] [--modules ...] [--frames K]`: renders a
//! synthetic table (board capture, empty set-up, game frames) with its `truth.json`.

use super::{CliError, CliResult, say};
use crate::synth::{
    CameraNudge, Faults, LightingChange, Modules, Resolution, Scene, SceneSpec, encode_jpeg, render_frame,
    write_scene_with,
};
use crate::table::PieceKind;
use anyhow::anyhow;
use clap::Args;
use std::path::{Path, PathBuf};

/// Most frames one run may render.
const MAX_FRAMES: u32 = 1000;

#[derive(Debug, Args)]
pub struct SynthArgs {
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    #[arg(long, value_name = "DIR")]
    pub out: PathBuf,
    /// Players with a ship (2-4); the Pink Pirate module adds the pirate on top.
    #[arg(long, default_value_t = 4)]
    pub players: u8,
    /// Modules to include: pink_pirate, little_octopus, island.
    #[arg(long, value_delimiter = ',')]
    pub modules: Vec<String>,
    /// Number of game frames to render.
    #[arg(long, default_value_t = 3)]
    pub frames: u32,
    /// Image size, e.g. 1280x720 (default: sampled, mostly 1280x720).
    #[arg(long, value_name = "WxH")]
    pub resolution: Option<String>,
    /// Camera height above the table in mm (default: sampled, 650-1100).
    #[arg(long, value_name = "MM")]
    pub height_mm: Option<f64>,
    /// Camera tilt from vertical in degrees (default: sampled, 0-35).
    #[arg(long, value_name = "DEG")]
    pub tilt_deg: Option<f64>,
    /// Bead sequence from start (blue end) to finish, e.g. BBBKBBBKBBKBBKKK.
    #[arg(long)]
    pub beads: Option<String>,
    /// Faults in every game frame: hand, lighting, nudge, pushed:N (pieces pushed out of view).
    #[arg(long, value_delimiter = ',')]
    pub faults: Vec<String>,
    /// Also write alone_PIECE.jpg: this catalog piece (e.g. gold) alone in the middle of the
    /// ocean, only the crab left on the counter: a picture to teach it from (`octoref teach`).
    #[arg(long, value_name = "PIECE")]
    pub alone: Option<String>,
    /// Print the truth document on stdout.
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: &SynthArgs) -> CliResult {
    let modules =
        Modules::from_names(&args.modules).map_err(|e| CliError::input(anyhow!("--modules: {e}")))?;
    let resolution = match &args.resolution {
        Some(r) => Some(
            r.parse::<Resolution>()
                .map_err(|e| CliError::input(anyhow!("--resolution: {e}")))?,
        ),
        None => None,
    };
    let beads = match &args.beads {
        Some(b) => Some(
            b.parse()
                .map_err(|e: String| CliError::input(anyhow!("--beads: {e}")))?,
        ),
        None => None,
    };
    if args.frames > MAX_FRAMES {
        return Err(CliError::input(anyhow!(
            "--frames: expected at most {MAX_FRAMES}, got {}",
            args.frames
        )));
    }
    let spec = SceneSpec {
        seed: args.seed,
        players: args.players,
        modules,
        resolution,
        height_mm: args.height_mm,
        tilt_deg: args.tilt_deg,
        distortion: None,
        beads,
    };
    if let Err(e) = spec.validate() {
        let flag = match &e {
            crate::synth::SynthError::Spec { field, .. } => field.replace('_', "-"),
            _ => "seed".into(),
        };
        return Err(CliError::input(anyhow!("--{flag}: {e}")));
    }
    let faults = parse_faults(&args.faults)?;
    let scene = Scene::generate(&spec).map_err(CliError::failed)?;
    if let Some(piece) = &args.alone
        && !scene.pieces.iter().any(|p| &p.entry == piece)
    {
        let mut names: Vec<&str> = scene
            .pieces
            .iter()
            .filter(|p| p.kind != PieceKind::Crab)
            .map(|p| p.entry.as_str())
            .collect();
        names.sort_unstable();
        names.dedup();
        return Err(CliError::input(anyhow!(
            "--alone: no {piece:?} in this scene; expected one of {}",
            names.join(", ")
        )));
    }
    let files = write_scene_with(&scene, &args.out, args.frames as usize, |i| {
        let mut f = faults.clone();
        if f.lighting.is_some() {
            f.lighting = Some(LightingChange::random(args.seed, i as u64));
        }
        f
    })
    .map_err(CliError::failed)?;
    let r = &scene.rig;
    let k = &scene.camera.intrinsics;
    say(&format!(
        "seed {}: {}x{} camera {:.0} mm up, tilt {:.1} deg, yaw {:.0} deg, hfov {:.1} deg{}; {:?} table; \
         string {:.0} mm; {} players{}",
        args.seed,
        k.width,
        k.height,
        r.height_mm,
        r.tilt_deg,
        r.yaw_deg,
        r.hfov_deg,
        if k.has_distortion() {
            ", lens distortion"
        } else {
            ""
        },
        scene.surface.kind,
        scene.string.perimeter_mm,
        spec.player_colours().len(),
        if modules.names().is_empty() {
            String::new()
        } else {
            format!(" + {}", modules.names().join(", "))
        },
    ));
    for (f, path) in files.truth_doc.frames.iter().zip(&files.frames) {
        let loaded = f.pieces.iter().filter(|p| p.report.loaded_on.is_some()).count();
        let outside = f
            .pieces
            .iter()
            .filter(|p| p.report.piece == crate::table::PieceKind::Treasure && !p.report.in_ocean)
            .count();
        say(&format!(
            "  {}: crab {}, {} loaded, {} treasures out of the ocean, {} near ties",
            path.display(),
            f.counter.crab,
            loaded,
            outside,
            f.near_ties.len()
        ));
    }
    say(&format!(
        "wrote {}, {}, {} frames and {}",
        files.board.display(),
        files.empty.display(),
        files.frames.len(),
        files.truth.display()
    ));
    if let Some(piece) = &args.alone {
        let path = write_alone(&scene, piece, &args.out)?;
        say(&format!(
            "wrote {}: the {piece} alone in the ocean",
            path.display()
        ));
    }
    if args.json {
        super::emit_json(&files.truth_doc)?;
    }
    Ok(())
}

/// Writes `alone_PIECE.jpg` into `dir`: the set-up's first `piece` moved to the middle of the
/// ocean (on the table, not on a deck or the island), every other piece taken away but the crab.
fn write_alone(scene: &Scene, piece: &str, dir: &Path) -> Result<PathBuf, CliError> {
    let mut layout = scene.layout(0).map_err(CliError::failed)?;
    let Some(i) = layout.pieces.iter().position(|p| p.entry == piece) else {
        return Err(CliError::failed(anyhow!(
            "--alone: the {piece} is not on the set-up table"
        )));
    };
    let mut alone = layout.pieces.swap_remove(i);
    alone.center_mm = scene.ocean().centroid();
    alone.base_mm = 0.0;
    alone.loaded_on = None;
    alone.on_island = false;
    layout.pieces.retain(|p| p.kind == PieceKind::Crab);
    layout.pieces.push(alone);
    layout.near_ties.clear();
    let frame = scene
        .frame_from(layout, &Faults::none())
        .map_err(CliError::failed)?;
    let image = render_frame(scene, &frame.layout, &frame.options).map_err(CliError::failed)?;
    let path = dir.join(format!("alone_{piece}.jpg"));
    let bytes = encode_jpeg(&image, frame.jpeg_quality).map_err(CliError::failed)?;
    crate::fsutil::write_atomic(&path, &bytes).map_err(CliError::failed)?;
    Ok(path)
}

/// `hand`, `lighting`, `nudge`, `pushed:N` -> the faults every frame carries.
fn parse_faults(names: &[String]) -> Result<Faults, CliError> {
    let mut f = Faults::none();
    for n in names.iter().map(|n| n.trim()).filter(|n| !n.is_empty()) {
        match n {
            "hand" => f.hand = true,
            "lighting" => f.lighting = Some(LightingChange::random(0, 0)),
            "nudge" => f.camera_nudge = Some(CameraNudge::default()),
            other => match other.strip_prefix("pushed:").map(str::parse::<usize>) {
                Some(Ok(k)) => f.pushed_out = k,
                _ => {
                    return Err(CliError::input(anyhow!(
                        "--faults: expected hand, lighting, nudge or pushed:N, got {other:?}"
                    )));
                }
            },
        }
    }
    Ok(f)
}
