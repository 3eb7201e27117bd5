#pragma once
// An animation to files: PNG frames (frame_00000.png, ...) at a chosen frame rate and playback
// speed, then, when ffmpeg is installed, an H.264 MP4 made from them (animation.mp4).
#include <QImage>
#include <QString>
#include <functional>
#include <string>

namespace flexarm {

struct AnimationSettings {
  double fps = 25.0;   // frames per second of the animation
  double speed = 1.0;  // simulated seconds per second of animation
  bool mp4 = true;     // also encode animation.mp4 (when ffmpeg is found)
};

struct AnimationOutcome {
  std::string error;  // empty on success
  int frames = 0;
  QString mp4;       // the MP4 written, or empty
  std::string note;  // e.g. why no MP4 was made
};

// ffmpeg's path, or empty when it is not installed.
QString ffmpegProgram();

// Writes `image` as a PNG through a temporary file and a rename: an earlier file stays whole when it fails.
// Empty, or why it could not be written.
std::string writePngFile(const QImage& image, const QString& file);

// Frames at t0, t0 + speed/fps, ... up to t1 (t1 included); frame(t) renders one. progress(done, total)
// returning false cancels (the frames so far are kept, no MP4).
AnimationOutcome exportAnimation(const std::function<QImage(double)>& frame, double t0, double t1, const QString& dir,
                                 const AnimationSettings& settings, const std::function<bool(int, int)>& progress = {});

}  // namespace flexarm
