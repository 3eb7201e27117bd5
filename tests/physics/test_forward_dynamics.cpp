// What the integrators need of the forward dynamics (dynamics/ForwardDynamics.hpp): a recorded row's
// outputs from accelerations they know, and accelerations refined with an earlier factorization of the
// mass matrix, each equal to those of the direct solve.
#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <cmath>
#include <string>
#include <vector>

#include "FlexTestModels.hpp"
#include "dynamics/ForwardDynamics.hpp"
#include "dynamics/MultibodySystem.hpp"
#include "solvers/Simulation.hpp"

using namespace flexarm;

// What a recorded row needs, from the accelerations an integrator knows instead of the solve of
// M a = f: given evaluate()'s accelerations, the prescribed joint's effort equals evaluate()'s, and the
// kinetic energy (summed over the stations in that one pass) 1/2 qd^T M qd with evaluate()'s whole
// mass matrix, prescribed rates included, to round-off; the next evaluate() agrees again.
TEST(ImplicitSolvers, OutputsFromKnownAccelerationsEqualThoseOfTheSolve) {
  Project beam = test::loadShipped("spin-up-beam.flexarm.json");
  beam.model.links[0].flex->discretization.elements = 60;
  const MultibodySystem sys = MultibodySystem::fromModel(beam.model, CouplingOrder::High);
  ForwardDynamics fd(sys);
  const int n = fd.stateSize(), nf = n / 2;
  Eigen::VectorXd y(n), ydot(n);
  for (int k = 0; k < n; ++k) y(k) = (k < nf ? 0.02 : 0.5) * std::sin(0.7 * k + 0.3);
  ASSERT_TRUE(fd.evaluate(ForwardDynamics::Request::accelerations(0.7, y.data(), ydot.data()))) << fd.error();
  ASSERT_TRUE(fd.abilities().row_from_accelerations);
  const double effort = fd.effort()(0), kinetic = 0.5 * fd.qd().dot(fd.data().M * fd.qd());
  const double potential = fd.energies().potential;
  EXPECT_NEAR(fd.energies().kinetic, kinetic, 1e-12 * kinetic);
  ASSERT_GT(std::abs(effort), 1.0);
  const Eigen::VectorXd a = ydot.tail(nf);
  ASSERT_TRUE(fd.evaluate(ForwardDynamics::Request::row(0.7, y.data(), a.data()))) << fd.error();
  EXPECT_NEAR(fd.effort()(0), effort, 1e-10 * std::abs(effort));
  EXPECT_NEAR(fd.energies().kinetic, kinetic, 1e-12 * kinetic);
  EXPECT_NEAR(fd.energies().potential, potential, 1e-12 * std::abs(potential));
  // Other accelerations: another effort, the same energies (they do not depend on a).
  const Eigen::VectorXd a2 = 2.0 * a;
  ASSERT_TRUE(fd.evaluate(ForwardDynamics::Request::row(0.7, y.data(), a2.data())));
  EXPECT_GT(std::abs(fd.effort()(0) - effort), 1e-3 * std::abs(effort));
  EXPECT_NEAR(fd.energies().kinetic, kinetic, 1e-12 * kinetic);
  y.tail(nf) *= 2.0;
  ForwardDynamics fresh(sys);
  ASSERT_TRUE(fresh.evaluate(ForwardDynamics::Request::accelerations(0.7, y.data(), ydot.data())));
  ASSERT_TRUE(fd.evaluate(ForwardDynamics::Request::accelerations(0.7, y.data(), ydot.data())));
  EXPECT_GT(fd.energies().kinetic, 2.0 * kinetic);
  EXPECT_NEAR(fd.energies().kinetic, 0.5 * fresh.qd().dot(fresh.data().M * fresh.qd()), 1e-12 * kinetic);

  // Where no effort reads the forces the row is a kinematics pass (compositeKinematics): Canadarm2,
  // whose prescribed joints drive the motors of flexible joints (the elbow's on a sine here, so that
  // its rotor's inertia enters the effort), and seed 004 (effort drives). The same efforts, tip
  // positions and energies as the solve, each at a moved, moving state.
  const std::vector<std::string> sine = {"joints[2].drive.law=sine", "joints[2].drive.amplitude=0.3",
                                         "joints[2].drive.frequency=2", "joints[2].drive.offset=0.8"};
  for (const char* name : {"canadarm2-drop-seed000.flexarm.json", "spatial-rrr-flexible-seed004.flexarm.json"}) {
    const bool canadarm = std::string(name).rfind("canadarm2", 0) == 0;
    LoadedProject loaded =
        loadProjectFile(std::string(FLEXARM_PROJECTS_DIR) + "/" + name, canadarm ? sine : std::vector<std::string>{});
    ASSERT_TRUE(loaded.project) << loaded.diagnostics.text();
    const Project& p = *loaded.project;
    const MultibodySystem arm = MultibodySystem::fromModel(p.model, p.coupling);
    ForwardDynamics solved(arm), rows(arm);
    const int m = solved.stateSize(), mf = m / 2;
    Eigen::VectorXd z(m), zdot(m);
    Eigen::VectorXd q0, qd0;
    arm.initialState(p.model, q0, qd0);
    solved.initialState(q0, qd0, z.data());
    for (int k = 0; k < m; ++k) z(k) += (k < mf ? 0.01 : 0.4) * std::sin(0.9 * k + 0.2);
    ASSERT_TRUE(solved.evaluate(ForwardDynamics::Request::accelerations(0.4, z.data(), zdot.data())))
        << name << ": " << solved.error();
    ASSERT_TRUE(rows.abilities().row_from_accelerations) << name;
    const Eigen::VectorXd acc = zdot.tail(mf);
    ASSERT_TRUE(rows.evaluate(ForwardDynamics::Request::row(0.4, z.data(), acc.data()))) << name << ": " << rows.error();
    const double T = solved.energies().kinetic, V = solved.energies().potential;
    EXPECT_NEAR(T, 0.5 * solved.qd().dot(solved.data().M * solved.qd()), 1e-12 * T) << name;
    EXPECT_NEAR(rows.energies().kinetic, T, 1e-12 * T) << name;
    EXPECT_NEAR(rows.energies().potential, V, 1e-12 * std::abs(V)) << name;
    for (int j = 0; j < solved.effort().size(); ++j)
      EXPECT_NEAR(rows.effort()(j), solved.effort()(j), 1e-10 * (1.0 + std::abs(solved.effort()(j)))) << name << " joint " << j;
    const Eigen::Vector3d tip = solved.data().frames.back().X_world_distal.translation();
    EXPECT_LT((rows.data().frames.back().X_world_distal.translation() - tip).norm(), 1e-12 * (1.0 + tip.norm())) << name;
  }
}

// From ForwardDynamics::kRefineMassFrom free coordinates with a dense mass matrix (`high` coupling),
// evaluate() refines the accelerations with the factorization of an earlier state instead of
// factorizing each new mass matrix: along a sequence of nearby states the accelerations equal a fresh
// direct solve's (another ForwardDynamics, factorizing at that state only) to 1e-9 of their size, most
// of them without a factorization; a state far away is factorized anew; and solveMass() solves with
// the current mass matrix. The same with the residuals from the equations instead of M
// (Request::reuse_mass, for the integrators' right-hand sides), the hub torque and energies too.
TEST(ImplicitSolvers, RefinedAccelerationsEqualTheDirectSolve) {
  Project beam = test::loadShipped("spin-up-beam.flexarm.json");
  beam.model.links[0].flex->discretization.elements = 60;
  const MultibodySystem sys = MultibodySystem::fromModel(beam.model, CouplingOrder::High);
  ForwardDynamics fd(sys);
  const int n = fd.stateSize(), nf = n / 2;
  ASSERT_GE(nf, ForwardDynamics::kRefineMassFrom);
  Eigen::VectorXd y(n), ydot(n), fresh_ydot(n);
  auto state = [&](double s) {  // deflected, moving: s scales the deflections
    for (int k = 0; k < n; ++k) y(k) = (k < nf ? 0.02 * s : 0.5) * std::sin(0.7 * k + 0.3);
    y(0) = 0.4;
  };
  long factorizations = 0;
  for (int step = 0; step <= 20; ++step) {
    const double s = step < 20 ? 1.0 + 1e-3 * step : 6.0;  // the last one far away
    state(s);
    ASSERT_TRUE(fd.evaluate(ForwardDynamics::Request::accelerations(0.1, y.data(), ydot.data()))) << fd.error();
    ForwardDynamics fresh(sys);
    ASSERT_TRUE(fresh.evaluate(ForwardDynamics::Request::accelerations(0.1, y.data(), fresh_ydot.data())));
    EXPECT_EQ(fresh.refinedSolves(), 0);
    EXPECT_LE((ydot - fresh_ydot).norm(), 1e-9 * fresh_ydot.norm()) << "state " << step;
    if (step == 19) factorizations = fd.massFactorizations();
  }
  EXPECT_LE(factorizations, 5);  // most of the nearby states were refined
  EXPECT_GE(fd.refinedSolves(), 15);
  EXPECT_EQ(fd.massFactorizations(), factorizations + 1);  // the far one was factorized
  // The same without building M (an integrator's right-hand side): each refinement's residual from
  // the equations with the accelerations known. The same accelerations, hub torque and energies.
  ForwardDynamics fm(sys);
  Eigen::VectorXd mass_free_ydot(n);
  for (int step = 0; step <= 20; ++step) {
    state(step < 20 ? 1.0 + 1e-3 * step : 6.0);
    ASSERT_TRUE(fm.evaluate(ForwardDynamics::Request::accelerations(0.1, y.data(), mass_free_ydot.data(), true))) << fm.error();
    ForwardDynamics fresh(sys);
    ASSERT_TRUE(fresh.evaluate(ForwardDynamics::Request::accelerations(0.1, y.data(), fresh_ydot.data())));
    EXPECT_LE((mass_free_ydot - fresh_ydot).norm(), 1e-9 * fresh_ydot.norm()) << "state " << step;
    EXPECT_NEAR(fm.effort()(0), fresh.effort()(0), 1e-9 * std::abs(fresh.effort()(0))) << "state " << step;
    EXPECT_NEAR(fm.energies().kinetic, fresh.energies().kinetic, 1e-12 * fresh.energies().kinetic) << "state " << step;
    EXPECT_NEAR(fm.energies().potential, fresh.energies().potential, 1e-12 * std::abs(fresh.energies().potential));
  }
  EXPECT_GE(fm.refinedSolves(), 15);
  EXPECT_LE(fm.massFactorizations(), 6);
  {  // solveMass() after it: with the mass matrix of that state, built then
    state(1.0);
    ASSERT_TRUE(fm.evaluate(ForwardDynamics::Request::accelerations(0.1, y.data(), mass_free_ydot.data(), true)));
    ASSERT_TRUE(fm.evaluate(ForwardDynamics::Request::accelerations(0.1, y.data(), mass_free_ydot.data(), true)));
    ForwardDynamics fresh(sys);
    ASSERT_TRUE(fresh.evaluate(ForwardDynamics::Request::accelerations(0.1, y.data(), fresh_ydot.data())));
    Eigen::MatrixXd X = fresh.massMatrix().leftCols(3);
    fm.solveMass(X);
    EXPECT_LE((X - Eigen::MatrixXd::Identity(nf, 3)).norm(), 1e-9);
  }
  // solveMass() after a refined evaluation: with the mass matrix of that state.
  state(1.0005);
  ASSERT_TRUE(fd.evaluate(ForwardDynamics::Request::accelerations(0.1, y.data(), ydot.data())));
  const long refined = fd.refinedSolves();
  state(1.0);
  ASSERT_TRUE(fd.evaluate(ForwardDynamics::Request::accelerations(0.1, y.data(), ydot.data())));
  ASSERT_EQ(fd.refinedSolves(), refined + 1);
  const Eigen::MatrixXd M = fd.massMatrix();
  Eigen::MatrixXd X = M.leftCols(3);
  fd.solveMass(X);
  EXPECT_LE((X - Eigen::MatrixXd::Identity(nf, 3)).norm(), 1e-9);
}
