//! The tiles: Object tiles (an object on a background colour), Coin tiles and Abyss tiles.
//!
//! Names are the ones every file and output uses: objects `starfish`, `amphora`, `sextant`,
//! `pearl`, `diamond` (the player board's columns, in this order), backgrounds `white`,
//! `light_blue`, `dark_blue`, `green` (its rows, in this order). A collectible tile is written
//! `"starfish/white"` or `"coin"`; an Abyss tile's power by its letter `"A"`..`"I"`.

use serde::{Deserialize, Serialize};

/// An object type: a column of the player board and a scoring category.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Object {
    Starfish,
    Amphora,
    Sextant,
    Pearl,
    Diamond,
}

impl Object {
    /// In the player board's column order.
    pub const ALL: [Object; 5] = [
        Object::Starfish,
        Object::Amphora,
        Object::Sextant,
        Object::Pearl,
        Object::Diamond,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Object::Starfish => "starfish",
            Object::Amphora => "amphora",
            Object::Sextant => "sextant",
            Object::Pearl => "pearl",
            Object::Diamond => "diamond",
        }
    }

    /// The column of the player board (0 = starfish .. 4 = diamond).
    pub fn index(self) -> usize {
        self as usize
    }
}

impl std::fmt::Display for Object {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl std::str::FromStr for Object {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Object::ALL.into_iter().find(|o| o.as_str() == s).ok_or_else(|| {
            format!("unknown object {s:?}; expected starfish, amphora, sextant, pearl or diamond")
        })
    }
}

/// A background colour: a row of the player board and a scoring category.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Background {
    White,
    LightBlue,
    DarkBlue,
    Green,
}

impl Background {
    /// In the player board's row order.
    pub const ALL: [Background; 4] = [
        Background::White,
        Background::LightBlue,
        Background::DarkBlue,
        Background::Green,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Background::White => "white",
            Background::LightBlue => "light_blue",
            Background::DarkBlue => "dark_blue",
            Background::Green => "green",
        }
    }

    /// The row of the player board (0 = white .. 3 = green).
    pub fn index(self) -> usize {
        self as usize
    }
}

impl std::fmt::Display for Background {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl std::str::FromStr for Background {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Background::ALL
            .into_iter()
            .find(|b| b.as_str() == s)
            .ok_or_else(|| {
                format!("unknown background {s:?}; expected white, light_blue, dark_blue or green")
            })
    }
}

/// An Object tile: one object on one background colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct ObjectTile {
    pub object: Object,
    pub background: Background,
}

impl ObjectTile {
    pub fn new(object: Object, background: Background) -> Self {
        ObjectTile { object, background }
    }
}

impl std::fmt::Display for ObjectTile {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.object, self.background)
    }
}

impl std::str::FromStr for ObjectTile {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let (object, background) = s.split_once('/').ok_or_else(|| {
            format!("{s:?} is not an object tile; expected OBJECT/BACKGROUND, e.g. \"starfish/white\"")
        })?;
        Ok(ObjectTile::new(object.parse()?, background.parse()?))
    }
}

impl TryFrom<String> for ObjectTile {
    type Error = String;
    fn try_from(s: String) -> Result<Self, Self::Error> {
        s.parse()
    }
}

impl From<ObjectTile> for String {
    fn from(t: ObjectTile) -> String {
        t.to_string()
    }
}

/// A collectible tile: what stacks are made of and what cubes carry.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub enum Tile {
    Object(ObjectTile),
    /// Worth [`crate::games::octocube::data::ScoringTables::coin_vp`] at the end; no background.
    Coin,
}

impl Tile {
    pub fn object(object: Object, background: Background) -> Tile {
        Tile::Object(ObjectTile::new(object, background))
    }

    /// The object tile, or `None` for a coin.
    pub fn as_object(self) -> Option<ObjectTile> {
        match self {
            Tile::Object(t) => Some(t),
            Tile::Coin => None,
        }
    }
}

impl std::fmt::Display for Tile {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Tile::Object(t) => t.fmt(f),
            Tile::Coin => f.write_str("coin"),
        }
    }
}

impl std::str::FromStr for Tile {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        if s == "coin" {
            Ok(Tile::Coin)
        } else {
            s.parse()
                .map(Tile::Object)
                .map_err(|e| format!("{e}, or \"coin\""))
        }
    }
}

impl TryFrom<String> for Tile {
    type Error = String;
    fn try_from(s: String) -> Result<Self, Self::Error> {
        s.parse()
    }
}

impl From<Tile> for String {
    fn from(t: Tile) -> String {
        t.to_string()
    }
}

/// The letter on an Abyss tile's Power side (advanced version). Abyss tile A is the one that lies
/// in the middle of a 3-4 player basic game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Power {
    A,
    B,
    C,
    D,
    E,
    F,
    G,
    H,
    I,
}

impl Power {
    pub const ALL: [Power; 9] = [
        Power::A,
        Power::B,
        Power::C,
        Power::D,
        Power::E,
        Power::F,
        Power::G,
        Power::H,
        Power::I,
    ];

    pub fn letter(self) -> char {
        match self {
            Power::A => 'A',
            Power::B => 'B',
            Power::C => 'C',
            Power::D => 'D',
            Power::E => 'E',
            Power::F => 'F',
            Power::G => 'G',
            Power::H => 'H',
            Power::I => 'I',
        }
    }
}

impl std::fmt::Display for Power {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.letter())
    }
}

impl std::str::FromStr for Power {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Power::ALL
            .into_iter()
            .find(|p| s.len() == 1 && s.starts_with(p.letter()))
            .ok_or_else(|| format!("unknown Abyss power {s:?}; expected a letter A to I"))
    }
}

/// An Abyss tile in the play area or the supply. Its letter matters in the basic game only for
/// tile A (the second roll in a 3-4 player game); in the advanced version its power is used.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct AbyssTile {
    pub power: Power,
    /// True in the advanced version: the Power side is up and the power can be triggered.
    pub power_side_up: bool,
}

impl std::fmt::Display for AbyssTile {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.power_side_up {
            write!(f, "Abyss tile {} (power side)", self.power)
        } else {
            write!(f, "Abyss tile {}", self.power)
        }
    }
}

/// A scoring category of the final scoring: a background colour (row) or an object type (column).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind", content = "name")]
pub enum Category {
    Background(Background),
    Object(Object),
}

impl Category {
    /// The nine categories: four backgrounds, then five objects.
    pub fn all() -> [Category; 9] {
        [
            Category::Background(Background::White),
            Category::Background(Background::LightBlue),
            Category::Background(Background::DarkBlue),
            Category::Background(Background::Green),
            Category::Object(Object::Starfish),
            Category::Object(Object::Amphora),
            Category::Object(Object::Sextant),
            Category::Object(Object::Pearl),
            Category::Object(Object::Diamond),
        ]
    }

    pub fn name(self) -> &'static str {
        match self {
            Category::Background(b) => b.as_str(),
            Category::Object(o) => o.as_str(),
        }
    }
}

impl std::fmt::Display for Category {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tiles_read_and_write_as_strings() {
        let t: Tile = serde_json::from_str("\"pearl/light_blue\"").unwrap();
        assert_eq!(t, Tile::object(Object::Pearl, Background::LightBlue));
        assert_eq!(serde_json::to_string(&t).unwrap(), "\"pearl/light_blue\"");
        assert_eq!(serde_json::from_str::<Tile>("\"coin\"").unwrap(), Tile::Coin);
        let err = serde_json::from_str::<Tile>("\"pearl/purple\"").unwrap_err();
        assert!(err.to_string().contains("purple"), "{err}");
        assert!("diamonds/white".parse::<Tile>().is_err());
    }

    #[test]
    fn board_order_is_the_rulebook_table_order() {
        assert_eq!(Object::Starfish.index(), 0);
        assert_eq!(Object::Diamond.index(), 4);
        assert_eq!(Background::Green.index(), 3);
        assert_eq!("I".parse::<Power>().unwrap(), Power::I);
        assert!("J".parse::<Power>().is_err());
        assert!("AB".parse::<Power>().is_err());
    }
}
