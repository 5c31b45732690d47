//! The referee's entry point: one table reading and the game context in, the rulings out.
//!
//! The referee judges in/out of the ocean and on-the-string itself, from the ocean polygon, with
//! the same helpers vision uses (`classify`), so a reading and its rulings always agree. It takes
//! `loaded_on` and `on_island` from the reading: only vision knows the deck height correction.
//! Readings taken while the view is obstructed or moved get no rulings at all, only the reason.

use super::classify::{self, MIN_OCEAN_VERTICES};
use super::closest::{ClosestCall, call_closest};
use super::context::GameContext;
use super::counter;
use super::error::RefereeError;
use super::flick::{FlickRuling, may_flick};
use super::gap::{Footprint, gap_mm, gap_uncertainty_mm};
use super::island;
use super::loaded_types::{SeenLoad, merge_loads};
use super::out_of_ocean::{Placed, out_of_ocean};
use super::question::{LOW_CONFIDENCE, Question};
use super::rulings::{AnchorGap, ForbidReason, PlayerRulings, Rulings, TreasureGap};
use super::words;
use crate::games::crash_octopus::{PlayerColor, TreasureType};
use crate::table::{CounterReport, PieceKind, PieceReport, PolygonMm};
use std::collections::{BTreeMap, HashMap};

/// A call whose runner-up is closer than the tolerance plus this many sigmas of the gaps shows
/// the runner-up and the uncertainty in its message: the call is right, but close.
pub const NEAR_CALL_SIGMAS: f64 = 2.0;

/// Said instead of any ruling when the view is obstructed.
pub const OBSTRUCTED_MESSAGE: &str = "Something that is not a game piece (a hand, an arm, a \
     sleeve?) covers part of the ocean: no rulings until the table is clear.";
/// Said instead of any ruling when the view has moved.
pub const VIEW_MOVED_MESSAGE: &str = "The camera or the table has moved since calibration: no \
     rulings until it is put back or octoref is calibrated again.";
/// Said instead of any ruling when no ocean is known.
pub const NO_OCEAN_MESSAGE: &str = "No ocean is known (calibrate with a capture of the set-up \
     table): no rulings about the ocean.";

/// One reading of the table, borrowed from a `FrameReport` or vision's state.
#[derive(Debug, Clone, Copy)]
pub struct TableReading<'a> {
    pub pieces: &'a [PieceReport],
    /// The ocean: the string's centre line as a closed polygon, mm.
    pub ocean: &'a PolygonMm,
    pub counter: Option<&'a CounterReport>,
    pub obstructed: bool,
    pub view_moved: bool,
}

/// A piece with what the referee judged about it.
struct Seen<'a> {
    report: &'a PieceReport,
    footprint: Footprint<'a>,
    in_ocean: bool,
    on_string: bool,
}

impl Seen<'_> {
    fn is_candidate_treasure(&self) -> bool {
        let r = self.report;
        r.piece == PieceKind::Treasure && self.in_ocean && r.loaded_on.is_none() && !r.on_island
    }
}

/// Rules on one reading. Errors only on an invalid context or reading (see [`RefereeError`]).
pub fn rule(reading: &TableReading<'_>, ctx: &GameContext) -> Result<Rulings, RefereeError> {
    ctx.validate()?;
    validate_reading(reading)?;
    let mut out = Rulings::default();
    if reading.view_moved || reading.obstructed || reading.ocean.len() < MIN_OCEAN_VERTICES {
        if reading.view_moved {
            out.messages.push(VIEW_MOVED_MESSAGE.into());
        }
        if reading.obstructed {
            out.messages.push(OBSTRUCTED_MESSAGE.into());
        }
        if out.messages.is_empty() {
            out.messages.push(NO_OCEAN_MESSAGE.into());
        }
        return Ok(out);
    }
    let ocean = reading.ocean;
    let seen: Vec<Seen> = reading
        .pieces
        .iter()
        .map(|p| Seen {
            report: p,
            footprint: Footprint::of_piece(p),
            in_ocean: classify::in_ocean(p.center_mm, ocean),
            // Only loose treasures are ruled on for lying on the string.
            on_string: p.piece == PieceKind::Treasure
                && p.loaded_on.is_none()
                && classify::on_string(&p.footprint_mm, p.center_mm, ocean),
        })
        .collect();

    // Out of the ocean first: those are acted on at once.
    let placed: Vec<Placed> = seen
        .iter()
        .map(|s| Placed {
            piece: s.report,
            in_ocean: s.in_ocean,
        })
        .collect();
    let outside = out_of_ocean(&placed, ctx);
    let setup = outside.redrop.as_ref().is_some_and(|r| r.setup);
    out.messages.extend(outside.messages);
    out.out_of_ocean = outside.ids;
    out.redrop = outside.redrop;
    out.put_back = outside.put_back;

    let ships = ships_by_colour(&seen);
    let seen_loads = loads_seen(&seen, &ships);
    let candidates: Vec<&Seen> = seen.iter().filter(|s| s.is_candidate_treasure()).collect();

    let all_players: Vec<PlayerColor> = if ctx.players.is_empty() {
        ships.keys().copied().collect()
    } else {
        ctx.players.clone()
    };
    let mut questions = Vec::new();
    let mut player_messages: Vec<(PlayerColor, Vec<String>)> = Vec::new();
    for &player in &all_players {
        let ship = match ships.get(&player).map(Vec::as_slice) {
            Some([one]) => Ok(*one),
            None | Some([]) => Err(ShipProblem::Missing),
            Some(many) => Err(ShipProblem::Ambiguous(
                many.iter().map(|s| s.report.id.clone()).collect(),
            )),
        };
        let recorded = ctx
            .loaded
            .as_ref()
            .map(|m| m.get(&player).cloned().unwrap_or_default());
        let seen_here = seen_loads.get(&player).map_or(&[][..], Vec::as_slice);
        let loads = merge_loads(player, recorded.as_ref(), seen_here, ship.is_ok());
        questions.extend(loads.questions);
        if player.is_pirate() {
            continue;
        }
        let ship = match ship {
            Ok(s) if s.in_ocean => s,
            Ok(s) => {
                player_messages.push((
                    player,
                    vec![format!(
                        "No ruling for {player} until {} is back inside the ocean.",
                        words::piece(s.report.piece, Some(player), &s.report.id)
                    )],
                ));
                continue;
            }
            Err(problem) => {
                let text = match problem {
                    ShipProblem::Missing => format!("The {player} ship is not seen: no ruling for {player}."),
                    ShipProblem::Ambiguous(ids) => format!(
                        "Several pieces look like the {player} ship ({}): no ruling for {player} \
                         until octoref sees only one.",
                        words::and_list(&ids)
                    ),
                };
                player_messages.push((player, vec![text]));
                continue;
            }
        };
        let gaps: Vec<TreasureGap> = candidates
            .iter()
            .map(|t| TreasureGap {
                id: t.report.id.clone(),
                treasure: t.report.treasure,
                gap_mm: gap_mm(&ship.footprint, &t.footprint),
                uncertainty_mm: gap_uncertainty_mm(
                    ctx.position_sigma_mm,
                    ship.report.confidence,
                    t.report.confidence,
                ),
            })
            .collect();
        let call = call_closest(gaps, ctx.tolerance_mm);
        let flick = may_flick(&call, &loads.types);
        if call.too_close_to_call {
            questions.push(Question::TooCloseToCall {
                player,
                candidates: call.candidates.clone(),
                types: call.gaps[..call.candidates.len()]
                    .iter()
                    .map(|g| g.treasure)
                    .collect(),
            });
        }
        player_messages.push((player, messages_for(player, &call, &flick, ctx)));
        out.players.insert(
            player,
            PlayerRulings {
                ship: ship.report.id.clone(),
                loaded: loads.types.into_iter().collect(),
                gaps_mm: call.gaps,
                closest: call.closest,
                too_close_to_call: call.too_close_to_call,
                closest_candidates: call.candidates,
                flickable: flick.flickable,
                forbidden: flick.forbidden,
            },
        );
    }
    if candidates.is_empty() && !setup && !out.players.is_empty() {
        out.messages.push("No treasure is in the ocean to flick.".into());
    }
    // The active player's rulings first, then the others in turn order.
    if let Some(i) = ctx
        .active
        .and_then(|a| player_messages.iter().position(|(p, _)| *p == a))
    {
        player_messages.rotate_left(i);
    }
    out.messages
        .extend(player_messages.into_iter().flat_map(|(_, m)| m));

    for s in seen
        .iter()
        .filter(|s| s.on_string && s.report.piece == PieceKind::Treasure && s.report.loaded_on.is_none())
    {
        out.on_string.push(s.report.id.clone());
        let name = words::capitalise(&words::treasure(&s.report.id, s.report.treasure));
        out.messages.push(if s.in_ocean {
            format!(
                "{name} lies on the string with its centre inside: it is in the ocean (the string \
                 may be moved slightly to make room for the flick)."
            )
        } else {
            format!("{name} lies on the string with its centre outside: it is out of the ocean.")
        });
    }

    if let Some(ruling) = island_ruling(&seen, ctx) {
        let words = island::island_messages(&ruling);
        out.messages.extend(words.messages);
        questions.extend(words.question);
        out.island = Some(ruling);
    }

    if let Some(c) = reading.counter {
        let next = counter::next_load(c);
        let order = match (next, ctx.active) {
            (super::rulings::NextLoad::OctopusAttack, Some(a)) => counter::attack_order(&ctx.players, a),
            _ => Vec::new(),
        };
        out.messages.push(counter::counter_message(
            next,
            &order,
            ctx.active,
            ctx.pirate_plays(),
        ));
        out.next_load = Some(next);
        out.attack_order = order;
    }

    questions.extend(piece_questions(&seen));
    for q in &questions {
        if !matches!(
            q,
            Question::TooCloseToCall { .. } | Question::IslandTooCloseToCall { .. }
        ) {
            out.messages.push(format!("Please check: {}", q.text()));
        }
    }
    out.questions = questions;
    Ok(out)
}

enum ShipProblem {
    Missing,
    Ambiguous(Vec<String>),
}

fn validate_reading(reading: &TableReading<'_>) -> Result<(), RefereeError> {
    if !reading.ocean.is_finite() {
        return Err(RefereeError::NonFiniteOcean);
    }
    let mut ids: HashMap<&str, usize> = HashMap::new();
    for (index, p) in reading.pieces.iter().enumerate() {
        if let Some(&first) = ids.get(p.id.as_str()) {
            return Err(RefereeError::DuplicatePieceId {
                index,
                first,
                id: p.id.clone(),
            });
        }
        ids.insert(&p.id, index);
        let bad = |field| RefereeError::NonFinitePiece {
            index,
            id: p.id.clone(),
            field,
        };
        if !p.center_mm.is_finite() {
            return Err(bad("center_mm"));
        }
        if !p.footprint_mm.is_finite() {
            return Err(bad("footprint_mm"));
        }
        if !(0.0..=1.0).contains(&p.confidence) {
            return Err(RefereeError::BadConfidence {
                index,
                id: p.id.clone(),
                value: p.confidence,
            });
        }
    }
    Ok(())
}

/// Ships by owner: ships by their colour, the pirate ship as pink.
fn ships_by_colour<'s, 'a>(seen: &'s [Seen<'a>]) -> BTreeMap<PlayerColor, Vec<&'s Seen<'a>>> {
    let mut ships: BTreeMap<PlayerColor, Vec<&Seen>> = BTreeMap::new();
    for s in seen {
        let owner = match (s.report.piece, s.report.color) {
            (PieceKind::Ship, Some(c)) => c,
            (PieceKind::PirateShip, _) => PlayerColor::Pink,
            _ => continue,
        };
        ships.entry(owner).or_default().push(s);
    }
    ships
}

/// Treasures standing on each player's ship.
fn loads_seen(
    seen: &[Seen<'_>],
    ships: &BTreeMap<PlayerColor, Vec<&Seen<'_>>>,
) -> BTreeMap<PlayerColor, Vec<SeenLoad>> {
    let owner: HashMap<&str, PlayerColor> = ships
        .iter()
        .flat_map(|(&c, v)| v.iter().map(move |s| (s.report.id.as_str(), c)))
        .collect();
    let mut loads: BTreeMap<PlayerColor, Vec<SeenLoad>> = BTreeMap::new();
    for s in seen.iter().filter(|s| s.report.piece == PieceKind::Treasure) {
        if let Some(&c) = s.report.loaded_on.as_deref().and_then(|id| owner.get(id)) {
            loads.entry(c).or_default().push(SeenLoad {
                id: s.report.id.clone(),
                treasure: s.report.treasure,
            });
        }
    }
    loads
}

/// One player's rulings in plain words.
fn messages_for(
    player: PlayerColor,
    call: &ClosestCall,
    flick: &FlickRuling,
    ctx: &GameContext,
) -> Vec<String> {
    let mut msgs = Vec::new();
    let cap = words::player_cap(player);
    let name = |i: usize| words::treasure(&call.gaps[i].id, call.gaps[i].treasure);
    if call.gaps.is_empty() {
        return msgs;
    }
    if call.too_close_to_call {
        let n = call.candidates.len();
        let names: Vec<String> = (0..n).map(name).collect();
        let gaps: Vec<String> = call.gaps[..n].iter().map(|g| words::mm(g.gap_mm)).collect();
        let sigma = call.gaps[..n]
            .iter()
            .map(|g| g.uncertainty_mm)
            .fold(0.0, f64::max);
        let others = if n == 2 { "the other" } else { "the others" };
        msgs.push(format!(
            "Too close to call for {player}: {} are {} mm away (± {} mm) — choose together which \
             one counts as the closest, or measure by hand. {cap} may then flick {others}.",
            words::and_list(&names),
            words::and_list(&gaps),
            words::mm(sigma),
        ));
    } else {
        let first = &call.gaps[0];
        let mut m = format!(
            "{cap} may not flick {}: it is the closest treasure to the {player} ship, {} mm away",
            name(0),
            words::mm(first.gap_mm)
        );
        if let Some(second) = call.gaps.get(1) {
            let sigma = first.uncertainty_mm.hypot(second.uncertainty_mm);
            if second.gap_mm - first.gap_mm < ctx.tolerance_mm + NEAR_CALL_SIGMAS * sigma {
                m.push_str(&format!(
                    " ± {} mm; the next, {}, is {} mm away — close, but clear",
                    words::mm(first.uncertainty_mm),
                    name(1),
                    words::mm(second.gap_mm)
                ));
            }
        }
        m.push('.');
        msgs.push(m);
    }
    // BAD No.2, one message per type.
    let mut by_type: BTreeMap<TreasureType, Vec<String>> = BTreeMap::new();
    for f in flick
        .forbidden
        .iter()
        .filter(|f| f.reason == ForbidReason::TypeLoaded)
    {
        if let Some(t) = call.gaps.iter().find(|g| g.id == f.id).and_then(|g| g.treasure) {
            by_type
                .entry(t)
                .or_default()
                .push(words::treasure(&f.id, Some(t)));
        }
    }
    for (t, names) in by_type {
        msgs.push(format!(
            "{cap} may not flick {}: {player} already has {} on board.",
            words::or_list(&names),
            words::a_treasure(t)
        ));
    }
    let flickable: Vec<String> = flick
        .flickable
        .iter()
        .filter_map(|id| call.gaps.iter().position(|g| &g.id == id).map(name))
        .collect();
    if !flickable.is_empty() {
        msgs.push(format!("{cap} may flick {}.", words::or_list(&flickable)));
    } else if !call.too_close_to_call {
        msgs.push(format!(
            "{cap} may flick no treasure now: navigate instead (flick the anchor)."
        ));
    }
    msgs
}

/// Who is closest to the Nameless Island, when it is seen.
fn island_ruling(seen: &[Seen<'_>], ctx: &GameContext) -> Option<super::rulings::IslandRuling> {
    let isle = seen.iter().find(|s| s.report.piece == PieceKind::Island)?;
    let treasures = seen
        .iter()
        .filter(|s| {
            s.report.piece == PieceKind::Treasure && s.report.on_island && s.report.loaded_on.is_none()
        })
        .map(|s| s.report.id.clone())
        .collect();
    let gaps = seen
        .iter()
        .filter(|s| s.in_ocean)
        .filter_map(|s| {
            let player = match (s.report.piece, s.report.color) {
                (PieceKind::Anchor, Some(c)) => c,
                (PieceKind::OctoCanon, _) => PlayerColor::Pink,
                _ => return None,
            };
            Some(AnchorGap {
                player,
                id: s.report.id.clone(),
                gap_mm: gap_mm(&isle.footprint, &s.footprint),
                uncertainty_mm: gap_uncertainty_mm(
                    ctx.position_sigma_mm,
                    isle.report.confidence,
                    s.report.confidence,
                ),
            })
        })
        .collect();
    Some(island::call_island(
        &isle.report.id,
        treasures,
        gaps,
        ctx.tolerance_mm,
    ))
}

/// Pieces that matter for a ruling but were not seen clearly.
fn piece_questions(seen: &[Seen<'_>]) -> Vec<Question> {
    let mut qs = Vec::new();
    for s in seen {
        let r = s.report;
        match r.piece {
            PieceKind::Treasure if r.treasure.is_none() => {
                qs.push(Question::TreasureTypeUnknown { piece: r.id.clone() });
                continue;
            }
            PieceKind::InkDie => {
                if s.in_ocean && (r.top.is_none() || r.confidence < LOW_CONFIDENCE) {
                    qs.push(Question::DieColourUncertain { piece: r.id.clone() });
                }
                continue;
            }
            PieceKind::Treasure
            | PieceKind::Ship
            | PieceKind::PirateShip
            | PieceKind::Anchor
            | PieceKind::OctoCanon
            | PieceKind::Island => {}
            _ => continue,
        }
        if r.confidence < LOW_CONFIDENCE {
            qs.push(Question::LowConfidencePiece {
                piece: r.id.clone(),
                kind: r.piece,
                treasure: r.treasure,
                color: r.color,
                confidence: r.confidence,
            });
        }
    }
    qs
}
