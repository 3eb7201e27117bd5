// Trees (Joint::parent): a model whose links carry several child joints, or with several roots on the
// world. The equations against the independent evaluation and KDL are in test_equations_of_motion.cpp and
// test_kdl_rigid_dynamics.cpp; here, runs: two arms standing side by side on the world move as each moves
// alone, and a point of any link of a tree sits where the equations put it and moves as they move it.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "FlexTestModels.hpp"
#include "base/Files.hpp"
#include "dynamics/EquationsOfMotion.hpp"
#include "dynamics/LinkPoint.hpp"
#include "io/JsonReader.hpp"
#include "solvers/Simulation.hpp"

using namespace flexarm;
using flexarm::test::parseOrFail;

namespace {

Json shipped(const std::string& name) {
  return Json::parse(readRegularFile(std::string(FLEXARM_PROJECTS_DIR) + "/" + name + ".flexarm.json").value());
}

// The project's run over 0.5 s at a tight tolerance of CVODE BDF.
Results tightRun(Json doc) {
  doc["simulation"]["t_end"] = 0.5;
  doc["simulation"]["output_rate"] = 100;
  doc["simulation"]["solver"] = Json{{"method", "bdf"}, {"rtol", 1e-10}, {"atol", 1e-12}};
  const Results r = simulate(parseOrFail(doc.dump()));
  EXPECT_EQ(r.status, RunStatus::Completed) << r.message;
  return r;
}

// The largest difference of a channel between two runs, over its largest magnitude in the first.
double difference(const Results& a, const Results& b, const std::string& channel) {
  const std::vector<double> x = a.column(channel), y = b.column(channel);
  EXPECT_EQ(x.size(), y.size()) << channel;
  EXPECT_FALSE(x.empty()) << channel;
  double worst = 0.0, scale = 0.0;
  for (std::size_t k = 0; k < std::min(x.size(), y.size()); ++k) {
    worst = std::max(worst, std::abs(x[k] - y[k]));
    scale = std::max(scale, std::abs(x[k]));
  }
  return worst / std::max(scale, 1e-300);
}

}  // namespace

TEST(Trees, TwoArmsOnTheWorldMoveAsEachMovesAlone) {
  // The shipped two-link flexible arm and the shipped cantilever as one model (the cantilever's clamp on
  // the world, 1 m beside the arm: a second root): nothing couples them, so each link moves as in its own
  // project, within 1e-6 of each channel's excursion at a tight tolerance.
  const Json arm = shipped("two-link-flexible-arm"), beam = shipped("cantilever");
  Json both = arm;
  Json clamp = beam["joints"][0];
  clamp["parent"] = "world";
  clamp["placement"]["xyz"] = Json::array({0.0, 1.0, 0.0});
  both["links"].push_back(beam["links"][0]);
  both["joints"].push_back(clamp);
  Json beam_moved = beam;
  beam_moved["joints"][0]["placement"]["xyz"] = Json::array({0.0, 1.0, 0.0});
  const Results together = tightRun(both), arm_alone = tightRun(arm), beam_alone = tightRun(beam_moved);
  for (const char* channel : {"q.shoulder", "q.elbow", "tip.upper.v", "tip.fore.v", "tip.fore.w"})
    EXPECT_LT(difference(arm_alone, together, channel), 1e-6) << channel;
  for (const char* channel : {"tip.beam.w", "tip.beam.z", "tip.beam.v"})
    EXPECT_LT(difference(beam_alone, together, channel), 1e-6) << channel;
  EXPECT_GT(std::abs(beam_alone.column("tip.beam.w").back()), 1e-4);  // the beam does sag
}

TEST(Trees, APointOfAnyLinkIsWhereTheEquationsPutIt) {
  // A torso carrying two flexible arms and a flexible root beside it: each link's tip through its own
  // branch (LinkPoint's path from the base) against the equations' distal frames, 1e-13 m, and J qd
  // against the velocity they propagate, 1e-12.
  const Project p = parseOrFail(R"({"format": "flexarm-project", "schema_version": 1, "coupling": "high",
    "links": [{"name": "torso", "length": 0.4, "flex": {"section": {"preset": "rectangle", "width": 0.02, "height": 0.03},
               "material": {"preset": "steel"}, "basis": "modes", "modes": {"axial": 1, "bending_y": 2, "bending_z": 2, "torsion": 1}}},
              {"name": "left", "length": 0.6, "flex": {"section": {"preset": "tube", "outer_diameter": 0.03, "inner_diameter": 0.02},
               "material": {"preset": "aluminium"}, "basis": "fem", "elements": 2, "layout": "spatial"}},
              {"name": "right", "length": 0.5, "mass": 1, "shape": {"type": "rod"}},
              {"name": "post", "length": 0.7, "flex": {"section": {"preset": "rectangle", "width": 0.01, "height": 0.02},
               "material": {"preset": "steel"}, "basis": "modes", "modes": {"bending_y": 2, "bending_z": 1}}}],
    "joints": [{"name": "waist", "type": "revolute", "axis": [0, 0, 1]},
               {"name": "l", "type": "revolute", "axis": [0, 1, 0], "placement": {"xyz": [0, 0.1, 0], "rpy": [0.2, 0, 0]}},
               {"name": "r", "type": "prismatic", "axis": [0, 1, 0], "parent": "torso", "placement": {"rpy": [-0.2, 0.1, 0]}},
               {"name": "p", "type": "revolute", "axis": [1, 0, 0], "parent": "world", "placement": {"xyz": [0, 1, 0]}}]})");
  const MultibodySystem sys = MultibodySystem::fromModel(p.model, p.coupling);
  DynamicsData data(sys);
  data.every_distal_jacobian = true;
  std::mt19937 rng(29);
  for (int trial = 0; trial < 3; ++trial) {
    Eigen::VectorXd q, qd;
    flexarm::test::randomState(sys, rng, q, qd);
    compositeEquations(sys, data, q, qd, Eigen::VectorXd::Zero(sys.nq), false);
    for (std::size_t k = 0; k < sys.bodies.size(); ++k) {
      const Body& b = sys.bodies[k];
      const LinkPoint tip(sys, static_cast<int>(k),
                          b.isFlexible() ? Eigen::Vector3d(b.length, 0, 0) : b.X_body_distal.translation());
      Eigen::Vector3d pos;
      Eigen::Matrix<double, 3, Eigen::Dynamic> J;
      tip.jacobian(q, pos, J);
      const BodyFrames& fr = data.frames[k];
      EXPECT_LT((pos - fr.X_world_distal.translation()).norm(), 1e-13) << b.name;
      const Eigen::Vector3d v = fr.X_world_distal.linear() * fr.v_distal.tail<3>();
      EXPECT_LT((J * qd - v).norm(), 1e-12 * (1.0 + v.norm())) << b.name;
      // Its coordinates are its branch's: a coordinate outside them moves neither the point nor (being
      // another branch's, or a motor) anything on its path; the Jacobian is zero there, and each of
      // them belongs to a body on the path.
      const ColumnSet cols = tip.coordinates();
      std::vector<bool> listed(static_cast<std::size_t>(sys.nq), false);
      for (int c = 0; c < cols.count; ++c) listed[static_cast<std::size_t>(cols.index[c])] = true;
      for (int c = 0; c < sys.nq; ++c)
        if (!listed[static_cast<std::size_t>(c)]) EXPECT_EQ(J.col(c).norm(), 0.0) << b.name << " " << sys.describeCoordinate(c);
      for (int c = 0; c < cols.count; ++c) {
        int owner = -1;
        for (std::size_t j = 0; j < sys.bodies.size(); ++j) {
          const Body& bj = sys.bodies[j];
          if (cols.index[c] == bj.q_index || (cols.index[c] >= bj.e_index && cols.index[c] < bj.e_index + bj.e_count))
            owner = static_cast<int>(j);
        }
        bool on_path = false;
        for (int j = static_cast<int>(k); j >= 0; j = sys.bodies[static_cast<std::size_t>(j)].parent)
          on_path = on_path || j == owner;
        EXPECT_TRUE(on_path) << b.name << ": " << sys.describeCoordinate(cols.index[c]);
      }
    }
  }
}
