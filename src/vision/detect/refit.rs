//! Pieces fitted again outside a region's first look: at a given pose, as another model, or
//! from several starts near where they were (`repose`).

use super::best_fit::{ISOTROPIC_STARTS, floor_for};
use super::marks::{explained_by, mark_explained};
use super::model::{MIN_QUALITY, Model};
use super::occluder::{Occluder, occluders_of};
use super::untangle::{UNTANGLE_GRID_RADIUS_MM, UNTANGLE_GRID_STEP_MM, UNTANGLE_GRID_TURNS};
use super::weights::{WINDOW_MARGIN_MM, weight_map, window_around};
use super::{Detection, min_gain_px};
use crate::vision::fit::{Fit, PoseGrid, Precision, fit_pose, grid_poses, refine_pose, score_at};
use crate::vision::raster::ScoreScratch;
use crate::vision::region::Region;
use crate::vision::view::{Pose2, Silhouette, Viewpoint};

/// Margin around a silhouette of [`refit_as`]'s window, mm: its pose may settle a few
/// millimetres from where the other model's did.
const REFIT_MARGIN_MM: f64 = 12.0;
/// Margin beyond a piece's reach (its silhouette turned about its centre) of [`repose`]'s
/// window, mm: ships fitted before their loads were found settled up to about 20 mm off.
const REPOSE_MARGIN_MM: f64 = 12.0;
/// How many of the best grid poses (one per angle) [`repose`] refines.
const REPOSE_STARTS: usize = 4;
/// Share of its gain by which a piece's new pose must beat its old one to replace it.
pub(super) const REPOSE_MIN_GAIN_SHARE: f64 = 0.03;
/// The fit of `model` exactly at `pose`, with the pixels the `others` (model and pose) explain
/// counting neither way, as the detector would weigh it: for probes and tests that compare a
/// true pose with the one found. `None` when the silhouette falls off the region.
pub fn fit_at(
    region: &Region,
    model: &Model,
    view: &Viewpoint,
    pose: Pose2,
    others: &[(&Model, Pose2)],
) -> Option<Fit> {
    let mut explained = vec![0u16; region.len()];
    for (k, (m, p)) in others.iter().enumerate() {
        mark_explained(
            region,
            m,
            &Silhouette::of(&m.solid, p, view),
            &mut explained,
            k as u16 + 1,
            false,
        );
    }
    let occluders: Vec<Occluder> = others.iter().map(|(m, p)| Occluder::of(m, p, view)).collect();
    let sil = Silhouette::of(&model.solid, &pose, view);
    let win = window_around(region, &sil, WINDOW_MARGIN_MM);
    let at = |on_shadows: bool| {
        let map = weight_map(region, model, &explained, None, win, on_shadows, &occluders);
        score_at(&model.solid, &map, view, pose, &mut ScoreScratch::default())
    };
    // A shadow-like piece is weighed both ways, as the detector may.
    match (at(false), model.shadow_like.then(|| at(true)).flatten()) {
        (Some(a), Some(b)) if b.gain > a.gain => Some(b),
        (a, b) => a.or(b),
    }
}

/// How [`refit_as`] weighs a model's colours.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SeenBy {
    /// All the model's colours, as the piece is then reported.
    AllColours,
    /// Its main colour alone: its other colours count as another piece's. Two look-alikes of one
    /// main colour (the ink die and the Octo-Canon, both near black) are compared so: where the
    /// die's pink faces would take a pink ship's pixels beside the canon, only shape and main
    /// colour tell them apart.
    MainColour,
}

/// `model` fitted where `at` was found, instead of `at`'s own model, seen as `seen` says, the
/// `others` found in the same region explaining their pixels, placed to the final precision (it
/// is reported as found). `None` unless it fits well enough to be a piece of `model`. For when
/// the box holds fewer of `at`'s kind than were found and another model shares its main colour:
/// a black Octo-Canon beside a pink ship fits the ink die better (the die's pink faces take the
/// ship's pixels), and only the real die found elsewhere tells it is the canon.
pub fn refit_as(
    region: &Region,
    models: &[Model],
    view: &Viewpoint,
    model: usize,
    at: &Detection,
    others: &[&Detection],
    seen: SeenBy,
) -> Option<Fit> {
    let m = models.get(model)?;
    match seen {
        SeenBy::AllColours => refit_model(region, models, view, m, at, others),
        SeenBy::MainColour => {
            let mut m = m.clone();
            m.colours = m.primary;
            refit_model(region, models, view, &m, at, others)
        }
    }
}

/// `m` fitted where `at` was found (see [`refit_as`]); `models` are those the `others` are of.
fn refit_model(
    region: &Region,
    models: &[Model],
    view: &Viewpoint,
    m: &Model,
    at: &Detection,
    others: &[&Detection],
) -> Option<Fit> {
    let explained = explained_by(region, models, others);
    let start = at.fit.pose.center_mm;
    let base_mm = at.fit.pose.base_mm;
    let probe = Pose2 {
        center_mm: start,
        angle_rad: 0.0,
        base_mm,
    };
    let sil = Silhouette::of(&m.solid, &probe, view);
    let win = window_around(region, &sil, REFIT_MARGIN_MM);
    let on_shadows = at.on_shadows && m.shadow_like;
    let occluders = occluders_of(models, view, others.iter().copied());
    let map = weight_map(region, m, &explained, None, win, on_shadows, &occluders);
    let angles: Vec<f64> = if m.round {
        vec![0.0]
    } else {
        (0..ISOTROPIC_STARTS)
            .map(|k| k as f64 * m.period / ISOTROPIC_STARTS as f64)
            .collect()
    };
    let mut scratch = ScoreScratch::default();
    let found = fit_pose(&m.solid, &map, view, start, &angles, base_mm, &mut scratch)?;
    let fit = refine_pose(
        &m.solid,
        &map,
        view,
        found.pose,
        m.round,
        Precision::FINAL,
        &mut scratch,
    )?;
    (fit.quality() >= floor_for(m, MIN_QUALITY) && fit.gain >= min_gain_px(map.mm_per_px)).then_some(fit)
}

/// `at` fitted afresh as its own model once the region's `others` are found and explain their
/// pixels: from the best poses of a grid about its centre (as [`Detector::untangle`](super::Detector::untangle)'s), within
/// [`REPOSE_MARGIN_MM`] beyond its reach. The new fit when it explains at least
/// [`REPOSE_MIN_GAIN_SHARE`] more than `at`'s pose does in the same light (and
/// [`MIN_GAIN_MM2`](super::MIN_GAIN_MM2)), else `None`. A ship is fitted before the treasures on
/// its deck and the anchor beside it are found, while their pixels still count against it; a pose turned or
/// slid off its hull may then explain more than the true one, which wins once they are found.
pub fn repose(
    region: &Region,
    models: &[Model],
    view: &Viewpoint,
    at: &Detection,
    others: &[&Detection],
) -> Option<Fit> {
    let m = models.get(at.model)?;
    let explained = explained_by(region, models, others);
    let pose = at.fit.pose;
    let (lo, hi) = at.fit.silhouette.bounds()?;
    // Room to turn about the centre as well as to slide.
    let reach_mm = (hi.x - lo.x).max(hi.y - lo.y) / 2.0;
    let win = window_around(region, &at.fit.silhouette, reach_mm + REPOSE_MARGIN_MM);
    let occluders = occluders_of(models, view, others.iter().copied());
    let map = weight_map(
        region,
        m,
        &explained,
        None,
        win,
        at.on_shadows && m.shadow_like,
        &occluders,
    );
    let mut scratch = ScoreScratch::default();
    let now = score_at(&m.solid, &map, view, pose, &mut scratch)?;
    // The best grid poses of a few angles start, as where a hull may lie across its anchor.
    let grid = PoseGrid {
        centre: pose.center_mm,
        radius_mm: UNTANGLE_GRID_RADIUS_MM,
        step_mm: UNTANGLE_GRID_STEP_MM,
        turns: UNTANGLE_GRID_TURNS,
        base_mm: pose.base_mm,
    };
    let best = grid_poses(&m.solid, &map, view, &grid, &mut scratch)
        .into_iter()
        .take(REPOSE_STARTS)
        .filter_map(|g| {
            refine_pose(
                &m.solid,
                &map,
                view,
                g.pose,
                m.round,
                Precision::COMPARE,
                &mut scratch,
            )
        })
        .max_by(|a, b| a.gain.total_cmp(&b.gain))?;
    let fit = refine_pose(
        &m.solid,
        &map,
        view,
        best.pose,
        m.round,
        Precision::FINAL,
        &mut scratch,
    )?;
    let better =
        fit.gain >= now.gain + (now.gain.abs() * REPOSE_MIN_GAIN_SHARE).max(min_gain_px(map.mm_per_px));
    (better && fit.quality() >= floor_for(m, MIN_QUALITY)).then_some(fit)
}
