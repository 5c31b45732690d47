//! The Otto board: the 9 x 9 Ocean drawn with Otto, the Coral and Seaweed squares and every tile
//! placed; click a square, choose a tile and its direction (suckers, shell, species), and see at
//! once whether it may go there (and which rule it breaks) and what it scores. Running scores per
//! player, the tiles left in hand at the end, and the winner.
//!
//! Behind the panel is an Otto game record (`spec/cli.md`), scored by the rules engine
//! ([`score_record`]) whenever it changes. A placement the rules refuse is not recorded: the panel
//! says why, and the player may try another square or pass. The record is kept in the config
//! directory as `otto_game.json` (written atomically when it changes) and can be saved to or loaded
//! from any file; `octoref score otto FILE` reads the same file.
//!
//! Conventions: cells are `[x, y]`, x to the right, y down, from 0 (`spec/cli.md`). An arm tile's
//! `from` is the edge that joins the arm toward Otto, `to` its open edge; `suckers` is the side of
//! the suckers looking along the arm away from Otto.

use super::style;
use crate::fsutil::{self, FileError};
use crate::games::otto::record::{DEFAULT_SOURCE, GameRecord, RecordReport, RecordedMove};
use crate::games::otto::{
    ArmTile, Board, BoardLayout, Cell, Edge, EndTile, Placement, Side, Tile, TileSet, check_placement,
    score_record,
};
use egui::{Color32, Pos2, Rect, RichText, Sense, Stroke, Vec2};
use std::path::{Path, PathBuf};

/// The record kept in the config directory.
pub const GAME_FILE: &str = "otto_game.json";
/// One square on screen, points.
const SQUARE_PT: f32 = 50.0;

const OCEAN: Color32 = Color32::from_rgb(0x2B, 0x6C, 0xA8);
const CORAL: Color32 = Color32::from_rgb(0xF0, 0x80, 0x70);
const SEAWEED: Color32 = Color32::from_rgb(0x3E, 0x9E, 0x5C);
const OTTO: Color32 = Color32::from_rgb(0xC8, 0x4F, 0x9A);
const TILE: Color32 = Color32::from_rgb(0xF3, 0xE6, 0xC8);
const ARM: Color32 = Color32::from_rgb(0xC8, 0x4F, 0x9A);

/// The tile being chosen.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TileChoice {
    Arm,
    End,
    Fish,
    Bubbles,
}

/// The chooser's settings.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Chooser {
    pub choice: TileChoice,
    pub from: Edge,
    pub to: Edge,
    pub suckers: Side,
    pub shell: bool,
    pub species: String,
}

impl Default for Chooser {
    fn default() -> Self {
        Chooser {
            choice: TileChoice::Arm,
            from: Edge::S,
            to: Edge::N,
            suckers: Side::Left,
            shell: false,
            species: String::new(),
        }
    }
}

impl Chooser {
    /// The tile as chosen, or why it is not a tile (e.g. an arm whose two edges are the same).
    pub fn tile(&self, tiles: &TileSet) -> Result<Tile, String> {
        match self.choice {
            TileChoice::Arm => ArmTile::new(self.from, self.to, self.suckers)
                .map(Tile::Arm)
                .map_err(|e| e.to_string()),
            TileChoice::End => Ok(Tile::End(EndTile {
                from: self.from,
                shell: self.shell,
            })),
            TileChoice::Fish => tiles
                .fish(&self.species)
                .map(|f| Tile::Fish(f.tile()))
                .ok_or_else(|| "choose the fish's species".to_string()),
            TileChoice::Bubbles => Ok(Tile::Bubbles),
        }
    }

    /// The record's move for this tile on `cell` by `player`.
    pub fn recorded(&self, player: &str, cell: Cell, tiles: &TileSet) -> RecordedMove {
        let mut m = RecordedMove {
            player: player.to_string(),
            cell: Some([i64::from(cell.x), i64::from(cell.y)]),
            ..RecordedMove::default()
        };
        match self.choice {
            TileChoice::Arm => {
                m.tile = Some("arm".into());
                m.from = Some(self.from);
                m.to = Some(self.to);
                m.suckers = Some(self.suckers);
            }
            TileChoice::End => {
                m.tile = Some("end".into());
                m.from = Some(self.from);
                m.shell = Some(self.shell);
            }
            TileChoice::Fish => {
                m.tile = Some("fish".into());
                m.species = Some(self.species.clone());
                m.points = tiles.fish(&self.species).map(|f| f.points);
            }
            TileChoice::Bubbles => m.tile = Some("bubbles".into()),
        }
        m
    }
}

/// The board and tiles a record names ("default", or a file beside the record).
fn resources(record: &GameRecord, beside: Option<&Path>) -> Result<(BoardLayout, TileSet), String> {
    let read = |name: &str| -> Result<String, String> {
        let p = beside.map_or_else(|| PathBuf::from(name), |d| d.join(name));
        let bytes = fsutil::read_input(&p).map_err(|e| e.to_string())?;
        String::from_utf8(bytes).map_err(|_| format!("{}: not UTF-8 text; expected TOML", p.display()))
    };
    let layout = if record.board == DEFAULT_SOURCE {
        BoardLayout::default_layout().map_err(|e| e.to_string())?
    } else {
        BoardLayout::from_toml_str(&read(&record.board)?, &record.board).map_err(|e| e.to_string())?
    };
    let tiles = if record.tiles == DEFAULT_SOURCE {
        TileSet::default_set().map_err(|e| e.to_string())?
    } else {
        TileSet::from_toml_str(&read(&record.tiles)?, &record.tiles).map_err(|e| e.to_string())?
    };
    Ok((layout, tiles))
}

fn new_record(players: Vec<String>) -> GameRecord {
    GameRecord {
        board: DEFAULT_SOURCE.into(),
        tiles: DEFAULT_SOURCE.into(),
        players,
        moves: Vec::new(),
        hands: Default::default(),
        open: false,
        simplified: false,
    }
}

/// The Otto panel.
#[derive(Debug)]
pub struct OttoBoard {
    record: GameRecord,
    /// Where board and tile files named by the record are looked for.
    beside: Option<PathBuf>,
    layout: Option<BoardLayout>,
    tiles: Option<TileSet>,
    report: Result<RecordReport, String>,
    selected: Option<Cell>,
    chooser: Chooser,
    /// Who places next (an index into the players).
    player: usize,
    /// Why the last placement was refused.
    refusal: Option<String>,
    saved: Option<GameRecord>,
    names_text: String,
    file_field: String,
    file_message: Option<(bool, String)>,
}

impl Default for OttoBoard {
    fn default() -> Self {
        OttoBoard::from_record(new_record(vec!["Player 1".into(), "Player 2".into()]), None)
    }
}

impl OttoBoard {
    pub fn from_record(record: GameRecord, beside: Option<PathBuf>) -> Self {
        let names_text = record.players.join(", ");
        let mut b = OttoBoard {
            record,
            beside,
            layout: None,
            tiles: None,
            report: Err(String::new()),
            selected: None,
            chooser: Chooser::default(),
            player: 0,
            refusal: None,
            saved: None,
            names_text,
            file_field: String::new(),
            file_message: None,
        };
        b.rescore();
        b.player = b.next_player();
        if let Some(t) = &b.tiles {
            b.chooser.species = t.species().first().map(|s| s.to_string()).unwrap_or_default();
        }
        b
    }

    /// The game kept in the config directory, or a new one; an unreadable file is reported and
    /// moved aside.
    pub fn open(config_dir: &Path) -> (Self, Option<String>) {
        let path = config_dir.join(GAME_FILE);
        if !path.exists() {
            let mut b = OttoBoard::default();
            b.saved = Some(b.record.clone());
            return (b, None);
        }
        match fsutil::read_json::<GameRecord>(&path) {
            Ok(r) => {
                let mut b = OttoBoard::from_record(r, Some(config_dir.to_path_buf()));
                b.saved = Some(b.record.clone());
                (b, None)
            }
            Err(e) => {
                let kept = path.with_extension("json.bad");
                let moved = std::fs::rename(&path, &kept).is_ok();
                let tail = if moved {
                    format!("; it was moved to {}", kept.display())
                } else {
                    String::new()
                };
                (
                    OttoBoard::default(),
                    Some(format!("The Otto game could not be read ({e}){tail}.")),
                )
            }
        }
    }

    /// Writes the record to the config directory if it changed (called from `App::logic`).
    pub fn persist(&mut self, config_dir: &Path) -> Result<(), FileError> {
        if self.saved.as_ref() == Some(&self.record) {
            return Ok(());
        }
        self.saved = Some(self.record.clone());
        std::fs::create_dir_all(config_dir).map_err(|e| FileError::io(config_dir, &e))?;
        fsutil::write_json_atomic(&config_dir.join(GAME_FILE), &self.record)
    }

    pub fn record(&self) -> &GameRecord {
        &self.record
    }

    pub fn report(&self) -> Result<&RecordReport, &str> {
        self.report.as_ref().map_err(String::as_str)
    }

    pub fn refusal(&self) -> Option<&str> {
        self.refusal.as_deref()
    }

    fn rescore(&mut self) {
        let r = resources(&self.record, self.beside.as_deref());
        match r {
            Ok((layout, tiles)) => {
                self.report = score_record(&self.record, layout.clone(), &tiles).map_err(|e| e.to_string());
                self.layout = Some(layout);
                self.tiles = Some(tiles);
            }
            Err(e) => {
                self.report = Err(e);
                self.layout = None;
                self.tiles = None;
            }
        }
    }

    /// The player after the last move's (turn order is followed, as the record's reader does).
    fn next_player(&self) -> usize {
        let n = self.record.players.len().max(1);
        self.record
            .moves
            .last()
            .and_then(|m| self.record.players.iter().position(|p| *p == m.player))
            .map_or(0, |i| (i + 1) % n)
    }

    /// The Ocean as it stands.
    fn board(&self) -> Option<Board> {
        match &self.report {
            Ok(r) => r.final_board.clone(),
            Err(_) => self.layout.clone().map(Board::new),
        }
    }

    /// May the chosen tile go on the selected square, and for how many points?
    pub fn preview(&self) -> Option<Result<crate::games::otto::Points, String>> {
        let cell = self.selected?;
        let tiles = self.tiles.as_ref()?;
        let board = self.board()?;
        Some(
            self.chooser.tile(tiles).and_then(|tile| {
                check_placement(&board, &Placement { cell, tile }).map_err(|e| e.to_string())
            }),
        )
    }

    /// Records the chosen tile on the selected square for the current player, if the rules allow
    /// it; otherwise keeps the reason. Returns whether it was recorded.
    pub fn place(&mut self) -> bool {
        let (Some(cell), Some(tiles)) = (self.selected, self.tiles.as_ref()) else {
            self.refusal = Some("Click a square of the Ocean first.".into());
            return false;
        };
        match self.preview() {
            Some(Ok(_)) => {}
            Some(Err(e)) => {
                self.refusal = Some(e);
                return false;
            }
            None => return false,
        }
        let Some(name) = self.record.players.get(self.player).cloned() else {
            return false;
        };
        let m = self.chooser.recorded(&name, cell, tiles);
        self.record.moves.push(m);
        self.after_move();
        true
    }

    /// The current player passes.
    pub fn pass(&mut self) {
        if let Some(name) = self.record.players.get(self.player).cloned() {
            self.record.moves.push(RecordedMove {
                player: name,
                pass: Some(true),
                ..RecordedMove::default()
            });
            self.after_move();
        }
    }

    pub fn undo(&mut self) {
        if self.record.moves.pop().is_some() {
            self.after_move();
        }
    }

    fn after_move(&mut self) {
        self.refusal = None;
        self.rescore();
        self.player = self.next_player();
    }

    pub fn select(&mut self, cell: Cell) {
        self.selected = Some(cell);
        self.refusal = None;
    }

    pub fn chooser_mut(&mut self) -> &mut Chooser {
        &mut self.chooser
    }

    pub fn ui(&mut self, ui: &mut egui::Ui) {
        egui::Panel::right("otto_side")
            .resizable(true)
            .default_size(460.0)
            .show(ui, |ui| {
                egui::ScrollArea::vertical().show(ui, |ui| self.side_ui(ui));
            });
        egui::ScrollArea::both().show(ui, |ui| {
            ui.heading("Otto the Octopus");
            self.players_ui(ui);
            self.board_ui(ui);
        });
    }

    fn players_ui(&mut self, ui: &mut egui::Ui) {
        ui.horizontal(|ui| {
            ui.label("Players, in turn order:");
            ui.add(egui::TextEdit::singleline(&mut self.names_text).desired_width(260.0))
                .accessible_name("Otto players");
            let names: Vec<String> = self
                .names_text
                .split(',')
                .map(|s| s.trim().to_string())
                .filter(|s| !s.is_empty())
                .collect();
            let changed = names != self.record.players;
            if ui
                .add_enabled(changed && !names.is_empty(), egui::Button::new("New Otto game"))
                .on_hover_text("Starts a new game with these players")
                .clicked()
            {
                *self = OttoBoard {
                    saved: self.saved.take(),
                    ..OttoBoard::from_record(new_record(names), None)
                };
            }
        });
    }

    fn board_ui(&mut self, ui: &mut egui::Ui) {
        let Some(layout) = self.layout.clone() else {
            if let Err(e) = &self.report {
                ui.label(RichText::new(e).color(style::REFUSAL_RED));
            }
            return;
        };
        let board = self.board();
        let (w, h) = (f32::from(layout.width()), f32::from(layout.height()));
        let (rect, _) = ui.allocate_exact_size(Vec2::new(w, h) * SQUARE_PT, Sense::hover());
        let painter = ui.painter_at(rect);
        let square = |c: Cell| {
            Rect::from_min_size(
                rect.min + Vec2::new(f32::from(c.x), f32::from(c.y)) * SQUARE_PT,
                Vec2::splat(SQUARE_PT),
            )
        };
        let preview = self.preview();
        let mut clicked = None;
        for cell in layout.cells() {
            let r = square(cell);
            let fill = if layout.is_otto(cell) {
                OTTO
            } else if layout.is_coral(cell) {
                CORAL
            } else if layout.is_seaweed(cell) {
                SEAWEED
            } else {
                OCEAN
            };
            painter.rect_filled(r.shrink(1.0), 3.0, fill);
            if !layout.is_otto(cell) {
                let resp = ui
                    .interact(
                        r,
                        ui.scope_id().with(("otto_cell", cell.x, cell.y)),
                        Sense::click(),
                    )
                    .accessible_name(format!("Square [{}, {}]", cell.x, cell.y));
                if resp.clicked() {
                    clicked = Some(cell);
                }
            }
            let mark = if layout.is_coral(cell) {
                "x2"
            } else if layout.is_seaweed(cell) {
                "+1"
            } else {
                ""
            };
            if !mark.is_empty() && board.as_ref().is_none_or(|b| b.is_free(cell)) {
                painter.text(
                    r.left_top() + Vec2::new(4.0, 2.0),
                    egui::Align2::LEFT_TOP,
                    mark,
                    egui::FontId::proportional(11.0),
                    Color32::WHITE,
                );
            }
            if let Some(t) = board.as_ref().and_then(|b| b.tile_at(cell)) {
                draw_tile(&painter, r, t, 1.0);
            }
        }
        // Otto himself over his 3 x 3 squares.
        let otto_cells: Vec<Cell> = layout.cells().filter(|c| layout.is_otto(*c)).collect();
        if let (Some(first), Some(last)) = (otto_cells.first(), otto_cells.last()) {
            let r = square(*first).union(square(*last));
            painter.rect_filled(r.shrink(3.0), 12.0, OTTO);
            painter.text(
                r.center(),
                egui::Align2::CENTER_CENTER,
                "Otto",
                egui::FontId::proportional(26.0),
                Color32::WHITE,
            );
        }
        if let Some(cell) = self.selected {
            let r = square(cell);
            if let (Some(Ok(_)), Some(tiles)) = (&preview, &self.tiles)
                && let Ok(t) = self.chooser.tile(tiles)
            {
                draw_tile(&painter, r, &t, 0.6);
            }
            let edge = match &preview {
                Some(Ok(_)) => style::OK_GREEN,
                Some(Err(_)) => style::REFUSAL_RED,
                None => Color32::WHITE,
            };
            painter.rect_stroke(
                r.shrink(1.0),
                3.0,
                Stroke::new(3.0, edge),
                egui::StrokeKind::Inside,
            );
        }
        if let Some(c) = clicked {
            self.select(c);
        }
    }

    fn side_ui(&mut self, ui: &mut egui::Ui) {
        let player = self.record.players.get(self.player).cloned().unwrap_or_default();
        ui.heading(format!("{player}'s tile"));
        match self.selected {
            Some(c) => ui.label(format!("Square [{}, {}]", c.x, c.y)),
            None => ui.label("Click a square of the Ocean."),
        };
        self.chooser_ui(ui);
        match self.preview() {
            Some(Ok(p)) => {
                let mut how = format!("{} base", p.base);
                if let Some(n) = p.arm_tiles {
                    how.push_str(&format!(
                        " (an arm of {n} Arm tile{})",
                        if n == 1 { "" } else { "s" }
                    ));
                }
                if p.seaweed_bonus > 0 {
                    how.push_str(&format!(" + {} seaweed", p.seaweed_bonus));
                }
                if p.coral_multiplier > 1 {
                    how.push_str(&format!(", x{} coral", p.coral_multiplier));
                }
                ui.label(
                    RichText::new(format!(
                        "Allowed: {} point{} ({how}).",
                        p.total,
                        if p.total == 1 { "" } else { "s" }
                    ))
                    .color(style::OK_GREEN)
                    .strong(),
                );
            }
            Some(Err(e)) => {
                ui.label(
                    RichText::new(format!("Not allowed: {e}"))
                        .color(style::REFUSAL_RED)
                        .strong(),
                );
            }
            None => {}
        }
        if let Some(r) = &self.refusal {
            ui.label(RichText::new(format!("Refused: {r}")).color(style::REFUSAL_RED));
        }
        ui.horizontal(|ui| {
            if ui.button(format!("Place it for {player}")).clicked() {
                self.place();
            }
            if ui.button(format!("{player} passes")).clicked() {
                self.pass();
            }
            if ui
                .add_enabled(
                    !self.record.moves.is_empty(),
                    egui::Button::new("Undo the last move"),
                )
                .clicked()
            {
                self.undo();
            }
        });
        ui.separator();
        self.scores_ui(ui);
        ui.separator();
        self.moves_ui(ui);
        ui.separator();
        self.file_ui(ui);
    }

    fn chooser_ui(&mut self, ui: &mut egui::Ui) {
        let species: Vec<(String, String, u32)> = self
            .tiles
            .as_ref()
            .map(|t| {
                t.card
                    .fish
                    .iter()
                    .map(|f| (f.species.clone(), f.name.clone(), f.points))
                    .collect()
            })
            .unwrap_or_default();
        let c = &mut self.chooser;
        ui.horizontal(|ui| {
            ui.label("Tile:");
            ui.radio_value(&mut c.choice, TileChoice::Arm, "Arm");
            ui.radio_value(&mut c.choice, TileChoice::End, "End");
            ui.radio_value(&mut c.choice, TileChoice::Fish, "Fish");
            ui.radio_value(&mut c.choice, TileChoice::Bubbles, "Bubbles");
        });
        let edges = |ui: &mut egui::Ui, value: &mut Edge, what: &str| {
            ui.horizontal(|ui| {
                ui.label(what);
                for e in Edge::ALL {
                    ui.radio_value(value, e, e.name())
                        .accessible_name(format!("{what} {}", e.name()));
                }
            });
        };
        match c.choice {
            TileChoice::Arm => {
                edges(ui, &mut c.from, "Joins toward Otto:");
                edges(ui, &mut c.to, "Open edge:");
                ui.horizontal(|ui| {
                    ui.label("Suckers (looking away from Otto):");
                    ui.radio_value(&mut c.suckers, Side::Left, "left");
                    ui.radio_value(&mut c.suckers, Side::Right, "right");
                });
            }
            TileChoice::End => {
                edges(ui, &mut c.from, "Joins the arm:");
                ui.checkbox(&mut c.shell, "holds a shell");
            }
            TileChoice::Fish => {
                egui::ComboBox::from_label("Species")
                    .selected_text(
                        species
                            .iter()
                            .find(|s| s.0 == c.species)
                            .map(|s| format!("{} ({} points)", s.1, s.2))
                            .unwrap_or_else(|| "choose".into()),
                    )
                    .show_ui(ui, |ui| {
                        for (id, name, points) in &species {
                            ui.selectable_value(
                                &mut c.species,
                                id.clone(),
                                format!("{name} ({points} points)"),
                            );
                        }
                    });
            }
            TileChoice::Bubbles => {
                ui.label("Bubbles score nothing (but +1 on Seaweed).");
            }
        }
    }

    fn scores_ui(&mut self, ui: &mut egui::Ui) {
        ui.label(RichText::new("Scores").strong());
        let report = match &self.report {
            Ok(r) => r.clone(),
            Err(e) => {
                ui.label(RichText::new(e).color(style::REFUSAL_RED));
                return;
            }
        };
        egui::Grid::new("otto_scores")
            .num_columns(6)
            .striped(true)
            .show(ui, |ui| {
                for h in ["Rank", "Player", "Placed", "Points", "Left in hand", "Total"] {
                    ui.label(RichText::new(h).strong());
                }
                ui.end_row();
                for p in &report.players {
                    ui.label(if report.winners.contains(&p.name) {
                        format!("{} (winner)", p.rank)
                    } else {
                        p.rank.to_string()
                    });
                    ui.label(&p.name);
                    ui.label(p.tiles_placed.to_string());
                    ui.label(p.placed_points.to_string());
                    let mut hand = self.record.hands.get(&p.name).copied().unwrap_or(0);
                    let r = ui
                        .add(egui::DragValue::new(&mut hand).range(0..=3))
                        .accessible_name(format!("{}: tiles left in hand", p.name));
                    if r.changed() {
                        if hand == 0 {
                            self.record.hands.remove(&p.name);
                        } else {
                            self.record.hands.insert(p.name.clone(), hand);
                        }
                        self.rescore();
                    }
                    ui.label(RichText::new(p.total.to_string()).strong());
                    ui.end_row();
                }
            });
        for line in &report.explanation {
            ui.label(RichText::new(line).small());
        }
    }

    fn moves_ui(&self, ui: &mut egui::Ui) {
        let Ok(report) = &self.report else {
            return;
        };
        ui.label(RichText::new("Moves").strong());
        for m in report.moves.iter().rev() {
            let what = if m.pass {
                "passes".to_string()
            } else {
                let tile = m.placed.as_ref().map_or("tile", |p| p.tile);
                let at = m
                    .placed
                    .as_ref()
                    .map(|p| format!(" on [{}, {}]", p.cell.x, p.cell.y))
                    .unwrap_or_default();
                if m.legal {
                    format!(
                        "{tile}{at}: {} point{}",
                        m.points,
                        if m.points == 1 { "" } else { "s" }
                    )
                } else {
                    format!("{tile}{at}: not allowed ({})", m.reason.as_deref().unwrap_or(""))
                }
            };
            ui.label(format!("{}. {}: {what}", m.index + 1, m.player));
        }
    }

    fn file_ui(&mut self, ui: &mut egui::Ui) {
        ui.horizontal(|ui| {
            ui.label("File:");
            ui.add(egui::TextEdit::singleline(&mut self.file_field).desired_width(220.0))
                .accessible_name("Otto record file");
            let path = PathBuf::from(self.file_field.trim());
            let has_path = !self.file_field.trim().is_empty();
            if ui
                .add_enabled(has_path, egui::Button::new("Save the game"))
                .clicked()
            {
                self.file_message = Some(match fsutil::write_json_atomic(&path, &self.record) {
                    Ok(()) => (
                        false,
                        format!("Saved to {} (`octoref score otto` reads it).", path.display()),
                    ),
                    Err(e) => (true, e.to_string()),
                });
            }
            if ui
                .add_enabled(has_path, egui::Button::new("Load a game"))
                .clicked()
            {
                self.file_message = Some(match fsutil::read_json::<GameRecord>(&path) {
                    Ok(r) => {
                        let saved = self.saved.take();
                        *self = OttoBoard::from_record(r, path.parent().map(Path::to_path_buf));
                        self.saved = saved;
                        self.file_field = path.display().to_string();
                        (false, format!("Loaded {}.", path.display()))
                    }
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

/// Draws a tile on its square; `alpha` < 1 for the preview.
fn draw_tile(painter: &egui::Painter, r: Rect, tile: &Tile, alpha: f32) {
    let fill = TILE.gamma_multiply(alpha);
    painter.rect_filled(r.shrink(3.0), 4.0, fill);
    let c = r.center();
    let mid = |e: Edge| -> Pos2 {
        let h = SQUARE_PT / 2.0 - 3.0;
        match e {
            Edge::N => c + Vec2::new(0.0, -h),
            Edge::S => c + Vec2::new(0.0, h),
            Edge::E => c + Vec2::new(h, 0.0),
            Edge::W => c + Vec2::new(-h, 0.0),
        }
    };
    let arm = Stroke::new(9.0, ARM.gamma_multiply(alpha));
    let text = |s: &str, size: f32| {
        painter.text(
            c,
            egui::Align2::CENTER_CENTER,
            s,
            egui::FontId::proportional(size),
            Color32::BLACK.gamma_multiply(alpha),
        );
    };
    match tile {
        Tile::Arm(a) => {
            painter.line_segment([mid(a.from), c], arm);
            painter.line_segment([c, mid(a.to)], arm);
            // Suckers: a dot on the suckers' side of the open half, looking away from Otto.
            let away = a.to;
            let side = match a.suckers {
                Side::Left => away.to_left(),
                Side::Right => away.to_right(),
            };
            let dot = c + (mid(away) - c) * 0.5 + (mid(side) - c) * 0.3;
            painter.circle_filled(dot, 3.5, Color32::WHITE.gamma_multiply(alpha));
        }
        Tile::End(e) => {
            painter.line_segment([mid(e.from), c], arm);
            painter.circle_filled(c, 8.0, ARM.gamma_multiply(alpha));
            if e.shell {
                painter.circle_stroke(
                    c,
                    13.0,
                    Stroke::new(2.5, Color32::from_rgb(0xE8, 0xB0, 0x40).gamma_multiply(alpha)),
                );
            }
        }
        Tile::Fish(f) => {
            let initial: String = f.species.chars().take(3).collect();
            text(&format!("{initial} {}", f.points), 13.0);
        }
        Tile::Bubbles => {
            for (dx, dy, rad) in [(-8.0, 6.0, 5.0), (5.0, -4.0, 7.0), (9.0, 10.0, 3.5)] {
                painter.circle_stroke(
                    c + Vec2::new(dx, dy),
                    rad,
                    Stroke::new(1.5, OCEAN.gamma_multiply(alpha)),
                );
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board() -> OttoBoard {
        OttoBoard::from_record(new_record(vec!["Ana".into(), "Ben".into()]), None)
    }

    #[test]
    fn a_legal_arm_is_recorded_and_scored_and_an_illegal_one_refused() {
        let mut b = board();
        // Ana starts an arm at the north socket [3, 2], leaving Otto northwards.
        b.select(Cell::new(3, 2));
        *b.chooser_mut() = Chooser {
            choice: TileChoice::Arm,
            from: Edge::S,
            to: Edge::N,
            suckers: Side::Left,
            ..Chooser::default()
        };
        assert!(matches!(b.preview(), Some(Ok(p)) if p.total == 1));
        assert!(b.place());
        assert_eq!(b.record().moves.len(), 1);
        assert_eq!(b.report().unwrap().players[0].placed_points, 1);
        // Ben: an arm whose suckers swap sides.
        b.select(Cell::new(3, 1));
        b.chooser_mut().suckers = Side::Right;
        assert!(!b.place());
        assert!(b.refusal().unwrap().contains("suckers"), "{:?}", b.refusal());
        assert_eq!(b.record().moves.len(), 1);
        b.pass();
        assert_eq!(b.record().moves.last().unwrap().pass, Some(true));
        b.undo();
        b.undo();
        assert!(b.record().moves.is_empty());
    }

    #[test]
    fn the_record_is_the_cli_format_and_kept_in_the_config_dir() {
        let dir = tempfile::tempdir().unwrap();
        let (mut b, problem) = OttoBoard::open(dir.path());
        assert!(problem.is_none());
        b.persist(dir.path()).unwrap();
        assert!(!dir.path().join(GAME_FILE).exists());
        b.select(Cell::new(0, 0));
        b.chooser_mut().choice = TileChoice::Bubbles;
        assert!(!b.place(), "not against a tile");
        b.select(Cell::new(2, 4));
        assert!(b.place());
        b.persist(dir.path()).unwrap();
        let v: serde_json::Value =
            serde_json::from_slice(&std::fs::read(dir.path().join(GAME_FILE)).unwrap()).unwrap();
        assert_eq!(v["moves"][0]["tile"], "bubbles");
        assert_eq!(v["moves"][0]["cell"], serde_json::json!([2, 4]));
        let (back, _) = OttoBoard::open(dir.path());
        assert_eq!(back.record(), b.record());
    }
}
