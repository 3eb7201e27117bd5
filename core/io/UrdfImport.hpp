#pragma once
// A robot described in URDF (ROS's Unified Robot Description Format, read by Debian's urdfdom) as a
// FlexArm project document: the serial chain from the root link to a tip link, or the whole tree.
//
// * The tip: given, or found by walking from the root while one child leads on to a moving joint.
//   Where two do, the tree branches and, without a tip, the whole tree is imported: every moving joint,
//   parents first (depth first), each on the body of the moving joint above it (joints[].parent), or
//   on the world. A link that carries several joints keeps its URDF frame and no length (each child's
//   placement holds where it sits), and cannot be made flexible.
// * Every revolute, continuous or prismatic joint on the chain becomes a joint (origin, axis,
//   limits, damping) and its child link a link whose body frame is the URDF link frame.
// * Fixed joints are merged: the links they hold join the inertia of the link before them (its
//   <inertial> moved and turned into that link's frame, parallel-axis theorem). Moving joints off the
//   chain are held at 0 and their links merged the same way, with a warning.
// * A link reaches to the next joint's origin (the last one to the tool frame, the end of a line of
//   single fixed children after the tip: ROS-Industrial's flange and tool0). Where that point is not
//   on the URDF link's +x axis, the link's body frame is the URDF frame turned to point x at it (its
//   inertia and the next joint's placement turned with it: the arm keeps the URDF's pose).
// * A flexible link (FlexibleLinkSpec) is a beam along that axis, as long as that distance; its own
//   <inertial> is replaced by the beam's mass and the links merged into it become payloads. A length
//   given that differs (the rest held where the URDF puts it by a rigid offset), and a link with
//   nothing after it (a beam along its x axis, as long as given or 0.5 m), are warnings.
// * Visual and collision geometry is ignored with a warning; floating and planar joints, a chain
//   link without <inertial> or without mass, and anything urdfdom refuses (bad XML, a link with two
//   parents, unknown joint types) are errors naming the link or joint.
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "io/Diagnostics.hpp"
#include "io/FlexibleLinkSpec.hpp"
#include "io/JsonReader.hpp"

namespace flexarm {

struct UrdfImportOptions {
  std::string tip;                         // empty: the chain, or the whole tree where it branches
  std::vector<FlexibleLinkSpec> flexible;  // links made flexible
  std::string name;                        // the project's; empty: the robot's
};

// One link of the chain that a joint moves: what becomes links[i] and joints[i].
struct UrdfChainLink {
  std::string link;
  std::string joint;
  double next_distance = 0.0;  // [m] from the link's origin to the next joint's origin (or the tool frame); 0: none
};

class UrdfRobot {
 public:
  // Reads URDF text; what is wrong (bad XML with its line, elements nested deeper than kMaxXmlDepth,
  // entity declarations, <inertial> numbers that do not read, what urdfdom refuses, floating and
  // planar joints) goes to diag, whose paths name the line, link or joint. Empty when it cannot be
  // imported. Time linear in the text's size.
  static std::optional<UrdfRobot> parse(const std::string& xml, Diagnostics& diag);
  static std::optional<UrdfRobot> read(const std::filesystem::path& file, Diagnostics& diag);

  const std::string& name() const;
  const std::string& root() const;
  // Links without children, the candidates for the tip, by name.
  std::vector<std::string> leaves() const;
  // Where the tree first branches into two children that lead on to moving joints; empty for a chain.
  std::string branchingLink() const;
  // The moving links from the root to `tip` (empty: found as for toProject; a whole tree's, parents
  // first). Empty on errors (in diag).
  std::optional<std::vector<UrdfChainLink>> chain(const std::string& tip, Diagnostics& diag) const;
  // The project document (checked by the project loader); empty when there are errors.
  std::optional<Json> toProject(const UrdfImportOptions& options, Diagnostics& diag) const;

 private:
  struct Impl;
  std::shared_ptr<const Impl> impl_;
};

}  // namespace flexarm
