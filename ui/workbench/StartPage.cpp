#include "ui/workbench/StartPage.hpp"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QGridLayout>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QVBoxLayout>

#include "base/Files.hpp"
#include "io/JsonReader.hpp"

namespace flexarm {
namespace {
constexpr int kPathRole = Qt::UserRole;

// The example's name and description as its file states them (empty when it cannot be read).
std::pair<QString, QString> nameAndDescription(const QString& path) {
  const Result<std::string> content = readRegularFile(path.toStdString());
  if (!content) return {};
  const Result<Json> parsed = parseJsonText(*content);
  if (!parsed) return {};
  const Json& doc = *parsed;
  auto text = [&doc](const char* key) {
    return doc.is_object() && doc.contains(key) && doc[key].is_string() ? QString::fromStdString(doc[key].get<std::string>())
                                                                        : QString();
  };
  return {text("name"), text("description")};
}

QListWidget* pathList(QWidget* parent, const char* name) {
  auto* list = new QListWidget(parent);
  list->setObjectName(name);
  list->setAlternatingRowColors(true);
  list->setWordWrap(true);
  return list;
}
}  // namespace

StartPage::StartPage(const QString& examples_dir, QWidget* parent) : QWidget(parent) {
  setObjectName("startPage");
  auto* title = new QLabel(
      "<h2>FlexArm</h2>Dynamics of flexible robot arms: build an arm, run it, watch it bend, "
      "compare variants, export the results.",
      this);
  title->setWordWrap(true);
  new_ = new QPushButton("New project...", this);
  new_->setObjectName("start.new");
  new_->setToolTip("An empty arm, a template with its first values, or a copy of an example (File > New, Ctrl+N)");
  open_ = new QPushButton("Open project...", this);
  open_->setObjectName("start.open");
  open_->setToolTip("A .flexarm.json project file (File > Open, Ctrl+O)");
  examples_ = pathList(this, "start.examples");
  for (const QFileInfo& fi : QDir(examples_dir).entryInfoList({"*.flexarm.json"}, QDir::Files, QDir::Name)) {
    const auto [name, description] = nameAndDescription(fi.absoluteFilePath());
    auto* item = new QListWidgetItem(fi.fileName().remove(".flexarm.json") + (name.isEmpty() ? "" : ": " + name), examples_);
    item->setData(kPathRole, fi.absoluteFilePath());
    item->setToolTip(description.isEmpty() ? fi.absoluteFilePath() : description);
  }
  recent_ = pathList(this, "start.recent");
  auto* buttons = new QHBoxLayout;
  buttons->addWidget(new_);
  buttons->addWidget(open_);
  buttons->addStretch(1);
  auto* grid = new QGridLayout;
  grid->addWidget(new QLabel("<b>Open an example</b> (double-click; hover for its full description)", this), 0, 0);
  grid->addWidget(new QLabel("<b>Recent projects</b>", this), 0, 1);
  grid->addWidget(examples_, 1, 0);
  grid->addWidget(recent_, 1, 1);
  grid->setColumnStretch(0, 3);
  grid->setColumnStretch(1, 2);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(24, 16, 24, 16);
  layout->addWidget(title);
  layout->addLayout(buttons);
  layout->addLayout(grid, 1);
  connect(new_, &QPushButton::clicked, this, &StartPage::newRequested);
  connect(open_, &QPushButton::clicked, this, &StartPage::openRequested);
  for (QListWidget* list : {examples_, recent_}) {
    connect(list, &QListWidget::itemActivated, this,
            [this](QListWidgetItem* item) { emit openPath(item->data(kPathRole).toString()); });
  }
}

void StartPage::setRecent(const QStringList& paths) {
  recent_->clear();
  for (const QString& path : paths) {
    if (!QFileInfo::exists(path)) continue;
    auto* item = new QListWidgetItem(QFileInfo(path).fileName() + "\n" + QFileInfo(path).absolutePath(), recent_);
    item->setData(kPathRole, path);
    item->setToolTip(path);
  }
  if (recent_->count() == 0) {
    auto* none = new QListWidgetItem("No recent projects yet", recent_);
    none->setFlags(Qt::NoItemFlags);
  }
}

}  // namespace flexarm
