#pragma once
// The export actions, each a small class shared by the main window and the compare window (ParaView's
// reactions): trigger() asks its dialog and exports, exportTo() exports without asking (tests, scripts).
// Every export tells its outcome through the source and returns "" (or an outcome without error) or
// the reason.
#include <QObject>
#include <QString>
#include <functional>
#include <string>

#include "ui/export/AnimationExport.hpp"
#include "ui/plots/PlotExport.hpp"
#include "ui/plots/ReportBundle.hpp"

class QAction;
class QWidget;

namespace flexarm {

class ExportSource;

// A file dialog's words: the key its last folder is remembered under, its caption, the name suggested.
struct ExportQuestion {
  QString key;
  QString caption;
  std::function<QString()> name;
};

class ExportReaction : public QObject {
  Q_OBJECT
 public:
  ExportReaction(ExportSource& source, QObject* parent);
  QAction* attachTo(QAction* action);  // the action triggers this reaction; returns it
  virtual void trigger() = 0;

 protected:
  ExportSource& source_;
};

// An export to one file chosen in a save dialog.
class FileExportReaction : public ExportReaction {
 public:
  void trigger() override;
  virtual std::string exportTo(const QString& file) = 0;

 protected:
  // needs_results: the source is asked exportReady() before the dialog.
  FileExportReaction(ExportSource& source, ExportQuestion question, QString filter, bool needs_results, QObject* parent);

 private:
  ExportQuestion question_;
  QString filter_;
  bool needs_results_;
};

// The results (or the compared channels) as CSV.
class CsvExportReaction : public FileExportReaction {
 public:
  CsvExportReaction(ExportSource& source, ExportQuestion question, QObject* parent);
  std::string exportTo(const QString& file) override;
};

// The plot as PNG (size, DPI), PDF or SVG.
class PlotExportReaction : public ExportReaction {
 public:
  PlotExportReaction(ExportSource& source, QString key, QObject* parent);
  void trigger() override;
  std::string exportTo(const QString& file, const ExportSize& size);

 private:
  QString key_;
};

// The 3D view(s) as a PNG image (there before any run).
class ViewsImageExportReaction : public FileExportReaction {
 public:
  ViewsImageExportReaction(ExportSource& source, ExportQuestion question, QObject* parent);
  std::string exportTo(const QString& file) override;
};

// The view(s) over the run's time as PNG frames and an MP4.
class AnimationExportReaction : public ExportReaction {
 public:
  AnimationExportReaction(ExportSource& source, QObject* parent);
  void trigger() override;
  AnimationOutcome exportTo(const QString& dir, const AnimationSettings& settings);
};

// Project, CSVs, plots and summary in one folder.
class BundleExportReaction : public ExportReaction {
 public:
  BundleExportReaction(ExportSource& source, QString key, QObject* parent);
  void trigger() override;
  BundleOutcome exportTo(const QString& dir);

 private:
  QString key_;
};

// The finished run(s) as ParaView series (paraview/ParaViewSeries.hpp): arm.pvd and one .vtp per output
// time in the chosen folder (or a subfolder per compared variant), with a progress dialog that cancels.
class ParaViewExportReaction : public ExportReaction {
 public:
  ParaViewExportReaction(ExportSource& source, QString key, QObject* parent);
  void trigger() override;
  // "" or the reason; a cancelled export says so in `cancelled` (the files written so far stay).
  std::string exportTo(const QString& dir, bool* cancelled = nullptr);

 private:
  QString key_;
};

// What differs between the windows' export dialogs.
struct ExportWords {
  ExportQuestion csv;
  ExportQuestion views;
  QString plot_key;
  QString bundle_key;
  QString paraview_key;
};

// A window's six export reactions, made together; the window attaches each to its menu or toolbar.
class ExportReactions : public QObject {
  Q_OBJECT
 public:
  ExportReactions(ExportSource& source, ExportWords words, QObject* parent);
  CsvExportReaction* const csv;
  PlotExportReaction* const plot;
  ViewsImageExportReaction* const views;
  AnimationExportReaction* const animation;
  BundleExportReaction* const bundle;
  ParaViewExportReaction* const paraview;
};

}  // namespace flexarm
