//! Teach your pieces: for each piece kind, the user shows the piece alone in the middle of the
//! ocean, octoref learns its colours and size ([`crate::vision::teach`], on a worker), shows what
//! it learnt next to the catalog's, and stores it in the calibration profile, which the referee
//! then uses.

use crate::calibrate::profile::Profile;
use crate::live::LiveCalibration;
use crate::table::{Catalog, PieceKind};
use crate::vision::teach::{self, Lesson, Pick};
use egui::{Color32, RichText, Ui};
use opencv::core::Mat;
use opencv::prelude::*;
use std::path::{Path, PathBuf};
use std::sync::mpsc::{Receiver, TryRecvError};

/// Frames kept for one lesson (more frames: steadier colours).
const MAX_FRAMES: usize = 5;
/// Side of a colour swatch, points.
const SWATCH: f32 = 22.0;

/// What the app should do after the panel's frame.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TeachOutcome {
    /// The profile at this path now holds a taught piece: use it again.
    Saved(PathBuf),
}

/// The panel's state.
pub struct TeachPanel {
    catalog: Catalog,
    piece: Option<String>,
    frames: Vec<Mat>,
    file: String,
    job: Option<Receiver<Result<Lesson, String>>>,
    lesson: Option<Lesson>,
    message: Option<(bool, String)>,
}

impl std::fmt::Debug for TeachPanel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TeachPanel")
            .field("piece", &self.piece)
            .field("frames", &self.frames.len())
            .field("lesson", &self.lesson.as_ref().map(|l| &l.piece))
            .finish_non_exhaustive()
    }
}

impl Default for TeachPanel {
    fn default() -> Self {
        TeachPanel {
            catalog: Catalog::default_catalog(),
            piece: None,
            frames: Vec::new(),
            file: String::new(),
            job: None,
            lesson: None,
            message: None,
        }
    }
}

impl TeachPanel {
    /// Collects a finished lesson (called every frame, before `ui`).
    pub fn poll(&mut self) {
        let Some(rx) = &self.job else {
            return;
        };
        let result = match rx.try_recv() {
            Ok(r) => r,
            Err(TryRecvError::Empty) => return,
            Err(TryRecvError::Disconnected) => Err("the worker stopped without an answer".into()),
        };
        self.job = None;
        match result {
            Ok(l) => {
                self.message = None;
                self.lesson = Some(l);
            }
            Err(e) => self.message = Some((true, format!("Nothing was learnt: {e}"))),
        }
    }

    /// Draws the panel. `profile` is the calibration in use (taught pieces are stored in it);
    /// `camera` the newest frame.
    pub fn ui(
        &mut self,
        ui: &mut Ui,
        profile: Option<&Path>,
        camera: Option<&crate::capture::Frame>,
    ) -> Option<TeachOutcome> {
        ui.heading("Teach octoref your pieces");
        ui.label("Sets differ a little in colour and size from the catalog. Show octoref each piece alone in the middle of the ocean and it learns how yours look.");
        let Some(profile) = profile else {
            ui.label(
                RichText::new("Calibrate first: what is learnt is stored in the calibration profile.")
                    .strong(),
            );
            return None;
        };
        let taught = Profile::load(profile).map(|p| p.taught).unwrap_or_default();
        if self.piece.is_none() {
            // Walk through the pieces from the first one not taught yet.
            self.piece = self
                .catalog
                .pieces
                .iter()
                .find(|e| e.piece != PieceKind::Bead && !taught.contains_key(&e.name))
                .map(|e| e.name.clone());
        }
        let mut outcome = None;
        egui::Panel::left("teach_pieces")
            .resizable(false)
            .default_size(230.0)
            .show(ui, |ui| {
                ui.label(RichText::new("Pieces").strong());
                egui::ScrollArea::vertical().show(ui, |ui| {
                    for e in self.catalog.pieces.iter().filter(|e| e.piece != PieceKind::Bead) {
                        let mark = if taught.contains_key(&e.name) {
                            "  (taught)"
                        } else {
                            ""
                        };
                        let chosen = self.piece.as_deref() == Some(e.name.as_str());
                        if ui.selectable_label(chosen, format!("{}{mark}", e.name)).clicked() && !chosen {
                            self.piece = Some(e.name.clone());
                            self.frames.clear();
                            self.lesson = None;
                            self.message = None;
                        }
                    }
                });
            });
        egui::ScrollArea::vertical()
            .auto_shrink([false, false])
            .show(ui, |ui| {
                let Some(piece) = self.piece.clone() else {
                    ui.label("Every piece is taught. Choose one on the left to teach it again.");
                    return;
                };
                ui.heading(format!("Teach the {piece}"));
                ui.label(format!(
                    "Put the {piece} alone in the middle of the ocean (the crab may stay on the counter), take your hands away, then capture it. Capture it again somewhere else for steadier colours (up to {MAX_FRAMES} pictures)."
                ));
                ui.horizontal(|ui| {
                    if ui
                        .add_enabled(camera.is_some() && self.frames.len() < MAX_FRAMES, egui::Button::new("Capture from the camera"))
                        .clicked()
                        && let Some(f) = camera
                        && let Ok(m) = f.image.try_clone()
                    {
                        self.frames.push(m);
                    }
                });
                ui.horizontal(|ui| {
                    let l = ui.label("Picture file:");
                    ui.text_edit_singleline(&mut self.file).labelled_by(l.id);
                    if ui.button("Load the picture").clicked() {
                        match crate::capture::still::load_image(Path::new(self.file.trim())) {
                            Ok(m) if self.frames.len() < MAX_FRAMES => self.frames.push(m),
                            Ok(_) => self.message = Some((true, format!("At most {MAX_FRAMES} pictures."))),
                            Err(e) => self.message = Some((true, e.to_string())),
                        }
                    }
                });
                ui.label(format!("{} picture(s) captured.", self.frames.len()));
                ui.horizontal(|ui| {
                    let can = !self.frames.is_empty() && self.job.is_none();
                    if ui.add_enabled(can, egui::Button::new("Learn")).clicked() {
                        self.start(ui.ctx(), profile, &piece);
                    }
                    if self.job.is_some() {
                        ui.spinner();
                        ui.label("Learning…");
                    }
                    if ui.button("Start again").clicked() {
                        self.frames.clear();
                        self.lesson = None;
                    }
                });
                if let Some((bad, m)) = &self.message {
                    let c = if *bad { super::style::REFUSAL_RED } else { super::style::OK_GREEN };
                    ui.label(RichText::new(m).color(c));
                }
                if let Some(l) = &self.lesson {
                    lesson_ui(ui, l);
                    if ui.button("Save into the profile").clicked() {
                        match store(l, profile) {
                            Ok(()) => {
                                self.message = Some((false, format!("The {} was saved into {}.", l.piece, profile.display())));
                                outcome = Some(TeachOutcome::Saved(profile.to_path_buf()));
                            }
                            Err(e) => self.message = Some((true, format!("Not saved: {e}"))),
                        }
                    }
                }
            });
        outcome
    }

    fn start(&mut self, ctx: &egui::Context, profile: &Path, piece: &str) {
        let frames: Vec<Mat> = self.frames.iter().filter_map(|m| m.try_clone().ok()).collect();
        let (tx, rx) = std::sync::mpsc::channel();
        let (path, piece, catalog, ctx) = (
            profile.to_path_buf(),
            piece.to_string(),
            self.catalog.clone(),
            ctx.clone(),
        );
        let spawned = std::thread::Builder::new()
            .name("octoref-teach".into())
            .spawn(move || {
                let r = LiveCalibration::load(&path)
                    .map_err(|e| e.to_string())
                    .and_then(|cal| {
                        teach::teach(
                            &cal.profile,
                            &cal.reference,
                            &catalog,
                            &piece,
                            &frames,
                            Pick::Alone,
                        )
                        .map_err(|e| e.to_string())
                    });
                let _ = tx.send(r);
                ctx.request_repaint();
            });
        match spawned {
            Ok(_) => {
                self.job = Some(rx);
                self.lesson = None;
            }
            Err(e) => self.message = Some((true, format!("Could not start learning: {e}"))),
        }
    }
}

/// Stores the lesson into the profile file (atomically; other taught pieces stay).
fn store(lesson: &Lesson, path: &Path) -> Result<(), String> {
    let mut p = Profile::load(path).map_err(|e| e.to_string())?;
    lesson.store(&mut p).map_err(|e| e.to_string())?;
    p.save(path).map_err(|e| e.to_string())
}

/// What was learnt: each colour beside the catalog's, the size against the catalog's.
fn lesson_ui(ui: &mut Ui, l: &Lesson) {
    ui.separator();
    ui.label(RichText::new(format!("Learnt: the {}", l.piece)).strong());
    for c in &l.colours {
        ui.horizontal(|ui| {
            ui.label("yours");
            swatch(ui, &c.mean_hex);
            ui.label(&c.mean_hex);
            if let Some(k) = &c.catalog_hex {
                ui.label("catalog");
                swatch(ui, k);
                ui.label(k);
            }
            ui.label(format!("({} pixels)", c.pixels));
        });
    }
    ui.label(format!(
        "Size: {:.0} % of the catalog's (catalog footprint {:.0} mm²){}, from {} picture(s).",
        l.measured_scale * 100.0,
        l.catalog_area_mm2,
        if (l.taught.scale - 1.0).abs() < f64::EPSILON {
            ", kept as the catalog's"
        } else {
            ""
        },
        l.frames.len()
    ));
}

fn swatch(ui: &mut Ui, hex: &str) {
    let colour = parse_hex(hex).unwrap_or(Color32::GRAY);
    let (rect, _) = ui.allocate_exact_size(egui::vec2(SWATCH, SWATCH), egui::Sense::hover());
    ui.painter().rect_filled(rect, 3.0, colour);
}

/// "#C9962B" -> the colour.
fn parse_hex(hex: &str) -> Option<Color32> {
    let h = hex.strip_prefix('#')?;
    if h.len() != 6 {
        return None;
    }
    let v = u32::from_str_radix(h, 16).ok()?;
    Some(Color32::from_rgb((v >> 16) as u8, (v >> 8) as u8, v as u8))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hex_colours_read_as_rgb() {
        assert_eq!(parse_hex("#C9962B"), Some(Color32::from_rgb(0xC9, 0x96, 0x2B)));
        assert_eq!(parse_hex("C9962B"), None);
        assert_eq!(parse_hex("#C996"), None);
    }
}
