#pragma once
// The editor's operations on the variants and the study of a project (docs/project-format.md sec. 8.2).
// A variant is a named set of overrides by path ({"coupling": "zero"}); every change of its overrides is
// checked at once the way the study will use them: applied in order (core/io/Overrides) to the
// project's canonical JSON, which the loader must then accept with no new warning (an override that
// adds a key the format does not know would be ignored by every run: it is refused too). A refusal
// carries the loader's message, prefixed with the variant ("variant fast: links[0].length: must be >= 0,
// got -1"), and leaves the document unchanged. A study grid is checked the same way, every case of it.
// Renaming or deleting a variant updates the study's list of names. Each operation is one undoable
// command with a readable name.
#include <QString>
#include <QStringList>
#include <string>
#include <utility>
#include <vector>

#include "ui/document/ProjectDocument.hpp"

namespace flexarm::edits {

// Variants.
bool addVariant(ProjectDocument& doc, QString* error = nullptr);                   // "variant<n>", no overrides (a baseline)
bool duplicateVariant(ProjectDocument& doc, int index, QString* error = nullptr);  // "<name>-copy", right after it
bool deleteVariant(ProjectDocument& doc, int index, QString* error = nullptr);
bool renameVariant(ProjectDocument& doc, int index, const QString& name, QString* error = nullptr);

// The overrides of a variant, row by row in the order they are applied.
// Sets row `row` (the end when -1) to path = value; `value` is read as `--set` reads it: JSON when it
// parses (8, true, [0, 0, -9.81], null, "x"), otherwise a plain string.
bool setOverride(ProjectDocument& doc, int variant, int row, const QString& path, const QString& value, QString* error = nullptr);
bool removeOverride(ProjectDocument& doc, int variant, int row, QString* error = nullptr);
// Several "path=value" lines (as flexarm-cli --set) in one command, checked together: for overrides
// that only make sense together, e.g. a flexible link made rigid ("links[0].flex=null", then its mass).
// A path already in the variant keeps its place and takes the new value.
bool addOverrideLines(ProjectDocument& doc, int variant, const QString& lines, QString* error = nullptr);
// Why the variant's overrides do not make a valid project now (after later edits of the model); "" when
// they do.
QString variantProblem(const ProjectDocument& doc, int variant);

// How the table shows an override's value (strings bare unless they would read as something else).
QString overrideText(const Json& value);
Json overrideValue(const QString& text);

// The study: "none", "variants" (a list of variant names) or "grid" (values by path).
QString studyKind(const ProjectDocument& doc);
// variants: every variant in the list (refused when there is none); grid: coupling zero vs high.
bool setStudyKind(ProjectDocument& doc, const std::string& kind, QString* error = nullptr);
bool setStudyVariants(ProjectDocument& doc, const QStringList& names, QString* error = nullptr);
// Row `row` (the end when -1) of the grid: path and its values as "a, b, c" (each read as setOverride
// reads a value) or as one JSON array.
bool setGridRow(ProjectDocument& doc, int row, const QString& path, const QString& values, QString* error = nullptr);
bool removeGridRow(ProjectDocument& doc, int row, QString* error = nullptr);
QString valuesText(const Json& values);
// The cases the study runs, by name (as flexarm-cli study names them).
QStringList studyCaseNames(const ProjectDocument& doc);

}  // namespace flexarm::edits
