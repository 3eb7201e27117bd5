#pragma once
// What the property editor shows for each model item: one FieldSpec per value, bound to the value's
// JSON path in the project document, with its unit and the format's default (shown while the key
// is absent). Fields that change which keys an object holds (rigid/flexible, presets, basis, shape,
// drive type, law, constraint type, study kind) commit through the operations of ModelEdits,
// ConstraintEdits and VariantEdits; a variant's overrides and the study are panels (VariantPanels).
#include <QString>
#include <QStringList>
#include <functional>
#include <vector>

#include "ui/document/ProjectDocument.hpp"

class QWidget;

namespace flexarm {

class FormPanel;
class MultibodySystem;

struct FieldSpec {
  enum class Kind {
    Number,   // a finite real
    Integer,  // a whole number
    Numbers,  // "a, b, c": a list (exactly `count` numbers when count > 0)
    Text,     // a string
    Choice,   // one of `choices`
    Heading,  // a group title
    Info,     // read-only text (values the loader or the discretization computed)
    File,     // a button (text: `info`) that asks for a file and commits its path (a string)
    Panel,    // a widget of its own made by `panel` (a table, a list); it commits its edits itself
  };
  Kind kind = Kind::Number;
  QString path;  // loader path of the value ("links[0].flex.material.E"); names the widget too
  QString label;
  QString unit;   // shown beside the field, e.g. "Pa", "kg m²"
  Json fallback;  // shown while the key is absent (the format's default); null: empty
  QStringList choices;
  int count = 0;
  QString info;                 // Info: the text
  QString tooltip;              // what the field is for (the editor's tooltip, with the path)
  QStringList choice_tooltips;  // Choice: one line per choice, when to choose it
  // The value to show when it is not simply the one at `path` (e.g. whether a link is flexible).
  std::function<Json(const ProjectDocument&)> current;
  // The edit; default: ProjectDocument::setValue(path, value).
  std::function<bool(ProjectDocument&, const Json&, QString*)> commit;
  // Panel: makes the widget (owned by parent).
  std::function<FormPanel*(ProjectDocument&, QWidget* parent)> panel;
};

// A list of numbers with each entry below 1e-12 of the list's largest magnitude as 0 (round-off, e.g. an
// imported placement's 3e-17 next to 0.5): what the form shows of a list.
Json withoutRoundOff(const Json& list);

// The fields of an item. `system` (may be null) gives the derived read-only values.
std::vector<FieldSpec> formFor(const ProjectDocument& doc, const ModelItem& item, const MultibodySystem* system);

}  // namespace flexarm
