//! The Sources panel: where the picture comes from. The cameras found (each with the modes it
//! offers), a video file or a folder of images, the running source's status, counters and recent
//! history, and its picture.
//!
//! Listing cameras opens each device briefly, so it runs on a thread of its own; the panel shows
//! the result when it arrives.

use super::camera_view;
use super::live::{CameraList, LiveSource};
use crate::capture::{
    CameraRequest, CaptureFormat, ControlOutcome, ImageFolderOptions, SourceChoice, SourceStatus,
    VideoOptions, WantedFormat, list_cameras,
};
use egui::RichText;
use std::sync::mpsc::{Receiver, TryRecvError};

/// Height of the picture in the panel, points.
const VIEW_HEIGHT: f32 = 360.0;

#[derive(Debug, Default)]
pub struct SourcesPanel {
    cameras: Option<CameraList>,
    listing: Option<Receiver<CameraList>>,
    /// The mode picked per camera (index into its formats).
    picked_format: Vec<(u32, usize)>,
    lock_controls: bool,
    video_path: String,
    images_dir: String,
    /// Why the last source asked for could not be used.
    problem: Option<String>,
}

impl SourcesPanel {
    /// `cameras`: the list made at start, if one was made.
    pub fn new(cameras: Option<CameraList>) -> Self {
        SourcesPanel {
            cameras,
            lock_controls: true,
            ..SourcesPanel::default()
        }
    }

    /// Starts listing the cameras on a thread.
    pub fn look_for_cameras(&mut self, ctx: &egui::Context) {
        if self.listing.is_some() {
            return;
        }
        let (tx, rx) = std::sync::mpsc::channel();
        let ctx = ctx.clone();
        let spawned = std::thread::Builder::new()
            .name("octoref-list-cameras".into())
            .spawn(move || {
                let list = list_cameras().map_err(|e| e.to_string());
                let _ = tx.send(list);
                ctx.request_repaint();
            });
        match spawned {
            Ok(_) => self.listing = Some(rx),
            Err(e) => self.cameras = Some(Err(format!("cannot start looking for cameras: {e}"))),
        }
    }

    /// Called from `App::logic`: picks up the camera list when it arrives.
    pub fn poll(&mut self) {
        let Some(rx) = &self.listing else {
            return;
        };
        match rx.try_recv() {
            Ok(list) => {
                self.cameras = Some(list);
                self.listing = None;
            }
            Err(TryRecvError::Empty) => {}
            Err(TryRecvError::Disconnected) => {
                self.cameras = Some(Err("looking for cameras stopped unexpectedly".into()));
                self.listing = None;
            }
        }
    }

    /// Draws the panel; returns the source to switch to when the user picks one.
    pub fn ui(&mut self, ui: &mut egui::Ui, live: &LiveSource) -> Option<SourceChoice> {
        let mut choice = None;
        egui::ScrollArea::vertical().show(ui, |ui| {
            ui.heading("Where the picture comes from");
            current_ui(ui, live);
            if let Some(t) = live.texture() {
                camera_view::show(ui, t, VIEW_HEIGHT);
            }
            ui.separator();
            self.cameras_ui(ui, &mut choice);
            ui.separator();
            self.files_ui(ui, &mut choice);
            if let Some(p) = &self.problem {
                ui.label(RichText::new(p).color(super::style::REFUSAL_RED));
            }
            if let Some(s) = live.snapshot()
                && s.history.len() > 1
            {
                ui.separator();
                ui.label(RichText::new("Recent connection history").strong());
                for e in s.history.iter().rev().take(8) {
                    ui.label(format!(
                        "{:.0} s ago: {}",
                        e.at.elapsed().as_secs_f64(),
                        e.status.describe()
                    ));
                }
            }
        });
        if let Some(c) = &choice {
            match c.validate() {
                Ok(()) => self.problem = None,
                Err(e) => {
                    self.problem = Some(e.to_string());
                    return None;
                }
            }
        }
        choice
    }

    fn cameras_ui(&mut self, ui: &mut egui::Ui, choice: &mut Option<SourceChoice>) {
        ui.horizontal(|ui| {
            ui.label(RichText::new("Cameras").strong());
            if self.listing.is_some() {
                ui.spinner();
                ui.label("looking…");
            } else if ui.button("Look for cameras").clicked() {
                self.look_for_cameras(ui.ctx());
            }
        });
        match &self.cameras {
            None => {
                ui.label("Not looked for yet.");
            }
            Some(Err(e)) => {
                ui.label(format!("The cameras could not be listed: {e}"));
            }
            Some(Ok(list)) if list.is_empty() => {
                ui.label("No camera is connected.");
            }
            Some(Ok(list)) => {
                let list = list.clone();
                egui::Grid::new("cameras")
                    .num_columns(3)
                    .spacing([12.0, 6.0])
                    .show(ui, |ui| {
                        for cam in &list {
                            let name = ui.label(format!("{} (camera {})", cam.name, cam.index));
                            if cam.formats.is_empty() {
                                ui.label(
                                    cam.problem
                                        .as_deref()
                                        .unwrap_or("offers no mode octoref can decode"),
                                );
                                ui.end_row();
                                continue;
                            }
                            let mut pick = self.picked(cam.index, &cam.formats);
                            egui::ComboBox::from_id_salt(("mode", cam.index))
                                .selected_text(
                                    cam.formats.get(pick).map(ToString::to_string).unwrap_or_default(),
                                )
                                .show_ui(ui, |ui| {
                                    for (i, f) in cam.formats.iter().enumerate() {
                                        ui.selectable_value(&mut pick, i, f.to_string());
                                    }
                                })
                                .response
                                // Named by its camera, so a screen reader (and a test) can find it.
                                .labelled_by(name.id);
                            self.set_picked(cam.index, pick);
                            if ui.button(format!("Use camera {}", cam.index)).clicked()
                                && let Some(f) = cam.formats.get(pick)
                            {
                                *choice = Some(SourceChoice::Camera(CameraRequest {
                                    index: cam.index,
                                    name: Some(cam.name.clone()),
                                    wanted: WantedFormat {
                                        width: f.width,
                                        height: f.height,
                                        fps: f.fps,
                                    },
                                    lock_controls: self.lock_controls,
                                }));
                            }
                            ui.end_row();
                        }
                    });
                ui.checkbox(
                    &mut self.lock_controls,
                    "Lock exposure and white balance once they have settled",
                );
            }
        }
    }

    fn files_ui(&mut self, ui: &mut egui::Ui, choice: &mut Option<SourceChoice>) {
        ui.label(RichText::new("Recordings").strong());
        ui.horizontal(|ui| {
            let l = ui.label("Video file:");
            ui.text_edit_singleline(&mut self.video_path).labelled_by(l.id);
            if ui
                .add_enabled(
                    !self.video_path.trim().is_empty(),
                    egui::Button::new("Play the video"),
                )
                .clicked()
            {
                *choice = Some(SourceChoice::Video(VideoOptions::new(self.video_path.trim())));
            }
        });
        ui.horizontal(|ui| {
            let l = ui.label("Folder of images:");
            ui.text_edit_singleline(&mut self.images_dir).labelled_by(l.id);
            if ui
                .add_enabled(
                    !self.images_dir.trim().is_empty(),
                    egui::Button::new("Play the images"),
                )
                .clicked()
            {
                *choice = Some(SourceChoice::Images(ImageFolderOptions::new(
                    self.images_dir.trim(),
                )));
            }
        });
    }

    fn picked(&self, index: u32, formats: &[CaptureFormat]) -> usize {
        self.picked_format
            .iter()
            .find(|(i, _)| *i == index)
            .map(|(_, f)| *f)
            .unwrap_or_else(|| default_format(formats))
    }

    fn set_picked(&mut self, index: u32, f: usize) {
        self.picked_format.retain(|(i, _)| *i != index);
        self.picked_format.push((index, f));
    }
}

/// The mode `choose_format` would take for the default wish, as an index.
fn default_format(formats: &[CaptureFormat]) -> usize {
    crate::capture::choose_format(formats, WantedFormat::default())
        .and_then(|f| formats.iter().position(|x| *x == f))
        .unwrap_or(0)
}

fn current_ui(ui: &mut egui::Ui, live: &LiveSource) {
    let Some(words) = live.source_words() else {
        ui.label("No source.");
        return;
    };
    ui.label(RichText::new(format!("Now: {words}")).strong());
    let Some(s) = live.snapshot() else {
        return;
    };
    let colour = match s.status {
        SourceStatus::Live { .. } => super::style::OK_GREEN,
        SourceStatus::Connecting | SourceStatus::Reconnected { .. } => super::style::WARNING_AMBER,
        _ => super::style::REFUSAL_RED,
    };
    ui.label(RichText::new(s.status.describe()).color(colour));
    let st = &s.stats;
    ui.label(format!(
        "{} frames, {} skipped (a newer one was ready), {} unreadable; lost {} times, back {} times, stalled {} times.",
        st.frames, st.dropped, st.corrupt, st.disconnects, st.reconnects, st.stalls
    ));
    if let Some(c) = &s.controls {
        ui.label(format!(
            "Exposure: {}. White balance: {}.",
            control_words(&c.exposure),
            control_words(&c.white_balance)
        ));
    }
}

fn control_words(c: &ControlOutcome) -> String {
    match c {
        ControlOutcome::Pending => "automatic, waiting to settle before locking".into(),
        ControlOutcome::Locked { value: Some(v) } => format!("locked at {v}"),
        ControlOutcome::Locked { value: None } => "locked".into(),
        ControlOutcome::NotOffered => "the camera has no automatic mode to lock".into(),
        ControlOutcome::Skipped => "left automatic".into(),
        ControlOutcome::Failed { reason } => format!("could not be locked ({reason})"),
    }
}
