#pragma once
// Small project builders shared by the flexible-dynamics validation tests.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "analysis/Linearization.hpp"
#include "dynamics/Constraints.hpp"
#include "dynamics/EquationsOfMotion.hpp"
#include "dynamics/ForceTerms.hpp"
#include "dynamics/MultibodySystem.hpp"
#include "io/ProjectFile.hpp"
#include "results/Results.hpp"

namespace flexarm::test {

using flexarm::peakAbs;  // largest |x| of a result column (results/Results.hpp)

// The gravity term's generalized force at (q, qd), from the frames of the last pass in `d`.
inline Eigen::VectorXd gravityForce(const MultibodySystem& sys, const DynamicsData& d, const Eigen::VectorXd& q,
                                    const Eigen::VectorXd& qd) {
  Eigen::VectorXd g = Eigen::VectorXd::Zero(sys.nq);
  gravity().addForce(sys, d, TermState{0.0, q, qd}, g);
  return g;
}

// M qdd + b - Q_gravity, as inverse dynamics (RNEA, KDL, the independent equations) give it: a pass of
// the equations (whose bias leaves gravity to its own term) and the gravity term.
inline Eigen::VectorXd inverseDynamicsWithGravity(const MultibodySystem& sys, DynamicsData& d, const Eigen::VectorXd& q,
                                                  const Eigen::VectorXd& qd, const Eigen::VectorXd& qdd, bool with_M) {
  compositeEquations(sys, d, q, qd, qdd, with_M);
  return d.tau - gravityForce(sys, d, q, qd);
}

inline Project parseOrFail(const std::string& text) {
  LoadedProject p = parseProjectText(text, ".");
  if (!p.project) ADD_FAILURE() << p.diagnostics.text();
  return p.project ? *p.project : Project{};
}

inline Project loadShipped(const std::string& name) {
  LoadedProject p = loadProjectFile(std::string(FLEXARM_PROJECTS_DIR) + "/" + name);
  if (!p.project) ADD_FAILURE() << p.diagnostics.text();
  return p.project ? *p.project : Project{};
}

// One flexible link on a held (prescribed constant) joint. `flex` is the JSON of links[0].flex.
// The undamped natural frequencies [rad/s] of the arm with every joint held, lowest first.
inline std::vector<double> heldJointOmegas(const Project& p) {
  LinearizationOptions opt;
  opt.lock_joints = true;
  const LinearizationResult r = linearize(p, opt);
  EXPECT_EQ(r.message, "");
  std::vector<double> w;
  for (const LinearMode& m : r.modes) w.push_back(m.omega);
  return w;
}

inline Project cantilever(const std::string& flex, double length, const std::string& extra_top = "",
                          const std::string& payloads = "[]", const std::string& gravity = "[0, 0, 0]") {
  return parseOrFail(R"({"format": "flexarm-project", "schema_version": 1, )" + extra_top + R"( "gravity": )" + gravity + R"(,
    "links": [{"name": "beam", "length": )" +
                     std::to_string(length) + R"(, "flex": )" + flex + R"(}],
    "joints": [{"name": "root", "type": "revolute", "axis": [0, 0, 1],
                "drive": {"type": "prescribed", "law": "constant", "value": 0}}],
    "payloads": )" + payloads +
                     R"(})");
}

// A random state of sys: joint coordinates in [-1, 1] and rates in [-1.5, 1.5], elastic coordinates in
// [-0.02, 0.02] and rates in [-0.3, 0.3].
inline void randomState(const MultibodySystem& sys, std::mt19937& rng, Eigen::VectorXd& q, Eigen::VectorXd& qd) {
  std::uniform_real_distribution<double> u(-1, 1);
  q.resize(sys.nq);
  qd.resize(sys.nq);
  for (int i = 0; i < sys.nq; ++i) {
    const bool elastic = sys.coordinates.kinds[static_cast<std::size_t>(i)] == CoordinateKind::Elastic;
    q(i) = (elastic ? 0.02 : 1.0) * u(rng);
    qd(i) = (elastic ? 0.3 : 1.5) * u(rng);
  }
}

// What an iteration matrix of the constrained equations needs of the rows beyond Phi_q, at (q, qd), for
// multipliers w: G = 2 d(Phi_q^T w)/dq (ConstraintSet::addForceDerivative, scale 2) and
// R = d(Phi_q qd + Phi_t)/dq (rateDerivative), each with its central differences of the rows at t.
struct ConstraintDerivatives {
  Eigen::MatrixXd G, G_differences, R, R_differences;
};
inline ConstraintDerivatives constraintDerivatives(const ConstraintSet& cs, double t, const Eigen::VectorXd& q,
                                                   const Eigen::VectorXd& qd, const Eigen::VectorXd& w) {
  const Eigen::Index n = q.size(), m = cs.size();
  ConstraintDerivatives d{Eigen::MatrixXd::Zero(n, n), Eigen::MatrixXd(n, n), Eigen::MatrixXd(m, n), Eigen::MatrixXd(m, n)};
  cs.addForceDerivative(q, w, 2.0, d.G);
  cs.rateDerivative(q, qd, d.R);
  {  // the same from one sweep with two force terms (w with scales 0.5 and 1.5) and the rate
    Eigen::MatrixXd G_one = Eigen::MatrixXd::Zero(n, n), G_two = Eigen::MatrixXd::Zero(n, n), R_swept(m, n);
    std::vector<ConstraintSet::ForceTerm> force{{w, 0.5, G_one}, {w, 1.5, G_two}};
    Eigen::Ref<Eigen::MatrixXd> rate = R_swept;
    cs.addDerivatives(q, force, qd, &rate);
    EXPECT_LE((G_one + G_two - d.G).norm(), 1e-12 * (1.0 + d.G.norm()));
    EXPECT_LE((R_swept - d.R).norm(), 1e-12 * (1.0 + d.R.norm()));
  }
  ConstraintRows plus, minus;
  for (Eigen::Index k = 0; k < n; ++k) {
    const double h = 1e-6;
    Eigen::VectorXd qp = q, qm = q;
    qp(k) += h;
    qm(k) -= h;
    cs.evaluate(t, qp, qd, plus);
    cs.evaluate(t, qm, qd, minus);
    EXPECT_TRUE(plus.error.empty()) << plus.error;
    d.G_differences.col(k) = 2.0 * (plus.Phi_q - minus.Phi_q).transpose() * w / (2 * h);
    d.R_differences.col(k) = (plus.Phi_q * qd + plus.phi_t - minus.Phi_q * qd - minus.phi_t) / (2 * h);
  }
  return d;
}

}  // namespace flexarm::test
