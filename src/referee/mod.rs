//! The referee: joins a settled table reading with the game state into rulings. No OpenCV.
