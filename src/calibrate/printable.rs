//! The printable board: an A4 landscape page at 300 dpi (PNG) or as vector shapes (PDF), with the
//! board's size and the "print at 100 %, then measure one square" instruction printed beside it.
//!
//! Conventions: page coordinates in mm from the page's top-left corner, x right, y down; the
//! board's table-frame origin (its outer corner next to the first square) sits at
//! [`PageLayout::board_origin_mm`]. The board is a grid of equal cells, `(square - marker) / 2`
//! on a side (5 mm for the standard board): every square edge and every marker bit lies on that
//! grid, so the PDF is exact rectangles and the PNG is sampled from the same cells. The text runs
//! up the page in the side margins (the top and bottom margins are only 5 mm, inside most
//! printers' unprintable border).

use super::aruco;
use super::board::BoardSpec;
use opencv::core::{self, Mat, Point, Scalar, Vector};
use opencv::imgcodecs;
use opencv::imgproc;
use opencv::prelude::*;

/// A4 landscape, mm.
pub const PAGE_MM: (f64, f64) = (297.0, 210.0);
/// PNG resolution.
pub const DPI: f64 = 300.0;
const MM_PER_INCH: f64 = 25.4;
const PT_PER_MM: f64 = 72.0 / MM_PER_INCH;
/// Pixels of a drawn board per cell when reading the cell grid off OpenCV's drawing.
const PROBE_PX_PER_CELL: f64 = 10.0;
/// Side-margin text: font size (pt) and the gap between the text's top and the board (mm).
const TEXT_PT: f64 = 7.0;
const TEXT_GAP_MM: f64 = 2.0;
/// The cells of a marker: 4 x 4 bits plus a one-bit black border.
const MARKER_CELLS: f64 = 6.0;

/// The board could not be laid out or written.
#[derive(Debug, thiserror::Error)]
pub enum PrintError {
    #[error(
        "the board {w} x {h} mm does not fit on an A4 landscape page; only the standard 40 mm board is printable"
    )]
    TooBig { w: f64, h: f64 },
    #[error(
        "the board's marker size is not on the square's cell grid (marker {marker} mm in square {square} mm)"
    )]
    OffGrid { square: f64, marker: f64 },
    #[error(transparent)]
    Aruco(#[from] aruco::ArucoError),
    #[error("OpenCV: {0}")]
    OpenCv(#[from] opencv::Error),
}

/// The page and where the board sits on it.
#[derive(Debug, Clone, PartialEq)]
pub struct PageLayout {
    pub spec: BoardSpec,
    pub page_mm: (f64, f64),
    pub board_origin_mm: (f64, f64),
    pub cell_mm: f64,
    /// Black cells, row-major, `true` = black.
    pub cells: Vec<Vec<bool>>,
    /// The two lines printed in the left and right margins.
    pub text: [String; 2],
}

impl PageLayout {
    /// The page for `spec`, with its cells read off OpenCV's drawing of the board.
    pub fn new(spec: &BoardSpec) -> Result<Self, PrintError> {
        let (w, h) = spec.size_mm();
        if w > PAGE_MM.0 || h > PAGE_MM.1 {
            return Err(PrintError::TooBig { w, h });
        }
        let cell_mm = (spec.square_mm - spec.marker_mm) / 2.0;
        let marker_cells = spec.marker_mm / cell_mm;
        let square_cells = spec.square_mm / cell_mm;
        if cell_mm <= 0.0
            || (marker_cells - MARKER_CELLS).abs() > 1e-9
            || (square_cells - square_cells.round()).abs() > 1e-9
        {
            return Err(PrintError::OffGrid {
                square: spec.square_mm,
                marker: spec.marker_mm,
            });
        }
        let px_per_mm = PROBE_PX_PER_CELL / cell_mm;
        let drawn = aruco::draw_board(spec, px_per_mm, 0)?;
        let cols = (w / cell_mm).round() as usize;
        let rows = (h / cell_mm).round() as usize;
        let mut cells = vec![vec![false; cols]; rows];
        for (r, row) in cells.iter_mut().enumerate() {
            for (c, cell) in row.iter_mut().enumerate() {
                let x = ((c as f64 + 0.5) * PROBE_PX_PER_CELL) as i32;
                let y = ((r as f64 + 0.5) * PROBE_PX_PER_CELL) as i32;
                *cell = *drawn.at_2d::<u8>(y, x)? < 128;
            }
        }
        let (nx, ny) = (spec.squares_x, spec.squares_y);
        let text = [
            format!(
                "octoref calibration board: ChArUco {nx} x {ny} squares of {} mm, markers {} mm, {}; board {w} x {h} mm, A4 landscape",
                spec.square_mm, spec.marker_mm, spec.dictionary
            ),
            format!(
                "Print at 100 % (not 'fit to page'), then measure one square. If it is not {} mm, tell octoref: octoref calibrate --square-mm <measured mm> ...",
                spec.square_mm
            ),
        ];
        Ok(Self {
            spec: spec.clone(),
            page_mm: PAGE_MM,
            board_origin_mm: ((PAGE_MM.0 - w) / 2.0, (PAGE_MM.1 - h) / 2.0),
            cell_mm,
            cells,
            text,
        })
    }

    /// Black cell runs per row: (row, first column, number of cells).
    fn runs(&self) -> Vec<(usize, usize, usize)> {
        let mut out = Vec::new();
        for (r, row) in self.cells.iter().enumerate() {
            let mut c = 0;
            while c < row.len() {
                if row[c] {
                    let start = c;
                    while c < row.len() && row[c] {
                        c += 1;
                    }
                    out.push((r, start, c - start));
                } else {
                    c += 1;
                }
            }
        }
        out
    }

    /// Whether page point (mm) is black on the board.
    fn black_at(&self, x_mm: f64, y_mm: f64) -> bool {
        let u = (x_mm - self.board_origin_mm.0) / self.cell_mm;
        let v = (y_mm - self.board_origin_mm.1) / self.cell_mm;
        if u < 0.0 || v < 0.0 {
            return false;
        }
        self.cells
            .get(v as usize)
            .and_then(|row| row.get(u as usize))
            .copied()
            .unwrap_or(false)
    }

    /// The page at 300 dpi, 8-bit grey (white paper, black board and text).
    pub fn render_png_image(&self) -> Result<Mat, PrintError> {
        let px_per_mm = DPI / MM_PER_INCH;
        let w = (self.page_mm.0 * px_per_mm).round() as i32;
        let h = (self.page_mm.1 * px_per_mm).round() as i32;
        let mut page = Mat::new_rows_cols_with_default(h, w, core::CV_8UC1, Scalar::all(255.0))?;
        for y in 0..h {
            let row = page.at_row_mut::<u8>(y)?;
            let y_mm = (y as f64 + 0.5) / px_per_mm;
            for (x, v) in row.iter_mut().enumerate() {
                if self.black_at((x as f64 + 0.5) / px_per_mm, y_mm) {
                    *v = 0;
                }
            }
        }
        let (bw, bh) = self.spec.size_mm();
        let board_h_px = (bh * px_per_mm).round() as i32;
        let cap_px = TEXT_PT / PT_PER_MM * 0.72 * px_per_mm;
        for (k, line) in self.text.iter().enumerate() {
            // Draw the line horizontally on a strip as long as the board is high, then turn it
            // to run up the page.
            let strip_h = (cap_px * 2.0).ceil() as i32;
            let mut strip =
                Mat::new_rows_cols_with_default(strip_h, board_h_px, core::CV_8UC1, Scalar::all(255.0))?;
            let font = imgproc::FONT_HERSHEY_SIMPLEX;
            let mut baseline = 0;
            let unit = imgproc::get_text_size(line, font, 1.0, 1, &mut baseline)?;
            let scale = (cap_px / unit.height as f64).min(board_h_px as f64 * 0.98 / unit.width as f64);
            let thickness = ((scale * 1.6).round() as i32).max(1);
            imgproc::put_text(
                &mut strip,
                line,
                Point::new(0, (cap_px * 1.3).round() as i32),
                font,
                scale,
                Scalar::all(0.0),
                thickness,
                imgproc::LINE_AA,
                false,
            )?;
            let mut turned = Mat::default();
            core::rotate(&strip, &mut turned, core::ROTATE_90_COUNTERCLOCKWISE)?;
            // Left margin: the text's top faces the page's left edge... its baseline side faces
            // the board. Right margin likewise beyond the board's right edge.
            let x_mm = if k == 0 {
                self.board_origin_mm.0 - TEXT_GAP_MM - strip_h as f64 / px_per_mm
            } else {
                self.board_origin_mm.0 + bw + TEXT_GAP_MM
            };
            let x = (x_mm * px_per_mm).round() as i32;
            let y = (self.board_origin_mm.1 * px_per_mm).round() as i32;
            let roi = core::Rect::new(x, y, turned.cols(), turned.rows());
            let mut dst = Mat::roi_mut(&mut page, roi)?;
            turned.copy_to(&mut dst)?;
        }
        Ok(page)
    }

    /// PNG bytes of the page, with its 300 dpi recorded (pHYs) so viewers print it at size.
    pub fn png_bytes(&self) -> Result<Vec<u8>, PrintError> {
        let img = self.render_png_image()?;
        let mut buf: Vector<u8> = Vector::new();
        imgcodecs::imencode(".png", &img, &mut buf, &Vector::new())?;
        Ok(with_png_dpi(&buf.to_vec(), DPI))
    }

    /// A one-page PDF: the board as filled rectangles, the text in Helvetica.
    pub fn pdf_bytes(&self) -> Vec<u8> {
        let (pw, ph) = (self.page_mm.0 * PT_PER_MM, self.page_mm.1 * PT_PER_MM);
        let mut content = String::from("0 g\n");
        for (r, c0, n) in self.runs() {
            let x = (self.board_origin_mm.0 + c0 as f64 * self.cell_mm) * PT_PER_MM;
            let top = self.board_origin_mm.1 + r as f64 * self.cell_mm;
            let y = ph - (top + self.cell_mm) * PT_PER_MM;
            let w = n as f64 * self.cell_mm * PT_PER_MM;
            let h = self.cell_mm * PT_PER_MM;
            content.push_str(&format!("{x:.3} {y:.3} {w:.3} {h:.3} re\n"));
        }
        content.push_str("f\n");
        let (bw, bh) = self.spec.size_mm();
        let bottom = ph - (self.board_origin_mm.1 + bh) * PT_PER_MM;
        for (k, line) in self.text.iter().enumerate() {
            // Rotated 90 degrees: text runs up the page, glyphs extend to the left of the
            // baseline.
            let base_mm = if k == 0 {
                self.board_origin_mm.0 - TEXT_GAP_MM
            } else {
                self.board_origin_mm.0 + bw + TEXT_GAP_MM + TEXT_PT / PT_PER_MM * 0.72
            };
            content.push_str(&format!(
                "BT /F1 {TEXT_PT} Tf 0 1 -1 0 {:.3} {:.3} Tm ({}) Tj ET\n",
                base_mm * PT_PER_MM,
                bottom,
                pdf_escape(line)
            ));
        }
        let objects = [
            "<< /Type /Catalog /Pages 2 0 R >>".to_string(),
            "<< /Type /Pages /Kids [3 0 R] /Count 1 >>".to_string(),
            format!(
                "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 {pw:.2} {ph:.2}] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>"
            ),
            "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>".to_string(),
            format!("<< /Length {} >>\nstream\n{content}endstream", content.len()),
            format!(
                "<< /Title ({}) /Producer (octoref) >>",
                pdf_escape("octoref calibration board")
            ),
        ];
        let mut out: Vec<u8> = b"%PDF-1.4\n%\xE2\xE3\xCF\xD3\n".to_vec();
        let mut offsets = Vec::new();
        for (i, body) in objects.iter().enumerate() {
            offsets.push(out.len());
            out.extend_from_slice(format!("{} 0 obj\n{body}\nendobj\n", i + 1).as_bytes());
        }
        let xref = out.len();
        out.extend_from_slice(format!("xref\n0 {}\n0000000000 65535 f \n", objects.len() + 1).as_bytes());
        for o in offsets {
            out.extend_from_slice(format!("{o:010} 00000 n \n").as_bytes());
        }
        out.extend_from_slice(
            format!(
                "trailer\n<< /Size {} /Root 1 0 R /Info 6 0 R >>\nstartxref\n{xref}\n%%EOF\n",
                objects.len() + 1
            )
            .as_bytes(),
        );
        out
    }
}

fn pdf_escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for ch in s.chars() {
        match ch {
            '(' | ')' | '\\' => {
                out.push('\\');
                out.push(ch);
            }
            c if c.is_ascii() && !c.is_ascii_control() => out.push(c),
            _ => out.push('?'),
        }
    }
    out
}

/// Inserts (or replaces) the PNG `pHYs` chunk so the image says its print resolution.
pub fn with_png_dpi(png: &[u8], dpi: f64) -> Vec<u8> {
    const SIGNATURE_LEN: usize = 8;
    let ppm = (dpi / MM_PER_INCH * 1000.0).round() as u32;
    let mut data = Vec::with_capacity(9);
    data.extend_from_slice(&ppm.to_be_bytes());
    data.extend_from_slice(&ppm.to_be_bytes());
    data.push(1); // unit: metre
    let mut chunk = Vec::with_capacity(21);
    chunk.extend_from_slice(&(data.len() as u32).to_be_bytes());
    let mut typed = b"pHYs".to_vec();
    typed.extend_from_slice(&data);
    chunk.extend_from_slice(&typed);
    chunk.extend_from_slice(&crc32(&typed).to_be_bytes());

    let mut out = Vec::with_capacity(png.len() + chunk.len());
    if png.len() < SIGNATURE_LEN {
        return png.to_vec();
    }
    out.extend_from_slice(&png[..SIGNATURE_LEN]);
    let mut pos = SIGNATURE_LEN;
    let mut inserted = false;
    while pos + 12 <= png.len() {
        let len = u32::from_be_bytes([png[pos], png[pos + 1], png[pos + 2], png[pos + 3]]) as usize;
        let end = pos + 12 + len;
        if end > png.len() {
            break;
        }
        let kind = &png[pos + 4..pos + 8];
        if kind != b"pHYs" {
            out.extend_from_slice(&png[pos..end]);
        }
        if kind == b"IHDR" && !inserted {
            out.extend_from_slice(&chunk);
            inserted = true;
        }
        pos = end;
    }
    out.extend_from_slice(&png[pos..]);
    out
}

/// CRC-32 (IEEE), as PNG chunks use.
fn crc32(bytes: &[u8]) -> u32 {
    let mut crc = 0xFFFF_FFFFu32;
    for &b in bytes {
        crc ^= b as u32;
        for _ in 0..8 {
            let mask = (crc & 1).wrapping_neg();
            crc = (crc >> 1) ^ (0xEDB8_8320 & mask);
        }
    }
    !crc
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crc_matches_the_png_reference() {
        assert_eq!(crc32(b"IEND"), 0xAE42_6082);
        assert_eq!(crc32(b"123456789"), 0xCBF4_3926);
    }

    #[test]
    fn layout_has_the_standard_cells() {
        let l = PageLayout::new(&BoardSpec::default()).unwrap();
        assert_eq!(l.cell_mm, 5.0);
        assert_eq!((l.cells.len(), l.cells[0].len()), (40, 56));
        // OpenCV's ChArUco board starts with a black square at the origin.
        assert!(l.cells[0][0] && l.cells[7][7] && !l.cells[0][8]);
        assert_eq!(l.board_origin_mm, (8.5, 5.0));
        assert!(l.text[1].contains("100 %") && l.text[1].contains("--square-mm"));
        assert!(l.text[0].contains("280 x 200 mm"));
        assert!(PageLayout::new(&BoardSpec::with_square_mm(50.0)).is_err());
    }

    #[test]
    fn printed_page_is_detected_with_every_corner_in_place() {
        let l = PageLayout::new(&BoardSpec::default()).unwrap();
        let page = l.render_png_image().unwrap();
        assert_eq!((page.cols(), page.rows()), (3508, 2480));
        // Seen at 2 px per mm, as a camera close to the print would.
        let mut small = Mat::default();
        let scale = 2.0 / (DPI / MM_PER_INCH);
        imgproc::resize(
            &page,
            &mut small,
            core::Size::new(0, 0),
            scale,
            scale,
            imgproc::INTER_AREA,
        )
        .unwrap();
        let det = aruco::detect(&l.spec, &small).unwrap();
        assert_eq!(det.corners.len(), 24);
        for (id, px) in &det.corners {
            let mm = l.spec.corner_mm(*id);
            let page_mm = (mm.x + l.board_origin_mm.0, mm.y + l.board_origin_mm.1);
            // Pixel centres at integers: page mm m is at m * 2 - 0.5.
            let (ex, ey) = (page_mm.0 * 2.0 - 0.5, page_mm.1 * 2.0 - 0.5);
            assert!(
                (px.x - ex).abs() < 0.3 && (px.y - ey).abs() < 0.3,
                "corner {id}: {px:?} vs ({ex}, {ey})"
            );
        }
        // The side text is on the page, outside the board.
        let left = Mat::roi(&page, core::Rect::new(0, 0, 90, 2480)).unwrap();
        let mut min = 0.0;
        core::min_max_loc(&left, Some(&mut min), None, None, None, &core::no_array()).unwrap();
        assert!(min < 100.0, "no text in the left margin");
    }

    #[test]
    fn png_says_300_dpi() {
        let l = PageLayout::new(&BoardSpec::default()).unwrap();
        let png = l.png_bytes().unwrap();
        let at = png.windows(4).position(|w| w == b"pHYs").unwrap();
        let ppm = u32::from_be_bytes([png[at + 4], png[at + 5], png[at + 6], png[at + 7]]);
        assert_eq!(ppm, 11811);
        assert_eq!(png[at + 12], 1);
        // Still a valid PNG with the same pixels.
        let img = imgcodecs::imdecode(&Vector::<u8>::from_slice(&png), imgcodecs::IMREAD_GRAYSCALE).unwrap();
        assert_eq!((img.cols(), img.rows()), (3508, 2480));
    }

    #[test]
    fn pdf_is_well_formed() {
        let l = PageLayout::new(&BoardSpec::default()).unwrap();
        let pdf = l.pdf_bytes();
        let text = String::from_utf8_lossy(&pdf);
        assert!(text.starts_with("%PDF-1.4"));
        assert!(text.contains("/MediaBox [0 0 841.89 595.28]"));
        assert!(text.contains("Print at 100 %"));
        // Every xref offset points at its object.
        let xref_at: usize = text
            .rsplit("startxref\n")
            .next()
            .unwrap()
            .lines()
            .next()
            .unwrap()
            .parse()
            .unwrap();
        assert!(pdf[xref_at..].starts_with(b"xref"));
        let xref = String::from_utf8(pdf[xref_at..].to_vec()).unwrap();
        for (i, line) in xref.lines().skip(3).take(6).enumerate() {
            let off: usize = line[..10].parse().unwrap();
            assert!(
                pdf[off..].starts_with(format!("{} 0 obj", i + 1).as_bytes()),
                "object {}",
                i + 1
            );
        }
        // The board's black area: 18 black squares plus the markers' black cells.
        assert!(text.matches(" re\n").count() > 200);
    }
}
