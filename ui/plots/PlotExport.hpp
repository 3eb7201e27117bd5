#pragma once
// Plots to files: PNG (chosen pixel size, DPI written into the file), PDF and SVG (vector). Works
// in the workbench and headless (flexarm-cli creates a QApplication on Qt's offscreen platform).
#include <QString>
#include <string>

#include "ui/plots/PlotFigure.hpp"

class QCustomPlot;

namespace flexarm {

struct ExportSize {
  int width = 1200;  // [px] (PDF and SVG: the drawing's size in points / user units)
  int height = 700;  // [px]
  double dpi = 150;  // PNG resolution stored in the file [dots per inch]
};

// Writes the plot; the format follows the extension (.png, .pdf, .svg). Returns "" or the reason.
std::string exportPlot(QCustomPlot* plot, const QString& file, const ExportSize& size);

// Draws the figure on an off-screen plot and writes it (needs a QApplication; see ensureQtApplication).
std::string exportFigure(const Figure& figure, const QString& file, const ExportSize& size);

// A QApplication on the offscreen platform when none exists (headless export from the command line).
void ensureQtApplication();

}  // namespace flexarm
