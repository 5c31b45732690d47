//! What the referee saw, drawn over the camera picture, and the rulings in plain words.
//!
//! Conventions: readings are in the table frame, millimetres (`spec/table.md`); the profile maps
//! them to raw image pixels (at table height: footprints are drawn where the pieces stand) and
//! [`ImageOnScreen`] maps pixels to screen points. Nothing here computes a ruling: the overlays
//! and the words only show the referee's [`FrameReport`] (its `rulings`).

use super::camera_view::ImageOnScreen;
use super::style::{self, Palette};
use crate::calibrate::profile::Profile;
use crate::games::crash_octopus::PlayerColor;
use crate::referee::{ForbidReason, FrameReport, PlayerRulings, words};
use crate::table::{PieceKind, PieceReport, PointMm, PolygonMm};
use egui::{Color32, FontId, Painter, Pos2, Stroke};

/// Width of outlines, points.
const OUTLINE_W: f32 = 2.0;
/// Width of the closest treasure's ring and the forbidden crosses, points.
const MARK_W: f32 = 3.5;
/// The ocean's outline colour.
const OCEAN_BLUE: Color32 = Color32::from_rgb(0x1E, 0x88, 0xE5);
/// Label text size, points.
const LABEL_SIZE: f32 = 12.0;

/// Maps table millimetres to screen points through a profile and the drawn picture.
struct Mapper<'a> {
    profile: &'a Profile,
    on: &'a ImageOnScreen,
}

impl Mapper<'_> {
    fn pos(&self, p: PointMm) -> Option<Pos2> {
        let px = self.profile.mm_to_px(p)?;
        px.is_finite().then(|| self.on.to_screen(px.x, px.y))
    }

    fn polygon(&self, poly: &PolygonMm) -> Vec<Pos2> {
        poly.points().iter().filter_map(|&p| self.pos(p)).collect()
    }
}

/// A piece's short label: "gold p4", "orange ship p2", "crab".
pub fn piece_label(p: &PieceReport) -> String {
    match (p.piece, p.treasure, p.color) {
        (PieceKind::Treasure, Some(t), _) => format!("{t} {}", p.id),
        (PieceKind::Ship, _, Some(c)) => format!("{c} ship {}", p.id),
        (PieceKind::Anchor, _, Some(c)) => format!("{c} anchor {}", p.id),
        (PieceKind::Crab, _, _) => "crab".into(),
        (kind, _, _) => format!("{} {}", kind.as_str().replace('_', " "), p.id),
    }
}

fn piece_colour(p: &PieceReport, palette: &Palette) -> Color32 {
    match (p.piece, p.treasure, p.color) {
        (PieceKind::Treasure, Some(t), _) => palette.treasure(t),
        (_, _, Some(c)) => palette.player(c),
        (PieceKind::Crab, _, _) => palette.crab(),
        _ => Color32::from_gray(230),
    }
}

/// Draws the reading over the picture: the ocean, every piece outlined and labelled, the gaps
/// from `active`'s ship to the treasures, its closest treasure ringed, forbidden treasures
/// crossed with the reason, pieces out of the ocean marked.
pub fn draw(
    painter: &Painter,
    on: &ImageOnScreen,
    profile: &Profile,
    report: &FrameReport,
    palette: &Palette,
    active: Option<PlayerColor>,
) {
    let m = Mapper { profile, on };
    let ocean = m.polygon(&report.ocean.polygon_mm);
    if ocean.len() >= 3 {
        painter.add(egui::Shape::closed_line(
            ocean,
            Stroke::new(OUTLINE_W, OCEAN_BLUE),
        ));
    }
    let font = FontId::proportional(LABEL_SIZE);
    let rulings = report.rulings.as_ref();
    let out: Vec<&str> = rulings
        .map(|r| r.out_of_ocean.iter().map(String::as_str).collect())
        .unwrap_or_default();
    let mine: Option<&PlayerRulings> = active.and_then(|a| rulings.and_then(|r| r.players.get(&a)));
    let find = |id: &str| report.pieces.iter().find(|p| p.id == id);

    // Gaps first, under the outlines.
    if let Some(pr) = mine
        && let Some(ship) = find(&pr.ship)
        && let Some(from) = m.pos(ship.center_mm)
    {
        for g in &pr.gaps_mm {
            let Some(to) = find(&g.id).and_then(|t| m.pos(t.center_mm)) else {
                continue;
            };
            let closest = pr.closest.as_deref() == Some(g.id.as_str());
            let colour = if closest {
                style::OK_GREEN
            } else {
                Color32::from_white_alpha(160)
            };
            painter.line_segment([from, to], Stroke::new(1.5, colour));
            let mid = from + (to - from) * 0.5;
            painter.text(
                mid,
                egui::Align2::CENTER_CENTER,
                format!("{:.0} mm", g.gap_mm),
                font.clone(),
                colour,
            );
        }
    }

    for p in &report.pieces {
        let outline = m.polygon(&p.footprint_mm);
        let colour = piece_colour(p, palette);
        let is_out = out.contains(&p.id.as_str());
        if outline.len() >= 3 {
            let stroke = if is_out {
                Stroke::new(MARK_W, style::REFUSAL_RED)
            } else {
                Stroke::new(OUTLINE_W, colour)
            };
            painter.add(egui::Shape::closed_line(outline, stroke));
        }
        let Some(c) = m.pos(p.center_mm) else {
            continue;
        };
        let mut label = piece_label(p);
        if is_out {
            label.push_str(" — out of the ocean");
        }
        if let Some(pr) = mine {
            if pr.closest.as_deref() == Some(p.id.as_str()) {
                painter.circle_stroke(c, 16.0, Stroke::new(MARK_W, style::OK_GREEN));
                label.push_str(" — closest");
            } else if let Some(f) = pr.forbidden.iter().find(|f| f.id == p.id) {
                let r = 9.0;
                let s = Stroke::new(MARK_W, style::REFUSAL_RED);
                painter.line_segment([c + egui::vec2(-r, -r), c + egui::vec2(r, r)], s);
                painter.line_segment([c + egui::vec2(-r, r), c + egui::vec2(r, -r)], s);
                label.push_str(&format!(" — forbidden: {}", reason_words(f.reason)));
            }
        }
        let galley = painter.layout_no_wrap(label, font.clone(), Color32::WHITE);
        let at = c + egui::vec2(10.0, -22.0);
        let bg = egui::Rect::from_min_size(at, galley.size()).expand(2.0);
        painter.rect_filled(bg, 3.0, Color32::from_black_alpha(170));
        painter.galley(at, galley, Color32::WHITE);
    }
}

/// Why a treasure may not be flicked, in words.
pub fn reason_words(r: ForbidReason) -> &'static str {
    match r {
        ForbidReason::Closest => "it is the closest to the ship",
        ForbidReason::TypeLoaded => "this type is already on the ship",
        ForbidReason::TooCloseToCall => "too close to call with another",
        ForbidReason::UnknownType => "its type could not be told",
    }
}

/// The rulings of the committed reading in plain words: one line per ruling the referee made
/// (the referee's own messages), then the active player's closest treasure and what may be
/// flicked. Returns the lines (the panel shows them; tests read them).
pub fn ruling_lines(report: &FrameReport, active: Option<PlayerColor>) -> Vec<String> {
    let mut lines = Vec::new();
    let Some(r) = &report.rulings else {
        return lines;
    };
    if let Some(a) = active
        && let Some(pr) = r.players.get(&a)
    {
        let find = |id: &str| report.pieces.iter().find(|p| p.id == id);
        if let Some(id) = &pr.closest {
            let gap = pr
                .gaps_mm
                .iter()
                .find(|g| &g.id == id)
                .map(|g| format!(", {} mm from the ship", words::mm(g.gap_mm)))
                .unwrap_or_default();
            lines.push(format!(
                "{}'s closest treasure: {}{gap} — it must not be flicked.",
                words::player_cap(a),
                words::treasure(id, find(id).and_then(|p| p.treasure)),
            ));
        } else if pr.too_close_to_call {
            lines.push(format!(
                "{}'s closest treasure is too close to call between {}: the players choose.",
                words::player_cap(a),
                words::and_list(
                    &pr.closest_candidates
                        .iter()
                        .map(|id| words::treasure(id, find(id).and_then(|p| p.treasure)))
                        .collect::<Vec<_>>()
                ),
            ));
        }
    }
    lines.extend(r.messages.iter().cloned());
    lines
}
