#include "ui/plots/PlotExport.hpp"

#include <qcustomplot.h>
#include <sys/stat.h>
#include <unistd.h>

#include <QApplication>
#include <QDir>
#include <QFileInfo>
#include <QSvgGenerator>

#include "Version.hpp"
#include "base/Files.hpp"

namespace flexarm {

std::string exportPlot(QCustomPlot* plot, const QString& file, const ExportSize& size) {
  if (size.width < 16 || size.height < 16 || size.width > 20000 || size.height > 20000)
    return "plot size " + std::to_string(size.width) + " x " + std::to_string(size.height) + " px is outside 16..20000";
  if (!(size.dpi >= 10 && size.dpi <= 2400)) return "resolution " + std::to_string(size.dpi) + " dpi is outside 10..2400";
  const QString ext = QFileInfo(file).suffix().toLower();
  if (ext != "png" && ext != "pdf" && ext != "svg")
    return "cannot tell the format of \"" + file.toStdString() + "\": use .png, .pdf or .svg";
  const QString title = plot->windowTitle();
  // Through a temporary file and a rename: a failure half-way leaves an earlier plot as it was.
  const Status written = writeFileThrough(file.toStdString(), [&](const std::filesystem::path& tmp_path) -> std::string {
    const QString tmp = QString::fromStdString(tmp_path.string());
    bool ok = false;
    if (ext == "png") {
      ok = plot->savePng(tmp, size.width, size.height, 1.0, -1, static_cast<int>(std::lround(size.dpi)), QCP::ruDotsPerInch);
    } else if (ext == "pdf") {
      ok = plot->savePdf(tmp, size.width, size.height, QCP::epNoCosmetic, QString("FlexArm ") + kVersion, title);
    } else {
      QSvgGenerator svg;
      svg.setFileName(tmp);
      svg.setSize(QSize(size.width, size.height));
      svg.setViewBox(QRect(0, 0, size.width, size.height));
      svg.setTitle(title);
      svg.setDescription(QString("FlexArm ") + kVersion);
      QCPPainter painter;
      ok = painter.begin(&svg);
      if (ok) {
        plot->toPainter(&painter, size.width, size.height);
        ok = painter.end();
      }
    }
    return ok ? std::string() : "the plot could not be drawn into the file";
  });
  return written ? std::string() : written.error().text();
}

std::string exportFigure(const Figure& figure, const QString& file, const ExportSize& size) {
  QCustomPlot plot;
  useCNumbers(&plot);
  plot.resize(size.width, size.height);
  plot.setWindowTitle(figure.title);
  drawFigure(&plot, figure);
  return exportPlot(&plot, file, size);
}

void ensureQtApplication() {
  if (QCoreApplication::instance()) return;
  qputenv("QT_QPA_PLATFORM", "offscreen");               // no display needed
  if (qEnvironmentVariableIsEmpty("XDG_RUNTIME_DIR")) {  // Qt wants one (mode 0700); headless machines often lack it
    const QByteArray dir = QDir::tempPath().toLocal8Bit() + "/flexarm-runtime-" + QByteArray::number(getuid());
    ::mkdir(dir.constData(), 0700);
    qputenv("XDG_RUNTIME_DIR", dir);
  }
  static int argc = 1;
  static char name[] = "flexarm-cli";
  static char* argv[] = {name, nullptr};
  // Lives until the process ends: plots and fonts are made after this call returns.
  static QApplication* app = new QApplication(argc, argv);
  (void)app;
}

}  // namespace flexarm
