#pragma once
// Every name FlexArm gives a coordinate or a result channel, in one place. The names follow the
// model's joint and link names, and the same name means the same thing everywhere: in the CSV
// header, in a constraint's terms, in the modes table and in the plots.
//
//   coordinates   q.<joint>  qm.<joint> (motor side of a flexible joint)  e.<link>.<k> (k from 1)
//   rates         qd.<joint>  qmd.<joint>  ed.<link>.<k>  (the states of a linear model)
//   efforts       tau.<joint>           joint torsion   torsion.<joint>
//   link tips     tip.<link>.<u|v|w|phi|x|y|z|slope_v|slope_w>
//   end effector  ee.<x|y|z>            energy          energy.<kinetic|potential|total>
//   constraints   constraint.<name>.<pos|vel>
//   inverse dynamics  <q_rigid|q_flex|dq|tau_rigid|tau_flex|dtau>.<joint>, path.<x|y|z>, ee_flex.<x|y|z>
#include <optional>
#include <string>

namespace flexarm::names {

std::string jointCoordinate(const std::string& joint);                       // q.<joint>
std::string jointRate(const std::string& joint);                             // qd.<joint>
std::string jointEffort(const std::string& joint);                           // tau.<joint>
std::string motorCoordinate(const std::string& joint);                       // qm.<joint>
std::string jointTorsion(const std::string& joint);                          // torsion.<joint>
std::string elasticCoordinate(const std::string& link, int k);               // e.<link>.<k>, k = 1, 2, ...
std::string linkTip(const std::string& link, const std::string& component);  // tip.<link>.<component>
std::string endEffector(char axis);                                          // ee.<axis>
std::string energy(const std::string& kind);                                 // energy.<kind>
// constraint.<name>.<pos|vel>: how far a constraint is from holding, in position and velocity.
std::string constraintViolation(const std::string& constraint, const std::string& level);

// drive.<joint>: the constraint group of a prescribed joint (its channels constraint.drive.<joint>.pos, .vel).
std::string driveConstraint(const std::string& joint);

// <quantity>.<owner> for the inverse-dynamics table: inverseDynamics("q_rigid", "shoulder").
std::string inverseDynamics(const std::string& quantity, const std::string& owner);

// A coordinate's name read back: which joint (or link) and, for elastic coordinates, which k.
struct CoordinateName {
  enum class Kind { Joint, Motor, Elastic };
  Kind kind = Kind::Joint;
  std::string owner;  // the joint's name (Joint, Motor) or the link's (Elastic)
  int k = 0;          // elastic coordinate number, from 1
};
// Empty when `name` is not a coordinate's name (e.g. "qd.shoulder", "e.beam.0", "e.beam.x").
std::optional<CoordinateName> parseCoordinate(const std::string& name);

// The rate of a coordinate, as a linear model names its states: q.<joint> -> qd.<joint>,
// qm.<joint> -> qmd.<joint>, e.<link>.<k> -> ed.<link>.<k>; empty when `coordinate` is no coordinate's name.
std::string coordinateRate(const std::string& coordinate);

// The name of a parsed coordinate (parseCoordinate's inverse).
std::string coordinateName(const CoordinateName& c);

// A coordinate's name after a joint (joint == true) or a link was renamed from `from` to `to`;
// unchanged when it is not a coordinate of that joint or link.
std::string renameOwner(const std::string& coordinate, bool joint, const std::string& from, const std::string& to);

// Does the coordinate name `name` refer to joint `joint` (its q or qm) or to link `link` (its e)?
bool namesCoordinateOf(const std::string& name, const std::string& joint, const std::string& link);

// Prefixes of the name families, for filters and renames ("e." hides the elastic coordinates).
inline constexpr const char* kJointPrefix = "q.";
inline constexpr const char* kJointRatePrefix = "qd.";
inline constexpr const char* kEndEffectorPrefix = "ee.";
inline constexpr const char* kMotorPrefix = "qm.";
inline constexpr const char* kElasticPrefix = "e.";
inline constexpr const char* kElasticRatePrefix = "ed.";
inline constexpr const char* kTipPrefix = "tip.";
inline constexpr const char* kTorsionPrefix = "torsion.";

// Is `channel` an elastic coordinate or rate (e.<link>.<k>, ed.<link>.<k>)? Many, and rarely plotted.
bool isElasticChannel(const std::string& channel);

// Is `channel` a lateral tip deflection (tip.<link>.v or .w)?
bool isTipDeflection(const std::string& channel);

}  // namespace flexarm::names
