//! Setting up a game (rulebook, "Setup"): mix the Object and Coin tiles, deal the stacks of the
//! set-up for the player count, lay Abyss tile A in the middle (3-4 players; advanced: a random
//! Abyss tile, Power side up), put the supply's Abyss tiles aside, choose the first player.
//!
//! Randomness comes from the caller's RNG, so a seed reproduces a game.

use super::cube::Cube;
use super::data::{OctocubeData, PLAYER_COUNTS};
use super::game::{Board, CubeLocation, Game, Player, Stage, Version};
use super::kids::KidsBoard;
use super::play_area::{Cell, PlayArea, Space};
use super::player_board::TileCounts;
use super::tile::{AbyssTile, Power, Tile};
use rand::seq::SliceRandom;
use rand::{Rng, RngExt};
use serde::{Deserialize, Serialize};

/// Who plays what.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GameOptions {
    pub version: Version,
    /// Player names in turn order (clockwise).
    pub players: Vec<String>,
    /// Seat of the first player; chosen at random when absent.
    #[serde(default)]
    pub first_player: Option<usize>,
}

/// Why a game cannot be set up.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    #[error("{0} players; Octocube is played by 2 to 4")]
    PlayerCount(usize),
    #[error("player {index}: {message}")]
    PlayerName { index: usize, message: String },
    #[error("first player {0} is not a seat of this game")]
    FirstPlayer(usize),
    #[error("the data has no set-up for {0} players")]
    NoSetup(usize),
    #[error("the box does not hold enough tiles for this set-up")]
    NotEnoughTiles,
}

/// All Object and Coin tiles of the box, in a fixed order.
pub fn box_tiles(data: &OctocubeData) -> Vec<Tile> {
    let mut tiles: Vec<Tile> = data
        .contents
        .backgrounds
        .iter()
        .flat_map(|(t, n)| std::iter::repeat_n(Tile::Object(t), n as usize))
        .collect();
    tiles.extend(std::iter::repeat_n(Tile::Coin, data.contents.coins as usize));
    tiles
}

/// Sets up a new game.
pub fn new_game<R: Rng + ?Sized>(
    data: &OctocubeData,
    options: &GameOptions,
    rng: &mut R,
) -> Result<Game, SetupError> {
    let n = options.players.len();
    if !PLAYER_COUNTS.contains(&n) {
        return Err(SetupError::PlayerCount(n));
    }
    for (i, name) in options.players.iter().enumerate() {
        if name.trim().is_empty() {
            return Err(SetupError::PlayerName {
                index: i,
                message: "empty name".into(),
            });
        }
        if options.players[..i].contains(name) {
            return Err(SetupError::PlayerName {
                index: i,
                message: format!("{name:?} is named twice"),
            });
        }
    }
    let first_player = match options.first_player {
        Some(f) if f >= n => return Err(SetupError::FirstPlayer(f)),
        Some(f) => f,
        None => rng.random_range(0..n),
    };
    let layout = data.setup_for(n).ok_or(SetupError::NoSetup(n))?;
    let supply_count = data.abyss.supply_for(n).ok_or(SetupError::NoSetup(n))? as usize;
    let advanced = options.version == Version::Advanced;

    // Object and Coin tiles, Tentacle side down, mixed.
    let mut tiles = box_tiles(data);
    tiles.shuffle(rng);

    // Abyss tiles: A in the middle of the basic and kids games, a random one in the advanced game.
    let mut abyss: Vec<AbyssTile> = data
        .abyss
        .tiles
        .iter()
        .map(|p| AbyssTile {
            power: *p,
            power_side_up: advanced,
        })
        .collect();
    abyss.shuffle(rng);
    let middle = match layout.abyss_a {
        None => None,
        Some(_) if advanced => abyss.pop(),
        Some(_) => abyss
            .iter()
            .position(|a| a.power == Power::A)
            .map(|i| abyss.remove(i)),
    };
    let keep = supply_count.min(abyss.len());
    let abyss_in_box = abyss.split_off(keep);
    let abyss_supply = abyss;

    let mut rows = Vec::with_capacity(layout.size());
    for (y, row) in layout.stacks.iter().enumerate() {
        let mut spaces = Vec::with_capacity(row.len());
        for (x, height) in row.iter().enumerate() {
            let here = Cell::new(x as u8, y as u8);
            if layout.abyss_a == Some(here)
                && let Some(m) = middle
            {
                spaces.push(Space::Abyss(m));
                continue;
            }
            let h = *height as usize;
            if h > tiles.len() {
                return Err(SetupError::NotEnoughTiles);
            }
            let stack = tiles.split_off(tiles.len() - h);
            spaces.push(Space::Stack(stack));
        }
        rows.push(spaces);
    }
    let play_area = PlayArea::from_rows(rows).ok_or(SetupError::NoSetup(n))?;

    let players = options
        .players
        .iter()
        .map(|name| Player {
            name: name.clone(),
            cube: Cube::new(),
            location: CubeLocation::PersonalArea,
            took_from_space: false,
            board: match options.version {
                Version::Kids => Board::Kids(KidsBoard::new(&data.kids.board)),
                Version::Basic | Version::Advanced => Board::Basic(TileCounts::default()),
            },
            coins: 0,
            vp_tokens: 0,
            retrievals: Vec::new(),
        })
        .collect();
    Ok(Game {
        version: options.version,
        players,
        play_area,
        abyss_supply,
        abyss_in_box,
        tiles_in_box: tiles,
        first_player,
        current: first_player,
        round: 1,
        stage: Stage::Playing,
        pending: None,
        tables: data.scoring.clone(),
    })
}

/// Object tiles of each type in `tiles` (a check for tests and tools).
pub fn count_objects(tiles: impl Iterator<Item = Tile>) -> [usize; 5] {
    let mut n = [0usize; 5];
    for t in tiles {
        if let Tile::Object(o) = t {
            n[o.object.index()] += 1;
        }
    }
    n
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    fn game(version: Version, players: usize, seed: u64) -> Game {
        let names = ["Ana", "Ben", "Cy", "Di"][..players]
            .iter()
            .map(|s| s.to_string())
            .collect();
        new_game(
            OctocubeData::builtin().unwrap(),
            &GameOptions {
                version,
                players: names,
                first_player: None,
            },
            &mut ChaCha8Rng::seed_from_u64(seed),
        )
        .unwrap()
    }

    #[test]
    fn three_and_four_players_use_all_84_tiles_with_abyss_a_in_the_middle() {
        for n in [3, 4] {
            let g = game(Version::Basic, n, 1);
            assert_eq!(g.play_area.size(), 5);
            assert_eq!(g.play_area.tile_count(), 84);
            assert!(g.tiles_in_box.is_empty());
            assert_eq!(
                g.play_area.space(Cell::new(2, 2)),
                Some(&Space::Abyss(AbyssTile {
                    power: Power::A,
                    power_side_up: false
                }))
            );
            assert_eq!(g.play_area.space(Cell::new(0, 0)).unwrap().height(), 4);
            assert_eq!(g.play_area.space(Cell::new(1, 0)).unwrap().height(), 3);
            assert_eq!(g.abyss_supply.len(), if n == 3 { 6 } else { 7 });
            assert_eq!(g.abyss_count(), 8);
        }
    }

    #[test]
    fn two_players_deal_16_stacks_of_4_and_box_the_rest() {
        let g = game(Version::Basic, 2, 7);
        assert_eq!(g.play_area.size(), 4);
        assert_eq!(g.play_area.tile_count(), 64);
        assert_eq!(g.tiles_in_box.len(), 20);
        assert_eq!(g.abyss_supply.len(), 5);
        assert!(g.play_area.abyss_tiles().next().is_none());
        let all = count_objects(g.play_area.tiles().chain(g.tiles_in_box.iter().copied()));
        assert_eq!(all, [19, 17, 15, 12, 9]);
    }

    #[test]
    fn the_seed_reproduces_the_deal_and_advanced_tiles_show_their_power() {
        assert_eq!(game(Version::Basic, 4, 3), game(Version::Basic, 4, 3));
        assert_ne!(
            game(Version::Basic, 4, 3).play_area,
            game(Version::Basic, 4, 4).play_area
        );
        let g = game(Version::Advanced, 4, 3);
        let middle = g.play_area.space(Cell::new(2, 2)).unwrap().abyss().unwrap();
        assert!(middle.power_side_up);
        assert!(g.abyss_supply.iter().all(|a| a.power_side_up));
        assert_eq!(g.abyss_supply.len(), 7);
    }

    #[test]
    fn bad_options_are_refused() {
        let data = OctocubeData::builtin().unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(0);
        let opts = |players: Vec<&str>, first| GameOptions {
            version: Version::Basic,
            players: players.into_iter().map(String::from).collect(),
            first_player: first,
        };
        assert_eq!(
            new_game(data, &opts(vec!["a"], None), &mut rng).unwrap_err(),
            SetupError::PlayerCount(1)
        );
        assert!(matches!(
            new_game(data, &opts(vec!["a", "a"], None), &mut rng).unwrap_err(),
            SetupError::PlayerName { index: 1, .. }
        ));
        assert_eq!(
            new_game(data, &opts(vec!["a", "b"], Some(2)), &mut rng).unwrap_err(),
            SetupError::FirstPlayer(2)
        );
    }
}
