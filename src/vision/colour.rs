//! Colour models of the pieces and the per-pixel test "could this pixel belong to a piece of
//! this colour?".
//!
//! Conventions: pixels are the camera's 8-bit values (gamma encoded), BGR as OpenCV gives them,
//! after the frame's white balance against the reference (`balance.rs`); colours in code are
//! `[b, g, r]` as `f32`. A pixel's **chroma** is `v / (b + g + r) - 1/3` (a 3-vector summing to
//! 0): shading scales `v` and leaves the chroma alone, a paler surface (a ship's deck, a
//! highlight) shortens it towards grey. Its **relative brightness** is `(b + g + r)` over the
//! same sum of the empty-table reference at that pixel: neutral colours (the captain's white,
//! the black of the die and the canon) are told apart by it, chromatic colours by their chroma.
//!
//! Colours collide on purpose (table.md): several models accept the same pixel, and size and
//! shape decide (`detect/`). A pixel's compatible models are a bitmask over [`Palette`].

use crate::table::catalog::Srgb;
use crate::table::{Catalog, CatalogEntry};
use serde::{Deserialize, Serialize};
use wide::f32x4;

/// Chroma vectors shorter than this are neutral (grey, white, black).
pub const NEUTRAL_CHROMA: f32 = 0.06;
/// A chromatic pixel may be this much paler (shorter chroma) than its model...
pub const PALER_MIN: f32 = 0.3;
/// ...or this much more saturated.
pub const RICHER_MAX: f32 = 1.2;
/// Chroma noise of a pixel: `CHROMA_NOISE_FLOOR + CHROMA_NOISE_LEVELS / (b + g + r)`.
const CHROMA_NOISE_FLOOR: f32 = 0.02;
const CHROMA_NOISE_LEVELS: f32 = 6.0;
/// A pixel is compatible with a model whose distance is at most this...
pub const MAX_DISTANCE: f32 = 2.2;
/// ...and at most this much more than its best model's.
pub const MARGIN: f32 = 1.0;
/// A model this close to the pixel's best one counts as its best colour too.
pub const TIGHT_MARGIN: f32 = 0.35;
/// Distance added per unit of relative brightness outside a model's range.
const BRIGHTNESS_WEIGHT: f32 = 6.0;
/// Dark catalog colours (black die faces, the canon) show at most this bright next to the table
/// (their lit faces and highlights lift them well above their catalog darkness).
pub const DARK_MAX_BRIGHTNESS: f32 = 0.62;
/// Relative brightness is measured against the table, but never against a table darker than
/// this `b + g + r` (a grey of 160): on a dark table the lit faces of a black piece are as bright
/// as the table itself, and white would be the nearest neutral colour.
pub const BRIGHTNESS_FLOOR_SUM: f32 = 480.0;
/// A chromatic colour shows between these multiples of its catalog lightness (shaded sides,
/// highlights).
pub const LIGHTNESS_RANGE: [f32; 2] = [0.25, 1.8];
/// A highlight adds white light to a colour rather than multiplying it: a pixel paler than its
/// model (chroma ratio `t` below 1) may show up to its catalog lightness plus this, times how far
/// `t` has fallen from 1 towards [`PALER_MIN`]. Only dark colours reach past their
/// [`LIGHTNESS_RANGE`] so: the captain's navy hat (catalog lightness 0.2) shows at up to ~0.5 of
/// white where highlights grey it, while a navy pixel as saturated as the blue ship's shaded
/// side is held to the range.
pub const HIGHLIGHT_LIGHTNESS: f32 = 0.3;
/// Distance added per unit of lightness outside a model's range.
const LIGHTNESS_WEIGHT: f32 = 12.0;
/// At most this many colour models (bits of a pixel's mask).
pub const MAX_MODELS: usize = 32;

/// A colour model: what a piece's surface looks like in the frame.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ColourModel {
    /// Mean chroma (`[b, g, r]`, sums to 0).
    pub chroma: [f32; 3],
    /// Chroma spread (one sigma, on top of the pixel's own noise); catalog colours use 0.
    #[serde(default)]
    pub chroma_sigma: f32,
    /// Relative brightness (pixel sum / reference sum) this colour shows between.
    pub brightness: [f32; 2],
    /// Lightness (pixel sum / the sum of the calibration board's white paper) this colour shows
    /// between, when known: brown and orange share a chroma and differ only in it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lightness: Option<[f32; 2]>,
}

impl ColourModel {
    /// The model of a catalog colour: neutral colours get a brightness range from their own
    /// lightness (black is dark, white is bright), chromatic ones any brightness.
    pub fn of_srgb(c: Srgb) -> Self {
        let bgr = [c.0[2] as f32, c.0[1] as f32, c.0[0] as f32];
        let chroma = chroma_of(bgr);
        let level = (bgr[0] + bgr[1] + bgr[2]) / 3.0;
        let neutral = norm(chroma) < NEUTRAL_CHROMA * 1.5;
        let brightness = if neutral || level < 90.0 {
            if level < 90.0 {
                [0.0, DARK_MAX_BRIGHTNESS]
            } else {
                [0.72, 3.0]
            }
        } else {
            [0.18, 3.0]
        };
        // A chromatic colour's lit faces show about its catalog lightness next to white paper
        // in the same light; shaded sides less, highlights more.
        let lightness = (!neutral).then(|| {
            let l = (bgr[0] + bgr[1] + bgr[2]) / (3.0 * 255.0);
            [LIGHTNESS_RANGE[0] * l, LIGHTNESS_RANGE[1] * l]
        });
        Self {
            chroma,
            chroma_sigma: 0.0,
            brightness,
            lightness,
        }
    }

    /// Its chroma is shorter than [`NEUTRAL_CHROMA`]: grey, white or black.
    pub fn is_neutral(&self) -> bool {
        norm(self.chroma) < NEUTRAL_CHROMA
    }

    /// How far a pixel is from this model (0 = a perfect match; about 1 = one noise sigma).
    /// `lightness` is the pixel's sum over white paper's, when the paper is known.
    /// The definition [`Palette::classify`] computes four models at a time ([`Quad`]).
    pub fn distance(&self, chroma: [f32; 3], sum: f32, rel_brightness: f32, lightness: Option<f32>) -> f32 {
        let k = ModelConstants::of(self);
        let noise = chroma_noise(sum) + self.chroma_sigma;
        let (off, t) = if k.neutral {
            (sub(chroma, self.chroma), 1.0)
        } else {
            let t = (dot(chroma, self.chroma) / k.chroma_sq).clamp(PALER_MIN, RICHER_MAX);
            (sub(chroma, scale(self.chroma, t)), t)
        };
        let d_chroma = dot(off, off).sqrt() / noise;
        let [lo, hi] = self.brightness;
        let outside = if rel_brightness < lo {
            lo - rel_brightness
        } else if rel_brightness > hi {
            rel_brightness - hi
        } else {
            0.0
        };
        let dark_or_light = match (self.lightness, lightness) {
            (Some([lo, _]), Some(l)) if l < lo => lo - l,
            (Some([_, hi]), Some(l)) => {
                let highlit = hi / LIGHTNESS_RANGE[1] + HIGHLIGHT_LIGHTNESS * highlight_share(t);
                (l - hi.max(highlit)).max(0.0)
            }
            _ => 0.0,
        };
        d_chroma + BRIGHTNESS_WEIGHT * outside + LIGHTNESS_WEIGHT * dark_or_light
    }
}

/// Slack on a squared distance compared before its square root is taken: far more than the
/// rounding of either side, far less than anything a pixel's noise could tell.
const BEYOND_ROUNDING: f32 = 1.0 + 1e-4;

/// A pixel's own chroma noise, from its `b + g + r` (see [`CHROMA_NOISE_FLOOR`]).
fn chroma_noise(sum: f32) -> f32 {
    CHROMA_NOISE_FLOOR + CHROMA_NOISE_LEVELS / sum.max(1.0)
}

/// What [`Palette::classify`] needs of a pixel, whatever the model.
#[derive(Debug, Clone, Copy)]
struct PixelReading {
    chroma: [f32; 3],
    /// The pixel's own chroma noise (the model's spread is added to it).
    noise_floor: f32,
    rel_brightness: f32,
    lightness: Option<f32>,
}

impl PixelReading {
    fn of(chroma: [f32; 3], sum: f32, rel_brightness: f32, lightness: Option<f32>) -> Self {
        Self {
            chroma,
            noise_floor: chroma_noise(sum),
            rel_brightness,
            lightness,
        }
    }
}

/// What [`ColourModel::distance`] needs of a model, whatever the pixel.
#[derive(Debug, Clone, Copy, PartialEq)]
struct ModelConstants {
    neutral: bool,
    /// The squared length of its chroma.
    chroma_sq: f32,
}

impl ModelConstants {
    fn of(m: &ColourModel) -> Self {
        Self {
            neutral: m.is_neutral(),
            chroma_sq: dot(m.chroma, m.chroma),
        }
    }
}

/// How much of [`HIGHLIGHT_LIGHTNESS`] a pixel whose chroma is `t` times its model's may show:
/// none at `t >= 1`, all at [`PALER_MIN`].
fn highlight_share(t: f32) -> f32 {
    ((1.0 - t) / (1.0 - PALER_MIN)).clamp(0.0, 1.0)
}

/// A pixel's relative brightness: its `b + g + r` over the table's there (see
/// [`BRIGHTNESS_FLOOR_SUM`]).
pub fn relative_brightness(sum: f32, ref_sum: f32) -> f32 {
    sum / ref_sum.max(BRIGHTNESS_FLOOR_SUM)
}

/// Chroma of a BGR pixel.
pub fn chroma_of(bgr: [f32; 3]) -> [f32; 3] {
    let s = (bgr[0] + bgr[1] + bgr[2]).max(1.0);
    [
        bgr[0] / s - 1.0 / 3.0,
        bgr[1] / s - 1.0 / 3.0,
        bgr[2] / s - 1.0 / 3.0,
    ]
}

pub(crate) fn dot(a: [f32; 3], b: [f32; 3]) -> f32 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}
fn sub(a: [f32; 3], b: [f32; 3]) -> [f32; 3] {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}
fn scale(a: [f32; 3], k: f32) -> [f32; 3] {
    [a[0] * k, a[1] * k, a[2] * k]
}
pub(crate) fn norm(a: [f32; 3]) -> f32 {
    dot(a, a).sqrt()
}

/// Every colour model in use, indexed by bit.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Palette {
    /// Added by [`Palette::add`] only (it keeps each model's constants beside it).
    pub models: Vec<ColourModel>,
    /// `b + g + r` of the calibration board's white paper, when known (for lightness).
    pub white_sum: Option<f32>,
    /// A name per model, for messages (`"gold"`, `"captain/2"`).
    pub names: Vec<String>,
    /// The models four by four, field by field, kept by [`Palette::add`].
    quads: Vec<Quad>,
}

/// Models per [`Quad`].
const QUAD: usize = 4;

/// Four models of a [`Palette`] field by field, so that [`Palette::classify`] reads their
/// distances four at a time ([`wide::f32x4`]: SSE on x86-64, NEON on aarch64; the compiler
/// left the plain loop scalar). On the bench's palette that halved a pixel's classification
/// (1620 instructions to 790). Each lane computes what [`ColourModel::distance`] computes, in
/// the same order and with the same handling of NaN, so the two agree to the bit.
/// Fields are set so that one formula serves every model: a neutral model's chroma ratio range
/// is `[1, 1]` and its `chroma_sq` 1 (never a division by zero), so its ratio is exactly 1, as
/// the scalar path sets it; a model without a lightness range has `[-inf, inf]`, which adds
/// exactly 0. Lanes past the palette's last model read as infinitely far.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Quad {
    chroma: [[f32; QUAD]; 3],
    chroma_sigma: [f32; QUAD],
    chroma_sq: [f32; QUAD],
    t_range: [[f32; QUAD]; 2],
    brightness: [[f32; QUAD]; 2],
    lightness: [[f32; QUAD]; 2],
    /// 1 in the lanes that hold a model, 0 in the rest (whose distances are infinite).
    used: [f32; QUAD],
}

impl Quad {
    const EMPTY: Self = Self {
        chroma: [[0.0; QUAD]; 3],
        chroma_sigma: [0.0; QUAD],
        chroma_sq: [1.0; QUAD],
        t_range: [[1.0; QUAD]; 2],
        brightness: [[0.0; QUAD]; 2],
        lightness: [[f32::NEG_INFINITY; QUAD], [f32::INFINITY; QUAD]],
        used: [0.0; QUAD],
    };

    fn set(&mut self, lane: usize, m: &ColourModel) {
        let k = ModelConstants::of(m);
        for (c, v) in self.chroma.iter_mut().zip(m.chroma) {
            c[lane] = v;
        }
        self.chroma_sigma[lane] = m.chroma_sigma;
        let (range, chroma_sq) = if k.neutral {
            ([1.0, 1.0], 1.0)
        } else {
            ([PALER_MIN, RICHER_MAX], k.chroma_sq)
        };
        self.chroma_sq[lane] = chroma_sq;
        self.t_range[0][lane] = range[0];
        self.t_range[1][lane] = range[1];
        self.brightness[0][lane] = m.brightness[0];
        self.brightness[1][lane] = m.brightness[1];
        let [lo, hi] = m.lightness.unwrap_or([f32::NEG_INFINITY, f32::INFINITY]);
        self.lightness[0][lane] = lo;
        self.lightness[1][lane] = hi;
        self.used[lane] = 1.0;
    }

    /// The four models' distances from `pixel`, as [`ColourModel::distance`] gives them, but
    /// `INFINITY` where a model's chroma alone puts it further than `beyond` (compared before
    /// the square root too, with room for its rounding: such a model is in no mask anyway); `l`
    /// is the pixel's lightness, NaN when unknown (below no bound, and `max` takes the 0 over
    /// it).
    #[inline(always)]
    fn distances(&self, pixel: &PixelReading, l: f32, beyond: f32) -> f32x4 {
        let v = f32x4::new;
        let s = f32x4::splat;
        let [cb, cg, cr] = pixel.chroma.map(s);
        let [mb, mg, mr] = self.chroma.map(v);
        let (rel, l) = (s(pixel.rel_brightness), s(l));
        let zero = f32x4::ZERO;
        // `clamp` spelt out: below the range, above it, else the value (NaN stays).
        let clamp = |x: f32x4, lo: f32x4, hi: f32x4| x.simd_lt(lo).select(lo, x.simd_gt(hi).select(hi, x));
        let noise = s(pixel.noise_floor) + v(self.chroma_sigma);
        let along = (cb * mb + cg * mg + cr * mr) / v(self.chroma_sq);
        let t = clamp(along, v(self.t_range[0]), v(self.t_range[1]));
        let off = [cb - mb * t, cg - mg * t, cr - mr * t];
        let off_sq = off[0] * off[0] + off[1] * off[1] + off[2] * off[2];
        let reach = s(beyond) * noise;
        let d_chroma = off_sq.sqrt() / noise;
        let [b_lo, b_hi] = self.brightness.map(v);
        let outside = rel
            .simd_lt(b_lo)
            .select(b_lo - rel, rel.simd_gt(b_hi).select(rel - b_hi, zero));
        let [l_lo, hi] = self.lightness.map(v);
        let highlight_share = clamp((s(1.0) - t) / s(1.0 - PALER_MIN), zero, s(1.0));
        let highlit = hi / s(LIGHTNESS_RANGE[1]) + s(HIGHLIGHT_LIGHTNESS) * highlight_share;
        let dark_or_light = l.simd_lt(l_lo).select(l_lo - l, (l - hi.max(highlit)).max(zero));
        let d = d_chroma + s(BRIGHTNESS_WEIGHT) * outside + s(LIGHTNESS_WEIGHT) * dark_or_light;
        let far = off_sq.simd_gt(reach * reach * s(BEYOND_ROUNDING)) | d_chroma.simd_gt(s(beyond));
        let absent = v(self.used).simd_eq(zero);
        (far | absent).select(s(f32::INFINITY), d)
    }
}

/// The colour models a pixel matches.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct PixelColours {
    /// Models within [`TIGHT_MARGIN`] of the best.
    pub best: u32,
    /// Models within [`MARGIN`] of the best (a superset of `best`).
    pub compatible: u32,
}

/// Which palette bits a catalog entry's surfaces use.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ColourSet(pub u32);

impl ColourSet {
    pub fn contains_any(self, mask: u32) -> bool {
        self.0 & mask != 0
    }
}

impl Palette {
    /// An empty palette whose pixels' lightness is measured against `white_sum`.
    pub fn with_white_sum(white_sum: Option<f32>) -> Self {
        Self {
            white_sum,
            ..Self::default()
        }
    }

    /// Adds a model (deduplicated by equality) and returns its bit.
    pub fn add(&mut self, model: ColourModel, name: &str) -> u32 {
        if let Some(i) = self.models.iter().position(|m| *m == model) {
            return 1 << i;
        }
        if self.models.len() >= MAX_MODELS {
            return 0;
        }
        let n = self.models.len();
        if n.is_multiple_of(QUAD) {
            self.quads.push(Quad::EMPTY);
        }
        if let Some(q) = self.quads.last_mut() {
            q.set(n % QUAD, &model);
        }
        self.models.push(model);
        self.names.push(name.to_string());
        1 << (self.models.len() - 1)
    }

    /// The bitmasks of the models a pixel matches best and of those it is compatible with
    /// (both 0 = none).
    pub fn classify(&self, bgr: [f32; 3], ref_sum: f32) -> PixelColours {
        let sum = bgr[0] + bgr[1] + bgr[2];
        let pixel = PixelReading::of(
            chroma_of(bgr),
            sum,
            relative_brightness(sum, ref_sum),
            self.white_sum.map(|w| sum / w),
        );
        let mut dist = [f32x4::splat(f32::INFINITY); MAX_MODELS / QUAD];
        // A model further than this in chroma alone is in neither mask, whatever the others.
        let beyond = MAX_DISTANCE + TIGHT_MARGIN;
        let l = pixel.lightness.unwrap_or(f32::NAN);
        for (q, out) in self.quads.iter().zip(&mut dist) {
            *out = q.distances(&pixel, l, beyond);
        }
        let dist = &dist[..self.quads.len()];
        let best = dist
            .iter()
            .fold(f32x4::splat(f32::INFINITY), |a, &d| a.min(d))
            .to_array()
            .into_iter()
            .fold(f32::INFINITY, f32::min);
        if best > MAX_DISTANCE {
            return PixelColours::default();
        }
        let limit = f32x4::splat((best + MARGIN).min(MAX_DISTANCE));
        let tight = f32x4::splat(best + TIGHT_MARGIN);
        let mut out = PixelColours::default();
        for (k, d) in dist.iter().enumerate() {
            out.compatible |= d.simd_le(limit).to_bitmask() << (k * QUAD);
            out.best |= d.simd_le(tight).to_bitmask() << (k * QUAD);
        }
        out
    }
}

/// The palette bits of a catalog entry's colours.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct EntryColours {
    /// Every colour of the entry.
    pub all: ColourSet,
    /// Its main colour (all of a taught entry's colours).
    pub primary: ColourSet,
    /// Its second colour (none for a taught entry).
    pub secondary: ColourSet,
}

/// The colour models of every catalog entry: its main colour and its second colour (captain's
/// hat, island's palm, the die's other faces), unless a taught model replaces them.
pub fn entry_colours(
    palette: &mut Palette,
    entry: &CatalogEntry,
    taught: Option<&[ColourModel]>,
) -> EntryColours {
    match taught {
        Some(models) if !models.is_empty() => {
            let mut set = 0;
            for (k, m) in models.iter().enumerate() {
                set |= palette.add(m.clone(), &format!("{}/taught{k}", entry.name));
            }
            EntryColours {
                all: ColourSet(set),
                primary: ColourSet(set),
                secondary: ColourSet(0),
            }
        }
        _ => {
            let primary = palette.add(ColourModel::of_srgb(entry.colour), &entry.name);
            let secondary = entry.secondary_colour.map_or(0, |c| {
                palette.add(ColourModel::of_srgb(c), &format!("{}/2", entry.name))
            });
            EntryColours {
                all: ColourSet(primary | secondary),
                primary: ColourSet(primary),
                secondary: ColourSet(secondary),
            }
        }
    }
}

/// A palette for a whole catalog (no taught models).
pub fn catalog_palette(catalog: &Catalog) -> (Palette, Vec<ColourSet>) {
    let mut palette = Palette::default();
    let sets = catalog
        .pieces
        .iter()
        .map(|e| entry_colours(&mut palette, e, None).all)
        .collect();
    (palette, sets)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bgr(r: f32, g: f32, b: f32) -> [f32; 3] {
        [b, g, r]
    }

    #[test]
    fn observed_piece_colours_match_their_catalog_colour() {
        let cat = Catalog::default_catalog();
        let (palette, sets) = catalog_palette(&cat);
        let set = |name: &str| sets[cat.pieces.iter().position(|e| e.name == name).unwrap()];
        // Pixels measured on rendered scenes (see the vision tests), with a table of level 180.
        let cases = [
            ("gold", bgr(205.0, 145.0, 41.0)),
            ("chest", bgr(147.0, 93.0, 48.0)),
            ("octopus_head", bgr(211.0, 78.0, 134.0)),
            ("ship_blue", bgr(119.0, 139.0, 191.0)),
            ("ship_green", bgr(121.0, 163.0, 116.0)),
            ("anchor_purple", bgr(125.0, 80.0, 165.0)),
            ("gem", bgr(46.0, 181.0, 186.0)),
            ("ink_die", bgr(62.0, 60.0, 63.0)),
            ("captain", bgr(217.0, 208.0, 199.0)),
            ("pirate_ship", bgr(251.0, 143.0, 177.0)),
        ];
        for (name, px) in cases {
            let mask = palette.classify(px, 3.0 * 180.0).compatible;
            assert!(set(name).contains_any(mask), "{name}: {px:?} -> {mask:b}");
        }
        // Collisions stay possible, but not everything matches everything.
        let gem_px = palette.classify(bgr(46.0, 181.0, 186.0), 540.0).compatible;
        assert!(!set("octopus_head").contains_any(gem_px));
        let black = palette.classify(bgr(60.0, 60.0, 62.0), 540.0);
        assert!(set("ink_die").contains_any(black.best));
        assert!(!set("gold").contains_any(black.compatible));
    }

    #[test]
    fn on_a_dark_table_black_is_black_and_white_is_white() {
        let cat = Catalog::default_catalog();
        let (palette, sets) = catalog_palette(&cat);
        let set = |name: &str| sets[cat.pieces.iter().position(|e| e.name == name).unwrap()];
        // Dark wood (b + g + r of 184): the die's lit black faces are about as bright as the
        // table, the captain's white far brighter.
        let dark_wood = 184.0;
        let die = palette.classify(bgr(58.0, 56.0, 55.0), dark_wood);
        assert!(set("ink_die").contains_any(die.best), "{die:?}");
        assert!(!set("captain").contains_any(die.best), "{die:?}");
        let white = palette.classify(bgr(215.0, 210.0, 200.0), dark_wood);
        assert!(set("captain").contains_any(white.best), "{white:?}");
    }

    #[test]
    fn a_dark_colour_greyed_by_a_highlight_keeps_its_colour_but_not_a_richer_one_as_light() {
        let cat = Catalog::default_catalog();
        let (mut palette, _) = catalog_palette(&cat);
        palette.white_sum = Some(600.0);
        let navy = 1 << palette.names.iter().position(|n| n == "captain/2").unwrap();
        let purple = 1 << palette.names.iter().position(|n| n == "ship_purple").unwrap();
        // A captain's hat on a pale table (scene 6 of the bench): greyed by a highlight to 0.44
        // of white, 2.2 times the navy's catalog lightness.
        let hat = palette.classify(bgr(81.0, 79.0, 104.0), 578.0);
        assert!(hat.best & navy != 0, "{hat:?}");
        assert!(hat.best & purple != 0, "{hat:?}");
        // A pixel of the blue ship's shaded side, as light and richer than navy, is not navy.
        let shaded_blue = palette.classify(bgr(40.0, 95.0, 175.0), 578.0);
        assert!(shaded_blue.compatible & navy == 0, "{shaded_blue:?}");
    }

    #[test]
    fn brown_and_orange_differ_in_lightness_next_to_white_paper() {
        let cat = Catalog::default_catalog();
        let (mut palette, sets) = catalog_palette(&cat);
        let set = |name: &str| sets[cat.pieces.iter().position(|e| e.name == name).unwrap()];
        // White paper shows 200 per channel; the orange face is brightly lit (a chest's colour
        // would have to be half again as light as its catalog colour to look like it).
        let k = 200.0 / 255.0;
        let orange = bgr(250.0, 170.0, 85.0);
        let brown = bgr(139.0 * k, 90.0 * k, 43.0 * k);
        // Without the paper, chroma alone cannot tell them apart.
        assert!(set("chest").contains_any(palette.classify(orange, 540.0).compatible));
        palette.white_sum = Some(3.0 * 200.0);
        let o = palette.classify(orange, 540.0);
        assert!(set("ship_orange").contains_any(o.best), "{o:?}");
        assert!(!set("chest").contains_any(o.compatible), "{o:?}");
        let b = palette.classify(brown, 540.0);
        assert!(set("chest").contains_any(b.best), "{b:?}");
    }

    /// [`Palette::classify`] as the definitions say: every model's full distance, then the
    /// masks (the fast one skips what is far in chroma alone).
    fn classify_plainly(palette: &Palette, bgr: [f32; 3], ref_sum: f32) -> PixelColours {
        let sum = bgr[0] + bgr[1] + bgr[2];
        let chroma = chroma_of(bgr);
        let rel = relative_brightness(sum, ref_sum);
        let lightness = palette.white_sum.map(|w| sum / w);
        let dist: Vec<f32> = palette
            .models
            .iter()
            .map(|m| m.distance(chroma, sum, rel, lightness))
            .collect();
        let best = dist.iter().copied().fold(f32::INFINITY, f32::min);
        if best > MAX_DISTANCE {
            return PixelColours::default();
        }
        let mut out = PixelColours::default();
        for (i, &d) in dist.iter().enumerate() {
            if d <= (best + MARGIN).min(MAX_DISTANCE) {
                out.compatible |= 1 << i;
            }
            if d <= best + TIGHT_MARGIN {
                out.best |= 1 << i;
            }
        }
        out
    }

    proptest::proptest! {
        #[test]
        fn classify_matches_every_models_full_distance(
            b in 0.0f32..255.0,
            g in 0.0f32..255.0,
            r in 0.0f32..255.0,
            ref_sum in 0.0f32..765.0,
            white in proptest::option::of(300.0f32..765.0),
        ) {
            let (mut palette, _) = catalog_palette(&Catalog::default_catalog());
            palette.white_sum = white;
            let px = [b, g, r];
            proptest::prop_assert_eq!(palette.classify(px, ref_sum), classify_plainly(&palette, px, ref_sum));
        }

        /// Palettes of any size (a lane group partly filled or not), taught models with a
        /// spread and neutral models with a lightness range among them.
        #[test]
        fn classify_matches_every_models_full_distance_on_any_palette(
            models in proptest::collection::vec(
                (
                    (0.0f32..255.0, 0.0f32..255.0, 0.0f32..255.0),
                    0.0f32..0.1,
                    (0.0f32..1.5, 0.0f32..2.0),
                    proptest::option::of((0.0f32..1.0, 0.0f32..1.5)),
                ),
                1..MAX_MODELS,
            ),
            pixels in proptest::collection::vec((0.0f32..255.0, 0.0f32..255.0, 0.0f32..255.0, 0.0f32..765.0), 16),
            white in proptest::option::of(300.0f32..765.0),
        ) {
            let mut palette = Palette::with_white_sum(white);
            for (k, ((b, g, r), sigma, (lo, span), lightness)) in models.into_iter().enumerate() {
                let model = ColourModel {
                    chroma: chroma_of([b, g, r]),
                    chroma_sigma: sigma,
                    brightness: [lo, lo + span],
                    lightness: lightness.map(|(lo, span)| [lo, lo + span]),
                };
                palette.add(model, &format!("m{k}"));
            }
            for (b, g, r, ref_sum) in pixels {
                let px = [b, g, r];
                proptest::prop_assert_eq!(palette.classify(px, ref_sum), classify_plainly(&palette, px, ref_sum));
            }
        }
    }
}
