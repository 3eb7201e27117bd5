#pragma once
// File > New: where a new project starts. Page 1 picks the start: an empty base, a template (a single
// flexible link, a planar two-link arm) or a copy of any shipped example. Page 2 names the project
// and, for a template, sets its first values (lengths, section, material, elements, payload), each
// with its unit; every value is checked at once by the loader, whose message shows under the field,
// and Finish stays disabled until the project is valid. The result is a project document, untitled:
// the workbench opens it in the editor and asks where to save it on the first Save.
#include <QWizard>
#include <optional>

#include "io/JsonReader.hpp"

class QLabel;
class QListWidget;

namespace flexarm {

class TemplateSettingsPage;

class NewProjectWizard : public QWizard {
  Q_OBJECT
 public:
  explicit NewProjectWizard(const QString& examples_dir, QWidget* parent = nullptr);

  // The starts offered, in order: template ids ("empty", "single-flexible-link", ...) then the
  // examples' file paths.
  QStringList starts() const;
  // Selects a start on page 1 (as clicking it does); false when it is not offered.
  bool choose(const QString& start);
  QString chosen() const;

  // Page 2's fields: "name", or a parameter's first path ("links[0].length").
  QWidget* field(const QString& key) const;
  // The loader's message under a field ("" when the value is accepted).
  QString fieldError(const QString& key) const;
  // The project as set, or nullopt while a value is refused (error() says why).
  std::optional<Json> document() const;
  QString error() const;
  // Page 2's summary of the chosen start (links, payloads, mass; or that the chain is empty).
  QString summary() const;

 private:
  QListWidget* list_;
  QLabel* description_;
  TemplateSettingsPage* settings_;
  QString examples_dir_;
};

}  // namespace flexarm
