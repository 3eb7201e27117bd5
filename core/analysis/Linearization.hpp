#pragma once
// Natural frequencies and mode shapes of an arm linearized about a configuration, or about a
// steady spin of joint 1. The elastic (and motor) coordinates are first brought to their
// equilibrium under gravity and the steady motion; the equations are then linearized about it
// (LinearizedEquations.hpp: the mass matrix, and the tangent stiffness and damping/gyroscopic matrices
// by difference quotients of a pass linear in the mesh) and the eigenvalues of the state matrix
// [0 I; -M^-1 K, -M^-1 C] give the modes (StateEigenvalues.hpp): all of them up to kEveryModeUpTo free
// coordinates, else the lowest ones by a shift-invert Arnoldi iteration.
#include <atomic>
#include <optional>
#include <string>
#include <vector>

#include "model/Project.hpp"
#include "base/Result.hpp"

namespace flexarm {

struct MultibodySystem;

struct LinearizationOptions {
  bool lock_joints = false;         // hold every joint at q0 (clamped links)
  std::optional<double> spin_rate;  // [rad/s] joint 1 turns at this constant rate
  double time = 0.0;                // [s] the instant of a prescribed (unlocked) joint's motion that is frozen
  // Of a model with more than kEveryModeUpTo free coordinates, at least this many of the lowest
  // modes (kDefaultModes when 0); a smaller model gives every mode.
  int modes = 0;
  // Checked between the columns of the linearization and the steps of the iterations: when it turns
  // true, linearize() stops with cancelled set and the message "cancelled".
  const std::atomic<bool>* cancel = nullptr;
  // Also the state matrix (LinearizationResult::state_matrix) of a model with more than kEveryModeUpTo
  // free coordinates, whose modes do not need it (a smaller model's always comes with the result).
  bool state_matrix = false;
  static constexpr int kEveryModeUpTo = 150;
  static constexpr int kDefaultModes = 20;
};

struct LinearMode {
  double omega = 0.0;          // undamped natural frequency |lambda| [rad/s]
  double frequency_hz = 0.0;   // damped frequency Im(lambda) / 2 pi [Hz]
  double damping_ratio = 0.0;  // -Re(lambda) / |lambda|
  bool unstable = false;       // a real positive eigenvalue (divergence) or a growing oscillation
  double growth_rate = 0.0;    // Re(lambda) when unstable [1/s]
  Eigen::VectorXd shape;       // over the free coordinates, largest component = 1
};

struct LinearizationResult {
  std::vector<LinearMode> modes;                     // oscillatory and unstable modes, by increasing omega
  int rigid_body_modes = 0;                          // eigenvalue pairs at zero (free joints without stiffness)
  std::vector<std::string> coordinate_names;         // of the free coordinates
  std::vector<std::string> coordinate_descriptions;  // the same, with what each is: "beam.e57 (node 10 w)"
  // Where the free coordinates sit in the full coordinate vector (MultibodySystem layout): component k
  // of a mode shape belongs to q(free_coordinates[k]).
  std::vector<int> free_coordinates;
  // The full coordinates linearized about: joints at q0 (or their frozen prescribed motion), elastic and
  // motor coordinates at their equilibrium. Empty when the linearization failed before it.
  Eigen::VectorXd equilibrium_q;
  // The state matrix d(ydot)/dy of the first-order equations about that equilibrium, y = [q_f; qd_f] over
  // the free coordinates (2 n_f square). Empty when the linearization failed before it, and for a model with
  // more than LinearizationOptions::kEveryModeUpTo free coordinates unless LinearizationOptions::state_matrix.
  Eigen::MatrixXd state_matrix;
  double equilibrium_residual = 0.0;  // |Q - b| of the elastic/motor coordinates after Newton [N or N m]
  double joint_residual = 0.0;        // largest |Q - b| of the free joint coordinates (non-zero: not an equilibrium)
  std::string message;                // empty on success
  bool cancelled = false;             // stopped by LinearizationOptions::cancel
  long residual_evaluations = 0;      // of the equations (the cost of the equilibrium and the difference quotients)
  // Every mode of the linearized equations is in `modes` (else the lowest ones: a large model).
  bool every_mode = true;
  std::string note;  // when fewer modes than asked were found (StateEigenpairs::note)
};

LinearizationResult linearize(const Project& project, const LinearizationOptions& options);
// The same with the project's system already built (MultibodySystem::fromModel of project.model and
// project.coupling): the analyses reuse it instead of discretizing the links again.
LinearizationResult linearize(const Project& project, const MultibodySystem& system, const LinearizationOptions& options);

// The project as linearize() sees it: every joint held at q0 (lock_joints), joint 1 turning at the
// spin rate, a prescribed joint's motion frozen at options.time, all as prescribed polynomial laws;
// free coordinates and their equations are those of ForwardDynamics on this project at t = 0.
Project operatingPointProject(const Project& project, const LinearizationOptions& options);

// The full coordinates q_eq + amplitude * shape (the shape placed on the free coordinates): the arm
// displaced along a mode, e.g. amplitude a sin(phase) to animate it. An error when the mode does not
// belong to the result (shape size differs from the free coordinates).
Result<Eigen::VectorXd> modeDisplacement(const LinearizationResult& result, const LinearMode& mode, double amplitude);

}  // namespace flexarm
