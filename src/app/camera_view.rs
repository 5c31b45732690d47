//! The camera picture, scaled to fit, and where each image pixel lands on screen.
//!
//! Conventions: image coordinates are pixels of the raw camera frame, origin top-left, x right,
//! y down (`spec/table.md`); screen coordinates are egui points. Overlays (phase 2: the ocean,
//! every piece labelled, gaps, the closest treasure) are drawn by functions that take the
//! [`ImageOnScreen`] returned here and map image pixels with [`ImageOnScreen::to_screen`].

use egui::{Pos2, Rect, Vec2};
use opencv::core::Mat;
use opencv::prelude::*;

/// Longest side of a texture the app uploads, pixels (GPUs and egui's software renderer accept at
/// least this): larger pictures are shown scaled down, their pixel coordinates unchanged.
pub const MAX_TEXTURE_SIDE: i32 = 2048;

/// `image` scaled down to fit [`MAX_TEXTURE_SIDE`], or `None` when it already fits.
pub fn shrink_for_texture(image: &Mat) -> Option<Mat> {
    let (w, h) = (image.cols(), image.rows());
    let longest = w.max(h);
    if longest <= MAX_TEXTURE_SIDE || w <= 0 || h <= 0 {
        return None;
    }
    let k = f64::from(MAX_TEXTURE_SIDE) / f64::from(longest);
    let size = opencv::core::Size::new(
        ((f64::from(w) * k).floor() as i32).max(1),
        ((f64::from(h) * k).floor() as i32).max(1),
    );
    let mut out = Mat::default();
    opencv::imgproc::resize(image, &mut out, size, 0.0, 0.0, opencv::imgproc::INTER_AREA).ok()?;
    Some(out)
}

/// Where the image was drawn.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ImageOnScreen {
    /// The screen rectangle the whole image fills.
    pub rect: Rect,
    /// The image's size in pixels.
    pub image_px: Vec2,
}

impl ImageOnScreen {
    /// Screen position of an image pixel coordinate.
    pub fn to_screen(&self, x_px: f64, y_px: f64) -> Pos2 {
        let sx = self.rect.width() / self.image_px.x.max(1.0);
        let sy = self.rect.height() / self.image_px.y.max(1.0);
        Pos2::new(
            self.rect.left() + x_px as f32 * sx,
            self.rect.top() + y_px as f32 * sy,
        )
    }
}

/// The largest size with the image's aspect ratio that fits in `room`.
pub fn fit(image_px: Vec2, room: Vec2) -> Vec2 {
    if image_px.x <= 0.0 || image_px.y <= 0.0 {
        return Vec2::ZERO;
    }
    let scale = (room.x / image_px.x).min(room.y / image_px.y).max(0.0);
    image_px * scale
}

/// Draws the texture as large as fits in the available width and `max_height`.
pub fn show(ui: &mut egui::Ui, texture: &egui::TextureHandle, max_height: f32) -> ImageOnScreen {
    show_as(ui, texture, max_height, texture.size_vec2())
}

/// Draws a texture that shows an image of `image_px` pixels (a scaled-down copy of it), so that
/// [`ImageOnScreen::to_screen`] takes the original image's pixel coordinates.
pub fn show_as(
    ui: &mut egui::Ui,
    texture: &egui::TextureHandle,
    max_height: f32,
    image_px: Vec2,
) -> ImageOnScreen {
    let size = fit(image_px, Vec2::new(ui.available_width(), max_height));
    let (rect, _) = ui.allocate_exact_size(size, egui::Sense::hover());
    ui.painter().image(
        texture.id(),
        rect,
        Rect::from_min_max(Pos2::ZERO, Pos2::new(1.0, 1.0)),
        egui::Color32::WHITE,
    );
    ImageOnScreen { rect, image_px }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_picture_keeps_its_shape_and_pixels_map_to_screen() {
        let s = fit(Vec2::new(1280.0, 720.0), Vec2::new(640.0, 1000.0));
        assert_eq!(s, Vec2::new(640.0, 360.0));
        let s = fit(Vec2::new(1280.0, 720.0), Vec2::new(2000.0, 360.0));
        assert_eq!(s, Vec2::new(640.0, 360.0));
        let on = ImageOnScreen {
            rect: Rect::from_min_size(Pos2::new(10.0, 20.0), Vec2::new(640.0, 360.0)),
            image_px: Vec2::new(1280.0, 720.0),
        };
        assert_eq!(on.to_screen(1280.0, 720.0), Pos2::new(650.0, 380.0));
        assert_eq!(on.to_screen(0.0, 0.0), Pos2::new(10.0, 20.0));
    }
}
