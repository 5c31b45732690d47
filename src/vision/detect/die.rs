//! The ink die's top colour, read inside its fitted top face.

use super::marks::for_each_inside;
use super::model::Model;
use crate::games::crash_octopus::DieTop;
use crate::table::PointMm;
use crate::vision::fit::Fit;
use crate::vision::labels::Label;
use crate::vision::region::Region;
use crate::vision::view::Viewpoint;

/// The die's top face is read inside this fraction of its outline (away from the edges).
const DIE_TOP_SHRINK: f64 = 0.7;
/// The ink die's top colour: the colour most pixels of its top face show (the top face is
/// never hidden from a camera above). A die that looks like a shadow of the table
/// ([`Model::shadow_like`]) may show its dark top as a shadow, whole or in part: its shadow
/// pixels of the dark colour count for the dark top.
pub fn die_top(region: &Region, model: &Model, fit: &Fit, view: &Viewpoint) -> Option<DieTop> {
    let top = model.solid.parts.first()?.sections.last()?;
    let pose = fit.pose;
    let (s, c) = pose.angle_rad.sin_cos();
    let pts: Vec<PointMm> = top
        .outline
        .iter()
        .map(|&q| {
            let q = q * DIE_TOP_SHRINK;
            let p = PointMm::new(c * q.x - s * q.y, s * q.x + c * q.y) + pose.center_mm;
            view.apparent(p, pose.base_mm + top.z_mm)
        })
        .collect();
    let (mut first, mut second, mut shaded_first) = (0usize, 0usize, 0usize);
    for_each_inside(region, &[pts], |p| {
        let b = region.colours[p].best;
        match region.labels[p] {
            Label::Piece if model.primary.contains_any(b) => first += 1,
            Label::Piece if model.secondary.contains_any(b) => second += 1,
            Label::Shadow if model.shadow_like && model.primary.contains_any(b) => shaded_first += 1,
            _ => {}
        }
    });
    // A die that looks like a shadow of the table shows its dark face as one, all of it or in
    // part: its lighter faces never do, so every such pixel speaks for the dark top, beside
    // the few of the red sides the view leans into the top's outline.
    first += shaded_first;
    if first + second == 0 {
        return None;
    }
    Some(if first >= second {
        DieTop::Black
    } else {
        DieTop::Red
    })
}
