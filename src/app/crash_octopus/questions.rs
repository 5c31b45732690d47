//! "Confirm or override": anything the program is not sure of becomes a [`Question`] for the
//! players, answered by a button, never decided silently.
//!
//! Questions wait in a [`QuestionQueue`], oldest first. Each offers its [`Choice`]s; the chosen
//! [`Answer`] resolves to an event for the rules (a load, a drop), a note for the log on screen, or
//! nothing. Who asks: the players themselves (a drop whose die top is still to be read), and the
//! camera pipeline (a load seen on a ship, two treasures too close to call).
//!
//! When the camera reads the ink die ([`CameraDie`]), the die question is pre-filled with its
//! colour: the first button confirms it, the second overrides it, one click either way. The
//! camera never answers alone: the drop is recorded only when a player clicks.

use crate::games::crash_octopus::{DieTop, Event, Flick, Game, InkDrop, PlayerColor, TreasureType};
use std::collections::VecDeque;

/// A camera reading this confident of the ink die, on a settled table, is said plainly ("the
/// camera reads red"); below it, or while the table moves, it is offered as a guess to check.
pub const CAMERA_DIE_SURE: f64 = 0.8;

/// What the camera reads on top of the ink die (from the live referee's reading).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CameraDie {
    pub top: DieTop,
    /// Vision's confidence in the die (0..1).
    pub confidence: f64,
    /// From the settled, committed reading (not a frame in passing, hands in view).
    pub settled: bool,
}

impl CameraDie {
    /// Settled and at least [`CAMERA_DIE_SURE`] confident.
    pub fn sure(&self) -> bool {
        self.settled && self.confidence >= CAMERA_DIE_SURE
    }
}

fn colour_word(top: DieTop) -> &'static str {
    match top {
        DieTop::Black => "black",
        DieTop::Red => "red",
    }
}

/// What the rules do with this colour (the drop's consequence, for the button).
fn colour_effect(top: DieTop) -> &'static str {
    match top {
        DieTop::Black => "move a tentacle",
        DieTop::Red => "move a head",
    }
}

fn other(top: DieTop) -> DieTop {
    match top {
        DieTop::Black => DieTop::Red,
        DieTop::Red => DieTop::Black,
    }
}

/// Who raised a question.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Origin {
    /// The players, while recording what happened.
    Players,
    /// The camera pipeline (phase 2).
    Vision,
}

/// What is uncertain.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum QuestionKind {
    /// A treasure of this type was seen landing on this player's ship.
    LoadSeen {
        player: PlayerColor,
        treasure: TreasureType,
    },
    /// The closest treasure to this player's ship cannot be told from the runner-up: the rulebook
    /// lets the players choose which one counts as closest. `candidates` describe the treasures
    /// (e.g. `"gold p4, 41 mm"`).
    TooCloseToCall {
        player: PlayerColor,
        candidates: Vec<String>,
    },
    /// A drop hit no ship: which colour is on top of the ink die? The drop is recorded once answered.
    DieTop { drop: InkDrop },
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Question {
    pub id: u64,
    pub kind: QuestionKind,
    pub origin: Origin,
}

/// One possible answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Answer {
    /// The load happened as seen.
    ConfirmLoad,
    /// A different type was loaded.
    LoadedInstead(TreasureType),
    /// The treasure did not stay on the ship: the flick missed.
    Missed,
    /// The players chose which candidate counts as closest (index into `candidates`).
    ChoseClosest(usize),
    /// The die's top colour; `None` when it cannot be read (the roll is invalid).
    Die(Option<DieTop>),
    /// Put the question away without answering (a drop is not recorded).
    Dismiss,
}

/// A button: its label and the answer it gives.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Choice {
    pub label: String,
    pub answer: Answer,
}

/// What an answer leads to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Resolution {
    /// An event to give to the rules.
    Event(Event),
    /// A line for the notes on screen (the rules' record has no place for it).
    Note(String),
    Nothing,
}

impl Question {
    /// The question in plain words.
    pub fn prompt(&self) -> String {
        self.prompt_with(None)
    }

    /// The question in plain words, with what the camera reads on the die (die questions only).
    pub fn prompt_with(&self, camera: Option<&CameraDie>) -> String {
        match (&self.kind, camera) {
            (QuestionKind::DieTop { drop }, Some(c)) if c.sure() => format!(
                "{}'s ink die hit no ship. The camera reads {} on top: confirm, or say what it is.",
                drop.player,
                colour_word(c.top)
            ),
            (QuestionKind::DieTop { drop }, Some(c)) => format!(
                "{}'s ink die hit no ship. Which colour is on top? The camera thinks {}, but is not sure: look at the die.",
                drop.player,
                colour_word(c.top)
            ),
            _ => self.plain_prompt(),
        }
    }

    fn plain_prompt(&self) -> String {
        match &self.kind {
            QuestionKind::LoadSeen { player, treasure } => {
                format!("A {treasure} seems to have landed on {player}'s ship. Did {player} load it?")
            }
            QuestionKind::TooCloseToCall { player, candidates } => format!(
                "Too close to call for {player}: {} are about as close to the ship. The players choose which one counts as closest.",
                candidates.join(" and ")
            ),
            QuestionKind::DieTop { drop } => {
                format!("{}'s ink die hit no ship. Which colour is on top?", drop.player)
            }
        }
    }

    /// The buttons to offer, given the game as it stands.
    pub fn choices(&self, game: &Game) -> Vec<Choice> {
        self.choices_with(game, None)
    }

    /// The buttons to offer, with what the camera reads on the die: for a die question the first
    /// button confirms the camera's colour and the second overrides it.
    pub fn choices_with(&self, game: &Game, camera: Option<&CameraDie>) -> Vec<Choice> {
        match (&self.kind, camera) {
            (QuestionKind::DieTop { .. }, Some(c)) => vec![
                Choice {
                    label: format!("Confirm {}: {}", colour_word(c.top), colour_effect(c.top)),
                    answer: Answer::Die(Some(c.top)),
                },
                Choice {
                    label: format!(
                        "No, it's {}: {}",
                        colour_word(other(c.top)),
                        colour_effect(other(c.top))
                    ),
                    answer: Answer::Die(Some(other(c.top))),
                },
                Choice {
                    label: "Can't tell: the roll is invalid".into(),
                    answer: Answer::Die(None),
                },
                Choice {
                    label: "Cancel this drop".into(),
                    answer: Answer::Dismiss,
                },
            ],
            _ => self.plain_choices(game),
        }
    }

    fn plain_choices(&self, game: &Game) -> Vec<Choice> {
        match &self.kind {
            QuestionKind::LoadSeen { player, treasure } => {
                let mut v = vec![Choice {
                    label: format!("Yes: {player} loaded the {treasure}"),
                    answer: Answer::ConfirmLoad,
                }];
                v.extend(
                    game.loadable(*player)
                        .into_iter()
                        .filter(|t| t != treasure)
                        .map(|t| Choice {
                            label: format!("No, the {t}"),
                            answer: Answer::LoadedInstead(t),
                        }),
                );
                v.push(Choice {
                    label: format!("No: {player} missed the ship"),
                    answer: Answer::Missed,
                });
                v
            }
            QuestionKind::TooCloseToCall { candidates, .. } => candidates
                .iter()
                .enumerate()
                .map(|(i, c)| Choice {
                    label: format!("Closest: {c}"),
                    answer: Answer::ChoseClosest(i),
                })
                .collect(),
            QuestionKind::DieTop { .. } => vec![
                Choice {
                    label: "Black: move a tentacle".into(),
                    answer: Answer::Die(Some(DieTop::Black)),
                },
                Choice {
                    label: "Red: move a head".into(),
                    answer: Answer::Die(Some(DieTop::Red)),
                },
                Choice {
                    label: "Can't tell: the roll is invalid".into(),
                    answer: Answer::Die(None),
                },
                Choice {
                    label: "Cancel this drop".into(),
                    answer: Answer::Dismiss,
                },
            ],
        }
    }

    /// What `answer` leads to.
    pub fn resolve(&self, answer: &Answer) -> Resolution {
        match (&self.kind, answer) {
            (_, Answer::Dismiss) => Resolution::Nothing,
            (QuestionKind::LoadSeen { player, treasure }, a) => {
                let loaded = match a {
                    Answer::ConfirmLoad => Some(*treasure),
                    Answer::LoadedInstead(t) => Some(*t),
                    Answer::Missed => None,
                    _ => return Resolution::Nothing,
                };
                Resolution::Event(Event::Flick(Flick {
                    player: *player,
                    loaded,
                    toppled: vec![],
                }))
            }
            (QuestionKind::TooCloseToCall { player, candidates }, Answer::ChoseClosest(i)) => {
                match candidates.get(*i) {
                    Some(c) => Resolution::Note(format!(
                        "The players agreed that {c} counts as the closest treasure to {player}'s ship."
                    )),
                    None => Resolution::Nothing,
                }
            }
            (QuestionKind::DieTop { drop }, Answer::Die(top)) => Resolution::Event(Event::Drop(InkDrop {
                top: *top,
                ..drop.clone()
            })),
            _ => Resolution::Nothing,
        }
    }
}

/// Questions waiting for an answer, oldest first.
#[derive(Debug, Default)]
pub struct QuestionQueue {
    next_id: u64,
    items: VecDeque<Question>,
}

impl QuestionQueue {
    /// Adds a question; returns its id.
    pub fn ask(&mut self, kind: QuestionKind, origin: Origin) -> u64 {
        self.next_id += 1;
        self.items.push_back(Question {
            id: self.next_id,
            kind,
            origin,
        });
        self.next_id
    }

    /// The oldest question, the one to answer now.
    pub fn first(&self) -> Option<&Question> {
        self.items.front()
    }

    pub fn iter(&self) -> impl Iterator<Item = &Question> {
        self.items.iter()
    }

    pub fn len(&self) -> usize {
        self.items.len()
    }

    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    /// Removes and returns the question with this id.
    pub fn take(&mut self, id: u64) -> Option<Question> {
        let i = self.items.iter().position(|q| q.id == id)?;
        self.items.remove(i)
    }

    /// Puts a question back at the front (its answer was refused by the rules: ask again).
    pub fn put_back(&mut self, q: Question) {
        self.items.push_front(q);
    }

    pub fn clear(&mut self) {
        self.items.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::crash_octopus::{Modules, Record};
    use PlayerColor::*;
    use TreasureType::*;

    fn game() -> Game {
        Game::replay(&Record::new(vec![Orange, Green], Modules::default())).unwrap()
    }

    #[test]
    fn a_load_seen_is_confirmed_or_overridden_into_a_flick() {
        let q = Question {
            id: 1,
            kind: QuestionKind::LoadSeen {
                player: Orange,
                treasure: Gold,
            },
            origin: Origin::Vision,
        };
        let choices = q.choices(&game());
        assert_eq!(choices[0].label, "Yes: orange loaded the gold");
        assert!(choices.iter().any(|c| c.answer == Answer::LoadedInstead(Gem)));
        assert!(!choices.iter().any(|c| c.answer == Answer::LoadedInstead(Gold)));
        assert_eq!(choices.last().unwrap().answer, Answer::Missed);
        let flick = |loaded| {
            Resolution::Event(Event::Flick(Flick {
                player: Orange,
                loaded,
                toppled: vec![],
            }))
        };
        assert_eq!(q.resolve(&Answer::ConfirmLoad), flick(Some(Gold)));
        assert_eq!(q.resolve(&Answer::LoadedInstead(Chest)), flick(Some(Chest)));
        assert_eq!(q.resolve(&Answer::Missed), flick(None));
        assert_eq!(q.resolve(&Answer::Dismiss), Resolution::Nothing);
    }

    #[test]
    fn the_die_question_completes_the_drop() {
        let drop = InkDrop {
            player: Green,
            hit_ship: None,
            toppled: vec![],
            top: None,
            head: None,
            stolen: vec![],
        };
        let q = Question {
            id: 1,
            kind: QuestionKind::DieTop { drop: drop.clone() },
            origin: Origin::Players,
        };
        assert!(q.prompt().contains("green's ink die"));
        assert_eq!(q.choices(&game()).len(), 4);
        assert_eq!(
            q.resolve(&Answer::Die(Some(DieTop::Red))),
            Resolution::Event(Event::Drop(InkDrop {
                top: Some(DieTop::Red),
                ..drop
            }))
        );
    }

    #[test]
    fn the_cameras_die_colour_is_offered_first_and_can_be_overridden() {
        let drop = InkDrop {
            player: Orange,
            hit_ship: None,
            toppled: vec![],
            top: None,
            head: None,
            stolen: vec![],
        };
        let q = Question {
            id: 1,
            kind: QuestionKind::DieTop { drop: drop.clone() },
            origin: Origin::Players,
        };
        let sure = CameraDie {
            top: DieTop::Red,
            confidence: 0.95,
            settled: true,
        };
        assert!(q.prompt_with(Some(&sure)).contains("The camera reads red"));
        let choices = q.choices_with(&game(), Some(&sure));
        assert_eq!(choices[0].label, "Confirm red: move a head");
        assert_eq!(choices[0].answer, Answer::Die(Some(DieTop::Red)));
        assert_eq!(choices[1].label, "No, it's black: move a tentacle");
        assert_eq!(
            q.resolve(&choices[1].answer),
            Resolution::Event(Event::Drop(InkDrop {
                top: Some(DieTop::Black),
                ..drop
            }))
        );
        // Unsure (moving table, or low confidence): still pre-filled, but said as a guess.
        for unsure in [
            CameraDie {
                settled: false,
                ..sure
            },
            CameraDie {
                confidence: 0.5,
                ..sure
            },
        ] {
            assert!(!unsure.sure());
            let p = q.prompt_with(Some(&unsure));
            assert!(p.contains("thinks red") && p.contains("not sure"), "{p}");
            assert_eq!(
                q.choices_with(&game(), Some(&unsure))[0].answer,
                Answer::Die(Some(DieTop::Red))
            );
        }
        // No camera: the plain question, black first as before.
        assert_eq!(q.prompt_with(None), q.prompt());
        assert_eq!(q.choices_with(&game(), None), q.choices(&game()));
        assert_eq!(q.choices(&game())[0].label, "Black: move a tentacle");
        // Other questions ignore the die reading.
        let load = Question {
            id: 2,
            kind: QuestionKind::LoadSeen {
                player: Orange,
                treasure: Gold,
            },
            origin: Origin::Vision,
        };
        assert_eq!(load.choices_with(&game(), Some(&sure)), load.choices(&game()));
    }

    #[test]
    fn too_close_to_call_becomes_the_players_note() {
        let q = Question {
            id: 1,
            kind: QuestionKind::TooCloseToCall {
                player: Blue,
                candidates: vec!["gold p4".into(), "gem p7".into()],
            },
            origin: Origin::Vision,
        };
        match q.resolve(&Answer::ChoseClosest(1)) {
            Resolution::Note(n) => assert!(n.contains("gem p7") && n.contains("blue")),
            other => panic!("{other:?}"),
        }
        assert_eq!(q.resolve(&Answer::ChoseClosest(5)), Resolution::Nothing);
    }

    #[test]
    fn the_queue_answers_oldest_first_and_can_ask_again() {
        let mut qq = QuestionQueue::default();
        let a = qq.ask(
            QuestionKind::LoadSeen {
                player: Orange,
                treasure: Gold,
            },
            Origin::Vision,
        );
        let b = qq.ask(
            QuestionKind::LoadSeen {
                player: Green,
                treasure: Gem,
            },
            Origin::Vision,
        );
        assert_eq!(qq.first().unwrap().id, a);
        let q = qq.take(a).unwrap();
        assert_eq!(qq.first().unwrap().id, b);
        qq.put_back(q);
        assert_eq!(qq.first().unwrap().id, a);
        assert_eq!(qq.len(), 2);
    }
}
