//! Keyboard shortcuts for the frequent actions. The Help panel lists [`SHORTCUTS`]; [`read`] turns
//! this frame's key presses into [`Command`]s. Keys are ignored while a text field has the focus, so
//! typing a bead sequence never records a load.

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

/// One line of the Help panel.
#[derive(Debug, Clone, Copy)]
pub struct ShortcutHelp {
    pub keys: &'static str,
    pub what: &'static str,
}

/// Every shortcut, as the Help panel shows them.
pub const SHORTCUTS: &[ShortcutHelp] = &[
    ShortcutHelp {
        keys: "F1",
        what: "Help (this list)",
    },
    ShortcutHelp {
        keys: "F7",
        what: "Calibrate the camera",
    },
    ShortcutHelp {
        keys: "F2",
        what: "Set-up: players, modules, beads",
    },
    ShortcutHelp {
        keys: "F3",
        what: "The game at the table",
    },
    ShortcutHelp {
        keys: "Ctrl+Z",
        what: "Undo the last recorded event",
    },
    ShortcutHelp {
        keys: "Ctrl+D",
        what: "Switch between light and dark colours",
    },
    ShortcutHelp {
        keys: "Ctrl+L",
        what: "Large type on or off",
    },
    ShortcutHelp {
        keys: "1 … 6",
        what: "Sailor's turn: loaded the 1st … 6th treasure type (captain = 1)",
    },
    ShortcutHelp {
        keys: "M",
        what: "Sailor's turn: the flick missed the ship",
    },
    ShortcutHelp {
        keys: "N",
        what: "Sailor's turn: navigate",
    },
    ShortcutHelp {
        keys: "F",
        what: "Sailor's turn: navigation failed (anchor left the ocean)",
    },
    ShortcutHelp {
        keys: "C",
        what: "Pirate's turn: record the canon as ticked",
    },
    ShortcutHelp {
        keys: "0",
        what: "Octopus attack: the die hit no ship (then say its colour)",
    },
    ShortcutHelp {
        keys: "1 … 5",
        what: "Octopus attack: the die hit the 1st … 5th player's ship",
    },
    ShortcutHelp {
        keys: "D",
        what: "Octopus attack: record the drop as set in the form",
    },
    ShortcutHelp {
        keys: "B / R",
        what: "The die shows black / red",
    },
    ShortcutHelp {
        keys: "Y",
        what: "Yes: the first answer to the oldest question",
    },
];

const PLAIN_KEYS: &[(Key, Command)] = &[
    (Key::F1, Command::Show(PanelId::Help)),
    (Key::F2, Command::Show(PanelId::Setup)),
    (Key::F3, Command::Show(PanelId::Game)),
    (Key::F4, Command::Show(PanelId::Sources)),
    (Key::F5, Command::Show(PanelId::Octocube)),
    (Key::F6, Command::Show(PanelId::Otto)),
    (Key::F7, Command::Show(PanelId::Calibrate)),
    (Key::Num0, Command::Zero),
    (Key::Num1, Command::Number(1)),
    (Key::Num2, Command::Number(2)),
    (Key::Num3, Command::Number(3)),
    (Key::Num4, Command::Number(4)),
    (Key::Num5, Command::Number(5)),
    (Key::Num6, Command::Number(6)),
    (Key::M, Command::Missed),
    (Key::N, Command::Navigate),
    (Key::F, Command::NavigateFailed),
    (Key::C, Command::Canon),
    (Key::D, Command::Drop),
    (Key::Y, Command::Yes),
    (Key::B, Command::DieBlack),
    (Key::R, Command::DieRed),
];

const COMMAND_KEYS: &[(Key, Command)] = &[
    (Key::Z, Command::Undo),
    (Key::D, Command::ToggleTheme),
    (Key::L, Command::ToggleLargeType),
];

/// The commands pressed this frame (consumed, so egui does not also act on them).
pub fn read(ctx: &egui::Context) -> Vec<Command> {
    if ctx.egui_wants_keyboard_input() {
        return Vec::new();
    }
    ctx.input_mut(|i| {
        let mut out = Vec::new();
        // Ctrl/Cmd first, so Ctrl+D is not also a plain D.
        for &(key, cmd) in COMMAND_KEYS {
            if i.consume_shortcut(&KeyboardShortcut::new(Modifiers::COMMAND, key)) {
                out.push(cmd);
            }
        }
        for &(key, cmd) in PLAIN_KEYS {
            if i.consume_shortcut(&KeyboardShortcut::new(Modifiers::NONE, key)) {
                out.push(cmd);
            }
        }
        out
    })
}
