//! Keyboard shortcuts for the frequent actions. [`SHORTCUTS`] is the one table of bindings: the Help
//! panel lists it and [`read`] turns this frame's key presses into [`Command`]s through it.
//! Keys are ignored while a text field has the focus, so typing a bead sequence never records a load.

use super::config::PanelId;
use egui::{Key, KeyboardShortcut, Modifiers};

/// Something a key asks for. Which ones apply depends on what the game waits for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Command {
    Show(PanelId),
    ToggleTheme,
    ToggleLargeType,
    Undo,
    /// A number key 1-9: on a sailor's turn, load the Nth treasure type (highest first); during an
    /// attack, the die hit the Nth player's ship (turn order).
    Number(u8),
    /// 0: during an attack, the die hit no ship.
    Zero,
    /// M: the flick missed the ship.
    Missed,
    /// N: navigate.
    Navigate,
    /// F: navigation failed (the anchor left the ocean).
    NavigateFailed,
    /// C: record the Pirate's canon as set in the form.
    Canon,
    /// D: record the drop as set in the form.
    Drop,
    /// Y: the first answer to the oldest question (e.g. confirm a load seen on a ship).
    Yes,
    /// B / R: the die shows black / red (answers a die question).
    DieBlack,
    DieRed,
}

/// One key, with its modifiers, and what it asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Binding {
    pub shortcut: KeyboardShortcut,
    pub command: Command,
}

/// A key pressed alone.
const fn plain(key: Key, command: Command) -> Binding {
    Binding {
        shortcut: KeyboardShortcut::new(Modifiers::NONE, key),
        command,
    }
}

/// A key pressed with Ctrl (Cmd on a Mac).
const fn ctrl(key: Key, command: Command) -> Binding {
    Binding {
        shortcut: KeyboardShortcut::new(Modifiers::COMMAND, key),
        command,
    }
}

/// One line of the Help panel: the keys it binds and what they do. The keys are both what
/// [`read`] listens for and what the Help panel prints, so a bound key cannot be left out of Help.
#[derive(Debug, Clone, Copy)]
pub struct Shortcut {
    /// One key, two alternatives ("B / R"), or a run of consecutive keys ("1 … 6", first to last).
    pub bindings: &'static [Binding],
    pub what: &'static str,
}

impl Shortcut {
    /// The keys as Help shows them, named as the platform names them ("Ctrl+Z", "⌘Z").
    pub fn keys_label(&self, ctx: &egui::Context) -> String {
        let names: Vec<String> = self
            .bindings
            .iter()
            .map(|b| ctx.format_shortcut(&b.shortcut))
            .collect();
        match names.as_slice() {
            [] => String::new(),
            [one] => one.clone(),
            [a, b] => format!("{a} / {b}"),
            [first, .., last] => format!("{first} … {last}"),
        }
    }
}

/// Every shortcut, in the order the Help panel lists them. The single table of key bindings.
pub const SHORTCUTS: &[Shortcut] = &[
    Shortcut {
        bindings: &[plain(Key::F1, Command::Show(PanelId::Help))],
        what: "Help (this list)",
    },
    Shortcut {
        bindings: &[plain(Key::F2, Command::Show(PanelId::Setup))],
        what: "Set-up: players, modules, beads",
    },
    Shortcut {
        bindings: &[plain(Key::F3, Command::Show(PanelId::Game))],
        what: "The game at the table",
    },
    Shortcut {
        bindings: &[plain(Key::F4, Command::Show(PanelId::Sources))],
        what: "Sources: camera, video file or folder of pictures",
    },
    Shortcut {
        bindings: &[plain(Key::F5, Command::Show(PanelId::Octocube))],
        what: "Octocube score sheet",
    },
    Shortcut {
        bindings: &[plain(Key::F6, Command::Show(PanelId::Otto))],
        what: "Otto board",
    },
    Shortcut {
        bindings: &[plain(Key::F7, Command::Show(PanelId::Calibrate))],
        what: "Calibrate the camera",
    },
    Shortcut {
        bindings: &[ctrl(Key::Z, Command::Undo)],
        what: "Undo the last recorded event",
    },
    Shortcut {
        bindings: &[ctrl(Key::D, Command::ToggleTheme)],
        what: "Switch between light and dark colours",
    },
    Shortcut {
        bindings: &[ctrl(Key::L, Command::ToggleLargeType)],
        what: "Large type on or off",
    },
    Shortcut {
        bindings: &[
            plain(Key::Num1, Command::Number(1)),
            plain(Key::Num2, Command::Number(2)),
            plain(Key::Num3, Command::Number(3)),
            plain(Key::Num4, Command::Number(4)),
            plain(Key::Num5, Command::Number(5)),
            plain(Key::Num6, Command::Number(6)),
        ],
        what: "Sailor's turn: loaded the 1st … 6th treasure type (captain = 1). \
               Octopus attack: the die hit the 1st … 5th player's ship",
    },
    Shortcut {
        bindings: &[plain(Key::M, Command::Missed)],
        what: "Sailor's turn: the flick missed the ship",
    },
    Shortcut {
        bindings: &[plain(Key::N, Command::Navigate)],
        what: "Sailor's turn: navigate",
    },
    Shortcut {
        bindings: &[plain(Key::F, Command::NavigateFailed)],
        what: "Sailor's turn: navigation failed (anchor left the ocean)",
    },
    Shortcut {
        bindings: &[plain(Key::C, Command::Canon)],
        what: "Pirate's turn: record the canon as ticked",
    },
    Shortcut {
        bindings: &[plain(Key::Num0, Command::Zero)],
        what: "Octopus attack: the die hit no ship (then say its colour)",
    },
    Shortcut {
        bindings: &[plain(Key::D, Command::Drop)],
        what: "Octopus attack: record the drop as set in the form",
    },
    Shortcut {
        bindings: &[plain(Key::B, Command::DieBlack), plain(Key::R, Command::DieRed)],
        what: "The die shows black / red",
    },
    Shortcut {
        bindings: &[plain(Key::Y, Command::Yes)],
        what: "Yes: the first answer to the oldest question",
    },
];

/// Every binding of [`SHORTCUTS`], in table order.
pub fn bindings() -> impl Iterator<Item = &'static Binding> {
    SHORTCUTS.iter().flat_map(|s| s.bindings.iter())
}

/// The keys bound to `command` (e.g. "F4" for the Sources panel), for hover hints.
pub fn keys_for(ctx: &egui::Context, command: Command) -> Option<String> {
    bindings()
        .find(|b| b.command == command)
        .map(|b| ctx.format_shortcut(&b.shortcut))
}

/// The commands pressed this frame (consumed, so egui does not also act on them).
pub fn read(ctx: &egui::Context) -> Vec<Command> {
    if ctx.egui_wants_keyboard_input() {
        return Vec::new();
    }
    ctx.input_mut(|i| {
        let mut out = Vec::new();
        // Ctrl/Cmd first, so Ctrl+D is not also a plain D.
        let (with_modifiers, without): (Vec<&Binding>, Vec<&Binding>) =
            bindings().partition(|b| b.shortcut.modifiers != Modifiers::NONE);
        for b in with_modifiers.into_iter().chain(without) {
            if i.consume_shortcut(&b.shortcut) {
                out.push(b.command);
            }
        }
        out
    })
}
