//! The Help panel: the keyboard shortcuts, and where the app keeps its files.

use super::config::ConfigDir;
use super::shortcuts::SHORTCUTS;
use egui::RichText;

/// The Help panel. It keeps no state of its own; the shortcut list is drawn from
/// [`SHORTCUTS`], the same table the key bindings are read from, so it lists every bound key.
#[derive(Debug, Default)]
pub struct HelpPanel;

impl HelpPanel {
    pub fn ui(&mut self, ui: &mut egui::Ui, config: &ConfigDir) {
        egui::ScrollArea::vertical().show(ui, |ui| {
            ui.heading("Keyboard shortcuts");
            ui.label("Keys work whenever no text field is being typed in.");
            ui.add_space(4.0);
            egui::Grid::new("shortcuts")
                .num_columns(2)
                .striped(true)
                .spacing([24.0, 6.0])
                .show(ui, |ui| {
                    for s in SHORTCUTS {
                        ui.label(RichText::new(s.keys_label(ui.ctx())).monospace().strong());
                        ui.label(s.what);
                        ui.end_row();
                    }
                });
            ui.add_space(12.0);
            ui.heading("Files");
            ui.label(format!("Settings: {}", config.state_file().display()));
            ui.label(format!(
                "Games: {} — every event is saved as it is recorded, in the format `octoref replay crash-octopus FILE` reads. A game in progress is resumed when the app starts.",
                config.games_dir().display()
            ));
            ui.label(format!(
                "The folder can be moved with the {} environment variable.",
                super::config::CONFIG_DIR_ENV
            ));
        });
    }
}
