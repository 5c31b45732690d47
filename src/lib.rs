//! octoref: a camera referee for octopus tabletop games.
//!
//! Data flows `capture -> vision -> referee -> app/cli`; `games` holds the pure rules and `table`
//! the shared geometry and vocabulary (see `DESIGN.md`). Dependencies point one way: `games` and
//! `table` depend on nothing else of ours; nothing imports `app` or `cli`.

pub mod app;
pub mod calibrate;
pub mod capture;
pub mod cli;
pub mod clock;
pub mod fsutil;
pub mod games;
pub mod live;
pub mod referee;
pub mod synth;
pub mod table;
pub mod vision;
