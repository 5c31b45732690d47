//! A game of Octocube: the players, the play area, the Abyss supply, whose turn it is and how the
//! game ends. Actions are applied with [`Game::apply`]: a legal action changes the game and returns
//! what happened ([`Event`]s); an illegal one returns a [`RuleError`] and changes nothing.
//!
//! Turn flow (rulebook, "Playing the Game"): rounds of one action per player, clockwise from the
//! first player. An action may leave the turn open ([`Pending`]): a second roll after reaching
//! Abyss tile A (3-4 players), an Abyss power after rolling onto it (advanced), or the kids'
//! compulsory retrieve of a full cube. The end is triggered when the last Abyss tile of the
//! supply is placed (kids: when a player board gets its 16th tile); the round is finished, then
//! (not in the kids version) everyone collects every tile left on their cube in a last Score.

use super::actions::Action;
use super::cube::{Cube, Orientation, PivotAngle, Position};
use super::data::{OctocubeData, ScoringTables};
use super::kids::KidsBoard;
use super::play_area::{Cell, Direction, PlayArea, Space};
use super::player_board::TileCounts;
use super::scoring::{FinalInput, FinalPlayerInput, RetrievalScore, RetrievedTile};
use super::tile::{AbyssTile, Power, Tile};
use serde::{Deserialize, Serialize};

/// Which rules are played.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Version {
    Basic,
    /// Kids version (ages 6+): Roll and Retrieve only, the kids side of the player boards.
    Kids,
    /// Advanced version: Abyss tiles Power side up (powers A-I).
    Advanced,
}

/// Where a player's cube is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CubeLocation {
    /// In front of the player, off the play area.
    PersonalArea,
    PlayArea(Cell),
}

/// A player's side of the player board.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Board {
    /// Basic side: identical tiles stacked on their (background, object) space.
    Basic(TileCounts),
    /// Kids side: 16 spaces of one tile each.
    Kids(KidsBoard),
}

/// One player.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Player {
    pub name: String,
    pub cube: Cube,
    pub location: CubeLocation,
    /// The cube took a tile from the stack it stands on; if that stack is empty when the cube
    /// leaves, an Abyss tile is placed there.
    pub took_from_space: bool,
    pub board: Board,
    /// Coin tiles beside the player board.
    pub coins: u32,
    /// Value of the VP tokens taken (series VP of every Score action).
    pub vp_tokens: u32,
    /// The tiles taken at each Score action, in order (basic and advanced).
    pub retrievals: Vec<Vec<Tile>>,
}

impl Player {
    pub fn cube_cell(&self) -> Option<Cell> {
        match self.location {
            CubeLocation::PlayArea(c) => Some(c),
            CubeLocation::PersonalArea => None,
        }
    }

    /// Object tiles on the player board.
    pub fn board_tile_count(&self) -> usize {
        match &self.board {
            Board::Basic(t) => t.total() as usize,
            Board::Kids(k) => k.placed_count(),
        }
    }
}

/// An action that leaves the current player's turn open.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Pending {
    /// The cube just rolled onto Abyss tile A (3-4 players): it may roll again, or end the turn.
    SecondRoll,
    /// Advanced: the cube just rolled onto this Abyss tile: its power may be used, or end the turn.
    LandedOnPower { cell: Cell },
    /// Kids: every face of the cube holds a tile: the cube must be retrieved now.
    MustRetrieve,
}

/// How far the game is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Stage {
    Playing,
    /// The end was triggered: the current round is being finished.
    FinalRound,
    Over,
}

/// Something that happened. Players are seat numbers (index into [`Game::players`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Event {
    Entered {
        player: usize,
        cell: Cell,
    },
    Rolled {
        player: usize,
        from: Cell,
        to: Cell,
        direction: Direction,
    },
    /// A tile magnetised to the cube's face at `position`.
    Took {
        player: usize,
        cell: Cell,
        tile: Tile,
        position: Position,
    },
    AbyssPlaced {
        cell: Cell,
        abyss: AbyssTile,
    },
    /// A stack emptied but the Abyss supply is empty: the space stays bare.
    NoAbyssLeft {
        cell: Cell,
    },
    Pivoted {
        player: usize,
        angle: PivotAngle,
    },
    Scored {
        player: usize,
        collected: Vec<Tile>,
        score: RetrievalScore,
    },
    Passed {
        player: usize,
    },
    SecondRoll {
        player: usize,
    },
    PowerAvailable {
        player: usize,
        cell: Cell,
        power: Power,
    },
    PowerUsed {
        player: usize,
        cell: Cell,
        power: Power,
    },
    /// Kids: tiles placed on the board (`(tile, space index)`), coins kept, leftovers stacked.
    Retrieved {
        player: usize,
        placed: Vec<(Tile, usize)>,
        coins: u32,
        leftovers: Vec<Tile>,
        leftovers_to: Option<Cell>,
    },
    /// Kids: an Abyss tile replaced by leftovers went back to the supply.
    AbyssReturned {
        cell: Cell,
        abyss: AbyssTile,
    },
    EndTriggered,
    TurnEnded {
        player: usize,
    },
    /// The last Score action of the basic and advanced games.
    LastScore {
        player: usize,
        collected: Vec<Tile>,
        score: RetrievalScore,
    },
    GameOver,
}

/// Why an action is not allowed now. The game is unchanged.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RuleError {
    #[error("the game is over")]
    GameOver,
    #[error("{action} is not part of the {version:?} version")]
    WrongVersion { action: &'static str, version: Version },
    #[error("your cube is in your personal area: you must place it on an unoccupied edge space")]
    MustEnter,
    #[error("your cube is already in the play area")]
    AlreadyInPlay,
    #[error("{cell} is outside the play area")]
    OutsidePlayArea { cell: Cell },
    #[error("{cell} is not on the edge of the play area")]
    NotAnEdgeSpace { cell: Cell },
    #[error("{cell} is occupied by a cube")]
    Occupied { cell: Cell },
    #[error("there is no space {direction} of {cell}")]
    OffTheEdge { cell: Cell, direction: Direction },
    #[error("{0}")]
    NotNow(String),
    #[error("there is no tile on the {position} face of your cube")]
    NoTileThere { position: Position },
    #[error("the {position} face is listed twice")]
    ListedTwice { position: Position },
    #[error("Abyss tile {power} is not in the supply")]
    AbyssNotInSupply { power: Power },
    #[error("{0}")]
    Invalid(String),
}

/// Where every Object and Coin tile is: the sum never changes during a game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct TileCensus {
    pub play_area: usize,
    pub cubes: usize,
    pub boards: usize,
    pub coins: usize,
    pub in_box: usize,
}

impl TileCensus {
    pub fn total(&self) -> usize {
        self.play_area + self.cubes + self.boards + self.coins + self.in_box
    }
}

/// A game of Octocube.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Game {
    pub version: Version,
    pub players: Vec<Player>,
    pub play_area: PlayArea,
    /// Abyss tiles still to be placed.
    pub abyss_supply: Vec<AbyssTile>,
    /// Abyss tiles left in the box.
    pub abyss_in_box: Vec<AbyssTile>,
    /// Object and Coin tiles not dealt (2 players).
    pub tiles_in_box: Vec<Tile>,
    pub first_player: usize,
    /// Whose turn it is.
    pub current: usize,
    /// Rounds started, from 1.
    pub round: u32,
    pub stage: Stage,
    pub pending: Option<Pending>,
    pub tables: ScoringTables,
}

impl Game {
    pub fn current_player(&self) -> &Player {
        &self.players[self.current]
    }

    /// The seat whose cube stands on `cell`.
    pub fn cube_at(&self, cell: Cell) -> Option<usize> {
        self.players
            .iter()
            .position(|p| p.location == CubeLocation::PlayArea(cell))
    }

    pub fn is_occupied(&self, cell: Cell) -> bool {
        self.cube_at(cell).is_some()
    }

    pub fn is_over(&self) -> bool {
        self.stage == Stage::Over
    }

    /// Where every tile is (see [`TileCensus`]).
    pub fn tile_census(&self) -> TileCensus {
        TileCensus {
            play_area: self.play_area.tile_count(),
            cubes: self.players.iter().map(|p| p.cube.tile_count()).sum(),
            boards: self.players.iter().map(Player::board_tile_count).sum(),
            coins: self.players.iter().map(|p| p.coins as usize).sum(),
            in_box: self.tiles_in_box.len(),
        }
    }

    /// Abyss tiles anywhere (play area, supply, box): the set's size, always.
    pub fn abyss_count(&self) -> usize {
        self.play_area.abyss_tiles().count() + self.abyss_supply.len() + self.abyss_in_box.len()
    }

    /// Applies the current player's action. On error nothing changes.
    pub fn apply(&mut self, action: &Action) -> Result<Vec<Event>, RuleError> {
        let mut next = self.clone();
        let events = next.apply_in_place(action)?;
        *self = next;
        Ok(events)
    }

    fn apply_in_place(&mut self, action: &Action) -> Result<Vec<Event>, RuleError> {
        if self.stage == Stage::Over {
            return Err(RuleError::GameOver);
        }
        let mut ev = Vec::new();
        match (self.pending.take(), action) {
            (Some(Pending::MustRetrieve), Action::Retrieve { .. }) => self.dispatch(action, &mut ev)?,
            (Some(Pending::MustRetrieve), _) => {
                return Err(RuleError::NotNow(
                    "every face of your cube holds a tile: you must retrieve your cube".into(),
                ));
            }
            (Some(Pending::SecondRoll), Action::Roll { .. }) => self.dispatch(action, &mut ev)?,
            (Some(Pending::SecondRoll), Action::EndTurn) => {}
            (Some(Pending::SecondRoll), _) => {
                return Err(RuleError::NotNow(
                    "your cube is on Abyss tile A: roll again or end your turn".into(),
                ));
            }
            (Some(Pending::LandedOnPower { cell }), Action::Power { at, .. }) if *at == cell => {
                self.dispatch_power(action, true, &mut ev)?
            }
            (Some(Pending::LandedOnPower { .. }), Action::EndTurn) => {}
            (Some(Pending::LandedOnPower { cell }), _) => {
                return Err(RuleError::NotNow(format!(
                    "your cube just rolled onto the Abyss tile at {cell}: use its power there or end your turn"
                )));
            }
            (None, Action::EndTurn) => {
                return Err(RuleError::NotNow(
                    "nothing to end: choose an action (pass is one in the basic game)".into(),
                ));
            }
            (None, Action::Power { .. }) => self.dispatch_power(action, false, &mut ev)?,
            (None, _) => self.dispatch(action, &mut ev)?,
        }
        self.check_end_trigger(&mut ev);
        if self.pending.is_none() {
            self.finish_turn(&mut ev);
        }
        Ok(ev)
    }

    fn dispatch(&mut self, action: &Action, ev: &mut Vec<Event>) -> Result<(), RuleError> {
        let v = self.version;
        let not_in_version = |name| RuleError::WrongVersion {
            action: name,
            version: v,
        };
        match action {
            Action::Enter { cell, orientation } => self.enter(*cell, *orientation, ev),
            Action::Roll {
                direction,
                abyss,
                orientation,
            } => self.roll(*direction, *abyss, *orientation, ev),
            Action::Pivot { angle } => {
                if v == Version::Kids {
                    return Err(not_in_version("pivot"));
                }
                self.pivot(*angle, ev)
            }
            Action::Score { collect, abyss } => {
                if v == Version::Kids {
                    return Err(not_in_version("score"));
                }
                self.score(collect, *abyss, ev)
            }
            Action::Pass => {
                if v == Version::Kids {
                    return Err(not_in_version("pass"));
                }
                self.pass(ev)
            }
            Action::Retrieve {
                placements,
                leftover_order,
                leftover_to,
                abyss,
            } => {
                if v != Version::Kids {
                    return Err(not_in_version("retrieve"));
                }
                self.retrieve(
                    placements.as_deref(),
                    leftover_order.as_deref(),
                    *leftover_to,
                    *abyss,
                    ev,
                )
            }
            Action::Power { .. } => self.dispatch_power(action, false, ev),
            Action::EndTurn => Err(RuleError::NotNow("nothing to end".into())),
        }
    }

    fn dispatch_power(
        &mut self,
        action: &Action,
        landed: bool,
        ev: &mut Vec<Event>,
    ) -> Result<(), RuleError> {
        match action {
            Action::Power { at, effect, abyss } => self.use_power(*at, effect, *abyss, landed, ev),
            _ => Err(RuleError::Invalid("not a power".into())),
        }
    }

    fn check_end_trigger(&mut self, ev: &mut Vec<Event>) {
        if self.stage != Stage::Playing {
            return;
        }
        let triggered = match self.version {
            Version::Basic | Version::Advanced => self.abyss_supply.is_empty(),
            Version::Kids => self.players.iter().any(|p| match &p.board {
                Board::Kids(k) => k.is_complete(),
                Board::Basic(_) => false,
            }),
        };
        if triggered {
            self.stage = Stage::FinalRound;
            ev.push(Event::EndTriggered);
        }
    }

    /// The seat that plays last in every round.
    pub fn last_in_round(&self) -> usize {
        (self.first_player + self.players.len() - 1) % self.players.len()
    }

    fn finish_turn(&mut self, ev: &mut Vec<Event>) {
        ev.push(Event::TurnEnded { player: self.current });
        if self.stage == Stage::FinalRound && self.current == self.last_in_round() {
            self.game_over(ev);
            return;
        }
        self.current = (self.current + 1) % self.players.len();
        if self.current == self.first_player {
            self.round += 1;
        }
    }

    fn game_over(&mut self, ev: &mut Vec<Event>) {
        if self.version != Version::Kids {
            for seat in 0..self.players.len() {
                self.leave_space(seat, None, ev);
                let player = &mut self.players[seat];
                player.location = CubeLocation::PersonalArea;
                let collected = player.cube.take_all();
                let score = self.collect(seat, &collected);
                ev.push(Event::LastScore {
                    player: seat,
                    collected,
                    score,
                });
            }
        }
        self.stage = Stage::Over;
        self.pending = None;
        ev.push(Event::GameOver);
    }

    /// Puts retrieved tiles where a Score action puts them: coins beside the board, object tiles
    /// on their board spaces, and the series VP as tokens.
    pub(super) fn collect(&mut self, seat: usize, tiles: &[Tile]) -> RetrievalScore {
        let score =
            super::scoring::score_retrieval(tiles.iter().map(|t| RetrievedTile::from(*t)), &self.tables);
        let player = &mut self.players[seat];
        player.coins += score.coins;
        player.vp_tokens += score.vp;
        if let Board::Basic(board) = &mut player.board {
            for t in tiles.iter().filter_map(|t| t.as_object()) {
                board.add(t);
            }
        }
        player.retrievals.push(tiles.to_vec());
        score
    }

    /// The figures the final scoring needs (basic and advanced games).
    pub fn final_input(&self) -> FinalInput {
        FinalInput {
            players: self
                .players
                .iter()
                .map(|p| FinalPlayerInput {
                    name: p.name.clone(),
                    vp_tokens: p.vp_tokens,
                    coins: p.coins,
                    tiles: match &p.board {
                        Board::Basic(t) => *t,
                        Board::Kids(_) => TileCounts::default(),
                    },
                    retrievals: Vec::new(),
                })
                .collect(),
        }
    }

    /// Cells where the current player may enter: unoccupied edge spaces.
    pub fn free_edge_cells(&self) -> Vec<Cell> {
        self.play_area
            .cells()
            .filter(|c| self.play_area.is_edge(*c) && !self.is_occupied(*c))
            .collect()
    }

    /// Unoccupied spaces next to `cell`.
    pub fn free_neighbours(&self, cell: Cell) -> Vec<(Direction, Cell)> {
        self.play_area
            .neighbours(cell)
            .filter(|(_, c)| !self.is_occupied(*c))
            .collect()
    }

    /// Every action the current player may take now. Choices that only order tiles (the kids'
    /// leftover stack) are listed once, in the default order; a kids Retrieve is listed with the
    /// placement that puts the most tiles on the board.
    pub fn legal_actions(&self) -> Vec<Action> {
        let mut out = Vec::new();
        if self.stage == Stage::Over {
            return out;
        }
        let p = self.current_player();
        match self.pending {
            Some(Pending::MustRetrieve) => {
                out.push(Action::retrieve_default());
                return out;
            }
            Some(Pending::SecondRoll) => {
                self.push_rolls(&mut out);
                out.push(Action::EndTurn);
                return out;
            }
            Some(Pending::LandedOnPower { cell }) => {
                self.push_powers(cell, &mut out);
                out.push(Action::EndTurn);
                return out;
            }
            None => {}
        }
        let Some(cell) = p.cube_cell() else {
            let edges = self.free_edge_cells();
            for c in &edges {
                for o in Orientation::all() {
                    out.push(Action::Enter {
                        cell: *c,
                        orientation: o,
                    });
                }
            }
            if edges.is_empty() && self.version != Version::Kids {
                out.push(Action::Pass);
            }
            return out;
        };
        self.push_rolls(&mut out);
        match self.version {
            Version::Kids => out.push(Action::retrieve_default()),
            Version::Basic | Version::Advanced => {
                for angle in PivotAngle::ALL {
                    out.push(Action::Pivot { angle });
                }
                let with_tiles: Vec<Position> = p.cube.tiles().map(|(pos, _)| pos).collect();
                for mask in 0u32..(1 << with_tiles.len()) {
                    let collect = with_tiles
                        .iter()
                        .enumerate()
                        .filter(|(i, _)| mask & (1 << i) != 0)
                        .map(|(_, pos)| *pos)
                        .collect();
                    out.push(Action::Score { collect, abyss: None });
                }
                out.push(Action::Pass);
                if self.version == Version::Advanced {
                    for (_, c) in self.play_area.neighbours(cell) {
                        self.push_powers(c, &mut out);
                    }
                }
            }
        }
        out
    }

    fn push_rolls(&self, out: &mut Vec<Action>) {
        let p = self.current_player();
        let Some(cell) = p.cube_cell() else { return };
        for (direction, _) in self.free_neighbours(cell) {
            if self.version == Version::Kids {
                let mut rolled = p.cube.clone();
                rolled.roll(direction);
                for o in Orientation::all() {
                    rolled.orientation = o;
                    if rolled.tile_at(Position::Bottom).is_none() {
                        out.push(Action::Roll {
                            direction,
                            abyss: None,
                            orientation: Some(o),
                        });
                    }
                }
            } else {
                out.push(Action::Roll {
                    direction,
                    abyss: None,
                    orientation: None,
                });
            }
        }
    }

    /// Seats other than the current one whose cube is in the play area.
    pub(super) fn opponents_in_play(&self) -> Vec<usize> {
        (0..self.players.len())
            .filter(|s| *s != self.current && self.players[*s].cube_cell().is_some())
            .collect()
    }

    /// The space at `cell`, or an error naming it.
    pub(super) fn space(&self, cell: Cell) -> Result<&Space, RuleError> {
        self.play_area
            .space(cell)
            .ok_or(RuleError::OutsidePlayArea { cell })
    }

    /// Checks a game read from a file against the box it claims to be played with: every Object,
    /// Coin and Abyss tile accounted for.
    pub fn check_against(&self, data: &OctocubeData) -> Result<(), RuleError> {
        let tiles = self.tile_census().total();
        if tiles != data.contents.collectible_tiles() as usize {
            return Err(RuleError::Invalid(format!(
                "the game holds {tiles} tiles; the box holds {}",
                data.contents.collectible_tiles()
            )));
        }
        if self.abyss_count() != data.abyss.tiles.len() {
            return Err(RuleError::Invalid(format!(
                "the game holds {} Abyss tiles; the set has {}",
                self.abyss_count(),
                data.abyss.tiles.len()
            )));
        }
        Ok(())
    }
}
