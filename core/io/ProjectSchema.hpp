#pragma once
// What a project file may hold, defined once, for the reader, the writer and the editor's forms.
// This first part holds the time laws f(t) of drives, set-points and constraint values: each law's
// name, its parameters in file order with unit, need, range and the value a new law starts with.
// The choices and defaults of the simulation settings are here too. (Issue 16 item 1 extends it
// key by key to the whole project.)
#include <string>
#include <vector>

#include "io/JsonReader.hpp"
#include "model/JointDrive.hpp"
#include "model/Project.hpp"
#include "model/TimeFunction.hpp"

namespace flexarm::schema {

struct LawParameter {
  const char* key;
  // "f": the quantity the law gives (rad or m for a coordinate, N m or N for an effort), "f/s" its
  // rate, or a unit of its own ("s", "Hz", "rad"); empty for the polynomial's coefficients.
  const char* unit;
  Need need;                                          // Optional parameters are 0 when absent
  Range range;                                        // of a number
  double TimeFunction::*number = nullptr;             // where a number goes
  std::vector<double> TimeFunction::*list = nullptr;  // where a list of numbers goes (polynomial)
  Json initial;                                       // in a new law (the editor's default)
};

struct LawSpec {
  TimeFunction::Law law;
  const char* name;                      // lawName(law): the model names the laws
  int menu_position;                     // where the editor lists it (the table law, with its file and points, last)
  std::vector<LawParameter> parameters;  // in the order the file writes them; the table's points or file are read apart
};

// Every law, in the order of TimeFunction::Law (the order of the file's choices and messages).
const std::vector<LawSpec>& laws();
const LawSpec& law(TimeFunction::Law law);
const LawSpec* findLaw(const std::string& name);
std::vector<std::string> lawNames();      // file order
std::vector<std::string> lawMenuNames();  // the editor's order
// A new law of that name with every parameter at its initial value ({"law": name} when unknown).
Json newLaw(const std::string& name);

// The words of the keys that choose among an enum's values, in the enum's order (the index read is
// the value), from the model's own names.
std::vector<std::string> couplingNames();   // coupling: zero, geometric, high
std::vector<std::string> methodNames();     // simulation.solver.method: bdf, adams, ida, newmark, dirk, galpha
std::vector<std::string> jacobianNames();   // simulation.solver.jacobian: analytic, difference
std::vector<std::string> driveTypeNames();  // joints[i].drive.type: free, effort, pd, prescribed

// The values a project has where its file says nothing: the reader starts from them, the editor
// shows them for absent keys.
const SimulationSettings& simulationDefaults();

}  // namespace flexarm::schema
