#pragma once
// Linear state-space model of the arm for control design, about the operating point of
// Linearization.hpp (the initial configuration with the elastic and motor coordinates at their
// equilibrium, or a steady spin of joint 1):
//   dx/dt = A x + B u,   y = C x + D u,
// x = [q_f; qd_f] the deviations of the free coordinates and their rates from the equilibrium,
// u the deviations of joint efforts from what the drives apply (torque [N m] on a revolute joint,
// force [N] on a prismatic one, on the motor side of a flexible joint), y the deviations of result
// channels (position or rate level, so D = 0). A is the linearization's state matrix (the drives'
// feedback, a PD joint's spring and damper, closed inside it); B = [0; M_ff^-1 S] with S selecting
// the driven coordinate of each input joint, exact because the efforts enter linearly; C is the
// derivative of each channel (as the run's CSV computes it) by central differences. The effort of a
// held joint (prescribed, clamped or spinning) moves nothing: its column of B is zero.
#include <string>
#include <vector>

#include "analysis/Linearization.hpp"
#include "base/Result.hpp"
#include "dynamics/MultibodySystem.hpp"
#include "model/Project.hpp"

namespace flexarm {

// Which efforts go in and which channels come out.
struct StateSpaceSignals {
  std::vector<int> input_joints;        // indices into model.joints, in order
  std::vector<std::string> outputs;     // result channel names
  std::vector<bool> output_from_group;  // expanded from "tip": left out when identically zero
};

// Resolves the words of --inputs and --outputs. Inputs: "joints" (every joint's effort), a joint's
// name or its effort channel tau.<joint>. Outputs: "tip" (tip.<link>.v and .w of every flexible link),
// "joints" (q.<joint> of every joint), or a position- or rate-level result channel: q.<joint>,
// qd.<joint>, qm.<joint>, torsion.<joint>, tip.<link>.<u|v|w|phi|x|y|z>, ee.<x|y|z>, e.<link>.<k>.
// Repeats are dropped. An error names the unknown or empty word and lists what is known. `system` is the
// project's (MultibodySystem::fromModel of its model and coupling), built once for every analysis.
Result<StateSpaceSignals> selectSignals(const Project& project, const MultibodySystem& system,
                                        const std::vector<std::string>& inputs, const std::vector<std::string>& outputs);

struct StateSpaceModel {
  Eigen::MatrixXd A, B, C, D;
  std::vector<std::string> states, inputs, outputs;  // x: q.<joint>, e.<link>.<k>, ... then qd.<joint>, ed.<link>.<k>, ...
  std::vector<std::string> state_units, input_units, output_units;
  std::vector<std::string> held_inputs;  // inputs whose joint is held: a zero column of B
  std::string operating_point;           // in words: "the initial configuration, joints held"
  LinearizationResult linearization;     // the modes, equilibrium and residuals behind A
};

// The model of `project` about the operating point of `options` for the selected selection. An error
// (the linearization's message) when the equations cannot be evaluated or have no equilibrium.
Result<StateSpaceModel> stateSpaceModel(const Project& project, const MultibodySystem& system, const StateSpaceSignals& selection,
                                        const LinearizationOptions& options);

// The operating point in words, as stateSpaceModel() and `flexarm-cli modes` describe it.
std::string describeOperatingPoint(const LinearizationOptions& options);

}  // namespace flexarm
