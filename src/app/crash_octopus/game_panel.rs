//! The game panel: where the game stands (whose turn, or whose drop and the attack order), the
//! Octo-Counter, the buttons that record what happened at the table, the questions waiting for the
//! players, each ship's treasures, the log in plain words, and the final ranking.

use super::Table;
use super::counter_strip;
use super::questions::{Answer, Origin, QuestionKind};
use crate::app::config::PanelId;
use crate::app::shortcuts::Command;
use crate::app::style::{self, Palette};
use crate::games::crash_octopus::{AttackKind, DieTop, Event, Game, Head, Next, PlayerColor, TreasureType};
use egui::{RichText, Ui};

impl Table {
    /// Acts on this frame's shortcut keys.
    pub fn perform(&mut self, commands: &[Command]) -> Option<PanelId> {
        let mut go = None;
        for &cmd in commands {
            match cmd {
                Command::Undo => self.undo(),
                Command::Yes => self.answer_first(|_| true),
                Command::DieBlack => self.answer_first(|a| *a == Answer::Die(Some(DieTop::Black))),
                Command::DieRed => self.answer_first(|a| *a == Answer::Die(Some(DieTop::Red))),
                Command::Show(p) => go = Some(p),
                _ => self.perform_game_key(cmd),
            }
        }
        go
    }

    /// Answers the oldest question with its first choice that `pick` accepts.
    fn answer_first(&mut self, pick: impl Fn(&Answer) -> bool) {
        let (Some(game), Some(q)) = (self.game(), self.questions.first()) else {
            return;
        };
        let id = q.id;
        let camera = self.camera_die();
        if let Some(choice) = q
            .choices_with(game, camera.as_ref())
            .into_iter()
            .find(|c| pick(&c.answer))
        {
            self.answer(id, &choice.answer);
        }
    }

    fn perform_game_key(&mut self, cmd: Command) {
        let Some(game) = self.game() else {
            return;
        };
        let types: Vec<TreasureType> = game.setup().treasures.hierarchy.types().to_vec();
        let players: Vec<PlayerColor> = game.players().to_vec();
        let little = game.setup().modules.little_octopus;
        match game.next() {
            Next::Turn { player } if !player.is_pirate() => {
                let event = match cmd {
                    Command::Number(n) => match types.get(usize::from(n).wrapping_sub(1)) {
                        Some(&t) => self.forms.turn.flick(player, Some(t)),
                        None => return,
                    },
                    Command::Missed => self.forms.turn.flick(player, None),
                    Command::Navigate => self.forms.turn.navigate(player, false),
                    Command::NavigateFailed => self.forms.turn.navigate(player, true),
                    _ => return,
                };
                self.record(event);
            }
            Next::Turn { player } => {
                if cmd == Command::Canon {
                    let e = self.forms.canon.canon(player, little);
                    self.record(e);
                }
            }
            Next::Drop { player, .. } => match cmd {
                Command::Zero => {
                    self.forms.drop.set_hit_ship(None);
                    self.record_drop(player, little);
                }
                Command::Number(n) => {
                    if let Some(&p) = players.get(usize::from(n).wrapping_sub(1)) {
                        self.forms.drop.set_hit_ship(Some(p));
                    }
                }
                Command::Drop => self.record_drop(player, little),
                _ => {}
            },
            Next::Over => {}
        }
    }

    /// Records the drop as set in the form. With no ship hit, the die's top is asked first; a drop
    /// the rules would refuse is refused at once, before any question.
    fn record_drop(&mut self, player: PlayerColor, little: bool) {
        let drop = self.forms.drop.drop(player, little);
        if drop.hit_ship.is_some() {
            self.record(Event::Drop(drop));
            return;
        }
        let Some(game) = self.game() else {
            return;
        };
        if let Err(e) = game.clone().apply(&Event::Drop(drop.clone())) {
            self.refusal = Some(super::plain_refusal(&e));
            return;
        }
        self.refusal = None;
        if !self
            .questions
            .iter()
            .any(|q| matches!(q.kind, QuestionKind::DieTop { .. }))
        {
            self.ask(QuestionKind::DieTop { drop }, Origin::Players);
        }
    }

    /// Draws the panel. Returns a panel to switch to (e.g. set-up for a new game).
    /// `at_table` draws the camera picture with the referee's overlays and rulings, under the
    /// actions.
    pub fn ui(
        &mut self,
        ui: &mut Ui,
        palette: &Palette,
        at_table: &mut dyn FnMut(&mut Ui),
    ) -> Option<PanelId> {
        let mut go = None;
        egui::Panel::right("crash_octopus_log")
            .resizable(true)
            .default_size(380.0)
            .show(ui, |ui| self.log_ui(ui));
        egui::ScrollArea::vertical()
            .auto_shrink([false, false])
            .show(ui, |ui| {
                self.banners_ui(ui);
                let Some(game) = self.game().cloned() else {
                    ui.heading("No game in progress");
                    ui.label("Choose the players, the modules and the beads, then start.");
                    if ui.button("Set up a game").clicked() {
                        go = Some(PanelId::Setup);
                    }
                    ui.add_space(6.0);
                    at_table(ui);
                    return;
                };
                now_ui(ui, palette, &game);
                ui.add_space(4.0);
                counter_strip::show(ui, palette, game.counter().beads(), game.counter().crab());
                ui.separator();
                self.questions_ui(ui, &game);
                if let Some(r) = &self.refusal {
                    card(ui, style::REFUSAL_RED, |ui| {
                        ui.label(RichText::new(format!("Not allowed: {r}")).strong());
                    });
                }
                if game.is_over() {
                    if ranking_ui(ui, palette, &game) {
                        go = Some(PanelId::Setup);
                    }
                } else if self.questions.is_empty() {
                    self.action_ui(ui, palette, &game);
                }
                ui.separator();
                at_table(ui);
                ui.separator();
                ships_ui(ui, palette, &game);
                ui.add_space(6.0);
                ocean_ui(ui, palette, &game);
                ui.add_space(8.0);
                ui.horizontal(|ui| {
                    let undo = ui
                        .add_enabled(
                            self.session
                                .as_ref()
                                .is_some_and(|s| !s.record().events.is_empty()),
                            egui::Button::new("Undo the last event"),
                        )
                        .on_hover_text("Ctrl+Z");
                    if undo.clicked() {
                        self.undo();
                    }
                    if let Some(s) = &self.session {
                        let n = s.record().events.len();
                        let saved = if s.is_dirty() { "saving…" } else { "saved" };
                        ui.label(
                            RichText::new(format!(
                                "{n} event{} recorded, {saved}",
                                if n == 1 { "" } else { "s" }
                            ))
                            .small(),
                        )
                        .on_hover_text(s.path().display().to_string());
                    }
                });
            });
        go
    }

    fn banners_ui(&mut self, ui: &mut Ui) {
        if let Some(r) = &self.recovery {
            let text = r.message();
            let mut dismiss = false;
            card(ui, style::WARNING_AMBER, |ui| {
                ui.label(text);
                dismiss = ui.button("Understood").clicked();
            });
            if dismiss {
                self.recovery = None;
            }
        }
        if let Some(e) = &self.resume_error {
            let text = e.clone();
            let mut dismiss = false;
            card(ui, style::REFUSAL_RED, |ui| {
                ui.label(text);
                dismiss = ui.button("Understood").clicked();
            });
            if dismiss {
                self.resume_error = None;
            }
        }
        if let Some(e) = self.session.as_ref().and_then(|s| s.save_error()) {
            let text = format!(
                "The game could not be saved: {e}. It is kept in memory; nothing is lost while the app stays open."
            );
            let mut retry = false;
            card(ui, style::REFUSAL_RED, |ui| {
                ui.label(text);
                retry = ui.button("Try saving again").clicked();
            });
            if retry {
                self.retry_save();
            }
        }
    }

    fn questions_ui(&mut self, ui: &mut Ui, game: &Game) {
        let mut answered = None;
        let camera = self.camera_die();
        for q in self.questions.iter() {
            card(ui, style::WARNING_AMBER, |ui| {
                let who = match q.origin {
                    Origin::Players => "",
                    Origin::Vision => " (seen by the camera)",
                };
                ui.label(RichText::new(format!("{}{who}", q.prompt_with(camera.as_ref()))).strong());
                ui.horizontal_wrapped(|ui| {
                    for c in q.choices_with(game, camera.as_ref()) {
                        if ui.button(&c.label).clicked() {
                            answered = Some((q.id, c.answer.clone()));
                        }
                    }
                });
            });
        }
        if let Some((id, a)) = answered {
            self.answer(id, &a);
        }
    }

    fn action_ui(&mut self, ui: &mut Ui, palette: &Palette, game: &Game) {
        match game.next() {
            Next::Turn { player } if player.is_pirate() => self.canon_ui(ui, game, player),
            Next::Turn { player } => self.turn_ui(ui, palette, game, player),
            Next::Drop { player, .. } => self.drop_ui(ui, palette, game, player),
            Next::Over => {}
        }
    }

    fn turn_ui(&mut self, ui: &mut Ui, palette: &Palette, game: &Game, player: PlayerColor) {
        ui.label(RichText::new(format!("What did {player} do?")).strong());
        let own: Vec<TreasureType> = loaded_sorted(game, player);
        if !own.is_empty() {
            ui.horizontal_wrapped(|ui| {
                ui.label("Own treasures knocked off by the hit:");
                for t in &own {
                    let mut on = self.forms.turn.toppled.contains(t);
                    if ui.checkbox(&mut on, format!("{t} fell")).changed() {
                        toggle(&mut self.forms.turn.toppled, *t, on);
                    }
                }
            });
        }
        let mut event = None;
        ui.horizontal_wrapped(|ui| {
            ui.label("Flicked a treasure and loaded:");
            for (i, &t) in game.setup().treasures.hierarchy.types().iter().enumerate() {
                let already = game.ship(player).is_some_and(|s| s.holds(t));
                let text = RichText::new(format!("the {t}")).color(style::text_on(palette.treasure(t)));
                let b = egui::Button::new(text).fill(palette.treasure(t));
                let r = ui
                    .add(b)
                    .on_hover_text(if already {
                        format!("key {}; {player} already holds the {t}", i + 1)
                    } else {
                        format!("key {}", i + 1)
                    })
                    .accessible_name(format!("Loaded the {t}"));
                if r.clicked() {
                    event = Some(self.forms.turn.flick(player, Some(t)));
                }
            }
        });
        ui.horizontal_wrapped(|ui| {
            if ui.button("Missed the ship").on_hover_text("key M").clicked() {
                event = Some(self.forms.turn.flick(player, None));
            }
            ui.separator();
            if ui.button("Navigated").on_hover_text("key N").clicked() {
                event = Some(self.forms.turn.navigate(player, false));
            }
            if ui
                .button("Navigation failed: the anchor left the ocean")
                .on_hover_text("key F")
                .clicked()
            {
                event = Some(self.forms.turn.navigate(player, true));
            }
        });
        if game.setup().modules.island {
            island_ui(
                ui,
                game,
                "turn",
                &mut self.forms.turn.island,
                &mut self.forms.turn.closest_to_island,
                "the anchor",
            );
        }
        if let Some(e) = event {
            self.record(e);
        }
    }

    fn canon_ui(&mut self, ui: &mut Ui, game: &Game, player: PlayerColor) {
        ui.label(RichText::new("What did the Pink Pirate's Octo-Canon do?").strong());
        let f = &mut self.forms.canon;
        ui.checkbox(&mut f.touched_head, "The canon touched an octopus head");
        if f.touched_head && game.setup().modules.little_octopus {
            head_ui(ui, &mut f.head, "Touched");
        }
        ui.checkbox(&mut f.failed, "The canon left the ocean (navigation failed)");
        if game.setup().modules.island {
            island_ui(
                ui,
                game,
                "canon",
                &mut f.island,
                &mut f.closest_to_island,
                "the Octo-Canon",
            );
        }
        let little = game.setup().modules.little_octopus;
        if ui.button("Record the canon").on_hover_text("key C").clicked() {
            let e = self.forms.canon.canon(player, little);
            self.record(e);
        }
    }

    fn drop_ui(&mut self, ui: &mut Ui, palette: &Palette, game: &Game, player: PlayerColor) {
        ui.label(RichText::new(format!("Where did {player}'s ink die land?")).strong());
        let little = game.setup().modules.little_octopus;
        if little {
            head_ui(ui, &mut self.forms.drop.head, "Dropped on");
        }
        let mut hit = self.forms.drop.hit_ship;
        ui.horizontal_wrapped(|ui| {
            ui.label("It hit:");
            ui.radio_value(&mut hit, None, "no ship");
            for (i, &p) in game.players().iter().enumerate() {
                ui.radio_value(&mut hit, Some(p), format!("{p}'s ship"))
                    .on_hover_text(format!("key {}", i + 1));
            }
        });
        self.forms.drop.set_hit_ship(hit);
        if let Some(ship) = hit {
            let theirs = loaded_sorted(game, ship);
            if theirs.is_empty() {
                ui.label(format!("{ship}'s ship holds nothing, so nothing can fall."));
            } else {
                ui.horizontal_wrapped(|ui| {
                    ui.label("Fell into the ocean:");
                    for t in &theirs {
                        let mut on = self.forms.drop.toppled.contains(t);
                        if ui.checkbox(&mut on, format!("{t} fell")).changed() {
                            toggle(&mut self.forms.drop.toppled, *t, on);
                        }
                    }
                });
            }
            if player.is_pirate() && ship != PlayerColor::Pink && !self.forms.drop.toppled.is_empty() {
                ui.horizontal_wrapped(|ui| {
                    ui.label("The Pirate steals:");
                    let fell: Vec<TreasureType> = self.forms.drop.toppled.iter().copied().collect();
                    for t in fell {
                        let mut on = self.forms.drop.stolen.contains(&t);
                        if ui.checkbox(&mut on, format!("steals the {t}")).changed() {
                            toggle(&mut self.forms.drop.stolen, t, on);
                        }
                    }
                });
            }
        }
        let _ = palette;
        let label = if hit.is_some() {
            "Record the drop"
        } else {
            "Record the drop (then the die's colour)"
        };
        if ui.button(label).on_hover_text("key D (0: no ship hit)").clicked() {
            self.record_drop(player, little);
        }
    }

    fn log_ui(&self, ui: &mut Ui) {
        ui.heading("What happened");
        egui::ScrollArea::vertical()
            .stick_to_bottom(true)
            .auto_shrink([false, false])
            .show(ui, |ui| {
                if let Some(g) = self.game() {
                    for line in g.log() {
                        ui.label(line);
                    }
                }
                for n in &self.notes {
                    ui.label(RichText::new(n).italics());
                }
            });
    }
}

/// The demo's game, read-only: what the script says is happening, whose turn it is, the
/// counter, the camera with the referee's rulings, the ships, and the ranking at the end.
pub fn demo_ui(
    ui: &mut Ui,
    palette: &Palette,
    demo: &crate::app::demo_game::DemoTable,
    at_table: &mut dyn FnMut(&mut Ui),
) {
    egui::Panel::right("demo_log")
        .resizable(true)
        .default_size(380.0)
        .show(ui, |ui| {
            ui.heading("What happened");
            egui::ScrollArea::vertical()
                .stick_to_bottom(true)
                .auto_shrink([false, false])
                .show(ui, |ui| {
                    if let Some(g) = demo.game() {
                        for line in g.log() {
                            ui.label(line);
                        }
                    }
                });
        });
    egui::ScrollArea::vertical()
        .auto_shrink([false, false])
        .show(ui, |ui| {
            ui.horizontal_wrapped(|ui| {
                ui.label(RichText::new("Demo game").heading().strong());
                if let Some(n) = demo.game_number() {
                    ui.label(format!(
                        "(game {n} of the built-in demo; your own game is kept as it is)"
                    ));
                }
            });
            if let Some(p) = demo.problem() {
                card(ui, style::REFUSAL_RED, |ui| {
                    ui.label(p);
                });
            }
            if !demo.caption().is_empty() {
                card(ui, style::OK_GREEN, |ui| {
                    ui.label(demo.caption());
                });
            }
            let Some(game) = demo.game() else {
                ui.label("The demo is starting…");
                at_table(ui);
                return;
            };
            now_ui(ui, palette, game);
            ui.add_space(4.0);
            counter_strip::show(ui, palette, game.counter().beads(), game.counter().crab());
            ui.separator();
            at_table(ui);
            ui.separator();
            ships_ui(ui, palette, game);
            ui.add_space(6.0);
            ocean_ui(ui, palette, game);
            if game.is_over() {
                ranking_ui(ui, palette, game);
            }
        });
}

fn toggle(set: &mut std::collections::BTreeSet<TreasureType>, t: TreasureType, on: bool) {
    if on {
        set.insert(t);
    } else {
        set.remove(&t);
    }
}

fn loaded_sorted(game: &Game, player: PlayerColor) -> Vec<TreasureType> {
    game.ship(player)
        .map(|s| game.setup().treasures.hierarchy.sorted(s.loaded()))
        .unwrap_or_default()
}

fn head_ui(ui: &mut Ui, head: &mut Head, what: &str) {
    ui.horizontal(|ui| {
        ui.label(format!("{what}:"));
        ui.radio_value(head, Head::Giant, "the giant octopus");
        ui.radio_value(head, Head::Little, "Little Octopus");
    });
}

fn island_ui(
    ui: &mut Ui,
    game: &Game,
    id: &str,
    island: &mut Option<TreasureType>,
    closest: &mut Option<PlayerColor>,
    piece: &str,
) {
    ui.horizontal_wrapped(|ui| {
        let l = ui.label(format!("Nameless Island: {piece} collected"));
        egui::ComboBox::from_id_salt(("island", id))
            .selected_text(island.map_or("nothing".to_string(), |t| format!("the {t}")))
            .show_ui(ui, |ui| {
                ui.selectable_value(island, None, "nothing");
                for &t in game.setup().treasures.hierarchy.types() {
                    ui.selectable_value(island, Some(t), format!("the {t}"));
                }
            })
            .response
            .labelled_by(l.id);
        let l = ui.label("closest to the island at the start of the turn:");
        egui::ComboBox::from_id_salt(("closest", id))
            .selected_text(closest.map_or("not measured".to_string(), |p| p.to_string()))
            .show_ui(ui, |ui| {
                ui.selectable_value(closest, None, "not measured");
                for &p in game.players() {
                    ui.selectable_value(closest, Some(p), p.as_str());
                }
            })
            .response
            .labelled_by(l.id);
    });
}

/// A framed block with a coloured edge.
fn card(ui: &mut Ui, edge: egui::Color32, add: impl FnOnce(&mut Ui)) {
    egui::Frame::group(ui.style())
        .stroke(egui::Stroke::new(2.0, edge))
        .inner_margin(egui::Margin::same(8))
        .show(ui, |ui| {
            ui.set_width(ui.available_width());
            add(ui);
        });
}

/// Whose action comes next, big.
fn now_ui(ui: &mut Ui, palette: &Palette, game: &Game) {
    match game.next() {
        Next::Turn { player } => {
            ui.horizontal_wrapped(|ui| {
                ui.heading(format!("Turn {}:", game.turn()));
                style::player_chip(ui, palette, player);
                ui.heading(if player.is_pirate() {
                    "the Pink Pirate flicks the Octo-Canon"
                } else {
                    "flick a treasure or navigate"
                });
            });
        }
        Next::Drop { player, attack } => {
            let what = match attack.kind {
                AttackKind::Counter => "Octopus attack!",
                AttackKind::Final => "The final octopus attack!",
                AttackKind::Pirate => "The Pink Pirate's own octopus attack!",
            };
            ui.horizontal_wrapped(|ui| {
                ui.heading(what);
                style::player_chip(ui, palette, player);
                ui.heading("drops the ink die");
            });
            ui.horizontal_wrapped(|ui| {
                ui.label("Drop order:");
                for (i, &p) in attack.order.iter().enumerate() {
                    let state = match i.cmp(&attack.done) {
                        std::cmp::Ordering::Less => "done",
                        std::cmp::Ordering::Equal => "now",
                        std::cmp::Ordering::Greater => "to come",
                    };
                    ui.label(format!("{}. {p} ({state})", i + 1));
                }
            });
        }
        Next::Over => {
            let reason = game.ending().map(|e| e.reason.to_string()).unwrap_or_default();
            ui.heading(format!("The game is over: {reason}."));
        }
    }
}

fn ships_ui(ui: &mut Ui, palette: &Palette, game: &Game) {
    ui.label(RichText::new("Ships").strong());
    let active = game.next().player();
    egui::Grid::new("ships")
        .num_columns(3)
        .spacing([12.0, 6.0])
        .show(ui, |ui| {
            for s in game.ships() {
                style::player_chip(ui, palette, s.owner);
                let loaded = loaded_sorted(game, s.owner);
                let n = loaded.len();
                let mark = if active == Some(s.owner) { "  (now)" } else { "" };
                ui.label(format!("{n} type{}{mark}", if n == 1 { "" } else { "s" }));
                ui.horizontal(|ui| {
                    for t in loaded {
                        style::treasure_chip(ui, palette, t);
                    }
                });
                ui.end_row();
            }
        });
}

fn ocean_ui(ui: &mut Ui, palette: &Palette, game: &Game) {
    ui.horizontal_wrapped(|ui| {
        ui.label(RichText::new("On no ship:").strong());
        for &t in game.setup().treasures.hierarchy.types() {
            let n = game.ocean().count(t);
            style::chip(ui, &format!("{t} × {n}"), palette.treasure(t));
        }
    });
}

/// The final ranking with the reasons; returns true when "New game" is pressed.
fn ranking_ui(ui: &mut Ui, palette: &Palette, game: &Game) -> bool {
    let Some(ending) = game.ending() else {
        return false;
    };
    let mut new_game = false;
    card(ui, style::OK_GREEN, |ui| {
        ui.heading("Final ranking");
        egui::Grid::new("ranking")
            .num_columns(4)
            .spacing([14.0, 6.0])
            .show(ui, |ui| {
                ui.label(RichText::new("Rank").strong());
                ui.label(RichText::new("Player").strong());
                ui.label(RichText::new("Types").strong());
                ui.label(RichText::new("Loaded").strong());
                ui.end_row();
                for e in &ending.ranking.entries {
                    ui.label(if e.winner {
                        format!("{} (winner)", e.rank)
                    } else {
                        e.rank.to_string()
                    });
                    match e.name.parse::<PlayerColor>() {
                        Ok(p) => {
                            style::player_chip(ui, palette, p);
                        }
                        Err(_) => {
                            ui.label(&e.name);
                        }
                    }
                    ui.label(e.types.to_string());
                    ui.horizontal(|ui| {
                        for &t in &e.loaded {
                            style::treasure_chip(ui, palette, t);
                        }
                    });
                    ui.end_row();
                }
            });
        ui.add_space(4.0);
        for line in &ending.ranking.explanation {
            ui.label(line);
        }
        new_game = ui.button("New game").clicked();
    });
    new_game
}
