#pragma once
// The small dialogs of the export actions. Each remembers its last folder (QSettings, by key).
#include <QString>

#include "ui/export/AnimationExport.hpp"
#include "ui/plots/PlotExport.hpp"

class QWidget;

namespace flexarm {

// File (PNG, PDF or SVG by extension) and size / resolution of a plot export. False: cancelled.
bool askPlotExport(QWidget* parent, const QString& key, QString& file, ExportSize& size);
QString askSaveFile(QWidget* parent, const QString& key, const QString& caption, const QString& name, const QString& filter);
// A folder for an export (its `name` under the last folder used, by default): typed, so that a new one
// can be given (the export makes it), or browsed for. Empty: cancelled.
QString askDirectory(QWidget* parent, const QString& key, const QString& caption, const QString& name);
// Folder, frame rate, speed and MP4 choice of an animation export. False: cancelled.
bool askAnimationExport(QWidget* parent, QString& dir, AnimationSettings& settings);
QString describeAnimationOutcome(const AnimationOutcome& o, const QString& dir);

}  // namespace flexarm
