//! The calibration wizard: print the board, capture it lying in the ocean (or click four corners
//! of a known rectangle when its markers cannot be found), capture the empty set-up table, check
//! the string, ocean and beads drawn over it, and save the profile.
//!
//! Everything is the calibration module's own pipeline (`calibrate::charuco`, `setup`,
//! `printable`), called, not copied. Detection and solving run on short-lived worker threads
//! ([`Job`]); `ui` only starts them and shows their results.
//!
//! Conventions: image points are raw camera pixels (origin top-left, x right, y down); the four
//! clicked corners go round the rectangle (top-left, top-right, bottom-right, bottom-left as the
//! rectangle lies on the table), the table frame's origin at the first one (`spec/table.md`).

use super::camera_view::{self, ImageOnScreen};
use super::style::{self, Palette};
use crate::calibrate::aruco::BoardDetection;
use crate::calibrate::board::BoardSpec;
use crate::calibrate::counter::DEFAULT_BEAD_COUNT;
use crate::calibrate::printable::PageLayout;
use crate::calibrate::profile::Profile;
use crate::calibrate::{aruco, charuco, homography, setup};
use crate::games::crash_octopus::BeadSequence;
use crate::table::{CounterReport, PointMm, PointPx};
use egui::{Color32, RichText, Stroke, Ui};
use opencv::core::{Mat, Vector};
use opencv::prelude::*;
use std::path::{Path, PathBuf};
use std::sync::mpsc::{Receiver, TryRecvError};

/// Largest height of a picture in the wizard, points.
const PICTURE_HEIGHT: f32 = 430.0;
/// How often the live marker overlay looks at the camera's newest frame, s.
const LIVE_DETECT_INTERVAL_S: f64 = 0.5;
/// Radius of a drawn corner, points.
const CORNER_R: f32 = 3.0;

/// A result computed on a worker thread.
#[derive(Debug)]
struct Job<T> {
    rx: Receiver<T>,
}

impl<T: Send + 'static> Job<T> {
    fn spawn(ctx: &egui::Context, work: impl FnOnce() -> T + Send + 'static) -> Option<Self> {
        let (tx, rx) = std::sync::mpsc::channel();
        let ctx = ctx.clone();
        std::thread::Builder::new()
            .name("octoref-calibrate".into())
            .spawn(move || {
                let _ = tx.send(work());
                ctx.request_repaint();
            })
            .ok()?;
        Some(Job { rx })
    }

    /// The result once it is there; `Some(Err)` if the worker died.
    fn poll(&mut self) -> Option<Result<T, String>> {
        match self.rx.try_recv() {
            Ok(v) => Some(Ok(v)),
            Err(TryRecvError::Empty) => None,
            Err(TryRecvError::Disconnected) => Some(Err("the worker stopped without an answer".into())),
        }
    }
}

/// The wizard's steps, in order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    PrintBoard,
    CaptureBoard,
    EmptyTable,
    Save,
}

/// A captured picture and its texture.
struct Picture {
    image: Mat,
    texture: egui::TextureHandle,
    label: String,
}

impl std::fmt::Debug for Picture {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Picture")
            .field("label", &self.label)
            .finish_non_exhaustive()
    }
}

/// What the empty-table capture gave.
#[derive(Debug)]
struct SetupDone {
    profile: Profile,
    reference_png: Vec<u8>,
    ocean_seen_share: f64,
    counter_problem: Option<String>,
}

/// The wizard's state.
pub struct CalibrationWizard {
    step: Step,
    spec: BoardSpec,
    board_texture: Option<egui::TextureHandle>,
    board_out: String,
    message: Option<(bool, String)>,
    board_file: String,
    board_picture: Option<Picture>,
    detection: Option<Result<BoardDetection, String>>,
    detect_job: Option<Job<(u64, Result<BoardDetection, String>)>>,
    /// The newest camera frame the live overlay looked at, and when.
    live_detected: Option<(u64, f64)>,
    solve_job: Option<Job<Result<Profile, String>>>,
    profile: Option<Profile>,
    four_points: Vec<PointPx>,
    rect_mm: [f64; 2],
    empty_file: String,
    empty_picture: Option<Picture>,
    setup_job: Option<Job<Result<SetupDone, String>>>,
    setup: Option<SetupDone>,
    beads_text: String,
    /// The bead sequence threaded in the box (`assets/crash_octopus.toml`): a reading that
    /// differs from it is pointed out before it is accepted.
    box_beads: Option<BeadSequence>,
    accepted: bool,
    save_path: String,
}

impl std::fmt::Debug for CalibrationWizard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CalibrationWizard")
            .field("step", &self.step)
            .field("board_picture", &self.board_picture)
            .field("profile", &self.profile.is_some())
            .field("setup", &self.setup.is_some())
            .finish_non_exhaustive()
    }
}

/// What the app should do after the wizard's frame.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WizardOutcome {
    /// A profile was saved here: use it.
    Saved(PathBuf),
}

impl CalibrationWizard {
    /// A wizard saving to `default_profile` unless the user chooses another path.
    pub fn new(default_profile: &Path) -> Self {
        let board_out = default_profile
            .parent()
            .map(|d| d.join("octoref-board.pdf"))
            .unwrap_or_else(|| PathBuf::from("octoref-board.pdf"));
        CalibrationWizard {
            step: Step::PrintBoard,
            spec: BoardSpec::default(),
            board_texture: None,
            board_out: board_out.display().to_string(),
            message: None,
            board_file: String::new(),
            board_picture: None,
            detection: None,
            detect_job: None,
            live_detected: None,
            solve_job: None,
            profile: None,
            four_points: Vec::new(),
            rect_mm: [0.0, 0.0],
            empty_file: String::new(),
            empty_picture: None,
            setup_job: None,
            setup: None,
            beads_text: String::new(),
            box_beads: super::config::default_beads().parse().ok(),
            accepted: false,
            save_path: default_profile.display().to_string(),
        }
    }

    pub fn step(&self) -> Step {
        self.step
    }

    /// Collects finished worker results (called every frame, before `ui`).
    pub fn poll(&mut self) {
        if let Some(job) = self.detect_job.as_mut()
            && let Some(r) = job.poll()
        {
            self.detect_job = None;
            self.detection = Some(r.and_then(|(_, d)| d));
        }
        if let Some(job) = self.solve_job.as_mut()
            && let Some(r) = job.poll()
        {
            self.solve_job = None;
            match r.and_then(|p| p) {
                Ok(p) => {
                    self.message = Some((
                        false,
                        format!(
                            "Solved: {:.2} px reprojection error, {:.2} mm per pixel at the centre.",
                            p.reprojection_px, p.mm_per_px
                        ),
                    ));
                    self.profile = Some(p);
                }
                Err(e) => self.message = Some((true, format!("The board could not be solved: {e}"))),
            }
        }
        if let Some(job) = self.setup_job.as_mut()
            && let Some(r) = job.poll()
        {
            self.setup_job = None;
            match r.and_then(|s| s) {
                Ok(s) => {
                    self.beads_text = s
                        .profile
                        .counter
                        .as_ref()
                        .map(|c| c.beads().to_string())
                        .unwrap_or_default();
                    self.accepted = false;
                    self.setup = Some(s);
                    self.message = None;
                }
                Err(e) => self.message = Some((true, format!("The empty table could not be read: {e}"))),
            }
        }
    }

    /// The profile solved from the board or the four corners, before the empty table is read.
    pub fn profile(&self) -> Option<&Profile> {
        self.profile.as_ref()
    }

    /// Draws the wizard. `camera` is the running source's newest frame (for captures and the live
    /// marker overlay) and `live_picture` its texture (the live view the markers are drawn over
    /// until a picture is captured).
    pub fn ui(
        &mut self,
        ui: &mut Ui,
        palette: &Palette,
        camera: Option<&crate::capture::Frame>,
        live_picture: Option<&egui::TextureHandle>,
    ) -> Option<WizardOutcome> {
        let mut outcome = None;
        ui.horizontal(|ui| {
            ui.heading("Calibrate the camera");
            ui.separator();
            for (s, name) in [
                (Step::PrintBoard, "1. Print the board"),
                (Step::CaptureBoard, "2. Capture the board"),
                (Step::EmptyTable, "3. The empty table"),
                (Step::Save, "4. Save"),
            ] {
                let reachable = match s {
                    Step::PrintBoard | Step::CaptureBoard => true,
                    Step::EmptyTable => self.profile.is_some(),
                    Step::Save => self.accepted,
                };
                if ui
                    .add_enabled(reachable, egui::Button::selectable(self.step == s, name))
                    .clicked()
                {
                    self.step = s;
                }
            }
        });
        ui.separator();
        if let Some((bad, m)) = &self.message {
            let edge = if *bad { style::REFUSAL_RED } else { style::OK_GREEN };
            egui::Frame::group(ui.style())
                .stroke(Stroke::new(2.0, edge))
                .show(ui, |ui| {
                    ui.set_width(ui.available_width());
                    ui.label(m);
                });
        }
        egui::ScrollArea::vertical()
            .auto_shrink([false, false])
            .show(ui, |ui| match self.step {
                Step::PrintBoard => self.print_ui(ui),
                Step::CaptureBoard => self.capture_ui(ui, camera, live_picture),
                Step::EmptyTable => self.empty_ui(ui, palette, camera),
                Step::Save => outcome = self.save_ui(ui),
            });
        outcome
    }

    fn print_ui(&mut self, ui: &mut Ui) {
        ui.label("octoref measures the table with a printed board of black squares and small square markers. Print it on A4 paper at 100 % (no \"fit to page\"), check with a ruler that a square is the size written on the page, and lay it flat in the middle of the ocean.");
        if self.board_texture.is_none() {
            match PageLayout::new(&self.spec).and_then(|l| l.render_png_image()) {
                Ok(img) => self.board_texture = to_texture(ui.ctx(), "board", &img),
                Err(e) => self.message = Some((true, format!("The board could not be drawn: {e}"))),
            }
        }
        if let Some(t) = &self.board_texture {
            camera_view::show(ui, t, 320.0);
        }
        ui.horizontal(|ui| {
            let l = ui.label("Save the board as:");
            ui.text_edit_singleline(&mut self.board_out).labelled_by(l.id);
        });
        ui.horizontal(|ui| {
            if ui.button("Save the board (PDF)").clicked() {
                self.save_board(true);
            }
            if ui.button("Save the board (PNG)").clicked() {
                self.save_board(false);
            }
            if ui.button("Next: capture the board").clicked() {
                self.step = Step::CaptureBoard;
            }
        });
    }

    fn save_board(&mut self, pdf: bool) {
        let mut path = PathBuf::from(self.board_out.trim());
        path.set_extension(if pdf { "pdf" } else { "png" });
        let bytes = PageLayout::new(&self.spec)
            .map_err(|e| e.to_string())
            .and_then(|l| {
                if pdf {
                    Ok(l.pdf_bytes())
                } else {
                    l.png_bytes().map_err(|e| e.to_string())
                }
            });
        self.message = Some(
            match bytes.and_then(|b| crate::fsutil::write_atomic(&path, &b).map_err(|e| e.to_string())) {
                Ok(()) => (
                    false,
                    format!("The board was saved to {}: print it at 100 %.", path.display()),
                ),
                Err(e) => (true, format!("The board could not be saved: {e}")),
            },
        );
    }

    fn capture_ui(
        &mut self,
        ui: &mut Ui,
        camera: Option<&crate::capture::Frame>,
        live_picture: Option<&egui::TextureHandle>,
    ) {
        ui.label("Lay the board flat in the middle of the ocean, with the whole board in view, then capture it. Or load a picture taken earlier.");
        ui.horizontal(|ui| {
            if ui
                .add_enabled(
                    camera.is_some(),
                    egui::Button::new("Capture the board from the camera"),
                )
                .clicked()
                && let Some(f) = camera
            {
                self.set_board_picture(ui.ctx(), &f.image, format!("camera frame {}", f.seq));
            }
        });
        ui.horizontal(|ui| {
            let l = ui.label("Board picture file:");
            ui.text_edit_singleline(&mut self.board_file).labelled_by(l.id);
            if ui.button("Load the board picture").clicked() {
                let path = PathBuf::from(self.board_file.trim());
                match crate::capture::still::load_image(&path) {
                    Ok(img) => self.set_board_picture(ui.ctx(), &img, path.display().to_string()),
                    Err(e) => self.message = Some((true, e.to_string())),
                }
            }
        });
        // The live overlay: markers found on the camera's newest frame, twice a second.
        if self.board_picture.is_none()
            && let Some(f) = camera
        {
            let now = ui.input(|i| i.time);
            let due = self
                .live_detected
                .is_none_or(|(seq, at)| seq != f.seq && now - at >= LIVE_DETECT_INTERVAL_S);
            if due && self.detect_job.is_none() {
                self.live_detected = Some((f.seq, now));
                self.start_detection(ui.ctx(), &f.image, f.seq);
            }
        }
        let on = self.board_picture.as_ref().map(|p| {
            ui.label(format!("Captured: {}", p.label));
            camera_view::show_as(ui, &p.texture, PICTURE_HEIGHT, picture_size(&p.image))
        });
        // Until a picture is captured, the camera's live view, so the markers found can be seen
        // over the board as it lies now (and the board moved until they all show).
        let live_on = match (on, camera, live_picture) {
            (None, Some(f), Some(t)) => {
                ui.label(format!("Live view: camera frame {}", f.seq));
                Some(camera_view::show_as(
                    ui,
                    t,
                    PICTURE_HEIGHT,
                    picture_size(&f.image),
                ))
            }
            _ => None,
        };
        if let Some(on) = on.or(live_on)
            && let Some(Ok(d)) = &self.detection
        {
            draw_detection(ui, &on, d);
        }
        if let Some(on) = on {
            for (i, p) in self.four_points.iter().enumerate() {
                let c = on.to_screen(p.x, p.y);
                ui.painter().circle_filled(c, 5.0, style::WARNING_AMBER);
                ui.painter().text(
                    c + egui::vec2(8.0, -8.0),
                    egui::Align2::LEFT_BOTTOM,
                    (i + 1).to_string(),
                    egui::FontId::proportional(14.0),
                    Color32::WHITE,
                );
            }
        }
        match &self.detection {
            Some(Ok(d)) => {
                ui.label(
                    RichText::new(format!(
                        "Markers found: {} markers, {} of {} board corners ({}).",
                        d.markers_seen,
                        d.corners.len(),
                        self.spec.corner_count(),
                        coverage_words(
                            d,
                            self.board_picture
                                .as_ref()
                                .map(|p| (p.image.cols(), p.image.rows()))
                        )
                    ))
                    .strong(),
                );
            }
            Some(Err(e)) => {
                ui.label(RichText::new(format!("No board found: {e}")).color(style::REFUSAL_RED));
            }
            None if self.detect_job.is_some() => {
                ui.label("Looking for the markers…");
            }
            None => {}
        }
        let Some(pic) = self.board_picture.as_ref() else {
            return;
        };
        ui.horizontal(|ui| {
            let can_solve =
                matches!(&self.detection, Some(Ok(d)) if !d.corners.is_empty()) && self.solve_job.is_none();
            if ui.add_enabled(can_solve, egui::Button::new("Solve")).clicked() {
                let image = pic.image.try_clone().unwrap_or_default();
                let spec = self.spec.clone();
                self.solve_job = Job::spawn(ui.ctx(), move || {
                    charuco::calibrate(&spec, &image, &[])
                        .map(|cal| setup::profile_from_board(&cal, &spec))
                        .map_err(|e| e.to_string())
                });
            }
            if self.solve_job.is_some() {
                ui.spinner();
                ui.label("Solving…");
            }
            if ui
                .add_enabled(self.profile.is_some(), egui::Button::new("Next: the empty table"))
                .clicked()
            {
                self.step = Step::EmptyTable;
            }
        });
        self.four_points_ui(ui, on_image_clicks(ui, on));
    }

    /// The fallback when the markers cannot be found: four clicks on a known rectangle.
    fn four_points_ui(&mut self, ui: &mut Ui, clicked: Option<PointPx>) {
        ui.add_space(6.0);
        ui.collapsing("No markers found? Click the four corners of a rectangle you know", |ui| {
            ui.label("Click the corners of a rectangle lying flat on the table (the board's outline, a sheet of A4 paper: 210 x 297 mm) in turn: top-left, top-right, bottom-right, bottom-left.");
            if let Some(p) = clicked
                && self.four_points.len() < 4
            {
                self.four_points.push(p);
            }
            ui.horizontal(|ui| {
                let l = ui.label("Width, mm:");
                ui.add(egui::DragValue::new(&mut self.rect_mm[0]).range(0.0..=5000.0))
                    .labelled_by(l.id);
                let l = ui.label("Height, mm:");
                ui.add(egui::DragValue::new(&mut self.rect_mm[1]).range(0.0..=5000.0))
                    .labelled_by(l.id);
                ui.label(format!("{} of 4 corners clicked", self.four_points.len()));
                if ui.button("Clear the corners").clicked() {
                    self.four_points.clear();
                }
                let ready = self.four_points.len() == 4 && self.rect_mm[0] > 0.0 && self.rect_mm[1] > 0.0;
                if ui.add_enabled(ready, egui::Button::new("Use the four corners")).clicked() {
                    self.solve_four_points();
                }
            });
        });
    }

    fn solve_four_points(&mut self) {
        let Some(pic) = &self.board_picture else {
            return;
        };
        let [w, h] = self.rect_mm;
        let table = [
            PointMm::new(0.0, 0.0),
            PointMm::new(w, 0.0),
            PointMm::new(w, h),
            PointMm::new(0.0, h),
        ];
        let pts = [
            self.four_points[0],
            self.four_points[1],
            self.four_points[2],
            self.four_points[3],
        ];
        match homography::fit(&table, &pts) {
            Ok(fit) => {
                let p = setup::profile_from_four_points(
                    &fit,
                    pts,
                    self.rect_mm,
                    pic.image.cols() as u32,
                    pic.image.rows() as u32,
                );
                self.message = Some((
                    false,
                    format!(
                        "Four corners used: {:.2} mm per pixel at the centre.",
                        p.mm_per_px
                    ),
                ));
                self.profile = Some(p);
            }
            Err(e) => {
                self.message = Some((
                    true,
                    format!("The four corners do not give a view of the table: {e}"),
                ))
            }
        }
    }

    fn set_board_picture(&mut self, ctx: &egui::Context, image: &Mat, label: String) {
        let Some(texture) = to_texture(ctx, "board_capture", image) else {
            self.message = Some((true, "The picture is not a colour image.".into()));
            return;
        };
        let Ok(copy) = image.try_clone() else {
            return;
        };
        self.board_picture = Some(Picture {
            image: copy,
            texture,
            label,
        });
        // A refusal of an earlier picture no longer applies.
        self.message = None;
        self.detection = None;
        self.four_points.clear();
        self.profile = None;
        self.detect_job = None;
        self.start_detection(ctx, image, 0);
    }

    fn start_detection(&mut self, ctx: &egui::Context, image: &Mat, seq: u64) {
        let Ok(image) = image.try_clone() else {
            return;
        };
        let spec = self.spec.clone();
        self.detect_job = Job::spawn(ctx, move || {
            (seq, aruco::detect(&spec, &image).map_err(|e| e.to_string()))
        });
    }

    fn empty_ui(&mut self, ui: &mut Ui, palette: &Palette, camera: Option<&crate::capture::Frame>) {
        ui.label("Take the board away. Lay the string as the ocean with its beads and the crab before the first bead, no other pieces, then capture the empty table.");
        let mut chosen: Option<(Mat, String)> = None;
        ui.horizontal(|ui| {
            if ui
                .add_enabled(
                    camera.is_some(),
                    egui::Button::new("Capture the empty table from the camera"),
                )
                .clicked()
                && let Some(f) = camera
                && let Ok(m) = f.image.try_clone()
            {
                chosen = Some((m, format!("camera frame {}", f.seq)));
            }
        });
        ui.horizontal(|ui| {
            let l = ui.label("Empty table picture file:");
            ui.text_edit_singleline(&mut self.empty_file).labelled_by(l.id);
            if ui.button("Load the empty table picture").clicked() {
                let path = PathBuf::from(self.empty_file.trim());
                match crate::capture::still::load_image(&path) {
                    Ok(img) => chosen = Some((img, path.display().to_string())),
                    Err(e) => self.message = Some((true, e.to_string())),
                }
            }
        });
        if let Some((img, label)) = chosen
            && let Some(profile) = self.profile.clone()
            && let Some(texture) = to_texture(ui.ctx(), "empty_capture", &img)
        {
            let work = img.try_clone().unwrap_or_default();
            self.empty_picture = Some(Picture {
                image: img,
                texture,
                label,
            });
            self.setup = None;
            self.setup_job = Job::spawn(ui.ctx(), move || read_setup(profile, &work));
        }
        if self.setup_job.is_some() {
            ui.horizontal(|ui| {
                ui.spinner();
                ui.label("Finding the string, the ocean and the beads…");
            });
        }
        let Some(pic) = &self.empty_picture else {
            return;
        };
        let on = camera_view::show_as(ui, &pic.texture, PICTURE_HEIGHT, picture_size(&pic.image));
        let Some(s) = &self.setup else {
            return;
        };
        draw_setup(ui, &on, &s.profile, palette);
        let Some(ocean) = &s.profile.ocean else {
            return;
        };
        ui.label(
            RichText::new(format!(
                "Ocean found: {:.0} mm around, {:.0} cm², the string seen along {:.0} % of it.",
                ocean.perimeter_mm,
                ocean.polygon_mm.area() / 100.0,
                s.ocean_seen_share * 100.0
            ))
            .strong(),
        );
        if let Some(p) = &s.counter_problem {
            ui.label(
                RichText::new(format!("The beads could not be read: {p}. Type them below."))
                    .color(style::WARNING_AMBER),
            );
        }
        ui.horizontal(|ui| {
            let l = ui.label("Beads from the start (B blue, K black):");
            ui.text_edit_singleline(&mut self.beads_text).labelled_by(l.id);
        });
        let beads = self.beads_text.trim().parse::<BeadSequence>();
        match &beads {
            Ok(b) => {
                super::crash_octopus::counter_strip::show(ui, palette, b, 0);
                // Every "next bead" of the game follows from this: a black bead read as a
                // blue one (a dark table, a lit bead) is worth a look before it is accepted.
                if let Some(boxed) = self.box_beads.as_ref().filter(|boxed| *boxed != b) {
                    ui.label(
                        RichText::new(format!(
                            "Not the box's order ({boxed}): check each bead against the string, and correct it above if the camera misread one."
                        ))
                        .color(style::WARNING_AMBER),
                    );
                }
            }
            Err(e) => {
                ui.label(RichText::new(e.to_string()).color(style::REFUSAL_RED));
            }
        }
        if ui
            .add_enabled(beads.is_ok(), egui::Button::new("Accept the ocean and beads"))
            .clicked()
            && let Ok(b) = beads
        {
            self.accept_beads(b);
        }
    }

    fn accept_beads(&mut self, beads: BeadSequence) {
        let Some(s) = self.setup.as_mut() else {
            return;
        };
        match s.profile.counter.as_mut() {
            Some(c) => {
                if c.report.beads != beads {
                    // Typed by the players: their order is the truth.
                    c.start_certain = true;
                }
                c.report = CounterReport::new(beads, c.report.crab);
            }
            None => {
                self.message = Some((
                    false,
                    format!(
                        "Beads {beads} kept for the set-up; the string's beads were not located, so the counter is not read from the picture."
                    ),
                ));
            }
        }
        self.accepted = true;
        self.step = Step::Save;
    }

    fn save_ui(&mut self, ui: &mut Ui) -> Option<WizardOutcome> {
        let mut outcome = None;
        ui.label("Save the calibration profile; octoref uses it at once and remembers it for next time.");
        ui.horizontal(|ui| {
            let l = ui.label("Profile file:");
            ui.text_edit_singleline(&mut self.save_path).labelled_by(l.id);
        });
        if ui.button("Save the profile").clicked() {
            match self.save() {
                Ok(path) => {
                    self.message = Some((
                        false,
                        format!("The profile was saved to {} and is in use.", path.display()),
                    ));
                    outcome = Some(WizardOutcome::Saved(path));
                }
                Err(e) => self.message = Some((true, format!("The profile could not be saved: {e}"))),
            }
        }
        outcome
    }

    /// Writes the reference image, then the profile (both atomically), next to each other.
    fn save(&mut self) -> Result<PathBuf, String> {
        let s = self.setup.as_mut().ok_or("no empty table was read")?;
        let path = PathBuf::from(self.save_path.trim());
        if path.as_os_str().is_empty() {
            return Err("choose a file name".into());
        }
        let stem = path
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_else(|| "table".into());
        let reference_file = format!("{stem}_reference.png");
        if let Some(r) = s.profile.reference.as_mut() {
            r.file = reference_file.clone();
        }
        let dir = path.parent().map(Path::to_path_buf).unwrap_or_default();
        // The default place (`calibration/` in the config directory) does not exist at first.
        if !dir.as_os_str().is_empty() {
            std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        }
        crate::fsutil::write_atomic(&dir.join(&reference_file), &s.reference_png)
            .map_err(|e| e.to_string())?;
        s.profile.save(&path).map_err(|e| e.to_string())?;
        Ok(path)
    }
}

/// Finds the ocean and beads and rectifies the empty table (on a worker).
fn read_setup(mut profile: Profile, empty: &Mat) -> Result<SetupDone, String> {
    let reading = setup::add_setup(&mut profile, empty, DEFAULT_BEAD_COUNT, "reference.png")
        .map_err(|e| e.to_string())?;
    let mut buf = Vector::<u8>::new();
    opencv::imgcodecs::imencode(".png", &reading.reference.image, &mut buf, &Vector::new())
        .map_err(|e| e.to_string())?;
    Ok(SetupDone {
        profile,
        reference_png: buf.to_vec(),
        ocean_seen_share: reading.ocean.seen_fraction,
        counter_problem: reading.counter.err().map(|e| e.to_string()),
    })
}

/// Where the user clicked on the picture, in image pixels.
fn on_image_clicks(ui: &Ui, on: Option<ImageOnScreen>) -> Option<PointPx> {
    let on = on?;
    let pos = ui.input(|i| {
        if i.pointer.primary_clicked() {
            i.pointer.interact_pos()
        } else {
            None
        }
    })?;
    if !on.rect.contains(pos) {
        return None;
    }
    let x = f64::from((pos.x - on.rect.left()) / on.rect.width() * on.image_px.x);
    let y = f64::from((pos.y - on.rect.top()) / on.rect.height() * on.image_px.y);
    Some(PointPx::new(x, y))
}

/// "covers 35 % of the picture": the share of the picture inside the found corners' bounds.
fn coverage_words(d: &BoardDetection, size: Option<(i32, i32)>) -> String {
    let (Some((w, h)), false) = (size, d.corners.is_empty()) else {
        return "no coverage yet".into();
    };
    let xs = d.corners.iter().map(|(_, p)| p.x);
    let ys = d.corners.iter().map(|(_, p)| p.y);
    let (x0, x1) = xs.fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), x| {
        (a.min(x), b.max(x))
    });
    let (y0, y1) = ys.fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), y| {
        (a.min(y), b.max(y))
    });
    let share = (x1 - x0) * (y1 - y0) / (f64::from(w) * f64::from(h)).max(1.0);
    format!("they cover {:.0} % of the picture", share * 100.0)
}

fn draw_detection(ui: &Ui, on: &ImageOnScreen, d: &BoardDetection) {
    let painter = ui.painter_at(on.rect);
    for (_, quad) in &d.markers {
        let pts: Vec<egui::Pos2> = quad.iter().map(|p| on.to_screen(p.x, p.y)).collect();
        painter.add(egui::Shape::closed_line(
            pts,
            Stroke::new(2.0, Color32::from_rgb(0x1E, 0x88, 0xE5)),
        ));
    }
    for (_, p) in &d.corners {
        painter.circle_filled(on.to_screen(p.x, p.y), CORNER_R, style::OK_GREEN);
    }
}

/// The string's centre line (the ocean) and the beads read, over the empty table.
fn draw_setup(ui: &Ui, on: &ImageOnScreen, profile: &Profile, palette: &Palette) {
    let painter = ui.painter_at(on.rect);
    let to = |p: PointMm| {
        profile
            .mm_to_px(p)
            .filter(|q| q.is_finite())
            .map(|q| on.to_screen(q.x, q.y))
    };
    if let Some(o) = &profile.ocean {
        let pts: Vec<egui::Pos2> = o.polygon_mm.points().iter().filter_map(|&p| to(p)).collect();
        if pts.len() >= 3 {
            painter.add(egui::Shape::closed_line(
                pts,
                Stroke::new(2.5, Color32::from_rgb(0x1E, 0x88, 0xE5)),
            ));
        }
    }
    if let Some(c) = &profile.counter {
        for (i, &p) in c.bead_positions_mm.iter().enumerate() {
            if let (Some(s), Some(b)) = (to(p), c.beads().get(i)) {
                painter.circle(s, 6.0, palette.bead(b), Stroke::new(2.0, Color32::WHITE));
                if i == 0 {
                    painter.text(
                        s + egui::vec2(8.0, -8.0),
                        egui::Align2::LEFT_BOTTOM,
                        "start",
                        egui::FontId::proportional(13.0),
                        Color32::WHITE,
                    );
                }
            }
        }
    }
}

fn picture_size(image: &Mat) -> egui::Vec2 {
    egui::vec2(image.cols() as f32, image.rows() as f32)
}

/// A BGR picture as a texture; `None` for anything else.
fn to_texture(ctx: &egui::Context, name: &str, image: &Mat) -> Option<egui::TextureHandle> {
    let small = camera_view::shrink_for_texture(image);
    let image = small.as_ref().unwrap_or(image);
    let (w, h) = (image.cols().max(0) as usize, image.rows().max(0) as usize);
    let bytes = image.data_bytes().ok()?;
    let channels = bytes.len().checked_div(w * h)?;
    if w == 0 || h == 0 || bytes.len() != w * h * channels || !(channels == 3 || channels == 1) {
        return None;
    }
    let mut rgba = Vec::with_capacity(w * h * 4);
    if channels == 3 {
        for px in bytes.chunks_exact(3) {
            rgba.extend_from_slice(&[px[2], px[1], px[0], 255]);
        }
    } else {
        for &g in bytes {
            rgba.extend_from_slice(&[g, g, g, 255]);
        }
    }
    let img = egui::ColorImage::from_rgba_unmultiplied([w, h], &rgba);
    Some(ctx.load_texture(name, img, egui::TextureOptions::LINEAR))
}
