//! The working state while a frame's layout is being arranged: the pieces, their footprints, and
//! the checks every move must pass (see `placement.rs` for the rules).

use super::layout::{Layout, NearTie, PlacedPiece};
use super::placement::{
    COUNTER_CLEARANCE_MM, DECK_OVERHANG_MM, Footprint, ISLAND_EDGE_MM, MIN_GAP_MM, STRING_CLEARANCE_MM, Table,
};
use super::random::uniform;
use super::scene::Scene;
use crate::table::{PieceKind, PointMm, PolygonMm};
use rand_chacha::ChaCha8Rng;

/// Random positions tried before a placement gives up.
pub(crate) const PLACEMENT_TRIES: usize = 300;

/// Where a piece is being put.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Spot {
    /// Inside the ocean, clear of the string.
    Ocean,
    /// Across the string (its footprint crosses the centre line).
    OnString,
    /// Outside the string, clear of it, in view.
    Outside,
    /// On the deck of the ship at this index.
    Deck(usize),
    /// On the island at this index.
    Island(usize),
    /// Anywhere out of the camera's view (a fault).
    OutOfView,
}

/// The surface a piece stands on: pieces collide only with pieces on the same surface.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Surface {
    Table,
    Deck(String),
    Island,
}

/// Treasures (other than `except`) must stay farther than `beyond_gap_mm` from ship `ship`, so that
/// a near tie stays the two closest treasures.
#[derive(Debug, Clone)]
pub(crate) struct Reserve {
    pub ship: usize,
    pub beyond_gap_mm: f64,
    pub except: [usize; 2],
}

/// A piece's state saved by [`Arranger::snapshot`].
#[derive(Debug, Clone)]
pub(crate) struct Saved {
    index: usize,
    piece: PlacedPiece,
    fp: Footprint,
    placed: bool,
}

#[derive(Debug)]
pub(crate) struct Arranger<'a> {
    pub table: Table<'a>,
    pub pieces: Vec<PlacedPiece>,
    pub fps: Vec<Footprint>,
    /// Whether piece i has been put on the table in this arrangement.
    pub placed: Vec<bool>,
    pub rng: ChaCha8Rng,
    pub crab: usize,
    pub near_ties: Vec<NearTie>,
    pub reserves: Vec<Reserve>,
}

impl<'a> Arranger<'a> {
    /// Starts from the scene's box with nothing placed.
    pub(crate) fn empty(scene: &'a Scene, rng: ChaCha8Rng) -> Self {
        let table = Table::new(scene);
        let pieces: Vec<PlacedPiece> = scene
            .pieces
            .iter()
            .map(|b| PlacedPiece {
                id: b.id.clone(),
                entry: b.entry.clone(),
                kind: b.kind,
                treasure: b.treasure,
                color: b.color,
                center_mm: PointMm::default(),
                angle_rad: 0.0,
                base_mm: 0.0,
                loaded_on: None,
                on_island: false,
                top: None,
            })
            .collect();
        let fps = pieces.iter().map(|p| table.footprint(p)).collect();
        let n = pieces.len();
        Self {
            table,
            pieces,
            fps,
            placed: vec![false; n],
            rng,
            crab: 0,
            near_ties: Vec::new(),
            reserves: Vec::new(),
        }
    }

    /// Continues from a previous frame's layout.
    pub(crate) fn from_layout(scene: &'a Scene, layout: &Layout, rng: ChaCha8Rng) -> Self {
        let mut a = Self::empty(scene, rng);
        for p in &layout.pieces {
            if let Some(i) = a.index(&p.id) {
                a.pieces[i] = p.clone();
                a.fps[i] = a.table.footprint(p);
                a.placed[i] = true;
            }
        }
        a.crab = layout.counter.crab;
        a
    }

    pub(crate) fn scene(&self) -> &'a Scene {
        self.table.scene
    }

    pub(crate) fn index(&self, id: &str) -> Option<usize> {
        self.pieces.iter().position(|p| p.id == id)
    }

    /// Indices of the pieces of a kind (in id order).
    pub(crate) fn of_kind(&self, kind: PieceKind) -> Vec<usize> {
        (0..self.pieces.len())
            .filter(|&i| self.pieces[i].kind == kind)
            .collect()
    }

    pub(crate) fn is_ship(&self, i: usize) -> bool {
        matches!(self.pieces[i].kind, PieceKind::Ship | PieceKind::PirateShip)
    }

    fn surface(p: &PlacedPiece) -> Surface {
        match (&p.loaded_on, p.on_island) {
            (Some(s), _) => Surface::Deck(s.clone()),
            (None, true) => Surface::Island,
            (None, false) => Surface::Table,
        }
    }

    /// A treasure that counts for the closest-treasure rule: in the ocean, on the table, not on
    /// the island.
    pub(crate) fn is_candidate(&self, i: usize) -> bool {
        let p = &self.pieces[i];
        self.placed[i]
            && p.kind == PieceKind::Treasure
            && p.loaded_on.is_none()
            && !p.on_island
            && self.scene().ocean().contains(p.center_mm)
    }

    /// Whether piece `i` may stand as `cand` at `spot`.
    pub(crate) fn fits(&self, i: usize, cand: &PlacedPiece, fp: &Footprint, spot: Spot) -> bool {
        let scene = self.scene();
        let ocean = scene.ocean();
        let table_level = matches!(spot, Spot::Ocean | Spot::OnString | Spot::Outside);
        match spot {
            Spot::Ocean => {
                if !ocean.contains(fp.centre) || self.table.string_distance(fp) < STRING_CLEARANCE_MM {
                    return false;
                }
            }
            Spot::OnString => {
                if self.table.string_distance(fp) > 0.0 {
                    return false;
                }
            }
            Spot::Outside => {
                if ocean.contains(fp.centre) || self.table.string_distance(fp) < STRING_CLEARANCE_MM {
                    return false;
                }
            }
            Spot::Deck(s) => {
                let deck = &self.fps[s].poly;
                if !deck.contains(fp.centre)
                    || fp
                        .poly
                        .points()
                        .iter()
                        .any(|&q| !deck.contains(q) && deck.distance_to_outline(q) > DECK_OVERHANG_MM)
                {
                    return false;
                }
            }
            Spot::Island(k) => {
                let island = &self.fps[k].poly;
                if !island.contains(fp.centre)
                    || fp
                        .poly
                        .points()
                        .iter()
                        .any(|&q| !island.contains(q) || island.distance_to_outline(q) < ISLAND_EDGE_MM)
                {
                    return false;
                }
                if let Some(palm) = self.table.palm(&self.pieces[k])
                    && fp.gap(&palm) < MIN_GAP_MM
                {
                    return false;
                }
            }
            Spot::OutOfView => {
                return self.table.out_of_view(&scene.camera, cand, fp);
            }
        }
        if table_level
            && cand.kind != PieceKind::Crab
            && self.table.counter_distance(fp) < COUNTER_CLEARANCE_MM
        {
            return false;
        }
        if !self.table.visible(&scene.camera, cand, fp) {
            return false;
        }
        let surface = Self::surface(cand);
        for j in 0..self.pieces.len() {
            if j == i || !self.placed[j] || Self::surface(&self.pieces[j]) != surface {
                continue;
            }
            // A ship carries its own loaded treasures: they move with it.
            if self.pieces[j].loaded_on.as_deref() == Some(cand.id.as_str()) {
                continue;
            }
            if fp.gap(&self.fps[j]) < MIN_GAP_MM {
                return false;
            }
        }
        if cand.kind == PieceKind::Treasure && table_level && ocean.contains(fp.centre) {
            for r in &self.reserves {
                if !r.except.contains(&i) && fp.gap(&self.fps[r.ship]) <= r.beyond_gap_mm {
                    return false;
                }
            }
        }
        true
    }

    /// Puts piece `i` as `cand` if it fits at `spot`.
    pub(crate) fn try_put(&mut self, i: usize, cand: PlacedPiece, spot: Spot) -> bool {
        let fp = self.table.footprint(&cand);
        if !self.fits(i, &cand, &fp, spot) {
            return false;
        }
        self.pieces[i] = cand;
        self.fps[i] = fp;
        self.placed[i] = true;
        true
    }

    /// Puts piece `i` without checks (the crab, which the counter places).
    pub(crate) fn force(&mut self, i: usize, cand: PlacedPiece) {
        self.fps[i] = self.table.footprint(&cand);
        self.pieces[i] = cand;
        self.placed[i] = true;
    }

    /// Piece `i` on the table (not loaded, not on the island) at `centre`, turned by `angle`.
    pub(crate) fn on_table(&self, i: usize, centre: PointMm, angle: f64) -> PlacedPiece {
        PlacedPiece {
            center_mm: centre,
            angle_rad: angle,
            base_mm: 0.0,
            loaded_on: None,
            on_island: false,
            ..self.pieces[i].clone()
        }
    }

    /// A uniformly random point of the ocean.
    pub(crate) fn random_ocean_point(&mut self) -> PointMm {
        let ocean = self.scene().ocean();
        let (mut minx, mut maxx, mut miny, mut maxy) = (f64::MAX, f64::MIN, f64::MAX, f64::MIN);
        for p in ocean.points() {
            minx = minx.min(p.x);
            maxx = maxx.max(p.x);
            miny = miny.min(p.y);
            maxy = maxy.max(p.y);
        }
        for _ in 0..1000 {
            let p = PointMm::new(
                uniform(&mut self.rng, minx, maxx),
                uniform(&mut self.rng, miny, maxy),
            );
            if ocean.contains(p) {
                return p;
            }
        }
        ocean.centroid()
    }

    /// Drops piece `i` somewhere at random in the ocean (clear of everything).
    pub(crate) fn scatter_in_ocean(&mut self, i: usize) -> bool {
        for _ in 0..PLACEMENT_TRIES {
            let c = self.random_ocean_point();
            let a = uniform(&mut self.rng, 0.0, std::f64::consts::TAU);
            let cand = self.on_table(i, c, a);
            if self.try_put(i, cand, Spot::Ocean) {
                return true;
            }
        }
        false
    }

    /// Puts piece `i` just outside the string, in view.
    pub(crate) fn put_outside(&mut self, i: usize) -> bool {
        let r = self.fps[i].radius;
        for _ in 0..PLACEMENT_TRIES {
            let string = &self.scene().string;
            let s = uniform(&mut self.rng, 0.0, string.perimeter_mm);
            let out = uniform(&mut self.rng, STRING_CLEARANCE_MM + 1.0, 30.0);
            let c = string.point_at(s) + string.outward_normal_at(s) * (r + out);
            let a = uniform(&mut self.rng, 0.0, std::f64::consts::TAU);
            let cand = self.on_table(i, c, a);
            if self.try_put(i, cand, Spot::Outside) {
                return true;
            }
        }
        false
    }

    /// Puts piece `i` across the string.
    pub(crate) fn put_on_string(&mut self, i: usize) -> bool {
        let r = self.fps[i].radius;
        for _ in 0..PLACEMENT_TRIES {
            let string = &self.scene().string;
            let s = uniform(&mut self.rng, 0.0, string.perimeter_mm);
            let off = uniform(&mut self.rng, -0.6 * r, 0.6 * r);
            let c = string.point_at(s) + string.outward_normal_at(s) * off;
            let a = uniform(&mut self.rng, 0.0, std::f64::consts::TAU);
            let cand = self.on_table(i, c, a);
            if self.try_put(i, cand, Spot::OnString) {
                return true;
            }
        }
        false
    }

    /// Puts piece `i` at exactly `gap_mm` from piece `j`, in direction `dir` from `j`'s centre,
    /// turned by `angle`, at `spot`.
    pub(crate) fn put_at_gap(
        &mut self,
        i: usize,
        j: usize,
        dir: PointMm,
        gap_mm: f64,
        angle: f64,
        spot: Spot,
    ) -> bool {
        let Some(entry) = self.scene().catalog.entry(&self.pieces[i].entry) else {
            return false;
        };
        let shape = entry.shape.clone();
        let fixed = self.fps[j].clone();
        let radius = shape.bounding_radius_mm();
        let Some(c) = Table::centre_at_gap(&fixed, dir, gap_mm, radius, |c| shape.footprint(c, angle)) else {
            return false;
        };
        let cand = self.on_table(i, c, angle);
        self.try_put(i, cand, spot)
    }

    /// The current state of some pieces, to undo a move that does not work out.
    pub(crate) fn snapshot(&self, idx: &[usize]) -> Vec<Saved> {
        idx.iter()
            .map(|&i| Saved {
                index: i,
                piece: self.pieces[i].clone(),
                fp: self.fps[i].clone(),
                placed: self.placed[i],
            })
            .collect()
    }

    pub(crate) fn restore(&mut self, saved: Vec<Saved>) {
        for s in saved.into_iter().rev() {
            self.pieces[s.index] = s.piece;
            self.fps[s.index] = s.fp;
            self.placed[s.index] = s.placed;
        }
    }

    /// The footprint gap between two placed pieces.
    pub(crate) fn gap(&self, i: usize, j: usize) -> f64 {
        self.fps[i].exact_gap(&self.fps[j])
    }

    /// Every placed piece.
    pub(crate) fn into_layout(self, frame: usize, counter: super::counter::CounterLayout) -> Layout {
        let pieces = self
            .pieces
            .into_iter()
            .zip(self.placed)
            .filter_map(|(p, placed)| placed.then_some(p))
            .collect();
        Layout {
            frame,
            pieces,
            counter,
            near_ties: self.near_ties,
        }
    }

    /// Outline of the ocean (for callers that need it often).
    pub(crate) fn ocean(&self) -> &'a PolygonMm {
        self.table.scene.ocean()
    }
}
