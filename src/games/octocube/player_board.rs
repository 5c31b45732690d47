//! The basic side of a player board: 4 rows (backgrounds) x 5 columns (objects); identical tiles
//! are stacked on their space, so the board is a grid of counts.
//!
//! In files it is written as the `tiles` field of `octoref score octocube`:
//! `{"starfish": {"white": 2, "light_blue": 1}, "pearl": {"dark_blue": 3}}` (missing = 0).

use super::tile::{Background, Category, Object, ObjectTile};
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

impl<'de> Deserialize<'de> for TileCounts {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let map = BTreeMap::<Object, BTreeMap<Background, u32>>::deserialize(d)?;
        let mut counts = TileCounts::default();
        for (object, row) in map {
            for (background, n) in row {
                counts.set(object, background, n);
            }
        }
        Ok(counts)
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
