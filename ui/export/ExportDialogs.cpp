#include "ui/export/ExportDialogs.hpp"

#include <QCheckBox>
#include <QDialog>
#include <QDialogButtonBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLineEdit>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>

namespace flexarm {
namespace {
QString lastDir(const QString& key) { return QSettings().value("export/" + key, QDir::homePath()).toString(); }
void rememberDir(const QString& key, const QString& path) {
  QSettings().setValue("export/" + key, QFileInfo(path).isDir() ? path : QFileInfo(path).absolutePath());
}

// A folder's path, typed (a folder that does not exist yet is made by the export) or browsed for.
// Qt's folder chooser alone refuses a new folder ("Directory not found").
QLineEdit* addFolderRow(QDialog& d, QFormLayout* form, const QString& label, const QString& initial, const QString& caption) {
  auto* folder = new QLineEdit(initial, &d);
  folder->setObjectName("export.folder");
  folder->setMinimumWidth(360);
  folder->setToolTip("Type a new folder's path to have it made, or browse for an existing one");
  auto* browse = new QPushButton("Browse...", &d);
  auto* row = new QHBoxLayout;
  row->addWidget(folder, 1);
  row->addWidget(browse);
  QObject::connect(browse, &QPushButton::clicked, &d, [&d, folder, caption] {
    const QString chosen = QFileDialog::getExistingDirectory(&d, caption, folder->text());
    if (!chosen.isEmpty()) folder->setText(chosen);
  });
  form->addRow(label, row);
  return folder;
}

QDialogButtonBox* addOkCancel(QDialog& d, QFormLayout* form) {
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, &d);
  QObject::connect(buttons, &QDialogButtonBox::accepted, &d, &QDialog::accept);
  QObject::connect(buttons, &QDialogButtonBox::rejected, &d, &QDialog::reject);
  form->addRow(buttons);
  return buttons;
}
}  // namespace

QString askSaveFile(QWidget* parent, const QString& key, const QString& caption, const QString& name, const QString& filter) {
  const QString file = QFileDialog::getSaveFileName(parent, caption, QDir(lastDir(key)).filePath(name), filter);
  if (!file.isEmpty()) rememberDir(key, file);
  return file;
}

QString askDirectory(QWidget* parent, const QString& key, const QString& caption, const QString& name) {
  QDialog d(parent);
  d.setWindowTitle(caption);
  auto* form = new QFormLayout(&d);
  QLineEdit* folder = addFolderRow(d, form, "folder", QDir(lastDir(key)).filePath(name), caption);
  addOkCancel(d, form);
  if (d.exec() != QDialog::Accepted || folder->text().trimmed().isEmpty()) return {};
  const QString dir = QDir::cleanPath(folder->text().trimmed());
  QSettings().setValue("export/" + key, QFileInfo(dir).absolutePath());
  return dir;
}

bool askPlotExport(QWidget* parent, const QString& key, QString& file, ExportSize& size) {
  file = askSaveFile(parent, key + "-plot", "Export plot", "plot.png", "PNG image (*.png);;PDF (*.pdf);;SVG (*.svg)");
  if (file.isEmpty()) return false;
  QDialog d(parent);
  d.setWindowTitle("Plot size");
  auto* form = new QFormLayout(&d);
  auto* w = new QSpinBox(&d);
  auto* h = new QSpinBox(&d);
  auto* dpi = new QDoubleSpinBox(&d);
  w->setRange(16, 20000);
  h->setRange(16, 20000);
  dpi->setRange(10, 2400);
  dpi->setDecimals(0);
  w->setValue(size.width);
  h->setValue(size.height);
  dpi->setValue(size.dpi);
  w->setSuffix(" px");
  h->setSuffix(" px");
  dpi->setSuffix(" dpi");
  form->addRow("width", w);
  form->addRow("height", h);
  form->addRow("resolution (PNG)", dpi);
  addOkCancel(d, form);
  if (d.exec() != QDialog::Accepted) return false;
  size = {w->value(), h->value(), dpi->value()};
  return true;
}

bool askAnimationExport(QWidget* parent, QString& dir, AnimationSettings& settings) {
  QDialog d(parent);
  d.setWindowTitle("Export animation");
  auto* form = new QFormLayout(&d);
  QLineEdit* folder = addFolderRow(d, form, "folder (PNG frames)", QDir(lastDir("animation")).filePath("flexarm-animation"),
                                   "Folder for the frames");
  auto* fps = new QDoubleSpinBox(&d);
  fps->setRange(1, 240);
  fps->setValue(settings.fps);
  fps->setSuffix(" frames/s");
  auto* speed = new QDoubleSpinBox(&d);
  speed->setRange(0.01, 1000);
  speed->setValue(settings.speed);
  speed->setSuffix(" x real time");
  auto* mp4 =
      new QCheckBox(ffmpegProgram().isEmpty() ? "MP4 (needs ffmpeg, not found)" : "also encode animation.mp4 (ffmpeg)", &d);
  mp4->setChecked(settings.mp4 && !ffmpegProgram().isEmpty());
  mp4->setEnabled(!ffmpegProgram().isEmpty());
  form->addRow("frame rate", fps);
  form->addRow("speed", speed);
  form->addRow(mp4);
  addOkCancel(d, form);
  if (d.exec() != QDialog::Accepted || folder->text().isEmpty()) return false;
  dir = folder->text();
  rememberDir("animation", QFileInfo(dir).absolutePath());
  settings = {fps->value(), speed->value(), mp4->isChecked()};
  return true;
}

QString describeAnimationOutcome(const AnimationOutcome& o, const QString& dir) {
  if (!o.error.empty()) return QString::fromStdString(o.error);
  QString text = QString("%1 frames written to %2").arg(o.frames).arg(dir);
  if (!o.mp4.isEmpty()) text += ", and " + o.mp4;
  if (!o.note.empty()) text += " (" + QString::fromStdString(o.note) + ")";
  return text;
}

}  // namespace flexarm
