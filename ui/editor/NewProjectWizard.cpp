#include "ui/editor/NewProjectWizard.hpp"

#include <QComboBox>
#include <QDir>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QVBoxLayout>
#include <map>

#include "io/Overrides.hpp"
#include "io/ProjectFile.hpp"
#include "io/ProjectTemplates.hpp"
#include "ui/document/ProjectDocument.hpp"

namespace flexarm {
namespace {
const char* kErrorStyle = "border: 2px solid #d9534f; background: #fbe3e1;";
constexpr int kStartRole = Qt::UserRole;
}  // namespace

// Page 2: the name and the template's values, checked by the loader as they are typed.
class TemplateSettingsPage : public QWizardPage {
 public:
  explicit TemplateSettingsPage(QWidget* parent) : QWizardPage(parent) {
    setTitle("Settings");
    auto* layout = new QVBoxLayout(this);
    form_ = new QFormLayout;
    layout->addLayout(form_);
    summary_ = new QLabel(this);
    summary_->setWordWrap(true);
    layout->addWidget(summary_);
    general_error_ = new QLabel(this);
    general_error_->setWordWrap(true);
    general_error_->setStyleSheet("color: #a12a1f;");
    layout->addWidget(general_error_);
    layout->addStretch(1);
  }

  // Rebuilds the fields for a start: a template id or an example's path.
  void setStart(const QString& start) {
    while (form_->rowCount() > 0) form_->removeRow(0);
    fields_.clear();
    template_ = findTemplate(start.toStdString());
    example_ = template_ ? QString() : start;
    base_.reset();
    load_error_.clear();
    if (!template_) {
      Diagnostics diag;
      base_ = projectFromExample(start.toStdString(), diag);
      if (!base_) load_error_ = QString::fromStdString(diag.text());
    }
    const Json* doc = template_ ? &template_->doc : base_ ? &*base_ : nullptr;
    QString name = doc && doc->contains("name") && (*doc)["name"].is_string() ? jsonValueText((*doc)["name"]) : "Untitled";
    addRow("name", "project name", "", {}, name);
    if (template_)
      for (const TemplateParameter& p : template_->parameters) {
        const Json* v = valueAtPath(template_->doc, p.paths.front());
        QStringList choices;
        for (const std::string& c : p.choices) choices << QString::fromStdString(c);
        addRow(QString::fromStdString(p.paths.front()), QString::fromStdString(p.label), QString::fromStdString(p.unit), choices,
               v ? jsonValueText(*v) : QString());
      }
    setSubTitle(template_ ? QString::fromStdString(template_->title) +
                                ": set its first values. Everything else is edited in the Model dock."
                          : "A copy of " + QFileInfo(start).fileName() + ", saved where you choose.");
    check();
  }

  QWidget* field(const QString& key) const {
    auto it = fields_.find(key);
    return it == fields_.end() ? nullptr : it->second.editor;
  }
  QString fieldError(const QString& key) const {
    auto it = fields_.find(key);
    return it == fields_.end() ? QString() : it->second.error->text();
  }
  const std::optional<Json>& document() const { return document_; }
  const QString& error() const { return error_; }
  QString summary() const { return summary_->text(); }
  bool isComplete() const override { return document_.has_value(); }

 private:
  struct Field {
    QWidget* editor = nullptr;
    QLabel* error = nullptr;
    QString text() const {
      if (auto* c = qobject_cast<QComboBox*>(editor)) return c->currentText();
      return qobject_cast<QLineEdit*>(editor)->text();
    }
  };

  void addRow(const QString& key, const QString& label, const QString& unit, const QStringList& choices, const QString& value) {
    Field f;
    auto* row = new QWidget(this);
    auto* h = new QHBoxLayout(row);
    h->setContentsMargins(0, 0, 0, 0);
    if (!choices.isEmpty()) {
      auto* c = new QComboBox(row);
      c->addItems(choices);
      c->setCurrentText(value);
      connect(c, &QComboBox::currentTextChanged, this, [this] { check(); });
      f.editor = c;
    } else {
      auto* e = new QLineEdit(value, row);
      connect(e, &QLineEdit::textChanged, this, [this] { check(); });
      f.editor = e;
    }
    f.editor->setObjectName("wizard." + key);
    h->addWidget(f.editor, 1);
    auto* u = new QLabel(unit == "-" ? QString() : unit, row);
    u->setMinimumWidth(40);
    h->addWidget(u);
    f.error = new QLabel(this);
    f.error->setWordWrap(true);
    f.error->setStyleSheet("color: #a12a1f;");
    f.error->setVisible(false);
    form_->addRow(label, row);
    form_->addRow(QString(), f.error);
    fields_[key] = f;
  }

  // The document from the fields, interpreted by the loader; its messages go under their fields.
  void check() {
    document_.reset();
    error_.clear();
    summary_->clear();  // the summary is this start's, never the one chosen before
    std::map<QString, QString> errors;
    const std::string name = fields_.count("name") ? fields_["name"].text().trimmed().toStdString() : std::string();
    Diagnostics diag;
    std::optional<Json> doc;
    if (name.empty()) errors["name"] = "needs a name";
    if (template_) {
      std::vector<std::string> assignments;
      for (const TemplateParameter& p : template_->parameters)
        for (const std::string& path : p.paths)
          assignments.push_back(path + "=" + fields_[QString::fromStdString(p.paths.front())].text().trimmed().toStdString());
      doc = instantiateTemplate(*template_, name, assignments, diag);
    } else if (base_) {
      doc = base_;
      (*doc)["name"] = name;
    } else {
      error_ = load_error_;
    }
    // The empty base is the editor's empty chain: only its name is checked.
    const bool empty_chain = template_ && template_->parameters.empty();
    if (doc && empty_chain)
      summary_->setText("No links yet: an empty chain on its base. Add links, joints and payloads in the Model dock.");
    if (doc && !empty_chain) {
      const std::filesystem::path dir = example_.isEmpty()
                                            ? std::filesystem::path(".")
                                            : std::filesystem::path(QFileInfo(example_).absolutePath().toStdString());
      const std::optional<Project> p = projectFromJson(*doc, dir, diag);
      if (p) {
        double mass = 0.0;
        for (const Link& l : p->model.links) mass += l.mass;
        for (const Payload& pl : p->model.payloads) mass += pl.mass;
        for (const Joint& j : p->model.joints) mass += j.mass;
        summary_->setText(QString("%1 link(s), %2 payload(s), total mass %3 kg (links, payloads and joints).")
                              .arg(p->model.links.size())
                              .arg(p->model.payloads.size())
                              .arg(mass, 0, 'g', 4));
      }
    }
    // Each message under the field whose path it names (for a template, the first path of its value).
    QStringList unplaced;
    for (const Diagnostic& d : diag.all()) {
      if (d.severity != Diagnostic::Severity::Error) continue;
      QString key;
      const QString path = QString::fromStdString(d.path);
      if (template_)
        for (const TemplateParameter& p : template_->parameters)
          for (const std::string& each : p.paths) {
            const QString q = QString::fromStdString(each);
            if (path == q || path.startsWith(q + ".") || path.startsWith(q + "[") || path == "--set " + q)
              key = QString::fromStdString(p.paths.front());
          }
      if (key.isEmpty())
        unplaced << QString::fromStdString(d.text());
      else
        errors[key] += (errors[key].isEmpty() ? "" : "\n") + QString::fromStdString(d.message);
    }
    for (auto& [key, f] : fields_) {
      const QString message = errors.count(key) ? errors[key] : QString();
      f.error->setText(message);
      f.error->setVisible(!message.isEmpty());
      f.editor->setStyleSheet(message.isEmpty() ? QString() : QString(kErrorStyle));
    }
    general_error_->setText(unplaced.join("\n"));
    if (!unplaced.isEmpty() && error_.isEmpty()) error_ = unplaced.join("\n");
    for (const auto& [key, message] : errors) error_ += (error_.isEmpty() ? "" : "\n") + key + ": " + message;
    if (doc && error_.isEmpty())
      document_ = std::move(doc);
    else
      summary_->clear();
    emit completeChanged();
  }

  QFormLayout* form_;
  QLabel* summary_;
  QLabel* general_error_;
  std::map<QString, Field> fields_;
  const ProjectTemplate* template_ = nullptr;
  QString example_;
  std::optional<Json> base_;
  QString load_error_;
  std::optional<Json> document_;
  QString error_;
};

NewProjectWizard::NewProjectWizard(const QString& examples_dir, QWidget* parent) : QWizard(parent), examples_dir_(examples_dir) {
  setWindowTitle("New project");
  setObjectName("NewProjectWizard");
  setOptions(QWizard::NoBackButtonOnStartPage);
  auto* start = new QWizardPage(this);
  start->setTitle("Start from");
  start->setSubTitle("An empty project, a template, or a copy of a shipped example.");
  auto* layout = new QVBoxLayout(start);
  list_ = new QListWidget(start);
  list_->setObjectName("wizard.starts");
  auto header = [this](const QString& text) {
    auto* item = new QListWidgetItem(text, list_);
    item->setFlags(Qt::NoItemFlags);
    QFont f = item->font();
    f.setBold(true);
    item->setFont(f);
  };
  header("Templates");
  for (const ProjectTemplate& t : projectTemplates()) {
    auto* item = new QListWidgetItem("    " + QString::fromStdString(t.title), list_);
    item->setData(kStartRole, QString::fromStdString(t.id));
    item->setToolTip(QString::fromStdString(t.description));
  }
  header("Shipped examples");
  for (const QFileInfo& fi : QDir(examples_dir).entryInfoList({"*.flexarm.json"}, QDir::Files, QDir::Name)) {
    Diagnostics diag;
    const std::optional<Json> doc = projectFromExample(fi.absoluteFilePath().toStdString(), diag);
    QString title = fi.fileName().remove(".flexarm.json");
    QString tip;
    if (doc && doc->contains("name") && (*doc)["name"].is_string()) title += " — " + jsonValueText((*doc)["name"]);
    if (doc && doc->contains("description") && (*doc)["description"].is_string()) tip = jsonValueText((*doc)["description"]);
    auto* item = new QListWidgetItem("    " + title, list_);
    item->setData(kStartRole, fi.absoluteFilePath());
    item->setToolTip(tip);
  }
  layout->addWidget(list_, 1);
  description_ = new QLabel(start);
  description_->setWordWrap(true);
  description_->setMinimumHeight(60);
  layout->addWidget(description_);
  addPage(start);
  settings_ = new TemplateSettingsPage(this);
  addPage(settings_);
  connect(list_, &QListWidget::currentItemChanged, this, [this](QListWidgetItem* item) {
    description_->setText(item ? item->toolTip() : QString());
    if (item) settings_->setStart(item->data(kStartRole).toString());
  });
  connect(list_, &QListWidget::itemDoubleClicked, this, [this] { next(); });
  choose(QString::fromStdString(projectTemplates()[1].id));
  resize(720, 560);
}

QStringList NewProjectWizard::starts() const {
  QStringList out;
  for (int i = 0; i < list_->count(); ++i)
    if (list_->item(i)->flags() & Qt::ItemIsSelectable) out << list_->item(i)->data(kStartRole).toString();
  return out;
}

bool NewProjectWizard::choose(const QString& start) {
  for (int i = 0; i < list_->count(); ++i)
    if ((list_->item(i)->flags() & Qt::ItemIsSelectable) && list_->item(i)->data(kStartRole).toString() == start) {
      list_->setCurrentRow(i);
      return true;
    }
  return false;
}

QString NewProjectWizard::chosen() const {
  return list_->currentItem() ? list_->currentItem()->data(kStartRole).toString() : QString();
}
QWidget* NewProjectWizard::field(const QString& key) const { return settings_->field(key); }
QString NewProjectWizard::fieldError(const QString& key) const { return settings_->fieldError(key); }
std::optional<Json> NewProjectWizard::document() const { return settings_->document(); }
QString NewProjectWizard::error() const { return settings_->error(); }
QString NewProjectWizard::summary() const { return settings_->summary(); }

}  // namespace flexarm
