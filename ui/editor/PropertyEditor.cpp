#include "ui/editor/PropertyEditor.hpp"

#include "ui/document/PathWords.hpp"

#include <qcustomplot.h>

#include <QComboBox>
#include <QFileDialog>
#include <QPushButton>
#include <QGridLayout>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QRegularExpression>
#include <QScrollArea>
#include <QSignalBlocker>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>

#include "base/NumberFormat.hpp"
#include "dynamics/MultibodySystem.hpp"
#include "ui/document/ModelEdits.hpp"
#include "ui/editor/FormPanel.hpp"

namespace flexarm {
namespace {

const char* kErrorStyle = "border: 2px solid #d9534f; background: #fbe3e1;";

// The numbers of a list as the form shows them: 8 significant digits, round-off as 0 (withoutRoundOff: an
// imported placement's 3.01647595790655e-17 next to 0.5 reads 0). Not what is stored: a number whose text
// the user leaves as shown keeps its stored value (parseField). A single number shows all its digits.

QStringList displayParts(const Json& v) {
  QStringList parts;
  if (!v.is_array()) return parts;
  for (const Json& x : withoutRoundOff(v))
    parts << (x.is_number_float() ? QString::fromStdString(formatShort(x.get<double>(), 8)) : jsonValueText(x));
  return parts;
}

QString displayText(const Json& v) { return v.is_array() ? displayParts(v).join(", ") : jsonValueText(v); }

// One number typed by the user: finite, or a reason.
bool parseNumber(const QString& text, double& out, QString& why) {
  const QString t = text.trimmed();
  if (t.isEmpty()) {
    why = "needs a value";
    return false;
  }
  bool ok = false;
  const double v = QLocale::c().toDouble(t, &ok);
  if (!ok) {
    why = "\"" + t + "\" is not a number";
    return false;
  }
  if (!std::isfinite(v)) {
    why = "must be a finite number, got " + t;
    return false;
  }
  out = v;
  return true;
}

// The text of a field as the JSON value it stands for, or a reason.
// The value a field shows: its own reading of the document, the document's value at its path, or its fallback.
Json storedValue(const ProjectDocument& doc, const FieldSpec& f) {
  if (f.current) return f.current(doc);
  if (const Json* v = doc.value(f.path)) return *v;
  return f.fallback;
}

// `current`: the stored value the field shows; a number of a list whose text is still the one shown keeps
// its stored value exactly (a single number shows every digit: it reads back as it is).
bool parseField(const FieldSpec& f, const QString& text, const Json& current, Json& out, QString& why) {
  switch (f.kind) {
    case FieldSpec::Kind::Number: {
      double v = 0.0;
      if (!parseNumber(text, v, why)) return false;
      out = v;
      return true;
    }
    case FieldSpec::Kind::Integer: {
      double v = 0.0;
      if (!parseNumber(text, v, why)) return false;
      if (v != std::floor(v) || std::abs(v) > 1e15) {
        why = "must be a whole number, got " + text.trimmed();
        return false;
      }
      out = static_cast<long long>(v);
      return true;
    }
    case FieldSpec::Kind::Numbers: {
      out = Json::array();
      const QStringList shown = displayParts(current);
      const QStringList parts = text.split(QRegularExpression("[,;\\s]+"), Qt::SkipEmptyParts);
      for (int i = 0; i < parts.size(); ++i) {
        if (i < shown.size() && parts[i] == shown[i] && current[static_cast<std::size_t>(i)].is_number()) {
          out.push_back(current[static_cast<std::size_t>(i)]);  // as shown: the stored value, not its rounding
          continue;
        }
        double v = 0.0;
        if (!parseNumber(parts[i], v, why)) return false;
        out.push_back(v);
      }
      if (f.count > 0 && static_cast<int>(out.size()) != f.count) {
        why = QString("needs %1 numbers separated by commas, got %2").arg(f.count).arg(out.size());
        return false;
      }
      return true;
    }
    default: out = text.trimmed().toStdString(); return true;
  }
}

QString rowSignature(const FieldSpec& f) {
  return QString("%1|%2|%3|%4|%5").arg(static_cast<int>(f.kind)).arg(f.path, f.label, f.unit, f.choices.join(","));
}

QString titleOf(const ProjectDocument& doc, const ModelItem& item) {
  auto name = [&doc](const char* array, int i) {
    const Json* n = doc.value(QString("%1[%2].name").arg(array).arg(i));
    return n && n->is_string() ? QString::fromStdString(n->get<std::string>()) : QString("%1[%2]").arg(array).arg(i);
  };
  switch (item.kind) {
    case ModelItem::Kind::Project: return "Project";
    case ModelItem::Kind::Simulation: return "Simulation settings";
    case ModelItem::Kind::Link: return "Link " + name("links", item.index);
    case ModelItem::Kind::Joint: return "Joint " + name("joints", item.index);
    case ModelItem::Kind::Payload: return "Payload " + name("payloads", item.index);
    case ModelItem::Kind::Load: return "Load " + name("loads", item.index);
    case ModelItem::Kind::Constraint: return "Constraint " + name("constraints", item.index);
    case ModelItem::Kind::Variant: return "Variant " + name("variants", item.index);
    case ModelItem::Kind::Study: return "Study";
    case ModelItem::Kind::None: break;
  }
  return "Select an item in the model tree";
}
}  // namespace

PropertyEditor::PropertyEditor(ProjectDocument* doc, QWidget* parent) : QWidget(parent), doc_(doc) {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(4, 4, 4, 4);
  title_ = new QLabel(this);
  title_->setStyleSheet("font-weight: bold;");
  scroll_ = new QScrollArea(this);
  scroll_->setWidgetResizable(true);
  scroll_->setFrameShape(QFrame::NoFrame);
  scroll_->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  preview_ = new QCustomPlot(this);
  // Tick labels with '.', as every plot's (ui/plots' useCNumbers; editor/ does not include ui/plots).
  preview_->setLocale(QLocale::c());
  preview_->setObjectName("lawPreview");
  preview_->setMinimumHeight(140);
  preview_->addGraph();
  preview_->xAxis->setLabel("t [s]");
  preview_->setVisible(false);
  layout->addWidget(title_);
  layout->addWidget(scroll_, 1);
  layout->addWidget(preview_);
  rebuild();
}

void PropertyEditor::showItem(const ModelItem& item) {
  item_ = item;
  signature_.clear();  // always rebuild for another item
  refresh(system_);
}

void PropertyEditor::refresh(const MultibodySystem* system) {
  system_ = system;
  const std::vector<FieldSpec> specs = formFor(*doc_, item_, system_);
  QStringList signature;
  for (const FieldSpec& f : specs) signature << rowSignature(f);
  title_->setText(titleOf(*doc_, item_));
  // The same fields (not after showItem, which clears the signature; a group header has none): new values.
  if (signature == signature_ && !rows_.empty() && rows_.size() == specs.size()) {
    for (std::size_t r = 0; r < rows_.size(); ++r) rows_[r].spec = specs[r];  // Info texts change
    fill();
  } else {
    signature_ = signature;
    rows_.clear();
    for (const FieldSpec& f : specs) rows_.push_back({f, nullptr, nullptr});
    rebuild();
  }
  updatePreview();
}

void PropertyEditor::rebuild() {
  ++generation_;
  if (QWidget* old = scroll_->takeWidget()) {
    old->setParent(this);  // owned until it goes (also if the editor goes first)
    old->hide();
    old->deleteLater();  // a signal of one of its fields may be on the stack
  }
  auto* form = new QWidget;
  auto* grid = new QGridLayout(form);
  grid->setColumnStretch(0, 2);  // labels and fields share the width; the unit takes what it needs
  grid->setColumnStretch(1, 3);
  int line = 0;
  const unsigned generation = generation_;
  for (std::size_t r = 0; r < rows_.size(); ++r) {
    Row& row = rows_[r];
    const FieldSpec& f = row.spec;
    if (f.kind == FieldSpec::Kind::Heading) {
      auto* h = new QLabel("<b>" + f.label + "</b>", form);
      h->setWordWrap(true);  // a long heading must not widen the form past the dock
      grid->addWidget(h, line++, 0, 1, 3);
      continue;
    }
    if (f.kind == FieldSpec::Kind::Panel) {  // the whole width; it shows its own messages
      FormPanel* panel = f.panel(*doc_, form);
      panel->setObjectName(f.path);
      connect(panel, &FormPanel::refused, this, &PropertyEditor::refused);
      row.editor = panel;
      grid->addWidget(panel, line++, 0, 1, 3);
      continue;
    }
    auto* label = new QLabel(f.label, form);
    label->setWordWrap(true);  // a long label takes two lines rather than the field's width
    grid->addWidget(label, line, 0);
    if (f.kind == FieldSpec::Kind::Info) {
      auto* text = new QLabel(f.info, form);
      text->setWordWrap(true);
      text->setTextInteractionFlags(Qt::TextSelectableByMouse);
      row.editor = text;
      grid->addWidget(text, line++, 1, 1, 2);
      continue;
    }
    if (f.kind == FieldSpec::Kind::File) {
      auto* button = new QPushButton(f.info, form);
      connect(button, &QPushButton::clicked, this, [this, r, generation] {
        if (generation != generation_ || r >= rows_.size()) return;
        const QString file = choose_file_ ? choose_file_(rows_[r].spec.label)
                                          : QFileDialog::getOpenFileName(this, rows_[r].spec.label,
                                                                         QString::fromStdString(doc_->baseDir().string()),
                                                                         "Tables (*.csv *.txt *.dat);;All files (*)");
        if (!file.isEmpty() && generation == generation_) commitValue(r, Json(file.toStdString()));
      });
      row.editor = button;
    } else if (f.kind == FieldSpec::Kind::Choice) {
      auto* combo = new QComboBox(form);
      combo->addItems(f.choices);
      for (int i = 0; i < f.choice_tooltips.size() && i < combo->count(); ++i)
        combo->setItemData(i, f.choice_tooltips[i], Qt::ToolTipRole);
      connect(combo, &QComboBox::currentIndexChanged, this, [this, r, generation] {
        if (generation == generation_) commit(r);
      });
      row.editor = combo;
    } else {
      auto* edit = new QLineEdit(form);
      connect(edit, &QLineEdit::editingFinished, this, [this, r, generation, edit] {
        if (generation != generation_ || !edit->isModified()) return;
        edit->setModified(false);
        commit(r);
      });
      row.editor = edit;
    }
    row.editor->setObjectName(f.path);
    row.editor->setToolTip(f.tooltip.isEmpty() ? f.path : f.tooltip + "\n(" + f.path + ")");
    grid->addWidget(row.editor, line, 1);
    auto* unit = new QLabel(f.unit, form);
    unit->setMinimumWidth(unit->fontMetrics().horizontalAdvance(f.unit) + 4);
    grid->addWidget(unit, line++, 2);
    row.error = new QLabel(form);
    row.error->setWordWrap(true);
    row.error->setStyleSheet("color: #a12a1f;");
    row.error->setVisible(false);
    grid->addWidget(row.error, line++, 1, 1, 2);
  }
  grid->setRowStretch(line, 1);
  scroll_->setWidget(form);
  fill();
}

void PropertyEditor::fill() {
  for (Row& row : rows_) fillRow(row);
}

void PropertyEditor::fillRow(Row& row) {
  const FieldSpec& f = row.spec;
  if (f.kind == FieldSpec::Kind::Info) {
    if (auto* l = qobject_cast<QLabel*>(row.editor)) l->setText(f.info);
    return;
  }
  if (!row.editor) return;
  if (f.kind == FieldSpec::Kind::Panel) return static_cast<FormPanel*>(row.editor)->refresh();
  const Json value = storedValue(*doc_, f);
  if (auto* combo = qobject_cast<QComboBox*>(row.editor)) {
    const QSignalBlocker block(combo);
    const QString text = jsonValueText(value);
    if (combo->findText(text) < 0 && !text.isEmpty()) combo->addItem(text);
    combo->setCurrentIndex(combo->findText(text));
  } else if (auto* edit = qobject_cast<QLineEdit*>(row.editor)) {
    edit->setText(displayText(value));
    edit->setModified(false);
    edit->setCursorPosition(0);
  }
  fitToValue(row.editor, f.kind == FieldSpec::Kind::Text);
  setError(row, {});
}

// A field is never narrower than its value (a free text: than its first kFreeTextChars characters),
// and a combo box than its longest choice: values read in full at any dock width the window allows.
void PropertyEditor::fitToValue(QWidget* editor, bool free_text) {
  const QFontMetrics fm(editor->font());
  int text = 0;
  if (auto* edit = qobject_cast<QLineEdit*>(editor)) {
    text = fm.horizontalAdvance(edit->text());
    if (free_text) text = std::min(text, kFreeTextChars * fm.averageCharWidth());
    text += 2 * 4 + 4;  // the frame, the line edit's margins and the cursor
  } else if (auto* combo = qobject_cast<QComboBox*>(editor)) {
    text = combo->minimumSizeHint().width();
    for (int i = 0; i < combo->count(); ++i) text = std::max(text, fm.horizontalAdvance(combo->itemText(i)) + 40);
  } else {
    return;
  }
  editor->setMinimumWidth(std::max(text, 4 * fm.averageCharWidth()));
}

void PropertyEditor::setError(Row& row, const QString& message) {
  if (!row.error) return;
  // In the form's words ("length of link 'upper': ..."); the loader's path stays in the tooltip.
  row.error->setText(messageWords(doc_->json(), message));
  row.error->setVisible(!message.isEmpty());
  row.editor->setStyleSheet(message.isEmpty() ? QString() : QString(kErrorStyle));
  row.editor->setToolTip(message.isEmpty() ? row.spec.path : message);
  if (!message.isEmpty()) scroll_->ensureWidgetVisible(row.error);
}

void PropertyEditor::commit(std::size_t r) {
  if (r >= rows_.size()) return;
  const FieldSpec spec = rows_[r].spec;  // rows_ may be rebuilt by the edit
  QString text;
  if (auto* combo = qobject_cast<QComboBox*>(rows_[r].editor))
    text = combo->currentText();
  else if (auto* edit = qobject_cast<QLineEdit*>(rows_[r].editor))
    text = edit->text();
  Json value;
  QString why;
  if (!parseField(spec, text, storedValue(*doc_, spec), value, why)) {
    setError(rows_[r], spec.path + ": " + why);
    emit refused(spec.path + ": " + why);
    return;
  }
  commitValue(r, value);
}

void PropertyEditor::commitValue(std::size_t r, const Json& value) {
  const FieldSpec spec = rows_[r].spec;  // rows_ may be rebuilt by the edit
  const unsigned generation = generation_;
  QString error;
  const bool ok = spec.commit ? spec.commit(*doc_, value, &error) : doc_->setValue(spec.path, value, &error, spec.unit);
  if (generation != generation_ || r >= rows_.size()) return;  // rebuilt: the new form shows the document
  if (ok) return setError(rows_[r], {});
  if (qobject_cast<QComboBox*>(rows_[r].editor)) fillRow(rows_[r]);  // back to the document's choice
  setError(rows_[r], error);
  emit refused(error);
}

void PropertyEditor::updatePreview() {
  const Project* p = doc_->project();
  const bool show = p && item_.kind == ModelItem::Kind::Joint && item_.index >= 0 &&
                    item_.index < static_cast<int>(p->model.joints.size()) && !edits::lawPath(*doc_, item_.index).isEmpty();
  preview_->setVisible(show);
  if (!show) {
    preview_->graph(0)->data()->clear();
    return;
  }
  const Joint& j = p->model.joints[static_cast<std::size_t>(item_.index)];
  const double t_end = p->simulation.t_end;
  const int n = 400;
  QVector<double> t(n + 1), f(n + 1);
  for (int k = 0; k <= n; ++k) {
    t[k] = t_end * k / n;
    f[k] = j.drive.law.evaluate(t[k]).value;
  }
  const bool revolute = j.type == JointType::Revolute;
  const QString unit = j.drive.kind == JointDrive::Kind::Effort ? (revolute ? "N m" : "N") : (revolute ? "rad" : "m");
  preview_->yAxis->setLabel(QString(j.drive.kind == JointDrive::Kind::PD ? "set-point" : lawName(j.drive.law.law)) + " [" + unit +
                            "]");
  preview_->graph(0)->setData(t, f, true);
  preview_->rescaleAxes();
  const QCPRange y = preview_->yAxis->range();
  if (y.size() < 1e-12) preview_->yAxis->setRange(y.lower - 1.0, y.upper + 1.0);
  preview_->replot();
}

QWidget* PropertyEditor::field(const QString& path) const {
  for (const Row& row : rows_)
    if (row.spec.path == path && row.spec.kind != FieldSpec::Kind::Info && row.spec.kind != FieldSpec::Kind::Heading)
      return row.editor;
  return nullptr;
}

QString PropertyEditor::fieldError(const QString& path) const {
  for (const Row& row : rows_) {
    if (row.spec.path != path) continue;
    if (row.spec.kind == FieldSpec::Kind::Panel) return static_cast<FormPanel*>(row.editor)->error();
    if (row.error) return row.error->text();
  }
  return {};
}

QStringList PropertyEditor::paths() const {
  QStringList out;
  for (const Row& row : rows_)
    if (!row.spec.path.isEmpty()) out << row.spec.path;
  return out;
}

QString PropertyEditor::pathOf(const QWidget* w) const {
  if (!w) return {};
  for (const Row& row : rows_)
    if (row.editor && !row.spec.path.isEmpty() && (row.editor == w || row.editor->isAncestorOf(w))) return row.spec.path;
  return {};
}

void PropertyEditor::setFileChooser(std::function<QString(const QString&)> chooser) { choose_file_ = std::move(chooser); }

int PropertyEditor::previewPoints() const { return preview_->isVisibleTo(this) ? preview_->graph(0)->dataCount() : 0; }

double PropertyEditor::previewLastValue() const {
  const int n = preview_->graph(0)->dataCount();
  return n > 0 ? (preview_->graph(0)->data()->constEnd() - 1)->value : 0.0;
}

}  // namespace flexarm
