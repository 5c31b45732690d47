//! Top-down views of the table: a raw camera frame warped onto a table rectangle at a fixed
//! mm per pixel, so that sizes are constant everywhere in the image.
//!
//! Conventions:
//! - A [`RectifyGrid`] is a table rectangle sampled on a regular grid. Rectified pixel `(i, j)`
//!   (column `i`, row `j`; OpenCV's convention: integer coordinates are pixel centres) shows table
//!   point `origin_mm + (i, j) * mm_per_px`. Table x runs along image columns and table y along
//!   image rows, so the top-down view is not mirrored (the table frame's z points into the table).
//! - A plane at `height_mm` above the table can be rectified instead of the table itself (points
//!   of that plane then land at their table (x, y)): useful for beads and other raised things.
//! - Lens distortion is undone by the same warp when the profile's camera has distortion.
//! - Rectified pixels whose source lies outside the raw frame are black, and 0 in
//!   [`Rectifier::valid_mask`].

use super::profile::Profile;
use crate::table::{Camera, PointMm, PointPx};
use nalgebra::{Matrix3, Vector3};
use opencv::core::{self, Mat, Scalar};
use opencv::imgproc;
use opencv::prelude::*;
use serde::{Deserialize, Serialize};

/// The rectified image may not exceed this many pixels (a mistake in the grid, not a use).
pub const MAX_RECTIFIED_PIXELS: u64 = 40_000_000;

/// Why a frame could not be rectified.
#[derive(Debug, thiserror::Error)]
pub enum RectifyError {
    #[error("rectified grid {width}x{height} is empty or larger than {MAX_RECTIFIED_PIXELS} pixels")]
    GridSize { width: u32, height: u32 },
    #[error("mm_per_px must be positive and finite, got {0}")]
    Scale(f64),
    #[error("rectifying a plane above the table needs a camera pose, and this profile has none")]
    NoCamera,
    #[error(
        "the frame is {width}x{height} but the rectifier was made for {expected_width}x{expected_height}"
    )]
    FrameSize {
        width: i32,
        height: i32,
        expected_width: u32,
        expected_height: u32,
    },
    #[error("OpenCV: {0}")]
    OpenCv(#[from] opencv::Error),
}

/// A table rectangle sampled at a fixed scale (see the module conventions).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct RectifyGrid {
    /// The table point shown by the rectified image's pixel (0, 0).
    pub origin_mm: PointMm,
    pub mm_per_px: f64,
    pub width: u32,
    pub height: u32,
}

impl RectifyGrid {
    /// The smallest grid at `mm_per_px` that covers the rectangle `min..max` (mm).
    pub fn covering(min: PointMm, max: PointMm, mm_per_px: f64) -> Result<Self, RectifyError> {
        if !(mm_per_px.is_finite() && mm_per_px > 0.0) {
            return Err(RectifyError::Scale(mm_per_px));
        }
        let w = ((max.x - min.x) / mm_per_px).ceil() + 1.0;
        let h = ((max.y - min.y) / mm_per_px).ceil() + 1.0;
        let too_big =
            !(w.is_finite() && h.is_finite()) || w < 1.0 || h < 1.0 || w * h > MAX_RECTIFIED_PIXELS as f64;
        if too_big {
            return Err(RectifyError::GridSize {
                width: w.max(0.0).min(u32::MAX as f64) as u32,
                height: h.max(0.0).min(u32::MAX as f64) as u32,
            });
        }
        Ok(Self {
            origin_mm: min,
            mm_per_px,
            width: w as u32,
            height: h as u32,
        })
    }

    /// Rectified pixel coordinates -> table point.
    pub fn px_to_mm(&self, p: PointPx) -> PointMm {
        PointMm::new(
            self.origin_mm.x + p.x * self.mm_per_px,
            self.origin_mm.y + p.y * self.mm_per_px,
        )
    }

    /// Table point -> rectified pixel coordinates (may lie outside the image).
    pub fn mm_to_px(&self, p: PointMm) -> PointPx {
        PointPx::new(
            (p.x - self.origin_mm.x) / self.mm_per_px,
            (p.y - self.origin_mm.y) / self.mm_per_px,
        )
    }

    /// Whether rectified pixel coordinates lie inside the image.
    pub fn contains_px(&self, p: PointPx) -> bool {
        p.x >= 0.0 && p.y >= 0.0 && p.x <= (self.width - 1) as f64 && p.y <= (self.height - 1) as f64
    }

    /// The table rectangle covered: (min, max) corners in mm.
    pub fn bounds_mm(&self) -> (PointMm, PointMm) {
        (
            self.origin_mm,
            self.px_to_mm(PointPx::new((self.width - 1) as f64, (self.height - 1) as f64)),
        )
    }
}

/// A rectified frame and the grid it was sampled on.
#[derive(Debug, Clone)]
pub struct Rectified {
    /// Same type as the source frame (usually BGR 8-bit).
    pub image: Mat,
    pub grid: RectifyGrid,
}

/// A precomputed warp from raw frames of one size to one grid: build it once, then rectify many
/// frames cheaply (one `remap`).
#[derive(Debug)]
pub struct Rectifier {
    grid: RectifyGrid,
    frame_width: u32,
    frame_height: u32,
    map_x: Mat,
    map_y: Mat,
    valid: Mat,
}

/// How a table point (at some height) becomes a raw pixel.
#[derive(Debug, Clone)]
pub struct PlaneToPixels {
    /// Plane (x, y) mm -> undistorted pixels.
    homography: Matrix3<f64>,
    camera: Option<Camera>,
}

impl PlaneToPixels {
    /// The table plane of a profile (works for every calibration method).
    pub fn table(profile: &Profile) -> Self {
        Self {
            homography: *profile.homography.matrix(),
            camera: profile.camera.clone(),
        }
    }

    /// The plane `height_mm` above the table, seen by the profile's camera. Needs a camera pose
    /// unless the height is 0.
    pub fn at_height(profile: &Profile, height_mm: f64) -> Result<Self, RectifyError> {
        if height_mm == 0.0 {
            return Ok(Self::table(profile));
        }
        let cam = profile.camera.as_ref().ok_or(RectifyError::NoCamera)?;
        Ok(Self {
            homography: plane_homography(cam, height_mm),
            camera: Some(cam.clone()),
        })
    }

    /// Plane point -> raw pixel.
    pub fn to_px(&self, p: PointMm) -> Option<PointPx> {
        let v = self.homography * Vector3::new(p.x, p.y, 1.0);
        if v.z.abs() < 1e-12 || v.z * self.homography[(2, 2)] < 0.0 {
            return None;
        }
        let ideal = PointPx::new(v.x / v.z, v.y / v.z);
        Some(match &self.camera {
            Some(cam) if cam.intrinsics.has_distortion() => {
                let k = &cam.intrinsics;
                k.distort_normalised((ideal.x - k.cx) / k.fx, (ideal.y - k.cy) / k.fy)
            }
            _ => ideal,
        })
    }
}

/// The homography from the plane `height_mm` above the table (its points given by their table
/// (x, y)) to undistorted pixels: `K [r1 r2 t - h r3]`.
pub fn plane_homography(camera: &Camera, height_mm: f64) -> Matrix3<f64> {
    let r = camera.pose.rotation().into_inner();
    let t = camera.pose.translation() - r.column(2) * height_mm;
    let m = Matrix3::from_columns(&[r.column(0).into_owned(), r.column(1).into_owned(), t]);
    camera.intrinsics.matrix() * m
}

impl Rectifier {
    /// A warp of the profile's table plane onto `grid`.
    pub fn new(profile: &Profile, grid: RectifyGrid) -> Result<Self, RectifyError> {
        Self::for_plane(
            &PlaneToPixels::table(profile),
            grid,
            profile.image_size.width,
            profile.image_size.height,
        )
    }

    /// A warp of any plane onto `grid`, for raw frames of `frame_width` x `frame_height`.
    pub fn for_plane(
        plane: &PlaneToPixels,
        grid: RectifyGrid,
        frame_width: u32,
        frame_height: u32,
    ) -> Result<Self, RectifyError> {
        if grid.width == 0
            || grid.height == 0
            || grid.width as u64 * grid.height as u64 > MAX_RECTIFIED_PIXELS
        {
            return Err(RectifyError::GridSize {
                width: grid.width,
                height: grid.height,
            });
        }
        let rows = grid.height as i32;
        let cols = grid.width as i32;
        let mut map_x = Mat::new_rows_cols_with_default(rows, cols, core::CV_32FC1, Scalar::all(-1.0))?;
        let mut map_y = Mat::new_rows_cols_with_default(rows, cols, core::CV_32FC1, Scalar::all(-1.0))?;
        let mut valid = Mat::new_rows_cols_with_default(rows, cols, core::CV_8UC1, Scalar::all(0.0))?;
        let (fw, fh) = (frame_width as f64, frame_height as f64);
        for j in 0..rows {
            let mx = map_x.at_row_mut::<f32>(j)?;
            let my = map_y.at_row_mut::<f32>(j)?;
            let vr = valid.at_row_mut::<u8>(j)?;
            for i in 0..cols as usize {
                let Some(px) = plane.to_px(grid.px_to_mm(PointPx::new(i as f64, j as f64))) else {
                    continue;
                };
                mx[i] = px.x as f32;
                my[i] = px.y as f32;
                if px.x >= 0.0 && px.y >= 0.0 && px.x <= fw - 1.0 && px.y <= fh - 1.0 {
                    vr[i] = 255;
                }
            }
        }
        Ok(Self {
            grid,
            frame_width,
            frame_height,
            map_x,
            map_y,
            valid,
        })
    }

    pub fn grid(&self) -> &RectifyGrid {
        &self.grid
    }

    /// 255 where the rectified pixel comes from inside the raw frame, 0 elsewhere.
    pub fn valid_mask(&self) -> &Mat {
        &self.valid
    }

    /// Warps one raw frame (bilinear). The frame must have the size the rectifier was made for.
    pub fn rectify(&self, frame: &Mat) -> Result<Rectified, RectifyError> {
        if frame.cols() != self.frame_width as i32 || frame.rows() != self.frame_height as i32 {
            return Err(RectifyError::FrameSize {
                width: frame.cols(),
                height: frame.rows(),
                expected_width: self.frame_width,
                expected_height: self.frame_height,
            });
        }
        let mut out = Mat::default();
        imgproc::remap(
            frame,
            &mut out,
            &self.map_x,
            &self.map_y,
            imgproc::INTER_LINEAR,
            core::BORDER_CONSTANT,
            Scalar::all(0.0),
        )?;
        Ok(Rectified {
            image: out,
            grid: self.grid,
        })
    }
}

/// Where the camera sees the table: the bounding box (mm) of the raw frame's outline projected
/// onto the table, clipped to `limit_mm` around `centre`. Frame edge points whose rays miss the
/// table (above the horizon) are left out.
pub fn visible_table_bounds(profile: &Profile, centre: PointMm, limit_mm: f64) -> Option<(PointMm, PointMm)> {
    const EDGE_SAMPLES: usize = 32;
    let (w, h) = (
        (profile.image_size.width - 1) as f64,
        (profile.image_size.height - 1) as f64,
    );
    let mut min = PointMm::new(f64::INFINITY, f64::INFINITY);
    let mut max = PointMm::new(f64::NEG_INFINITY, f64::NEG_INFINITY);
    let mut any = false;
    for k in 0..=EDGE_SAMPLES {
        let f = k as f64 / EDGE_SAMPLES as f64;
        for px in [
            PointPx::new(f * w, 0.0),
            PointPx::new(f * w, h),
            PointPx::new(0.0, f * h),
            PointPx::new(w, f * h),
        ] {
            let Some(p) = visible_point(profile, px) else {
                continue;
            };
            let p = PointMm::new(
                p.x.clamp(centre.x - limit_mm, centre.x + limit_mm),
                p.y.clamp(centre.y - limit_mm, centre.y + limit_mm),
            );
            min = PointMm::new(min.x.min(p.x), min.y.min(p.y));
            max = PointMm::new(max.x.max(p.x), max.y.max(p.y));
            any = true;
        }
    }
    any.then_some((min, max))
}

/// The table point seen at raw pixel `px`, when the ray meets the table in front of the camera.
fn visible_point(profile: &Profile, px: PointPx) -> Option<PointMm> {
    match &profile.camera {
        Some(cam) => cam.unproject_at_height(px, 0.0),
        None => {
            let p = profile.px_to_mm(px)?;
            // Without a pose, a point is in front when it maps back with positive w.
            let v = profile.homography.matrix() * Vector3::new(p.x, p.y, 1.0);
            (v.z * profile.homography.matrix()[(2, 2)] > 0.0).then_some(p)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::calibrate::profile::tests::sample_profile;

    #[test]
    fn grid_maps_both_ways() {
        let g = RectifyGrid::covering(PointMm::new(-10.0, 5.0), PointMm::new(90.0, 55.0), 0.5).unwrap();
        assert_eq!((g.width, g.height), (201, 101));
        let p = PointMm::new(12.25, 40.0);
        assert!(g.px_to_mm(g.mm_to_px(p)).distance(p) < 1e-12);
        assert!(RectifyGrid::covering(PointMm::new(0.0, 0.0), PointMm::new(1e9, 1e9), 1.0).is_err());
    }

    #[test]
    fn rectified_pixels_show_the_right_table_points() {
        // A raw frame whose pixel value encodes its own coordinates: after rectification each
        // pixel must hold the raw pixel the profile maps its table point to.
        let profile = sample_profile();
        let (w, h) = (1280, 720);
        let mut raw = Mat::new_rows_cols_with_default(h, w, core::CV_32FC2, Scalar::all(0.0)).unwrap();
        for y in 0..h {
            let row = raw.at_row_mut::<core::Vec2f>(y).unwrap();
            for (x, v) in row.iter_mut().enumerate() {
                *v = core::Vec2f::from([x as f32, y as f32]);
            }
        }
        let grid = RectifyGrid::covering(PointMm::new(0.0, 0.0), PointMm::new(280.0, 200.0), 2.0).unwrap();
        let r = Rectifier::new(&profile, grid).unwrap();
        let out = r.rectify(&raw).unwrap();
        for &(i, j) in &[(0, 0), (70, 50), (140, 100)] {
            let v = *out.image.at_2d::<core::Vec2f>(j, i).unwrap();
            let expect = profile
                .mm_to_px(grid.px_to_mm(PointPx::new(i as f64, j as f64)))
                .unwrap();
            assert!(
                (v[0] as f64 - expect.x).abs() < 0.05 && (v[1] as f64 - expect.y).abs() < 0.05,
                "({i},{j}): {v:?} vs {expect:?}"
            );
            assert_eq!(*r.valid_mask().at_2d::<u8>(j, i).unwrap(), 255);
        }
    }

    #[test]
    fn raised_plane_lands_under_itself() {
        let profile = sample_profile();
        let cam = profile.camera.clone().unwrap();
        let plane = PlaneToPixels::at_height(&profile, 20.0).unwrap();
        let p = PointMm::new(250.0, 30.0);
        let px = cam.project(crate::table::PointMm3::above(p, 20.0)).unwrap();
        assert!(plane.to_px(p).unwrap().distance(px) < 1e-6);
    }

    #[test]
    fn visible_bounds_cover_the_board() {
        let profile = sample_profile();
        let (min, max) = visible_table_bounds(&profile, PointMm::new(140.0, 100.0), 3000.0).unwrap();
        assert!(
            min.x < 0.0 && min.y < 0.0 && max.x > 280.0 && max.y > 200.0,
            "{min:?} {max:?}"
        );
    }
}
