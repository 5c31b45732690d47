//! The game's data: box contents, set-ups, scoring tables, the kids board and the Abyss powers.
//!
//! The default is `assets/octocube.toml`, compiled in; a user may load an edited copy to match a
//! real set ([`OctocubeData::from_toml_str`]). Every loaded file is checked ([`OctocubeData::validate`])
//! so the rules code may rely on: all five objects and both tables present, a six-entry series table,
//! square set-up grids whose stacks fit in the box, a set-up for 2, 3 and 4 players, enough Abyss
//! tiles for every supply, and a kids board of 16 spaces.

use super::play_area::Cell;
use super::player_board::TileCounts;
use super::tile::{Background, Object, Power};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::sync::LazyLock;

/// The default data, compiled in so the program works from any directory.
pub const DEFAULT_OCTOCUBE_TOML: &str = include_str!("../../../assets/octocube.toml");

/// Most tiles in one stack (rulebook vocabulary: "STACK: 1-6 ... tiles").
pub const MAX_STACK_HEIGHT: u32 = 6;
/// Faces of a cube: the longest series one Score action can retrieve.
pub const CUBE_FACES: usize = 6;
/// Spaces on the kids side of a player board.
pub const KIDS_BOARD_SPACES: usize = 16;
/// Player counts the rulebook covers.
pub const PLAYER_COUNTS: [usize; 3] = [2, 3, 4];

/// What is wrong with a data file: the field (TOML path) and what was expected.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("octocube data: field `{field}`: {message}")]
pub struct DataError {
    pub field: String,
    pub message: String,
}

fn data_err(field: impl Into<String>, message: impl Into<String>) -> DataError {
    DataError {
        field: field.into(),
        message: message.into(),
    }
}

/// All of the game's data (see `assets/octocube.toml` for what each value means).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OctocubeData {
    #[serde(rename = "box")]
    pub contents: BoxContents,
    pub abyss: AbyssData,
    #[serde(rename = "setup")]
    pub setups: Vec<SetupLayout>,
    pub scoring: ScoringTables,
    pub kids: KidsData,
    /// The rulebook's wording of each power, shown to players.
    pub powers: BTreeMap<Power, String>,
}

/// What the box holds.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BoxContents {
    pub cubes: u32,
    pub coins: u32,
    /// Object tiles per object type.
    pub objects: BTreeMap<Object, u32>,
    /// How each object's tiles spread over the backgrounds (a reading; used to build a simulated
    /// game's tiles, never to check scoring input).
    pub backgrounds: TileCounts,
}

impl BoxContents {
    /// Object tiles of this type in the box.
    pub fn object_count(&self, object: Object) -> u32 {
        self.objects.get(&object).copied().unwrap_or(0)
    }

    /// Object and Coin tiles in the box.
    pub fn collectible_tiles(&self) -> u32 {
        Object::ALL.iter().map(|o| self.object_count(*o)).sum::<u32>() + self.coins
    }
}

/// The Abyss tiles in the set and how many go to the supply.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AbyssData {
    /// The power letters of the set's Abyss tiles.
    pub tiles: Vec<Power>,
    /// Player count (as a string key, TOML style) -> Abyss tiles in the general supply.
    pub supply: BTreeMap<String, u32>,
}

impl AbyssData {
    /// Abyss tiles placed in the supply for this player count; the game ends once all are placed.
    pub fn supply_for(&self, players: usize) -> Option<u32> {
        self.supply.get(&players.to_string()).copied()
    }
}

/// One set-up diagram: stack heights per grid cell.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SetupLayout {
    pub players: Vec<usize>,
    /// Rows from the top; the number of tiles in each stack; 0 where Abyss tile A lies.
    pub stacks: Vec<Vec<u32>>,
    /// Where Abyss tile A lies, `[x, y]`, if this set-up has it.
    #[serde(default)]
    pub abyss_a: Option<Cell>,
}

impl SetupLayout {
    /// Side of the square grid.
    pub fn size(&self) -> usize {
        self.stacks.len()
    }

    /// Tiles dealt into stacks.
    pub fn tiles_dealt(&self) -> u32 {
        self.stacks.iter().flatten().sum()
    }
}

/// VP for first and second place in a category.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlaceVp {
    pub first: u32,
    pub second: u32,
}

/// The scoring tables.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScoringTables {
    /// `series_vp[n - 1]`: VP for a series of `n` same-object tiles retrieved in one Score action.
    pub series_vp: Vec<u32>,
    pub coin_vp: u32,
    pub background_vp: PlaceVp,
    pub object_vp: BTreeMap<Object, PlaceVp>,
}

impl ScoringTables {
    /// VP for a series of `n` tiles (0 for none). A validated table has an entry for every series
    /// one cube can hold (1..=6); a longer series (impossible in play) scores as the longest entry.
    pub fn series(&self, n: usize) -> u32 {
        if n == 0 {
            return 0;
        }
        let i = n.min(self.series_vp.len()).saturating_sub(1);
        self.series_vp.get(i).copied().unwrap_or(0)
    }

    /// First/second place VP of a category.
    pub fn place_vp(&self, category: super::tile::Category) -> PlaceVp {
        match category {
            super::tile::Category::Background(_) => self.background_vp,
            super::tile::Category::Object(o) => self
                .object_vp
                .get(&o)
                .copied()
                .unwrap_or(PlaceVp { first: 0, second: 0 }),
        }
    }
}

/// One space of the kids side of a player board.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct KidsSpaceSpec {
    #[serde(default)]
    pub object: Option<Object>,
    #[serde(default)]
    pub background: Option<Background>,
}

/// Kids version data.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct KidsData {
    pub board: Vec<KidsSpaceSpec>,
}

static BUILTIN: LazyLock<Result<OctocubeData, DataError>> =
    LazyLock::new(|| OctocubeData::from_toml_str(DEFAULT_OCTOCUBE_TOML));

impl OctocubeData {
    /// The compiled-in default data (parsed once).
    pub fn builtin() -> Result<&'static OctocubeData, DataError> {
        BUILTIN.as_ref().map_err(Clone::clone)
    }

    /// Parses and validates a data file's text.
    pub fn from_toml_str(text: &str) -> Result<OctocubeData, DataError> {
        let de = toml::Deserializer::parse(text).map_err(|e| data_err("(document)", e.to_string()))?;
        let data: OctocubeData = serde_path_to_error::deserialize(de).map_err(|e| {
            let field = e.path().to_string();
            data_err(field, e.into_inner().to_string())
        })?;
        data.validate()?;
        Ok(data)
    }

    /// The set-up for this player count.
    pub fn setup_for(&self, players: usize) -> Option<&SetupLayout> {
        self.setups.iter().find(|s| s.players.contains(&players))
    }

    /// Checks everything the rules code relies on (see the module doc).
    pub fn validate(&self) -> Result<(), DataError> {
        let c = &self.contents;
        for o in Object::ALL {
            let n = c.object_count(o);
            if n == 0 {
                return Err(data_err(
                    format!("box.objects.{o}"),
                    "missing or 0; expected the number of tiles of this object in the box",
                ));
            }
            if c.backgrounds.object_total(o) != n {
                return Err(data_err(
                    format!("box.backgrounds.{o}"),
                    format!(
                        "adds up to {}, expected {n} (box.objects.{o})",
                        c.backgrounds.object_total(o)
                    ),
                ));
            }
        }
        if c.cubes < PLAYER_COUNTS[PLAYER_COUNTS.len() - 1] as u32 {
            return Err(data_err("box.cubes", "expected at least 4 cubes"));
        }
        let abyss_count = self.abyss.tiles.len();
        for (i, p) in self.abyss.tiles.iter().enumerate() {
            if self.abyss.tiles[..i].contains(p) {
                return Err(data_err(
                    format!("abyss.tiles[{i}]"),
                    format!("power {p} is listed twice"),
                ));
            }
        }
        for players in PLAYER_COUNTS {
            let setup = self
                .setup_for(players)
                .ok_or_else(|| data_err("setup", format!("no set-up for {players} players")))?;
            let supply = self.abyss.supply_for(players).ok_or_else(|| {
                data_err(
                    format!("abyss.supply.{players}"),
                    "missing; expected the number of Abyss tiles in the supply",
                )
            })?;
            let middle = usize::from(setup.abyss_a.is_some());
            if supply == 0 || supply as usize + middle > abyss_count {
                return Err(data_err(
                    format!("abyss.supply.{players}"),
                    format!(
                        "{supply} (plus {middle} in the middle) does not fit the {abyss_count} Abyss tiles of abyss.tiles"
                    ),
                ));
            }
        }
        if self.setups.iter().any(|s| s.abyss_a.is_some()) && !self.abyss.tiles.contains(&Power::A) {
            return Err(data_err(
                "abyss.tiles",
                "a set-up puts Abyss tile A in the middle, but the set has no tile A",
            ));
        }
        for (i, s) in self.setups.iter().enumerate() {
            let field = format!("setup[{i}].stacks");
            let n = s.size();
            if n < 2 || n > u8::MAX as usize || s.stacks.iter().any(|r| r.len() != n) {
                return Err(data_err(field, "expected a square grid of at least 2 x 2"));
            }
            for (y, row) in s.stacks.iter().enumerate() {
                for (x, h) in row.iter().enumerate() {
                    let is_a = s.abyss_a == Some(Cell::new(x as u8, y as u8));
                    if is_a && *h != 0 {
                        return Err(data_err(
                            format!("{field}[{y}][{x}]"),
                            "Abyss tile A lies here (abyss_a): expected 0",
                        ));
                    }
                    if !is_a && !(1..=MAX_STACK_HEIGHT).contains(h) {
                        return Err(data_err(
                            format!("{field}[{y}][{x}]"),
                            format!("{h}; expected a stack of 1 to {MAX_STACK_HEIGHT} tiles"),
                        ));
                    }
                }
            }
            if let Some(a) = s.abyss_a
                && (a.x as usize >= n || a.y as usize >= n)
            {
                return Err(data_err(format!("setup[{i}].abyss_a"), "outside the grid"));
            }
            if s.tiles_dealt() > c.collectible_tiles() {
                return Err(data_err(
                    field,
                    format!(
                        "deals {} tiles, but the box holds {}",
                        s.tiles_dealt(),
                        c.collectible_tiles()
                    ),
                ));
            }
        }
        let sc = &self.scoring;
        if sc.series_vp.len() != CUBE_FACES {
            return Err(data_err(
                "scoring.series_vp",
                format!("expected {CUBE_FACES} values (series of 1 to {CUBE_FACES} tiles)"),
            ));
        }
        for o in Object::ALL {
            if !sc.object_vp.contains_key(&o) {
                return Err(data_err(
                    format!("scoring.object_vp.{o}"),
                    "missing; expected { first = N, second = N }",
                ));
            }
        }
        if self.kids.board.len() != KIDS_BOARD_SPACES {
            return Err(data_err(
                "kids.board",
                format!("{} spaces; expected {KIDS_BOARD_SPACES}", self.kids.board.len()),
            ));
        }
        for (i, s) in self.kids.board.iter().enumerate() {
            if s.object.is_none() && s.background.is_none() {
                return Err(data_err(
                    format!("kids.board[{i}]"),
                    "expected an object, a background or both",
                ));
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builtin_data_is_valid_and_matches_the_rulebook() {
        let d = OctocubeData::builtin().unwrap();
        assert_eq!(d.contents.collectible_tiles(), 84);
        assert_eq!(d.contents.object_count(Object::Diamond), 9);
        assert_eq!(d.scoring.series(3), 4);
        assert_eq!(d.scoring.series(6), 15);
        assert_eq!(d.scoring.series(0), 0);
        assert_eq!(d.abyss.supply_for(2), Some(5));
        assert_eq!(d.abyss.supply_for(4), Some(7));
        assert_eq!(d.setup_for(2).unwrap().tiles_dealt(), 64);
        assert_eq!(d.setup_for(3).unwrap().tiles_dealt(), 84);
        assert_eq!(d.setup_for(4).unwrap().abyss_a, Some(Cell::new(2, 2)));
        assert_eq!(
            d.scoring
                .place_vp(super::super::tile::Category::Object(Object::Pearl)),
            PlaceVp { first: 6, second: 3 }
        );
        assert_eq!(d.powers.len(), 9);
    }

    #[test]
    fn bad_data_names_the_field() {
        let broken = DEFAULT_OCTOCUBE_TOML.replace("diamond = 9", "diamond = 8");
        let e = OctocubeData::from_toml_str(&broken).unwrap_err();
        assert_eq!(e.field, "box.backgrounds.diamond");
        let broken = DEFAULT_OCTOCUBE_TOML.replace("[4, 3, 0, 3, 4]", "[4, 3, 1, 3, 4]");
        let e = OctocubeData::from_toml_str(&broken).unwrap_err();
        assert_eq!(e.field, "setup[1].stacks[2][2]");
        let broken = DEFAULT_OCTOCUBE_TOML.replace("pearl = 12", "pearls = 12");
        let e = OctocubeData::from_toml_str(&broken).unwrap_err();
        assert!(e.field.starts_with("box.objects"), "{e}");
    }
}
