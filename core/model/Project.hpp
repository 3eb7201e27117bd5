#pragma once
// A project: the model, how to simulate it, and what the user wrote about it.
#include <array>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "model/Model.hpp"

namespace flexarm {

// Rigid-flexible coupling order of the flexible links (DESIGN.md, physics contract).
enum class CouplingOrder {
  Zero,       // linear floating frame, no foreshortening
  Geometric,  // zero + potential of the axial inertial/gravity force through the axial shortening (Pan et al. 1990)
  High,       // foreshortening -1/2 int (v'^2 + w'^2) in the axial position, all its terms kept (Qian et al. 2013)
};
const char* couplingName(CouplingOrder order);

struct SimulationSettings {
  // auto: FlexArm chooses among the methods below from the model and the run (AutoMethod.hpp) and
  //       maps `accuracy` to that method's tolerances; what it chose and why is in the results.
  // bdf, adams: CVODE on the ODE with prescribed joints eliminated (no model constraints).
  // ida: IDA on the stabilized index-2 (GGL) DAE, prescribed joints and constraints by multipliers.
  // newmark: fixed-step Newmark-beta with Baumgarte stabilization of the acceleration constraints
  //          (Pan et al. 1990, sec. 4), prescribed joints and constraints by multipliers.
  // dirk: ARKODE on the same ODE with an L-stable, stiffly accurate ESDIRK method of order max_order
  //       (3, 4 or 5; 0 = 4): high order for the slow modes, the unresolved stiff ones damped.
  // galpha: adaptive generalized-alpha (Chung & Hulbert, Arnold & Bruls) on M(q) a = f with prescribed
  //         joints eliminated: second order, unresolved vibrations damped to rho_inf per step.
  // esdirk: dirk's ESDIRK tables (max_order) stepped on the same M(q) a = f as galpha: each stage's
  //         Newton iteration one residual without M, every stage sharing one factorization.
  // The table of the methods (names, orders, what each is for) is SolverMethods.hpp.
  enum class Method { Bdf, Adams, Ida, Newmark, Dirk, GeneralizedAlpha, Esdirk, Auto };
  double t_end = 5.0;  // [s]
  // [s] where the run starts, with the model's initial state: 0, or the time of the result row a run
  // continues from (RowCoordinates.hpp). The laws are read at the absolute time.
  double t_start = 0.0;
  double output_rate = 100.0;  // [Hz] samples written to the results
  Method method = Method::Auto;
  // What the user asks for: the largest error of each output (end effector, each tip, the joints) as a
  // fraction of its excursion over the run. Mapped to the method's tolerances unless rtol/atol are set.
  double accuracy = 1e-3;
  double rtol = 0.0;          // relative tolerance; 0 = from the accuracy
  double atol = 0.0;          // absolute tolerance; 0 = from the accuracy
  double max_step = 0.0;      // [s], 0 = no limit
  double initial_step = 0.0;  // [s], 0 = chosen by CVODE
  long max_steps = 1000000;   // total internal steps before the run is stopped
  // Largest order of the BDF (bdf, ida) or Adams formulas; 0 = SUNDIALS' own (5 for BDF, 12 for Adams).
  // Orders 1 and 2 are A-stable: they damp vibrations a step does not resolve instead of being
  // forced by them to tiny steps (the axial and torsion modes of stiff links carry no energy).
  int max_order = 0;
  // Newton iteration matrix of bdf and ida: analytic (from M, the tangent stiffness and damping,
  // TangentStiffness.hpp) or SUNDIALS' difference quotients (2n evaluations of the equations each).
  enum class Jacobian { Analytic, DifferenceQuotient };
  Jacobian jacobian = Jacobian::Analytic;
  // galpha: spectral radius at infinite frequency, 0-1 (1: no numerical damping, the trapezoidal rule).
  double rho_inf = 0.8;
  // Newmark: fixed step [s] (made to divide the output interval), alpha and delta of the scheme
  // (0.25, 0.5: average acceleration, unconditionally stable), Baumgarte gamma and beta.
  double step = 1e-3;
  double newmark_alpha = 0.25, newmark_delta = 0.5;
  double baumgarte_gamma = 5.0, baumgarte_beta = 5.0;
  // The method integrates constraints with their multipliers (after auto has chosen: Simulation.hpp).
  // The method integrates constraints with their multipliers (model/SolverMethods.hpp).
  bool constrained() const;
  // A run is reported as diverged when a flexible link's tip deflection exceeds this fraction of its
  // length: the small-deformation model has lost its meaning (e.g. the zero-order spin-up past omega_1).
  double divergence_ratio = 0.5;
};

const char* methodName(SimulationSettings::Method method);
const char* jacobianName(SimulationSettings::Jacobian jacobian);  // "analytic", "difference"

// Inverse dynamics along a desired end-effector path (Duong et al. 2017 sec. 3): the world position of the
// last link's distal frame as time laws; components without a law are not tracked.
struct InverseSpec {
  std::array<std::optional<TimeFunction>, 3> path;  // x, y, z [m]
};

// A named set of overrides of the project by JSON path (as `--set path=value`), e.g.
// {"coupling": "zero", "joints[0].drive.omega0": 8}. Values are JSON text.
struct Variant {
  std::string name;
  std::vector<std::pair<std::string, std::string>> sets;  // path, JSON value
};

// What `flexarm-cli study` runs: named variants, or every combination of a grid of values.
struct Study {
  std::vector<std::string> variants;                                   // names from Project::variants
  std::vector<std::pair<std::string, std::vector<std::string>>> grid;  // path, JSON values
};

struct Project {
  static constexpr int kSchemaVersion = 1;
  std::string name;
  std::string description;
  Model model;
  CouplingOrder coupling = CouplingOrder::High;
  SimulationSettings simulation;
  std::optional<InverseSpec> inverse;  // for flexarm-cli inverse
  std::vector<Variant> variants;
  std::optional<Study> study;
};

}  // namespace flexarm
