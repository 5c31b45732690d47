//! The game panel's forms: what the players tick before pressing a button, and the events the
//! buttons make from them. The rules check the events; the forms only collect them.

use crate::games::crash_octopus::{Canon, Event, Flick, Head, InkDrop, Navigate, PlayerColor, TreasureType};
use std::collections::BTreeSet;

/// A sailor's turn.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TurnForm {
    /// The flicker's own loaded types knocked off by the hit.
    pub toppled: BTreeSet<TreasureType>,
    /// Nameless Island: the type collected by the anchor.
    pub island: Option<TreasureType>,
    /// Nameless Island: whose anchor (or canon) was closest to it at the start of the turn.
    pub closest_to_island: Option<PlayerColor>,
}

impl TurnForm {
    pub fn flick(&self, player: PlayerColor, loaded: Option<TreasureType>) -> Event {
        Event::Flick(Flick {
            player,
            loaded,
            toppled: self.toppled.iter().copied().collect(),
        })
    }

    pub fn navigate(&self, player: PlayerColor, failed: bool) -> Event {
        Event::Navigate(Navigate {
            player,
            failed,
            island: if failed { None } else { self.island },
            closest_to_island: self.closest_to_island,
        })
    }
}

/// The Pink Pirate's turn.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CanonForm {
    pub touched_head: bool,
    /// Little Octopus module: which head the canon touched.
    pub head: Head,
    pub island: Option<TreasureType>,
    pub closest_to_island: Option<PlayerColor>,
    /// The canon left the ocean.
    pub failed: bool,
}

impl CanonForm {
    /// `little_octopus`: whether the module is on (the head is written only then).
    pub fn canon(&self, player: PlayerColor, little_octopus: bool) -> Event {
        Event::Canon(Canon {
            player,
            touched_head: self.touched_head,
            head: (self.touched_head && little_octopus).then_some(self.head),
            island: if self.failed { None } else { self.island },
            closest_to_island: self.closest_to_island,
            failed: self.failed,
        })
    }
}

/// One drop of the ink die.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct DropForm {
    pub hit_ship: Option<PlayerColor>,
    /// That ship's types that fell.
    pub toppled: BTreeSet<TreasureType>,
    /// What the Pirate steals of them.
    pub stolen: BTreeSet<TreasureType>,
    /// Little Octopus module: the head the die was dropped on.
    pub head: Head,
}

impl DropForm {
    /// The drop as set; the die's top is asked separately when no ship was hit.
    pub fn drop(&self, player: PlayerColor, little_octopus: bool) -> InkDrop {
        let toppled: Vec<TreasureType> = match self.hit_ship {
            Some(_) => self.toppled.iter().copied().collect(),
            None => Vec::new(),
        };
        InkDrop {
            player,
            hit_ship: self.hit_ship,
            stolen: self
                .stolen
                .iter()
                .copied()
                .filter(|t| toppled.contains(t))
                .collect(),
            toppled,
            top: None,
            head: little_octopus.then_some(self.head),
        }
    }

    /// Chooses the ship hit; what was ticked for another ship no longer applies.
    pub fn set_hit_ship(&mut self, ship: Option<PlayerColor>) {
        if self.hit_ship != ship {
            self.hit_ship = ship;
            self.toppled.clear();
            self.stolen.clear();
        }
    }
}

/// Every form of the game panel; reset after each accepted event.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Forms {
    pub turn: TurnForm,
    pub canon: CanonForm,
    pub drop: DropForm,
}

#[cfg(test)]
mod tests {
    use super::*;
    use PlayerColor::*;
    use TreasureType::*;

    #[test]
    fn forms_make_the_events_the_record_format_describes() {
        let mut t = TurnForm::default();
        t.toppled.insert(Gold);
        assert_eq!(
            t.flick(Orange, Some(Gem)),
            Event::Flick(Flick {
                player: Orange,
                loaded: Some(Gem),
                toppled: vec![Gold]
            })
        );
        t.island = Some(Chest);
        match t.navigate(Orange, true) {
            Event::Navigate(n) => assert!(n.failed && n.island.is_none()),
            e => panic!("{e:?}"),
        }
        let c = CanonForm {
            touched_head: true,
            head: Head::Little,
            ..CanonForm::default()
        };
        match c.canon(Pink, false) {
            Event::Canon(c) => assert!(c.touched_head && c.head.is_none()),
            e => panic!("{e:?}"),
        }
    }

    #[test]
    fn a_drop_keeps_only_what_fits_the_ship_hit() {
        let mut d = DropForm::default();
        d.set_hit_ship(Some(Orange));
        d.toppled.insert(Gold);
        d.stolen.insert(Gold);
        d.stolen.insert(Gem);
        let drop = d.drop(Pink, true);
        assert_eq!(drop.toppled, vec![Gold]);
        assert_eq!(drop.stolen, vec![Gold]);
        assert_eq!(drop.head, Some(Head::Giant));
        d.set_hit_ship(Some(Green));
        assert!(d.toppled.is_empty() && d.stolen.is_empty());
        d.set_hit_ship(None);
        assert!(d.drop(Green, false).toppled.is_empty());
    }
}
