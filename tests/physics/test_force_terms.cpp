// The force terms of the equations of motion (dynamics/ForceTerms.hpp), each on its own: its tangent
// stiffness and damping against central difference quotients of its own force, its force at rest
// against minus the gradient of its own potential, and their sum against what the evaluation adds up
// (DynamicsData's vector per term, `internal`, the potentials). On an arm that has every term: gravity
// across and along its links, flexible links of both bases with Rayleigh damping, geared flexible joints with springs and
// dampers, joints' viscous dampers, PD and effort drives, a payload on a section, under each coupling order.
#include <gtest/gtest.h>

#include <random>

#include "FlexTestModels.hpp"
#include "dynamics/EquationsOfMotion.hpp"
#include "dynamics/ForceTerms.hpp"

using namespace flexarm;

namespace {

Project everyTerm(const char* coupling) {
  const char* modes = R"({"section": {"preset": "rectangle", "width": 0.01, "height": 0.02}, "material": {"preset": "steel"},
                          "basis": "modes", "modes": {"axial": 1, "bending_y": 2, "bending_z": 2, "torsion": 1},
                          "rayleigh": [0.5, 0.001]})";
  const char* fem =
      R"({"section": {"preset": "tube", "outer_diameter": 0.03, "inner_diameter": 0.02}, "material": {"preset": "aluminium"},
                        "basis": "fem", "elements": 3, "layout": "spatial", "rayleigh": [0.0, 0.0005]})";
  return test::parseOrFail(std::string(R"({"format": "flexarm-project", "schema_version": 1, "coupling": ")") + coupling +
                           R"(", "gravity": [0.4, -0.3, -9.81],
      "links": [{"name": "a", "length": 0.8, "flex": )" +
                           modes + R"(},
                {"name": "r", "length": 0.3, "mass": 1.2, "shape": {"type": "box", "width": 0.1, "height": 0.05}},
                {"name": "b", "length": 0.6, "flex": )" +
                           fem + R"(}],
      "joints": [{"name": "j1", "type": "revolute", "axis": [0, 0, 1], "damping": 0.4,
                  "flex": {"stiffness": 100, "damping": 0.7, "rotor_inertia": 0.01, "gear_ratio": 4},
                  "drive": {"type": "pd", "kp": 30, "kd": 2, "setpoint": {"law": "sine", "amplitude": 0.5, "frequency": 1.3}}},
                 {"name": "j2", "type": "prismatic", "axis": [1, 0, 0], "placement": {"rpy": [0.2, 0.1, 0]}, "damping": 2.5,
                  "flex": {"stiffness": 5000, "damping": 3, "rotor_inertia": 0.2, "gear_ratio": 1.5},
                  "drive": {"type": "effort", "law": "sine", "amplitude": 4, "frequency": 0.7}},
                 {"name": "j3", "type": "revolute", "axis": [0, 1, 0], "mass": 0.3, "damping": 0.1,
                  "drive": {"type": "pd", "kp": 12, "kd": 0.5, "setpoint": {"law": "constant", "value": 0.2}}}],
      "payloads": [{"name": "tip", "link": "b", "frame": "distal", "offset": [0.02, 0, 0.01], "mass": 0.5, "inertia": [1e-3, 2e-3, 3e-3]},
                   {"name": "disk", "link": "b", "frame": "section", "offset": [0.23, 0, 0], "mass": 0.4, "inertia": [4e-3, 2e-3, 2e-3]}]})");
}

void someState(const MultibodySystem& sys, Eigen::VectorXd& q, Eigen::VectorXd& qd) {
  std::mt19937 rng(7);
  flexarm::test::randomState(sys, rng, q, qd);
}

// The term's force and potential at (q, qd), with `data` holding a pass of the equations at the base state.
double forceOf(const ForceTerm& term, const MultibodySystem& sys, const DynamicsData& data, const Eigen::VectorXd& q,
               const Eigen::VectorXd& qd, Eigen::VectorXd& force) {
  force = Eigen::VectorXd::Zero(sys.nq);
  return term.addForce(sys, data, TermState{0.3, q, qd}, force);
}

const char* kCouplings[] = {"zero", "geometric", "high"};

// The arm under one coupling order at a moving, deformed state, with the pass of the equations there
// that the terms may read (held while the tests move q and qd).
struct Arm {
  explicit Arm(const char* coupling)
      : project(everyTerm(coupling)), sys(MultibodySystem::fromModel(project.model, project.coupling)), d(sys) {
    someState(sys, q, qd);
    compositeEquations(sys, d, q, qd, Eigen::VectorXd::Zero(sys.nq));
  }
  Project project;
  MultibodySystem sys;
  DynamicsData d;
  Eigen::VectorXd q, qd;
};

}  // namespace

TEST(ForceTerms, EachTermsTangentIsTheDerivativeOfItsOwnForce) {
  for (const char* coupling : kCouplings) {
    Arm arm(coupling);
    const MultibodySystem& sys = arm.sys;
    DynamicsData& d = arm.d;
    const Eigen::VectorXd &q = arm.q, &qd = arm.qd;
    std::vector<int> all(static_cast<std::size_t>(sys.nq));
    for (int k = 0; k < sys.nq; ++k) all[static_cast<std::size_t>(k)] = k;
    int terms_with_a_tangent = 0;
    for (const ForceTerm* term : forceTerms()) {
      Eigen::MatrixXd K, C;
      DenseTangent sink(all, sys.nq, K, C);
      term->addTangent(sys, d, sink);
      // -dQ/dq and -dQ/dqd by central differences (the forces are linear in q and qd with the pass held:
      // the quotients are exact but for round-off).
      Eigen::MatrixXd Kd(sys.nq, sys.nq), Cd(sys.nq, sys.nq);
      Eigen::VectorXd fp, fm;
      for (int k = 0; k < sys.nq; ++k)
        for (bool rate : {false, true}) {
          Eigen::VectorXd qp = q, qm = q, qdp = qd, qdm = qd;
          const double h = 1e-6 * (1.0 + std::abs(rate ? qd(k) : q(k)));
          (rate ? qdp : qp)(k) += h;
          (rate ? qdm : qm)(k) -= h;
          forceOf(*term, sys, d, qp, qdp, fp);
          forceOf(*term, sys, d, qm, qdm, fm);
          (rate ? Cd : Kd).col(k) = -(fp - fm) / (2.0 * h);
        }
      const double k_scale = std::max(1.0, K.cwiseAbs().maxCoeff()), c_scale = std::max(1.0, C.cwiseAbs().maxCoeff());
      EXPECT_LE((K - Kd).cwiseAbs().maxCoeff(), 1e-7 * k_scale) << term->name() << ", " << coupling;
      EXPECT_LE((C - Cd).cwiseAbs().maxCoeff(), 1e-7 * c_scale) << term->name() << ", " << coupling;
      if (K.cwiseAbs().maxCoeff() > 0.0 || C.cwiseAbs().maxCoeff() > 0.0) ++terms_with_a_tangent;
    }
    // Not vacuous: every term acts on this arm (the geometric one under `geometric` coupling only; gravity
    // reads the configuration from the pass: with it held, its force stands still).
    EXPECT_EQ(terms_with_a_tangent, std::string(coupling) == "geometric" ? 5 : 4) << coupling;
  }
}

TEST(ForceTerms, EachTermsForceAtRestIsMinusTheGradientOfItsOwnPotential) {
  for (const char* coupling : kCouplings) {
    Arm arm(coupling);
    const MultibodySystem& sys = arm.sys;
    DynamicsData& d = arm.d;
    const Eigen::VectorXd& q = arm.q;
    const Eigen::VectorXd rest = Eigen::VectorXd::Zero(sys.nq);
    DynamicsData moved(sys);
    int terms_with_a_potential = 0;
    for (const ForceTerm* term : forceTerms()) {
      // Gravity's potential is that of the whole configuration: its pass moves with q. The geometric
      // term's potential is that of its axial force, held with the pass.
      const bool whole = term == &gravity();
      auto potentialAt = [&](const Eigen::VectorXd& x) {
        Eigen::VectorXd scratch;
        if (!whole) return forceOf(*term, sys, d, x, rest, scratch);
        compositeEquations(sys, moved, x, rest, rest, false);
        return forceOf(*term, sys, moved, x, rest, scratch);
      };
      Eigen::VectorXd force;
      const double V = forceOf(*term, sys, d, q, rest, force);
      Eigen::VectorXd gradient(sys.nq);
      for (int k = 0; k < sys.nq; ++k) {
        Eigen::VectorXd qp = q, qm = q;
        const double h = 1e-6 * (1.0 + std::abs(q(k)));
        qp(k) += h;
        qm(k) -= h;
        gradient(k) = (potentialAt(qp) - potentialAt(qm)) / (2.0 * h);
      }
      if (V == 0.0) continue;  // no potential: joint damping (no force at rest), the drives (time-dependent)
      ++terms_with_a_potential;
      EXPECT_LE((force + gradient).cwiseAbs().maxCoeff(), 1e-6 * std::max(1.0, force.cwiseAbs().maxCoeff()))
          << term->name() << ", " << coupling;
    }
    // Gravity, structure and joint springs always; the axial force's under `geometric` coupling.
    EXPECT_EQ(terms_with_a_potential, std::string(coupling) == "geometric" ? 4 : 3) << coupling;
  }
}

TEST(ForceTerms, TheEvaluationKeepsEachTermsForceAndTheirSum) {
  for (const char* coupling : kCouplings) {
    Arm arm(coupling);
    const MultibodySystem& sys = arm.sys;
    DynamicsData& d = arm.d;
    const Eigen::VectorXd &q = arm.q, &qd = arm.qd;
    internalForces(sys, d, q, qd);
    Eigen::VectorXd sum = Eigen::VectorXd::Zero(sys.nq), force;
    double potential = 0.0, weight = 0.0;
    for (const ForceTerm* term : forceTerms()) {
      if (term == &drives()) continue;  // applied by the forward dynamics
      const double V = forceOf(*term, sys, d, q, qd, force);
      EXPECT_EQ(term->of(d), force) << term->name();
      sum += force;
      (term == &gravity() ? weight : potential) += V;
    }
    EXPECT_LE((d.internal - sum).cwiseAbs().maxCoeff(), 1e-14 * sum.cwiseAbs().maxCoeff()) << coupling;
    EXPECT_NEAR(d.elastic_potential, potential, 1e-14 * potential) << coupling;
    EXPECT_NE(weight, 0.0) << coupling;
    EXPECT_EQ(d.gravity_potential, weight) << coupling;
  }
}
