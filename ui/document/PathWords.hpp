#pragma once
// A loader path in the words of the editor's form, for the messages and undo entries a user reads:
// links[0].length -> "length of link 'upper'", simulation.solver.step -> "Newmark step (simulation)".
// The JSON path itself stays in tooltips and on the command line.
#include <QString>

#include "io/JsonReader.hpp"

namespace flexarm {

// The field's label from the schema (its last name when the schema has none) and the item it belongs
// to, named as in the model tree; the path unchanged when it is not a loader path.
QString pathWords(const Json& doc, const QString& path);

// A loader message ("links[0].length: must be >= 0, got -1", one per line) with each leading path in
// words ("length of link 'upper': must be >= 0, got -1").
QString messageWords(const Json& doc, const QString& message);

}  // namespace flexarm
