//! Calibration: board capture -> profile (homography, pose, ocean, counter, empty reference).
