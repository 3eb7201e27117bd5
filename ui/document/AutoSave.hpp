#pragma once
// Autosave and crash recovery. While a document has unsaved changes, every change writes it to a
// recovery file: <recovery dir>/<hash of the project path, or "untitled">.flexarm-recovery.json,
// holding {"recovers": project path, "saved_at": ISO time, "document": the project JSON}. The file
// is removed when the document is saved, when it is clean again (undone to the saved state) and
// on a clean close. If the program crashes, the file stays; opening the project again (or starting
// without one, for an untitled project) offers to restore it.
// The directory is $FLEXARM_RECOVERY_DIR when set, else QStandardPaths::AppDataLocation/recovery.
#include <QDateTime>
#include <QObject>
#include <QString>
#include <optional>

#include "ui/document/ProjectDocument.hpp"

namespace flexarm {

class AutoSave : public QObject {
  Q_OBJECT
 public:
  explicit AutoSave(ProjectDocument* doc, QObject* parent = nullptr);

  static QString directory();
  static QString recoveryFileFor(const QString& project_path);  // "" for an untitled project

  struct Recovery {
    QString file;      // the recovery file
    QString recovers;  // the project it recovers ("" for untitled)
    QDateTime saved_at;
    Json document;
  };
  // The recovery left for a project, if any (and readable).
  static std::optional<Recovery> find(const QString& project_path);
  // Installs the recovered document in doc as one undoable edit, over the project as it is on
  // disk (open it first). False with a reason when the recovery is missing or not a valid project.
  static bool restore(ProjectDocument& doc, const Recovery& recovery, QString* error = nullptr);
  static void discard(const QString& project_path);

  void writeNow();       // the current document, if it has unsaved changes
  void removeCurrent();  // on a clean close
  QString lastWritten() const { return written_; }

 private:
  void update();
  ProjectDocument* doc_;
  QString written_;  // the recovery file this document wrote last
};

}  // namespace flexarm
