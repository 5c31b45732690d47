//! `octoref analyze --calibration FILE.json IMG... [--players ...] [--modules ...] [--active orange]
//! [--tolerance-mm 3] [--json]`: every piece on the table and the rulings, per image
//! (`cli.md`: one `{"frames": [...]}` document on stdout with `--json`, the referee's messages in
//! plain words on stderr).
//!
//! Every input is checked before anything is printed: the profile (and its empty-table
//! reference image, resolved against the profile's folder), the players, and each image as it
//! comes (readable, the profile's resolution). Bad input exits 2 naming the file.
//!
//! With `--players`, vision looks only for that game's pieces ([`crate::vision::in_play`]): the
//! Pirate's only with the Pirate, the treasure set of the player count;
//! with `--modules` too, the Little Octopus and the island only with their modules.
//! Without, it looks for the whole box and the players are the ships it sees.

use super::{CliError, CliResult, emit_json, say};
use crate::calibrate::profile::Profile;
use crate::capture::still::load_image;
use crate::games::crash_octopus::{PlayerColor, RulesData};
use crate::referee::{FrameReport, FramesReport, GameContext, Modules};
use crate::table::{Catalog, PieceKind};
use crate::vision::in_play::InPlay;
use crate::vision::{Analyzer, TaughtModels, VisionError};
use anyhow::anyhow;
use clap::Args;
use opencv::core::Mat;
use opencv::prelude::*;
use std::path::{Path, PathBuf};

#[derive(Debug, Args)]
pub struct AnalyzeArgs {
    #[arg(long, value_name = "FILE.json")]
    pub calibration: PathBuf,
    /// Frames to analyse.
    #[arg(required = true)]
    pub images: Vec<PathBuf>,
    /// Players in turn order, by colour: orange,green,blue,purple[,pink]. Default: the ships
    /// seen on the table, in the catalog's order (the Pink Pirate last).
    #[arg(long, value_delimiter = ',')]
    pub players: Vec<String>,
    /// The Pink Pirates modules the game plays with: pink_pirate, little_octopus, island
    /// (`--modules` alone: none). With --players, vision then looks for the Little Octopus and
    /// the island only with their modules. Default: not known (both looked for).
    #[arg(long, value_delimiter = ',', num_args = 0..)]
    pub modules: Option<Vec<String>>,
    /// The player about to flick.
    #[arg(long)]
    pub active: Option<String>,
    /// Gaps closer than this to the closest are "too close to call", mm.
    #[arg(long, value_name = "MM", default_value_t = 3.0)]
    pub tolerance_mm: f64,
    #[arg(long)]
    pub json: bool,
}

fn input(message: String) -> CliError {
    CliError::input(anyhow!(message))
}

/// A calibration profile ready for analysis: the profile, its empty-table reference image and
/// its taught pieces.
#[derive(Debug)]
pub struct LoadedProfile {
    pub path: PathBuf,
    pub profile: Profile,
    pub reference: Mat,
    pub taught: TaughtModels,
}

/// Loads a profile with its reference image (relative paths resolved against the profile's
/// folder) and taught pieces; every problem is bad input (exit 2) naming the file.
pub fn load_profile(path: &Path) -> Result<LoadedProfile, CliError> {
    let profile = Profile::load(path).map_err(CliError::input)?;
    let Some(reference_path) = profile.reference_path(path) else {
        return Err(input(format!(
            "{}: field `reference`: the profile has no empty-table reference image; calibrate with --ocean IMG (a capture of the set-up table without pieces)",
            path.display()
        )));
    };
    let reference = load_image(&reference_path).map_err(|e| {
        input(format!(
            "{}: field `reference.file`: the empty-table reference image cannot be used: {e}",
            path.display()
        ))
    })?;
    let taught =
        TaughtModels::from_profile(&profile).map_err(|e| input(format!("{}: {e}", path.display())))?;
    Ok(LoadedProfile {
        path: path.to_path_buf(),
        profile,
        reference,
        taught,
    })
}

/// Builds the analyser of a loaded profile; a profile vision cannot use is bad input.
pub fn analyzer_of(loaded: &LoadedProfile, catalog: &Catalog) -> Result<Analyzer, CliError> {
    Analyzer::new(&loaded.profile, &loaded.reference, catalog, &loaded.taught).map_err(|e| match e {
        VisionError::OpenCv(_) => CliError::failed(anyhow!("{}: {e}", loaded.path.display())),
        _ => input(format!("{}: {e}", loaded.path.display())),
    })
}

/// Reads a frame and checks it has the profile's resolution (exit 2 naming the image).
pub fn load_frame(image: &Path, loaded: &LoadedProfile) -> Result<Mat, CliError> {
    let frame = load_image(image).map_err(CliError::input)?;
    let size = loaded.profile.image_size;
    let (w, h) = (frame.cols().max(0) as u32, frame.rows().max(0) as u32);
    if (w, h) != (size.width, size.height) {
        return Err(input(format!(
            "{}: the image is {w}x{h} pixels but the profile {} was calibrated for {}x{} frames; use frames of that size, or calibrate again at {w}x{h} (`octoref calibrate --board IMG --out FILE.json`)",
            image.display(),
            loaded.path.display(),
            size.width,
            size.height
        )));
    }
    Ok(frame)
}

fn parse_colour(flag: &str, text: &str) -> Result<PlayerColor, CliError> {
    text.trim()
        .parse::<PlayerColor>()
        .map_err(|e| input(format!("--{flag} {text:?}: {e}")))
}

/// The players of a frame when `--players` is not given: the ships seen (catalog order), the
/// Pink Pirate last when its ship is seen, and the active player when it was not seen.
pub fn players_seen(
    report: &FrameReport,
    catalog: &Catalog,
    active: Option<PlayerColor>,
) -> Vec<PlayerColor> {
    let seen = |kind: PieceKind, color: Option<PlayerColor>| {
        report
            .pieces
            .iter()
            .any(|p| p.piece == kind && (color.is_none() || p.color == color))
    };
    let mut players: Vec<PlayerColor> = Vec::new();
    for e in &catalog.pieces {
        if e.piece == PieceKind::Ship
            && let Some(c) = e.color
            && !players.contains(&c)
            && (seen(PieceKind::Ship, Some(c)) || active == Some(c))
        {
            players.push(c);
        }
    }
    if seen(PieceKind::PirateShip, None) || active == Some(PlayerColor::Pink) {
        players.push(PlayerColor::Pink);
    }
    players
}

/// The modules named on the command line, read as `synth --modules` reads them (exit 2 naming
/// an unknown one).
fn modules_of(names: &[String]) -> Result<Modules, CliError> {
    crate::synth::Modules::from_names(names)
        .map(Modules::from)
        .map_err(|e| input(format!("--modules: {e}")))
}

pub fn run(args: &AnalyzeArgs) -> CliResult {
    let players = args
        .players
        .iter()
        .filter(|s| !s.trim().is_empty())
        .map(|s| parse_colour("players", s))
        .collect::<Result<Vec<_>, _>>()?;
    let active = args
        .active
        .as_deref()
        .map(|s| parse_colour("active", s))
        .transpose()?;
    let modules = args.modules.as_deref().map(modules_of).transpose()?;
    if modules.is_some() && players.is_empty() {
        return Err(input(
            "--modules: the modules need the players; expected --players as well, e.g. --players orange,green,pink --modules pink_pirate".to_string(),
        ));
    }
    if let Some(m) = modules
        && m.pink_pirate != players.contains(&PlayerColor::Pink)
    {
        return Err(input(
            "--modules/--players: the Pink Pirate plays pink with the pink_pirate module; expected both or neither".to_string(),
        ));
    }
    let context = |players: Vec<PlayerColor>| -> Result<GameContext, CliError> {
        let mut ctx = GameContext::with_players(players);
        ctx.modules = modules.unwrap_or_default();
        ctx.active = active;
        ctx.tolerance_mm = args.tolerance_mm;
        ctx.validate()
            .map_err(|e| input(format!("--players/--active/--tolerance-mm: {e}")))?;
        Ok(ctx)
    };
    let fixed = if players.is_empty() {
        // Checked now for --active and --tolerance-mm; the players come from each frame.
        context(active.into_iter().collect())?;
        None
    } else {
        Some(context(players)?)
    };

    let loaded = load_profile(&args.calibration)?;
    let catalog = Catalog::default_catalog();
    let mut analyzer = analyzer_of(&loaded, &catalog)?;
    if let Some(ctx) = &fixed {
        // Told who plays, vision looks only for that game's pieces (vision::in_play).
        let rules = RulesData::builtin().map_err(CliError::failed)?;
        let in_play = InPlay::of_players(&ctx.players, &rules);
        analyzer.set_in_play(&match modules {
            Some(m) => in_play.with_modules(m),
            None => in_play,
        });
    }
    let mut frames = Vec::with_capacity(args.images.len());
    for image in &args.images {
        let frame = load_frame(image, &loaded)?;
        let name = image.display().to_string();
        let first = fixed.clone().unwrap_or_default();
        let (mut report, _) = analyzer.report(&frame, &name, &first).map_err(|e| match e {
            VisionError::FrameSize { .. } | VisionError::FrameType => input(format!("{name}: {e}")),
            _ => CliError::failed(anyhow!("{name}: {e}")),
        })?;
        if fixed.is_none() {
            let ctx = context(players_seen(&report, &catalog, active))?;
            report
                .rule(&ctx)
                .map_err(|e| CliError::failed(anyhow!("{name}: {e}")))?;
        }
        say(&summary(&report));
        frames.push(report);
    }
    if args.json {
        emit_json(&FramesReport { frames })?;
    }
    Ok(())
}

/// A frame in plain words: what was found, then the referee's messages.
pub fn summary(report: &FrameReport) -> String {
    let mut counts: Vec<(&'static str, usize)> = Vec::new();
    for p in &report.pieces {
        let name = p.piece.as_str();
        match counts.iter_mut().find(|(n, _)| *n == name) {
            Some((_, k)) => *k += 1,
            None => counts.push((name, 1)),
        }
    }
    let found: Vec<String> = counts.iter().map(|(n, k)| format!("{k} {n}")).collect();
    let mut lines = vec![format!(
        "{}: {} pieces found{}{}",
        report.image,
        report.pieces.len(),
        if found.is_empty() {
            String::new()
        } else {
            format!(" ({})", found.join(", "))
        },
        match &report.counter {
            Some(c) => format!("; the crab is after bead {} of the Octo-Counter", c.crab),
            None => "; the Octo-Counter could not be read".into(),
        }
    )];
    if let Some(r) = &report.rulings {
        lines.extend(r.messages.iter().map(|m| format!("  {m}")));
    }
    lines.join("\n")
}
