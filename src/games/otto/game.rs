//! A game of Otto the Octopus as it is played: hands of 3 and the draw pile, turns, the redraw of
//! an initial hand with no playable tile, missed turns, fish effects, the end, and the final
//! scores with the hand penalty. Solo, open and simplified play are options.
//!
//! Randomness (shuffling, a tile taken at random) comes from the caller's RNG, so a game is
//! reproducible from a seed. Readings where the rulebook is silent:
//! - the redraw rule is applied at the start of a player's turn while they still hold their
//!   initial hand (they have not placed a tile yet), at most once per turn;
//! - the game is over when no player can place a tile from their hand and no initial hand could
//!   still be redrawn ("Once all the tiles possible have been played");
//! - an illegal placement is refused and changes nothing: the player may try another tile or pass
//!   (game records are stricter: see `record.rs`);
//! - in open play each player keeps one tile secret (by default the one drawn last).

use super::board::{Board, BoardLayout};
use super::fish::FishEffect;
use super::placement::{IllegalReason, Placement, check_placement, is_playable, legal_placements};
use super::scoring::{Points, hand_penalty, ranks};
use super::tile::{Tile, TileKind};
use super::tile_set::{EffectRules, EffectRuling, TileSet};
use super::turns::TurnOrder;
use rand::seq::SliceRandom;
use rand::{Rng, RngExt};
use serde::{Deserialize, Serialize};

/// Tiles in a hand at the start, and the number each player draws up to.
pub const HAND_SIZE: usize = 3;
/// Tiles kept secret in open play ("keeping just 1 tile secret in their hand").
pub const OPEN_PLAY_SECRET_TILES: usize = 1;

/// How the game is played. Solo play is a game with one player.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct GameOptions {
    /// Open play: all but one tile of each hand are visible to the other players.
    pub open: bool,
    /// Simplified play: fish effects are ignored; fish score their points.
    pub simplified: bool,
}

/// One player's state.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayerState {
    pub name: String,
    pub hand: Vec<TileKind>,
    /// Points scored by the tiles this player placed.
    pub placed_points: u32,
    pub tiles_placed: u32,
    /// Index in `hand` of the tile kept secret in open play.
    pub secret: Option<usize>,
}

impl PlayerState {
    /// Still holding the hand dealt at the start (nothing placed yet, and not emptied by a fish).
    pub fn has_initial_hand(&self) -> bool {
        self.tiles_placed == 0 && !self.hand.is_empty()
    }
}

/// Something a game refuses.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GameError {
    #[error("a game needs at least one player")]
    NoPlayers,
    #[error("two players are called {0:?}; each player needs their own name")]
    DuplicateName(String),
    #[error("{players} players need {needed} tiles for their first hands, but the box holds {available}")]
    NotEnoughTiles {
        players: usize,
        needed: usize,
        available: usize,
    },
    #[error("the game is over")]
    GameOver,
    #[error("there is no player {0}")]
    NoSuchPlayer(usize),
    #[error("the hand has no tile number {index} (it holds {len})")]
    NotInHand { index: usize, len: usize },
    #[error("that tile is {held}, not {placed}")]
    WrongTile { held: String, placed: String },
    #[error("{0}")]
    Illegal(#[from] IllegalReason),
}

/// What happened at the start of a turn.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TurnStart {
    pub player: usize,
    /// Players whose turns were skipped before this one.
    pub missed: Vec<usize>,
    /// The player's initial hand had no playable tile: all of it went back and 3 were drawn.
    pub redrew: bool,
    /// The player has a tile they can place.
    pub can_play: bool,
}

/// What a fish's effect did.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct EffectOutcome {
    pub effect: FishEffect,
    /// False when the rules in play ignore it (solo, simplified) or it had nothing to act on.
    pub applied: bool,
    pub note: String,
}

/// What a turn did.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TurnReport {
    pub player: usize,
    pub placement: Option<Placement>,
    pub points: Option<Points>,
    /// Tiles the player drew after placing (0 when the pile is empty).
    pub drew: usize,
    pub effect: Option<EffectOutcome>,
    pub game_over: bool,
    /// The next turn, when the game goes on.
    pub next: Option<TurnStart>,
}

/// One player's final score.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Standing {
    pub name: String,
    pub placed_points: u32,
    /// Tiles counted against the player: the hand, plus the draw pile in solo play.
    pub tiles_left: u32,
    pub hand_penalty: u32,
    pub total: i64,
    pub rank: u32,
}

/// A game in progress.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Game {
    board: Board,
    tiles: TileSet,
    players: Vec<PlayerState>,
    draw_pile: Vec<TileKind>,
    turns: TurnOrder,
    options: GameOptions,
    turn_start: TurnStart,
    over: bool,
}

impl Game {
    /// Sets up a game: the Otto tile on the Ocean, all tiles shuffled into the draw pile, 3 tiles
    /// to each player (in `names` order; the first plays first), and the first turn started.
    pub fn new<R: Rng + ?Sized>(
        layout: BoardLayout,
        tiles: TileSet,
        names: Vec<String>,
        options: GameOptions,
        rng: &mut R,
    ) -> Result<Game, GameError> {
        if names.is_empty() {
            return Err(GameError::NoPlayers);
        }
        for (i, n) in names.iter().enumerate() {
            if names[..i].contains(n) {
                return Err(GameError::DuplicateName(n.clone()));
            }
        }
        let mut draw_pile = tiles.all_tiles();
        let needed = names.len() * HAND_SIZE;
        if draw_pile.len() < needed {
            return Err(GameError::NotEnoughTiles {
                players: names.len(),
                needed,
                available: draw_pile.len(),
            });
        }
        draw_pile.shuffle(rng);
        let players = names
            .into_iter()
            .map(|name| {
                let at = draw_pile.len().saturating_sub(HAND_SIZE);
                let hand = draw_pile.split_off(at);
                PlayerState {
                    name,
                    secret: hand.len().checked_sub(1),
                    hand,
                    placed_points: 0,
                    tiles_placed: 0,
                }
            })
            .collect::<Vec<_>>();
        let turns = TurnOrder::new(players.len());
        let mut game = Game {
            board: Board::new(layout),
            tiles,
            players,
            draw_pile,
            turns,
            options,
            turn_start: TurnStart {
                player: 0,
                missed: Vec::new(),
                redrew: false,
                can_play: false,
            },
            over: false,
        };
        game.start_turn(0, Vec::new(), rng);
        Ok(game)
    }

    pub fn board(&self) -> &Board {
        &self.board
    }

    pub fn tile_set(&self) -> &TileSet {
        &self.tiles
    }

    pub fn players(&self) -> &[PlayerState] {
        &self.players
    }

    pub fn options(&self) -> GameOptions {
        self.options
    }

    pub fn is_solo(&self) -> bool {
        self.players.len() == 1
    }

    pub fn current_player(&self) -> usize {
        self.turns.current()
    }

    /// What happened when the current turn started (missed turns, a redraw).
    pub fn turn_start(&self) -> &TurnStart {
        &self.turn_start
    }

    pub fn draw_pile_len(&self) -> usize {
        self.draw_pile.len()
    }

    pub fn is_over(&self) -> bool {
        self.over
    }

    fn effect_rules(&self) -> EffectRules {
        EffectRules {
            solo: self.is_solo(),
            simplified: self.options.simplified,
        }
    }

    /// Can `player` place any tile from their hand?
    pub fn can_play(&self, player: usize) -> bool {
        self.players
            .get(player)
            .is_some_and(|p| p.hand.iter().any(|k| is_playable(&self.board, k)))
    }

    /// Every legal placement of each tile in `player`'s hand, by hand index.
    pub fn playable(&self, player: usize) -> Vec<Vec<Placement>> {
        self.players.get(player).map_or_else(Vec::new, |p| {
            p.hand.iter().map(|k| legal_placements(&self.board, k)).collect()
        })
    }

    /// The tiles of `player`'s hand the others may see: none, or in open play all but the secret.
    pub fn visible_hand(&self, player: usize) -> Vec<&TileKind> {
        let Some(p) = self.players.get(player) else {
            return Vec::new();
        };
        if !self.options.open {
            return Vec::new();
        }
        p.hand
            .iter()
            .enumerate()
            .filter(|&(i, _)| Some(i) != p.secret)
            .map(|(_, k)| k)
            .collect()
    }

    /// Open play: `player` chooses which tile of their hand to keep secret.
    pub fn choose_secret(&mut self, player: usize, hand_index: usize) -> Result<(), GameError> {
        let p = self
            .players
            .get_mut(player)
            .ok_or(GameError::NoSuchPlayer(player))?;
        if hand_index >= p.hand.len() {
            return Err(GameError::NotInHand {
                index: hand_index,
                len: p.hand.len(),
            });
        }
        p.secret = Some(hand_index);
        Ok(())
    }

    /// Would the current player's tile `hand_index` go there, and for how many points?
    pub fn check(&self, hand_index: usize, placement: &Placement) -> Result<Points, GameError> {
        if self.over {
            return Err(GameError::GameOver);
        }
        let player = self.turns.current();
        let p = self.players.get(player).ok_or(GameError::NoSuchPlayer(player))?;
        let held = p.hand.get(hand_index).ok_or(GameError::NotInHand {
            index: hand_index,
            len: p.hand.len(),
        })?;
        let placed = placement.tile.kind();
        if *held != placed {
            return Err(GameError::WrongTile {
                held: held.describe(),
                placed: placed.describe(),
            });
        }
        Ok(check_placement(&self.board, placement)?)
    }

    /// The current player places tile `hand_index` of their hand: it is scored, the player draws
    /// a tile, the fish effect (if any) applies, and play passes on. An illegal placement changes
    /// nothing and is returned as an error.
    pub fn place<R: Rng + ?Sized>(
        &mut self,
        hand_index: usize,
        placement: Placement,
        rng: &mut R,
    ) -> Result<TurnReport, GameError> {
        self.check(hand_index, &placement)?;
        let player = self.turns.current();
        let points = self.board.place(placement.clone())?;
        let mut drew = 0;
        if let Some(p) = self.players.get_mut(player) {
            p.hand.remove(hand_index);
            p.placed_points += points.total;
            p.tiles_placed += 1;
            if let Some(tile) = self.draw_pile.pop() {
                p.hand.push(tile);
                drew = 1;
            }
            p.secret = p.hand.len().checked_sub(1);
        }
        let effect = match &placement.tile {
            Tile::Fish(f) => Some(self.apply_effect(player, &f.species, rng)),
            _ => None,
        };
        let mut report = TurnReport {
            player,
            placement: Some(placement),
            points: Some(points),
            drew,
            effect,
            game_over: false,
            next: None,
        };
        self.finish_turn(&mut report, rng);
        Ok(report)
    }

    /// The current player misses their turn (unable to place a tile, or preferring not to).
    pub fn pass<R: Rng + ?Sized>(&mut self, rng: &mut R) -> Result<TurnReport, GameError> {
        if self.over {
            return Err(GameError::GameOver);
        }
        let mut report = TurnReport {
            player: self.turns.current(),
            placement: None,
            points: None,
            drew: 0,
            effect: None,
            game_over: false,
            next: None,
        };
        self.finish_turn(&mut report, rng);
        Ok(report)
    }

    fn finish_turn<R: Rng + ?Sized>(&mut self, report: &mut TurnReport, rng: &mut R) {
        if self.no_one_can_play() {
            self.over = true;
            report.game_over = true;
            return;
        }
        let change = self.turns.end_turn();
        self.start_turn(change.player, change.missed, rng);
        report.next = Some(self.turn_start.clone());
    }

    /// The game is over when no one can place a tile, and no player still holding their initial
    /// hand could redraw a playable one from the pile.
    fn no_one_can_play(&self) -> bool {
        let mut kinds: Vec<&TileKind> = self.draw_pile.iter().collect();
        kinds.sort();
        kinds.dedup();
        let pile_playable = kinds.into_iter().any(|k| is_playable(&self.board, k));
        !self
            .players
            .iter()
            .enumerate()
            .any(|(i, p)| self.can_play(i) || (pile_playable && p.has_initial_hand()))
    }

    fn start_turn<R: Rng + ?Sized>(&mut self, player: usize, missed: Vec<usize>, rng: &mut R) {
        let mut redrew = false;
        let initial = self
            .players
            .get(player)
            .is_some_and(PlayerState::has_initial_hand);
        if initial && !self.can_play(player) && !self.draw_pile.is_empty() {
            // "If a player's initial hand has no playable tiles, they replace ALL 3 of them back
            // into the pile and draw another 3."
            if let Some(p) = self.players.get_mut(player) {
                self.draw_pile.append(&mut p.hand);
                self.draw_pile.shuffle(rng);
                let at = self.draw_pile.len().saturating_sub(HAND_SIZE);
                p.hand = self.draw_pile.split_off(at);
                p.secret = p.hand.len().checked_sub(1);
                redrew = true;
            }
        }
        self.turn_start = TurnStart {
            player,
            missed,
            redrew,
            can_play: self.can_play(player),
        };
        if !self.turn_start.can_play && self.no_one_can_play() {
            self.over = true;
        }
    }

    fn apply_effect<R: Rng + ?Sized>(&mut self, player: usize, species: &str, rng: &mut R) -> EffectOutcome {
        let effect = self.tiles.fish(species).map_or(FishEffect::None, |f| f.effect);
        let ignored = |note: &str| EffectOutcome {
            effect,
            applied: false,
            note: note.to_string(),
        };
        match self.tiles.effect_ruling(species, self.effect_rules()) {
            EffectRuling::Applies(e) => self.do_effect(player, e, rng),
            EffectRuling::NoEffect => ignored("no effect"),
            EffectRuling::IgnoredInSimplifiedPlay => ignored("ignored in simplified play"),
            EffectRuling::IgnoredInSoloPlay => {
                ignored("ignored in solo play (one of the first fish on the card)")
            }
        }
    }

    fn draw_to(&mut self, player: usize) -> bool {
        let Some(p) = self.players.get_mut(player) else {
            return false;
        };
        match self.draw_pile.pop() {
            Some(t) => {
                p.hand.push(t);
                true
            }
            None => false,
        }
    }

    fn do_effect<R: Rng + ?Sized>(
        &mut self,
        player: usize,
        effect: FishEffect,
        rng: &mut R,
    ) -> EffectOutcome {
        let next = self.turns.next_player();
        let (applied, note) = match effect {
            FishEffect::None => (false, "no effect".to_string()),
            FishEffect::PlayAgain => {
                self.turns.grant_bonus_turn();
                (true, "plays again".into())
            }
            FishEffect::DrawExtra => {
                let drew = self.draw_to(player);
                (
                    drew,
                    if drew {
                        "drew one more tile"
                    } else {
                        "the draw pile is empty"
                    }
                    .into(),
                )
            }
            FishEffect::NextPlayerMissesTurn => match next {
                Some(n) => {
                    self.turns.miss_next_turn(n);
                    (true, format!("{} misses their next turn", self.name(n)))
                }
                None => (false, "no other player".into()),
            },
            FishEffect::OthersDrawOne => {
                let others: Vec<usize> = (0..self.players.len()).filter(|&i| i != player).collect();
                let drew = others.into_iter().filter(|&i| self.draw_to(i)).count();
                (drew > 0, format!("{drew} other player(s) drew a tile"))
            }
            FishEffect::ReverseDirection => {
                self.turns.reverse();
                (true, "play passes the other way".into())
            }
            FishEffect::StealFromNext => {
                let taken = next.and_then(|n| {
                    let victim = self.players.get_mut(n)?;
                    if victim.hand.is_empty() {
                        return None;
                    }
                    let i = rng.random_range(0..victim.hand.len());
                    let tile = victim.hand.remove(i);
                    victim.secret = victim.hand.len().checked_sub(1);
                    Some((n, tile))
                });
                match taken {
                    Some((n, tile)) => {
                        if let Some(p) = self.players.get_mut(player) {
                            p.hand.push(tile);
                        }
                        (true, format!("took a tile from {}", self.name(n)))
                    }
                    None => (false, "no tile to take".into()),
                }
            }
        };
        EffectOutcome {
            effect,
            applied,
            note,
        }
    }

    fn name(&self, player: usize) -> String {
        self.players
            .get(player)
            .map_or_else(String::new, |p| p.name.clone())
    }

    /// The scores now (final once the game is over): placed points minus 1 per tile left in hand
    /// (in solo play, also per tile left in the draw pile), ranked.
    pub fn standings(&self) -> Vec<Standing> {
        let solo = self.is_solo();
        let pile = self.draw_pile.len() as u32;
        let mut standings: Vec<Standing> = self
            .players
            .iter()
            .map(|p| {
                let tiles_left = p.hand.len() as u32 + if solo { pile } else { 0 };
                let penalty = hand_penalty(tiles_left);
                Standing {
                    name: p.name.clone(),
                    placed_points: p.placed_points,
                    tiles_left,
                    hand_penalty: penalty,
                    total: i64::from(p.placed_points) - i64::from(penalty),
                    rank: 0,
                }
            })
            .collect();
        let totals: Vec<i64> = standings.iter().map(|s| s.total).collect();
        for (s, r) in standings.iter_mut().zip(ranks(&totals)) {
            s.rank = r;
        }
        standings
    }
}

#[cfg(test)]
impl Game {
    /// Replaces the hands and the draw pile (top of the pile last) and restarts the current turn.
    fn rig<R: Rng + ?Sized>(&mut self, hands: Vec<Vec<TileKind>>, pile: Vec<TileKind>, rng: &mut R) {
        for (p, h) in self.players.iter_mut().zip(hands) {
            p.secret = h.len().checked_sub(1);
            p.hand = h;
        }
        self.draw_pile = pile;
        self.over = false;
        let player = self.turns.current();
        self.start_turn(player, Vec::new(), rng);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::otto::board::{Cell, Edge, Side};
    use crate::games::otto::tile::{ArmTile, EndTile};
    use TileKind::{PlainEnd, ShellEnd, StraightArm};
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    fn rng() -> ChaCha8Rng {
        ChaCha8Rng::seed_from_u64(7)
    }

    fn new_game(players: usize, options: GameOptions, r: &mut ChaCha8Rng) -> Game {
        let names = ["Ana", "Ben", "Cid", "Dee"][..players]
            .iter()
            .map(|s| s.to_string())
            .collect();
        Game::new(
            BoardLayout::default_layout().unwrap(),
            TileSet::default_set().unwrap(),
            names,
            options,
            r,
        )
        .unwrap()
    }

    fn fish(species: &str) -> TileKind {
        TileKind::Fish(TileSet::default_set().unwrap().fish(species).unwrap().tile())
    }

    fn fish_at(species: &str, x: u8, y: u8) -> Placement {
        Placement {
            cell: Cell::new(x, y),
            tile: Tile::Fish(TileSet::default_set().unwrap().fish(species).unwrap().tile()),
        }
    }

    fn straight_at_north_west() -> Placement {
        Placement {
            cell: Cell::new(3, 2),
            tile: Tile::Arm(ArmTile::new(Edge::S, Edge::N, Side::Left).unwrap()),
        }
    }

    #[test]
    fn the_deal_gives_three_tiles_each_and_keeps_every_tile() {
        let mut r = rng();
        let g = new_game(4, GameOptions::default(), &mut r);
        assert!(g.players().iter().all(|p| p.hand.len() == HAND_SIZE));
        assert_eq!(g.draw_pile_len() + 4 * HAND_SIZE, 60);
        assert_eq!(g.current_player(), 0);
        let names = vec!["A".to_string(), "A".to_string()];
        let e = Game::new(
            BoardLayout::default_layout().unwrap(),
            TileSet::default_set().unwrap(),
            names,
            GameOptions::default(),
            &mut r,
        );
        assert!(matches!(e, Err(GameError::DuplicateName(_))));
    }

    /// "If a player's initial hand has no playable tiles, they replace ALL 3 of them back into the
    /// pile and draw another 3."
    #[test]
    fn an_initial_hand_with_no_playable_tile_is_redrawn() {
        let mut r = rng();
        let mut g = new_game(2, GameOptions::default(), &mut r);
        let pile: Vec<TileKind> = std::iter::repeat_n(StraightArm, 20).collect();
        g.rig(
            vec![vec![PlainEnd, ShellEnd, PlainEnd], vec![StraightArm; 3]],
            pile,
            &mut r,
        );
        assert!(g.turn_start().redrew);
        assert!(g.turn_start().can_play);
        let hand = &g.players()[0].hand;
        assert_eq!(hand.len(), 3);
        // The three End tiles went back into the pile.
        let ends_in_pile = g
            .draw_pile
            .iter()
            .filter(|k| matches!(k, PlainEnd | ShellEnd))
            .count();
        let ends_in_hand = hand.iter().filter(|k| matches!(k, PlainEnd | ShellEnd)).count();
        assert_eq!(ends_in_pile + ends_in_hand, 3);
        assert_eq!(g.draw_pile_len(), 20);
    }

    #[test]
    fn a_hand_after_the_first_placement_is_not_redrawn() {
        let mut r = rng();
        let mut g = new_game(1, GameOptions::default(), &mut r);
        g.rig(
            vec![vec![StraightArm, PlainEnd, PlainEnd]],
            vec![ShellEnd, ShellEnd],
            &mut r,
        );
        g.place(0, straight_at_north_west(), &mut r).unwrap();
        // Now holding End tiles, which fit the arm: place one, then hold only Ends with nowhere to go.
        let end = Placement {
            cell: Cell::new(3, 1),
            tile: Tile::End(EndTile {
                from: Edge::S,
                shell: false,
            }),
        };
        let report = g.place(0, end, &mut r).unwrap();
        assert_eq!(report.points.unwrap().total, 2);
        assert!(!g.turn_start().redrew);
        assert!(
            g.is_over(),
            "only End tiles left and no open arm with an Arm tile"
        );
    }

    #[test]
    fn an_illegal_placement_changes_nothing() {
        let mut r = rng();
        let mut g = new_game(2, GameOptions::default(), &mut r);
        g.rig(
            vec![vec![StraightArm, PlainEnd, fish("angler")], vec![StraightArm; 3]],
            Vec::new(),
            &mut r,
        );
        let before = g.players()[0].hand.clone();
        let e = g.place(2, fish_at("angler", 4, 2), &mut r);
        assert!(matches!(
            e,
            Err(GameError::Illegal(IllegalReason::FishNotOnOuterRing { .. }))
        ));
        let e = g.place(1, straight_at_north_west(), &mut r);
        assert!(matches!(e, Err(GameError::WrongTile { .. })));
        assert_eq!(g.players()[0].hand, before);
        assert_eq!(g.current_player(), 0);
        assert_eq!(g.board().placed_count(), 0);
    }

    #[test]
    fn placing_scores_draws_and_passes_play_on() {
        let mut r = rng();
        let mut g = new_game(2, GameOptions::default(), &mut r);
        g.rig(
            vec![vec![StraightArm; 3], vec![StraightArm; 3]],
            vec![PlainEnd],
            &mut r,
        );
        let report = g.place(0, straight_at_north_west(), &mut r).unwrap();
        assert_eq!((report.drew, report.points.unwrap().total), (1, 1));
        assert_eq!(g.players()[0].hand.last(), Some(&PlainEnd));
        assert_eq!(g.players()[0].placed_points, 1);
        assert_eq!(g.current_player(), 1);
        g.pass(&mut r).unwrap();
        assert_eq!(g.current_player(), 0);
    }

    #[test]
    fn fish_effects_apply_unless_the_variant_ignores_them() {
        let mut r = rng();
        // play_again (clownfish, 5th on the card).
        let mut g = new_game(3, GameOptions::default(), &mut r);
        g.rig(
            vec![vec![fish("clownfish")], vec![StraightArm], vec![StraightArm]],
            Vec::new(),
            &mut r,
        );
        let rep = g.place(0, fish_at("clownfish", 4, 2), &mut r).unwrap();
        assert!(rep.effect.unwrap().applied);
        assert_eq!(g.current_player(), 0);
        // next_player_misses_turn (shark, 1st on the card).
        let mut g = new_game(3, GameOptions::default(), &mut r);
        g.rig(
            vec![vec![fish("shark")], vec![StraightArm], vec![StraightArm]],
            Vec::new(),
            &mut r,
        );
        let rep = g.place(0, fish_at("shark", 4, 2), &mut r).unwrap();
        let next = rep.next.unwrap();
        assert_eq!((next.player, next.missed), (2, vec![1]));
        // Simplified play: no effect.
        let simplified = GameOptions {
            open: false,
            simplified: true,
        };
        let mut g = new_game(3, simplified, &mut r);
        g.rig(
            vec![vec![fish("clownfish")], vec![StraightArm], vec![StraightArm]],
            Vec::new(),
            &mut r,
        );
        let rep = g.place(0, fish_at("clownfish", 4, 2), &mut r).unwrap();
        assert!(!rep.effect.unwrap().applied);
        assert_eq!(g.current_player(), 1);
        // Steal: a tile moves from the next player's hand.
        let mut g = new_game(2, GameOptions::default(), &mut r);
        g.rig(
            vec![vec![fish("swordfish")], vec![PlainEnd, PlainEnd]],
            Vec::new(),
            &mut r,
        );
        g.place(0, fish_at("swordfish", 4, 2), &mut r).unwrap();
        assert_eq!((g.players()[0].hand.len(), g.players()[1].hand.len()), (1, 1));
    }

    /// Solo play ignores the first four fish on the card, and counts the draw pile as penalty.
    #[test]
    fn solo_play_ignores_the_first_four_fish_and_counts_the_pile() {
        let mut r = rng();
        let mut g = new_game(1, GameOptions::default(), &mut r);
        g.rig(
            vec![vec![fish("swordfish"), fish("clownfish"), StraightArm]],
            vec![PlainEnd; 4],
            &mut r,
        );
        let rep = g.place(0, fish_at("swordfish", 4, 2), &mut r).unwrap();
        assert!(!rep.effect.unwrap().applied);
        let rep = g.place(0, fish_at("clownfish", 2, 4), &mut r).unwrap();
        assert!(rep.effect.unwrap().applied);
        let s = &g.standings()[0];
        // Placed 2 + 1; hand: arm + 2 drawn Ends = 3; pile: 2 left.
        assert_eq!(
            (s.placed_points, s.tiles_left, s.hand_penalty, s.total),
            (3, 5, 5, -2)
        );
    }

    #[test]
    fn open_play_shows_all_but_the_secret_tile() {
        let mut r = rng();
        let mut g = new_game(
            2,
            GameOptions {
                open: true,
                simplified: false,
            },
            &mut r,
        );
        assert_eq!(g.visible_hand(0).len(), 2);
        g.choose_secret(0, 0).unwrap();
        let hand = g.players()[0].hand.clone();
        assert_eq!(g.visible_hand(0), vec![&hand[1], &hand[2]]);
        assert!(g.choose_secret(0, 3).is_err());
        let closed = new_game(2, GameOptions::default(), &mut r);
        assert!(closed.visible_hand(0).is_empty());
    }

    /// "Once all the tiles possible have been played, the game ends. Players deduct 1 point for
    /// each tile remaining in their hand."
    #[test]
    fn the_game_ends_when_no_one_can_play() {
        let mut r = rng();
        let mut g = new_game(2, GameOptions::default(), &mut r);
        g.rig(
            vec![vec![StraightArm], vec![PlainEnd, ShellEnd]],
            Vec::new(),
            &mut r,
        );
        assert!(!g.is_over());
        let rep = g.place(0, straight_at_north_west(), &mut r).unwrap();
        assert!(!rep.game_over);
        // Ben can complete the arm.
        assert!(g.can_play(1));
        let end = Placement {
            cell: Cell::new(3, 1),
            tile: Tile::End(EndTile {
                from: Edge::S,
                shell: true,
            }),
        };
        let rep = g.place(1, end, &mut r).unwrap();
        assert!(rep.game_over && g.is_over());
        assert!(matches!(g.pass(&mut r), Err(GameError::GameOver)));
        let s = g.standings();
        assert_eq!((s[0].total, s[1].total), (1, 4 - 1));
        assert_eq!((s[0].rank, s[1].rank), (2, 1));
    }
}
