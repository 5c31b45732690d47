//! Octocube: set-ups, cubes, actions and scoring (basic, kids and advanced versions).
