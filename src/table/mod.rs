//! Table geometry and the shared vocabulary: units, polygons, the camera model, the plane
//! homography, the piece catalog and the observation report. Pure: no OpenCV, no I/O beyond
//! reading a catalog file.

pub mod camera;
pub mod catalog;
pub mod homography;
pub mod polygon;
pub mod report;
pub mod units;

pub use camera::{Camera, Intrinsics, Pose};
pub use catalog::{Catalog, CatalogEntry, PieceKind, Shape};
pub use homography::Homography;
pub use polygon::PolygonMm;
pub use report::{CounterReport, DieTop, OceanReport, PieceReport};
pub use units::{PointMm, PointMm3, PointPx};
