//! The Octo-Counter in a frame: the crab's place among the beads, and the crab as a piece.
//!
//! The beads and the crab move along their stretch of string during a game (the crab walks,
//! the beads it passes shift), so that stretch is masked out of the main analysis: it would
//! differ from the empty-table reference all the time. Here it is looked at on its own: the
//! counter is read with calibration's reader (`calibrate::counter::locate_crab`), and the crab
//! is fitted like any piece, with only the crab's model.
//!
//! Conventions: table frame, mm; the band is a mask on the fine grid (`rectify.rs`).

use super::VisionError;
use super::colour::ColourSet;
use super::detect::{Detection, Detector, Model};
use super::fit::{Fit, union_area_mm2};
use super::labels::Balance;
use super::rectify::Rectification;
use super::region::{self, FineInputs};
use super::view::{Pose2, Silhouette, Viewpoint};
use crate::calibrate::colour::WhiteBalance;
use crate::calibrate::counter::{CrabPlace, SpotsMemo, locate_crab_on_string};
use crate::calibrate::curve::ClosedCurve;
use crate::calibrate::profile::{CounterLayout, Profile};
use crate::calibrate::rectify::{Rectified, RectifyGrid};
use crate::table::{CounterReport, PieceKind, PointMm, PointPx, PolygonMm};
use opencv::core::{self, Mat, Point, Rect, Scalar, Vector};
use opencv::imgproc;

/// Half-width of the counter's band around the string, mm (the crab is 20 mm wide).
pub const BAND_HALF_WIDTH_MM: f64 = 14.0;
/// The band reaches this far beyond the counter's first and last items along the string, mm.
pub const BAND_END_MARGIN_MM: f64 = 30.0;
/// The crab's height, for how far it leans (the band covers its lean too).
const CRAB_HEIGHT_MM: f64 = 12.0;
/// Sampling step along the string when drawing the band, mm.
const BAND_STEP_MM: f64 = 2.0;
/// Half the stretch of string over which the crab's heading is measured, mm.
const HEADING_HALF_WINDOW_MM: f64 = 10.0;
/// Quality given to a crab placed by the counter's reader alone (no change to fit): the
/// reader's finding is all the evidence there is; it makes a confident but not certain piece.
const READ_CRAB_QUALITY: f64 = 0.75;

/// The counter's stretch of string, prepared from the profile.
#[derive(Debug)]
pub struct CounterBand {
    layout: CounterLayout,
    string: PolygonMm,
    /// The string as a curve, for placing the crab at an arc length.
    line: ClosedCurve,
    /// Bounding rectangle of the band, fine pixels.
    rect: Rect,
    /// 255 on the band (fine grid, full size).
    mask: Mat,
    /// The band where the camera sees it (`mask` and the valid area).
    usable: Mat,
    /// The fine grid's scale.
    mm_per_px: f64,
    /// Where the counter's samples are seen (the band's profile's), kept across frames.
    spots: SpotsMemo,
}

/// What the counter showed in one frame.
#[derive(Debug, Clone, Default)]
pub struct CounterReading {
    pub counter: Option<CounterReport>,
    /// The crab, fitted (its index refers to the analyser's models).
    pub crab: Option<Detection>,
}

impl CounterBand {
    /// The band of the profile's counter; `None` when the profile has no counter or ocean.
    pub fn new(profile: &Profile, rect: &Rectification) -> Result<Option<Self>, VisionError> {
        let (Some(layout), Some(ocean)) = (&profile.counter, &profile.ocean) else {
            return Ok(None);
        };
        let Some(line) = ClosedCurve::from_polygon(&ocean.polygon_mm) else {
            return Ok(None);
        };
        let mut arcs: Vec<f64> = layout.bead_arc_mm.clone();
        if let Some(c) = layout.crab_arc_mm {
            arcs.push(c);
        }
        let Some(&first) = arcs.first() else {
            return Ok(None);
        };
        // Extent along the string from the first item, in vertex order (start -> finish).
        let rel: Vec<f64> = arcs.iter().map(|&s| line.wrap(s - first)).collect();
        let span_half = line.perimeter() / 2.0;
        // Items just before `first` wrap to near the perimeter: take them as negative.
        let rel: Vec<f64> = rel
            .iter()
            .map(|&r| if r > span_half { r - line.perimeter() } else { r })
            .collect();
        let lo = rel.iter().copied().fold(f64::INFINITY, f64::min) - BAND_END_MARGIN_MM;
        let hi = rel.iter().copied().fold(f64::NEG_INFINITY, f64::max) + BAND_END_MARGIN_MM;
        let view = profile.camera.as_ref().and_then(Viewpoint::of);
        let fine = &rect.fine;
        let mut mask = Mat::new_rows_cols_with_default(
            fine.height as i32,
            fine.width as i32,
            core::CV_8UC1,
            Scalar::all(0.0),
        )?;
        let mut on_table: Vector<Point> = Vector::new();
        let mut leaning: Vector<Point> = Vector::new();
        let to_px = |p: PointMm| {
            let q = fine.mm_to_px(p);
            Point::new(q.x.round() as i32, q.y.round() as i32)
        };
        let mut s = lo;
        while s <= hi {
            let p = line.point_at(first + s);
            on_table.push(to_px(p));
            if let Some(v) = &view {
                leaning.push(to_px(v.apparent(p, CRAB_HEIGHT_MM)));
            }
            s += BAND_STEP_MM;
        }
        let thickness = (2.0 * BAND_HALF_WIDTH_MM / fine.mm_per_px).round() as i32;
        for line_pts in [&on_table, &leaning] {
            if line_pts.len() < 2 {
                continue;
            }
            let mut v: Vector<Vector<Point>> = Vector::new();
            v.push(line_pts.clone());
            imgproc::polylines(
                &mut mask,
                &v,
                false,
                Scalar::all(255.0),
                thickness,
                imgproc::LINE_8,
                0,
            )?;
        }
        let mut usable = Mat::default();
        core::bitwise_and(&mask, &rect.fine_valid, &mut usable, &core::no_array())?;
        let bbox = imgproc::bounding_rect(&usable)?;
        if bbox.width <= 0 || bbox.height <= 0 {
            return Ok(None);
        }
        Ok(Some(Self {
            layout: layout.clone(),
            string: ocean.polygon_mm.clone(),
            line,
            rect: bbox,
            mask,
            usable,
            mm_per_px: fine.mm_per_px,
            spots: SpotsMemo::of_string(profile, &ocean.polygon_mm),
        }))
    }

    /// Bounding rectangle of the band, fine pixels.
    pub fn rect(&self) -> Rect {
        self.rect
    }

    /// Sets the band to 0 in a fine-grid mask (the main analysis does not look there).
    pub fn clear_from(&self, fine_mask: &mut Mat) -> Result<(), VisionError> {
        let mut inverse = Mat::default();
        core::bitwise_not(&self.mask, &mut inverse, &core::no_array())?;
        let mut out = Mat::default();
        core::bitwise_and(fine_mask, &inverse, &mut out, &core::no_array())?;
        *fine_mask = out;
        Ok(())
    }

    /// Reads the counter and fits the crab in one frame (`inputs` as for the main regions;
    /// `profile` the one the band was made from).
    pub fn read(
        &self,
        frame: &Mat,
        inputs: &FineInputs,
        profile: &Profile,
        models: &[Model],
        view: &Viewpoint,
        balance: &Balance,
    ) -> Result<CounterReading, VisionError> {
        let rect = inputs.rect;
        let image = rect.fine_view(frame, self.rect)?;
        let grid = RectifyGrid {
            origin_mm: rect
                .fine
                .px_to_mm(PointPx::new(self.rect.x as f64, self.rect.y as f64)),
            mm_per_px: rect.fine.mm_per_px,
            width: self.rect.width as u32,
            height: self.rect.height as u32,
        };
        let rectified = Rectified { image, grid };
        let place = WhiteBalance::estimate(&rectified.image, None).and_then(|wb| {
            locate_crab_on_string(&rectified, &self.string, profile, &wb, &self.layout, &self.spots).ok()
        });
        let crab = match fit_crab(frame, self, inputs, balance, models, view)? {
            Some(d) => Some(d),
            None => place.as_ref().and_then(|p| self.crab_as_read(p, models, view)),
        };
        Ok(CounterReading {
            counter: place.map(|p| p.report),
            crab,
        })
    }

    /// The crab where the counter's reader found it on the string, for when it shows no change
    /// to fit: the empty-table reference holds the crab at its start, so near there it differs
    /// little or not at all from the reference.
    fn crab_as_read(&self, place: &CrabPlace, models: &[Model], view: &Viewpoint) -> Option<Detection> {
        let (ci, model) = crab_model(models)?;
        let heading = self.line.tangent_at(place.crab_arc_mm, HEADING_HALF_WINDOW_MM);
        let pose = Pose2 {
            center_mm: self.line.point_at(place.crab_arc_mm),
            angle_rad: heading.y.atan2(heading.x),
            base_mm: 0.0,
        };
        let silhouette = Silhouette::of(&model.solid, &pose, view);
        let area_px = union_area_mm2(&silhouette.polygons) / (self.mm_per_px * self.mm_per_px);
        Some(Detection {
            model: ci,
            fit: Fit {
                pose,
                gain: READ_CRAB_QUALITY * area_px,
                area_px,
                silhouette,
            },
            top: None,
            runner_up: None,
            on_shadows: false,
            also_explains: ColourSet(0),
        })
    }
}

/// The crab's model and its index among `models`.
fn crab_model(models: &[Model]) -> Option<(usize, &Model)> {
    models.iter().enumerate().find(|(_, m)| m.kind == PieceKind::Crab)
}

/// Fits the crab in the band region of a frame.
pub fn fit_crab(
    frame: &Mat,
    band: &CounterBand,
    inputs: &FineInputs,
    balance: &Balance,
    models: &[Model],
    view: &Viewpoint,
) -> Result<Option<Detection>, VisionError> {
    let Some((ci, crab_model)) = crab_model(models) else {
        return Ok(None);
    };
    let band_inputs = FineInputs {
        rect: inputs.rect,
        reference: inputs.reference,
        usable: &band.usable,
        palette: inputs.palette,
        white: inputs.white,
        shadow_colours: false,
        top_colours: ColourSet(0),
        faint_pieces: false,
        rims: false,
        rim_colours: ColourSet(0),
    };
    let region = region::fine_region(frame, band.rect, &[], balance, &band_inputs)?;
    let mut detector = Detector::default();
    let result = detector.detect(&region, std::slice::from_ref(crab_model), view);
    Ok(result
        .detections
        .into_iter()
        .max_by(|a, b| a.fit.gain.total_cmp(&b.fit.gain))
        .map(|mut d| {
            d.model = ci;
            d
        }))
}
