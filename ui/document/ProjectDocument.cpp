#include "ui/document/ProjectDocument.hpp"

#include "ui/document/PathWords.hpp"

#include <QAction>
#include <QFileInfo>
#include <QSaveFile>
#include <QThreadPool>
#include <QTimer>
#include <QUndoCommand>
#include <QUndoStack>
#include <cmath>

#include "base/Files.hpp"
#include "dynamics/MultibodySystem.hpp"
#include "io/JsonReader.hpp"
#include "io/ProjectFile.hpp"

namespace flexarm {

namespace {
const char* kEmptyChainPath = "links";
const char* kEmptyChainMessage = "the chain is empty";  // the start of the loader's message

bool hasNonFinite(const Json& j) {
  if (j.is_number_float()) return !std::isfinite(j.get<double>());
  if (j.is_structured())
    for (const Json& c : j)
      if (hasNonFinite(c)) return true;
  return false;
}

}  // namespace

QString jsonValueText(const Json& v) {
  if (v.is_number_float()) return QString::fromStdString(formatNumber(v.get<double>()));
  if (v.is_number()) return QString::fromStdString(v.dump());
  if (v.is_string()) return QString::fromStdString(v.get<std::string>());
  if (v.is_null()) return {};
  return QString::fromStdString(v.dump());
}

// One edit: the document before and after. Undo and redo install a snapshot the loader accepted.
class SnapshotCommand : public QUndoCommand {
 public:
  SnapshotCommand(ProjectDocument* doc, const QString& text, Json before, Json after)
      : QUndoCommand(text), doc_(doc), before_(std::move(before)), after_(std::move(after)) {}
  void redo() override { doc_->install(after_); }
  void undo() override { doc_->install(before_); }

 private:
  ProjectDocument* doc_;
  Json before_, after_;
};

ProjectDocument::ProjectDocument(QObject* parent)
    : QObject(parent), build_pool_(new QThreadPool(this)), build_poll_(new QTimer(this)), stack_(new QUndoStack(this)) {
  build_pool_->setMaxThreadCount(2);  // a build replaced by an edit runs on beside the next one
  connect(stack_, &QUndoStack::cleanChanged, this, [this](bool clean) { emit dirtyChanged(unsaved_ || !clean); });
  build_poll_->setInterval(20);
  connect(build_poll_, &QTimer::timeout, this, &ProjectDocument::pollSystemBuild);
  resetEmpty();
}

ProjectDocument::~ProjectDocument() = default;

Json::json_pointer ProjectDocument::pointer(const QString& path) {
  // Names may hold only letters, digits, '_' and '-', so nothing needs escaping.
  std::string p = "/";
  for (const QChar c : path) {
    if (c == '.' || c == '[') {
      if (p.back() != '/') p += '/';
    } else if (c != ']') {
      p += c.toLatin1();
    }
  }
  if (p.size() > 1 && p.back() == '/') p.pop_back();
  return Json::json_pointer(p == "/" ? "" : p);
}

ProjectDocument::Verdict ProjectDocument::interpret(const Json& doc, const QString& focus) const {
  Verdict v;
  Diagnostics diag;
  v.project = projectFromJson(doc, baseDir(), diag);
  bool only_empty_chain = true;
  std::string first, rest;
  const std::string f = focus.toStdString();
  for (const Diagnostic& d : diag.all()) {
    if (d.severity != Diagnostic::Severity::Error) continue;
    if (d.path == kEmptyChainPath && d.message.rfind(kEmptyChainMessage, 0) == 0) continue;
    only_empty_chain = false;
    const bool about_focus = !f.empty() && (d.path.rfind(f, 0) == 0 || f.rfind(d.path, 0) == 0);
    (about_focus ? first : rest) += (d.path.empty() ? d.message : d.path + ": " + d.message) + "\n";
  }
  v.accepted = v.project.has_value() || only_empty_chain;
  v.errors = first + rest;
  if (!v.errors.empty()) v.errors.pop_back();
  return v;
}

std::shared_ptr<const MultibodySystem> buildSystem(const Project& project) {
  return std::make_shared<const MultibodySystem>(MultibodySystem::fromModel(project.model, project.coupling));
}

std::shared_ptr<const MultibodySystem> ProjectDocument::system() const {
  if (!system_ && building_.valid()) system_ = building_.get();
  return system_;
}

bool ProjectDocument::systemReady(std::chrono::milliseconds grace) const {
  return system_ || !building_.valid() || building_.wait_for(grace) == std::future_status::ready;
}

void ProjectDocument::buildSystemInBackground() {
  system_.reset();
  building_ = {};
  build_poll_->stop();
  if (!project_) return;
  // The pool's threads are joined when the document goes; the future does not wait for its build when
  // a newer change replaces it.
  auto promise = std::make_shared<std::promise<std::shared_ptr<const MultibodySystem>>>();
  building_ = promise->get_future().share();
  build_pool_->start([promise, builder = builder_ ? builder_ : SystemBuilder(buildSystem), project = *project_] {
    try {
      promise->set_value(builder(project));
    } catch (...) {
      promise->set_exception(std::current_exception());
    }
  });
  build_poll_->start();
}

void ProjectDocument::pollSystemBuild() {
  if (!building_.valid() || building_.wait_for(std::chrono::milliseconds(0)) != std::future_status::ready) return;
  build_poll_->stop();
  emit systemBuilt();
}

void ProjectDocument::install(const Json& doc) {
  Verdict v = interpret(doc);
  Q_ASSERT(v.accepted);
  doc_ = doc;
  project_ = std::move(v.project);
  buildSystemInBackground();
  replaced_ = false;
  emit changed();
}

bool ProjectDocument::reset(const Json& doc, const QString& path, QString* error) {
  const QString old_path = path_;
  path_ = path;  // base directory of table files
  Verdict v = interpret(doc);
  if (!v.accepted) {
    path_ = old_path;
    if (error) *error = QString::fromStdString(v.errors);
    return false;
  }
  stack_->clear();
  unsaved_ = false;
  doc_ = doc;
  project_ = std::move(v.project);
  buildSystemInBackground();
  stack_->setClean();
  replaced_ = true;
  emit changed();
  emit dirtyChanged(false);
  if (old_path != path_) emit pathChanged(path_);
  return true;
}

bool ProjectDocument::startUnsaved(const Json& doc, QString* error) {
  if (!reset(doc, QString(), error)) return false;
  unsaved_ = true;
  emit dirtyChanged(true);
  return true;
}

void ProjectDocument::resetEmpty() {
  Json doc;
  doc["format"] = "flexarm-project";
  doc["schema_version"] = Project::kSchemaVersion;
  doc["name"] = "Untitled";
  doc["links"] = Json::array();
  doc["joints"] = Json::array();
  reset(doc, QString());
}

bool ProjectDocument::open(const QString& path, QString* error) {
  // As the command line reads it: a regular file of bounded size (a FIFO would block, /dev/zero never
  // ends), JSON of bounded nesting without duplicate keys; the loader says where and why otherwise.
  const Result<std::string> text = readRegularFile(path.toStdString());
  if (!text) {
    if (error) *error = "cannot open " + path + ": " + QString::fromStdString(text.error().message);
    return false;
  }
  const Result<Json> doc = parseJsonText(*text);
  if (!doc) {
    if (error) *error = QString::fromStdString(parseProjectText(*text, ".").diagnostics.text());
    return false;
  }
  return reset(*doc, QFileInfo(path).absoluteFilePath(), error);
}

bool ProjectDocument::save(const QString& path, QString* error) {
  QSaveFile f(path);
  const std::string text = doc_.dump(2) + "\n";
  if (!f.open(QIODevice::WriteOnly) ||
      f.write(text.data(), static_cast<qint64>(text.size())) != static_cast<qint64>(text.size()) || !f.commit()) {
    if (error) *error = "cannot write " + path + ": " + f.errorString();
    return false;
  }
  const QString abs = QFileInfo(path).absoluteFilePath();
  const bool moved = abs != path_;
  path_ = abs;
  const bool was_unsaved = unsaved_;
  unsaved_ = false;
  stack_->setClean();
  if (was_unsaved) emit dirtyChanged(isDirty());
  if (moved) emit pathChanged(path_);
  return true;
}

QString ProjectDocument::displayName() const {
  const auto it = doc_.find("name");
  if (it != doc_.end() && it->is_string() && !it->get<std::string>().empty())
    return QString::fromStdString(it->get<std::string>());
  return "Untitled";
}

bool ProjectDocument::isDirty() const { return unsaved_ || !stack_->isClean(); }

std::filesystem::path ProjectDocument::baseDir() const {
  return path_.isEmpty() ? std::filesystem::path(".") : std::filesystem::path(QFileInfo(path_).absolutePath().toStdString());
}

const Json* ProjectDocument::value(const QString& path) const {
  const Json::json_pointer p = pointer(path);
  return doc_.contains(p) ? &doc_.at(p) : nullptr;
}

bool ProjectDocument::apply(const QString& text, const Json& new_doc, QString* error, const QString& focus) {
  if (new_doc == doc_) return true;
  if (locked_) {
    if (error) *error = "a simulation is running: stop it before editing the model";
    return false;
  }
  if (hasNonFinite(new_doc)) {
    if (error) *error = (focus.isEmpty() ? QString("value") : focus) + ": must be a finite number";
    return false;
  }
  const Verdict v = interpret(new_doc, focus);
  if (!v.accepted) {
    if (error) *error = QString::fromStdString(v.errors);
    return false;
  }
  stack_->push(new SnapshotCommand(this, text, doc_, new_doc));
  return true;
}

bool ProjectDocument::setValue(const QString& path, const Json& value, QString* error, const QString& unit) {
  Json doc = doc_;
  try {
    doc[pointer(path)] = value;
  } catch (const Json::exception& e) {
    if (error) *error = path + ": " + e.what();
    return false;
  }
  return apply("Set " + pathWords(doc_, path) + " to " + jsonValueText(value) + (unit.isEmpty() ? QString() : " " + unit), doc,
               error, path);
}

bool ProjectDocument::removeValue(const QString& path, QString* error) {
  if (!value(path)) return true;
  Json doc = doc_;
  const Json::json_pointer p = pointer(path);
  doc.at(p.parent_pointer()).erase(p.back());
  return apply("Reset " + pathWords(doc_, path) + " to its default", doc, error, path);
}

void ProjectDocument::undo() {
  if (!locked_) stack_->undo();
}

void ProjectDocument::redo() {
  if (!locked_) stack_->redo();
}

QAction* ProjectDocument::createUndoAction(QObject* parent) { return createStackAction(parent, false); }

QAction* ProjectDocument::createRedoAction(QObject* parent) { return createStackAction(parent, true); }

QAction* ProjectDocument::createStackAction(QObject* parent, bool redo) {
  const QString name = redo ? "&Redo" : "&Undo";
  auto* a = new QAction(name, parent);
  a->setShortcut(redo ? QKeySequence::Redo : QKeySequence::Undo);
  a->setEnabled(redo ? stack_->canRedo() : stack_->canUndo());
  connect(a, &QAction::triggered, this, redo ? &ProjectDocument::redo : &ProjectDocument::undo);
  connect(stack_, redo ? &QUndoStack::canRedoChanged : &QUndoStack::canUndoChanged, a, &QAction::setEnabled);
  connect(stack_, redo ? &QUndoStack::redoTextChanged : &QUndoStack::undoTextChanged, a,
          [a, name](const QString& t) { a->setText(t.isEmpty() ? name : name + " " + t); });
  return a;
}

}  // namespace flexarm
