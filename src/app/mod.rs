//! The desktop app (eframe/egui): what players use at the table.
//!
//! Shape (like egui's demo app): [`OctorefApp`] owns one plain persisted [`config::AppState`]
//! (theme, large type, last panel, last profile, last game, the set-up being prepared), saved
//! atomically as JSON in the config directory whenever it changes; each screen is a type with a
//! `ui(&mut self, ui, ...)` method; work that is not drawing happens in [`eframe::App::logic`] or on
//! worker threads, never in `ui()`.
//!
//! Screens: Set-up and Game (Crash Octopus at the table, driven by the rules engine), Help. The
//! bottom status line shows the source, the camera's fps, the UI's own repaint rate, analysis time
//! and calibration age ("—" where there is nothing yet).

pub mod at_the_table;
pub mod calibration_wizard;
pub mod camera_view;
pub mod config;
pub mod crash_octopus;
pub mod demo_game;
pub mod help;
pub mod live;
pub mod octocube_sheet;
pub mod otto_board;
pub mod overlays;
pub mod referee_link;
pub mod repaint_rate;
pub mod shortcuts;
pub mod sources_panel;
pub mod status;
pub mod style;
pub mod teach_panel;
pub mod top_bar;

use crate::calibrate::profile::Profile;
use crate::capture::{CaptureError, FrameSource, SourceChoice, SourceRequest, WorkerConfig};
use crate::cli::AppArgs;
use crate::games::crash_octopus::{Game, Next, TreasureType};
use crate::live::{LiveCalibration, LiveConfig, LiveReferee, LiveSnapshot};
use crate::referee::GameContext;
use anyhow::anyhow;
use config::{AppState, ConfigDir, PanelId};
use crash_octopus::Table;
use crash_octopus::questions::{Origin, QuestionKind};
use crash_octopus::setup_panel::SetupPanel;
use demo_game::{DemoTable, game_context};
use live::{CameraList, LiveSource};
use referee_link::RefereePipeline;
use shortcuts::Command;
use sources_panel::SourcesPanel;
use status::{ProfileInfo, StatusLine};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::SystemTime;
use style::{Looks, Palette};

/// The window's size when it opens, points.
const INITIAL_WINDOW: [f32; 2] = [1360.0, 860.0];
/// The smallest useful window, points.
const MIN_WINDOW: [f32; 2] = [900.0, 600.0];

/// The environment variable that chooses how the window is drawn: `glow` (OpenGL, the default) or
/// `wgpu` (Vulkan, Metal, DirectX or OpenGL through wgpu), for a machine where OpenGL will not start.
pub const RENDERER_ENV: &str = "OCTOREF_RENDERER";

/// The renderer used when [`RENDERER_ENV`] does not choose one: glow. Where there is no GPU and
/// Mesa's software rasteriser (llvmpipe) draws the window on the CPU, egui-wgpu's fragment shader
/// costs about four times as much per pixel as egui_glow's much simpler one (measured on the
/// 2-core test machine, README "Responsiveness": ~55 → ~13 ms of rasteriser CPU per 1280x800
/// frame; wgpu cost the same on its OpenGL backend as on Vulkan, so it is the shader), and with
/// wgpu the demo could not be drawn at the camera's rate. The picture is the same (screenshots of
/// both agree within 2% per pixel). On a GPU either takes far less than a frame.
pub const DEFAULT_RENDERER: eframe::Renderer = eframe::Renderer::Glow;

/// The renderer named by [`RENDERER_ENV`]'s value (`None` or empty: [`DEFAULT_RENDERER`]);
/// anything else than `glow` or `wgpu` is a [`UsageError`].
pub fn renderer_from(value: Option<&str>) -> Result<eframe::Renderer, UsageError> {
    match value.map(str::trim) {
        None | Some("") => Ok(DEFAULT_RENDERER),
        Some(v) if v.eq_ignore_ascii_case("glow") => Ok(eframe::Renderer::Glow),
        Some(v) if v.eq_ignore_ascii_case("wgpu") => Ok(eframe::Renderer::Wgpu),
        Some(v) => Err(UsageError(format!(
            "{RENDERER_ENV}={v:?} is not a renderer: use glow (OpenGL, the default) or wgpu"
        ))),
    }
}

/// [`renderer_from`] on the environment.
pub fn renderer_from_env() -> Result<eframe::Renderer, UsageError> {
    let value = std::env::var_os(RENDERER_ENV).map(|v| v.to_string_lossy().into_owned());
    renderer_from(value.as_deref())
}

/// How the app is started: where its files live, the command-line flags, and the source chosen
/// for them (see [`choose_source`]).
#[derive(Debug, Clone)]
pub struct AppOptions {
    pub config_dir: PathBuf,
    pub args: AppArgs,
    /// `None`: no source until one is chosen in the Sources panel (tests).
    pub source: Option<SourceChoice>,
    /// The cameras listed while choosing the source, if they were listed.
    pub cameras: Option<CameraList>,
}

/// The app was started with flags it cannot use (exit code 2, before any window opens).
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct UsageError(pub String);

/// Chooses the source for the flags: `--camera`, `--video`, `--images`, `--demo`, else the first
/// usable camera (listing the cameras), else the demo. A video or folder that cannot be used is a
/// [`UsageError`].
pub fn choose_source(args: &AppArgs) -> Result<(SourceChoice, Option<CameraList>), UsageError> {
    let request = SourceRequest {
        camera: args.camera,
        video: args.video.clone(),
        images: args.images.clone(),
        demo: args.demo,
    };
    let mut listed: Option<CameraList> = None;
    let choice = crate::capture::choose_source(&request, || {
        let result = crate::capture::list_cameras();
        listed = Some(result.clone().map_err(|e: CaptureError| e.to_string()));
        result
    });
    choice.validate().map_err(|e| UsageError(e.to_string()))?;
    Ok((choice, listed))
}

/// A message across the top of the window until dismissed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Banner {
    pub level: BannerLevel,
    pub text: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BannerLevel {
    Info,
    Warning,
    Error,
}

/// The whole app.
#[derive(Debug)]
pub struct OctorefApp {
    config: ConfigDir,
    state: AppState,
    /// The state as last written (or read), to save only when something changed.
    saved_state: AppState,
    /// The looks as last applied to the egui context.
    applied_looks: Option<Looks>,
    palette: Palette,
    table: Table,
    setup: SetupPanel,
    banners: Vec<Banner>,
    status: StatusLine,
    profile: Option<ProfileInfo>,
    live: LiveSource,
    sources: SourcesPanel,
    octocube: octocube_sheet::OctocubeSheet,
    otto: otto_board::OttoBoard,
    /// The live referee, when a calibration is in use (the demo's own while the demo runs).
    referee: Option<Arc<LiveReferee>>,
    /// The calibration the referee uses (to draw its readings over the picture).
    referee_profile: Option<Profile>,
    /// The referee's newest snapshot, taken in `logic`.
    snapshot: Option<Arc<LiveSnapshot>>,
    /// The demo's scripted game, while the demo runs.
    demo: Option<DemoTable>,
    /// The Game screen shows the demo's game (true) or the players' own.
    show_demo: bool,
    /// The game context last given to the referee.
    sent_context: Option<GameContext>,
    /// The committed reading the camera's questions were last asked about.
    asked_about: Option<u64>,
    wizard: calibration_wizard::CalibrationWizard,
    teach: teach_panel::TeachPanel,
    help: help::HelpPanel,
    top_bar: top_bar::TopBar,
    /// How often the UI is actually drawn, for the status line.
    repaint_rate: repaint_rate::RepaintRate,
    /// The window is cleared to the panel colour ([`eframe::App::clear_color`]), so the central
    /// panel need not paint its background again (see [`OctorefApp::with_panel_fill_from_clear`]).
    panel_fill_from_clear: bool,
}

/// Opens the desktop app and returns when its window is closed.
pub fn run(args: &AppArgs) -> anyhow::Result<()> {
    let (source, cameras) = choose_source(args)?;
    let renderer = renderer_from_env()?;
    check_display()?;
    let config_dir = config::config_dir_from_env()?;
    let options = AppOptions {
        config_dir,
        args: args.clone(),
        source: Some(source),
        cameras,
    };
    let native = eframe::NativeOptions {
        viewport: egui::ViewportBuilder::default()
            .with_title("octoref")
            .with_app_id("octoref")
            .with_inner_size(INITIAL_WINDOW)
            .with_min_inner_size(MIN_WINDOW),
        renderer,
        ..Default::default()
    };
    eframe::run_native(
        "octoref",
        native,
        Box::new(move |cc| {
            Ok(Box::new(
                OctorefApp::new(&cc.egui_ctx, options).with_panel_fill_from_clear(),
            ))
        }),
    )
    .map_err(|e| {
        let other = match renderer {
            eframe::Renderer::Glow => "wgpu",
            eframe::Renderer::Wgpu => "glow",
        };
        anyhow!("cannot open the app's window: {e} (to draw it another way, set {RENDERER_ENV}={other})")
    })
}

/// Refuses to start without a display, with a message instead of a windowing-system panic.
fn check_display() -> anyhow::Result<()> {
    if cfg!(all(unix, not(target_os = "macos"))) {
        let set = |v: &str| std::env::var_os(v).is_some_and(|x| !x.is_empty());
        if !set("DISPLAY") && !set("WAYLAND_DISPLAY") {
            anyhow::bail!(
                "no display: the app needs a graphical desktop (X11 or Wayland), but neither DISPLAY nor WAYLAND_DISPLAY is set. \
                 Run it from a desktop session; the subcommands (`octoref --help`) work without one."
            );
        }
    }
    Ok(())
}

impl OctorefApp {
    /// Builds the app: reads the saved state, resumes the game in progress, reads the calibration
    /// profile, and sets the looks.
    pub fn new(ctx: &egui::Context, options: AppOptions) -> Self {
        style::install_text_styles(ctx);
        let config = ConfigDir::new(options.config_dir);
        let (mut state, problem) = config.load_state();
        let mut banners = Vec::new();
        if let Some(p) = problem {
            let kept = p
                .kept_as
                .map(|k| format!(" The file was moved to {}.", k.display()))
                .unwrap_or_default();
            banners.push(Banner {
                level: BannerLevel::Warning,
                text: format!(
                    "The saved settings could not be read ({}); using the defaults.{kept}",
                    p.message
                ),
            });
        }
        let table = match &state.last_game {
            Some(p) if p.exists() => Table::resume(p),
            Some(p) => {
                banners.push(Banner {
                    level: BannerLevel::Warning,
                    text: format!(
                        "The game in progress was saved in {}, which no longer exists; set up a new game.",
                        p.display()
                    ),
                });
                state.last_game = None;
                Table::default()
            }
            None => Table::default(),
        };
        // A resumed game is shown unless another screen was open; no game, no game screen.
        state.panel = match (table.game().is_some(), state.panel) {
            (true, PanelId::Setup) => PanelId::Game,
            (false, PanelId::Game) => PanelId::Setup,
            (_, p) => p,
        };
        let profile_path = options
            .args
            .calibration
            .clone()
            .or_else(|| state.last_profile.clone());
        let profile = match profile_path.clone() {
            Some(p) => match status::read_profile_info(&p) {
                Ok(info) => {
                    if !info.beads_certain {
                        banners.push(Banner {
                            level: BannerLevel::Warning,
                            text: "The calibration could not tell the start of the bead string (blue end) from its finish: check the bead sequence in Set-up before you start.".into(),
                        });
                    }
                    state.last_profile = Some(p);
                    Some(info)
                }
                Err(e) => {
                    banners.push(Banner {
                        level: BannerLevel::Error,
                        text: format!("The calibration profile could not be used: {e}"),
                    });
                    None
                }
            },
            None => None,
        };
        let status = StatusLine {
            calibration_saved_at: profile.as_ref().map(|p| p.saved_at),
            ..StatusLine::default()
        };
        let (octocube, sheet_problem) = octocube_sheet::OctocubeSheet::open(config.root());
        if let Some(text) = sheet_problem {
            banners.push(Banner {
                level: BannerLevel::Warning,
                text,
            });
        }
        let (otto, otto_problem) = otto_board::OttoBoard::open(config.root());
        if let Some(text) = otto_problem {
            banners.push(Banner {
                level: BannerLevel::Warning,
                text,
            });
        }
        let wizard =
            calibration_wizard::CalibrationWizard::new(&config.root().join("calibration").join("table.json"));
        let saved_state = state.clone();
        let live = match options.source {
            Some(choice) => LiveSource::start_choice(ctx, choice),
            None => LiveSource::idle("no source chosen"),
        };
        let mut app = OctorefApp {
            config,
            state,
            saved_state,
            applied_looks: None,
            palette: Palette::new(crate::table::Catalog::default_catalog()),
            table,
            setup: SetupPanel::default(),
            banners,
            status,
            profile,
            live,
            sources: SourcesPanel::new(options.cameras),
            octocube,
            otto,
            referee: None,
            referee_profile: None,
            snapshot: None,
            demo: None,
            show_demo: false,
            sent_context: None,
            asked_about: None,
            wizard,
            teach: teach_panel::TeachPanel::default(),
            help: help::HelpPanel,
            top_bar: top_bar::TopBar,
            repaint_rate: repaint_rate::RepaintRate::default(),
            panel_fill_from_clear: false,
        };
        app.connect_referee(ctx);
        if app.demo.is_some() && app.table.game().is_none() && app.state.panel == PanelId::Setup {
            // A newcomer sees the demo play at once.
            app.state.panel = PanelId::Game;
        }
        app
    }

    /// Starts the referee for the running source: the demo's shipped calibration while the demo
    /// runs (and the Game screen follows the demo's game), else the profile in use, if any.
    fn connect_referee(&mut self, ctx: &egui::Context) {
        self.referee = None;
        self.referee_profile = None;
        self.snapshot = None;
        self.table.camera_sees(None);
        self.sent_context = None;
        self.demo = self.live.demo().cloned().map(DemoTable::new);
        // The players' own game in progress comes first; else the demo's.
        self.show_demo = self.demo.is_some() && self.table.game().is_none();
        let calibration = if self.demo.is_some() {
            self.status.calibration_label = Some("the demo's (shipped)".into());
            LiveCalibration::demo()
        } else {
            self.status.calibration_label = None;
            match &self.profile {
                Some(info) => LiveCalibration::load(&info.path),
                None => return,
            }
        };
        let calibration = match calibration {
            Ok(c) => c,
            Err(e) => {
                self.banners.push(Banner {
                    level: BannerLevel::Warning,
                    text: format!("No rulings from the camera: {e}"),
                });
                return;
            }
        };
        self.referee_profile = Some(calibration.profile.clone());
        match LiveReferee::start(
            calibration,
            crate::table::Catalog::default_catalog(),
            GameContext::default(),
            LiveConfig::default(),
            Box::new(live::repaint_hook_within(ctx, live::READING_REPAINT_WITHIN)),
        ) {
            Ok(worker) => {
                let worker = Arc::new(worker);
                self.live
                    .set_pipeline(Box::new(RefereePipeline::new(Arc::clone(&worker))));
                self.referee = Some(worker);
            }
            Err(e) => self.banners.push(Banner {
                level: BannerLevel::Error,
                text: format!("The referee could not start: {e}"),
            }),
        }
    }

    /// Uses a freshly saved profile: remembered for next time, given to the referee (the demo
    /// keeps its own calibration while it runs).
    fn use_profile(&mut self, ctx: &egui::Context, path: &Path) {
        match status::read_profile_info(path) {
            Ok(info) => {
                self.status.calibration_saved_at = Some(info.saved_at);
                self.profile = Some(info);
                self.state.last_profile = Some(path.to_path_buf());
            }
            Err(e) => {
                self.banners.push(Banner {
                    level: BannerLevel::Error,
                    text: format!("The new profile could not be read back: {e}"),
                });
                return;
            }
        }
        if self.demo.is_some() {
            self.banners.push(Banner {
                level: BannerLevel::Info,
                text:
                    "The profile is saved; it is used once a camera is the source (the demo keeps its own)."
                        .into(),
            });
            return;
        }
        match (&self.referee, LiveCalibration::load(path)) {
            (Some(r), Ok(cal)) => {
                self.referee_profile = Some(cal.profile.clone());
                r.replace_calibration(cal);
            }
            (None, Ok(_)) => self.connect_referee(ctx),
            (_, Err(e)) => self.banners.push(Banner {
                level: BannerLevel::Error,
                text: format!("The new profile cannot give rulings: {e}"),
            }),
        }
    }

    /// The game the Game screen shows: the demo's while it is chosen, else the players' own.
    fn shown_game(&self) -> Option<&Game> {
        match (&self.demo, self.show_demo) {
            (Some(d), true) => d.game(),
            _ => self.table.game(),
        }
    }

    /// The referee's newest snapshot, if a referee runs.
    pub fn referee_snapshot(&self) -> Option<&LiveSnapshot> {
        self.snapshot.as_deref()
    }

    /// The demo's game, while the demo runs.
    pub fn demo(&self) -> Option<&DemoTable> {
        self.demo.as_ref()
    }

    /// Questions from what the camera settled on, for the players' own game: a treasure seen
    /// on the active player's ship that the game does not have there ("confirm load"), and a
    /// closest treasure too close to call. Asked once per committed reading.
    fn ask_from_camera(&mut self) {
        if self.show_demo {
            return;
        }
        let Some(commit) = self.snapshot.as_ref().and_then(|s| s.committed.as_ref()) else {
            return;
        };
        if self.asked_about == Some(commit.seq) {
            return;
        }
        self.asked_about = Some(commit.seq);
        let Some(game) = self.table.game() else {
            return;
        };
        let Next::Turn { player } = game.next() else {
            return;
        };
        let Some(pr) = commit.frame.rulings.as_ref().and_then(|r| r.players.get(&player)) else {
            return;
        };
        let seen: Vec<TreasureType> = pr
            .loaded
            .iter()
            .copied()
            .filter(|&t| !game.ship(player).is_some_and(|s| s.holds(t)))
            .collect();
        let mut asks = Vec::new();
        if let [treasure] = seen[..] {
            asks.push(QuestionKind::LoadSeen { player, treasure });
        }
        if pr.too_close_to_call {
            let candidates = pr
                .closest_candidates
                .iter()
                .map(|id| {
                    let t = commit
                        .frame
                        .pieces
                        .iter()
                        .find(|p| &p.id == id)
                        .and_then(|p| p.treasure);
                    let gap = pr.gaps_mm.iter().find(|g| &g.id == id).map(|g| g.gap_mm);
                    match (t, gap) {
                        (Some(t), Some(g)) => format!("{t} {id}, {g:.0} mm"),
                        (Some(t), None) => format!("{t} {id}"),
                        (None, _) => id.clone(),
                    }
                })
                .collect();
            asks.push(QuestionKind::TooCloseToCall { player, candidates });
        }
        for kind in asks {
            if !self.table.questions().iter().any(|q| q.kind == kind) {
                self.table.ask(kind, Origin::Vision);
            }
        }
    }

    /// The Otto board.
    pub fn otto(&self) -> &otto_board::OttoBoard {
        &self.otto
    }

    /// The calibration wizard.
    pub fn wizard(&self) -> &calibration_wizard::CalibrationWizard {
        &self.wizard
    }

    /// The Octocube score sheet.
    pub fn octocube(&self) -> &octocube_sheet::OctocubeSheet {
        &self.octocube
    }

    /// Replaces the running source with `source` (tests run the scripted fake camera this way).
    pub fn use_source<S: FrameSource + Send + 'static>(
        &mut self,
        ctx: &egui::Context,
        description: &str,
        source: S,
        config: WorkerConfig,
    ) -> Result<(), CaptureError> {
        let live = LiveSource::start_source(ctx, description, source, config)?;
        self.live.shut_down();
        self.live = live;
        // As a source chosen in the Sources panel: the referee reads the new source's frames.
        self.connect_referee(ctx);
        Ok(())
    }

    /// For a window eframe clears to [`eframe::App::clear_color`] (the panel colour): the central
    /// panel then paints no background of its own. Under a software rasteriser (Mesa's llvmpipe)
    /// every shaded pixel costs, and that background was the largest shape of every frame — a
    /// whole window's worth of pixels drawn over the clear; the clear itself is a cheap fill.
    /// Measured in the README ("Responsiveness"). Not for the test harness, whose renderer
    /// clears to transparent.
    pub fn with_panel_fill_from_clear(mut self) -> Self {
        self.panel_fill_from_clear = true;
        self
    }

    /// The running source.
    pub fn live(&self) -> &LiveSource {
        &self.live
    }

    pub fn state(&self) -> &AppState {
        &self.state
    }

    pub fn config(&self) -> &ConfigDir {
        &self.config
    }

    /// The Crash Octopus game at the table.
    pub fn table(&self) -> &Table {
        &self.table
    }

    pub fn table_mut(&mut self) -> &mut Table {
        &mut self.table
    }

    pub fn banners(&self) -> &[Banner] {
        &self.banners
    }

    fn looks(&self) -> Looks {
        Looks {
            theme: self.state.theme,
            large_type: self.state.large_type,
        }
    }

    fn start_game(&mut self, record: crate::games::crash_octopus::Record) {
        let secs = SystemTime::now()
            .duration_since(SystemTime::UNIX_EPOCH)
            .map(|d| d.as_secs())
            .unwrap_or(0);
        let path = crash_octopus::session::new_log_path(&self.config.games_dir(), secs);
        match self.table.start(path.clone(), record) {
            Ok(()) => {
                self.state.last_game = Some(path);
                self.state.panel = PanelId::Game;
                self.show_demo = false;
            }
            Err(e) => self.banners.push(Banner {
                level: BannerLevel::Error,
                text: format!("The game could not be started: {e}"),
            }),
        }
    }

    fn global_commands(&mut self, commands: &[Command]) {
        for c in commands {
            match c {
                Command::Show(p) => self.state.panel = *p,
                Command::ToggleTheme => self.state.theme = self.state.theme.toggled(),
                Command::ToggleLargeType => self.state.large_type = !self.state.large_type,
                _ => {}
            }
        }
    }

    fn banners_ui(&mut self, ui: &mut egui::Ui) {
        if let Some(n) = self.live.notice() {
            let edge = if n.warning {
                style::WARNING_AMBER
            } else {
                style::OK_GREEN
            };
            egui::Frame::group(ui.style())
                .stroke(egui::Stroke::new(2.0, edge))
                .show(ui, |ui| {
                    ui.set_width(ui.available_width());
                    ui.label(egui::RichText::new(format!("Camera: {}", n.text)).strong());
                });
        }
        let mut dismissed = None;
        for (i, b) in self.banners.iter().enumerate() {
            let edge = match b.level {
                BannerLevel::Info => style::OK_GREEN,
                BannerLevel::Warning => style::WARNING_AMBER,
                BannerLevel::Error => style::REFUSAL_RED,
            };
            egui::Frame::group(ui.style())
                .stroke(egui::Stroke::new(2.0, edge))
                .show(ui, |ui| {
                    ui.set_width(ui.available_width());
                    ui.horizontal_wrapped(|ui| {
                        ui.label(&b.text);
                        if ui.button("Dismiss").clicked() {
                            dismissed = Some(i);
                        }
                    });
                });
        }
        if let Some(i) = dismissed {
            self.banners.remove(i);
        }
    }

    /// The Game screen: the demo's game or the players' own, with the table view.
    fn game_screen(&mut self, ui: &mut egui::Ui) {
        if self.demo.is_some() {
            ui.horizontal(|ui| {
                ui.selectable_value(&mut self.show_demo, true, "Demo game");
                ui.selectable_value(&mut self.show_demo, false, "Your game");
            });
        }
        let active = self.shown_game().and_then(|g| g.next().player());
        let no_picture = self.live.source_words();
        let view = at_the_table::TableView {
            texture: self.live.texture(),
            snapshot: self.snapshot.as_deref(),
            profile: self.referee_profile.as_ref(),
            palette: &self.palette,
            active,
            no_picture,
            frame_size: self.live.latest_frame().map(|f| (f.width(), f.height())),
        };
        let mut action = None;
        let mut at_table = |ui: &mut egui::Ui| {
            if let Some(a) = at_the_table::show(ui, &view) {
                action = Some(a);
            }
        };
        match (&self.demo, self.show_demo) {
            (Some(d), true) => crash_octopus::game_panel::demo_ui(ui, &self.palette, d, &mut at_table),
            _ => {
                if let Some(p) = self.table.ui(ui, &self.palette, &mut at_table) {
                    self.state.panel = p;
                }
            }
        }
        match action {
            Some(at_the_table::TableAction::Recalibrate) => self.state.panel = PanelId::Calibrate,
            Some(at_the_table::TableAction::Reregister) => {
                if let Some(r) = &self.referee {
                    r.reregister();
                }
            }
            None => {}
        }
    }

    fn status_ui(&self, ui: &mut egui::Ui) {
        ui.horizontal(|ui| {
            for part in self.status.parts(SystemTime::now()) {
                ui.label(egui::RichText::new(part).small());
                ui.separator();
            }
            if let Some(p) = &self.profile {
                ui.label(egui::RichText::new(format!("profile: {}", p.path.display())).small());
            }
        });
    }
}

impl eframe::App for OctorefApp {
    /// The panel colour, so a central panel without a background of its own
    /// ([`OctorefApp::with_panel_fill_from_clear`]) looks as one with it.
    fn clear_color(&self, visuals: &egui::Visuals) -> [f32; 4] {
        visuals.panel_fill.to_normalized_gamma_f32()
    }

    fn logic(&mut self, ctx: &egui::Context, _frame: &mut eframe::Frame) {
        self.table.flush();
        self.live.poll(ctx);
        self.sources.poll();
        self.wizard.poll();
        self.teach.poll();
        if let Some(d) = self.demo.as_mut() {
            d.follow(self.live.shown_seq());
        }
        if let Some(r) = &self.referee {
            self.snapshot = Some(r.snapshot());
            let wanted = self.shown_game().map(game_context);
            if let Some(c) = wanted
                && self.sent_context.as_ref() != Some(&c)
            {
                r.set_context(c.clone());
                self.sent_context = Some(c);
            }
        }
        self.ask_from_camera();
        // The die question is pre-filled from a real camera only (the demo shows another table).
        if self.demo.is_none() && self.referee.is_some() {
            self.table.camera_sees(self.snapshot.as_deref());
        }
        self.status.source = self.live.source_words();
        self.status.fps = self.live.fps();
        // egui's clock of this frame: the wall clock in the app, a fixed step under test.
        let now_s = ctx.input(|i| i.time);
        self.repaint_rate.frame_drawn(now_s);
        self.status.ui_fps = self.repaint_rate.per_second(now_s);
        self.status.analysis_ms = self.live.analysis_ms();
        if let Err(e) = self.octocube.persist(self.config.root()) {
            self.banners.push(Banner {
                level: BannerLevel::Error,
                text: format!("The Octocube sheet could not be saved: {e}"),
            });
        }
        if let Err(e) = self.otto.persist(self.config.root()) {
            self.banners.push(Banner {
                level: BannerLevel::Error,
                text: format!("The Otto game could not be saved: {e}"),
            });
        }
        let looks = self.looks();
        if self.applied_looks != Some(looks) {
            looks.apply(ctx);
            self.applied_looks = Some(looks);
        }
        if self.state != self.saved_state {
            match self.config.save_state(&self.state) {
                Ok(()) => self.saved_state = self.state.clone(),
                Err(e) => {
                    // Report once per change, not every frame.
                    self.saved_state = self.state.clone();
                    self.banners.push(Banner {
                        level: BannerLevel::Error,
                        text: format!("The settings could not be saved: {e}"),
                    });
                }
            }
        }
    }

    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        let commands = shortcuts::read(ui.ctx());
        self.global_commands(&commands);
        if self.state.panel == PanelId::Game
            && let Some(p) = self.table.perform(&commands)
        {
            self.state.panel = p;
        }
        egui::Panel::top("menu").show(ui, |ui| self.top_bar.ui(ui, &mut self.state));
        egui::Panel::bottom("status").show(ui, |ui| self.status_ui(ui));
        let mut central = egui::CentralPanel::default();
        if self.panel_fill_from_clear {
            central = central.frame(egui::Frame::central_panel(ui.style()).fill(egui::Color32::TRANSPARENT));
        }
        central.show(ui, |ui| {
            self.banners_ui(ui);
            match self.state.panel {
                PanelId::Setup => {
                    let profile_beads = self.profile.as_ref().and_then(|p| p.beads.as_ref());
                    let in_progress = self
                        .table
                        .session()
                        .filter(|s| !s.game().is_over())
                        .map(|s| s.path().to_path_buf());
                    if let Some(record) = self.setup.ui(
                        ui,
                        &self.palette,
                        &mut self.state.setup,
                        profile_beads,
                        in_progress.as_deref(),
                    ) {
                        self.start_game(record);
                    }
                }
                PanelId::Game => self.game_screen(ui),
                PanelId::Sources => {
                    if let Some(choice) = self.sources.ui(ui, &self.live) {
                        self.live.shut_down();
                        self.live = LiveSource::start_choice(ui.ctx(), choice);
                        let ctx = ui.ctx().clone();
                        self.connect_referee(&ctx);
                    }
                }
                PanelId::Octocube => self.octocube.ui(ui),
                PanelId::Otto => self.otto.ui(ui),
                PanelId::Help => self.help.ui(ui, &self.config),
                PanelId::Calibrate => {
                    if let Some(calibration_wizard::WizardOutcome::Saved(p)) =
                        self.wizard
                            .ui(ui, &self.palette, self.live.latest_frame(), self.live.texture())
                    {
                        let ctx = ui.ctx().clone();
                        self.use_profile(&ctx, &p);
                    }
                }
                PanelId::Teach => {
                    let profile = self.profile.as_ref().map(|p| p.path.clone());
                    if let Some(teach_panel::TeachOutcome::Saved(p)) =
                        self.teach.ui(ui, profile.as_deref(), self.live.latest_frame())
                    {
                        let ctx = ui.ctx().clone();
                        self.use_profile(&ctx, &p);
                    }
                }
            }
        });
        if self.table.needs_flush() || self.state != self.saved_state {
            // Let `logic` write it on the next frame.
            ui.ctx().request_repaint();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::calibrate::profile::CounterLayout;
    use crate::games::crash_octopus::BeadSequence;
    use crate::table::{CounterReport, PointMm};
    use egui_kittest::Harness;
    use egui_kittest::kittest::Queryable;

    /// The largest rectangle painted in the panel colour, as a share of the window's area.
    fn largest_panel_coloured_rect(h: &Harness<'_, OctorefApp>, window: egui::Vec2) -> f32 {
        let fill = h.ctx.global_style().visuals.panel_fill;
        h.output()
            .shapes
            .iter()
            .filter_map(|c| match &c.shape {
                egui::Shape::Rect(r) if r.fill == fill => Some(r.rect.area() / (window.x * window.y)),
                _ => None,
            })
            .fold(0.0, f32::max)
    }

    #[test]
    fn the_window_is_drawn_with_glow_unless_the_environment_asks_for_wgpu() {
        assert_eq!(renderer_from(None).unwrap(), eframe::Renderer::Glow);
        assert_eq!(renderer_from(Some("")).unwrap(), eframe::Renderer::Glow);
        assert_eq!(renderer_from(Some("glow")).unwrap(), eframe::Renderer::Glow);
        assert_eq!(renderer_from(Some(" WGPU ")).unwrap(), eframe::Renderer::Wgpu);
        let refused = renderer_from(Some("vulkan")).unwrap_err().to_string();
        assert!(
            refused.contains(RENDERER_ENV) && refused.contains("wgpu"),
            "{refused}"
        );
    }

    #[test]
    fn with_the_panel_fill_from_the_clear_no_window_sized_background_is_painted() {
        use eframe::App as _;
        let window = egui::vec2(1280.0, 800.0);
        let build = |from_clear: bool| {
            let dir = tempfile::tempdir().unwrap();
            let options = AppOptions {
                config_dir: dir.path().join("cfg"),
                args: AppArgs::default(),
                source: None,
                cameras: Some(Ok(Vec::new())),
            };
            let mut h = Harness::builder().with_size(window).build_eframe(move |cc| {
                let app = OctorefApp::new(&cc.egui_ctx, options);
                if from_clear {
                    app.with_panel_fill_from_clear()
                } else {
                    app
                }
            });
            h.run();
            (h, dir)
        };
        let (plain, _dir) = build(false);
        assert!(
            largest_panel_coloured_rect(&plain, window) > 0.5,
            "the central panel paints its background (the harness clears to transparent)"
        );
        let (h, _dir) = build(true);
        let visuals = h.ctx.global_style().visuals.clone();
        assert_eq!(
            h.state().clear_color(&visuals),
            visuals.panel_fill.to_normalized_gamma_f32(),
            "the window is cleared to the panel colour"
        );
        let share = largest_panel_coloured_rect(&h, window);
        assert!(
            share < 0.2,
            "a panel-coloured rectangle covers {share} of the window"
        );
    }

    #[test]
    fn the_beads_read_at_calibration_fill_the_set_up_and_its_age_shows() {
        let dir = tempfile::tempdir().unwrap();
        let profile_path = dir.path().join("table.json");
        let mut profile = crate::calibrate::profile::tests::sample_profile();
        let beads: BeadSequence = "BKBKBKBBKK".parse().unwrap();
        profile.counter = Some(CounterLayout {
            report: CounterReport::new(beads, 0),
            bead_arc_mm: (0..10).map(|i| f64::from(i) * 12.0).collect(),
            bead_positions_mm: vec![PointMm::new(0.0, 0.0); 10],
            crab_arc_mm: None,
            crab_mm: None,
            start_certain: true,
        });
        profile.save(&profile_path).unwrap();
        let options = AppOptions {
            config_dir: dir.path().join("cfg"),
            args: AppArgs {
                calibration: Some(profile_path.clone()),
                ..AppArgs::default()
            },
            source: None,
            cameras: None,
        };
        let mut h = Harness::builder()
            .with_size(egui::vec2(1280.0, 800.0))
            .build_eframe(move |cc| OctorefApp::new(&cc.egui_ctx, options));
        h.run();
        assert!(h.query_by_label("calibration: just now").is_some());
        h.get_by_label("Beads read at calibration").click();
        h.run();
        assert_eq!(h.state().state().setup.beads, "BKBKBKBBKK");
        assert!(h.query_by_label_contains("10 beads: 5 blue, 5 black.").is_some());
        assert_eq!(
            h.state().state().last_profile.as_deref(),
            Some(profile_path.as_path())
        );
    }
}
