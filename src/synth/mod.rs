//! The synthetic table: renders Crash Octopus scenes with exact ground truth from a seed.
