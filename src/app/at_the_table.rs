//! "At the table": the camera picture with the referee's overlays, the settled rulings in plain
//! words beside it, and the referee's notices (waiting for the table to settle, the view moved, a
//! hand over the ocean) with what to do about them.

use super::camera_view;
use super::overlays;
use super::referee_link::needs_calibration;
use super::style::{self, Palette};
use crate::calibrate::profile::Profile;
use crate::games::crash_octopus::PlayerColor;
use crate::live::{LiveFault, LiveSnapshot};
use egui::{RichText, Ui};

/// Largest height of the camera picture, points.
const CAMERA_VIEW_HEIGHT: f32 = 460.0;
/// Share of the width the picture takes when the rulings sit beside it.
const PICTURE_SHARE: f32 = 0.62;
/// Narrowest room for the rulings beside the picture, points; narrower: below it.
const MIN_RULINGS_WIDTH: f32 = 260.0;

/// What the user asked for from the table view.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TableAction {
    /// Open the calibration wizard.
    Recalibrate,
    /// Re-fit the calibration to the current view, keeping the game.
    Reregister,
}

/// What the view shows.
pub struct TableView<'a> {
    pub texture: Option<&'a egui::TextureHandle>,
    /// `None`: no referee runs (no calibration).
    pub snapshot: Option<&'a LiveSnapshot>,
    /// The calibration the referee uses (maps the reading onto the picture).
    pub profile: Option<&'a Profile>,
    pub palette: &'a Palette,
    /// Whose action it is: their gaps, closest and forbidden treasures are drawn.
    pub active: Option<PlayerColor>,
    /// Why there is no picture, when there is none.
    pub no_picture: Option<String>,
    /// The size of the frames shown, pixels (the texture may be a scaled-down copy).
    pub frame_size: Option<(u32, u32)>,
}

impl std::fmt::Debug for TableView<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TableView")
            .field("active", &self.active)
            .field("no_picture", &self.no_picture)
            .finish_non_exhaustive()
    }
}

/// Draws the view; returns what the user asked for.
pub fn show(ui: &mut Ui, view: &TableView<'_>) -> Option<TableAction> {
    let mut action = None;
    ui.label(RichText::new("At the table").strong());
    if let Some(snap) = view.snapshot {
        for f in &snap.faults {
            card(ui, style::WARNING_AMBER, |ui| {
                ui.label(RichText::new(f.message()).strong());
                ui.horizontal(|ui| {
                    if needs_calibration(f) && ui.button("Re-calibrate").clicked() {
                        action = Some(TableAction::Recalibrate);
                    }
                    if *f == LiveFault::ViewMoved && ui.button("Re-register").clicked() {
                        action = Some(TableAction::Reregister);
                    }
                });
            });
        }
        if let Some(r) = &snap.reregistration {
            ui.label(RichText::new(format!("Re-registration: {r}")).small());
        }
        if snap.settling && !snap.faults.iter().any(|f| f.pauses_rulings()) {
            card(ui, style::WARNING_AMBER, |ui| {
                ui.label(RichText::new("Waiting for the table to settle…").strong());
            });
        }
    } else if view.texture.is_some() {
        card(ui, style::WARNING_AMBER, |ui| {
            ui.label("No rulings from the camera: there is no calibration for it yet.");
            if ui.button("Calibrate").clicked() {
                action = Some(TableAction::Recalibrate);
            }
        });
    }
    let Some(texture) = view.texture else {
        ui.label(view.no_picture.as_deref().unwrap_or("No picture yet."));
        return action;
    };
    let beside = ui.available_width() * (1.0 - PICTURE_SHARE) >= MIN_RULINGS_WIDTH;
    let picture = |ui: &mut Ui| {
        let size = view
            .frame_size
            .map(|(w, h)| egui::vec2(w as f32, h as f32))
            .unwrap_or_else(|| texture.size_vec2());
        let on = camera_view::show_as(ui, texture, CAMERA_VIEW_HEIGHT, size);
        if let (Some(snap), Some(profile)) = (view.snapshot, view.profile)
            && let Some(report) = &snap.latest
            && view.frame_size == Some((profile.image_size.width, profile.image_size.height))
        {
            overlays::draw(
                &ui.painter_at(on.rect),
                &on,
                profile,
                report,
                view.palette,
                view.active,
            );
        }
    };
    if beside {
        let width = ui.available_width();
        ui.horizontal_top(|ui| {
            ui.vertical(|ui| {
                ui.set_width(width * PICTURE_SHARE);
                picture(ui);
            });
            ui.vertical(|ui| rulings_ui(ui, view));
        });
    } else {
        picture(ui);
        rulings_ui(ui, view);
    }
    action
}

fn rulings_ui(ui: &mut Ui, view: &TableView<'_>) {
    ui.label(RichText::new("Rulings").strong());
    let Some(snap) = view.snapshot else {
        ui.label("—");
        return;
    };
    match &snap.committed {
        Some(c) => {
            for line in overlays::ruling_lines(&c.frame, view.active) {
                ui.label(line);
            }
            if !c.changes.rulings.is_empty() {
                ui.add_space(4.0);
                ui.label(RichText::new("Changed since the last settled reading:").small());
                for line in &c.changes.rulings {
                    ui.label(RichText::new(line).small());
                }
            }
        }
        None => {
            match &snap.latest {
                Some(latest) if latest.rulings.is_some() => {
                    ui.label(RichText::new("Not settled yet — as the camera sees it now:").italics());
                    for line in overlays::ruling_lines(latest, view.active) {
                        ui.label(line);
                    }
                }
                _ => {
                    ui.label("No settled reading yet: the rulings appear once the table has been still for a moment.");
                }
            }
        }
    }
}

fn card(ui: &mut Ui, edge: egui::Color32, add: impl FnOnce(&mut Ui)) {
    egui::Frame::group(ui.style())
        .stroke(egui::Stroke::new(2.0, edge))
        .inner_margin(egui::Margin::same(6))
        .show(ui, |ui| {
            ui.set_width(ui.available_width());
            add(ui);
        });
}
