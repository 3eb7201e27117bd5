#pragma once
// "--set path=value" overrides applied to a project's JSON before it is interpreted.
// Paths use the JSON layout: joints[0].drive.omega0, simulation.t_end, links[1].mass.
// The value is parsed as JSON when it can be (8, true, [0,0,-9.81], "x"), otherwise taken as a string.
#include <string>
#include <vector>

#include "base/Result.hpp"
#include "io/Diagnostics.hpp"
#include "io/JsonReader.hpp"

namespace flexarm {

// Applies one override "path=value". Reports problems to diag (path "--set <path>") and returns false.
bool applyOverride(Json& doc, const std::string& assignment, Diagnostics& diag);

// Whether a path is well formed (keys separated by '.', indices in [] of at most 9 digits); it may
// still name nothing in a given project.
Status checkOverridePath(const std::string& path);

// After the document with `assignments` applied has been interpreted: a key an assignment set that
// the project format does not know (the loader's "unknown key ignored" warning at or below its path)
// becomes an error, for a misspelled override would otherwise do nothing at all. In a project file
// an unknown key stays a warning.
void refuseUnknownKeysSetBy(const std::vector<std::string>& assignments, Diagnostics& diag);

// The value at a path of that form; nullptr when the path is malformed or names nothing.
const Json* valueAtPath(const Json& doc, const std::string& path);

}  // namespace flexarm
