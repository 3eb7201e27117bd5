#pragma once
// What a project file may hold, defined once, for the reader, the writer and the editor's forms.
// This first part holds the time laws f(t) of drives, set-points and constraint values: each law's
// name, its parameters in file order with unit, need, range and the value a new law starts with.
// The choices and defaults of the simulation settings are here too, and every other key of the file
// (keys()): its JSON path, type, unit, need, range, default, choices and the editor's label, with the
// section presets' and shapes' dimensions. docs/project-format.md's tables are checked against it
// (ProjectSchema.DocumentedKeysMatchTheSchema).
#include <limits>
#include <string>
#include <vector>

#include "io/JsonReader.hpp"
#include "model/FlexibleLink.hpp"
#include "model/JointDrive.hpp"
#include "model/Model.hpp"
#include "model/RigidInertia.hpp"
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
// The model's names of an enum's values 0, 1, ... up to the first it does not name ("?").
template <class Enum, class NameOf>
std::vector<std::string> enumNames(NameOf name) {
  std::vector<std::string> out;
  for (int k = 0;; ++k) {
    const std::string word = name(static_cast<Enum>(k));
    if (word == "?") return out;
    out.push_back(word);
  }
}
std::vector<std::string> couplingNames();   // coupling: zero, geometric, high
std::vector<std::string> methodNames();     // simulation.solver.method: bdf, adams, ida, newmark, dirk, galpha, esdirk
std::vector<std::string> jacobianNames();   // simulation.solver.jacobian: analytic, difference
std::vector<std::string> driveTypeNames();  // joints[i].drive.type: free, effort, pd, prescribed

// The values a project has where its file says nothing: the reader starts from them, the editor
// shows them for absent keys.
const SimulationSettings& simulationDefaults();

// ---- Every key of a project file ----------------------------------------------------------------

enum class Type { Text, Name, Number, Integer, Vector3, Numbers, Inertia, Choice, Boolean, Object, Array, Law };
const char* typeName(Type type);  // "number", "integer", "[x, y, z]", ...

struct Key {
  // The JSON path with "[]" for any index of an array: "links[].flex.section.width".
  std::string path;
  Type type = Type::Text;
  // The SI unit ("m", "kg m²", "-" for a pure number, "" for none). A quantity that depends on the
  // joint's type has both, revolute first: "rad|m" (unitFor picks one, docUnit writes "rad / m").
  const char* unit = "";
  Need need = Need::Optional;
  Range range = Range::Any;
  Json fallback;                     // the value of an absent optional key; null when none or it follows from others
  std::vector<std::string> choices;  // of a Choice (file order: the index read is the enum's value); a Text's suggestions
  const char* label = "";            // the editor's label
  double lower = -std::numeric_limits<double>::infinity();  // bounds beyond `range` (e.g. elements 1 ... 200)
  double upper = std::numeric_limits<double>::infinity();
  Json initial;  // in a new item the editor adds (null: not written)

  std::string name() const;  // the last part of the path: "width"
};

// Every key, parents before their children, in the order the writer writes them.
const std::vector<Key>& keys();
// The key at `path` ("links[].length"); throws std::logic_error for a path the schema does not know
// (a programming error, caught by the tests).
const Key& key(const std::string& path);
// The keys directly below `path` ("links[]" gives links[].name, links[].length, ...).
std::vector<const Key*> keysUnder(const std::string& path);
// A new object at `path` as the editor adds it: its direct keys with an initial value, in order.
Json newObject(const std::string& path);
// The unit of a quantity for a revolute (true) or prismatic joint: "rad|m" -> "rad" or "m".
std::string unitFor(const char* unit, bool revolute);
// The unit as docs/project-format.md writes it: "rad|m" -> "rad / m".
std::string docUnit(const char* unit);

// ---- Presets: a kind named in the file and the dimensions it needs ------------------------------

template <class Preset>
struct Dimension {
  const Key* key;         // links[].flex.section.width, ...: unit, range, label
  double Preset::*field;  // where the value goes
  double initial;         // in a new preset of this kind
};

template <class Preset>
struct PresetSpec {
  typename Preset::Kind kind;
  const char* name;                           // sectionPresetName / shapeName
  std::vector<Dimension<Preset>> dimensions;  // in file order
};

// links[].flex.section.preset: rectangle, tube, ibeam (in the order of SectionPreset::Kind).
const std::vector<PresetSpec<SectionPreset>>& sectionPresets();
// links[].shape.type: rod, box, cylinder, tube (in the order of ShapePreset::Kind).
const std::vector<PresetSpec<ShapePreset>>& shapePresets();
std::vector<std::string> sectionPresetNames();
std::vector<std::string> shapeNames();
// A new section {"preset": name, dimensions...} / shape {"type": name, dimensions...} (null when unknown).
Json newSection(const std::string& preset);
Json newShape(const std::string& type);
// A new flexible link's flex object: an aluminium tube meshed with 4 spatial elements.
Json newFlexibleLink();

// The numbers of a struct that the file holds one key each, in file order.
template <class T>
struct Field {
  const Key* key;
  double T::*field;
};
const std::vector<Field<BeamSection>>& sectionProperties();  // links[].flex.section: A, Iy, Iz, J
const std::vector<Field<Material>>& materialProperties();    // links[].flex.material: E, G, rho
const std::vector<Field<JointFlex>>& jointFlexProperties();  // joints[].flex: stiffness, damping, rotor_inertia, gear_ratio

}  // namespace flexarm::schema
