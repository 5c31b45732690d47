//! The tracker: frames of per-frame detections in, pieces with stable identities out.
//!
//! Each frame:
//! 1. **Associate** detections with tracks, one family of look-alike kinds at a time (see
//!    [`Family`]), by gated optimal assignment on distance (plus a small cost for a class
//!    mismatch): confirmed tracks first, then tentative ones, so a new flicker never steals a
//!    known piece's detection. A confirmed track not seen last frame (hidden, or moving fast)
//!    may be matched farther away, by a detection of its own class only.
//! 2. **Update** matched tracks: smooth the pose, vote on class, die top, load and island.
//!    A treasure's `loaded_on` (vision's per-frame id of a ship) is carried to the ship's track.
//! 3. **Create** a tentative track for every unmatched detection; a tentative track becomes a
//!    piece when seen on `confirm_hits` of its first `confirm_window_frames` frames. It takes
//!    the id of a piece of its class that has just vanished (a flick too long to follow), else
//!    the id of a lost piece of its class, else the next id `p1`, `p2`, ...
//! 4. **Drop** a confirmed track after `max_missed_frames` frames unseen; it is kept as lost with
//!    where it was last seen. Frames that are obstructed, moved or relit are not counted: a
//!    piece under a hand keeps its id however long the hand stays. A piece never seen with the
//!    ocean clear (a few frames after any hand) is not said to have left at the edge: it may
//!    have been the hand.
//! 5. **Settle**: any appearance, departure, move, or change of class, top, load or island
//!    restarts the count of still frames; so do obstruction, a moved view and a lighting
//!    change. The table is settled after `settle_frames` still frames with nothing pending (a
//!    change that may be under way: see [`TrackedState::pending`]).
//!
//! While the view has moved or the lighting has changed, detections are not trusted at all: the
//! tracks are held as they were and the table cannot settle.

use super::assign::assign;
use super::class::{Family, PieceClass};
use super::config::TrackerConfig;
use super::error::TrackingError;
use super::observation::{FrameObservation, TrackArea};
use super::pose::{SmoothedPose, Symmetry};
use super::state::{Departure, LostPiece, TrackEvent, TrackedPiece, TrackedState};
use super::votes::Votes;
use crate::games::crash_octopus::DieTop;
use crate::referee::classify;
use crate::table::{Catalog, PieceKind, PieceReport, PointMm, PolygonMm, Shape};
use std::collections::{BTreeMap, BTreeSet, HashMap};

/// A track's private handle, never shown: public ids are given only to confirmed tracks.
type Key = u64;

/// Follows the pieces of a table from frame to frame. Pure: no clock, no I/O.
#[derive(Debug, Clone)]
pub struct Tracker {
    config: TrackerConfig,
    catalog: Catalog,
    area: TrackArea,
    tracks: Vec<Track>,
    /// Most recent first.
    lost: Vec<Lost>,
    next_key: Key,
    next_id: u64,
    last_seq: Option<u64>,
    frames_still: u32,
    /// Consecutive frames with nothing over the ocean.
    frames_clear: u32,
}

/// A frame counts as clear of hands (see `Track::seen_clear`) after this many unobstructed
/// frames in a row: a hand reaching in or drawing back is not always large enough in view to be
/// called an obstruction, frame by frame.
const CLEAR_AFTER_FRAMES: u32 = 3;

#[derive(Debug, Clone)]
struct Lost {
    number: u64,
    piece: LostPiece,
}

#[derive(Debug, Clone)]
struct Track {
    key: Key,
    /// The number of the public id `p<number>`, once confirmed.
    number: Option<u64>,
    class: PieceClass,
    class_votes: Votes<PieceClass>,
    class_share: f64,
    confidence: f64,
    shape: Option<Shape>,
    top: Option<DieTop>,
    top_votes: Votes<Option<DieTop>>,
    load: Option<Key>,
    load_votes: Votes<Option<Key>>,
    on_island: bool,
    island_votes: Votes<bool>,
    pose: SmoothedPose,
    /// Frames it was seen on.
    hits: u32,
    /// Frames since it was created (frames whose detections were trusted).
    age: u32,
    /// Consecutive frames unseen, not counting obstructed, moved or relit ones.
    missed: u32,
    /// Consecutive frames unseen, all counted.
    unseen: u32,
    /// Seen at least once with nothing over the ocean (for [`CLEAR_AFTER_FRAMES`] frames). A
    /// piece seen only while a hand was there may be the hand itself (or what vision made of
    /// it): when it is gone after the hand left, it did not leave the view.
    seen_clear: bool,
    /// The latest sighting, as vision reported it.
    last: PieceReport,
}

/// One detection of the frame being tracked.
struct Detection<'a> {
    report: &'a PieceReport,
    class: PieceClass,
    angle: Option<f64>,
}

impl Tracker {
    /// A tracker for a table whose pieces look like `catalog` (footprints are re-placed from it)
    /// and can be seen within `area`.
    pub fn new(catalog: Catalog, area: TrackArea, config: TrackerConfig) -> Result<Self, TrackingError> {
        config.validate()?;
        Ok(Self {
            config,
            catalog,
            area,
            tracks: Vec::new(),
            lost: Vec::new(),
            next_key: 0,
            next_id: 1,
            last_seq: None,
            frames_still: 0,
            frames_clear: 0,
        })
    }

    pub fn config(&self) -> &TrackerConfig {
        &self.config
    }

    /// Forgets every piece (a new game, or after calibrating again); ids start again at `p1`.
    pub fn reset(&mut self, area: TrackArea) {
        self.area = area;
        self.tracks.clear();
        self.lost.clear();
        self.next_key = 0;
        self.next_id = 1;
        self.last_seq = None;
        self.frames_still = 0;
        self.frames_clear = 0;
    }

    /// Takes one frame. A refused observation (see [`TrackingError`]) changes nothing.
    pub fn update(&mut self, obs: &FrameObservation) -> Result<TrackedState, TrackingError> {
        validate(obs, self.last_seq)?;
        self.last_seq = Some(obs.seq);
        let mut events = Vec::new();
        let trusted = !(obs.view_moved || obs.lighting_changed);
        self.age_lost();
        self.frames_clear = if obs.obstructed {
            0
        } else {
            self.frames_clear.saturating_add(1)
        };
        let sightings = if trusted {
            self.track(obs, &mut events);
            self.sightings_tracked()
        } else {
            for t in &mut self.tracks {
                t.unseen = t.unseen.saturating_add(1);
            }
            self.sightings_held(obs)
        };
        let pending = trusted && self.pending();
        self.frames_still = if !trusted || obs.obstructed || !events.is_empty() {
            0
        } else {
            self.frames_still.saturating_add(1)
        };
        let settled =
            trusted && !obs.obstructed && !pending && self.frames_still >= self.config.settle_frames;
        let ids = self.public_ids();
        let mut pieces: Vec<(u64, TrackedPiece)> = self
            .tracks
            .iter()
            .filter_map(|t| {
                let n = t.number?;
                Some((
                    n,
                    TrackedPiece {
                        report: self.report(t, &ids),
                        age_frames: t.age,
                        missed_frames: t.unseen,
                        class_share: t.class_share,
                    },
                ))
            })
            .collect();
        pieces.sort_by_key(|(n, _)| *n);
        Ok(TrackedState {
            seq: obs.seq,
            image: obs.image.clone(),
            pieces: pieces.into_iter().map(|(_, p)| p).collect(),
            lost: self.lost.iter().map(|l| l.piece.clone()).collect(),
            events,
            settled,
            frames_still: self.frames_still,
            pending,
            obstructed: obs.obstructed,
            view_moved: obs.view_moved,
            lighting_changed: obs.lighting_changed,
            counter: obs.counter.clone(),
            sightings,
        })
    }

    /// Vision's id of each detection a confirmed track took in this frame -> the track's stable
    /// id (after `track`: a track seen in this frame holds its detection as `last`).
    fn sightings_tracked(&self) -> BTreeMap<String, String> {
        self.tracks
            .iter()
            .filter(|t| t.unseen == 0)
            .filter_map(|t| Some((t.last.id.clone(), id_of(t.number?))))
            .collect()
    }

    /// The same for a frame whose detections are not trusted (the tracks are held): each
    /// detection paired with the confirmed track it would have gone to, nothing updated. The
    /// picture's labels then keep the pieces' ids through a lighting change.
    fn sightings_held(&self, obs: &FrameObservation) -> BTreeMap<String, String> {
        let dets = detections(obs);
        let owner = self.associate(&dets, &[true]);
        dets.iter()
            .zip(&owner)
            .filter_map(|(d, o)| {
                let n = self.tracks.get((*o)?)?.number?;
                Some((d.report.id.clone(), id_of(n)))
            })
            .collect()
    }

    /// Detection index -> track index: gated optimal assignment, one family at a time, for each
    /// of `passes` in turn (`true`: confirmed tracks, `false`: tentative ones).
    fn associate(&self, dets: &[Detection], passes: &[bool]) -> Vec<Option<usize>> {
        let mut owner: Vec<Option<usize>> = vec![None; dets.len()];
        let families: BTreeSet<Family> = dets
            .iter()
            .map(|d| d.class.family())
            .chain(self.tracks.iter().map(|t| t.class.family()))
            .collect();
        for &confirmed in passes {
            for &family in &families {
                let rows: Vec<usize> = (0..self.tracks.len())
                    .filter(|&i| {
                        let t = &self.tracks[i];
                        t.number.is_some() == confirmed && t.class.family() == family
                    })
                    .collect();
                let cols: Vec<usize> = (0..dets.len())
                    .filter(|&j| owner[j].is_none() && dets[j].class.family() == family)
                    .collect();
                let costs: Vec<Vec<Option<f64>>> = rows
                    .iter()
                    .map(|&i| {
                        cols.iter()
                            .map(|&j| self.cost(&self.tracks[i], &dets[j]))
                            .collect()
                    })
                    .collect();
                for (r, c) in assign(&costs, cols.len()).into_iter().enumerate() {
                    if let (Some(&i), Some(&j)) = (rows.get(r), c.and_then(|c| cols.get(c))) {
                        owner[j] = Some(i);
                    }
                }
            }
        }
        owner
    }

    /// Whether a change may be under way that the tracks do not show yet: a piece unseen for
    /// `pending_missed_frames`, a new one seen on all but one of the frames it needs, a piece
    /// whose latest sighting was far from where it rests, or a piece missed in this frame while
    /// a new one of its family turned up (it may have jumped).
    fn pending(&self) -> bool {
        let config = &self.config;
        let new_families: BTreeSet<Family> = self
            .tracks
            .iter()
            .filter(|t| t.number.is_none() && t.age == 1)
            .map(|t| t.class.family())
            .collect();
        self.tracks.iter().any(|t| {
            if t.number.is_some() {
                t.missed >= config.pending_missed_frames
                    || t.pose.in_doubt()
                    || (t.missed >= 1 && new_families.contains(&t.class.family()))
            } else {
                t.hits >= 1 && t.hits + 1 >= config.confirm_hits
            }
        })
    }

    /// Steps 1-4 of the module description, on a frame whose detections are trusted.
    fn track(&mut self, obs: &FrameObservation, events: &mut Vec<TrackEvent>) {
        let dets = detections(obs);
        // Detection index -> track index.
        let mut owner = self.associate(&dets, &[true, false]);
        // Every detection left alone starts a tentative track.
        for (j, d) in dets.iter().enumerate() {
            if owner[j].is_none() {
                owner[j] = Some(self.tracks.len());
                let track = self.new_track(d);
                self.tracks.push(track);
            }
        }
        let key_of_detection: HashMap<&str, Key> = dets
            .iter()
            .zip(&owner)
            .filter_map(|(d, o)| Some((d.report.id.as_str(), self.tracks.get((*o)?)?.key)))
            .collect();
        let ids_before = self.public_ids();
        let clear = self.frames_clear >= CLEAR_AFTER_FRAMES;
        let mut seen = vec![false; self.tracks.len()];
        let Tracker {
            tracks,
            config,
            catalog,
            ..
        } = self;
        for (d, o) in dets.iter().zip(&owner) {
            let Some(i) = *o else { continue };
            let Some(t) = tracks.get_mut(i) else { continue };
            seen[i] = true;
            t.seen_clear |= clear;
            let load = d
                .report
                .loaded_on
                .as_deref()
                .and_then(|ship| key_of_detection.get(ship).copied());
            t.observe(d, load, config, catalog, &ids_before, events);
        }
        for (t, seen) in self.tracks.iter_mut().zip(seen) {
            t.age = t.age.saturating_add(1);
            if !seen {
                t.unseen = t.unseen.saturating_add(1);
                if !obs.obstructed {
                    t.missed = t.missed.saturating_add(1);
                }
            }
        }
        self.confirm(events);
        self.depart(events);
    }

    /// The cost of pairing a track with a detection, `None` when the gate forbids it.
    fn cost(&self, t: &Track, d: &Detection) -> Option<f64> {
        let distance = t.pose.association_distance_mm(d.report.center_mm);
        let same = t.class == d.class;
        let allowed = distance <= self.config.association_gate_mm
            || (same && t.unseen > 0 && distance <= self.config.reidentify_gate_mm);
        let mismatch = if same {
            0.0
        } else {
            self.config.class_mismatch_cost_mm
        };
        allowed.then_some(distance + mismatch)
    }

    fn new_track(&mut self, d: &Detection) -> Track {
        let key = self.next_key;
        self.next_key += 1;
        let shape = d.class.shape(&self.catalog).cloned();
        let window = self.config.vote_window_frames;
        Track {
            key,
            number: None,
            class: d.class,
            class_votes: Votes::new(window),
            class_share: 0.0,
            confidence: 0.0,
            pose: pose_for(shape.as_ref(), d.report.center_mm, d.angle),
            shape,
            top: d.report.top,
            top_votes: Votes::new(window),
            load: None,
            load_votes: Votes::new(window),
            on_island: d.report.on_island,
            island_votes: Votes::new(window),
            hits: 0,
            age: 0,
            missed: 0,
            unseen: 0,
            seen_clear: false,
            last: d.report.clone(),
        }
    }

    /// Confirms the tentative tracks seen often enough, in a fixed order (class, then place) so
    /// that the ids given do not depend on the order vision listed the pieces in.
    fn confirm(&mut self, events: &mut Vec<TrackEvent>) {
        let mut ready: Vec<usize> = (0..self.tracks.len())
            .filter(|&i| {
                let t = &self.tracks[i];
                t.number.is_none() && t.hits >= self.config.confirm_hits
            })
            .collect();
        ready.sort_by(|&a, &b| {
            let (a, b) = (&self.tracks[a], &self.tracks[b]);
            a.class
                .cmp(&b.class)
                .then(a.pose.center.x.total_cmp(&b.pose.center.x))
                .then(a.pose.center.y.total_cmp(&b.pose.center.y))
        });
        let mut replaced = vec![false; self.tracks.len()];
        for i in ready {
            let (class, center) = (self.tracks[i].class, self.tracks[i].pose.center);
            if let Some(j) = self.vanished(class, center, &replaced) {
                // The piece that vanished is this one, moved out of reach of its track (flicked):
                // the new track carries on under its id and key.
                replaced[j] = true;
                let (number, old_key, new_key) =
                    (self.tracks[j].number, self.tracks[j].key, self.tracks[i].key);
                for t in &mut self.tracks {
                    t.load_votes.replace(&Some(new_key), &Some(old_key));
                    if t.load == Some(new_key) {
                        t.load = Some(old_key);
                    }
                }
                let seen_clear = self.tracks[j].seen_clear;
                let t = &mut self.tracks[i];
                t.key = old_key;
                t.number = number;
                t.seen_clear |= seen_clear;
                if let Some(n) = number {
                    events.push(TrackEvent::Moved {
                        id: id_of(n),
                        distance_mm: self.tracks[j].pose.center.distance(center),
                    });
                }
                continue;
            }
            let number = match self.reidentify(class, center) {
                Some(n) => {
                    events.push(TrackEvent::Returned { id: id_of(n) });
                    n
                }
                None => {
                    let n = self.next_id;
                    self.next_id += 1;
                    events.push(TrackEvent::Appeared { id: id_of(n), class });
                    n
                }
            };
            self.tracks[i].number = Some(number);
        }
        let window = self.config.confirm_window_frames;
        let mut index = 0;
        self.tracks.retain(|t| {
            let keep =
                !replaced.get(index).copied().unwrap_or(false) && (t.number.is_some() || t.age < window);
            index += 1;
            keep
        });
    }

    /// A confirmed track of this class not seen in this frame, nearest to `center` (and not
    /// `replaced` already): the piece a new track of that class most likely is.
    fn vanished(&self, class: PieceClass, center: PointMm, replaced: &[bool]) -> Option<usize> {
        (0..self.tracks.len())
            .filter(|&j| {
                let t = &self.tracks[j];
                t.number.is_some()
                    && t.unseen >= 1
                    && t.class == class
                    && !replaced.get(j).copied().unwrap_or(false)
            })
            .min_by(|&a, &b| {
                let da = self.tracks[a].pose.center.distance(center);
                let db = self.tracks[b].pose.center.distance(center);
                da.total_cmp(&db)
            })
    }

    /// The number of a lost piece of this class to give back: the nearest one last seen within
    /// the re-identification gate, else the nearest one that left at the edge of the view.
    fn reidentify(&mut self, class: PieceClass, center: PointMm) -> Option<u64> {
        let gate = self.config.reidentify_gate_mm;
        let nearest = |pred: &dyn Fn(&Lost) -> bool| {
            self.lost
                .iter()
                .enumerate()
                .filter(|(_, l)| l.piece.class == class && pred(l))
                .min_by(|(_, a), (_, b)| {
                    let da = a.piece.last.center_mm.distance(center);
                    let db = b.piece.last.center_mm.distance(center);
                    da.total_cmp(&db)
                })
                .map(|(i, _)| i)
        };
        let i = nearest(&|l| l.piece.last.center_mm.distance(center) <= gate)
            .or_else(|| nearest(&|l| l.piece.departure == Departure::AtEdge))?;
        Some(self.lost.remove(i).number)
    }

    /// Moves confirmed tracks unseen too long to the lost list; drops tentative ones that were
    /// not confirmed in time (done in `confirm`).
    fn depart(&mut self, events: &mut Vec<TrackEvent>) {
        let ids = self.public_ids();
        let max = self.config.max_missed_frames;
        let mut gone = Vec::new();
        for t in self
            .tracks
            .iter()
            .filter(|t| t.number.is_some() && t.missed > max)
        {
            let Some(number) = t.number else { continue };
            let mut last = self.report(t, &ids);
            last.loaded_on = None;
            let departure =
                if t.seen_clear && self.area.at_edge(last.center_mm, self.config.lost_edge_margin_mm) {
                    Departure::AtEdge
                } else {
                    Departure::InView
                };
            events.push(TrackEvent::Departed {
                id: id_of(number),
                departure,
            });
            gone.push(Lost {
                number,
                piece: LostPiece {
                    last,
                    class: t.class,
                    departure,
                    frames_since_seen: t.unseen,
                },
            });
        }
        self.tracks.retain(|t| !(t.number.is_some() && t.missed > max));
        // Most recent first; among those leaving together, in id order.
        gone.sort_by_key(|l| l.number);
        for l in gone.into_iter().rev() {
            self.lost.insert(0, l);
        }
    }

    fn age_lost(&mut self) {
        let memory = self.config.lost_memory_frames;
        for l in &mut self.lost {
            l.piece.frames_since_seen = l.piece.frames_since_seen.saturating_add(1);
        }
        self.lost.retain(|l| l.piece.frames_since_seen <= memory);
    }

    /// Public ids of the confirmed tracks, by key.
    fn public_ids(&self) -> HashMap<Key, String> {
        self.tracks
            .iter()
            .filter_map(|t| Some((t.key, id_of(t.number?))))
            .collect()
    }

    /// The report of a track: stable id, voted class, smoothed pose, catalog footprint.
    fn report(&self, t: &Track, ids: &HashMap<Key, String>) -> PieceReport {
        let mut r = t.last.clone();
        r.id = t.number.map(id_of).unwrap_or_default();
        t.class.apply(&mut r);
        let center = t.pose.center;
        let angle = t.pose.angle;
        r.footprint_mm = match &t.shape {
            Some(shape) => shape.footprint(center, angle.unwrap_or(0.0)),
            None => moved_footprint(&t.last, center, angle),
        };
        r.center_mm = center;
        r.angle_deg = angle.map(f64::to_degrees);
        r.loaded_on = if t.class.piece == PieceKind::Treasure {
            t.load.and_then(|k| ids.get(&k).cloned())
        } else {
            None
        };
        r.on_island = t.class.piece == PieceKind::Treasure && r.loaded_on.is_none() && t.on_island;
        r.top = if t.class.piece == PieceKind::InkDie {
            t.top
        } else {
            None
        };
        r.confidence = t.confidence.clamp(0.0, 1.0);
        let ocean = &self.area.ocean_mm;
        if ocean.len() >= classify::MIN_OCEAN_VERTICES {
            r.in_ocean = classify::in_ocean(r.center_mm, ocean);
            r.on_string = classify::on_string(&r.footprint_mm, r.center_mm, ocean);
        }
        r
    }
}

impl Track {
    /// One sighting of this track.
    fn observe(
        &mut self,
        d: &Detection,
        load: Option<Key>,
        config: &TrackerConfig,
        catalog: &Catalog,
        ids: &HashMap<Key, String>,
        events: &mut Vec<TrackEvent>,
    ) {
        let confirmed = self.number.map(id_of);
        let c = d.report.confidence;
        let first = self.hits == 0;
        self.hits = self.hits.saturating_add(1);
        self.missed = 0;
        self.unseen = 0;
        self.last = d.report.clone();

        self.class_votes.push(d.class, c);
        if let Some(tally) = self.class_votes.tally(Some(&self.class)) {
            self.class_share = tally.share;
            self.confidence = tally.confidence;
            if tally.winner != self.class {
                if let Some(id) = &confirmed {
                    events.push(TrackEvent::Reclassified {
                        id: id.clone(),
                        from: self.class,
                        to: tally.winner,
                    });
                }
                self.class = tally.winner;
                self.shape = self.class.shape(catalog).cloned();
                self.pose = pose_for(self.shape.as_ref(), self.pose.center, self.pose.angle);
            }
        }
        // The pose takes this sighting only when it is of the track's class: a look-alike's
        // outline and angle belong to another shape.
        if d.class == self.class && !first {
            let update = self.pose.observe(d.report.center_mm, d.angle, config);
            if let (Some(distance_mm), Some(id)) = (update.moved_mm, &confirmed) {
                events.push(TrackEvent::Moved {
                    id: id.clone(),
                    distance_mm,
                });
            }
        }

        self.top_votes.push(d.report.top, c);
        if let Some(t) = self.top_votes.tally(Some(&self.top)) {
            if t.winner != self.top
                && self.class.piece == PieceKind::InkDie
                && let Some(id) = &confirmed
            {
                events.push(TrackEvent::TopChanged { id: id.clone() });
            }
            self.top = t.winner;
        }
        self.load_votes.push(load, c);
        if let Some(t) = self.load_votes.tally(Some(&self.load)) {
            if t.winner != self.load
                && self.class.piece == PieceKind::Treasure
                && let Some(id) = &confirmed
            {
                events.push(TrackEvent::LoadChanged {
                    id: id.clone(),
                    from: self.load.and_then(|k| ids.get(&k).cloned()),
                    to: t.winner.and_then(|k| ids.get(&k).cloned()),
                });
            }
            self.load = t.winner;
        }
        self.island_votes.push(d.report.on_island, c);
        if let Some(t) = self.island_votes.tally(Some(&self.on_island)) {
            if t.winner != self.on_island
                && self.class.piece == PieceKind::Treasure
                && let Some(id) = &confirmed
            {
                events.push(TrackEvent::IslandChanged {
                    id: id.clone(),
                    on_island: t.winner,
                });
            }
            self.on_island = t.winner;
        }
    }
}

/// The frame's detections, with their classes and angles.
fn detections(obs: &FrameObservation) -> Vec<Detection<'_>> {
    obs.pieces
        .iter()
        .map(|r| Detection {
            report: r,
            class: PieceClass::of(r),
            angle: r.angle_deg.map(f64::to_radians),
        })
        .collect()
}

fn id_of(number: u64) -> String {
    format!("p{number}")
}

fn pose_for(shape: Option<&Shape>, center: PointMm, angle: Option<f64>) -> SmoothedPose {
    let reach = shape.map_or(0.0, Shape::bounding_radius_mm);
    SmoothedPose::new(center, angle, Symmetry::of(shape), reach)
}

/// Vision's own footprint carried to the smoothed pose: for pieces the catalog cannot outline.
fn moved_footprint(last: &PieceReport, center: PointMm, angle: Option<f64>) -> PolygonMm {
    let turn = match (angle, last.angle_deg) {
        (Some(a), Some(b)) => a - b.to_radians(),
        _ => 0.0,
    };
    PolygonMm::new(
        last.footprint_mm
            .points()
            .iter()
            .map(|&p| (p - last.center_mm).rotated(turn) + center)
            .collect(),
    )
}

/// Refuses an observation the tracker cannot use (see [`TrackingError`]).
fn validate(obs: &FrameObservation, last_seq: Option<u64>) -> Result<(), TrackingError> {
    let seq = obs.seq;
    if let Some(last) = last_seq
        && seq <= last
    {
        return Err(TrackingError::OutOfOrder { seq, last });
    }
    let mut ids: HashMap<&str, usize> = HashMap::new();
    for (index, p) in obs.pieces.iter().enumerate() {
        if let Some(&first) = ids.get(p.id.as_str()) {
            return Err(TrackingError::DuplicateId {
                seq,
                index,
                first,
                id: p.id.clone(),
            });
        }
        ids.insert(&p.id, index);
        let non_finite = |field| TrackingError::NonFinite {
            seq,
            index,
            id: p.id.clone(),
            field,
        };
        if !p.center_mm.is_finite() {
            return Err(non_finite("center_mm"));
        }
        if !p.footprint_mm.is_finite() {
            return Err(non_finite("footprint_mm"));
        }
        if p.angle_deg.is_some_and(|a| !a.is_finite()) {
            return Err(non_finite("angle_deg"));
        }
        if !(0.0..=1.0).contains(&p.confidence) {
            return Err(TrackingError::BadConfidence {
                seq,
                index,
                id: p.id.clone(),
                value: p.confidence,
            });
        }
    }
    for (index, p) in obs.pieces.iter().enumerate() {
        let Some(ship) = &p.loaded_on else { continue };
        let is_ship = ids
            .get(ship.as_str())
            .and_then(|&i| obs.pieces.get(i))
            .is_some_and(|s| matches!(s.piece, PieceKind::Ship | PieceKind::PirateShip));
        if !is_ship {
            return Err(TrackingError::UnknownShip {
                seq,
                index,
                id: p.id.clone(),
                ship: ship.clone(),
            });
        }
    }
    Ok(())
}
