//! Frame sources: live camera (nokhwa), video file, image folder, the synthetic demo.
