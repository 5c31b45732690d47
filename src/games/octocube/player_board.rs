//! The basic side of a player board: 4 rows (backgrounds) x 5 columns (objects); identical tiles
//! are stacked on their space, so the board is a grid of counts.
//!
//! In files it is written as the `tiles` field of `octoref score octocube`:
//! `{"starfish": {"white": 2, "light_blue": 1}, "pearl": {"dark_blue": 3}}` (missing = 0).

use super::tile::{Background, Category, Object, ObjectTile};
use serde::de::{self, MapAccess, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::collections::BTreeMap;

/// Tile counts per (background, object) space of a player board.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct TileCounts {
    /// `[background.index()][object.index()]`.
    counts: [[u32; 5]; 4],
}

impl TileCounts {
    pub fn get(&self, object: Object, background: Background) -> u32 {
        self.counts[background.index()][object.index()]
    }

    pub fn set(&mut self, object: Object, background: Background, count: u32) {
        self.counts[background.index()][object.index()] = count;
    }

    /// Puts one tile on its matching space.
    pub fn add(&mut self, tile: ObjectTile) {
        let c = &mut self.counts[tile.background.index()][tile.object.index()];
        *c = c.saturating_add(1);
    }

    /// Takes one tile off its space; false (and nothing changes) when the space is empty.
    pub fn remove(&mut self, tile: ObjectTile) -> bool {
        let c = &mut self.counts[tile.background.index()][tile.object.index()];
        if *c == 0 {
            return false;
        }
        *c -= 1;
        true
    }

    /// Tiles of one object type, whatever their background (a column).
    pub fn object_total(&self, object: Object) -> u32 {
        Background::ALL
            .iter()
            .fold(0u32, |acc, b| acc.saturating_add(self.get(object, *b)))
    }

    /// Tiles of one background colour, whatever their object (a row).
    pub fn background_total(&self, background: Background) -> u32 {
        Object::ALL
            .iter()
            .fold(0u32, |acc, o| acc.saturating_add(self.get(*o, background)))
    }

    pub fn category_total(&self, category: Category) -> u32 {
        match category {
            Category::Background(b) => self.background_total(b),
            Category::Object(o) => self.object_total(o),
        }
    }

    /// All object tiles on the board (the winner's tie-break).
    pub fn total(&self) -> u32 {
        Object::ALL
            .iter()
            .fold(0u32, |acc, o| acc.saturating_add(self.object_total(*o)))
    }

    /// Every non-empty space with its count, row by row.
    pub fn iter(&self) -> impl Iterator<Item = (ObjectTile, u32)> + '_ {
        Background::ALL.into_iter().flat_map(move |b| {
            Object::ALL
                .into_iter()
                .map(move |o| (ObjectTile::new(o, b), self.get(o, b)))
                .filter(|(_, n)| *n > 0)
        })
    }
}

impl Serialize for TileCounts {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map: BTreeMap<Object, BTreeMap<Background, u32>> = BTreeMap::new();
        for (tile, n) in self.iter() {
            map.entry(tile.object).or_default().insert(tile.background, n);
        }
        map.serialize(s)
    }
}

/// Reads `{"object": {"background": count}}`, naming an unknown or repeated key in the error
/// (the JSON path then ends at the map holding it, e.g. `players[0].tiles.pearl`).
impl<'de> Deserialize<'de> for TileCounts {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_map(CountsVisitor)
    }
}

struct CountsVisitor;

impl<'de> Visitor<'de> for CountsVisitor {
    type Value = TileCounts;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a map from object to {background: count}, e.g. {\"pearl\": {\"white\": 2}}")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<TileCounts, A::Error> {
        let mut counts = TileCounts::default();
        let mut seen = Vec::new();
        while let Some(key) = map.next_key::<String>()? {
            let object: Object = key.parse().map_err(de::Error::custom)?;
            if seen.contains(&object) {
                return Err(de::Error::custom(format!("{object} is listed twice")));
            }
            seen.push(object);
            let Row(row) = map.next_value()?;
            for (background, n) in row {
                counts.set(object, background, n);
            }
        }
        Ok(counts)
    }
}

/// One object's counts per background.
struct Row(Vec<(Background, u32)>);

impl<'de> Deserialize<'de> for Row {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_map(RowVisitor)
    }
}

struct RowVisitor;

impl<'de> Visitor<'de> for RowVisitor {
    type Value = Row;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a map from background to count, e.g. {\"white\": 2, \"green\": 1}")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Row, A::Error> {
        let mut row: Vec<(Background, u32)> = Vec::new();
        while let Some(key) = map.next_key::<String>()? {
            let background: Background = key.parse().map_err(de::Error::custom)?;
            if row.iter().any(|(b, _)| *b == background) {
                return Err(de::Error::custom(format!("{background} is listed twice")));
            }
            let n: u32 = map.next_value()?;
            row.push((background, n));
        }
        Ok(Row(row))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_round_trip_and_sum_by_row_and_column() {
        let c: TileCounts = serde_json::from_str(
            r#"{"starfish": {"white": 2, "light_blue": 1}, "pearl": {"dark_blue": 3, "white": 0}}"#,
        )
        .unwrap();
        assert_eq!(c.object_total(Object::Starfish), 3);
        assert_eq!(c.background_total(Background::White), 2);
        assert_eq!(c.category_total(Category::Background(Background::DarkBlue)), 3);
        assert_eq!(c.total(), 6);
        let back: TileCounts = serde_json::from_str(&serde_json::to_string(&c).unwrap()).unwrap();
        assert_eq!(back, c);
        assert!(!serde_json::to_string(&c).unwrap().contains("\"white\":0"));
    }

    #[test]
    fn remove_refuses_an_empty_space() {
        let mut c = TileCounts::default();
        let t = ObjectTile::new(Object::Pearl, Background::Green);
        assert!(!c.remove(t));
        c.add(t);
        assert!(c.remove(t));
        assert_eq!(c.total(), 0);
    }
}
