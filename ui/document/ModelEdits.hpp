#pragma once
// The editor's operations on a ProjectDocument: structure (add, insert, duplicate, delete, move links
// with their joints; add and delete payloads; rename with the references to the name) and the edits
// that change which keys an object holds (rigid <-> flexible, presets, basis, shape, drive, law).
// Each builds the new document and hands it to ProjectDocument::apply: one undoable command with a
// readable name, refused with the loader's message when the result is not a valid project.
// Links and joints go in pairs (joint i drives link i), so structure edits move both.
#include <QString>
#include <string>
#include <vector>

#include "ui/document/ProjectDocument.hpp"

namespace flexarm::edits {

// A new rigid link (1 m rod of 1 kg) and its revolute joint, at `index` (the end when -1).
bool addLink(ProjectDocument& doc, int index = -1, QString* error = nullptr);
// A link with its joint at the end of the list, the joint on link `parent` (joints[].parent): a branch
// of a tree when the parent already carries a joint.
bool addBranchLink(ProjectDocument& doc, int parent, QString* error = nullptr);
// A copy of link `index` and its joint, with new names, right after it; the payloads and loads on the
// link are copied onto the copy (new names).
bool duplicateLink(ProjectDocument& doc, int index, QString* error = nullptr);
// Deletes link `index`, its joint, its payloads and loads, and the constraints that refer to either.
bool deleteLink(ProjectDocument& doc, int index, QString* error = nullptr);
// Moves link `index` and its joint by delta places along the chain.
bool moveLink(ProjectDocument& doc, int index, int delta, QString* error = nullptr);
bool addPayload(ProjectDocument& doc, int link, QString* error = nullptr);
bool deletePayload(ProjectDocument& doc, int index, QString* error = nullptr);
// A load at the tip of link `link` (its force from the schema's first values), and its removal.
bool addLoad(ProjectDocument& doc, int link, QString* error = nullptr);
bool deleteLoad(ProjectDocument& doc, int index, QString* error = nullptr);
// Renames a link, joint, payload or constraint (or the project) and every reference to the name.
bool rename(ProjectDocument& doc, const ModelItem& item, const QString& name, QString* error = nullptr);

bool setLinkFlexible(ProjectDocument& doc, int link, bool flexible, QString* error = nullptr);
bool setJointFlexible(ProjectDocument& doc, int joint, bool flexible, QString* error = nullptr);
// preset: "rectangle", "tube", "ibeam", or "" for explicit A, Iy, Iz, J (filled with the current values).
bool setSectionPreset(ProjectDocument& doc, int link, const std::string& preset, QString* error = nullptr);
// preset: "steel", "aluminium", "cfrp" (the loader's values), or "" for explicit E, G, rho (current values).
bool setMaterialPreset(ProjectDocument& doc, int link, const std::string& preset, QString* error = nullptr);
bool setBasis(ProjectDocument& doc, int link, const std::string& basis, QString* error = nullptr);  // "modes", "fem"
// shape: "rod", "box", "cylinder", "tube", or "" for an explicit centre of mass and inertia.
bool setShape(ProjectDocument& doc, int link, const std::string& shape, QString* error = nullptr);
bool setDriveType(ProjectDocument& doc, int joint, const std::string& type, QString* error = nullptr);
bool setLaw(ProjectDocument& doc, int joint, const std::string& law, QString* error = nullptr);
// Replaces the time law at `path` (a drive, a set-point, a constraint's value) by `law` with default
// parameters; a key of the object that is not part of the law ("type" of a drive) is kept.
bool setLawAt(ProjectDocument& doc, const QString& path, const std::string& law, QString* error = nullptr);
// A time law with default parameters ({"law": "constant", "value": 0}, ...).
Json defaultLaw(const std::string& law);
// The data of the table law at `path` (a drive, a set-point, a constraint's value): the points of a CSV file (core/io/TableFile's
// format) copied into the project (the file is not needed afterwards), or a reference to the file (read when the project loads; a
// relative path is against the project's directory). Refused with the reader's or the loader's
// message (a malformed line, times that do not increase, a missing file).
bool importTable(ProjectDocument& doc, const QString& path, const QString& file, QString* error = nullptr);
bool setTableFile(ProjectDocument& doc, const QString& path, const QString& file, QString* error = nullptr);

// Sets the list at `path` ("links[0].flex.nodes"), or removes the key when the list is empty or all
// zeros and zero_is_default (the format's default applies again). The sibling keys in `excludes`
// (values the format takes instead of this one: e0 and initial_load) are removed in the same step.
bool setListOrDefault(ProjectDocument& doc, const QString& path, const Json& list, bool zero_is_default,
                      const QStringList& excludes, QString* error = nullptr);

// Where the time law of joint `joint`'s drive is ("joints[0].drive" or "joints[0].drive.setpoint");
// empty for a free drive.
QString lawPath(const ProjectDocument& doc, int joint);

// The parameters of a time law (docs/project-format.md sec. 6). unit: "f" (the unit of what the law
// drives), "f/s", "s", "Hz", "rad" or "" (list of coefficients).
struct LawParam {
  const char* key;
  const char* unit;
  bool list = false;      // a list of numbers (polynomial coefficients)
  bool optional = false;  // defaults to 0 when absent
};
std::vector<LawParam> lawParams(const std::string& law);
const std::vector<std::string>& lawNames();

}  // namespace flexarm::edits
