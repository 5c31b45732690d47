//! Events the rules do not allow at that moment. Every message says what was expected instead; the
//! backquoted name is the event's field the error is about.

use super::event::Head;
use super::player::PlayerColor;
use super::treasure::TreasureType;

/// An event the rules refuse. A refused event changes nothing in the game.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RuleError {
    #[error("the game is over ({reason}); no more events are expected")]
    GameOver { reason: String },

    #[error("`{field}`: {player} is not playing; expected one of {players}")]
    UnknownPlayer {
        field: &'static str,
        player: PlayerColor,
        players: String,
    },

    #[error("it is {expected}'s turn, not {got}'s; expected a {action} by {expected}")]
    NotYourTurn {
        expected: PlayerColor,
        got: PlayerColor,
        action: &'static str,
    },

    #[error("an octopus attack is under way; expected a drop by {expected}, got a {got_kind} by {got}")]
    AttackUnderWay {
        expected: PlayerColor,
        got: PlayerColor,
        got_kind: &'static str,
    },

    #[error("expected a drop by {expected} (drop order: {order}), got one by {got}")]
    ExpectedDrop {
        expected: PlayerColor,
        got: PlayerColor,
        order: String,
    },

    #[error("no octopus attack is under way, so nobody drops the ink die; expected a {action} by {expected}")]
    DropWithoutAttack {
        expected: PlayerColor,
        action: &'static str,
    },

    #[error("the Pink Pirate's only action is the Octo-Canon; expected a canon by pink, got a {got_kind}")]
    PirateUsesCanon { got_kind: &'static str },

    #[error("only the Pink Pirate flicks the Octo-Canon; expected a flick or navigate by {player}")]
    CanonNotPirate { player: PlayerColor },

    #[error("`{field}`: the {treasure} is not in this game; expected one of {in_play}")]
    NotInPlay {
        field: &'static str,
        treasure: TreasureType,
        in_play: String,
    },

    #[error("`{field}`: the {treasure} is listed twice; expected each type at most once")]
    ListedTwice {
        field: &'static str,
        treasure: TreasureType,
    },

    #[error(
        "`{field}`: {player} already has the {treasure} on its ship and may not load a second one (BAD No.2); expected a type it does not hold"
    )]
    AlreadyLoaded {
        field: &'static str,
        player: PlayerColor,
        treasure: TreasureType,
    },

    #[error(
        "`{field}`: no {treasure} is left in the ocean (all {count} are on ships: {holders}); expected a type still in the ocean"
    )]
    NoneInOcean {
        field: &'static str,
        treasure: TreasureType,
        count: u8,
        holders: String,
    },

    #[error(
        "`{field}`: the {treasure} is not loaded on {ship}'s ship; expected some of what it holds: {loaded}"
    )]
    NotOnShip {
        field: &'static str,
        ship: PlayerColor,
        treasure: TreasureType,
        loaded: String,
    },

    #[error(
        "`toppled` lists {toppled} but the die hit no ship; expected `hit_ship` to say whose ship lost them"
    )]
    ToppledWithoutHit { toppled: String },

    #[error("`stolen`: only the Pink Pirate steals, {player} cannot; expected no `stolen`")]
    StealByNonPirate { player: PlayerColor },

    #[error("`stolen`: the {treasure} did not topple in this drop; expected some of `toppled`: {toppled}")]
    StolenNotToppled { treasure: TreasureType, toppled: String },

    #[error(
        "`stolen`: the Pirate already has the {treasure}, so it stays in the ocean; expected types the Pirate does not hold"
    )]
    StolenAlreadyHeld { treasure: TreasureType },

    #[error(
        "`stolen`: the Pirate hit its own ship, and what falls off it stays in the ocean; expected no `stolen`"
    )]
    StolenFromOwnShip,

    #[error(
        "`{field}` needs the {module} module; expected it left out, or \"modules\": {{\"{module}\": true}}"
    )]
    ModuleOff {
        field: &'static str,
        module: &'static str,
    },

    #[error(
        "`head`: the Pirate's solo attack may drop the die only on the head its canon touched ({touched}); got {got}"
    )]
    WrongHead { touched: Head, got: Head },

    #[error(
        "`head` says which octopus head the canon touched, but `touched_head` is false; expected touched_head: true, or no head"
    )]
    HeadWithoutTouch,

    #[error(
        "`island`: {player}'s {piece} was the closest to the island at the start of the turn, so {player} may not collect its treasure; expected no island treasure"
    )]
    ClosestToIsland {
        player: PlayerColor,
        piece: &'static str,
    },

    #[error(
        "`island`: a failed {action} collects nothing (the {piece} left the ocean); expected `island` false when `failed` is true"
    )]
    IslandOnFailure {
        action: &'static str,
        piece: &'static str,
    },
}
