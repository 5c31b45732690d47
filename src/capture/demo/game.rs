//! The demo's game: the script played against the scene, once, into the sequence of table states
//! the demo shows (and loops over).
//!
//! Each step's event goes through the rules engine (an event the rules refuse is an error naming
//! the step), and each change of the table is placed with `table.rs`'s rules. The table and the
//! game are checked against each other after every step: what stands on each ship is exactly
//! what the engine says that player has loaded; a flicked treasure is one the referee, reading the
//! table as it was at the start of the turn, allowed the player to flick; a loaded treasure is of
//! the type the event names; a die that hit a ship lies against it; a black top moved a tentacle,
//! a red one a head. The script must play the game to its end. So the demo never shows a table
//! the referee would rule differently from the game it claims to be.
//!
//! A step gives up to two table states: the player acting, with a hand over the ocean (the new
//! layout, the hand where the change happened), then the table still.

use super::script::{Change, SCRIPT_FILE, SCRIPT_VERSION, Script, ScriptStep, Selector, Target};
use super::table::{ADJACENT_GAP_MM, MIN_GAP_MM, Table};
use super::{
    ACT_S, DEMO_JPEG_QUALITY, DROP_ACT_S, DROP_HAND_HEIGHT_MM, DROP_STILL_S, DemoError, DemoPhase,
    HAND_HEIGHT_MM, MAX_STILL_S, STILL_S,
};
use crate::games::crash_octopus::{self as rules, Event, Game, PlayerColor, Record, RulesData, TreasureType};
use crate::referee::{DEFAULT_TOLERANCE_MM, FrameReport, GameContext, Rulings};
use crate::synth::{
    Faults, Frame, FrameTruth, Hand, Layout, NearTie, PlacedPiece, RenderOptions, Scene, frame_truth,
    layout_reports, render_frame,
};
use crate::table::{CounterReport, DieTop, OceanReport, PieceKind, PointMm, PointMm3, PolygonMm};
use opencv::core::Mat;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::sync::Arc;

/// Which of the renderer's small random bead gaps the demo's Octo-Counter uses (the same in every
/// state: beads do not move unless touched).
pub(super) const COUNTER_VARIANT: u64 = 0;
/// Mixed into the scene seed for the set-up's treasure drop.
const SETUP_SALT: u64 = 0x00DE_3050_5E70;
/// In a tie, every other treasure lies at least this much farther from the ship than the
/// runner-up, mm: the two tied treasures are then the only ones too close to call.
pub const TIE_CLEARANCE_MM: f64 = 6.0;
/// The closer treasure of a tie is at least this far from the ship, mm.
pub const MIN_TIE_GAP_MM: f64 = 2.0;
/// An ink die this close to a ship has hit it, mm.
pub const HIT_GAP_MM: f64 = 3.0;
/// Skin tones of the players' hands, sRGB, in the ship colours' order (orange, green, blue,
/// purple, pink).
const SKIN_TONES: [[u8; 3]; 5] = [
    [0xE0, 0xA8, 0x7E],
    [0x8D, 0x5B, 0x3C],
    [0xF1, 0xC2, 0x9F],
    [0xC6, 0x8B, 0x62],
    [0x5C, 0x3A, 0x26],
];
/// Points of the hand checked for covering the ocean: distance back from the fingertip along the
/// arm and height above the fingertip, mm (fingertip, palm, wrist; as the renderer builds it).
const HAND_PROBES_MM: [(f64, f64); 3] = [(0.0, 0.0), (85.0, 8.0), (130.0, 18.0)];

/// One step of the game as resolved.
#[derive(Debug, Clone)]
pub struct DemoStep {
    pub index: usize,
    pub caption: Arc<str>,
    pub event: Option<Event>,
    /// Who acted: the event's player, or the step's `by`.
    pub actor: Option<PlayerColor>,
    /// The game's record up to and including this step's event.
    pub record: Arc<Record>,
    /// The game is over after this step.
    pub game_over: bool,
    /// The table once it is still again after this step.
    pub layout: Arc<Layout>,
}

/// One distinct picture of the table (the demo shows each for a while, with fresh noise).
#[derive(Debug, Clone)]
pub struct DemoState {
    /// Index in [`DemoGame::states`]; the renderer's cache key.
    pub index: usize,
    pub step: usize,
    pub phase: DemoPhase,
    pub layout: Arc<Layout>,
    /// The hand over the ocean while the player acts.
    pub hand: Option<Hand>,
    /// How long the state is shown at normal speed, s.
    pub duration_s: f64,
    /// The renderer's ground truth for this picture, in `analyze`'s vocabulary (`obstructed` is
    /// true while the hand covers part of the ocean).
    pub truth: Arc<FrameTruth>,
}

/// The script resolved into table states: what the demo source renders and loops over.
#[derive(Debug)]
pub struct DemoGame {
    scene: Scene,
    steps: Vec<DemoStep>,
    states: Vec<DemoState>,
}

impl DemoGame {
    /// The shipped demo (`assets/demo/game.json`, compiled in).
    pub fn load() -> Result<DemoGame, DemoError> {
        Self::from_json(super::DEMO_SCRIPT_JSON, SCRIPT_FILE)
    }

    /// A demo from script text; `origin` names it in errors.
    pub fn from_json(text: &str, origin: &str) -> Result<DemoGame, DemoError> {
        let script: Script = crate::fsutil::parse_json(text.as_bytes(), Path::new(origin))?;
        Self::from_script(&script, origin)
    }

    /// Plays `script` once, checking it against the rules and the referee (see the module docs).
    pub fn from_script(script: &Script, origin: &str) -> Result<DemoGame, DemoError> {
        let invalid = |field: &str, message: String| DemoError::Invalid {
            origin: origin.to_string(),
            field: field.to_string(),
            message,
        };
        if script.version != SCRIPT_VERSION {
            return Err(invalid(
                "version",
                format!("expected {SCRIPT_VERSION}, got {}", script.version),
            ));
        }
        if script.steps.is_empty() {
            return Err(invalid("steps", "expected at least one step".into()));
        }
        let scene = Scene::generate(&script.scene)?;
        let table = Table::new(&scene)?;
        let header = Record {
            players: script.scene.player_colours(),
            modules: rules::Modules {
                pink_pirate: script.scene.modules.pink_pirate,
                little_octopus: script.scene.modules.little_octopus,
                island: script.scene.modules.island,
            },
            beads: Some(scene.beads.clone()),
            types: None,
            events: Vec::new(),
        };
        let data = RulesData::builtin().map_err(|e| invalid("scene", e.to_string()))?;
        let setup = header.setup(&data).map_err(|e| invalid("scene", e.to_string()))?;
        let mut game = Game::new(setup).map_err(|e| invalid("scene", e.to_string()))?;
        let mut record = header;
        let layout = set_up(&table).map_err(|message| DemoError::Step {
            origin: origin.to_string(),
            step: 0,
            caption: "set-up".into(),
            message,
        })?;
        let mut resolver = Resolver { table, layout };
        let mut steps = Vec::with_capacity(script.steps.len());
        let mut states = Vec::with_capacity(2 * script.steps.len());
        for (k, step) in script.steps.iter().enumerate() {
            let fail = |message: String| DemoError::Step {
                origin: origin.to_string(),
                step: k,
                caption: step.caption.clone(),
                message,
            };
            if game.is_over() {
                return Err(fail("the game is already over: end the script here".into()));
            }
            let (resolved, new_states) = resolver
                .step(k, step, &mut game, &mut record, states.len())
                .map_err(fail)?;
            steps.push(resolved);
            states.extend(new_states);
        }
        if !game.is_over() {
            let k = script.steps.len() - 1;
            return Err(DemoError::Step {
                origin: origin.to_string(),
                step: k,
                caption: script.steps[k].caption.clone(),
                message: "the game is not over after the last step: play it to its end".into(),
            });
        }
        drop(resolver);
        Ok(DemoGame { scene, steps, states })
    }

    pub fn scene(&self) -> &Scene {
        &self.scene
    }

    pub fn steps(&self) -> &[DemoStep] {
        &self.steps
    }

    pub fn states(&self) -> &[DemoState] {
        &self.states
    }

    /// The whole game's record (every event of the script).
    pub fn record(&self) -> Option<&Record> {
        self.steps.last().map(|s| s.record.as_ref())
    }

    /// Renders state `index` without sensor noise (the source adds fresh noise to every frame).
    pub fn render(&self, index: usize) -> Result<Mat, DemoError> {
        let state = self.states.get(index).ok_or_else(|| DemoError::Invalid {
            origin: SCRIPT_FILE.into(),
            field: "states".into(),
            message: format!("no state {index} (the demo has {})", self.states.len()),
        })?;
        let options = RenderOptions {
            hand: state.hand.clone(),
            ..RenderOptions::default()
        };
        Ok(render_frame(&self.scene, &state.layout, &options)?)
    }
}

/// The set-up: the renderer's own set-up of the scene (octopus, tentacles, ships and anchors),
/// with every treasure dropped into the ocean (none loaded yet), the ink die outside the ocean and
/// the crab before the first bead.
fn set_up(table: &Table<'_>) -> Result<Layout, String> {
    let scene = table.scene;
    let mut layout = scene.layout(0).map_err(|e| e.to_string())?;
    layout.near_ties.clear();
    let mut rng = ChaCha8Rng::seed_from_u64(scene.spec.seed ^ SETUP_SALT);
    let ocean = table.ocean();
    for i in 0..layout.pieces.len() {
        let p = &layout.pieces[i];
        if p.kind != PieceKind::Treasure {
            continue;
        }
        let fp = table.footprint(p);
        let placed_well = p.loaded_on.is_none()
            && !p.on_island
            && ocean.contains(p.center_mm)
            && !fp.intersects_outline(ocean)
            && table.fits(&layout, i, p, super::table::Spot::Ocean);
        if !placed_well {
            let cand = table
                .scatter(&layout, i, &mut rng)
                .ok_or_else(|| format!("no room in the ocean for treasure {}", p.id))?;
            layout.pieces[i] = cand;
        }
    }
    for i in 0..layout.pieces.len() {
        let p = &layout.pieces[i];
        if p.kind == PieceKind::InkDie && ocean.contains(p.center_mm) {
            let cand = table
                .outside(&layout, i, p.center_mm)
                .ok_or("no room outside the ocean for the ink die")?;
            layout.pieces[i] = cand;
        }
    }
    set_counter(scene, &mut layout, 0).map_err(|e| e.to_string())?;
    Ok(layout)
}

/// Lays the Octo-Counter with the crab after `crab` beads.
fn set_counter(scene: &Scene, layout: &mut Layout, crab: usize) -> Result<(), crate::synth::SynthError> {
    let counter = scene.counter(crab, COUNTER_VARIANT)?;
    for p in layout.pieces.iter_mut().filter(|p| p.kind == PieceKind::Crab) {
        p.center_mm = counter.crab_center_mm;
        p.angle_rad = counter.crab_angle_rad;
    }
    layout.counter = counter;
    Ok(())
}

/// The table while the script is played.
struct Resolver<'a> {
    table: Table<'a>,
    layout: Layout,
}

/// What one step has done so far.
struct StepWork<'r> {
    actor: Option<PlayerColor>,
    /// The referee's rulings on the table at the start of the step, for the actor.
    rulings: &'r Rulings,
    /// The layout at the start of the step.
    before: &'r Layout,
    /// Where the hand reaches.
    focus: Option<PointMm>,
    /// The treasure lying in the ocean that the step moved first: the flicked one.
    flicked: Option<usize>,
    /// Pieces moved by the step.
    moved: Vec<usize>,
}

impl Resolver<'_> {
    fn scene(&self) -> &Scene {
        self.table.scene
    }

    /// Plays one step: its changes, its event, the crab; then checks table against game.
    fn step(
        &mut self,
        k: usize,
        step: &ScriptStep,
        game: &mut Game,
        record: &mut Record,
        first_state: usize,
    ) -> Result<(DemoStep, Vec<DemoState>), String> {
        let actor = step.event.as_ref().map(Event::player).or(step.by);
        if let Some(e) = &step.event
            && let Some(by) = step.by
            && by != e.player()
        {
            return Err(format!("`by` is {by} but the event is {}'s", e.player()));
        }
        let before = self.layout.clone();
        let rulings = rulings_of(&self.table, &before, game, actor)?;
        let mut work = StepWork {
            actor,
            rulings: &rulings,
            before: &before,
            focus: None,
            flicked: None,
            moved: Vec::new(),
        };
        for (c, change) in step.table.iter().enumerate() {
            self.apply(change, &mut work)
                .map_err(|e| format!("table[{c}]: {e}"))?;
        }
        if let Some(event) = &step.event {
            self.check_event(event, &work)
                .map_err(|e| format!("event ({}): {e}", event.kind()))?;
            game.apply(event)
                .map_err(|e| format!("event ({} by {}): {e}", event.kind(), event.player()))?;
            record.events.push(event.clone());
        }
        set_counter(self.table.scene, &mut self.layout, game.counter().crab()).map_err(|e| e.to_string())?;
        self.check_decks(game)?;
        let moved_ids: BTreeSet<String> = work
            .moved
            .iter()
            .map(|&i| self.layout.pieces[i].id.clone())
            .collect();
        self.layout.near_ties.retain(|t| {
            !moved_ids.contains(&t.ship)
                && !moved_ids.contains(&t.closest)
                && !moved_ids.contains(&t.runner_up)
        });

        let dropping = matches!(step.event, Some(Event::Drop(_)));
        let focus = match &step.hand_over {
            Some(sel) => Some(self.layout.pieces[self.select(sel, &work)?].center_mm),
            None if dropping => Some(self.layout.pieces[self.select(&Selector::Head, &work)?].center_mm),
            None => work.focus,
        };
        let still_s = step
            .still_s
            .unwrap_or(if dropping { DROP_STILL_S } else { STILL_S });
        if !(still_s.is_finite() && still_s > 0.0 && still_s <= MAX_STILL_S) {
            return Err(format!(
                "still_s: expected a time between 0 and {MAX_STILL_S} s, got {still_s}"
            ));
        }

        let layout = Arc::new(self.layout.clone());
        let mut states = Vec::with_capacity(2);
        if step.hand {
            let focus = focus
                .ok_or("no hand position: the step changes nothing; give `hand_over` or `hand: false`")?;
            let hand = self.hand(focus, actor, dropping);
            let obstructed = self.covers_ocean(&hand);
            let index = first_state + states.len();
            states.push(DemoState {
                index,
                step: k,
                phase: DemoPhase::Acting,
                layout: Arc::clone(&layout),
                truth: Arc::new(self.truth(index, &layout, Some(&hand), obstructed)?),
                hand: Some(hand),
                duration_s: if dropping { DROP_ACT_S } else { ACT_S },
            });
        }
        let index = first_state + states.len();
        states.push(DemoState {
            index,
            step: k,
            phase: DemoPhase::Still,
            layout: Arc::clone(&layout),
            truth: Arc::new(self.truth(index, &layout, None, false)?),
            hand: None,
            duration_s: still_s,
        });
        let resolved = DemoStep {
            index: k,
            caption: Arc::from(step.caption.as_str()),
            event: step.event.clone(),
            actor,
            record: Arc::new(record.clone()),
            game_over: game.is_over(),
            layout,
        };
        Ok((resolved, states))
    }

    /// The piece a selector names, as an index into the layout.
    fn select(&self, sel: &Selector, work: &StepWork<'_>) -> Result<usize, String> {
        let l = &self.layout;
        let ocean = self.table.ocean();
        let one = |found: Vec<usize>, what: &str| -> Result<usize, String> {
            match found.as_slice() {
                [i] => Ok(*i),
                [] => Err(format!("{sel}: no {what} on the table")),
                many => Err(format!(
                    "{sel}: {} pieces match ({})",
                    many.len(),
                    many.iter()
                        .map(|&i| l.pieces[i].id.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                )),
            }
        };
        let find = |pred: &dyn Fn(&PlacedPiece) -> bool| -> Vec<usize> {
            (0..l.pieces.len()).filter(|&i| pred(&l.pieces[i])).collect()
        };
        match sel {
            Selector::Id(id) => one(find(&|p| p.id == *id), "piece with this id"),
            Selector::Head => one(find(&|p| p.kind == PieceKind::OctopusHead), "octopus head"),
            Selector::Die => one(find(&|p| p.kind == PieceKind::InkDie), "ink die"),
            Selector::OutOfOcean => one(
                find(&|p| {
                    p.kind == PieceKind::Treasure
                        && p.loaded_on.is_none()
                        && !p.on_island
                        && !ocean.contains(p.center_mm)
                }),
                "treasure outside the ocean",
            ),
            Selector::Ship(c) => one(
                find(&|p| p.kind == PieceKind::Ship && p.color == Some(*c)),
                "ship of that colour",
            ),
            Selector::Anchor(c) => one(
                find(&|p| p.kind == PieceKind::Anchor && p.color == Some(*c)),
                "anchor of that colour",
            ),
            Selector::Loaded(c, t) => {
                let s = self.select(&Selector::Ship(*c), work)?;
                let ship_id = l.pieces[s].id.as_str();
                one(
                    find(&|p| p.treasure == Some(*t) && p.loaded_on.as_deref() == Some(ship_id)),
                    "treasure of that type on that ship",
                )
            }
            Selector::Flickable(t) => {
                let actor = work
                    .actor
                    .ok_or_else(|| format!("{sel}: needs an acting player (an event or `by`)"))?;
                let pr = work
                    .rulings
                    .players
                    .get(&actor)
                    .ok_or_else(|| format!("{sel}: the referee has no rulings for {actor}"))?;
                let allowed = |id: &str| {
                    pr.flickable.iter().any(|f| f == id)
                        || (pr.too_close_to_call && pr.closest_candidates.iter().any(|c| c == id))
                };
                let id = pr
                    .gaps_mm
                    .iter()
                    .find(|g| g.treasure == Some(*t) && allowed(&g.id))
                    .map(|g| g.id.clone())
                    .ok_or_else(|| {
                        format!(
                            "{sel}: {actor} may flick no {t} now (flickable: {}; forbidden: {})",
                            pr.flickable.join(", "),
                            pr.forbidden
                                .iter()
                                .map(|f| format!("{} ({})", f.id, f.reason.as_str()))
                                .collect::<Vec<_>>()
                                .join(", ")
                        )
                    })?;
                let i = one(find(&|p| p.id == id), "treasure")?;
                if !self.is_candidate(i) {
                    return Err(format!("{sel}: {id} has already been moved in this step"));
                }
                Ok(i)
            }
            Selector::Nearest(kind, to) => {
                let j = self.select(to, work)?;
                let fj = self.table.footprint(&l.pieces[j]);
                (0..l.pieces.len())
                    .filter(|&i| {
                        i != j
                            && l.pieces[i].kind == *kind
                            && (*kind != PieceKind::Treasure || self.is_candidate(i))
                    })
                    .map(|i| (i, self.table.footprint(&l.pieces[i]).gap(&fj)))
                    .min_by(|a, b| a.1.total_cmp(&b.1))
                    .map(|(i, _)| i)
                    .ok_or_else(|| format!("{sel}: no {kind} on the table"))
            }
        }
    }

    /// A treasure that counts for the closest-treasure rule: on the table, in the ocean.
    fn is_candidate(&self, i: usize) -> bool {
        self.layout.pieces.get(i).is_some_and(|p| {
            p.kind == PieceKind::Treasure
                && p.loaded_on.is_none()
                && !p.on_island
                && self.table.ocean().contains(p.center_mm)
        })
    }

    fn was_candidate(&self, i: usize, before: &Layout) -> bool {
        before.pieces.get(i).is_some_and(|p| {
            p.kind == PieceKind::Treasure
                && p.loaded_on.is_none()
                && !p.on_island
                && self.table.ocean().contains(p.center_mm)
        })
    }

    /// Puts piece `i` as `cand`, noting what moved.
    fn put(&mut self, i: usize, cand: PlacedPiece, work: &mut StepWork<'_>) {
        if work.flicked.is_none() && self.was_candidate(i, work.before) && !work.moved.contains(&i) {
            work.flicked = Some(i);
        }
        self.layout.pieces[i] = cand;
        if !work.moved.contains(&i) {
            work.moved.push(i);
        }
    }

    /// Where the hand reaches for a piece that moved from `old` to `new`: the new spot when it is
    /// in the ocean, else where the piece left from.
    fn focus_of(&self, old: PointMm, new: PointMm) -> PointMm {
        if self.table.ocean().contains(new) {
            new
        } else {
            old
        }
    }

    fn apply(&mut self, change: &Change, work: &mut StepWork<'_>) -> Result<(), String> {
        match change {
            Change::Load(c) => {
                let i = self.select(&c.treasure, work)?;
                let p = &self.layout.pieces[i];
                if p.kind != PieceKind::Treasure {
                    return Err(format!("{}: {} is not a treasure", c.treasure, p.id));
                }
                let s = self.select(&Selector::Ship(c.ship), work)?;
                let cand = self.table.on_deck(&self.layout, i, s).ok_or_else(|| {
                    format!(
                        "no room on {}'s deck for {} ({})",
                        c.ship,
                        p.id,
                        p.treasure.map_or("?", TreasureType::as_str)
                    )
                })?;
                work.focus = Some(self.layout.pieces[s].center_mm);
                self.put(i, cand, work);
            }
            Change::Move(m) => {
                let i = self.select(&m.piece, work)?;
                let old = self.layout.pieces[i].center_mm;
                let cand = self.place(i, &m.to, work)?;
                work.focus = Some(self.focus_of(old, cand.center_mm));
                self.put(i, cand, work);
            }
            Change::Die(d) => {
                let i = self.select(&Selector::Die, work)?;
                let old = self.layout.pieces[i].center_mm;
                if let Some(top) = d.top {
                    self.layout.pieces[i].top = Some(top);
                }
                let cand = self.place(i, &d.to, work)?;
                work.focus = Some(self.focus_of(old, cand.center_mm));
                self.put(i, cand, work);
            }
            Change::Navigate(n) => {
                let a = self.select(&Selector::Anchor(n.player), work)?;
                let s = self.select(&Selector::Ship(n.player), work)?;
                let (old_anchor, old_ship) =
                    (self.layout.pieces[a].center_mm, self.layout.pieces[s].center_mm);
                let anchor = self.place(a, &n.anchor, work)?;
                self.put(a, anchor, work);
                let fa = self.table.footprint(&self.layout.pieces[a]);
                let new_anchor = self.layout.pieces[a].center_mm;
                let side = old_ship - old_anchor;
                let ship = self
                    .table
                    .near(
                        &self.layout,
                        s,
                        &fa,
                        new_anchor,
                        ADJACENT_GAP_MM,
                        side.y.atan2(side.x),
                    )
                    .ok_or_else(|| format!("no room for {}'s ship next to its anchor", n.player))?;
                let delta = ship.center_mm - old_ship;
                let ship_id = ship.id.clone();
                work.focus = Some(ship.center_mm);
                self.put(s, ship, work);
                for i in 0..self.layout.pieces.len() {
                    if self.layout.pieces[i].loaded_on.as_deref() == Some(ship_id.as_str()) {
                        let mut cargo = self.layout.pieces[i].clone();
                        cargo.center_mm = cargo.center_mm + delta;
                        self.put(i, cargo, work);
                    }
                }
            }
            Change::Tie(t) => self.tie(t, work)?,
        }
        Ok(())
    }

    /// Puts `t.piece` `t.margin_mm` closer to the ship than `t.with`.
    fn tie(&mut self, t: &super::script::Tie, work: &mut StepWork<'_>) -> Result<(), String> {
        if !(t.margin_mm > 0.0 && t.margin_mm < DEFAULT_TOLERANCE_MM) {
            return Err(format!(
                "margin_mm: expected more than 0 and less than the {DEFAULT_TOLERANCE_MM} mm tolerance, got {}",
                t.margin_mm
            ));
        }
        let s = self.select(&Selector::Ship(t.ship), work)?;
        let w = self.select(&t.with, work)?;
        let p = self.select(&t.piece, work)?;
        if p == w {
            return Err(format!("{} and {} are the same piece", t.piece, t.with));
        }
        if !self.is_candidate(w) || self.layout.pieces[p].kind != PieceKind::Treasure {
            return Err(format!(
                "{} and {} must be treasures, {} lying in the ocean",
                t.piece, t.with, t.with
            ));
        }
        let ship = self.layout.pieces[s].clone();
        let ship_fp = self.table.footprint(&ship);
        let with_gap = ship_fp.gap(&self.table.footprint(&self.layout.pieces[w]));
        let gap = with_gap - t.margin_mm;
        if gap < MIN_TIE_GAP_MM {
            return Err(format!(
                "{} lies only {with_gap:.1} mm from {}'s ship: no room for a closer treasure",
                self.layout.pieces[w].id, t.ship
            ));
        }
        let old = self.layout.pieces[p].center_mm;
        let towards = self.table.ocean().centroid() - ship.center_mm;
        let cand = self
            .table
            .near(
                &self.layout,
                p,
                &ship_fp,
                ship.center_mm,
                gap,
                towards.y.atan2(towards.x),
            )
            .ok_or_else(|| format!("no room for {} at {gap:.1} mm from {}'s ship", t.piece, t.ship))?;
        work.focus = Some(self.focus_of(old, cand.center_mm));
        self.put(p, cand, work);
        let closest_gap = ship_fp.gap(&self.table.footprint(&self.layout.pieces[p]));
        for i in 0..self.layout.pieces.len() {
            if i == p || i == w || !self.is_candidate(i) {
                continue;
            }
            let g = ship_fp.gap(&self.table.footprint(&self.layout.pieces[i]));
            if g <= with_gap + TIE_CLEARANCE_MM {
                return Err(format!(
                    "{} lies {g:.1} mm from {}'s ship, within {TIE_CLEARANCE_MM} mm of the tie ({with_gap:.1} mm): \
                     tie with another treasure",
                    self.layout.pieces[i].id, t.ship
                ));
            }
        }
        self.layout.near_ties.push(NearTie {
            ship: ship.id.clone(),
            closest: self.layout.pieces[p].id.clone(),
            runner_up: self.layout.pieces[w].id.clone(),
            closest_gap_mm: closest_gap,
            runner_up_gap_mm: with_gap,
            margin_mm: with_gap - closest_gap,
        });
        Ok(())
    }

    /// Where piece `i` comes to rest for `target`.
    fn place(&self, i: usize, target: &Target, work: &StepWork<'_>) -> Result<PlacedPiece, String> {
        let id = &self.layout.pieces[i].id;
        match target {
            Target::Near {
                of,
                gap_mm,
                bearing_deg,
            } => {
                if !(gap_mm.is_finite() && *gap_mm >= MIN_GAP_MM) {
                    return Err(format!("gap_mm: expected at least {MIN_GAP_MM} mm, got {gap_mm}"));
                }
                let j = self.select(of, work)?;
                let fj = self.table.footprint(&self.layout.pieces[j]);
                let cj = self.layout.pieces[j].center_mm;
                let bearing = match bearing_deg {
                    Some(b) => b.to_radians(),
                    None => {
                        let d = self.table.ocean().centroid() - cj;
                        if d.norm() < 1.0 { 0.0 } else { d.y.atan2(d.x) }
                    }
                };
                self.table
                    .near(&self.layout, i, &fj, cj, *gap_mm, bearing)
                    .ok_or_else(|| format!("no room for {id} at {gap_mm} mm from {of}"))
            }
            Target::Outside { near } => {
                let j = self.select(near, work)?;
                self.table
                    .outside(&self.layout, i, self.layout.pieces[j].center_mm)
                    .ok_or_else(|| format!("no room for {id} outside the string near {near}"))
            }
        }
    }

    /// Checks that the table shows the event (see the module docs).
    fn check_event(&self, event: &Event, work: &StepWork<'_>) -> Result<(), String> {
        match event {
            Event::Flick(f) => {
                let i = work
                    .flicked
                    .ok_or("a flick moves a treasure lying in the ocean, and no change does")?;
                let before = &work.before.pieces[i];
                let pr = work
                    .rulings
                    .players
                    .get(&f.player)
                    .ok_or_else(|| format!("the referee has no rulings for {}", f.player))?;
                let allowed = pr.flickable.contains(&before.id)
                    || (pr.too_close_to_call && pr.closest_candidates.contains(&before.id));
                if !allowed {
                    let why = pr
                        .forbidden
                        .iter()
                        .find(|x| x.id == before.id)
                        .map_or("not a candidate", |x| x.reason.as_str());
                    return Err(format!("{} may not flick {} ({why})", f.player, before.id));
                }
                let now = &self.layout.pieces[i];
                let ship = self.select(&Selector::Ship(f.player), work)?;
                let on_own_ship = now.loaded_on.as_deref() == Some(self.layout.pieces[ship].id.as_str());
                match f.loaded {
                    Some(t) if before.treasure != Some(t) || !on_own_ship => Err(format!(
                        "the event loads a {t}, but the flicked treasure {} ({}) {}",
                        before.id,
                        before.treasure.map_or("?", TreasureType::as_str),
                        if on_own_ship {
                            "is of another type"
                        } else {
                            "does not end on the player's ship"
                        }
                    )),
                    None if now.loaded_on.is_some() => Err(format!(
                        "the event is a miss, but the flicked treasure {} ends on a ship",
                        before.id
                    )),
                    _ => Ok(()),
                }
            }
            Event::Drop(d) => {
                let die = self.select(&Selector::Die, work)?;
                let die_piece = &self.layout.pieces[die];
                if let Some(c) = d.hit_ship {
                    let s = self.select(&Selector::Ship(c), work)?;
                    let g = self.table.gap(die_piece, &self.layout.pieces[s]);
                    if g > HIT_GAP_MM {
                        return Err(format!(
                            "the die hit {c}'s ship, but it lies {g:.1} mm from it (at most {HIT_GAP_MM} mm)"
                        ));
                    }
                    return Ok(());
                }
                let moved = |kind: PieceKind| work.moved.iter().any(|&i| self.layout.pieces[i].kind == kind);
                let in_ocean = self.table.ocean().contains(die_piece.center_mm);
                match (d.top, in_ocean) {
                    (Some(top), true) => {
                        if die_piece.top != Some(top) {
                            return Err(format!(
                                "the event's top is {top:?} but the die shows {:?}",
                                die_piece.top
                            ));
                        }
                        let (kind, name) = match top {
                            DieTop::Black => (PieceKind::Tentacle, "a tentacle"),
                            DieTop::Red => (PieceKind::OctopusHead, "the head"),
                        };
                        if moved(kind) {
                            Ok(())
                        } else {
                            Err(format!(
                                "a {top:?} top moves {name} next to the die, and no change does"
                            ))
                        }
                    }
                    (Some(_), false) => {
                        Err("the die rolled out of the ocean: leave out the event's top".into())
                    }
                    (None, _) if moved(PieceKind::Tentacle) || moved(PieceKind::OctopusHead) => {
                        Err("no top, no move: a tentacle or the head moved anyway".into())
                    }
                    (None, _) => Ok(()),
                }
            }
            Event::Navigate(n) => {
                let a = self.select(&Selector::Anchor(n.player), work)?;
                let s = self.select(&Selector::Ship(n.player), work)?;
                let both = work.moved.contains(&a) && work.moved.contains(&s);
                if n.failed || both {
                    Ok(())
                } else {
                    Err("a navigation moves the anchor and the ship: add a navigate change".into())
                }
            }
            Event::Canon(_) => Err("the demo has no Pink Pirate".into()),
        }
    }

    /// What stands on each ship must be what the game says the player has loaded.
    fn check_decks(&self, game: &Game) -> Result<(), String> {
        for ship in game.ships() {
            let Some(piece) = self
                .layout
                .pieces
                .iter()
                .find(|p| p.kind == PieceKind::Ship && p.color == Some(ship.owner))
            else {
                return Err(format!("{} has no ship on the table", ship.owner));
            };
            let on_table: BTreeSet<TreasureType> = self
                .layout
                .pieces
                .iter()
                .filter(|p| p.loaded_on.as_deref() == Some(piece.id.as_str()))
                .filter_map(|p| p.treasure)
                .collect();
            let held = self
                .layout
                .pieces
                .iter()
                .filter(|p| p.loaded_on.as_deref() == Some(piece.id.as_str()))
                .count();
            if &on_table != ship.loaded() || held != on_table.len() {
                let names =
                    |s: &BTreeSet<TreasureType>| s.iter().map(|t| t.as_str()).collect::<Vec<_>>().join(", ");
                return Err(format!(
                    "{}'s ship carries [{}] on the table ({held} pieces) but [{}] in the game",
                    ship.owner,
                    names(&on_table),
                    names(ship.loaded())
                ));
            }
        }
        Ok(())
    }

    /// A hand reaching over `focus` from the actor's side of the table.
    fn hand(&self, focus: PointMm, actor: Option<PlayerColor>, dropping: bool) -> Hand {
        let centre = self.table.ocean().centroid();
        let side = actor
            .and_then(|c| {
                self.layout
                    .pieces
                    .iter()
                    .find(|p| p.kind == PieceKind::Ship && p.color == Some(c))
            })
            .map_or(focus, |s| s.center_mm);
        let mut from = side - centre;
        if from.norm() < 1.0 {
            from = focus - centre;
        }
        let tone = actor
            .and_then(|c| PlayerColor::ALL.iter().position(|&x| x == c))
            .unwrap_or(0)
            % SKIN_TONES.len();
        Hand {
            fingertip_mm: focus,
            height_mm: if dropping {
                DROP_HAND_HEIGHT_MM
            } else {
                HAND_HEIGHT_MM
            },
            from_angle_rad: if from.norm() < 1.0 {
                0.0
            } else {
                from.y.atan2(from.x)
            },
            skin_srgb: SKIN_TONES[tone],
        }
    }

    /// Whether the camera sees the hand inside the ocean's outline.
    fn covers_ocean(&self, hand: &Hand) -> bool {
        let camera = &self.scene().camera;
        let ocean_px = PolygonMm(
            self.table
                .ocean()
                .points()
                .iter()
                .filter_map(|p| camera.project_table(*p))
                .map(|p| PointMm::new(p.x, p.y))
                .collect(),
        );
        let (w, h) = (camera.intrinsics.width as f64, camera.intrinsics.height as f64);
        let back = PointMm::new(hand.from_angle_rad.cos(), hand.from_angle_rad.sin());
        HAND_PROBES_MM.iter().any(|&(d, up)| {
            let p = PointMm3::above(hand.fingertip_mm + back * d, hand.height_mm + up);
            camera.project(p).is_some_and(|px| {
                px.x >= 0.0
                    && px.y >= 0.0
                    && px.x < w
                    && px.y < h
                    && ocean_px.contains(PointMm::new(px.x, px.y))
            })
        })
    }

    fn truth(
        &self,
        index: usize,
        layout: &Layout,
        hand: Option<&Hand>,
        obstructed: bool,
    ) -> Result<FrameTruth, String> {
        let frame = Frame {
            index,
            layout: Layout {
                frame: index,
                ..layout.clone()
            },
            options: RenderOptions {
                hand: hand.cloned(),
                ..RenderOptions::default()
            },
            jpeg_quality: DEMO_JPEG_QUALITY,
            faults: Faults {
                hand: hand.is_some(),
                ..Faults::none()
            },
            pushed_out: Vec::new(),
            obstructed,
            view_moved: false,
        };
        frame_truth(self.scene(), &frame, &format!("demo_state_{index:03}.jpg")).map_err(|e| e.to_string())
    }
}

/// The referee's rulings on `layout` for the game as it stands, with `active` to play.
fn rulings_of(
    table: &Table<'_>,
    layout: &Layout,
    game: &Game,
    active: Option<PlayerColor>,
) -> Result<Rulings, String> {
    let scene = table.scene;
    let mut report = FrameReport {
        image: String::new(),
        ocean: OceanReport::new(scene.ocean().clone()),
        pieces: layout_reports(scene, layout),
        counter: Some(CounterReport::new(scene.beads.clone(), layout.counter.crab)),
        obstructed: false,
        view_moved: false,
        rulings: None,
    };
    let loaded: BTreeMap<PlayerColor, BTreeSet<TreasureType>> = game
        .ships()
        .iter()
        .map(|s| (s.owner, s.loaded().clone()))
        .collect();
    let ctx = GameContext {
        active,
        loaded: Some(loaded),
        ..GameContext::with_players(game.players().to_vec())
    };
    report
        .rule(&ctx)
        .cloned()
        .map_err(|e| format!("the referee refused the table: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::capture::demo::DEMO_SCRIPT_JSON;
    use crate::capture::demo::script::Load;
    use crate::games::crash_octopus::Flick;

    fn script() -> Script {
        serde_json::from_str(DEMO_SCRIPT_JSON).unwrap()
    }

    fn refused(script: &Script) -> String {
        DemoGame::from_script(script, "test.json")
            .unwrap_err()
            .to_string()
    }

    fn load(treasure: Selector, ship: PlayerColor) -> Vec<Change> {
        vec![Change::Load(Load { treasure, ship })]
    }

    #[test]
    fn a_script_must_play_the_game_to_its_end() {
        let mut s = script();
        s.steps.truncate(3);
        let e = refused(&s);
        assert!(e.contains("test.json: steps[2]") && e.contains("not over"), "{e}");
    }

    #[test]
    fn the_table_must_show_what_the_event_says() {
        let mut s = script();
        s.steps[1].table = load(Selector::Flickable(TreasureType::Gem), PlayerColor::Orange);
        let e = refused(&s);
        assert!(e.contains("steps[1]") && e.contains("loads a gold"), "{e}");

        let mut s = script();
        s.steps[1].table = load(Selector::Flickable(TreasureType::Gold), PlayerColor::Green);
        let e = refused(&s);
        assert!(e.contains("does not end on the player's ship"), "{e}");

        let mut s = script();
        s.steps[3].table.clear();
        let e = refused(&s);
        assert!(
            e.contains("steps[3]") && e.contains("a flick moves a treasure"),
            "{e}"
        );
    }

    #[test]
    fn a_flick_the_referee_forbids_is_refused() {
        let demo = DemoGame::load().unwrap();
        let table = Table::new(demo.scene()).unwrap();
        let mut empty = demo.record().unwrap().clone();
        empty.events.clear();
        let game = Game::replay(&empty).unwrap();
        let setup = &demo.steps()[0].layout;
        let r = rulings_of(&table, setup, &game, Some(PlayerColor::Orange)).unwrap();
        let closest = r.players[&PlayerColor::Orange].closest.clone().unwrap();
        let kind = setup.piece(&closest).unwrap().treasure.unwrap();
        let mut s = script();
        s.steps[1].event = Some(Event::Flick(Flick {
            player: PlayerColor::Orange,
            loaded: Some(kind),
            toppled: vec![],
        }));
        s.steps[1].table = load(Selector::Id(closest.clone()), PlayerColor::Orange);
        let e = refused(&s);
        assert!(
            e.contains(&format!("orange may not flick {closest} (closest)")),
            "{e}"
        );
    }

    #[test]
    fn ships_must_carry_what_the_game_says() {
        // Orange's die hits green's ship and the captain topples: leave it on the deck.
        let mut s = script();
        assert!(matches!(&s.steps[8].event, Some(Event::Drop(d)) if d.toppled == [TreasureType::Captain]));
        s.steps[8].table.truncate(1);
        let e = refused(&s);
        assert!(
            e.contains("steps[8]") && e.contains("green's ship carries [captain] on the table"),
            "{e}"
        );

        // The die that hit green's ship must lie against it.
        let mut s = script();
        s.steps[8].table[0] = Change::Die(super::super::script::DieLanding {
            top: Some(DieTop::Black),
            to: Target::Near {
                of: Selector::Head,
                gap_mm: 20.0,
                bearing_deg: None,
            },
        });
        let e = refused(&s);
        assert!(e.contains("the die hit green's ship, but it lies"), "{e}");
    }

    #[test]
    fn bad_script_text_names_the_file_and_field() {
        let text = DEMO_SCRIPT_JSON.replacen("\"treasure:captain\"", "\"treasure:pearl\"", 1);
        let e = DemoGame::from_json(&text, "x.json").unwrap_err().to_string();
        assert!(
            e.contains("x.json") && e.contains("steps[2]") && e.contains("unknown treasure type"),
            "{e}"
        );
        let text = DEMO_SCRIPT_JSON.replacen("\"version\": 1", "\"version\": 9", 1);
        let e = DemoGame::from_json(&text, "x.json").unwrap_err().to_string();
        assert!(e.contains("field `version`: expected 1, got 9"), "{e}");
    }

    #[test]
    fn acting_states_carry_a_hand_that_covers_the_ocean() {
        let demo = DemoGame::load().unwrap();
        for s in demo.states() {
            assert_eq!(s.hand.is_some(), s.phase == DemoPhase::Acting);
            assert_eq!(
                s.truth.obstructed,
                s.phase == DemoPhase::Acting,
                "state {}",
                s.index
            );
            if let Some(h) = &s.hand {
                assert!((40.0..=170.0).contains(&h.height_mm));
            }
        }
        let steps = demo.steps();
        assert_eq!(steps[0].record.events.len(), 0);
        assert!(
            steps
                .windows(2)
                .all(|w| w[1].record.events.len() >= w[0].record.events.len())
        );
    }
}
