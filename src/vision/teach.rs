//! Teaching a piece: its colours and size learnt from frames of the real piece, for
//! `octoref teach` and the app's teach panel ([`teach`], then [`Lesson::store`]).
//!
//! Per frame: the frame is rectified on the profile's reference grid, white-balanced against the
//! empty-table reference and labelled exactly as the analyser does (`labels.rs`: what changed
//! in colour, or beyond any shadow). Changed pixels group into blobs; the piece is the only blob
//! ([`Pick::Alone`]; the Octo-Counter's stretch of string is left out unless the piece is the
//! crab) or the blob at a table point ([`Pick::At`]). Nothing there, or several candidates, is
//! refused with a message saying which.
//!
//! - **Size**: the catalog solid's silhouette (parallax included, `view.rs`) is placed on the
//!   blob: centre and angle by overlap, then its size scaled until the silhouette's area
//!   matches the blob's. The scale multiplies every catalog size of the piece (heights too);
//!   within [`SCALE_DEADBAND`] of 1 it is stored as 1 (measurement noise, not a different set).
//!   When the sized outline does not match the blob well ([`MIN_OVERLAP`]) but the outline at
//!   the catalog's size covers it ([`MIN_COVERED`]), the piece shows only partly against the
//!   table: its colours are learnt and its size is left as the catalog's. Otherwise the blob is
//!   refused: it is not this piece alone.
//! - **Colours**: the blob's pixels (its rim left out: mixed with the table) in the
//!   analyser's colour space (`colour.rs`: chroma and brightness relative to the reference,
//!   after the frame's white balance against the reference and the calibration paper's white
//!   correction, [`white_gains`](super::analyzer::white_gains)). A piece with two catalog colours (captain, island, ink die) gets
//!   two models, the pixels split between them starting from the catalog's colours. A model's
//!   spread is the smallest that puts [`COVERED_SHARE`] of its pixels within
//!   [`COVERED_DISTANCE`] noise units of it.
//!
//! Conventions: table frame, millimetres; fine pixels as `rectify.rs`.

use super::VisionError;
use super::colour::{ColourModel, chroma_of, relative_brightness};
use super::counter::CounterBand;
use super::labels::{Balance, Label, label};
use super::rectify::Rectification;
use super::region::blur;
use super::solid::Solid;
use super::taught::{TaughtError, TaughtModels, TaughtPiece};
use super::view::{Pose2, Silhouette, Viewpoint};
use crate::calibrate::profile::{Profile, now_rfc3339};
use crate::table::{Catalog, CatalogEntry, PieceKind, PointMm, PointPx, PolygonMm};
use opencv::core::{self, Mat, Point, Rect, Scalar, Size, Vec3b, Vector};
use opencv::imgproc;
use opencv::prelude::*;
use serde::Serialize;
use std::collections::BTreeSet;

/// Blobs smaller than this are noise, mm².
pub const MIN_BLOB_MM2: f64 = 20.0;
/// With `--at`, a blob whose nearest pixel is this close to the point is a candidate, mm.
pub const PICK_RADIUS_MM: f64 = 12.0;
/// The catalog outline, placed and sized, must match the blob at least this well (intersection
/// over union) for the size to be measured...
pub const MIN_OVERLAP: f64 = 0.7;
/// ...otherwise, a piece that shows only partly against the table (a white figure on a pale
/// table) is still taught its colours, at the catalog's size, when the outline at that size
/// covers at least this share of the blob.
pub const MIN_COVERED: f64 = 0.85;
/// Pixels this far outside the placed outline still belong to the piece (rounding, blur).
const ON_PIECE_GROW_PX: i32 = 2;
/// With [`Pick::Alone`], another blob lies on the piece when this share of it is inside the
/// piece's outline (a hat seen apart from its body); otherwise there are several things.
const ON_PIECE_SHARE: f64 = 0.8;
/// Shifts tried around the centroid placement, mm either way (in steps of a fine pixel).
const SHIFT_MM: f64 = 3.0;
/// Sizes the measured piece may have relative to the catalog's.
pub const SCALE_RANGE: (f64, f64) = (0.5, 2.0);
/// A measured scale this close to 1 is stored as 1.
pub const SCALE_DEADBAND: f64 = 0.06;
/// Angles tried when placing the outline, degrees apart.
const ANGLE_STEP_DEG: f64 = 5.0;
/// Rounds of re-centring and re-sizing.
const FIT_ROUNDS: usize = 4;
/// A colour model must put this share of its pixels...
pub const COVERED_SHARE: f64 = 0.9;
/// ...within this distance (noise units, `ColourModel::distance`).
pub const COVERED_DISTANCE: f32 = 1.5;
/// Largest colour spread a model may get.
const MAX_SIGMA: f32 = 0.08;
/// Brightness range kept: these quantiles of the pixels' relative brightness...
const BRIGHTNESS_QUANTILES: (f64, f64) = (0.02, 0.98);
/// ...widened by these factors (light differs across the table and between frames).
const BRIGHTNESS_WIDEN: (f32, f32) = (0.7, 1.4);
/// A second colour holding less than this share of the pixels is dropped.
const MIN_SECOND_SHARE: f64 = 0.03;
/// Fewest colour pixels to learn from (over all frames).
pub const MIN_COLOUR_PIXELS: usize = 25;

/// Which blob of a frame is the piece.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Pick {
    /// The only piece on the table.
    Alone,
    /// The piece at this table point (mm).
    At(PointMm),
}

/// Why a piece could not be taught.
#[derive(Debug, thiserror::Error)]
pub enum TeachError {
    #[error("unknown piece {name:?}; expected a catalog name: {known}")]
    UnknownPiece { name: String, known: String },
    #[error("no frames to learn from")]
    NoFrames,
    #[error(
        "frame {frame}: nothing on the table differs from the empty-table reference; show the piece to the camera"
    )]
    NothingFound { frame: usize },
    #[error(
        "frame {frame}: {count} things differ from the empty table (at {places}); show the piece alone, or pick it with --at X,Y (mm)"
    )]
    Several {
        frame: usize,
        count: usize,
        places: String,
    },
    #[error(
        "frame {frame}: nothing differs from the empty table within {radius_mm} mm of ({x:.0}, {y:.0}) mm{nearest}"
    )]
    NothingAt {
        frame: usize,
        x: f64,
        y: f64,
        radius_mm: f64,
        nearest: String,
    },
    #[error(
        "frame {frame}: {count} things lie within {radius_mm} mm of ({x:.0}, {y:.0}) mm (at {places}); pick a point on the piece itself"
    )]
    SeveralAt {
        frame: usize,
        count: usize,
        x: f64,
        y: f64,
        radius_mm: f64,
        places: String,
    },
    #[error(
        "frame {frame}: what was found at ({x:.0}, {y:.0}) mm does not look like one {piece} (its outline covers it at best {overlap:.2}, expected {min:.2}); is it alone, away from other pieces and hands?"
    )]
    Shape {
        frame: usize,
        piece: String,
        x: f64,
        y: f64,
        overlap: f64,
        min: f64,
    },
    #[error(
        "frame {frame}: what was found is {scale:.2} times the catalog's {piece} ({range_lo}..{range_hi} accepted); is it the right piece?"
    )]
    Size {
        frame: usize,
        piece: String,
        scale: f64,
        range_lo: f64,
        range_hi: f64,
    },
    #[error(
        "only {pixels} pixels show the piece's colour (at least {min} needed); bring the camera closer or show the piece in more frames"
    )]
    TooFewPixels { pixels: usize, min: usize },
    #[error("frame {frame}: {source}")]
    Frame {
        frame: usize,
        #[source]
        source: VisionError,
    },
    #[error(transparent)]
    Vision(#[from] VisionError),
    #[error(transparent)]
    Taught(#[from] TaughtError),
}

impl TeachError {
    /// Whether the error is about the input (frames, names, profile) rather than a failure.
    pub fn is_input_error(&self) -> bool {
        !matches!(
            self,
            TeachError::Vision(VisionError::OpenCv(_))
                | TeachError::Frame {
                    source: VisionError::OpenCv(_),
                    ..
                }
        )
    }
}

/// One colour learnt.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LearntColour {
    /// The mean colour of its pixels after white balance, sRGB hex (`"#C9962B"`).
    pub mean_hex: String,
    /// The catalog colour it replaces, sRGB hex.
    pub catalog_hex: Option<String>,
    /// Chroma spread (one sigma on top of pixel noise).
    pub chroma_sigma: f32,
    /// Relative brightness range (pixel / table).
    pub brightness: [f32; 2],
    pub pixels: usize,
}

/// What one frame showed.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FrameLearnt {
    /// The footprint centre found, mm.
    pub center_mm: [f64; 2],
    pub angle_deg: f64,
    /// Area of the blob (the piece as the camera sees it, leaning), mm².
    pub silhouette_mm2: f64,
    pub scale: f64,
    /// How well the placed catalog outline matches the blob: intersection over union when the
    /// size was measured, else the share of the blob it covers.
    pub overlap: f64,
    /// Whether the size was measured in this frame (false: the piece showed only partly).
    pub size_measured: bool,
}

/// What was learnt about a piece.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Lesson {
    pub piece: String,
    /// What goes into the profile.
    pub taught: TaughtPiece,
    pub colours: Vec<LearntColour>,
    pub frames: Vec<FrameLearnt>,
    /// Measured size over the catalog's, before the dead band (1 when not measured).
    pub measured_scale: f64,
    /// Whether any frame showed the piece well enough to measure its size.
    pub size_measured: bool,
    pub catalog_area_mm2: f64,
}

impl Lesson {
    /// Stores the lesson in the profile's `taught` map (other taught pieces stay).
    pub fn store(&self, profile: &mut Profile) -> Result<(), TeachError> {
        let mut taught = TaughtModels::default();
        taught.pieces.insert(self.piece.clone(), self.taught.clone());
        taught.write_into(profile)?;
        Ok(())
    }
}

/// A blob of changed pixels.
#[derive(Debug, Clone)]
struct Blob {
    /// Fine pixel indices (`y * width + x`).
    pixels: Vec<usize>,
    bbox: Rect,
    centroid_mm: PointMm,
}

/// Pixel colours of one frame's piece.
#[derive(Debug, Clone, Copy)]
struct Sample {
    bgr: [f32; 3],
    ref_sum: f32,
}

/// Learns `piece` (a catalog name) from `frames` (raw BGR frames at the profile's resolution)
/// with the profile's rectified empty-table `reference`.
pub fn teach(
    profile: &Profile,
    reference: &Mat,
    catalog: &Catalog,
    piece: &str,
    frames: &[Mat],
    pick: Pick,
) -> Result<Lesson, TeachError> {
    let entry = catalog
        .pieces
        .iter()
        .find(|e| e.name == piece && e.piece != PieceKind::Bead)
        .ok_or_else(|| TeachError::UnknownPiece {
            name: piece.to_string(),
            known: catalog
                .pieces
                .iter()
                .filter(|e| e.piece != PieceKind::Bead)
                .map(|e| e.name.as_str())
                .collect::<Vec<_>>()
                .join(", "),
        })?;
    if frames.is_empty() {
        return Err(TeachError::NoFrames);
    }
    let grid = profile.reference.as_ref().ok_or(VisionError::NoReference)?.grid;
    if reference.cols() != grid.width as i32 || reference.rows() != grid.height as i32 {
        return Err(VisionError::ReferenceSize {
            width: reference.cols(),
            height: reference.rows(),
            expected_width: grid.width,
            expected_height: grid.height,
        }
        .into());
    }
    if reference.typ() != core::CV_8UC3 {
        return Err(VisionError::FrameType.into());
    }
    let rect = Rectification::new(profile, grid)?;
    let view = profile
        .camera
        .as_ref()
        .and_then(Viewpoint::of)
        .unwrap_or_else(Viewpoint::orthographic);
    let mut usable = rect.fine_valid.clone();
    let mut balance_mask = rect.fine_valid.clone();
    if let Some(band) = CounterBand::new(profile, &rect)? {
        band.clear_from(&mut balance_mask)?;
        if entry.piece != PieceKind::Crab {
            band.clear_from(&mut usable)?;
        }
    }
    let ref_blur = blur(reference)?;
    let white = super::analyzer::white_gains(profile.white_bgr);
    let solid = Solid::of(entry);
    let full = Rect::new(0, 0, grid.width as i32, grid.height as i32);

    let mut samples: Vec<Sample> = Vec::new();
    let mut learnt = Vec::with_capacity(frames.len());
    for (k, frame) in frames.iter().enumerate() {
        let n = k + 1;
        let at_frame = |source: VisionError| TeachError::Frame { frame: n, source };
        let fine = blur(&rect.fine_view(frame, full).map_err(at_frame)?).map_err(at_frame)?;
        let balance = Balance::estimate(&fine, &ref_blur, &balance_mask).unwrap_or_default();
        let changed = changed_mask(&fine, &ref_blur, &usable, &balance).map_err(at_frame)?;
        let blobs = blobs(&changed, &rect).map_err(at_frame)?;
        let blob = choose(n, &blobs, pick, &rect)?;
        let fit = place(entry, &solid, &blob, &rect, &view).map_err(at_frame)?;
        let on_piece = piece_area(&solid, &fit, &blob, &rect, &view).map_err(at_frame)?;
        if pick == Pick::Alone {
            let apart: Vec<&Blob> = blobs
                .iter()
                .filter(|b| b.pixels.len() < blob.pixels.len() || b.bbox != blob.bbox)
                .filter(|b| {
                    let inside = b.pixels.iter().filter(|i| on_piece.contains(i)).count();
                    (inside as f64) < ON_PIECE_SHARE * b.pixels.len() as f64
                })
                .collect();
            if !apart.is_empty() {
                let mut all = vec![&blob];
                all.extend(apart);
                return Err(TeachError::Several {
                    frame: n,
                    count: all.len(),
                    places: places(&all),
                });
            }
        }
        if fit.size_measured && fit.overlap < MIN_OVERLAP {
            return Err(TeachError::Shape {
                frame: n,
                piece: entry.name.clone(),
                x: blob.centroid_mm.x,
                y: blob.centroid_mm.y,
                overlap: fit.overlap,
                min: MIN_OVERLAP,
            });
        }
        if !(SCALE_RANGE.0..=SCALE_RANGE.1).contains(&fit.scale) {
            return Err(TeachError::Size {
                frame: n,
                piece: entry.name.clone(),
                scale: fit.scale,
                range_lo: SCALE_RANGE.0,
                range_hi: SCALE_RANGE.1,
            });
        }
        let mpp = rect.fine.mm_per_px;
        learnt.push(FrameLearnt {
            center_mm: [fit.pose.center_mm.x, fit.pose.center_mm.y],
            angle_deg: fit.pose.angle_rad.to_degrees(),
            silhouette_mm2: blob.pixels.len() as f64 * mpp * mpp,
            scale: fit.scale,
            overlap: fit.overlap,
            size_measured: fit.size_measured,
        });
        samples.extend(
            colour_samples(&fine, &ref_blur, &balance, white, &on_piece, &changed, &rect)
                .map_err(at_frame)?,
        );
    }
    if samples.len() < MIN_COLOUR_PIXELS {
        return Err(TeachError::TooFewPixels {
            pixels: samples.len(),
            min: MIN_COLOUR_PIXELS,
        });
    }
    let clusters = split_colours(entry, &samples);
    let mut colours = Vec::new();
    let mut learnt_colours = Vec::new();
    for (cluster, catalog_colour) in clusters {
        let model = model_of(&cluster);
        learnt_colours.push(LearntColour {
            mean_hex: hex(mean_bgr(&cluster)),
            catalog_hex: catalog_colour.map(|c| format!("#{:02X}{:02X}{:02X}", c.0[0], c.0[1], c.0[2])),
            chroma_sigma: model.chroma_sigma,
            brightness: model.brightness,
            pixels: cluster.len(),
        });
        colours.push(model);
    }
    let mut scales: Vec<f64> = learnt
        .iter()
        .filter(|f| f.size_measured)
        .map(|f| f.scale)
        .collect();
    scales.sort_by(f64::total_cmp);
    let size_measured = !scales.is_empty();
    let measured_scale = scales.get(scales.len() / 2).copied().unwrap_or(1.0);
    let scale = if (measured_scale - 1.0).abs() < SCALE_DEADBAND {
        1.0
    } else {
        measured_scale
    };
    let catalog_area_mm2 = PolygonMm::new(entry.shape.local_footprint()).area();
    Ok(Lesson {
        piece: entry.name.clone(),
        taught: TaughtPiece {
            colours,
            scale,
            area_mm2: catalog_area_mm2 * scale * scale,
            frames: frames.len(),
            taught: now_rfc3339(),
        },
        colours: learnt_colours,
        frames: learnt,
        measured_scale,
        size_measured,
        catalog_area_mm2,
    })
}

/// 255 where a usable fine pixel shows a piece (as the analyser labels it).
fn changed_mask(fine: &Mat, reference: &Mat, usable: &Mat, balance: &Balance) -> Result<Mat, VisionError> {
    let mut mask =
        Mat::new_rows_cols_with_default(fine.rows(), fine.cols(), core::CV_8UC1, Scalar::all(0.0))?;
    for y in 0..fine.rows() {
        let f = fine.at_row::<Vec3b>(y)?;
        let r = reference.at_row::<Vec3b>(y)?;
        let u = usable.at_row::<u8>(y)?;
        let m = mask.at_row_mut::<u8>(y)?;
        for x in 0..f.len() {
            if u[x] == 0 {
                continue;
            }
            let rp = [r[x][0] as f32, r[x][1] as f32, r[x][2] as f32];
            if label(balance.apply(f[x]), rp) == Label::Piece {
                m[x] = 255;
            }
        }
    }
    // One-pixel noise out, one-pixel gaps in.
    let kernel = imgproc::get_structuring_element(imgproc::MORPH_RECT, Size::new(3, 3), Point::new(-1, -1))?;
    let mut opened = Mat::default();
    imgproc::morphology_ex(
        &mask,
        &mut opened,
        imgproc::MORPH_OPEN,
        &kernel,
        Point::new(-1, -1),
        1,
        core::BORDER_CONSTANT,
        Scalar::all(0.0),
    )?;
    let mut closed = Mat::default();
    imgproc::morphology_ex(
        &opened,
        &mut closed,
        imgproc::MORPH_CLOSE,
        &kernel,
        Point::new(-1, -1),
        1,
        core::BORDER_CONSTANT,
        Scalar::all(0.0),
    )?;
    Ok(closed)
}

/// The blobs of a changed mask at least [`MIN_BLOB_MM2`] large.
fn blobs(mask: &Mat, rect: &Rectification) -> Result<Vec<Blob>, VisionError> {
    let mut labels = Mat::default();
    let mut stats = Mat::default();
    let mut centroids = Mat::default();
    let n = imgproc::connected_components_with_stats(
        mask,
        &mut labels,
        &mut stats,
        &mut centroids,
        8,
        core::CV_32S,
    )?;
    let mpp = rect.fine.mm_per_px;
    let min_px = (MIN_BLOB_MM2 / (mpp * mpp)).ceil() as i32;
    let mut keep: Vec<Option<usize>> = vec![None; n.max(0) as usize];
    let mut out: Vec<Blob> = Vec::new();
    for i in 1..n {
        let area = *stats.at_2d::<i32>(i, imgproc::CC_STAT_AREA)?;
        if area < min_px {
            continue;
        }
        let bbox = Rect::new(
            *stats.at_2d::<i32>(i, imgproc::CC_STAT_LEFT)?,
            *stats.at_2d::<i32>(i, imgproc::CC_STAT_TOP)?,
            *stats.at_2d::<i32>(i, imgproc::CC_STAT_WIDTH)?,
            *stats.at_2d::<i32>(i, imgproc::CC_STAT_HEIGHT)?,
        );
        let cx = *centroids.at_2d::<f64>(i, 0)?;
        let cy = *centroids.at_2d::<f64>(i, 1)?;
        keep[i as usize] = Some(out.len());
        out.push(Blob {
            pixels: Vec::with_capacity(area as usize),
            bbox,
            centroid_mm: rect.fine.px_to_mm(PointPx::new(cx, cy)),
        });
    }
    let width = mask.cols() as usize;
    for y in 0..labels.rows() {
        let row = labels.at_row::<i32>(y)?;
        for (x, &l) in row.iter().enumerate() {
            if l > 0
                && let Some(Some(k)) = keep.get(l as usize)
            {
                out[*k].pixels.push(y as usize * width + x);
            }
        }
    }
    Ok(out)
}

fn places(blobs: &[&Blob]) -> String {
    blobs
        .iter()
        .map(|b| format!("({:.0}, {:.0})", b.centroid_mm.x, b.centroid_mm.y))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Distance from a table point to a blob's nearest pixel centre, mm.
fn distance_to(blob: &Blob, p: PointMm, rect: &Rectification) -> f64 {
    let width = rect.fine.width as usize;
    blob.pixels
        .iter()
        .map(|&i| {
            let q = rect
                .fine
                .px_to_mm(PointPx::new((i % width) as f64, (i / width) as f64));
            q.distance(p)
        })
        .fold(f64::INFINITY, f64::min)
}

/// The blob that is the piece, or why there is none.
fn choose(frame: usize, blobs: &[Blob], pick: Pick, rect: &Rectification) -> Result<Blob, TeachError> {
    match pick {
        // The largest; the caller checks that any other lies on the piece (a figure's hat seen
        // apart from its body).
        Pick::Alone => blobs
            .iter()
            .max_by_key(|b| b.pixels.len())
            .cloned()
            .ok_or(TeachError::NothingFound { frame }),
        Pick::At(p) => {
            let near: Vec<(f64, &Blob)> = blobs.iter().map(|b| (distance_to(b, p, rect), b)).collect();
            let touching: Vec<&Blob> = near
                .iter()
                .filter(|(d, _)| *d <= rect.fine.mm_per_px)
                .map(|(_, b)| *b)
                .collect();
            if let [one] = touching.as_slice() {
                return Ok((*one).clone());
            }
            let within: Vec<&Blob> = near
                .iter()
                .filter(|(d, _)| *d <= PICK_RADIUS_MM)
                .map(|(_, b)| *b)
                .collect();
            match within.as_slice() {
                [one] => Ok((*one).clone()),
                [] => {
                    let nearest = near
                        .iter()
                        .min_by(|a, b| a.0.total_cmp(&b.0))
                        .map(|(d, b)| {
                            format!(
                                "; the nearest thing is at ({:.0}, {:.0}) mm, {d:.0} mm away",
                                b.centroid_mm.x, b.centroid_mm.y
                            )
                        })
                        .unwrap_or_else(|| "; nothing differs from the empty table anywhere".into());
                    Err(TeachError::NothingAt {
                        frame,
                        x: p.x,
                        y: p.y,
                        radius_mm: PICK_RADIUS_MM,
                        nearest,
                    })
                }
                many => Err(TeachError::SeveralAt {
                    frame,
                    count: many.len(),
                    x: p.x,
                    y: p.y,
                    radius_mm: PICK_RADIUS_MM,
                    places: places(many),
                }),
            }
        }
    }
}

/// The catalog outline placed on a blob.
#[derive(Debug, Clone, Copy)]
struct Placement {
    pose: Pose2,
    scale: f64,
    overlap: f64,
    /// The size was measured (the sized outline matches); otherwise `scale` is 1.
    size_measured: bool,
}

/// `solid` made `k` times larger in every direction (as the analyser applies a taught size).
fn scaled(solid: &Solid, k: f64) -> Solid {
    let mut s = solid.clone();
    s.scale(k);
    s
}

/// A working window of the fine grid around a blob, where silhouettes are drawn.
struct Window {
    origin: Point,
    size: Size,
    blob: Mat,
    blob_px: f64,
}

impl Window {
    fn around(blob: &Blob, rect: &Rectification, margin_px: i32) -> Result<Self, VisionError> {
        let b = blob.bbox;
        let origin = Point::new(b.x - margin_px, b.y - margin_px);
        let size = Size::new(b.width + 2 * margin_px, b.height + 2 * margin_px);
        let mut mask =
            Mat::new_rows_cols_with_default(size.height, size.width, core::CV_8UC1, Scalar::all(0.0))?;
        let width = rect.fine.width as usize;
        for &i in &blob.pixels {
            let (x, y) = ((i % width) as i32 - origin.x, (i / width) as i32 - origin.y);
            *mask.at_2d_mut::<u8>(y, x)? = 255;
        }
        Ok(Self {
            origin,
            size,
            blob: mask,
            blob_px: blob.pixels.len() as f64,
        })
    }

    /// Draws a silhouette; returns its mask.
    fn draw(&self, sil: &Silhouette, rect: &Rectification) -> Result<Mat, VisionError> {
        let mut m = Mat::new_rows_cols_with_default(
            self.size.height,
            self.size.width,
            core::CV_8UC1,
            Scalar::all(0.0),
        )?;
        for poly in &sil.polygons {
            let pts: Vector<Point> = poly
                .iter()
                .map(|&q| {
                    let px = rect.fine.mm_to_px(q);
                    Point::new(
                        px.x.round() as i32 - self.origin.x,
                        px.y.round() as i32 - self.origin.y,
                    )
                })
                .collect();
            imgproc::fill_convex_poly(&mut m, &pts, Scalar::all(255.0), imgproc::LINE_8, 0)?;
        }
        Ok(m)
    }

    /// How a drawn silhouette compares with the blob.
    fn compare(&self, sil: &Mat) -> Result<Comparison, VisionError> {
        let mut both = Mat::default();
        core::bitwise_and_def(sil, &self.blob, &mut both)?;
        let inter = core::count_non_zero(&both)? as f64;
        let area = core::count_non_zero(sil)? as f64;
        let union = area + self.blob_px - inter;
        let m = imgproc::moments(sil, true)?;
        Ok(Comparison {
            overlap: if union > 0.0 { inter / union } else { 0.0 },
            covered: if self.blob_px > 0.0 {
                inter / self.blob_px
            } else {
                0.0
            },
            area_px: area,
            centroid_px: (m.m00 > 0.0).then(|| (m.m10 / m.m00, m.m01 / m.m00)),
        })
    }
}

/// A silhouette against the blob.
struct Comparison {
    /// Intersection over union.
    overlap: f64,
    /// Share of the blob inside the silhouette.
    covered: f64,
    /// The silhouette's pixel count.
    area_px: f64,
    /// The silhouette's centroid, window pixels.
    centroid_px: Option<(f64, f64)>,
}

/// Places and sizes the catalog outline on a blob (the piece stands on the table).
fn place(
    entry: &CatalogEntry,
    solid: &Solid,
    blob: &Blob,
    rect: &Rectification,
    view: &Viewpoint,
) -> Result<Placement, VisionError> {
    let mpp = rect.fine.mm_per_px;
    let reach = entry.shape.bounding_radius_mm() * SCALE_RANGE.1 + solid.height_mm;
    let margin = (reach / mpp).ceil() as i32 + 2;
    let win = Window::around(blob, rect, margin)?;
    let blob_c = rect.fine.mm_to_px(blob.centroid_mm);
    let blob_c = (blob_c.x - win.origin.x as f64, blob_c.y - win.origin.y as f64);
    let round = entry.shape.is_round();
    let period = match entry.shape {
        crate::table::Shape::Cube { .. } => std::f64::consts::FRAC_PI_2,
        crate::table::Shape::HexPrism { .. } => std::f64::consts::FRAC_PI_3,
        crate::table::Shape::Box { .. }
        | crate::table::Shape::Trapezoid { .. }
        | crate::table::Shape::Oval { .. } => std::f64::consts::PI,
        _ => std::f64::consts::TAU,
    };
    // The piece leans away from the nadir: start its footprint below the blob's middle.
    let start = view.below(blob.centroid_mm, solid.height_mm * 0.5);
    let mut best = Placement {
        pose: Pose2 {
            center_mm: start,
            angle_rad: 0.0,
            base_mm: 0.0,
        },
        scale: 1.0,
        overlap: 0.0,
        size_measured: false,
    };
    let steps = if round {
        1
    } else {
        (period.to_degrees() / ANGLE_STEP_DEG).round().max(1.0) as usize
    };
    let evaluate = |pose: &mut Pose2, s: &Solid| -> Result<Comparison, VisionError> {
        // Re-centre twice: the silhouette's centroid onto the blob's.
        for _ in 0..2 {
            let sil = win.draw(&Silhouette::of(s, pose, view), rect)?;
            if let Some((cx, cy)) = win.compare(&sil)?.centroid_px {
                pose.center_mm = pose.center_mm + PointMm::new((blob_c.0 - cx) * mpp, (blob_c.1 - cy) * mpp);
            }
        }
        let sil = win.draw(&Silhouette::of(s, pose, view), rect)?;
        win.compare(&sil)
    };
    for k in 0..steps {
        let mut pose = Pose2 {
            center_mm: start,
            angle_rad: period * k as f64 / steps as f64,
            base_mm: 0.0,
        };
        let iou = evaluate(&mut pose, solid)?.overlap;
        if iou > best.overlap {
            best = Placement {
                pose,
                scale: 1.0,
                overlap: iou,
                size_measured: false,
            };
        }
    }
    // At the catalog's size, the shift around the centroid placement that covers most of the
    // blob (a piece showing only partly has its centroid off its middle).
    let step = mpp;
    let n = (SHIFT_MM / step).round() as i32;
    let mut catalog_fit = best.pose;
    let mut covered = 0.0;
    for dy in -n..=n {
        for dx in -n..=n {
            let mut pose = best.pose;
            pose.center_mm = pose.center_mm + PointMm::new(dx as f64 * step, dy as f64 * step);
            let sil = win.draw(&Silhouette::of(solid, &pose, view), rect)?;
            let c = win.compare(&sil)?;
            if c.covered > covered {
                covered = c.covered;
                catalog_fit = pose;
            }
        }
    }
    // Size: scale until the silhouette's area is the blob's, re-placing each round.
    let mut scale = 1.0;
    for _ in 0..FIT_ROUNDS {
        let s = scaled(solid, scale);
        let mut pose = best.pose;
        let c = evaluate(&mut pose, &s)?;
        let area = c.area_px;
        best = Placement {
            pose,
            scale,
            overlap: c.overlap,
            size_measured: true,
        };
        if area <= 0.0 {
            break;
        }
        let next = (scale * (win.blob_px / area).sqrt()).clamp(SCALE_RANGE.0 * 0.5, SCALE_RANGE.1 * 2.0);
        if (next - scale).abs() < 0.005 {
            scale = next;
            break;
        }
        scale = next;
    }
    let s = scaled(solid, scale);
    let mut pose = best.pose;
    let iou = evaluate(&mut pose, &s)?.overlap;
    if iou >= MIN_OVERLAP || covered < MIN_COVERED {
        return Ok(Placement {
            pose,
            scale,
            overlap: iou,
            size_measured: true,
        });
    }
    Ok(Placement {
        pose: catalog_fit,
        scale: 1.0,
        overlap: covered,
        size_measured: false,
    })
}

/// The changed pixels a placed piece explains: its silhouette at the fitted pose and size,
/// grown by [`ON_PIECE_GROW_PX`] (fine pixel indices; the caller keeps the changed ones).
fn piece_area(
    solid: &Solid,
    fit: &Placement,
    blob: &Blob,
    rect: &Rectification,
    view: &Viewpoint,
) -> Result<BTreeSet<usize>, VisionError> {
    let s = scaled(solid, fit.scale);
    let sil = Silhouette::of(&s, &fit.pose, view);
    let (lo, hi) = sil.bounds().unwrap_or((blob.centroid_mm, blob.centroid_mm));
    let a = rect.fine.mm_to_px(lo);
    let b = rect.fine.mm_to_px(hi);
    let pad = ON_PIECE_GROW_PX + 2;
    let x0 = (a.x.min(b.x).floor() as i32 - pad).max(0);
    let y0 = (a.y.min(b.y).floor() as i32 - pad).max(0);
    let x1 = (a.x.max(b.x).ceil() as i32 + pad).min(rect.fine.width as i32);
    let y1 = (a.y.max(b.y).ceil() as i32 + pad).min(rect.fine.height as i32);
    let mut out = BTreeSet::new();
    if x1 <= x0 || y1 <= y0 {
        return Ok(out);
    }
    let mut mask = Mat::new_rows_cols_with_default(y1 - y0, x1 - x0, core::CV_8UC1, Scalar::all(0.0))?;
    for poly in &sil.polygons {
        let pts: Vector<Point> = poly
            .iter()
            .map(|&q| {
                let px = rect.fine.mm_to_px(q);
                Point::new(px.x.round() as i32 - x0, px.y.round() as i32 - y0)
            })
            .collect();
        imgproc::fill_convex_poly(&mut mask, &pts, Scalar::all(255.0), imgproc::LINE_8, 0)?;
    }
    let k = 2 * ON_PIECE_GROW_PX + 1;
    let kernel =
        imgproc::get_structuring_element(imgproc::MORPH_ELLIPSE, Size::new(k, k), Point::new(-1, -1))?;
    let mut grown = Mat::default();
    imgproc::dilate(
        &mask,
        &mut grown,
        &kernel,
        Point::new(-1, -1),
        1,
        core::BORDER_CONSTANT,
        Scalar::all(0.0),
    )?;
    let width = rect.fine.width as usize;
    for y in 0..grown.rows() {
        let row = grown.at_row::<u8>(y)?;
        for (x, &v) in row.iter().enumerate() {
            if v != 0 {
                out.insert((y + y0) as usize * width + x + x0 as usize);
            }
        }
    }
    out.extend(blob.pixels.iter().copied());
    Ok(out)
}

/// The blob's pixels away from its rim, in the analyser's colour terms.
fn colour_samples(
    fine: &Mat,
    reference: &Mat,
    balance: &Balance,
    white: [f32; 3],
    on_piece: &BTreeSet<usize>,
    changed: &Mat,
    rect: &Rectification,
) -> Result<Vec<Sample>, VisionError> {
    let width = rect.fine.width as usize;
    let mut inner = Mat::default();
    let kernel = imgproc::get_structuring_element(imgproc::MORPH_RECT, Size::new(3, 3), Point::new(-1, -1))?;
    imgproc::erode(
        changed,
        &mut inner,
        &kernel,
        Point::new(-1, -1),
        1,
        core::BORDER_CONSTANT,
        Scalar::all(0.0),
    )?;
    let mut out = Vec::with_capacity(on_piece.len());
    let mut rim = Vec::new();
    for &i in on_piece {
        let (x, y) = ((i % width) as i32, (i / width) as i32);
        if *changed.at_2d::<u8>(y, x)? == 0 {
            continue;
        }
        let f = balance.apply(*fine.at_2d::<Vec3b>(y, x)?);
        let r = *reference.at_2d::<Vec3b>(y, x)?;
        let s = Sample {
            bgr: [f[0] * white[0], f[1] * white[1], f[2] * white[2]],
            ref_sum: r[0] as f32 + r[1] as f32 + r[2] as f32,
        };
        if *inner.at_2d::<u8>(y, x)? != 0 {
            out.push(s);
        } else {
            rim.push(s);
        }
    }
    // A thin piece may be all rim: then the rim is all there is.
    if out.len() < MIN_COLOUR_PIXELS {
        out.extend(rim);
    }
    Ok(out)
}

/// Splits the pixels between the piece's catalog colours (one or two), each with the catalog
/// colour it replaces; the main colour first.
fn split_colours(
    entry: &CatalogEntry,
    samples: &[Sample],
) -> Vec<(Vec<Sample>, Option<crate::table::catalog::Srgb>)> {
    let Some(second) = entry.secondary_colour else {
        return vec![(samples.to_vec(), Some(entry.colour))];
    };
    let mut models = [ColourModel::of_srgb(entry.colour), ColourModel::of_srgb(second)];
    let mut groups: [Vec<Sample>; 2] = [Vec::new(), Vec::new()];
    for _ in 0..3 {
        groups = [Vec::new(), Vec::new()];
        for s in samples {
            let d: Vec<f32> = models.iter().map(|m| distance(m, s)).collect();
            let k = usize::from(d[1] < d[0]);
            groups[k].push(*s);
        }
        for k in 0..2 {
            if !groups[k].is_empty() {
                models[k] = model_of(&groups[k]);
            }
        }
    }
    let total = samples.len().max(1) as f64;
    let [first, other] = groups;
    if (other.len() as f64) < MIN_SECOND_SHARE * total {
        return vec![(samples.to_vec(), Some(entry.colour))];
    }
    if (first.len() as f64) < MIN_SECOND_SHARE * total {
        return vec![(samples.to_vec(), Some(entry.colour))];
    }
    vec![(first, Some(entry.colour)), (other, Some(second))]
}

fn distance(m: &ColourModel, s: &Sample) -> f32 {
    let sum = s.bgr[0] + s.bgr[1] + s.bgr[2];
    m.distance(chroma_of(s.bgr), sum, relative_brightness(sum, s.ref_sum), None)
}

fn quantile_f32(values: &mut [f32], q: f64) -> f32 {
    if values.is_empty() {
        return 0.0;
    }
    values.sort_by(f32::total_cmp);
    let k = ((q * (values.len() - 1) as f64).round() as usize).min(values.len() - 1);
    values[k]
}

/// The colour model of a set of pixels (see the module doc).
fn model_of(samples: &[Sample]) -> ColourModel {
    let n = samples.len().max(1) as f32;
    let mut chroma = [0.0f32; 3];
    let mut rel: Vec<f32> = Vec::with_capacity(samples.len());
    for s in samples {
        for (acc, c) in chroma.iter_mut().zip(chroma_of(s.bgr)) {
            *acc += c / n;
        }
        rel.push(relative_brightness(s.bgr[0] + s.bgr[1] + s.bgr[2], s.ref_sum));
    }
    let lo = quantile_f32(&mut rel, BRIGHTNESS_QUANTILES.0) * BRIGHTNESS_WIDEN.0;
    let hi = quantile_f32(&mut rel, BRIGHTNESS_QUANTILES.1) * BRIGHTNESS_WIDEN.1;
    let mut model = ColourModel {
        chroma,
        chroma_sigma: 0.0,
        brightness: [lo, hi],
        lightness: None,
    };
    // The smallest spread that covers COVERED_SHARE of the pixels (bisection: coverage grows
    // with the spread).
    let covered = |m: &ColourModel| {
        let inside = samples
            .iter()
            .filter(|s| distance(m, s) <= COVERED_DISTANCE)
            .count();
        inside as f64 >= COVERED_SHARE * samples.len() as f64
    };
    if !covered(&model) {
        let (mut a, mut b) = (0.0f32, MAX_SIGMA);
        for _ in 0..12 {
            let mid = 0.5 * (a + b);
            model.chroma_sigma = mid;
            if covered(&model) {
                b = mid;
            } else {
                a = mid;
            }
        }
        model.chroma_sigma = b;
    }
    model
}

fn mean_bgr(samples: &[Sample]) -> [f32; 3] {
    let n = samples.len().max(1) as f32;
    let mut m = [0.0f32; 3];
    for s in samples {
        for (acc, v) in m.iter_mut().zip(s.bgr) {
            *acc += v / n;
        }
    }
    m
}

fn hex(bgr: [f32; 3]) -> String {
    let c = |v: f32| v.round().clamp(0.0, 255.0) as u8;
    format!("#{:02X}{:02X}{:02X}", c(bgr[2]), c(bgr[1]), c(bgr[0]))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample(r: f32, g: f32, b: f32) -> Sample {
        Sample {
            bgr: [b, g, r],
            ref_sum: 540.0,
        }
    }

    #[test]
    fn a_model_covers_its_own_pixels_and_not_others() {
        let mut px = Vec::new();
        for k in 0..200 {
            let j = (k % 7) as f32 - 3.0;
            let shade = 0.7 + 0.3 * ((k % 11) as f32 / 10.0);
            px.push(sample(
                (90.0 + 2.0 * j) * shade,
                (200.0 - j) * shade,
                (60.0 + j) * shade,
            ));
        }
        let m = model_of(&px);
        let inside = px.iter().filter(|s| distance(&m, s) <= COVERED_DISTANCE).count();
        assert!(inside as f64 >= COVERED_SHARE * px.len() as f64);
        assert!(m.chroma[1] > 0.1, "green dominates: {m:?}");
        assert!(m.brightness[0] < 0.6 && m.brightness[1] > 0.7, "{m:?}");
        // A gold pixel is far from a lime model.
        assert!(distance(&m, &sample(201.0, 150.0, 43.0)) > 3.0);
    }

    #[test]
    fn two_coloured_pieces_get_two_models_main_first() {
        let cat = Catalog::default_catalog();
        let captain = cat.entry("captain").unwrap();
        let mut px = Vec::new();
        for _ in 0..150 {
            px.push(sample(235.0, 232.0, 222.0));
        }
        for _ in 0..60 {
            px.push(sample(35.0, 45.0, 80.0));
        }
        let split = split_colours(captain, &px);
        assert_eq!(split.len(), 2);
        assert_eq!(split[0].0.len(), 150);
        assert_eq!(split[1].0.len(), 60);
        // A one-coloured piece keeps one model.
        let gold = cat.entry("gold").unwrap();
        assert_eq!(split_colours(gold, &px).len(), 1);
    }

    #[test]
    fn hex_is_rgb_order() {
        assert_eq!(hex([43.0, 150.0, 201.0]), "#C9962B");
    }

    #[test]
    fn scaling_a_solid_scales_heights_and_outlines() {
        let cat = Catalog::default_catalog();
        let s = Solid::of(cat.entry("gold").unwrap());
        let t = scaled(&s, 1.5);
        assert!((t.height_mm - 1.5 * s.height_mm).abs() < 1e-9);
        let a = s.parts[0].sections[0].outline[0];
        let b = t.parts[0].sections[0].outline[0];
        assert!((b.x - 1.5 * a.x).abs() < 1e-9 && (b.y - 1.5 * a.y).abs() < 1e-9);
    }
}
