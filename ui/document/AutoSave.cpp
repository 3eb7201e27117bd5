#include "ui/document/AutoSave.hpp"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSaveFile>
#include <QStandardPaths>

#include "base/Files.hpp"
#include "io/JsonReader.hpp"

namespace flexarm {

AutoSave::AutoSave(ProjectDocument* doc, QObject* parent) : QObject(parent), doc_(doc) {
  connect(doc_, &ProjectDocument::changed, this, &AutoSave::update);
  connect(doc_, &ProjectDocument::dirtyChanged, this, &AutoSave::update);
  connect(doc_, &ProjectDocument::pathChanged, this, &AutoSave::update);
}

QString AutoSave::directory() {
  const QByteArray env = qgetenv("FLEXARM_RECOVERY_DIR");
  if (!env.isEmpty()) return QString::fromLocal8Bit(env);
  return QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) + "/recovery";
}

QString AutoSave::recoveryFileFor(const QString& project_path) {
  QString key = "untitled";
  if (!project_path.isEmpty()) {
    const QByteArray abs = QFileInfo(project_path).absoluteFilePath().toUtf8();
    key = QString::fromLatin1(QCryptographicHash::hash(abs, QCryptographicHash::Sha1).toHex().left(16));
  }
  return directory() + "/" + key + ".flexarm-recovery.json";
}

std::optional<AutoSave::Recovery> AutoSave::find(const QString& project_path) {
  Recovery r;
  r.file = recoveryFileFor(project_path);
  const Result<std::string> text = readRegularFile(r.file.toStdString());
  if (!text) return std::nullopt;
  const Result<Json> parsed = parseJsonText(*text);
  if (!parsed) return std::nullopt;
  const Json& j = *parsed;
  if (!j.is_object() || !j.contains("document") || !j["document"].is_object()) return std::nullopt;
  r.recovers = QString::fromStdString(j.value("recovers", std::string()));
  r.saved_at = QDateTime::fromString(QString::fromStdString(j.value("saved_at", std::string())), Qt::ISODate);
  r.document = j["document"];
  return r;
}

bool AutoSave::restore(ProjectDocument& doc, const Recovery& recovery, QString* error) {
  const QString when =
      recovery.saved_at.isValid() ? recovery.saved_at.toString("yyyy-MM-dd HH:mm:ss") : QString("an earlier session");
  return doc.apply("Restore unsaved changes from " + when, recovery.document, error);
}

void AutoSave::discard(const QString& project_path) { QFile::remove(recoveryFileFor(project_path)); }

void AutoSave::writeNow() {
  const QString file = recoveryFileFor(doc_->path());
  if (!written_.isEmpty() && (written_ != file || !doc_->isDirty())) {  // saved, clean again, or renamed
    QFile::remove(written_);
    written_.clear();
  }
  if (!doc_->isDirty()) return;
  QDir().mkpath(directory());
  Json j;
  j["recovers"] = doc_->path().toStdString();
  j["saved_at"] = QDateTime::currentDateTime().toString(Qt::ISODate).toStdString();
  j["document"] = doc_->json();
  const std::string text = j.dump(1) + "\n";
  QSaveFile out(file);
  if (out.open(QIODevice::WriteOnly) &&
      out.write(text.data(), static_cast<qint64>(text.size())) == static_cast<qint64>(text.size()) && out.commit())
    written_ = file;
}

void AutoSave::update() { writeNow(); }

void AutoSave::removeCurrent() {
  if (!written_.isEmpty()) QFile::remove(written_);
  written_.clear();
}

}  // namespace flexarm
