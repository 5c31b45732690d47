//! Looks: the light and dark themes, the large-type option, and the colours of the pieces.
//!
//! Piece colours come from the piece catalog (`assets/catalog.toml`), so a player's swatch in the
//! app is the colour of the ship on the table.

use super::config::{LARGE_TYPE_ZOOM, ThemeChoice};
use crate::games::crash_octopus::{Bead, PlayerColor, TreasureType};
use crate::table::catalog::{Catalog, PieceKind, Srgb};
use egui::{Color32, FontId, TextStyle};

/// Text sizes in points at zoom 1: larger than egui's defaults, since the screen is read from a
/// chair at the table.
const HEADING_PT: f32 = 24.0;
const BODY_PT: f32 = 16.0;
const BUTTON_PT: f32 = 16.0;
const SMALL_PT: f32 = 12.5;
const MONOSPACE_PT: f32 = 14.0;

/// The refusal / warning / good-news colours used in banners and cards.
pub const REFUSAL_RED: Color32 = Color32::from_rgb(0xC0, 0x2B, 0x2B);
pub const WARNING_AMBER: Color32 = Color32::from_rgb(0xC7, 0x7C, 0x02);
pub const OK_GREEN: Color32 = Color32::from_rgb(0x2E, 0x8B, 0x3A);

/// Sets the text sizes for both themes (once, at start).
pub fn install_text_styles(ctx: &egui::Context) {
    ctx.all_styles_mut(|style| {
        style.text_styles = [
            (TextStyle::Heading, FontId::proportional(HEADING_PT)),
            (TextStyle::Body, FontId::proportional(BODY_PT)),
            (TextStyle::Button, FontId::proportional(BUTTON_PT)),
            (TextStyle::Small, FontId::proportional(SMALL_PT)),
            (TextStyle::Monospace, FontId::monospace(MONOSPACE_PT)),
        ]
        .into();
        style.spacing.button_padding = egui::vec2(8.0, 4.0);
        style.spacing.item_spacing = egui::vec2(8.0, 6.0);
    });
}

/// The looks the user asked for, as last applied (so they are applied only when they change).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Looks {
    pub theme: ThemeChoice,
    pub large_type: bool,
}

impl Looks {
    pub fn apply(self, ctx: &egui::Context) {
        ctx.set_theme(match self.theme {
            ThemeChoice::Light => egui::Theme::Light,
            ThemeChoice::Dark => egui::Theme::Dark,
        });
        ctx.set_zoom_factor(if self.large_type { LARGE_TYPE_ZOOM } else { 1.0 });
    }
}

/// Colours of the pieces, from the catalog.
#[derive(Debug, Clone)]
pub struct Palette {
    catalog: Catalog,
}

fn color(c: Srgb) -> Color32 {
    Color32::from_rgb(c.0[0], c.0[1], c.0[2])
}

impl Palette {
    pub fn new(catalog: Catalog) -> Self {
        Palette { catalog }
    }

    /// The colour of a player's ship.
    pub fn player(&self, p: PlayerColor) -> Color32 {
        let kind = if p.is_pirate() {
            PieceKind::PirateShip
        } else {
            PieceKind::Ship
        };
        self.catalog
            .piece(kind, Some(p))
            .or_else(|| self.catalog.piece(kind, None))
            .map(|e| color(e.colour))
            .unwrap_or(Color32::GRAY)
    }

    pub fn treasure(&self, t: TreasureType) -> Color32 {
        self.catalog
            .treasure(t)
            .map(|e| color(e.colour))
            .unwrap_or(Color32::GRAY)
    }

    pub fn bead(&self, b: Bead) -> Color32 {
        match b {
            Bead::Blue => color(self.catalog.string.bead_blue),
            Bead::Black => color(self.catalog.string.bead_black),
        }
    }

    pub fn crab(&self) -> Color32 {
        self.catalog
            .piece(PieceKind::Crab, None)
            .map(|e| color(e.colour))
            .unwrap_or(Color32::from_rgb(0xE2, 0x55, 0x2D))
    }

    pub fn string(&self) -> Color32 {
        color(self.catalog.string.colour)
    }
}

/// Black or white, whichever reads better on `bg`.
pub fn text_on(bg: Color32) -> Color32 {
    let l = 0.299 * f32::from(bg.r()) + 0.587 * f32::from(bg.g()) + 0.114 * f32::from(bg.b());
    if l > 150.0 { Color32::BLACK } else { Color32::WHITE }
}

/// A rounded chip with the player's name in the ship's colour.
pub fn player_chip(ui: &mut egui::Ui, palette: &Palette, p: PlayerColor) -> egui::Response {
    chip(ui, p.as_str(), palette.player(p))
}

/// A rounded chip with a treasure's name in its colour.
pub fn treasure_chip(ui: &mut egui::Ui, palette: &Palette, t: TreasureType) -> egui::Response {
    chip(ui, t.as_str(), palette.treasure(t))
}

pub fn chip(ui: &mut egui::Ui, text: &str, bg: Color32) -> egui::Response {
    egui::Frame::new()
        .fill(bg)
        .corner_radius(6.0)
        .inner_margin(egui::Margin::symmetric(8, 2))
        .show(ui, |ui| {
            ui.label(egui::RichText::new(text).color(text_on(bg)).strong())
        })
        .inner
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn piece_colours_come_from_the_catalog() {
        let p = Palette::new(Catalog::default_catalog());
        assert_eq!(p.player(PlayerColor::Orange), Color32::from_rgb(0xF0, 0x8A, 0x24));
        assert_eq!(p.player(PlayerColor::Pink), Color32::from_rgb(0xFF, 0x3F, 0xA4));
        assert_eq!(
            p.treasure(TreasureType::Goblet),
            Color32::from_rgb(0xF2, 0xC2, 0x30)
        );
        assert_eq!(p.bead(Bead::Black), Color32::from_rgb(0x15, 0x15, 0x15));
        assert_eq!(text_on(Color32::WHITE), Color32::BLACK);
        assert_eq!(text_on(p.bead(Bead::Blue)), Color32::WHITE);
    }
}
