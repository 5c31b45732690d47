//! The set-up panel: who plays in which order (by colour), which modules are in, the bead
//! sequence (typed, or read by the calibration), and the button that starts the game. The rules'
//! own set-up check runs live, so a set-up the rules do not allow says why before anyone presses
//! Start.

use crate::app::config::{SetupDraft, default_beads};
use crate::app::style::{self, Palette};
use crate::games::crash_octopus::treasure::list_types;
use crate::games::crash_octopus::{
    BeadSequence, Modules, PlayerColor, Record, RulesData, Setup, TreasureType,
};
use egui::RichText;
use std::path::Path;

/// The sailor colours offered (the Pirate is a module).
pub const SAILORS: [PlayerColor; 4] = [
    PlayerColor::Orange,
    PlayerColor::Green,
    PlayerColor::Blue,
    PlayerColor::Purple,
];

/// The record a draft describes, checked by the rules; the error says what to change.
pub fn draft_record(draft: &SetupDraft) -> Result<(Record, Setup), String> {
    let beads: BeadSequence = draft
        .beads
        .trim()
        .parse()
        .map_err(|e: String| format!("Beads: {e}"))?;
    let mut players = draft.sailors.clone();
    if draft.pink_pirate {
        players.push(PlayerColor::Pink);
    }
    let modules = Modules {
        pink_pirate: draft.pink_pirate,
        little_octopus: draft.little_octopus,
        island: draft.island,
    };
    let data = RulesData::builtin().map_err(|e| e.to_string())?;
    let setup = Setup::new(players.clone(), modules, Some(beads.clone()), None, &data)
        .map_err(|e| format!("Players: {e}"))?;
    let mut record = Record::new(players, modules);
    record.beads = Some(beads);
    Ok((record, setup))
}

/// Transient state of the panel.
#[derive(Debug, Default)]
pub struct SetupPanel {
    /// "Start" was pressed while a game is in progress: ask before starting another.
    confirming: bool,
}

impl SetupPanel {
    /// Draws the panel; returns the record to start when the players press Start (and confirm, if
    /// a game is in progress).
    pub fn ui(
        &mut self,
        ui: &mut egui::Ui,
        palette: &Palette,
        draft: &mut SetupDraft,
        profile_beads: Option<&BeadSequence>,
        game_in_progress: Option<&Path>,
    ) -> Option<Record> {
        let mut start = None;
        egui::ScrollArea::vertical().show(ui, |ui| {
            ui.heading("New game of Crash Octopus");
            ui.add_space(6.0);
            players_ui(ui, palette, draft);
            ui.add_space(10.0);
            modules_ui(ui, draft);
            ui.add_space(10.0);
            beads_ui(ui, draft, profile_beads);
            ui.add_space(10.0);
            ui.separator();
            let checked = draft_record(draft);
            match &checked {
                Ok((_, setup)) => summary_ui(ui, palette, setup),
                Err(e) => {
                    ui.label(RichText::new(e).color(style::REFUSAL_RED).strong());
                }
            }
            ui.add_space(8.0);
            if self.confirming {
                let file = game_in_progress
                    .map(|p| p.display().to_string())
                    .unwrap_or_default();
                ui.label(format!(
                    "A game is in progress. It stays saved in {file} (replay it with `octoref replay crash-octopus FILE`)."
                ));
                ui.horizontal(|ui| {
                    if ui.button("Yes, start a new game").clicked()
                        && let Ok((r, _)) = &checked
                    {
                        start = Some(r.clone());
                        self.confirming = false;
                    }
                    if ui.button("Keep playing").clicked() {
                        self.confirming = false;
                    }
                });
            } else {
                let button = egui::Button::new(RichText::new("Start the game").heading());
                if ui.add_enabled(checked.is_ok(), button).clicked()
                    && let Ok((r, _)) = &checked
                {
                    if game_in_progress.is_some() {
                        self.confirming = true;
                    } else {
                        start = Some(r.clone());
                    }
                }
            }
        });
        start
    }
}

fn players_ui(ui: &mut egui::Ui, palette: &Palette, draft: &mut SetupDraft) {
    ui.label(RichText::new("Players").strong());
    ui.label("Tick who plays; the first in the list starts and play goes on in list order.");
    ui.horizontal(|ui| {
        for c in SAILORS {
            let mut on = draft.sailors.contains(&c);
            if ui.checkbox(&mut on, c.as_str()).changed() {
                if on {
                    draft.sailors.push(c);
                } else {
                    draft.sailors.retain(|&p| p != c);
                }
            }
        }
    });
    let mut swap: Option<(usize, usize)> = None;
    let n = draft.sailors.len();
    egui::Grid::new("turn_order").num_columns(3).show(ui, |ui| {
        for (i, &p) in draft.sailors.iter().enumerate() {
            ui.label(format!("{}.", i + 1));
            style::player_chip(ui, palette, p);
            ui.horizontal(|ui| {
                let up = ui
                    .add_enabled(i > 0, egui::Button::new("up").small())
                    .on_hover_text("Earlier in turn order")
                    .accessible_name(format!("Move {p} earlier"));
                if up.clicked() {
                    swap = Some((i - 1, i));
                }
                let down = ui
                    .add_enabled(i + 1 < n, egui::Button::new("down").small())
                    .on_hover_text("Later in turn order")
                    .accessible_name(format!("Move {p} later"));
                if down.clicked() {
                    swap = Some((i, i + 1));
                }
            });
            ui.end_row();
        }
        if draft.pink_pirate {
            ui.label(format!("{}.", n + 1));
            style::player_chip(ui, palette, PlayerColor::Pink);
            ui.label(RichText::new("the Pink Pirate always plays last").small());
            ui.end_row();
        }
    });
    if let Some((a, b)) = swap {
        draft.sailors.swap(a, b);
    }
}

fn modules_ui(ui: &mut egui::Ui, draft: &mut SetupDraft) {
    ui.label(RichText::new("Modules (Pink Pirates box)").strong());
    ui.checkbox(
        &mut draft.pink_pirate,
        "Pink Pirate: one more player, plays pink with the Octo-Canon",
    );
    ui.checkbox(
        &mut draft.little_octopus,
        "Little Octopus: drops may aim at either head",
    );
    ui.checkbox(
        &mut draft.island,
        "Nameless Island: anchors may collect the island's treasure",
    );
}

fn beads_ui(ui: &mut egui::Ui, draft: &mut SetupDraft, profile_beads: Option<&BeadSequence>) {
    let label = ui.label(RichText::new("Octo-Counter beads, start to finish (B = blue, K = black)").strong());
    ui.horizontal(|ui| {
        ui.add(
            egui::TextEdit::singleline(&mut draft.beads)
                .font(egui::TextStyle::Monospace)
                .desired_width(260.0),
        )
        .labelled_by(label.id);
        if ui.button("Default beads").clicked() {
            draft.beads = default_beads();
        }
        let from_profile = ui
            .add_enabled(
                profile_beads.is_some(),
                egui::Button::new("Beads read at calibration"),
            )
            .on_disabled_hover_text("No calibration profile with a bead sequence is loaded.");
        if from_profile.clicked()
            && let Some(b) = profile_beads
        {
            draft.beads = b.to_string();
        }
    });
    if let Ok(b) = draft.beads.trim().parse::<BeadSequence>() {
        let black =
            b.0.iter()
                .filter(|&&x| x == crate::games::crash_octopus::Bead::Black)
                .count();
        ui.label(format!(
            "{} beads: {} blue, {black} black.",
            b.len(),
            b.len() - black
        ));
    }
}

fn summary_ui(ui: &mut egui::Ui, palette: &Palette, setup: &Setup) {
    ui.horizontal_wrapped(|ui| {
        ui.label("Turn order:");
        for &p in &setup.players {
            style::player_chip(ui, palette, p);
        }
    });
    let types: Vec<TreasureType> = setup.treasures.hierarchy.types().to_vec();
    ui.label(format!(
        "Treasures: {} of each of {} ({} pieces). Ties are broken by {}.",
        setup.treasures.per_type,
        list_types(&types),
        setup.treasures.total_pieces(),
        setup.treasures.hierarchy
    ));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_draft_becomes_a_record_or_says_what_to_change() {
        let mut d = SetupDraft::default();
        let (r, s) = draft_record(&d).unwrap();
        assert_eq!(r.players, vec![PlayerColor::Orange, PlayerColor::Green]);
        assert_eq!(s.treasures.per_type, 3);
        d.pink_pirate = true;
        d.sailors.push(PlayerColor::Blue);
        let (r, s) = draft_record(&d).unwrap();
        assert_eq!(r.players.last(), Some(&PlayerColor::Pink));
        assert_eq!(s.treasures.per_type, 4);
        d.sailors = vec![PlayerColor::Blue];
        assert!(draft_record(&d).unwrap_err().starts_with("Players: 1 players"));
        d.sailors = vec![PlayerColor::Blue, PlayerColor::Green];
        d.beads = "BBX".into();
        assert!(draft_record(&d).unwrap_err().contains("bead 3"));
    }
}
