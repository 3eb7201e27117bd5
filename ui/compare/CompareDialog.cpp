#include "ui/compare/CompareDialog.hpp"

#include <QDialogButtonBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QVBoxLayout>

#include "io/ProjectSchema.hpp"

namespace flexarm {

CompareDialog::CompareDialog(const Project& project, const QString& base_dir, QWidget* parent)
    : QDialog(parent), project_(project), base_dir_(base_dir) {
  setWindowTitle("Compare variants");
  list_ = new QListWidget(this);
  spec_ = new QLineEdit(this);
  spec_->setPlaceholderText("path=value;path=value   e.g. coupling=zero;joints[0].drive.omega0=8");
  auto* add = new QPushButton("Add", this);
  message_ = new QLabel(this);
  message_->setWordWrap(true);
  buttons_ = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
  buttons_->button(QDialogButtonBox::Ok)->setText("Run and compare");
  auto* row = new QHBoxLayout;
  row->addWidget(spec_, 1);
  row->addWidget(add);
  auto* layout = new QVBoxLayout(this);
  layout->addWidget(new QLabel("Tick two or more variants; they run concurrently and are shown side by side.", this));
  layout->addWidget(list_, 1);
  layout->addWidget(new QLabel("Another variant (overrides of the project by JSON path):", this));
  layout->addLayout(row);
  layout->addWidget(message_);
  layout->addWidget(buttons_);
  auto entry = [this](const StudyCase& c, const QString& tip) {
    all_.push_back(c);
    auto* item = new QListWidgetItem(QString::fromStdString(c.name), list_);
    item->setFlags(item->flags() | Qt::ItemIsUserCheckable);
    item->setCheckState(Qt::Unchecked);
    item->setToolTip(tip);
  };
  entry({"as is", {}}, "the project without changes");
  for (const Variant& v : project.variants) {
    if (const Result<StudyCase> c = variantCase(project, v.name)) entry(*c, "a variant the project defines");
  }
  for (const std::string& order : schema::couplingNames())
    entry({"coupling=" + order, {"coupling=" + order}},
          QString("%1-order rigid-flexible coupling").arg(QString::fromStdString(order)));
  connect(list_, &QListWidget::itemChanged, this, [this] { update(); });
  connect(add, &QPushButton::clicked, this, [this] {
    const QString why = addSpec(spec_->text());
    message_->setText(why);
    if (why.isEmpty()) spec_->clear();
  });
  connect(spec_, &QLineEdit::returnPressed, add, &QPushButton::click);
  connect(buttons_, &QDialogButtonBox::accepted, this, &QDialog::accept);
  connect(buttons_, &QDialogButtonBox::rejected, this, &QDialog::reject);
  update();
  resize(520, 460);
}

QString CompareDialog::addSpec(const QString& spec) {
  if (spec.trimmed().isEmpty()) return "type overrides such as coupling=zero;links[0].mass=2";
  const Result<StudyCase> made = variantCase(project_, spec.trimmed().toStdString());
  if (!made) return QString::fromStdString(made.error().text());
  const StudyCase& c = *made;
  if (const Result<Project> p = caseProject(project_, base_dir_.toStdString(), c); !p)
    return QString::fromStdString(p.error().text()).trimmed();
  for (const StudyCase& other : all_)
    if (other.name == c.name) {
      setChecked(QString::fromStdString(c.name), true);
      return {};
    }
  all_.push_back(c);
  auto* item = new QListWidgetItem(QString::fromStdString(c.name), list_);
  item->setFlags(item->flags() | Qt::ItemIsUserCheckable);
  item->setCheckState(Qt::Checked);
  return {};
}

void CompareDialog::setChecked(const QString& name, bool on) {
  for (int i = 0; i < list_->count(); ++i)
    if (list_->item(i)->text() == name) list_->item(i)->setCheckState(on ? Qt::Checked : Qt::Unchecked);
}

std::vector<StudyCase> CompareDialog::cases() const {
  std::vector<StudyCase> out;
  for (int i = 0; i < list_->count(); ++i)
    if (list_->item(i)->checkState() == Qt::Checked) out.push_back(all_[static_cast<std::size_t>(i)]);
  return out;
}

void CompareDialog::update() {
  const std::size_t n = cases().size();
  buttons_->button(QDialogButtonBox::Ok)->setEnabled(n >= 2);
  if (n < 2)
    message_->setText(QString("%1 ticked: tick two or more.").arg(n));
  else
    message_->clear();
}

}  // namespace flexarm
