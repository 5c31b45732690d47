//! Otto the Octopus: the board, tiles, placement legality, scoring and turns.
