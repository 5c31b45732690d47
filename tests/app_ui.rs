//! The app driven by its labels (egui_kittest, rendered headless on Mesa's software Vulkan for the
//! snapshots). Each test gets its own config directory, as a family's machine would have.

// Helpers outside `#[test]` functions are test code too: a failed unwrap is a failed test.
#![allow(clippy::unwrap_used, clippy::panic)]

use egui::accesskit::Role;
use egui_kittest::kittest::{NodeT, Queryable};
use egui_kittest::{Harness, SnapshotResults};
use octoref::app::config::{AppState, ConfigDir, PanelId, SetupDraft};
use octoref::app::crash_octopus::questions::{Origin, QuestionKind};
use octoref::app::{AppOptions, OctorefApp};
use octoref::capture::{DemoReason, SourceChoice};
use octoref::cli::AppArgs;
use octoref::games::crash_octopus::{PlayerColor, TreasureType};
use std::path::Path;

const WINDOW: egui::Vec2 = egui::vec2(1280.0, 800.0);

fn app_in(dir: &Path) -> Harness<'static, OctorefApp> {
    let options = AppOptions {
        config_dir: dir.to_path_buf(),
        args: AppArgs::default(),
        source: None,
        cameras: Some(Ok(Vec::new())),
    };
    let mut h = Harness::builder()
        .with_size(WINDOW)
        .build_eframe(move |cc| OctorefApp::new(&cc.egui_ctx, options));
    h.run();
    h
}

/// Saves a set-up draft as if the family had prepared it last time.
fn with_draft(dir: &Path, beads: &str, sailors: &[PlayerColor]) {
    let state = AppState {
        setup: SetupDraft {
            beads: beads.into(),
            sailors: sailors.to_vec(),
            ..SetupDraft::default()
        },
        ..AppState::default()
    };
    ConfigDir::new(dir).save_state(&state).unwrap();
}

fn click(h: &mut Harness<'_, OctorefApp>, label: &str) {
    h.get_by_label(label).scroll_to_me();
    h.run();
    h.get_by_label(label).click();
    h.run();
}

fn has_text(h: &Harness<'_, OctorefApp>, part: &str) -> bool {
    h.query_all_by_label_contains(part).next().is_some()
}

fn start_game(h: &mut Harness<'_, OctorefApp>) {
    click(h, "Start the game");
    assert_eq!(h.state().state().panel, PanelId::Game);
}

fn saved_events(h: &Harness<'_, OctorefApp>) -> usize {
    let path = h.state().state().last_game.clone().unwrap();
    let v: serde_json::Value = serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap();
    v["events"].as_array().unwrap().len()
}

#[test]
fn set_up_a_game_record_a_load_and_see_the_counter_move() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = app_in(dir.path());
    // Three sailors: add blue, then make it play first.
    h.get_by_role_and_label(Role::CheckBox, "blue").click();
    h.run();
    click(&mut h, "Move blue earlier");
    click(&mut h, "Move blue earlier");
    assert!(
        has_text(&h, "4 of each of captain"),
        "3 players use 4 of each type"
    );
    start_game(&mut h);
    assert!(has_text(&h, "Players in turn order: blue, orange and green."));
    assert!(has_text(&h, "stepped over 0 of 16 beads"));
    click(&mut h, "Loaded the gold");
    assert!(has_text(&h, "blue loads the gold."));
    assert!(has_text(&h, "stepped over 1 of 16 beads"));
    assert!(has_text(&h, "orange"));
    assert_eq!(saved_events(&h), 1, "every event is on disk");
    assert_eq!(
        h.state().table().game().unwrap().next().player(),
        Some(PlayerColor::Orange)
    );
}

#[test]
fn undo_takes_back_the_last_event() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = app_in(dir.path());
    start_game(&mut h);
    click(&mut h, "Loaded the gem");
    click(&mut h, "Missed the ship");
    assert!(has_text(&h, "green flicks and misses the ship"));
    assert_eq!(saved_events(&h), 2);
    click(&mut h, "Undo the last event");
    assert!(!has_text(&h, "green flicks and misses the ship"));
    assert!(has_text(&h, "stepped over 1 of 16 beads"));
    assert_eq!(saved_events(&h), 1);
    // Ctrl+Z does the same.
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
    h.run();
    assert!(has_text(&h, "stepped over 0 of 16 beads"));
    assert_eq!(saved_events(&h), 0);
}

#[test]
fn an_illegal_event_is_refused_with_its_reason_and_changes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = app_in(dir.path());
    start_game(&mut h);
    click(&mut h, "Loaded the gold");
    click(&mut h, "Missed the ship");
    click(&mut h, "Loaded the gold");
    assert!(
        has_text(
            &h,
            "Not allowed: Orange already has the gold on its ship and may not load a second one (BAD No.2)"
        ),
        "the refusal says which rule"
    );
    assert_eq!(saved_events(&h), 2);
    assert!(has_text(&h, "stepped over 1 of 16 beads"));
    // The next accepted event clears the refusal.
    click(&mut h, "Loaded the gem");
    assert!(!has_text(&h, "Not allowed"));
}

#[test]
fn keys_record_the_frequent_actions() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = app_in(dir.path());
    start_game(&mut h);
    h.key_press(egui::Key::Num1);
    h.run();
    assert!(has_text(&h, "orange loads the captain."));
    h.key_press(egui::Key::M);
    h.run();
    assert!(has_text(&h, "green flicks and misses the ship"));
    h.key_press(egui::Key::N);
    h.run();
    assert!(has_text(&h, "orange navigates"));
    h.key_press(egui::Key::F1);
    h.run();
    assert!(has_text(&h, "Keyboard shortcuts"));
    assert!(has_text(&h, "Undo the last recorded event"));
}

#[test]
fn a_restart_resumes_the_saved_game() {
    let dir = tempfile::tempdir().unwrap();
    {
        let mut h = app_in(dir.path());
        start_game(&mut h);
        click(&mut h, "Loaded the chest");
        click(&mut h, "Loaded the goblet");
    }
    let h = app_in(dir.path());
    assert_eq!(h.state().state().panel, PanelId::Game);
    assert!(has_text(&h, "orange loads the chest."));
    assert!(has_text(&h, "green loads the goblet."));
    assert!(has_text(&h, "stepped over 2 of 16 beads"));
}

#[test]
fn a_damaged_log_is_recovered_and_reported() {
    let dir = tempfile::tempdir().unwrap();
    {
        let mut h = app_in(dir.path());
        start_game(&mut h);
        click(&mut h, "Loaded the chest");
        click(&mut h, "Loaded the goblet");
    }
    let state: AppState =
        serde_json::from_slice(&std::fs::read(ConfigDir::new(dir.path()).state_file()).unwrap()).unwrap();
    let log = state.last_game.unwrap();
    let text = std::fs::read_to_string(&log).unwrap();
    let cut = text.rfind("goblet").unwrap();
    std::fs::write(&log, &text[..cut]).unwrap();
    let mut h = app_in(dir.path());
    assert!(has_text(&h, "Recovered the set-up and the first 1 event"));
    assert!(has_text(&h, "stepped over 1 of 16 beads"));
    let kept = log.with_file_name(format!(
        "{}.damaged-1.json",
        log.file_stem().unwrap().to_string_lossy()
    ));
    assert_eq!(std::fs::read_to_string(kept).unwrap(), &text[..cut]);
    click(&mut h, "Understood");
    assert!(!has_text(&h, "Recovered the set-up"));
}

#[test]
fn confirm_a_load_seen_on_a_ship() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = app_in(dir.path());
    start_game(&mut h);
    h.state_mut().table_mut().ask(
        QuestionKind::LoadSeen {
            player: PlayerColor::Orange,
            treasure: TreasureType::Captain,
        },
        Origin::Vision,
    );
    h.run();
    assert!(has_text(&h, "A captain seems to have landed on orange's ship"));
    click(&mut h, "Yes: orange loaded the captain");
    assert!(has_text(&h, "orange loads the captain."));
    assert!(has_text(&h, "stepped over 1 of 16 beads"));
    // Overridden: the camera saw a gem but green loaded the gold.
    h.state_mut().table_mut().ask(
        QuestionKind::LoadSeen {
            player: PlayerColor::Green,
            treasure: TreasureType::Gem,
        },
        Origin::Vision,
    );
    h.run();
    click(&mut h, "No, the gold");
    assert!(has_text(&h, "green loads the gold."));
}

#[test]
fn an_octopus_attack_takes_drops_in_order_and_asks_the_die_colour() {
    let dir = tempfile::tempdir().unwrap();
    with_draft(
        dir.path(),
        "BKBBBB",
        &[PlayerColor::Orange, PlayerColor::Green, PlayerColor::Blue],
    );
    let mut h = app_in(dir.path());
    start_game(&mut h);
    click(&mut h, "Loaded the gold");
    click(&mut h, "Loaded the gem");
    assert!(has_text(&h, "octopus attack!"));
    assert!(has_text(&h, "1. blue (now)"));
    assert!(has_text(&h, "2. orange (to come)"));
    // Blue's die hits orange's ship and the gold falls.
    h.get_by_role_and_label(Role::RadioButton, "orange's ship")
        .click();
    h.run();
    h.get_by_role_and_label(Role::CheckBox, "gold fell").click();
    h.run();
    click(&mut h, "Record the drop");
    assert!(has_text(&h, "1. blue (done)"));
    // Orange's die hits no ship: the die's colour is asked before the drop is recorded.
    click(&mut h, "Record the drop (then the die's colour)");
    assert!(has_text(
        &h,
        "orange's ink die hit no ship. Which colour is on top?"
    ));
    assert_eq!(saved_events(&h), 3);
    click(&mut h, "Red: move a head");
    assert_eq!(saved_events(&h), 4);
    assert!(has_text(&h, "3. green (now)"));
    // Keys: 0 = no ship, then B = black.
    h.key_press(egui::Key::Num0);
    h.run();
    h.key_press(egui::Key::B);
    h.run();
    assert_eq!(saved_events(&h), 5);
    assert!(has_text(&h, "Turn 3:"));
    let game = h.state().table().game().unwrap();
    assert!(game.ship(PlayerColor::Orange).unwrap().loaded().is_empty());
}

#[test]
fn the_final_ranking_explains_the_tie_break() {
    let dir = tempfile::tempdir().unwrap();
    // Two beads: the second load reaches the end and the final attack follows.
    with_draft(dir.path(), "BB", &[PlayerColor::Orange, PlayerColor::Green]);
    let mut h = app_in(dir.path());
    start_game(&mut h);
    click(&mut h, "Loaded the gem");
    click(&mut h, "Loaded the gold");
    assert!(has_text(&h, "The final octopus attack!"));
    for _ in 0..4 {
        click(&mut h, "Record the drop (then the die's colour)");
        click(&mut h, "Black: move a tentacle");
    }
    assert!(has_text(&h, "The game is over"));
    assert!(has_text(&h, "Final ranking"));
    assert!(has_text(&h, "green wins."));
    assert!(has_text(
        &h,
        "green and orange both have 1 type; green has the gold, orange does not."
    ));
    assert!(
        h.query_by_label("Loaded the gold").is_none(),
        "no more actions once over"
    );
    click(&mut h, "New game");
    assert_eq!(h.state().state().panel, PanelId::Setup);
    // A finished game does not ask before starting another.
    start_game(&mut h);
    assert!(has_text(&h, "stepped over 0 of 2 beads"));
}

#[test]
fn starting_over_a_game_in_progress_asks_first() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = app_in(dir.path());
    start_game(&mut h);
    click(&mut h, "Loaded the gold");
    let first = h.state().state().last_game.clone().unwrap();
    click(&mut h, "Set-up");
    click(&mut h, "Start the game");
    assert!(has_text(&h, "A game is in progress"));
    click(&mut h, "Keep playing");
    click(&mut h, "Game");
    assert!(has_text(&h, "stepped over 1 of 16 beads"));
    click(&mut h, "Set-up");
    click(&mut h, "Start the game");
    click(&mut h, "Yes, start a new game");
    assert!(has_text(&h, "stepped over 0 of 16 beads"));
    assert_ne!(h.state().state().last_game.clone().unwrap(), first);
    assert!(first.exists(), "the old game stays saved");
}

#[test]
fn a_set_up_the_rules_refuse_says_why_and_cannot_start() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = app_in(dir.path());
    h.get_by_role_and_label(Role::CheckBox, "green").click();
    h.run();
    assert!(has_text(
        &h,
        "Players: 1 players other than the Pink Pirate; expected 2 to 4"
    ));
    assert!(h.get_by_label("Start the game").accesskit_node().is_disabled());
    let field = h.get_by_role(Role::TextInput);
    field.focus();
    field.type_text("X");
    h.run();
    // Typing in the beads never triggers shortcuts, and a bad bead is named.
    assert!(has_text(&h, "bead 17 is 'X'"));
}

#[test]
fn theme_and_large_type_are_remembered() {
    let dir = tempfile::tempdir().unwrap();
    {
        let mut h = app_in(dir.path());
        h.get_by_role_and_label(Role::CheckBox, "Dark colours").click();
        h.run();
        h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::L);
        h.run();
        assert_eq!(h.ctx.zoom_factor(), octoref::app::config::LARGE_TYPE_ZOOM);
    }
    let h = app_in(dir.path());
    assert_eq!(h.state().state().theme, octoref::app::config::ThemeChoice::Dark);
    assert!(h.state().state().large_type);
    assert_eq!(h.ctx.theme(), egui::Theme::Dark);
}

/// Whether a key cell of the Help panel names `key`: "F4" names F4, "B / R" names B and R, and a
/// run "1 … 6" names every key from its first to its last.
fn help_names_key(cell: &str, key: &str) -> bool {
    if let Some((first, last)) = cell.split_once(" … ") {
        return [first, last].iter().all(|k| k.len() == key.len()) && first <= key && key <= last;
    }
    cell.split(" / ").any(|k| k == key)
}

#[test]
fn every_bound_shortcut_is_listed_in_help() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = app_in(dir.path());
    h.key_press(egui::Key::F1);
    h.run();
    assert_eq!(h.state().state().panel, PanelId::Help);
    // A label's text is its accessible value.
    let shown: Vec<String> = h
        .query_all_by_role(Role::Label)
        .filter_map(|n| n.accesskit_node().value())
        .collect();
    let bound = octoref::app::shortcuts::bindings()
        .map(|b| h.ctx.format_shortcut(&b.shortcut))
        .collect::<Vec<_>>();
    // The panels' F-keys the audit found missing are among them.
    for key in ["F4", "F5", "F6"] {
        assert!(bound.iter().any(|b| b == key), "{key} is not bound");
    }
    let missing: Vec<&String> = bound
        .iter()
        .filter(|key| !shown.iter().any(|cell| help_names_key(cell, key)))
        .collect();
    assert!(missing.is_empty(), "bound but not in Help: {missing:?}");
}

/// The window the app opens with (`INITIAL_WINDOW`), in pixels; with large type on, its top bar
/// once pushed "Help" off the right edge.
const OPENING_WINDOW_PX: egui::Vec2 = egui::vec2(1360.0, 860.0);

#[test]
fn with_large_type_at_1360_px_every_top_bar_tab_is_on_screen_and_clicks() {
    let dir = tempfile::tempdir().unwrap();
    let state = AppState {
        large_type: true,
        ..AppState::default()
    };
    ConfigDir::new(dir.path()).save_state(&state).unwrap();
    let options = AppOptions {
        config_dir: dir.path().to_path_buf(),
        args: AppArgs::default(),
        source: None,
        cameras: Some(Ok(Vec::new())),
    };
    // A real window's size in points shrinks as the zoom grows (its pixels stay); the harness's
    // size is in points and does not follow the zoom, so it is given the zoomed size.
    let zoom = octoref::app::config::LARGE_TYPE_ZOOM;
    let mut h = Harness::builder()
        .with_size(OPENING_WINDOW_PX / zoom)
        .build_eframe(move |cc| OctorefApp::new(&cc.egui_ctx, options));
    h.run();
    assert_eq!(h.ctx.zoom_factor(), zoom);
    let window = h.ctx.content_rect();
    for (label, panel) in [
        ("Help", PanelId::Help),
        ("Teach", PanelId::Teach),
        ("Calibrate", PanelId::Calibrate),
        ("Sources", PanelId::Sources),
        ("Otto", PanelId::Otto),
        ("Octocube", PanelId::Octocube),
        ("Game", PanelId::Game),
        ("Set-up", PanelId::Setup),
    ] {
        // The top bar is drawn first, so its tab is the first button with the label.
        let tab = h
            .query_all_by_role_and_label(Role::Button, label)
            .next()
            .unwrap_or_else(|| panic!("no {label} tab"));
        let rect = tab.rect();
        assert!(
            window.contains_rect(rect),
            "the {label} tab at {rect:?} is cut off by the window {window:?}"
        );
        // Nor is it partly hidden under another control (the theme and large-type switches).
        let covering: Vec<String> = h
            .query_all_by(|n| matches!(n.role(), Role::Button | Role::CheckBox))
            .filter(|n| n.accesskit_node().label().as_deref() != Some(label))
            .filter(|n| {
                let overlap = n.rect().intersect(rect);
                overlap.width() > 0.0 && overlap.height() > 0.0
            })
            .map(|n| format!("{:?}", n.accesskit_node().label()))
            .collect();
        assert!(covering.is_empty(), "the {label} tab is under {covering:?}");
        tab.click();
        h.run();
        assert_eq!(h.state().state().panel, panel, "clicked {label}");
    }
}

#[test]
fn snapshots_of_the_main_screens() {
    let mut results = SnapshotResults::new();
    let dir = tempfile::tempdir().unwrap();
    with_draft(
        dir.path(),
        "BBBKBBBKBBKBBKKK",
        &[PlayerColor::Orange, PlayerColor::Green, PlayerColor::Blue],
    );
    let mut h = app_in(dir.path());
    results.add(h.try_snapshot("setup"));
    start_game(&mut h);
    for label in [
        "Loaded the gold",
        "Loaded the gem",
        "Missed the ship",
        "Loaded the captain",
    ] {
        click(&mut h, label);
    }
    results.add(h.try_snapshot("game_turn"));
    // Green's chest moves the crab onto the first black bead.
    click(&mut h, "Loaded the chest");
    assert!(has_text(&h, "octopus attack!"));
    results.add(h.try_snapshot("game_attack"));
    click(&mut h, "Record the drop (then the die's colour)");
    results.add(h.try_snapshot("game_die_question"));
    h.get_by_role_and_label(Role::CheckBox, "Dark colours").click();
    h.run();
    results.add(h.try_snapshot("game_dark"));
    h.get_by_role_and_label(Role::CheckBox, "Dark colours").click();
    h.run();
    click(&mut h, "Octocube");
    set_text(&mut h, "Name of player 1", "Ana");
    set_text(&mut h, "Name of player 2", "Ben");
    for (label, v) in [
        ("Ana: VP tokens", 17.0),
        ("Ana: coins", 2.0),
        ("Ana: starfish on white", 2.0),
        ("Ana: pearl on dark blue", 3.0),
        ("Ben: VP tokens", 21.0),
        ("Ben: amphora on green", 2.0),
        ("Ben: starfish on light blue", 2.0),
    ] {
        set_number(&mut h, label, v);
    }
    h.get_by_label("Octocube score sheet").scroll_to_me();
    h.run();
    results.add(h.try_snapshot("octocube"));
    click(&mut h, "Sources");
    results.add(h.try_snapshot("sources"));
    click(&mut h, "Otto");
    set_text(&mut h, "Otto players", "Ana, Ben");
    click(&mut h, "New Otto game");
    for (square, player) in [
        ("Square [3, 2]", "Place it for Ana"),
        ("Square [3, 1]", "Place it for Ben"),
    ] {
        click(&mut h, square);
        click(&mut h, player);
    }
    click(&mut h, "Square [3, 0]");
    h.get_by_role_and_label(Role::RadioButton, "End").click();
    h.run();
    h.get_by_role_and_label(Role::CheckBox, "holds a shell").click();
    h.run();
    click(&mut h, "Place it for Ana");
    click(&mut h, "Square [6, 3]");
    h.get_by_role_and_label(Role::RadioButton, "Arm").click();
    h.run();
    results.add(h.try_snapshot("otto"));
}

/// Steps the app (a live source keeps repainting, so `run` would not settle) until `text` shows.
fn step_until(h: &mut Harness<'_, OctorefApp>, text: &str) {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    while std::time::Instant::now() < deadline {
        h.step();
        if has_text(h, text) {
            return;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    panic!("{text:?} never showed");
}

fn click_live(h: &mut Harness<'_, OctorefApp>, label: &str) {
    h.get_by_label(label).click();
    h.run_steps(3);
}

#[test]
fn a_camera_that_disconnects_and_comes_back_is_reported_and_the_game_survives() {
    use octoref::capture::{FakeSource, FakeStep, PixelFormat, WorkerConfig};
    use std::time::Duration;
    let dir = tempfile::tempdir().unwrap();
    let mut h = app_in(dir.path());
    start_game(&mut h);
    click(&mut h, "Loaded the gold");
    let fake = FakeSource::new(
        320,
        240,
        Some(30.0),
        vec![
            FakeStep::Frames {
                count: 15,
                pixel: PixelFormat::Mjpeg,
            },
            FakeStep::Disconnect {
                for_ms: 1500,
                resolution: None,
            },
            FakeStep::Frames {
                count: 100_000,
                pixel: PixelFormat::Mjpeg,
            },
        ],
    );
    let config = WorkerConfig {
        backoff_first: Duration::from_millis(50),
        backoff_max: Duration::from_millis(200),
        reconnected_notice: Duration::from_millis(1500),
        ..WorkerConfig::default()
    };
    let ctx = h.ctx.clone();
    h.state_mut()
        .use_source(&ctx, "fake camera", fake, config)
        .unwrap();
    step_until(&mut h, "Source: fake camera (live)");
    for _ in 0..200 {
        if h.state().live().texture().is_some() {
            break;
        }
        h.step();
        std::thread::sleep(Duration::from_millis(10));
    }
    assert_eq!(
        h.state().live().texture().map(|t| t.size()),
        Some([320, 240]),
        "the picture is shown"
    );
    step_until(&mut h, "Camera: Camera lost");
    assert!(has_text(&h, "The game is kept."));
    // The game goes on while the camera is away.
    click_live(&mut h, "Missed the ship");
    assert!(has_text(&h, "green flicks and misses the ship"));
    step_until(&mut h, "is back");
    step_until(&mut h, "Source: fake camera (live)");
    let game = h.state().table().game().unwrap();
    assert_eq!(game.counter().crab(), 1);
    assert_eq!(saved_events(&h), 2);
    assert!(game.ship(PlayerColor::Orange).unwrap().holds(TreasureType::Gold));
    // The Sources panel tells the story.
    h.key_press(egui::Key::F4);
    h.run_steps(3);
    assert!(has_text(&h, "Now: fake camera (live)"));
    assert!(has_text(&h, "lost 1 times, back 1 times"));
    assert!(has_text(&h, "Recent connection history"));
}

#[test]
fn the_sources_panel_refuses_a_missing_video() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = app_in(dir.path());
    click(&mut h, "Sources");
    assert!(has_text(&h, "Now: no source chosen"));
    assert!(has_text(&h, "No camera is connected."));
    let field = h.get_by_label("Video file:");
    field.focus();
    field.type_text("/no/such/video.mp4");
    h.run();
    click(&mut h, "Play the video");
    assert!(has_text(&h, "no such video file"));
    assert!(has_text(&h, "Source: no source chosen"));
}

fn set_number(h: &mut Harness<'_, OctorefApp>, label: &str, value: f64) {
    h.get_by_label(label).set_value_accesskit(value);
    h.run();
}

fn set_text(h: &mut Harness<'_, OctorefApp>, label: &str, text: &str) {
    h.get_by_label(label).scroll_to_me();
    h.run();
    h.get_by_label(label).focus();
    h.run();
    h.key_combination_modifiers(egui::Modifiers::COMMAND, &[egui::Key::A]);
    h.run();
    h.get_by_label(label).type_text(text);
    h.run();
}

#[test]
fn fill_an_octocube_sheet_and_read_the_winner() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = app_in(dir.path());
    click(&mut h, "Octocube");
    set_text(&mut h, "Name of player 1", "Ana");
    set_text(&mut h, "Name of player 2", "Ben");
    // Ana: the cli.md example board.
    set_number(&mut h, "Ana: VP tokens", 17.0);
    set_number(&mut h, "Ana: coins", 2.0);
    set_number(&mut h, "Ana: starfish on white", 2.0);
    set_number(&mut h, "Ana: starfish on light blue", 1.0);
    set_number(&mut h, "Ana: pearl on dark blue", 3.0);
    // Ben scores with Score actions instead of tokens.
    click(&mut h, "Ben: add a Score action");
    set_text(&mut h, "Ben: Score action 1", "diamond diamond diamond coin");
    set_number(&mut h, "Ben: diamond on green", 3.0);
    let score = h.state().octocube().score().unwrap().clone();
    let ana = &score.players[0];
    let ben = &score.players[1];
    assert_eq!(ana.name, "Ana");
    assert_eq!(ana.coins_vp, 6);
    assert_eq!(ben.coins, 1, "the Score action's coin counts");
    assert!(ben.retrieval_vp > 0);
    let winner = &score.winners[0];
    assert!(has_text(&h, "1 (winner)"));
    assert!(
        score.explanation.iter().any(|l| l.contains(winner.as_str())),
        "the explanation names the winner"
    );
    for line in &score.explanation {
        assert!(has_text(&h, line), "shown: {line}");
    }
    // A fourth player... and a third, then remove one.
    click(&mut h, "Add a player");
    assert_eq!(h.state().octocube().input().players.len(), 3);
    // The sheet is the `score octocube` format, kept in the config dir.
    let kept: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.path().join("octocube_sheet.json")).unwrap()).unwrap();
    assert_eq!(kept["players"][0]["tiles"]["pearl"]["dark_blue"], 3);
    assert_eq!(kept["players"][1]["retrievals"][0][0], "diamond");
    // Save and load by path.
    let out = dir.path().join("final.json");
    set_text(&mut h, "File:", out.to_str().unwrap());
    click(&mut h, "Save the sheet");
    assert!(out.exists());
    assert!(has_text(&h, "Saved to"));
}

#[test]
fn an_impossible_octocube_sheet_says_which_field() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = app_in(dir.path());
    click(&mut h, "Octocube");
    set_text(&mut h, "Name of player 2", "Player 1");
    assert!(has_text(&h, "Cannot score yet: players[1].name"));
}

#[test]
fn place_otto_tiles_and_see_an_illegal_one_refused_with_its_reason() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = app_in(dir.path());
    click(&mut h, "Otto");
    set_text(&mut h, "Otto players", "Ana, Ben");
    click(&mut h, "New Otto game");
    // Ana starts an arm at the north socket: Arm, joins toward Otto south, open north, suckers left.
    click(&mut h, "Square [3, 2]");
    assert!(has_text(&h, "Allowed: 1 point (1 base)."));
    click(&mut h, "Place it for Ana");
    assert!(has_text(&h, "1. Ana: arm on [3, 2]: 1 point"));
    // Ben extends it with the suckers on the other side: refused, with the rule.
    click(&mut h, "Square [3, 1]");
    h.get_by_role_and_label(Role::RadioButton, "right").click();
    h.run();
    assert!(has_text(
        &h,
        "Not allowed: this tile has suckers on the opposite side to the arm it joins"
    ));
    click(&mut h, "Place it for Ben");
    assert!(has_text(
        &h,
        "Refused: this tile has suckers on the opposite side"
    ));
    assert_eq!(h.state().otto().record().moves.len(), 1);
    // With the suckers on the same side it goes, on a Seaweed-free square: 1 point.
    h.get_by_role_and_label(Role::RadioButton, "left").click();
    h.run();
    click(&mut h, "Place it for Ben");
    assert_eq!(h.state().otto().record().moves.len(), 2);
    // Ana completes it with a shell End tile on [3, 0]: (2 + 2 x 2) = 6 points.
    click(&mut h, "Square [3, 0]");
    h.get_by_role_and_label(Role::RadioButton, "End").click();
    h.run();
    h.get_by_role_and_label(Role::CheckBox, "holds a shell").click();
    h.run();
    assert!(has_text(&h, "Allowed: 6 points"));
    click(&mut h, "Place it for Ana");
    let report = h.state().otto().report().unwrap().clone();
    assert_eq!(report.players[0].placed_points, 7);
    assert_eq!(report.players[1].placed_points, 1);
    // Hands at the end: Ana keeps 2 tiles.
    set_number(&mut h, "Ana: tiles left in hand", 2.0);
    let report = h.state().otto().report().unwrap();
    assert_eq!(report.players[0].hand_penalty, 2);
    assert_eq!(report.players[0].total, 5);
    assert!(has_text(&h, "1 (winner)"));
    let kept: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.path().join("otto_game.json")).unwrap()).unwrap();
    assert_eq!(kept["hands"]["Ana"], 2);
    assert_eq!(kept["moves"][2]["shell"], true);
}

#[test]
fn the_pink_pirate_and_the_island_are_recorded_through_their_forms() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = app_in(dir.path());
    h.get_by_role_and_label(
        Role::CheckBox,
        "Pink Pirate: one more player, plays pink with the Octo-Canon",
    )
    .click();
    h.run();
    h.get_by_role_and_label(
        Role::CheckBox,
        "Nameless Island: anchors may collect the island's treasure",
    )
    .click();
    h.run();
    start_game(&mut h);
    assert!(has_text(&h, "Players in turn order: orange, green and pink."));
    // Orange loads the gold; green's anchor collects the gem from the island, orange's anchor
    // having been the closest at the start of the turn.
    click(&mut h, "Loaded the gold");
    h.get_by_label("Nameless Island: the anchor collected").click();
    h.run();
    h.get_by_label("the gem").click();
    h.run();
    h.get_by_label("closest to the island at the start of the turn:")
        .click();
    h.run();
    h.get_by_role_and_label(Role::Button, "orange").click();
    h.run();
    click(&mut h, "Navigated");
    assert!(
        has_text(&h, "green collects the gem from the island"),
        "the island form is recorded"
    );
    // Pink: the canon touches the head, the solo attack hits orange's ship and steals the gold.
    assert!(has_text(&h, "the Pink Pirate flicks the Octo-Canon"));
    h.get_by_role_and_label(Role::CheckBox, "The canon touched an octopus head")
        .click();
    h.run();
    click(&mut h, "Record the canon");
    assert!(has_text(&h, "The Pink Pirate's own octopus attack!"));
    h.get_by_role_and_label(Role::RadioButton, "orange's ship")
        .click();
    h.run();
    h.get_by_role_and_label(Role::CheckBox, "gold fell").click();
    h.run();
    h.get_by_role_and_label(Role::CheckBox, "steals the gold").click();
    h.run();
    click(&mut h, "Record the drop");
    assert!(has_text(&h, "The Pink Pirate steals the gold"));
    let game = h.state().table().game().unwrap();
    assert!(game.ship(PlayerColor::Pink).unwrap().holds(TreasureType::Gold));
    assert!(game.ship(PlayerColor::Green).unwrap().holds(TreasureType::Gem));
    assert_eq!(
        game.counter().crab(),
        1,
        "neither the island nor the steal moved the crab"
    );
}

/// Steps the app in real time until `done` holds, for at most `secs` seconds.
fn step_while(h: &mut Harness<'_, OctorefApp>, secs: u64, mut done: impl FnMut(&OctorefApp) -> bool) -> bool {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(secs);
    while std::time::Instant::now() < deadline {
        h.step();
        if done(h.state()) {
            return true;
        }
        std::thread::sleep(std::time::Duration::from_millis(30));
    }
    false
}

#[test]
fn the_demo_opens_by_itself_and_the_panel_shows_the_referees_rulings_in_words() {
    let dir = tempfile::tempdir().unwrap();
    let options = AppOptions {
        config_dir: dir.path().to_path_buf(),
        args: AppArgs::default(),
        source: Some(SourceChoice::Demo(DemoReason::NoCamera)),
        cameras: Some(Ok(Vec::new())),
    };
    let mut h = Harness::builder()
        .with_size(egui::vec2(1500.0, 950.0))
        .build_eframe(move |cc| OctorefApp::new(&cc.egui_ctx, options));
    h.step();
    // No camera: the demo runs, the Game screen shows the demo's game.
    assert_eq!(h.state().state().panel, PanelId::Game);
    assert!(h.state().demo().is_some());
    // Wait for a reading of the still set-up table (before the first flick): the settled one
    // when the tracker has committed it, else the current one the panel shows.
    let shown = |app: &OctorefApp| {
        let s = app.referee_snapshot()?;
        let r = s.committed.as_ref().map(|c| &c.frame).or(s.latest.as_ref())?;
        let seq = s.committed.as_ref().map(|c| c.seq).or(s.frame_seq)?;
        Some((r.clone(), seq))
    };
    let read = step_while(&mut h, 240, |app| {
        let still = app.demo().is_some_and(|d| d.game().is_some() && !d.acting());
        still
            && shown(app).is_some_and(|(r, _)| {
                r.rulings
                    .as_ref()
                    .is_some_and(|r| r.players.values().any(|p| p.closest.is_some()))
            })
    });
    assert!(
        read,
        "no reading: {:?}",
        h.state().referee_snapshot().map(|s| s.faults.clone())
    );
    h.run_steps(3);
    assert!(has_text(&h, "Demo game"));
    assert!(has_text(&h, "Source: the demo"));
    assert!(has_text(&h, "calibration: the demo's (shipped)"));
    let app = h.state();
    let (frame, _) = shown(app).unwrap();
    let rulings = frame.rulings.as_ref().unwrap();
    // The demo's game is followed: its first turn, orange's.
    assert!(has_text(&h, "Turn 1:"));
    assert!(has_text(&h, "flick a treasure or navigate"));
    // The panel says the rulings in words.
    let first = rulings.messages.first().unwrap();
    assert!(has_text(&h, first), "the rulings say {first:?}");
}

/// The demo's brown chests on its light wood look like the table in shadow pixel by pixel; only
/// as a patch do they read as pieces (`vision::labels::relabel_warm_patches`). Without that,
/// green's closest chest is not seen and a goblet is named instead.
#[test]
fn the_demo_opens_by_itself_and_its_first_ruling_names_the_closest_treasure_the_truth_says() {
    use octoref::app::demo_game::game_context;
    use octoref::vision::evaluate::truth_report;
    let dir = tempfile::tempdir().unwrap();
    let options = AppOptions {
        config_dir: dir.path().to_path_buf(),
        args: AppArgs::default(),
        source: Some(SourceChoice::Demo(DemoReason::NoCamera)),
        cameras: Some(Ok(Vec::new())),
    };
    let mut h = Harness::builder()
        .with_size(egui::vec2(1500.0, 950.0))
        .build_eframe(move |cc| OctorefApp::new(&cc.egui_ctx, options));
    h.step();
    // No camera: the demo runs, the Game screen shows the demo's game.
    assert_eq!(h.state().state().panel, PanelId::Game);
    assert!(h.state().demo().is_some());
    // Wait for a reading of the still set-up table (before the first flick): the settled one
    // when the tracker has committed it, else the current one the panel shows.
    let shown = |app: &OctorefApp| {
        let s = app.referee_snapshot()?;
        let r = s.committed.as_ref().map(|c| &c.frame).or(s.latest.as_ref())?;
        let seq = s.committed.as_ref().map(|c| c.seq).or(s.frame_seq)?;
        Some((r.clone(), seq))
    };
    let read = step_while(&mut h, 240, |app| {
        let still = app.demo().is_some_and(|d| d.game().is_some() && !d.acting());
        still
            && shown(app).is_some_and(|(r, _)| {
                r.rulings
                    .as_ref()
                    .is_some_and(|r| r.players.values().any(|p| p.closest.is_some()))
            })
    });
    assert!(
        read,
        "no reading: {:?}",
        h.state().referee_snapshot().map(|s| s.faults.clone())
    );
    h.run_steps(3);
    assert!(has_text(&h, "Demo game"));
    assert!(has_text(&h, "Source: the demo"));
    assert!(has_text(&h, "calibration: the demo's (shipped)"));
    let app = h.state();
    let (frame, seq) = shown(app).unwrap();
    let demo = app.demo().unwrap();
    let info = demo
        .handle()
        .info(seq)
        .or_else(|| demo.handle().latest())
        .unwrap();
    let game = octoref::games::crash_octopus::Game::replay(&info.record).unwrap();
    let truth = truth_report(&info.truth, &game_context(&game)).unwrap();
    let truth_rulings = truth.rulings.as_ref().unwrap();
    let rulings = frame.rulings.as_ref().unwrap();
    // Every player the referee could rule for: the closest treasure is the truth's type.
    let type_of = |r: &octoref::referee::FrameReport, id: &str| {
        r.pieces.iter().find(|p| p.id == id).and_then(|p| p.treasure)
    };
    let mut compared = 0;
    for (player, pr) in &rulings.players {
        let (Some(seen), Some(t)) = (
            &pr.closest,
            truth_rulings.players.get(player).and_then(|t| t.closest.as_ref()),
        ) else {
            continue;
        };
        if pr.too_close_to_call {
            continue;
        }
        assert_eq!(
            type_of(&frame, seen),
            type_of(&truth, t),
            "{player}'s closest treasure"
        );
        compared += 1;
    }
    assert!(compared > 0, "some player was ruled for: {:?}", rulings.messages);
    // The panel says the rulings in words.
    let first = rulings.messages.first().unwrap();
    assert!(has_text(&h, first), "the rulings say {first:?}");
}

/// Steps until `done`, for at most `secs` seconds (workers answer in their own time).
fn wait_for(h: &mut Harness<'_, OctorefApp>, secs: u64, text: &str) {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(secs);
    while std::time::Instant::now() < deadline {
        h.step();
        if has_text(h, text) {
            h.run_steps(2);
            return;
        }
        std::thread::sleep(std::time::Duration::from_millis(30));
    }
    panic!("{text:?} never showed");
}

#[test]
fn the_calibration_wizard_on_a_synthetic_board_capture() {
    use octoref::calibrate::Profile;
    use octoref::capture::demo::DemoGame;
    let dir = tempfile::tempdir().unwrap();
    let game = DemoGame::load().unwrap();
    let board = octoref::synth::render_board(game.scene()).unwrap();
    let empty = octoref::synth::render_empty(game.scene()).unwrap();
    let board_png = dir.path().join("board.png");
    let empty_png = dir.path().join("empty.png");
    std::fs::write(&board_png, octoref::synth::encode_png(&board).unwrap()).unwrap();
    std::fs::write(&empty_png, octoref::synth::encode_png(&empty).unwrap()).unwrap();
    let mut h = app_in(&dir.path().join("cfg"));
    click(&mut h, "Calibrate");
    // Step 1: the board to print, saved as a PDF.
    let pdf = dir.path().join("my-board.pdf");
    set_text(&mut h, "Save the board as:", pdf.to_str().unwrap());
    click(&mut h, "Save the board (PDF)");
    assert!(std::fs::read(&pdf).unwrap().starts_with(b"%PDF"));
    click(&mut h, "Next: capture the board");
    // Step 2: the board capture from a file: markers found, solved.
    set_text(&mut h, "Board picture file:", board_png.to_str().unwrap());
    h.get_by_label("Load the board picture").click();
    h.run_steps(2);
    wait_for(&mut h, 60, "Markers found:");
    h.get_by_label("Solve").click();
    h.run_steps(2);
    wait_for(&mut h, 120, "Solved:");
    click(&mut h, "Next: the empty table");
    // Step 3: the empty table: the ocean and the beads drawn, accepted.
    set_text(&mut h, "Empty table picture file:", empty_png.to_str().unwrap());
    h.get_by_label("Load the empty table picture").click();
    h.run_steps(2);
    wait_for(&mut h, 120, "Ocean found:");
    let beads = game.scene().beads.to_string();
    let beads_field = h.get_by_label("Beads from the start (B blue, K black):");
    assert_eq!(
        beads_field.value().as_deref(),
        Some(beads.as_str()),
        "the beads read from the string"
    );
    // A sequence other than the box's is pointed out (a black bead read as a blue one), and
    // the pointer goes once it is the box's again.
    let boxed = octoref::app::config::default_beads();
    let not_the_box = "BBBBBBBKBBKBBKKK";
    assert_ne!(not_the_box, boxed);
    let not_the_box_note = "Not the box's order";
    set_text(&mut h, "Beads from the start (B blue, K black):", not_the_box);
    assert!(has_text(&h, not_the_box_note));
    set_text(&mut h, "Beads from the start (B blue, K black):", &boxed);
    assert!(!has_text(&h, not_the_box_note));
    set_text(&mut h, "Beads from the start (B blue, K black):", &beads);
    click(&mut h, "Accept the ocean and beads");
    // Step 4: saved where asked (its folder made: the default one does not exist at first),
    // loadable by the referee, remembered.
    let out = dir.path().join("profiles").join("kitchen.json");
    assert!(!out.parent().unwrap().exists());
    set_text(&mut h, "Profile file:", out.to_str().unwrap());
    click(&mut h, "Save the profile");
    assert!(has_text(&h, "The profile was saved to"));
    let profile = Profile::load(&out).unwrap();
    assert!(profile.ocean.is_some());
    assert_eq!(profile.counter.as_ref().unwrap().beads().to_string(), beads);
    assert!(out.with_file_name("kitchen_reference.png").exists());
    octoref::live::LiveCalibration::load(&out).unwrap();
    assert_eq!(h.state().state().last_profile.as_deref(), Some(out.as_path()));
    assert!(has_text(&h, "calibration: just now"));
}

#[test]
fn teach_a_piece_shown_alone_and_store_it_in_the_profile() {
    use octoref::calibrate::Profile;
    use octoref::capture::demo::{DEMO_PROFILE_JSON, DEMO_REFERENCE_FILE, DEMO_REFERENCE_PNG, DemoGame};
    use octoref::synth::{Faults, jpeg_round_trip, render_frame};
    use octoref::table::PieceKind;
    let dir = tempfile::tempdir().unwrap();
    // The demo's calibration, as a user's profile file.
    let profile_path = dir.path().join("table.json");
    std::fs::write(&profile_path, DEMO_PROFILE_JSON).unwrap();
    std::fs::write(dir.path().join(DEMO_REFERENCE_FILE), DEMO_REFERENCE_PNG).unwrap();
    // The gold bar alone in the ocean (the crab stays on the counter).
    let game = DemoGame::load().unwrap();
    let scene = game.scene();
    // A gold bar alone in the ocean (the crab stays on the counter): the first of the set-up's
    // gold bars the teach library accepts alone (it refuses one it cannot outline cleanly, and
    // the panel says so — seen above in its own words).
    let still = game
        .states()
        .iter()
        .find(|s| s.phase == octoref::capture::DemoPhase::Still)
        .unwrap();
    let cal = octoref::live::LiveCalibration::load(&profile_path).unwrap();
    let catalog = octoref::table::Catalog::default_catalog();
    let image = still
        .layout
        .pieces
        .iter()
        .filter(|q| q.entry == "gold" && q.base_mm == 0.0 && !q.on_island)
        .find_map(|gold| {
            let mut alone = (*still.layout).clone();
            alone
                .pieces
                .retain(|q| q.id == gold.id || q.kind == PieceKind::Crab);
            let frame = scene.frame_from(alone, &Faults::none()).unwrap();
            let image = jpeg_round_trip(
                &render_frame(scene, &frame.layout, &frame.options).unwrap(),
                frame.jpeg_quality,
            )
            .unwrap();
            octoref::vision::teach::teach(
                &cal.profile,
                &cal.reference,
                &catalog,
                "gold",
                std::slice::from_ref(&image),
                octoref::vision::teach::Pick::Alone,
            )
            .ok()
            .map(|_| image)
        })
        .expect("some gold bar of the demo can be taught alone");
    let picture = dir.path().join("gold_alone.png");
    std::fs::write(&picture, octoref::synth::encode_png(&image).unwrap()).unwrap();

    let options = AppOptions {
        config_dir: dir.path().join("cfg"),
        args: AppArgs {
            calibration: Some(profile_path.clone()),
            ..AppArgs::default()
        },
        source: None,
        cameras: Some(Ok(Vec::new())),
    };
    let mut h = Harness::builder()
        .with_size(WINDOW)
        .build_eframe(move |cc| OctorefApp::new(&cc.egui_ctx, options));
    h.run();
    click(&mut h, "Teach");
    click(&mut h, "gold");
    assert!(has_text(&h, "Put the gold alone in the middle of the ocean"));
    set_text(&mut h, "Picture file:", picture.to_str().unwrap());
    click(&mut h, "Load the picture");
    assert!(has_text(&h, "1 picture(s) captured."));
    h.get_by_label("Learn").click();
    h.run_steps(2);
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(120);
    while std::time::Instant::now() < deadline
        && !has_text(&h, "Learnt: the gold")
        && !has_text(&h, "Nothing was learnt")
    {
        h.step();
        std::thread::sleep(std::time::Duration::from_millis(30));
    }
    let err = h
        .query_all_by_label_contains("Nothing was learnt")
        .next()
        .map(|n| format!("{n:?}"));
    assert!(err.is_none(), "{err:?}");
    wait_for(&mut h, 5, "Learnt: the gold");
    assert!(has_text(&h, "% of the catalog's"));
    click(&mut h, "Save into the profile");
    assert!(has_text(&h, "The gold was saved into"));
    let p = Profile::load(&profile_path).unwrap();
    assert!(p.taught.contains_key("gold"), "stored in the profile");
    assert!(has_text(&h, "gold  (taught)"));
}

/// A live referee's snapshot of a settled table whose ink die shows `top` with `confidence`.
fn die_seen(top: &str, confidence: f64) -> octoref::live::LiveSnapshot {
    let frame: octoref::referee::FrameReport = serde_json::from_value(serde_json::json!({
        "image": "camera",
        "ocean": {"polygon_mm": [[0, 0], [800, 0], [800, 600], [0, 600]]},
        "pieces": [
            {"id": "p8", "piece": "ink_die", "top": top, "center_mm": [900, 100], "confidence": confidence}
        ]
    }))
    .unwrap();
    octoref::live::LiveSnapshot {
        latest: Some(frame.clone()),
        committed: Some(octoref::vision::tracking::Commit {
            seq: 7,
            measured_seq: 7,
            frame,
            digest: Default::default(),
            changes: Default::default(),
        }),
        settling: false,
        ..Default::default()
    }
}

fn last_drop_top(h: &Harness<'_, OctorefApp>) -> Option<octoref::games::crash_octopus::DieTop> {
    match h.state().table().session().unwrap().record().events.last() {
        Some(octoref::games::crash_octopus::Event::Drop(d)) => d.top,
        other => panic!("the last event is not a drop: {other:?}"),
    }
}

#[test]
fn the_cameras_die_colour_prefills_the_question_and_one_click_confirms_or_overrides_it() {
    use octoref::games::crash_octopus::DieTop;
    let dir = tempfile::tempdir().unwrap();
    with_draft(
        dir.path(),
        "BKBBBB",
        &[PlayerColor::Orange, PlayerColor::Green, PlayerColor::Blue],
    );
    let mut h = app_in(dir.path());
    start_game(&mut h);
    click(&mut h, "Loaded the gold");
    click(&mut h, "Loaded the gem");
    assert!(has_text(&h, "octopus attack!"));
    // The camera reads red on the die, sure of it, on a settled table.
    h.state_mut()
        .table_mut()
        .camera_sees(Some(&die_seen("red", 0.95)));
    // Blue's die hits no ship: the question comes pre-filled with the camera's colour.
    click(&mut h, "Record the drop (then the die's colour)");
    assert!(has_text(
        &h,
        "blue's ink die hit no ship. The camera reads red on top"
    ));
    assert_eq!(saved_events(&h), 2);
    click(&mut h, "Confirm red: move a head");
    assert_eq!(saved_events(&h), 3);
    assert_eq!(last_drop_top(&h), Some(DieTop::Red));
    // Orange's die: the camera still reads red, the players see black and override it.
    click(&mut h, "Record the drop (then the die's colour)");
    assert!(has_text(&h, "The camera reads red"));
    click(&mut h, "No, it's black: move a tentacle");
    assert_eq!(saved_events(&h), 4);
    assert_eq!(last_drop_top(&h), Some(DieTop::Black));
    // Green's die while the table is still moving: the camera's colour is offered as a guess,
    // and the Yes key (the first button) takes it.
    let mut moving = die_seen("black", 0.95);
    moving.settling = true;
    h.state_mut().table_mut().camera_sees(Some(&moving));
    click(&mut h, "Record the drop (then the die's colour)");
    assert!(has_text(&h, "The camera thinks black, but is not sure"));
    h.key_press(egui::Key::Y);
    h.run();
    assert_eq!(saved_events(&h), 5);
    assert_eq!(last_drop_top(&h), Some(DieTop::Black));
}

// ---------------------------------------------------------------------------------------------
// The wizard's fallback and live overlay, the referee's notices, the cameras in Sources

/// A camera filming whatever pictures the test holds in front of it, in turn, about 20 frames a
/// second: the test changes the scene by replacing them.
#[derive(Debug)]
struct Filming {
    pictures: std::sync::Arc<std::sync::Mutex<Vec<opencv::core::Mat>>>,
    seq: u64,
}

impl Filming {
    fn new(
        pictures: Vec<opencv::core::Mat>,
    ) -> (Self, std::sync::Arc<std::sync::Mutex<Vec<opencv::core::Mat>>>) {
        let shared = std::sync::Arc::new(std::sync::Mutex::new(pictures));
        (
            Filming {
                pictures: std::sync::Arc::clone(&shared),
                seq: 0,
            },
            shared,
        )
    }
}

impl octoref::capture::FrameSource for Filming {
    fn open(&mut self) -> Result<octoref::capture::SourceInfo, octoref::capture::CaptureError> {
        use opencv::prelude::MatTraitConst;
        let pictures = self.pictures.lock().unwrap();
        Ok(octoref::capture::SourceInfo {
            kind: octoref::capture::SourceKind::Fake,
            name: "test camera".into(),
            width: pictures[0].cols() as u32,
            height: pictures[0].rows() as u32,
            fps: 20.0,
            pixel_format: None,
        })
    }

    fn next_frame(
        &mut self,
        stop: &octoref::capture::StopSignal,
    ) -> Result<octoref::capture::Frame, octoref::capture::CaptureError> {
        use opencv::prelude::MatTraitConst;
        stop.sleep(std::time::Duration::from_millis(50));
        let image = {
            let pictures = self.pictures.lock().unwrap();
            pictures[self.seq as usize % pictures.len()].try_clone()?
        };
        let frame = octoref::capture::Frame {
            image,
            seq: self.seq,
            connection: 1,
            captured_at: std::time::Instant::now(),
            source: octoref::capture::SourceKind::Fake,
            label: std::sync::Arc::from("test camera"),
        };
        self.seq += 1;
        Ok(frame)
    }

    fn close(&mut self) {}
}

/// Films `pictures` with the app's running source replaced by a [`Filming`] camera.
fn film(
    h: &mut Harness<'_, OctorefApp>,
    pictures: Vec<opencv::core::Mat>,
) -> std::sync::Arc<std::sync::Mutex<Vec<opencv::core::Mat>>> {
    let (camera, shared) = Filming::new(pictures);
    let ctx = h.ctx.clone();
    h.state_mut()
        .use_source(
            &ctx,
            "test camera",
            camera,
            octoref::capture::WorkerConfig::default(),
        )
        .unwrap();
    shared
}

/// Steps the app in real time until `text` shows, for at most `secs` seconds.
fn step_until_within(h: &mut Harness<'_, OctorefApp>, secs: u64, text: &str) {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(secs);
    while std::time::Instant::now() < deadline {
        h.step();
        if has_text(h, text) {
            return;
        }
        std::thread::sleep(std::time::Duration::from_millis(30));
    }
    panic!(
        "{text:?} never showed; faults {:?}",
        h.state().referee_snapshot().map(|s| s.faults.clone())
    );
}

/// Where the last frame drew a picture (a textured mesh: text is drawn with the font atlas).
fn picture_rect(h: &Harness<'_, OctorefApp>) -> egui::Rect {
    let rects: Vec<egui::Rect> = h
        .output()
        .shapes
        .iter()
        .filter_map(|c| match &c.shape {
            egui::Shape::Mesh(m) if m.texture_id != egui::TextureId::default() => Some(m.calc_bounds()),
            _ => None,
        })
        .collect();
    assert_eq!(rects.len(), 1, "one picture on screen: {rects:?}");
    rects[0]
}

/// The screen point showing image pixel `(x, y)` of a `size` picture drawn at `rect`.
fn on_screen(rect: egui::Rect, size: (f64, f64), x: f64, y: f64) -> egui::Pos2 {
    egui::pos2(
        rect.left() + (x / size.0) as f32 * rect.width(),
        rect.top() + (y / size.1) as f32 * rect.height(),
    )
}

fn click_at(h: &mut Harness<'_, OctorefApp>, pos: egui::Pos2) {
    h.event(egui::Event::PointerMoved(pos));
    for pressed in [true, false] {
        h.event(egui::Event::PointerButton {
            pos,
            button: egui::PointerButton::Primary,
            pressed,
            modifiers: egui::Modifiers::default(),
        });
    }
    h.run();
}

#[test]
fn without_markers_four_clicked_corners_of_an_a4_sheet_give_a_profile_that_measures_it() {
    use octoref::table::{PointMm, PointPx};
    use opencv::core::{CV_8UC3, Mat, Point, Scalar, Vector};
    let dir = tempfile::tempdir().unwrap();
    // A white A4 sheet seen at a slant on a dark table, no board markers anywhere: its corners
    // top-left, top-right, bottom-right, bottom-left in image pixels.
    let corners = [(400.0, 150.0), (820.0, 170.0), (900.0, 640.0), (330.0, 600.0)];
    let (w, h_px) = (1280, 720);
    let mut picture =
        Mat::new_rows_cols_with_default(h_px, w, CV_8UC3, Scalar::new(60.0, 70.0, 80.0, 0.0)).unwrap();
    let quad: Vector<Point> = corners
        .iter()
        .map(|&(x, y)| Point::new(x as i32, y as i32))
        .collect();
    opencv::imgproc::fill_convex_poly(
        &mut picture,
        &quad,
        Scalar::new(245.0, 245.0, 245.0, 0.0),
        opencv::imgproc::LINE_8,
        0,
    )
    .unwrap();
    let path = dir.path().join("a4.png");
    std::fs::write(&path, octoref::synth::encode_png(&picture).unwrap()).unwrap();

    let mut h = app_in(&dir.path().join("cfg"));
    click(&mut h, "Calibrate");
    click(&mut h, "Next: capture the board");
    set_text(&mut h, "Board picture file:", path.to_str().unwrap());
    h.get_by_label("Load the board picture").click();
    h.run_steps(2);
    // The markers are looked for and not found: the board cannot be solved.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while has_text(&h, "Looking for the markers") && std::time::Instant::now() < deadline {
        h.step();
        std::thread::sleep(std::time::Duration::from_millis(30));
    }
    h.run();
    assert!(
        has_text(&h, "No board found") || has_text(&h, "Markers found: 0 markers"),
        "no markers on a plain sheet"
    );
    assert!(h.get_by_label("Solve").accesskit_node().is_disabled());
    click(
        &mut h,
        "No markers found? Click the four corners of a rectangle you know",
    );
    set_number(&mut h, "Width, mm:", 210.0);
    set_number(&mut h, "Height, mm:", 297.0);
    assert!(
        h.get_by_label("Use the four corners")
            .accesskit_node()
            .is_disabled()
    );
    for (i, &(x, y)) in corners.iter().enumerate() {
        let rect = picture_rect(&h);
        click_at(&mut h, on_screen(rect, (f64::from(w), f64::from(h_px)), x, y));
        assert!(has_text(&h, &format!("{} of 4 corners clicked", i + 1)));
    }
    // A fifth click is not a corner.
    let rect = picture_rect(&h);
    click_at(&mut h, rect.center());
    assert!(has_text(&h, "4 of 4 corners clicked"));
    click(&mut h, "Use the four corners");
    assert!(has_text(&h, "Four corners used:"));
    let profile = h
        .state()
        .wizard()
        .profile()
        .expect("a profile from the four corners")
        .clone();
    // The sheet's corners, where they are in the picture, measure as the sheet: origin at the
    // first corner, 210 mm across, 297 mm down.
    let sheet = [(0.0, 0.0), (210.0, 0.0), (210.0, 297.0), (0.0, 297.0)];
    for (&(x, y), &(mx, my)) in corners.iter().zip(&sheet) {
        let mm = profile.px_to_mm(PointPx::new(x, y)).unwrap();
        let off = mm.distance(PointMm::new(mx, my));
        assert!(
            off < 1.5,
            "corner ({x}, {y}) px measures {mm:?}, {off:.2} mm from ({mx}, {my})"
        );
    }
    assert_eq!(
        (profile.image_size.width, profile.image_size.height),
        (w as u32, h_px as u32)
    );
    click(&mut h, "Next: the empty table");
    assert!(has_text(&h, "Take the board away."));
}

/// The closed four-sided outlines drawn in the marker overlay's blue.
fn marker_outlines(h: &Harness<'_, OctorefApp>) -> Vec<egui::Rect> {
    let blue = egui::Color32::from_rgb(0x1E, 0x88, 0xE5);
    h.output()
        .shapes
        .iter()
        .filter_map(|c| match &c.shape {
            egui::Shape::Path(p)
                if p.closed
                    && p.points.len() == 4
                    && p.stroke.color == egui::epaint::ColorMode::Solid(blue) =>
            {
                Some(p.visual_bounding_rect())
            }
            _ => None,
        })
        .collect()
}

/// The number of markers the wizard says it found ("Markers found: 12 markers, ...").
fn markers_said(h: &Harness<'_, OctorefApp>) -> usize {
    let node = h.get_by_label_contains("Markers found:");
    // A label's text is its accessible value.
    let text = node.accesskit_node().value().unwrap_or_default().to_string();
    let n = text
        .trim_start_matches("Markers found: ")
        .split(' ')
        .next()
        .unwrap();
    n.parse().unwrap_or_else(|e| panic!("{text:?}: {e}"))
}

#[test]
fn the_markers_found_on_the_live_camera_are_drawn_over_it_and_over_the_capture() {
    use octoref::capture::demo::DemoGame;
    let dir = tempfile::tempdir().unwrap();
    let game = DemoGame::load().unwrap();
    let board = octoref::synth::render_board(game.scene()).unwrap();
    let mut h = app_in(dir.path());
    film(&mut h, vec![board]);
    click_live(&mut h, "Calibrate");
    click_live(&mut h, "Next: capture the board");
    // Before any capture: the camera's picture, the markers found on it drawn over it.
    step_until(&mut h, "Markers found:");
    h.run_steps(2);
    assert!(has_text(&h, "Live view: camera frame"));
    let n = markers_said(&h);
    assert!(n >= 4, "the board's markers are found: {n}");
    let live = picture_rect(&h);
    let outlines = marker_outlines(&h);
    assert_eq!(outlines.len(), n, "one outline per marker found");
    assert!(
        outlines.iter().all(|r| live.expand(2.0).contains_rect(*r)),
        "the outlines lie on the live picture {live:?}"
    );
    // Captured: the same overlay over the still picture.
    click_live(&mut h, "Capture the board from the camera");
    step_until(&mut h, "Markers found:");
    h.run_steps(2);
    assert!(has_text(&h, "Captured: camera frame"));
    let captured = picture_rect(&h);
    let outlines = marker_outlines(&h);
    assert_eq!(outlines.len(), markers_said(&h));
    assert!(outlines.iter().all(|r| captured.expand(2.0).contains_rect(*r)));
}

/// The app at the table with the demo's calibration as the family's own profile, a game started,
/// filming `pictures`.
fn at_the_table_filming(
    dir: &Path,
    pictures: Vec<opencv::core::Mat>,
) -> (
    Harness<'static, OctorefApp>,
    std::sync::Arc<std::sync::Mutex<Vec<opencv::core::Mat>>>,
) {
    use octoref::capture::demo::{DEMO_PROFILE_JSON, DEMO_REFERENCE_FILE, DEMO_REFERENCE_PNG};
    let profile_path = dir.join("table.json");
    std::fs::write(&profile_path, DEMO_PROFILE_JSON).unwrap();
    std::fs::write(dir.join(DEMO_REFERENCE_FILE), DEMO_REFERENCE_PNG).unwrap();
    let options = AppOptions {
        config_dir: dir.join("cfg"),
        args: AppArgs {
            calibration: Some(profile_path),
            ..AppArgs::default()
        },
        source: None,
        cameras: Some(Ok(Vec::new())),
    };
    let mut h = Harness::builder()
        .with_size(egui::vec2(1500.0, 950.0))
        .build_eframe(move |cc| OctorefApp::new(&cc.egui_ctx, options));
    h.run();
    start_game(&mut h);
    let shared = film(&mut h, pictures);
    (h, shared)
}

/// The demo's set-up table (before the first flick) as the camera sees it, with `faults`; the
/// hand's pose follows `index`.
fn demo_table(faults: &octoref::synth::Faults, index: usize) -> opencv::core::Mat {
    use octoref::capture::demo::DemoGame;
    let game = DemoGame::load().unwrap();
    let still = game
        .states()
        .iter()
        .find(|s| s.phase == octoref::capture::DemoPhase::Still)
        .unwrap();
    let mut layout = (*still.layout).clone();
    layout.frame = index;
    let frame = game.scene().frame_from(layout, faults).unwrap();
    octoref::synth::jpeg_round_trip(
        &octoref::synth::render_frame(game.scene(), &frame.layout, &frame.options).unwrap(),
        frame.jpeg_quality,
    )
    .unwrap()
}

/// What the view says while the table is not settled: the settling card ("Waiting for the table
/// to settle…") or the hand's ("…: waiting for the table to settle (rulings held).").
const SETTLING: &str = "for the table to settle";

fn settled_reading(h: &Harness<'_, OctorefApp>) -> Option<u64> {
    h.state()
        .referee_snapshot()
        .and_then(|s| s.committed.as_ref().map(|c| c.measured_seq))
}

/// Steps until the table has settled: a committed reading and no word of settling.
fn step_until_settled(h: &mut Harness<'_, OctorefApp>, secs: u64) {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(secs);
    while std::time::Instant::now() < deadline {
        h.step();
        if settled_reading(h).is_some() && !has_text(h, SETTLING) {
            return;
        }
        std::thread::sleep(std::time::Duration::from_millis(30));
    }
    panic!(
        "the table never settled; faults {:?}",
        h.state().referee_snapshot().map(|s| s.faults.clone())
    );
}

#[test]
fn a_hand_over_the_ocean_shows_waiting_for_the_table_to_settle_until_it_is_gone() {
    use octoref::synth::Faults;
    let dir = tempfile::tempdir().unwrap();
    let clean = demo_table(&Faults::none(), 0);
    let (mut h, camera) = at_the_table_filming(dir.path(), vec![clean.clone()]);
    step_until_settled(&mut h, 180);
    // A hand reaches over the ocean (moving: a new pose every frame).
    let hand = Faults {
        hand: true,
        ..Faults::none()
    };
    *camera.lock().unwrap() = (0..4).map(|i| demo_table(&hand, 100 + i)).collect();
    step_until_within(&mut h, 120, SETTLING);
    let held = settled_reading(&h);
    assert!(held.is_some());
    // On every frame while the hand moves there, for a few seconds and until the hand itself
    // is named.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    let mut named = false;
    for frame in 0.. {
        h.step();
        assert!(has_text(&h, SETTLING), "the notice went with the hand there");
        assert_eq!(settled_reading(&h), held, "a new reading while the hand is there");
        named |= has_text(&h, "Something is over the ocean");
        if (named && frame >= 60) || std::time::Instant::now() > deadline {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(30));
    }
    assert!(named, "the hand over the ocean is named");
    assert!(
        h.state().referee_snapshot().unwrap().settling,
        "the referee is waiting"
    );
    // The hand is gone and the table is still: the notice goes and readings resume. (The notice
    // goes when the table settles; the new reading is committed once a second settled reading
    // agrees with it, a few frames later.)
    *camera.lock().unwrap() = vec![clean];
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(180);
    while settled_reading(&h) <= held || has_text(&h, SETTLING) {
        assert!(
            std::time::Instant::now() < deadline,
            "no new settled reading after the hand; faults {:?}",
            h.state().referee_snapshot().map(|s| s.faults.clone())
        );
        h.step();
        std::thread::sleep(std::time::Duration::from_millis(30));
    }
}

#[test]
fn a_moved_view_shows_the_recalibrate_banner_whose_button_opens_the_wizard() {
    use octoref::synth::{CameraNudge, Faults};
    let dir = tempfile::tempdir().unwrap();
    let clean = demo_table(&Faults::none(), 0);
    let (mut h, camera) = at_the_table_filming(dir.path(), vec![clean]);
    step_until_settled(&mut h, 180);
    assert!(!has_text(&h, "The view moved"));
    // The camera is bumped.
    let nudged = demo_table(
        &Faults {
            camera_nudge: Some(CameraNudge::default()),
            ..Faults::none()
        },
        5,
    );
    *camera.lock().unwrap() = vec![nudged];
    step_until_within(&mut h, 180, "The view moved — re-calibrate");
    h.run_steps(2);
    assert!(
        h.query_by_label("Re-register").is_some(),
        "re-registering is offered too"
    );
    click_live(&mut h, "Re-calibrate");
    assert_eq!(h.state().state().panel, PanelId::Calibrate);
    assert!(has_text(&h, "Calibrate the camera"));
}

/// A camera as `list_cameras` describes it, with three modes.
fn listed_camera() -> octoref::capture::CameraInfo {
    use octoref::capture::{CaptureFormat, PixelFormat};
    let mode = |width, height, fps, pixel| CaptureFormat {
        width,
        height,
        fps,
        pixel,
    };
    octoref::capture::CameraInfo {
        index: 3,
        name: "Desk Cam".into(),
        formats: vec![
            mode(640, 480, 30, PixelFormat::Mjpeg),
            mode(1280, 720, 30, PixelFormat::Mjpeg),
            mode(1920, 1080, 15, PixelFormat::Yuyv),
        ],
        problem: None,
    }
}

#[test]
fn the_sources_panel_lists_each_camera_with_its_modes_and_asks_for_the_mode_chosen() {
    use octoref::app::live::LiveSource;
    use octoref::app::sources_panel::SourcesPanel;
    use octoref::capture::WantedFormat;
    struct Panel {
        panel: SourcesPanel,
        live: LiveSource,
        chosen: Option<SourceChoice>,
    }
    let mut h = Harness::builder().with_size(WINDOW).build_ui_state(
        |ui, s: &mut Panel| {
            if let Some(c) = s.panel.ui(ui, &s.live) {
                s.chosen = Some(c);
            }
        },
        Panel {
            panel: SourcesPanel::new(Some(Ok(vec![listed_camera()]))),
            live: LiveSource::idle("no source chosen"),
            chosen: None,
        },
    );
    h.run();
    assert!(h.query_all_by_label("Desk Cam (camera 3)").next().is_some());
    // The mode nearest the default wish is picked first; every mode is offered.
    let modes = h.get_by_role(Role::ComboBox);
    assert_eq!(
        modes.accesskit_node().value().as_deref(),
        Some("1280x720 @ 30 fps MJPEG")
    );
    modes.click();
    h.run();
    for mode in [
        "640x480 @ 30 fps MJPEG",
        "1280x720 @ 30 fps MJPEG",
        "1920x1080 @ 15 fps YUYV",
    ] {
        assert!(h.query_all_by_label(mode).next().is_some(), "{mode} is offered");
    }
    h.get_by_role_and_label(Role::Button, "1920x1080 @ 15 fps YUYV")
        .click();
    h.run();
    h.get_by_label("Use camera 3").click();
    h.run();
    let Some(SourceChoice::Camera(asked)) = &h.state().chosen else {
        panic!("no camera chosen: {:?}", h.state().chosen);
    };
    assert_eq!(asked.index, 3);
    assert_eq!(asked.name.as_deref(), Some("Desk Cam"));
    assert_eq!(
        asked.wanted,
        WantedFormat {
            width: 1920,
            height: 1080,
            fps: 15
        }
    );
    assert!(asked.lock_controls);
}

#[test]
fn a_camera_chosen_in_the_sources_panel_becomes_the_source() {
    let dir = tempfile::tempdir().unwrap();
    let options = AppOptions {
        config_dir: dir.path().to_path_buf(),
        args: AppArgs::default(),
        source: None,
        cameras: Some(Ok(vec![listed_camera()])),
    };
    let mut h = Harness::builder()
        .with_size(WINDOW)
        .build_eframe(move |cc| OctorefApp::new(&cc.egui_ctx, options));
    h.run();
    click(&mut h, "Sources");
    assert!(has_text(&h, "Desk Cam (camera 3)"));
    assert!(has_text(&h, "Now: no source chosen"));
    click_live(&mut h, "Use camera 3");
    step_until(&mut h, "Now: camera 3 (Desk Cam)");
    assert!(has_text(&h, "Source: camera 3 (Desk Cam)"));
}
