//! Helpers shared by the fuzz targets: splitting one input into several files, and the
//! invariants a target checks on whatever it managed to build.

use octoref::games::otto::{Board, Edge, Tile};
use std::path::{Path, PathBuf};

/// The name every fuzzed file goes by in error messages.
pub fn fuzz_path() -> &'static Path {
    Path::new("fuzz-input.json")
}

/// Splits an input at NUL bytes into at most `n` parts: a record followed by the files it names
/// (e.g. `record \0 board.toml \0 tiles.toml`). Missing parts are empty.
pub fn split_parts(data: &[u8], n: usize) -> Vec<&[u8]> {
    let mut parts: Vec<&[u8]> = data.splitn(n, |&b| b == 0).collect();
    parts.resize(n, &[]);
    parts
}

/// A scratch file path private to this process, for loaders that only take paths.
pub fn scratch_file(name: &str) -> PathBuf {
    let dir = if Path::new("/dev/shm").is_dir() {
        PathBuf::from("/dev/shm")
    } else {
        std::env::temp_dir()
    };
    dir.join(format!("octoref-fuzz-{}-{name}", std::process::id()))
}

/// Checks "an Otto board never holds two joined arms", independently of the arm tracer: two
/// adjacent tiles whose open edges face each other are consecutive tiles of one arm, every Arm and
/// End tile belongs to an arm, and every arm is completed or has an open end. Panics (a fuzzer
/// finding) when it does not hold.
pub fn assert_no_joined_arms(b: &Board) {
    let layout = b.layout();
    let edges = |t: &Tile| -> Vec<Edge> {
        match t {
            Tile::Arm(a) => vec![a.from, a.to],
            Tile::End(e) => vec![e.from],
            _ => Vec::new(),
        }
    };
    let arm_of = |cell| b.arms().iter().position(|a| a.covered().contains(&cell));
    for cell in layout.cells() {
        let Some(t) = b.tile_at(cell) else { continue };
        if matches!(t, Tile::Arm(_) | Tile::End(_)) {
            assert!(arm_of(cell).is_some(), "{cell} belongs to no arm");
        }
        for e in edges(t) {
            let Some(n) = layout.neighbour(cell, e) else {
                continue;
            };
            let Some(other) = b.tile_at(n) else { continue };
            if edges(other).contains(&e.opposite()) {
                assert_eq!(arm_of(cell), arm_of(n), "{cell} and {n} join two arms");
            }
        }
    }
    for a in b.arms() {
        assert!(
            a.is_completed() || a.open_end().is_some(),
            "arm {} is stuck",
            a.socket_cell
        );
    }
}
