#include "ui/editor/VariantPanels.hpp"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalBlocker>
#include <QTableWidget>
#include <QVBoxLayout>
#include <algorithm>

#include "ui/document/VariantEdits.hpp"

namespace flexarm {
namespace {

QLabel* errorLabel(QWidget* parent) {
  auto* l = new QLabel(parent);
  l->setWordWrap(true);
  l->setStyleSheet("color: #a12a1f;");
  l->setTextInteractionFlags(Qt::TextSelectableByMouse);
  l->setVisible(false);
  return l;
}

void showMessage(QLabel* label, const QString& text) {
  label->setText(text);
  label->setVisible(!text.isEmpty());
}

}  // namespace

PathTable::PathTable(ProjectDocument* doc, const QString& value_header, Hooks hooks, QWidget* parent)
    : FormPanel(parent), doc_(doc), hooks_(std::move(hooks)) {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  table_ = new QTableWidget(0, 2, this);
  table_->setObjectName("pathTable");
  table_->setHorizontalHeaderLabels({"path", value_header});
  table_->horizontalHeader()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
  table_->horizontalHeader()->setSectionResizeMode(1, QHeaderView::Stretch);
  table_->setSelectionBehavior(QAbstractItemView::SelectRows);
  table_->setSelectionMode(QAbstractItemView::SingleSelection);
  table_->setMinimumHeight(260);
  table_->setToolTip(
      "One row per path. Type a path and a value in the last row to add one; "
      "values read as flexarm-cli --set reads them (null removes the key).");
  connect(table_, &QTableWidget::itemChanged, this, &PathTable::onItemChanged);
  remove_ = new QPushButton("Remove row", this);
  remove_->setObjectName("removeRow");
  connect(remove_, &QPushButton::clicked, this, &PathTable::onRemove);
  layout->addWidget(table_, 1);
  auto* buttons = new QHBoxLayout;
  buttons->addWidget(remove_);
  buttons->addStretch(1);
  layout->addLayout(buttons);
  if (hooks_.addLines) {
    lines_ = new QPlainTextEdit(this);
    lines_->setObjectName("overrideLines");
    lines_->setPlaceholderText(
        "Several overrides at once, one path=value per line (as flexarm-cli --set), "
        "e.g.\nlinks[0].flex=null\nlinks[0].mass=2.5");
    lines_->setMaximumHeight(90);
    add_lines_ = new QPushButton("Add lines", this);
    add_lines_->setObjectName("addOverrideLines");
    add_lines_->setToolTip("Adds the lines in one edit, checked together");
    connect(add_lines_, &QPushButton::clicked, this, &PathTable::onAddLines);
    layout->addWidget(lines_);
    auto* row = new QHBoxLayout;
    row->addWidget(add_lines_);
    row->addStretch(1);
    layout->addLayout(row);
  }
  message_ = errorLabel(this);
  layout->addWidget(message_);
  refresh();
}

void PathTable::refresh() {
  const Rows rows = hooks_.rows(*doc_);
  const int n = static_cast<int>(rows.size());
  filling_ = true;
  const QSignalBlocker block(table_);
  table_->setRowCount(n + 1);  // the last row adds one
  QStringList labels;
  for (int r = 0; r <= n; ++r) {
    const QString texts[2] = {r < n ? rows[static_cast<std::size_t>(r)].first : pending_path_,
                              r < n ? rows[static_cast<std::size_t>(r)].second : pending_text_};
    for (int c = 0; c < 2; ++c) {
      QTableWidgetItem* it = table_->item(r, c);
      if (!it) {
        it = new QTableWidgetItem;
        table_->setItem(r, c, it);
      }
      it->setText(texts[c]);
      it->setToolTip(r < n ? texts[c] : QString(c == 0 ? "a new path, e.g. joints[0].drive.omega0" : "its value"));
    }
    labels << (r < n ? QString::number(r + 1) : QString("+"));
  }
  table_->setVerticalHeaderLabels(labels);
  filling_ = false;
}

void PathTable::onItemChanged(QTableWidgetItem* item) {
  if (filling_ || !item) return;
  const int r = item->row();
  const int n = static_cast<int>(hooks_.rows(*doc_).size());
  auto text = [this](int row, int col) {
    const QTableWidgetItem* it = table_->item(row, col);
    return it ? it->text().trimmed() : QString();
  };
  const QString path = text(r, 0), value = text(r, 1);
  QString error;
  if (r >= n) {
    pending_path_ = path;
    pending_text_ = value;
    if (path.isEmpty() || value.isEmpty()) return;  // complete the row first
    const bool ok = hooks_.set(*doc_, -1, path, value, &error);
    if (ok) pending_path_.clear(), pending_text_.clear();
    return report(ok, error);
  }
  report(hooks_.set(*doc_, r, path, value, &error), error);
}

void PathTable::onRemove() {
  const int r = table_->currentRow();
  const int n = static_cast<int>(hooks_.rows(*doc_).size());
  QString error;
  if (r >= n || r < 0) {  // the new row: forget what was typed
    pending_path_.clear();
    pending_text_.clear();
    return report(true, {});
  }
  report(hooks_.remove(*doc_, r, &error), error);
}

void PathTable::onAddLines() {
  QString error;
  const bool ok = hooks_.addLines(*doc_, lines_->toPlainText(), &error);
  if (ok) lines_->clear();
  report(ok, error);
}

void PathTable::report(bool ok, const QString& error) {
  error_ = ok ? QString() : error;
  showMessage(message_, error_);
  refresh();
  if (!ok) emit refused(error);
}

StudyVariantList::StudyVariantList(ProjectDocument* doc, QWidget* parent) : FormPanel(parent), doc_(doc) {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  list_ = new QListWidget(this);
  list_->setObjectName("studyVariants");
  list_->setToolTip("The checked variants are the study's cases, in this order");
  list_->setMinimumHeight(140);
  connect(list_, &QListWidget::itemChanged, this, [this] {
    if (!filling_) onChanged();
  });
  layout->addWidget(list_, 1);
  message_ = errorLabel(this);
  layout->addWidget(message_);
  refresh();
}

void StudyVariantList::refresh() {
  std::vector<std::string> names, checked;
  if (const Project* p = doc_->project()) {
    for (const Variant& v : p->variants) names.push_back(v.name);
    if (p->study) checked = p->study->variants;
  }
  filling_ = true;
  const QSignalBlocker block(list_);
  while (list_->count() > static_cast<int>(names.size())) delete list_->takeItem(list_->count() - 1);
  for (std::size_t i = 0; i < names.size(); ++i) {
    QListWidgetItem* it = list_->item(static_cast<int>(i));
    if (!it) {
      it = new QListWidgetItem(list_);
      it->setFlags(Qt::ItemIsEnabled | Qt::ItemIsUserCheckable | Qt::ItemIsSelectable);
    }
    it->setText(QString::fromStdString(names[i]));
    const bool on = std::find(checked.begin(), checked.end(), names[i]) != checked.end();
    it->setCheckState(on ? Qt::Checked : Qt::Unchecked);
  }
  filling_ = false;
}

void StudyVariantList::onChanged() {
  QStringList names;
  for (int i = 0; i < list_->count(); ++i)
    if (list_->item(i)->checkState() == Qt::Checked) names << list_->item(i)->text();
  QString error;
  const bool ok = edits::setStudyVariants(*doc_, names, &error);
  error_ = ok ? QString() : error;
  showMessage(message_, error_);
  refresh();
  if (!ok) emit refused(error);
}

}  // namespace flexarm
