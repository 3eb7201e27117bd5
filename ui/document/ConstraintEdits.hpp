#pragma once
// The editor's operations on the constraints of a project (docs/project-format.md sec. 7.1): add,
// delete, choose the type (which rewrites the object with defaults that hold the arm where it starts),
// and the coordinate terms of a `coordinates` constraint typed as "q.shoulder = 1, q.elbow = -2".
// Constraints need Lagrange multipliers: adding one while the solver is CVODE (bdf, adams) switches it
// to ida in the same command, and the command's name says so. Like every edit, each is one undoable
// command that the loader must accept.
#include <QString>
#include <QStringList>
#include <string>

#include "ui/document/ProjectDocument.hpp"

namespace flexarm::edits {

// A `coordinates` constraint that holds the last joint at its initial value, at the end of the list.
bool addConstraint(ProjectDocument& doc, QString* error = nullptr);
bool deleteConstraint(ProjectDocument& doc, int index, QString* error = nullptr);
// type: "coordinates", "point", "sliding_support", "revolute" or "prismatic". The name is kept; the
// other keys get defaults: coordinates: the last joint held at its initial value; point, revolute and
// prismatic: the tip of the last link held where it starts (in x, y and z; a revolute about the link's
// joint axis, a prismatic along the link); sliding_support: the first flexible link on a prismatic
// joint along x, through a support at its middle.
bool setConstraintType(ProjectDocument& doc, int index, const std::string& type, QString* error = nullptr);
// The counterpart of a point, revolute or prismatic constraint: another link (`other` its name; its
// point is where the constraint's point starts, the nearest section of a flexible link), or kWorld (the
// world point where the constraint's point starts).
inline constexpr const char* kWorld = "(world)";
bool setConstraintCounterpart(ProjectDocument& doc, int index, const std::string& other, QString* error = nullptr);
// text: "name = coefficient" pairs separated by commas, e.g. "q.shoulder = 1, q.elbow = -2".
bool setConstraintTerms(ProjectDocument& doc, int index, const QString& text, QString* error = nullptr);

// The terms object of a coordinates constraint as the text above (the inverse of the parsing).
QString termsText(const Json& terms);
// The coordinate names a coordinates constraint may use in the project: q.<joint>, qm.<joint>
// (flexible joints), e.<link>.1..n (flexible links; n from the discretization).
QStringList coordinateNames(const ProjectDocument& doc);
// The unit of sum c_k q_k for a terms object: "rad", "m", "rad or m", or "-" (elastic coordinates).
QString termsUnit(const ProjectDocument& doc, const Json& terms);

}  // namespace flexarm::edits
