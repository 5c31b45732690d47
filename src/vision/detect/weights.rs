//! The weight map a model is fitted on: per region pixel, how much it speaks for the model (its
//! colours), against it (bare table, other colours) or neither (shadow, pixels others explain).

use super::model::Model;
use super::occluder::{HIDDEN_MAX_SHARE, HeldKey, Hiding, Occluder};
use crate::table::PieceKind;
use crate::vision::colour::{ColourSet, PixelColours};
use crate::vision::labels::Label;
use crate::vision::raster::WeightMap;
use crate::vision::region::Region;

/// Weight of a pixel that shows one of the model's colours as its best match.
const W_OWN_BEST: f32 = 1.0;
/// Weight of a pixel merely compatible with the model's colours.
const W_OWN_COMPATIBLE: f32 = 0.6;
/// Weight of a shadow pixel showing a shadow-like piece's main colour as its best, for a piece
/// found on shadows (see [`Detection::on_shadows`](super::Detection::on_shadows))...
const W_SHADOW_LIKE_BEST: f32 = 0.5;
/// ...and merely compatible with it. Less than a piece pixel's: the piece's own cast shadow
/// shows its colour too, and must not pull the fit off the piece.
const W_SHADOW_LIKE_COMPATIBLE: f32 = 0.3;
/// Weight of a changed pixel of another colour that no piece explains yet.
pub(super) const W_OTHER: f32 = -0.6;
/// Margin of the weight windows around a silhouette, mm.
pub(super) const WINDOW_MARGIN_MM: f64 = 6.0;
/// What a weight map depends on besides the region: the model's colours, its table and
/// shadow weights (as bits), which pixels others explain it leaves out ([`held_key`](super::occluder::held_key)), whether the
/// shadow pixels of its colour count for it ([`Detection::on_shadows`](super::Detection::on_shadows)), whether it is
/// [`Model::dark`], and the window.
pub(super) type MapKey = (u32, u32, u32, HeldKey, bool, bool, Window);

/// A window of region pixels, `[x0, x1) x [y0, y1)`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(super) struct Window {
    pub(super) x0: usize,
    pub(super) y0: usize,
    pub(super) x1: usize,
    pub(super) y1: usize,
}

/// The model's weights over a window of the region. `own` = the detection being refitted: its
/// own pixels count for it, every other detection's pixels count neither way.
pub(super) fn weight_map(
    region: &Region,
    model: &Model,
    explained: &[u16],
    own: Option<u16>,
    win: Window,
    on_shadows: bool,
    occluders: &[Occluder],
) -> WeightMap {
    let shadows_count = on_shadows && model.shadow_like;
    let (w, h) = (win.x1.saturating_sub(win.x0), win.y1.saturating_sub(win.y0));
    let mut out = Vec::with_capacity(w * h);
    // Row slices zipped, not indexed per pixel: a best fit builds a map per model it tries.
    for j in win.y0..win.y1 {
        let row = j * region.width + win.x0..j * region.width + win.x1.max(win.x0);
        let pixels = region.labels[row.clone()]
            .iter()
            .zip(&region.colours[row.clone()])
            .zip(&explained[row]);
        // A pixel another piece explains counts neither way; else by how well it shows `colours`:
        // as its best, merely compatible, or neither.
        let weigh = |c: &PixelColours, e: u16, colours: ColourSet, [best, compatible, neither]: [f32; 3]| {
            if e != 0 && Some(e) != own {
                0.0
            } else if colours.contains_any(c.best) {
                best
            } else if colours.contains_any(c.compatible) {
                compatible
            } else {
                neither
            }
        };
        out.extend(pixels.map(|((label, c), &e)| match label {
            Label::Piece => weigh(c, e, model.colours, [W_OWN_BEST, W_OWN_COMPATIBLE, W_OTHER]),
            Label::Table => model.table_weight,
            Label::Shadow if shadows_count => weigh(
                c,
                e,
                model.primary,
                [W_SHADOW_LIKE_BEST, W_SHADOW_LIKE_COMPATIBLE, model.shadow_weight],
            ),
            Label::Shadow => model.shadow_weight,
            Label::Outside => 0.0,
        }));
    }
    if model.dark {
        neutral_blends(region, win, &mut out);
    }
    let map = WeightMap::new(
        w,
        h,
        region.px_to_mm(win.x0 as f64, win.y0 as f64),
        region.mm_per_px,
        &out,
    );
    // A carrier leaves out whatever others explain (its loads); a treasure leaves out what a
    // piece hiding it explains where it hides it (behind a taller piece, under the palm).
    let carrier = weighs_held(model);
    let hiding: Vec<Option<Hiding>> = occluders.iter().map(|o| o.hiding(model)).collect();
    let hides = |e: u16, i: usize, j: usize| {
        e != 0
            && Some(e) != own
            && (carrier
                || hiding
                    .get(usize::from(e) - 1)
                    .copied()
                    .flatten()
                    .is_some_and(|h| {
                        let best = region.colours[j * region.width + i].best;
                        h.at(region.px_to_mm(i as f64, j as f64), best)
                    }))
    };
    let mut held = Vec::new();
    if carrier || hiding.iter().any(Option::is_some) {
        held.reserve(w * h);
        for j in win.y0..win.y1 {
            for i in win.x0..win.x1 {
                held.push(hides(explained[j * region.width + i], i, j));
            }
        }
    }
    let map = if held.iter().any(|&h| h) {
        map.with_held(&held, if carrier { 1.0 } else { HIDDEN_MAX_SHARE })
    } else {
        map
    };
    if model.solid.mouth.is_none() {
        return map;
    }
    let mut neutral = Vec::with_capacity(w * h);
    for j in win.y0..win.y1 {
        let row = &region.labels[j * region.width + win.x0..j * region.width + win.x1];
        neutral.extend(row.iter().map(|l| matches!(l, Label::Table | Label::Shadow)));
    }
    map.with_neutral_mouths(&neutral)
}

/// Piece pixels of other colours (weighed [`W_OTHER`]: no other piece explains them) beside bare
/// table or shadow count neither way in `out` (the weights of `win`): along a dark piece's
/// outline the camera blends it with the table (see [`Model::dark`]).
fn neutral_blends(region: &Region, win: Window, out: &mut [f32]) {
    let w = win.x1.saturating_sub(win.x0);
    let open =
        |i: usize, j: usize| matches!(region.labels[j * region.width + i], Label::Table | Label::Shadow);
    for j in win.y0..win.y1 {
        for i in win.x0..win.x1 {
            let k = (j - win.y0) * w + (i - win.x0);
            if out[k] != W_OTHER || region.labels[j * region.width + i] != Label::Piece {
                continue;
            }
            let beside = (i > 0 && open(i - 1, j))
                || (i + 1 < region.width && open(i + 1, j))
                || (j > 0 && open(i, j - 1))
                || (j + 1 < region.height && open(i, j + 1));
            if beside {
                out[k] = 0.0;
            }
        }
    }
}

/// Whether a model's fits leave what other pieces explain out of their area: a ship's loads
/// cover its deck (the island's treasures are few against its size).
pub(super) fn weighs_held(model: &Model) -> bool {
    model.carries_treasures() && model.kind != PieceKind::Island
}

/// The window holding a silhouette plus `margin_mm`.
pub(super) fn window_around(
    region: &Region,
    sil: &crate::vision::view::Silhouette,
    margin_mm: f64,
) -> Window {
    let Some((lo, hi)) = sil.bounds() else {
        return Window {
            x0: 0,
            y0: 0,
            x1: region.width,
            y1: region.height,
        };
    };
    let (a, b) = (region.mm_to_px(lo), region.mm_to_px(hi));
    let m = margin_mm / region.mm_per_px;
    let clamp_x = |v: f64| v.clamp(0.0, region.width as f64) as usize;
    let clamp_y = |v: f64| v.clamp(0.0, region.height as f64) as usize;
    Window {
        x0: clamp_x((a.0 - m).floor()),
        y0: clamp_y((a.1 - m).floor()),
        x1: clamp_x((b.0 + m).ceil() + 1.0),
        y1: clamp_y((b.1 + m).ceil() + 1.0),
    }
}
