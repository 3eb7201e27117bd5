#pragma once
// The project being edited: its JSON document (what the file holds, in the user's own layout) and the
// Project the loader interprets from it. Every edit is one undoable command that replaces the whole
// document (projects are a few kilobytes: whole snapshots are small and obviously correct). An edit is
// applied only when the loader (projectFromJson) accepts the new document; otherwise it is refused
// with the loader's message, which names the JSON path ("links[2].flex.material.E: must be > 0,
// got 0"), and nothing changes. The one state the loader refuses but the editor accepts is the empty
// chain (no links yet), where every edit of a project starts.
#include <QObject>
#include <QString>
#include <chrono>
#include <filesystem>
#include <functional>
#include <future>
#include <memory>
#include <optional>

#include "io/JsonReader.hpp"
#include "model/Project.hpp"

class QAction;
class QThreadPool;
class QTimer;
class QUndoStack;

namespace flexarm {

struct MultibodySystem;

// The discretized system of a project (MultibodySystem::fromModel at the project's coupling). The one
// place the workbench builds a system: the document builds its project's here, a run session the
// system of a variant, the 3D view that of a project shown without one.
std::shared_ptr<const MultibodySystem> buildSystem(const Project& project);

// An item of the model, as the tree and the property editor name it.
struct ModelItem {
  enum class Kind { None, Project, Link, Joint, Payload, Load, Constraint, Simulation, Variant, Study };
  Kind kind = Kind::None;
  int index = -1;  // for links, joints, payloads, constraints and variants
  bool operator==(const ModelItem& o) const { return kind == o.kind && index == o.index; }
};

// A value as the editor shows it (fields, command names): numbers in their shortest exact form,
// strings bare, null empty, arrays and objects as JSON.
QString jsonValueText(const Json& v);

class ProjectDocument : public QObject {
  Q_OBJECT
 public:
  explicit ProjectDocument(QObject* parent = nullptr);
  ~ProjectDocument() override;

  // Replace the whole document: no undo history, clean. On failure (the loader's messages in
  // *error) the document is unchanged.
  bool open(const QString& path, QString* error = nullptr);
  bool reset(const Json& doc, const QString& path, QString* error = nullptr);
  void resetEmpty();  // "Untitled", no links yet
  // As reset() without a path, for work that exists nowhere else (a wizard's or an import's project):
  // dirty until saved, so that nothing drops it without asking.
  bool startUnsaved(const Json& doc, QString* error = nullptr);
  // Writes the document (atomically) and marks it clean; the path becomes the document's path.
  bool save(const QString& path, QString* error = nullptr);

  const Json& json() const { return doc_; }
  const Project* project() const { return project_ ? &*project_ : nullptr; }  // nullptr: empty chain
  bool isEmptyChain() const { return !project_; }
  // The project's discretized system, shared (immutable) with the run, the 3D view, the forms and the
  // mode preview; nullptr for the empty chain. Built on a worker thread after each change (a fine mesh
  // takes a second): system() waits for that build when it has not finished.
  std::shared_ptr<const MultibodySystem> system() const;
  // Whether system() returns at once, after waiting up to `grace` for the build. When it is false,
  // systemBuilt() follows once it is.
  bool systemReady(std::chrono::milliseconds grace = std::chrono::milliseconds(0)) const;
  // What builds the system on the worker thread from the next change on (buildSystem; a test holds it back).
  using SystemBuilder = std::function<std::shared_ptr<const MultibodySystem>(const Project&)>;
  void setSystemBuilder(SystemBuilder builder) { builder_ = std::move(builder); }
  const QString& path() const { return path_; }
  QString displayName() const;  // the project's name, or "Untitled"
  bool isDirty() const;
  // Whether the last change replaced the whole document (open, new, reset) rather than edited it
  // (an edit, undo or redo): views fit a replaced project and keep their view of an edited one.
  bool wasReplaced() const { return replaced_; }
  QUndoStack* undoStack() const { return stack_; }
  std::filesystem::path baseDir() const;

  // The value at a loader path ("links[1].flex.material.E"); nullptr when absent.
  const Json* value(const QString& path) const;

  // Sets one value. The command reads "Set <path> to <value> <unit>".
  bool setValue(const QString& path, const Json& value, QString* error = nullptr, const QString& unit = {});
  // Removes a key (the format's default applies again).
  bool removeValue(const QString& path, QString* error = nullptr);
  // The primitive every edit goes through: interpret new_doc; push one command named `text` when
  // the loader accepts it; nothing when it equals the current document. Returns false and the
  // loader's errors (those about `focus` first, when given) when refused.
  bool apply(const QString& text, const Json& new_doc, QString* error = nullptr, const QString& focus = {});

  // While locked (a simulation runs on the model) every edit, undo and redo is refused.
  void setLocked(bool locked) { locked_ = locked; }
  bool isLocked() const { return locked_; }
  void undo();
  void redo();
  // Edit menu actions that follow the stack ("Undo Set links[0].length to 2 m") and respect the lock.
  QAction* createUndoAction(QObject* parent);
  QAction* createRedoAction(QObject* parent);

  // Loader path -> JSON pointer ("links[1].flex.E" -> "/links/1/flex/E").
  static Json::json_pointer pointer(const QString& path);

 signals:
  void changed();      // after every edit, undo, redo and reset
  void systemBuilt();  // the current project's system is ready (the build outlived its change)
  void dirtyChanged(bool dirty);
  void pathChanged(const QString& path);

 private:
  friend class SnapshotCommand;
  void install(const Json& doc);   // a document the loader accepted
  void buildSystemInBackground();  // of project_, replacing the one before
  void pollSystemBuild();
  QAction* createStackAction(QObject* parent, bool redo);
  struct Verdict {
    bool accepted = false;
    std::optional<Project> project;
    std::string errors;  // one "path: message" per line
  };
  Verdict interpret(const Json& doc, const QString& focus = {}) const;

  Json doc_;
  std::optional<Project> project_;
  mutable std::shared_ptr<const MultibodySystem> system_;                // of project_, once built
  std::shared_future<std::shared_ptr<const MultibodySystem>> building_;  // its build on a worker thread
  SystemBuilder builder_;                                                // null: buildSystem
  // Its own threads: Qt's raster painting takes threads of the global pool, which a second's build
  // would hold (the window would stop painting).
  QThreadPool* build_pool_;
  QTimer* build_poll_;  // until that build ends: systemBuilt()
  QString path_;
  bool replaced_ = true;
  bool unsaved_ = false;  // started by startUnsaved() and not saved since
  QUndoStack* stack_;
  bool locked_ = false;
};

}  // namespace flexarm
