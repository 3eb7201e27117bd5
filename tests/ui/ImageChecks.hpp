#pragma once
// Pixel checks shared by the workbench's Qt tests.
#include <QImage>
#include <cstdlib>

// Pixels (every other row and column) that differ clearly from the top-left corner's colour.
inline int nonBackgroundPixels(const QImage& img) {
  const QRgb corner = img.pixel(2, 2);
  int n = 0;
  for (int y = 0; y < img.height(); y += 2)
    for (int x = 0; x < img.width(); x += 2) {
      const QRgb p = img.pixel(x, y);
      if (std::abs(qRed(p) - qRed(corner)) + std::abs(qGreen(p) - qGreen(corner)) + std::abs(qBlue(p) - qBlue(corner)) > 60) ++n;
    }
  return n;
}
