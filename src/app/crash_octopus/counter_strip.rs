//! The Octo-Counter strip: the beads from start (left) to finish (right), the crab standing before
//! the next bead it will step over, and that next bead ringed. Read left to right like the string.

use crate::app::style::Palette;
use crate::games::crash_octopus::{Bead, BeadSequence};
use egui::{Color32, Sense, Stroke, pos2, vec2};

/// Largest bead diameter on screen, points; beads shrink to fit a narrow panel.
const BEAD_PT: f32 = 26.0;
/// Smallest bead diameter, points.
const MIN_BEAD_PT: f32 = 8.0;
/// Gap between beads as a fraction of a bead.
const GAP_RATIO: f32 = 0.3;
/// Room left of the first bead for the crab standing at the start.
const START_PT: f32 = 30.0;

/// The counter in words, e.g. "The crab has stepped over 3 of 16 beads. Next bead: black (the
/// octopus attacks after the next load)."
pub fn describe(beads: &BeadSequence, crab: usize) -> String {
    let n = beads.len();
    let next = match beads.get(crab) {
        Some(Bead::Blue) => "Next bead: blue.".to_string(),
        Some(Bead::Black) => "Next bead: black (the octopus attacks after the next load).".to_string(),
        None => "The crab has reached the end of the counter.".to_string(),
    };
    let left = n.saturating_sub(crab);
    format!("The crab has stepped over {crab} of {n} beads ({left} to go). {next}")
}

/// Draws the strip and its description.
pub fn show(ui: &mut egui::Ui, palette: &Palette, beads: &BeadSequence, crab: usize) {
    let n = beads.len();
    let fit = (ui.available_width() - START_PT - 8.0) / (n.max(1) as f32 * (1.0 + GAP_RATIO));
    let bead = fit.clamp(MIN_BEAD_PT, BEAD_PT);
    let step = bead * (1.0 + GAP_RATIO);
    let width = START_PT + n as f32 * step + 8.0;
    let height = BEAD_PT + 16.0;
    let (rect, _) = ui.allocate_exact_size(vec2(width, height), Sense::hover());
    let painter = ui.painter_at(rect);
    let cy = rect.center().y;
    let x_of = |i: usize| rect.left() + START_PT + i as f32 * step + bead / 2.0;
    // The string.
    painter.line_segment(
        [pos2(rect.left() + 4.0, cy), pos2(rect.right() - 4.0, cy)],
        Stroke::new(3.0, palette.string()),
    );
    let ring = ui.visuals().strong_text_color();
    let outline = ui.visuals().weak_text_color();
    for (i, b) in beads.0.iter().enumerate() {
        let c = pos2(x_of(i), cy);
        let stepped = i < crab;
        let fill = if stepped {
            palette.bead(*b).gamma_multiply(0.35)
        } else {
            palette.bead(*b)
        };
        painter.circle_filled(c, bead / 2.0, fill);
        // An outline, so black beads show on the dark theme.
        painter.circle_stroke(c, bead / 2.0, Stroke::new(1.0, outline));
        if i == crab {
            painter.circle_stroke(c, bead / 2.0 + 3.0, Stroke::new(2.5, ring));
        }
    }
    // The crab stands just before the next bead (after the last one at the end).
    let crab_x = if crab == 0 {
        rect.left() + START_PT / 2.0
    } else {
        x_of(crab - 1) + step / 2.0
    };
    let crab_rect = egui::Rect::from_center_size(pos2(crab_x, cy), vec2(18.0, 13.0));
    painter.rect_filled(crab_rect, 5.0, palette.crab());
    painter.rect_stroke(
        crab_rect,
        5.0,
        Stroke::new(1.0, Color32::BLACK),
        egui::StrokeKind::Outside,
    );
    ui.label(describe(beads, crab));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_description_names_the_next_bead_and_the_end() {
        let b: BeadSequence = "BBBK".parse().unwrap();
        assert_eq!(
            describe(&b, 0),
            "The crab has stepped over 0 of 4 beads (4 to go). Next bead: blue."
        );
        assert!(describe(&b, 3).ends_with("Next bead: black (the octopus attacks after the next load)."));
        assert!(describe(&b, 4).ends_with("reached the end of the counter."));
    }
}
