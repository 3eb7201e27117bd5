#include "ui/export/AnimationExport.hpp"

#include <QDir>
#include <QProcess>
#include <QStandardPaths>
#include <cmath>

#include "base/Files.hpp"

namespace flexarm {

QString ffmpegProgram() { return QStandardPaths::findExecutable("ffmpeg"); }

std::string writePngFile(const QImage& image, const QString& file) {
  const Status written = writeFileThrough(file.toStdString(), [&image](const std::filesystem::path& tmp) {
    return image.save(QString::fromStdString(tmp.string()), "PNG") ? std::string() : std::string("the image could not be saved");
  });
  return written ? std::string() : written.error().text();
}

AnimationOutcome exportAnimation(const std::function<QImage(double)>& frame, double t0, double t1, const QString& dir,
                                 const AnimationSettings& settings, const std::function<bool(int, int)>& progress) {
  AnimationOutcome out;
  if (!(settings.fps > 0 && settings.fps <= 240)) {
    out.error = "frame rate must be between 0 and 240 frames per second";
    return out;
  }
  if (!(settings.speed > 0 && std::isfinite(settings.speed))) {
    out.error = "playback speed must be a positive number";
    return out;
  }
  if (!(t1 >= t0)) {
    out.error = "nothing to animate: run the project first";
    return out;
  }
  if (!QDir().mkpath(dir)) {
    out.error = "cannot create \"" + dir.toStdString() + "\"";
    return out;
  }
  const double dt = settings.speed / settings.fps;
  const int total = static_cast<int>(std::floor((t1 - t0) / dt + 1e-9)) + 1;
  if (total > 100000) {
    out.error = std::to_string(total) + " frames is too many: lower the frame rate or raise the speed";
    return out;
  }
  QSize size;
  for (int k = 0; k < total; ++k) {
    if (progress && !progress(k, total)) {
      out.note = "cancelled after " + std::to_string(k) + " frames";
      return out;
    }
    QImage img = frame(std::min(t0 + k * dt, t1));
    if (img.isNull()) {
      out.error = "frame " + std::to_string(k) + " could not be rendered";
      return out;
    }
    if (size.isEmpty()) size = img.size();
    const QString file = QDir(dir).filePath(QString("frame_%1.png").arg(k, 5, 10, QChar('0')));
    if (std::string why = writePngFile(img, file); !why.empty()) {
      out.error = why;
      return out;
    }
    ++out.frames;
  }
  if (!settings.mp4) return out;
  const QString ffmpeg = ffmpegProgram();
  if (ffmpeg.isEmpty()) {
    out.note = "ffmpeg is not installed: the PNG frames are written, no MP4";
    return out;
  }
  const QString mp4 = QDir(dir).filePath("animation.mp4");
  QProcess p;
  p.setProcessChannelMode(QProcess::MergedChannels);
  // yuv420p needs even dimensions: pad by one pixel where needed.
  p.start(ffmpeg,
          {"-y", "-loglevel", "error", "-framerate", QString::number(settings.fps), "-i", QDir(dir).filePath("frame_%05d.png"),
           "-vf", "pad=ceil(iw/2)*2:ceil(ih/2)*2", "-c:v", "libx264", "-pix_fmt", "yuv420p", mp4});
  if (!p.waitForFinished(600000) || p.exitStatus() != QProcess::NormalExit || p.exitCode() != 0) {
    out.error = "ffmpeg failed: " + QString::fromLocal8Bit(p.readAll()).trimmed().toStdString();
    return out;
  }
  out.mp4 = mp4;
  return out;
}

}  // namespace flexarm
