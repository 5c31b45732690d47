//! The bar across the top of the window: the app's name, a tab per screen, and the switches for
//! dark colours and large type.
//!
//! The switches keep the right-hand end; the tabs take what is left and wrap onto a second row when
//! it is too narrow (large type in a window of 1360 px once pushed "Help" under the switches), so
//! every tab stays whole and clickable at any size the window may take.

use super::config::{AppState, PanelId, ThemeChoice};
use super::shortcuts::{self, Command};

/// The tabs in the order shown, in groups set apart by a separator: Crash Octopus, the score
/// sheets, then the camera and help.
const TAB_GROUPS: &[&[(PanelId, &str)]] = &[
    &[(PanelId::Setup, "Set-up"), (PanelId::Game, "Game")],
    &[(PanelId::Octocube, "Octocube"), (PanelId::Otto, "Otto")],
    &[
        (PanelId::Sources, "Sources"),
        (PanelId::Calibrate, "Calibrate"),
        (PanelId::Teach, "Teach"),
        (PanelId::Help, "Help"),
    ],
];

/// The top bar. It keeps no state of its own: the panel shown, the theme and large type are
/// the app's persisted [`AppState`].
#[derive(Debug, Default)]
pub struct TopBar;

impl TopBar {
    pub fn ui(&mut self, ui: &mut egui::Ui, state: &mut AppState) {
        // The switches are centred on the first row of tabs, as tall as the app's name in it.
        let first_row = ui
            .text_style_height(&egui::TextStyle::Heading)
            .max(ui.spacing().interact_size.y);
        egui::Sides::new().height(first_row).shrink_left().show(
            ui,
            |ui| {
                let wrapping = egui::Layout::left_to_right(egui::Align::Center).with_main_wrap(true);
                ui.with_layout(wrapping, |ui| {
                    ui.label(egui::RichText::new("octoref").heading().strong());
                    for group in TAB_GROUPS {
                        ui.separator();
                        for &(panel, label) in *group {
                            let tab = ui.selectable_value(&mut state.panel, panel, label);
                            with_keys(tab, Command::Show(panel));
                        }
                    }
                });
            },
            |ui| {
                // Right to left: the first added is the rightmost.
                let mut dark = state.theme == ThemeChoice::Dark;
                let theme = ui.checkbox(&mut dark, "Dark colours");
                if with_keys(theme, Command::ToggleTheme).changed() {
                    state.theme = if dark {
                        ThemeChoice::Dark
                    } else {
                        ThemeChoice::Light
                    };
                }
                let large = ui.checkbox(&mut state.large_type, "Large type");
                with_keys(large, Command::ToggleLargeType);
            },
        );
    }
}

/// Hints the key bound to `command` when the pointer rests on the control; the key comes from the
/// one table of bindings, so the hint cannot name a key that does something else.
fn with_keys(response: egui::Response, command: Command) -> egui::Response {
    match shortcuts::keys_for(&response.ctx, command) {
        Some(keys) => response.on_hover_text(keys),
        None => response,
    }
}
