#pragma once
// The generalized coordinates a model's discretization defines, in their order: link by link its
// joint's (q.<joint>), its motor's for a flexible joint (qm.<joint>), then its elastic ones
// (e.<link>.1 ...), named as model/Names.hpp says. They follow from the model and the size of each
// flexible link's basis alone: the reader checks names against them without building the dynamics,
// and MultibodySystem lays its coordinates out by them.
#include <string>
#include <vector>

#include "model/Model.hpp"

namespace flexarm {

enum class CoordinateKind { Joint, Motor, Elastic };

struct Coordinates {
  // Where link i's coordinates are.
  struct OfLink {
    std::string link, joint;  // names
    bool revolute = true;     // the joint's type: its coordinates are in rad (else m)
    int q = 0;                // joint (link-side) coordinate
    int motor = -1;           // motor coordinate of a flexible joint, else -1
    int e_first = 0;          // first elastic coordinate
    int e_count = 0;          // number of elastic coordinates (0: a rigid link)
  };
  std::vector<std::string> names;  // "q.shoulder", "qm.shoulder", "e.beam.3"
  std::vector<CoordinateKind> kinds;
  std::vector<OfLink> links;

  int size() const { return static_cast<int>(names.size()); }
  // Index of the coordinate with that name, or -1.
  int index(const std::string& name) const;
  // "rad" or "m" for a joint or motor coordinate, "-" for an elastic one.
  std::string unit(int k) const;

  static Coordinates of(const Model& model);
};

}  // namespace flexarm
