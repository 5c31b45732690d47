//! The Octo-Counter's bead sequence, from the start (blue end) to the finish.
//!
//! Written as a string of `B` (blue) and `K` (black), e.g. the default `BBBKBBBKBBKBBKKK`
//! (`assets/crash_octopus.toml`). The crab starts before the first bead.

use serde::{Deserialize, Serialize};

/// Most beads a sequence may have. The box's Octo-Counter has 16; a home-made longer string is
/// fine up to this, and the limit keeps a hostile record from making every event copy megabytes.
pub const MAX_BEADS: usize = 256;

/// One bead of the Octo-Counter.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Bead {
    #[serde(rename = "B")]
    Blue,
    #[serde(rename = "K")]
    Black,
}

impl Bead {
    pub fn letter(self) -> char {
        match self {
            Bead::Blue => 'B',
            Bead::Black => 'K',
        }
    }
}

/// The beads in order from start to finish. Serialises as the `"BBBK..."` string.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct BeadSequence(pub Vec<Bead>);

impl BeadSequence {
    pub fn len(&self) -> usize {
        self.0.len()
    }
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
    pub fn get(&self, i: usize) -> Option<Bead> {
        self.0.get(i).copied()
    }
}

impl std::fmt::Display for BeadSequence {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for b in &self.0 {
            write!(f, "{}", b.letter())?;
        }
        Ok(())
    }
}

impl std::str::FromStr for BeadSequence {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let count = s.chars().count();
        if count > MAX_BEADS {
            return Err(format!(
                "{count} beads; expected at most {MAX_BEADS} B/K letters (the box's counter has 16)"
            ));
        }
        let beads = s
            .chars()
            .enumerate()
            .map(|(i, c)| match c {
                'B' | 'b' => Ok(Bead::Blue),
                'K' | 'k' => Ok(Bead::Black),
                // Non-ASCII look-alikes (the Kelvin sign U+212A shows as K) get their code point.
                other => Err(format!(
                    "bead {} is {other:?}{}; expected B (blue) or K (black), e.g. \"BBBKBBBKBBKBBKKK\"",
                    i + 1,
                    if other.is_ascii() {
                        String::new()
                    } else {
                        format!(" (U+{:04X})", u32::from(other))
                    }
                )),
            })
            .collect::<Result<Vec<_>, _>>()?;
        if beads.is_empty() {
            return Err("the bead sequence is empty; expected B/K letters, e.g. \"BBBKBBBKBBKBBKKK\"".into());
        }
        Ok(BeadSequence(beads))
    }
}

impl TryFrom<String> for BeadSequence {
    type Error = String;
    fn try_from(s: String) -> Result<Self, Self::Error> {
        s.parse()
    }
}

impl From<BeadSequence> for String {
    fn from(b: BeadSequence) -> Self {
        b.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_the_default_sequence() {
        let s: BeadSequence = "BBBKBBBKBBKBBKKK".parse().unwrap();
        assert_eq!(s.len(), 16);
        assert_eq!(s.get(3), Some(Bead::Black));
        assert_eq!(s.to_string(), "BBBKBBBKBBKBBKKK");
        assert!("BBX".parse::<BeadSequence>().unwrap_err().contains("bead 3"));
        let kelvin = "BB\u{212A}".parse::<BeadSequence>().unwrap_err();
        assert!(kelvin.contains("bead 3") && kelvin.contains("U+212A"), "{kelvin}");
        assert!("B".repeat(MAX_BEADS).parse::<BeadSequence>().is_ok());
        let err = "B".repeat(MAX_BEADS + 1).parse::<BeadSequence>().unwrap_err();
        assert!(err.contains("at most 256"), "{err}");
    }
}
