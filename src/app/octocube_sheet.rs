//! The Octocube score sheet: per player the 4 x 5 player board (tile counts by background and
//! object), the coins, and the VP tokens or the tiles of each Score action; the live totals with
//! every majority and tie explained, and the winner.
//!
//! The sheet is the `octoref score octocube` input (`spec/cli.md`), scored by the rules engine on
//! every change ([`score_final`]). It is kept in the config directory as `octocube_sheet.json`
//! (written atomically when it changes) and can be saved to or loaded from any file.

use super::style;
use crate::fsutil::{self, FileError};
use crate::games::octocube::scoring::{FinalInput, FinalPlayerInput, FinalScore, RetrievedTile, ScoreError};
use crate::games::octocube::{Background, Object, OctocubeData, score_final};
use egui::{Color32, RichText};
use std::path::{Path, PathBuf};

/// Most players at an Octocube table.
pub const MAX_PLAYERS: usize = crate::games::octocube::scoring::MAX_PLAYERS;
/// The sheet kept in the config directory.
pub const SHEET_FILE: &str = "octocube_sheet.json";

/// Colours of the board's rows, as printed (approximate sRGB).
fn background_colour(b: Background) -> Color32 {
    match b {
        Background::White => Color32::from_rgb(0xF4, 0xF1, 0xE8),
        Background::LightBlue => Color32::from_rgb(0x8C, 0xC8, 0xEA),
        Background::DarkBlue => Color32::from_rgb(0x1F, 0x4E, 0x9C),
        Background::Green => Color32::from_rgb(0x3C, 0x9A, 0x5A),
    }
}

fn words(s: &str) -> String {
    s.replace('_', " ")
}

/// One Score action's tiles as typed: object names and `coin`, separated by spaces or commas.
pub fn parse_retrieval(text: &str) -> Result<Vec<RetrievedTile>, String> {
    text.split(|c: char| c == ',' || c.is_whitespace())
        .filter(|w| !w.is_empty())
        .map(|w| w.to_lowercase().parse::<RetrievedTile>())
        .collect()
}

fn retrieval_text(tiles: &[RetrievedTile]) -> String {
    tiles
        .iter()
        .map(|t| String::from(*t))
        .collect::<Vec<_>>()
        .join(" ")
}

/// The sheet being filled in.
#[derive(Debug)]
pub struct OctocubeSheet {
    input: FinalInput,
    /// The text of each player's Score actions, one field per action (kept as typed).
    retrieval_texts: Vec<Vec<String>>,
    /// The score of `input`, or why it cannot be scored.
    score: Result<FinalScore, String>,
    /// The sheet as last written to the config directory.
    saved: Option<FinalInput>,
    file_field: String,
    /// The last save/load outcome in words, and whether it failed.
    file_message: Option<(bool, String)>,
}

impl Default for OctocubeSheet {
    fn default() -> Self {
        OctocubeSheet::from_input(FinalInput {
            players: vec![
                FinalPlayerInput {
                    name: "Player 1".into(),
                    ..FinalPlayerInput::default()
                },
                FinalPlayerInput {
                    name: "Player 2".into(),
                    ..FinalPlayerInput::default()
                },
            ],
        })
    }
}

impl OctocubeSheet {
    pub fn from_input(input: FinalInput) -> Self {
        let retrieval_texts = input
            .players
            .iter()
            .map(|p| p.retrievals.iter().map(|r| retrieval_text(r)).collect())
            .collect();
        let mut s = OctocubeSheet {
            input,
            retrieval_texts,
            score: Err(String::new()),
            saved: None,
            file_field: String::new(),
            file_message: None,
        };
        s.rescore();
        s
    }

    /// The sheet kept in the config directory, or a fresh one. An unreadable file is reported and
    /// left where it is (the new sheet is only written once the user changes something).
    pub fn open(config_dir: &Path) -> (Self, Option<String>) {
        let path = config_dir.join(SHEET_FILE);
        if !path.exists() {
            let mut s = OctocubeSheet::default();
            s.saved = Some(s.input.clone());
            return (s, None);
        }
        match fsutil::read_json::<FinalInput>(&path) {
            Ok(input) => {
                let mut s = OctocubeSheet::from_input(input);
                s.saved = Some(s.input.clone());
                (s, None)
            }
            Err(e) => {
                let kept = path.with_extension("json.bad");
                let moved = std::fs::rename(&path, &kept).is_ok();
                let msg = if moved {
                    format!(
                        "The Octocube sheet could not be read ({e}); it was moved to {}.",
                        kept.display()
                    )
                } else {
                    format!("The Octocube sheet could not be read ({e}).")
                };
                (OctocubeSheet::default(), Some(msg))
            }
        }
    }

    /// Writes the sheet to the config directory if it changed (called from `App::logic`).
    pub fn persist(&mut self, config_dir: &Path) -> Result<(), FileError> {
        if self.saved.as_ref() == Some(&self.input) {
            return Ok(());
        }
        self.saved = Some(self.input.clone());
        std::fs::create_dir_all(config_dir).map_err(|e| FileError::io(config_dir, &e))?;
        fsutil::write_json_atomic(&config_dir.join(SHEET_FILE), &self.input)
    }

    pub fn input(&self) -> &FinalInput {
        &self.input
    }

    pub fn score(&self) -> Result<&FinalScore, &str> {
        self.score.as_ref().map_err(String::as_str)
    }

    fn rescore(&mut self) {
        self.score = score_final(&self.input).map_err(|e| match e {
            ScoreError::Input(i) => format!("{}: {}", i.field, i.message),
            ScoreError::Data(d) => d.to_string(),
        });
    }

    /// Saves the sheet to `path` in the `score octocube` format.
    pub fn save_to(&self, path: &Path) -> Result<(), FileError> {
        fsutil::write_json_atomic(path, &self.input)
    }

    /// Loads a sheet in the `score octocube` format.
    pub fn load_from(&mut self, path: &Path) -> Result<(), FileError> {
        let input: FinalInput = fsutil::read_json(path)?;
        let saved = self.saved.take();
        *self = OctocubeSheet::from_input(input);
        self.saved = saved;
        Ok(())
    }

    pub fn ui(&mut self, ui: &mut egui::Ui) {
        let before = self.input.clone();
        egui::ScrollArea::vertical().show(ui, |ui| {
            ui.heading("Octocube score sheet");
            ui.label("Count the tiles on each player board, the coins, and the VP tokens (or list the tiles of each Score action). The totals follow as you type.");
            ui.add_space(6.0);
            egui::ScrollArea::horizontal().id_salt("boards").show(ui, |ui| {
                ui.horizontal_top(|ui| {
                    let mut remove = None;
                    let n = self.input.players.len();
                    for i in 0..n {
                        if self.player_ui(ui, i, n > 1) {
                            remove = Some(i);
                        }
                    }
                    if let Some(i) = remove {
                        self.input.players.remove(i);
                        self.retrieval_texts.remove(i);
                    }
                    if self.input.players.len() < MAX_PLAYERS && ui.button("Add a player").clicked() {
                        let name = (1..)
                            .map(|k| format!("Player {k}"))
                            .find(|c| !self.input.players.iter().any(|p| &p.name == c))
                            .unwrap_or_default();
                        self.input.players.push(FinalPlayerInput {
                            name,
                            ..FinalPlayerInput::default()
                        });
                        self.retrieval_texts.push(Vec::new());
                    }
                });
            });
            ui.separator();
            self.results_ui(ui);
            ui.separator();
            self.file_ui(ui);
        });
        if self.input != before {
            self.rescore();
        }
    }

    /// One player's board; returns true when "Remove" was pressed.
    fn player_ui(&mut self, ui: &mut egui::Ui, i: usize, removable: bool) -> bool {
        let data = OctocubeData::builtin().ok();
        let mut remove = false;
        egui::Frame::group(ui.style()).inner_margin(8).show(ui, |ui| {
            ui.vertical(|ui| {
                let Some(p) = self.input.players.get_mut(i) else {
                    return;
                };
                ui.horizontal(|ui| {
                    ui.label("Name:");
                    ui.add(egui::TextEdit::singleline(&mut p.name).desired_width(140.0))
                        .accessible_name(format!("Name of player {}", i + 1));
                    if removable && ui.button("Remove").on_hover_text("Remove this player").clicked() {
                        remove = true;
                    }
                });
                let who = p.name.clone();
                egui::Grid::new(("board", i)).num_columns(6).spacing([4.0, 4.0]).show(ui, |ui| {
                    ui.label("");
                    for o in Object::ALL {
                        ui.label(RichText::new(o.as_str()).small());
                    }
                    ui.end_row();
                    for b in Background::ALL {
                        let bg = background_colour(b);
                        style::chip(ui, &words(b.as_str()), bg);
                        for o in Object::ALL {
                            let limit = data.map_or(u32::MAX, |d| d.contents.object_count(o));
                            let mut n = p.tiles.get(o, b);
                            let r = ui
                                .add(egui::DragValue::new(&mut n).range(0..=limit).speed(0.1))
                                .accessible_name(format!("{who}: {o} on {}", words(b.as_str())));
                            if r.changed() {
                                p.tiles.set(o, b, n);
                            }
                        }
                        ui.end_row();
                    }
                });
                ui.horizontal(|ui| {
                    let coins_max = data.map_or(u32::MAX, |d| d.contents.coins);
                    ui.label("Coins:");
                    ui.add(egui::DragValue::new(&mut p.coins).range(0..=coins_max).speed(0.1))
                        .accessible_name(format!("{who}: coins"));
                    ui.label("VP tokens:");
                    ui.add(egui::DragValue::new(&mut p.vp_tokens).range(0..=999).speed(0.2))
                        .accessible_name(format!("{who}: VP tokens"));
                });
                let texts = match self.retrieval_texts.get_mut(i) {
                    Some(t) => t,
                    None => return,
                };
                ui.label(RichText::new("Score actions (instead of VP tokens): the tiles taken, e.g. \"starfish starfish coin\"").small());
                let mut drop = None;
                for (k, text) in texts.iter_mut().enumerate() {
                    ui.horizontal(|ui| {
                        let l = ui.label(format!("{}.", k + 1));
                        ui.add(egui::TextEdit::singleline(text).desired_width(200.0))
                            .labelled_by(l.id)
                            .accessible_name(format!("{who}: Score action {}", k + 1));
                        if ui.small_button("x").on_hover_text("Remove this Score action").accessible_name(format!("{who}: remove Score action {}", k + 1)).clicked() {
                            drop = Some(k);
                        }
                    });
                    if let Err(e) = parse_retrieval(text) {
                        ui.label(RichText::new(e).color(style::REFUSAL_RED).small());
                    }
                }
                if let Some(k) = drop {
                    texts.remove(k);
                }
                if ui.button("Add a Score action").on_hover_text(format!("for {who}")).accessible_name(format!("{who}: add a Score action")).clicked() {
                    texts.push(String::new());
                }
                // Only Score actions that read cleanly count; a bad one is shown above.
                p.retrievals = texts
                    .iter()
                    .filter_map(|t| parse_retrieval(t).ok())
                    .filter(|r| !r.is_empty())
                    .collect();
            });
        });
        remove
    }

    fn results_ui(&self, ui: &mut egui::Ui) {
        ui.heading("Totals");
        let score = match &self.score {
            Ok(s) => s,
            Err(e) => {
                ui.label(RichText::new(format!("Cannot score yet: {e}")).color(style::REFUSAL_RED));
                return;
            }
        };
        egui::Grid::new("octocube_totals")
            .num_columns(8)
            .striped(true)
            .spacing([14.0, 4.0])
            .show(ui, |ui| {
                for h in [
                    "Rank",
                    "Player",
                    "VP tokens",
                    "Coins",
                    "Colours",
                    "Objects",
                    "Total",
                    "Object tiles",
                ] {
                    ui.label(RichText::new(h).strong());
                }
                ui.end_row();
                let mut order: Vec<_> = score.players.iter().collect();
                order.sort_by_key(|p| p.rank);
                for p in order {
                    ui.label(if p.winner {
                        format!("{} (winner)", p.rank)
                    } else {
                        p.rank.to_string()
                    });
                    ui.label(&p.name);
                    ui.label(p.vp_tokens.to_string());
                    ui.label(format!("{} ({} coins)", p.coins_vp, p.coins));
                    ui.label(p.colors_vp.to_string());
                    ui.label(p.objects_vp.to_string());
                    ui.label(RichText::new(p.total.to_string()).strong());
                    ui.label(p.object_tiles.to_string());
                    ui.end_row();
                }
            });
        ui.add_space(4.0);
        ui.label(RichText::new("Why").strong());
        for line in &score.explanation {
            ui.label(line);
        }
    }

    fn file_ui(&mut self, ui: &mut egui::Ui) {
        ui.horizontal(|ui| {
            let l = ui.label("File:");
            ui.add(egui::TextEdit::singleline(&mut self.file_field).desired_width(320.0))
                .labelled_by(l.id);
            let path = PathBuf::from(self.file_field.trim());
            let has_path = !self.file_field.trim().is_empty();
            if ui
                .add_enabled(has_path, egui::Button::new("Save the sheet"))
                .clicked()
            {
                self.file_message = Some(match self.save_to(&path) {
                    Ok(()) => (
                        false,
                        format!("Saved to {} (`octoref score octocube` reads it).", path.display()),
                    ),
                    Err(e) => (true, e.to_string()),
                });
            }
            if ui
                .add_enabled(has_path, egui::Button::new("Load a sheet"))
                .clicked()
            {
                self.file_message = Some(match self.load_from(&path) {
                    Ok(()) => (false, format!("Loaded {}.", path.display())),
                    Err(e) => (true, e.to_string()),
                });
            }
        });
        if let Some((failed, m)) = &self.file_message {
            let c = if *failed {
                style::REFUSAL_RED
            } else {
                style::OK_GREEN
            };
            ui.label(RichText::new(m).color(c));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::octocube::scoring::RetrievedTile;

    #[test]
    fn score_actions_are_typed_as_words() {
        assert_eq!(
            parse_retrieval("starfish, Starfish coin").unwrap(),
            vec![
                RetrievedTile::Object(Object::Starfish),
                RetrievedTile::Object(Object::Starfish),
                RetrievedTile::Coin
            ]
        );
        assert!(parse_retrieval("starfish squid").unwrap_err().contains("squid"));
        assert_eq!(parse_retrieval("  ").unwrap(), vec![]);
    }

    #[test]
    fn the_sheet_is_kept_in_the_config_dir_and_in_the_cli_format() {
        let dir = tempfile::tempdir().unwrap();
        let (mut s, problem) = OctocubeSheet::open(dir.path());
        assert!(problem.is_none());
        s.persist(dir.path()).unwrap();
        assert!(
            !dir.path().join(SHEET_FILE).exists(),
            "nothing written before a change"
        );
        s.input.players[0].vp_tokens = 12;
        s.input.players[0].tiles.set(Object::Pearl, Background::Green, 2);
        s.persist(dir.path()).unwrap();
        let (back, _) = OctocubeSheet::open(dir.path());
        assert_eq!(back.input(), s.input());
        // The same file is what `octoref score octocube` reads.
        let text = std::fs::read_to_string(dir.path().join(SHEET_FILE)).unwrap();
        let v: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(v["players"][0]["tiles"]["pearl"]["green"], 2);
        assert_eq!(v["players"][0]["vp_tokens"], 12);
        let out = dir.path().join("x.json");
        back.save_to(&out).unwrap();
        let mut other = OctocubeSheet::default();
        other.load_from(&out).unwrap();
        assert_eq!(other.input(), s.input());
        assert_eq!(other.score().unwrap().winners, vec!["Player 1".to_string()]);
    }

    #[test]
    fn an_unreadable_sheet_is_reported_and_kept() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join(SHEET_FILE),
            br#"{"players": [{"name": "A", "coins": -1}]}"#,
        )
        .unwrap();
        let (s, problem) = OctocubeSheet::open(dir.path());
        assert!(problem.unwrap().contains("players[0].coins"));
        assert_eq!(s.input().players.len(), 2);
        assert!(dir.path().join("octocube_sheet.json.bad").exists());
    }
}
