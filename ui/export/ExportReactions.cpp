#include "ui/export/ExportReactions.hpp"

#include <QAction>
#include <QDir>
#include <QProgressDialog>

#include "paraview/ParaViewSeries.hpp"

#include "results/CsvMetadata.hpp"
#include "results/CsvWriter.hpp"
#include "ui/export/AnimationExport.hpp"
#include "ui/export/ExportDialogs.hpp"
#include "ui/export/ExportSource.hpp"

namespace flexarm {
namespace {
QString told(const std::string& why, const QString& done) { return why.empty() ? done : QString::fromStdString(why); }
}  // namespace

ExportReaction::ExportReaction(ExportSource& source, QObject* parent) : QObject(parent), source_(source) {}

QAction* ExportReaction::attachTo(QAction* action) {
  connect(action, &QAction::triggered, this, [this] { trigger(); });
  return action;
}

FileExportReaction::FileExportReaction(ExportSource& source, ExportQuestion question, QString filter, bool needs_results,
                                       QObject* parent)
    : ExportReaction(source, parent), question_(std::move(question)), filter_(std::move(filter)), needs_results_(needs_results) {}

void FileExportReaction::trigger() {
  if (needs_results_ && !source_.exportReady()) return;
  const QString file = askSaveFile(source_.exportWindow(), question_.key, question_.caption, question_.name(), filter_);
  if (!file.isEmpty()) exportTo(file);
}

CsvExportReaction::CsvExportReaction(ExportSource& source, ExportQuestion question, QObject* parent)
    : FileExportReaction(source, std::move(question), "CSV (*.csv)", true, parent) {}

std::string CsvExportReaction::exportTo(const QString& file) {
  std::string why;
  const std::shared_ptr<const Results> table = source_.csvTable(why);
  if (table)
    if (const Status written = writeCsvFile(*table, file.toStdString()); !written) why = written.error().text();
  const QString sidecar = QString::fromStdString(csvMetadataFile(file.toStdString()).filename().string());
  source_.exportReport(told(why, "results written to " + file + " (the run's description and units in " + sidecar + ")"));
  return why;
}

PlotExportReaction::PlotExportReaction(ExportSource& source, QString key, QObject* parent)
    : ExportReaction(source, parent), key_(std::move(key)) {}

void PlotExportReaction::trigger() {
  QString file;
  ExportSize size;
  if (source_.exportReady() && askPlotExport(source_.exportWindow(), key_, file, size)) exportTo(file, size);
}

std::string PlotExportReaction::exportTo(const QString& file, const ExportSize& size) {
  const std::string why = exportPlot(source_.plotToExport(), file, size);
  source_.exportReport(told(why, "plot written to " + file));
  return why;
}

ViewsImageExportReaction::ViewsImageExportReaction(ExportSource& source, ExportQuestion question, QObject* parent)
    : FileExportReaction(source, std::move(question), "PNG (*.png)", false, parent) {}

std::string ViewsImageExportReaction::exportTo(const QString& file) {
  const std::string why = writePngFile(source_.viewsImage(), file);
  source_.exportReport(told(why, "3D view written to " + file));
  return why;
}

AnimationExportReaction::AnimationExportReaction(ExportSource& source, QObject* parent) : ExportReaction(source, parent) {}

void AnimationExportReaction::trigger() {
  QString dir;
  AnimationSettings settings;
  if (source_.exportReady() && askAnimationExport(source_.exportWindow(), dir, settings)) exportTo(dir, settings);
}

AnimationOutcome AnimationExportReaction::exportTo(const QString& dir, const AnimationSettings& settings) {
  AnimationOutcome o;
  const std::vector<double> times = source_.animationTimes(o.error);
  if (!times.empty())
    o = exportAnimation([this](double t) { return source_.animationFrame(t); }, times.front(), times.back(), dir, settings);
  source_.exportReport(describeAnimationOutcome(o, dir));
  return o;
}

BundleExportReaction::BundleExportReaction(ExportSource& source, QString key, QObject* parent)
    : ExportReaction(source, parent), key_(std::move(key)) {}

void BundleExportReaction::trigger() {
  if (!source_.exportReady()) return;
  const QString dir = askDirectory(source_.exportWindow(), key_, "Folder for the report bundle", "flexarm-report");
  if (!dir.isEmpty()) exportTo(dir);
}

BundleOutcome BundleExportReaction::exportTo(const QString& dir) {
  BundleOutcome o;
  std::optional<BundleRequest> request = source_.bundleRequest(o.error);
  if (request) {
    request->dir = dir.toStdString();
    o = writeReportBundle(*request);
  }
  source_.exportReport(told(o.error, QString("report bundle written to %1 (%2 files)").arg(dir).arg(o.files.size())));
  return o;
}

ParaViewExportReaction::ParaViewExportReaction(ExportSource& source, QString key, QObject* parent)
    : ExportReaction(source, parent), key_(std::move(key)) {}

void ParaViewExportReaction::trigger() {
  if (!source_.exportReady()) return;
  const QString dir = askDirectory(source_.exportWindow(), key_, "Folder for the ParaView series", "flexarm-paraview");
  if (!dir.isEmpty()) exportTo(dir);
}

std::string ParaViewExportReaction::exportTo(const QString& dir, bool* cancelled) {
  if (cancelled) *cancelled = false;
  std::string why;
  const std::vector<SeriesRun> runs = source_.seriesRuns(why);
  std::size_t total = 0, done = 0, files = 0;
  for (const SeriesRun& run : runs) total += run.results->rows();
  // Window-modal: its setValue() lets the window repaint and the Cancel button be pressed.
  QProgressDialog progress(QString("Writing the ParaView series (%1 files)...").arg(total), "Cancel", 0,
                           static_cast<int>(std::max<std::size_t>(total, 1)), source_.exportWindow());
  progress.setWindowModality(Qt::WindowModal);
  progress.setMinimumDuration(300);
  QStringList written;
  for (const SeriesRun& run : runs) {
    const QString folder = run.folder.empty() ? dir : QDir(dir).filePath(QString::fromStdString(run.folder));
    SeriesOptions options;
    options.progress = [&](std::size_t k, std::size_t) {
      progress.setValue(static_cast<int>(done + k));
      return !progress.wasCanceled();
    };
    const SeriesOutcome o = writeParaViewSeries(run.project->model, *run.system, *run.results, folder.toStdString(), options);
    files += o.frames;
    done += run.results->rows();
    if (!o.error.empty()) {
      why = (run.folder.empty() ? "" : run.folder + ": ") + o.error;
      break;
    }
    if (o.cancelled) {
      if (cancelled) *cancelled = true;
      source_.exportReport(
          QString("ParaView export cancelled: %1 files written to %2, no .pvd for the last series").arg(files).arg(dir));
      return {};
    }
    written << QString::fromStdString(o.pvd.string());
  }
  progress.setValue(progress.maximum());
  source_.exportReport(told(why, QString("ParaView series written (%1 .vtp files): %2").arg(files).arg(written.join(", "))));
  return why;
}

ExportReactions::ExportReactions(ExportSource& source, ExportWords words, QObject* parent)
    : QObject(parent),
      csv(new CsvExportReaction(source, std::move(words.csv), this)),
      plot(new PlotExportReaction(source, std::move(words.plot_key), this)),
      views(new ViewsImageExportReaction(source, std::move(words.views), this)),
      animation(new AnimationExportReaction(source, this)),
      bundle(new BundleExportReaction(source, std::move(words.bundle_key), this)),
      paraview(new ParaViewExportReaction(source, std::move(words.paraview_key), this)) {}

}  // namespace flexarm
