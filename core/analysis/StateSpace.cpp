#include "analysis/StateSpace.hpp"

#include <Eigen/Cholesky>
#include <algorithm>
#include <cmath>

#include "analysis/LinearizedEquations.hpp"
#include "base/NumberFormat.hpp"
#include "dynamics/ForwardDynamics.hpp"
#include "model/Names.hpp"
#include "results/ChannelRecorder.hpp"

namespace flexarm {

namespace {

constexpr const char* kInputGroup = "joints";
constexpr const char* kTipGroup = "tip";
constexpr const char* kJointGroup = "joints";

bool startsWith(const std::string& s, const std::string& prefix) { return s.rfind(prefix, 0) == 0; }

// A channel a linear model can output: a position or a rate (no effort, energy or constraint violation,
// which are not linear functions of the state alone).
bool isStateChannel(const std::string& name) {
  for (const char* prefix : {names::kJointPrefix, names::kJointRatePrefix, names::kMotorPrefix, names::kTorsionPrefix,
                             names::kTipPrefix, names::kEndEffectorPrefix, names::kElasticPrefix})
    if (startsWith(name, prefix)) return true;
  return false;
}

std::string joinNames(const std::vector<std::string>& names, std::size_t limit = 12) {
  std::string s;
  for (std::size_t i = 0; i < names.size() && i < limit; ++i) s += (i ? ", " : "") + names[i];
  if (names.size() > limit) s += ", ... (" + std::to_string(names.size()) + " in all)";
  return s;
}

template <class T>
void appendOnce(std::vector<T>& list, const T& x, std::vector<bool>* flags = nullptr, bool flag = false) {
  if (std::find(list.begin(), list.end(), x) != list.end()) return;
  list.push_back(x);
  if (flags) flags->push_back(flag);
}

std::string rateUnit(const std::string& unit) { return unit == "-" ? "1/s" : unit + "/s"; }

}  // namespace

std::string describeOperatingPoint(const LinearizationOptions& options) {
  std::string s = options.spin_rate ? "a steady spin of joint 1 at " + formatNumber(*options.spin_rate) + " rad/s"
                                    : std::string("the initial configuration");
  if (options.lock_joints) s += ", joints held";
  return s;
}

Result<StateSpaceSignals> selectSignals(const Project& project, const MultibodySystem& system,
                                        const std::vector<std::string>& inputs, const std::vector<std::string>& outputs) {
  const Model& model = project.model;
  if (model.joints.empty()) return errorAt("--inputs", "the project has no joints, so no joint effort can go in");
  StateSpaceSignals s;
  std::vector<std::string> joint_names;
  for (const Joint& j : model.joints) joint_names.push_back(j.name);
  for (const std::string& word : inputs) {
    if (word.empty())
      return errorAt("--inputs", "an empty name (inputs: joints, or joint names: " + joinNames(joint_names) + ")");
    if (word == kInputGroup) {
      for (int j = 0; j < static_cast<int>(model.joints.size()); ++j) appendOnce(s.input_joints, j);
      continue;
    }
    const std::string joint = startsWith(word, "tau.") ? word.substr(4) : word;
    const auto it = std::find(joint_names.begin(), joint_names.end(), joint);
    if (it == joint_names.end())
      return errorAt("--inputs",
                     "unknown input \"" + word + "\" (inputs: joints, or joint names: " + joinNames(joint_names) + ")");
    appendOnce(s.input_joints, static_cast<int>(it - joint_names.begin()));
  }
  if (s.input_joints.empty()) return errorAt("--inputs", "no inputs: name at least one joint, or joints for all of them");

  const MultibodySystem& sys = system;
  std::vector<std::string> channels;
  for (const Channel& c : ChannelRecorder(sys).channels())
    if (isStateChannel(c.name)) channels.push_back(c.name);
  for (const std::string& word : outputs) {
    if (word == kTipGroup) {
      for (const Body& b : sys.bodies)
        if (b.isFlexible())
          for (const char* c : {"v", "w"}) appendOnce(s.outputs, names::linkTip(b.name, c), &s.output_from_group, true);
      continue;
    }
    if (word == kJointGroup) {
      for (const Body& b : sys.bodies) appendOnce(s.outputs, names::jointCoordinate(b.joint_name), &s.output_from_group, false);
      continue;
    }
    if (std::find(channels.begin(), channels.end(), word) == channels.end())
      return errorAt("--outputs", (word.empty() ? std::string("an empty name") : "unknown output \"" + word + "\"") +
                                      " (outputs: tip, joints, or a channel: " + joinNames(channels) + ")");
    appendOnce(s.outputs, word, &s.output_from_group, false);
  }
  if (s.outputs.empty())
    return errorAt("--outputs", std::string("no outputs") +
                                    (std::find(outputs.begin(), outputs.end(), kTipGroup) != outputs.end()
                                         ? ": tip names the tip deflections of the flexible links, and every link is rigid"
                                         : ": name tip, joints or channels"));
  return s;
}

Result<StateSpaceModel> stateSpaceModel(const Project& project, const MultibodySystem& system, const StateSpaceSignals& selection,
                                        const LinearizationOptions& options) {
  StateSpaceModel m;
  if (!project.model.constraints.empty())
    return error(
        "a state-space model of a model with constraints is not available yet (its states would be the motions "
        "the constraints allow, not the coordinates); `flexarm-cli modes` gives its modes");
  m.operating_point = describeOperatingPoint(options);
  LinearizationOptions with_matrix = options;
  with_matrix.state_matrix = true;
  m.linearization = linearize(project, system, with_matrix);
  const LinearizationResult& lin = m.linearization;
  if (!lin.message.empty()) return error(lin.message);  // "cancelled" when options.cancel stopped it
  const Project held = operatingPointProject(project, options);
  const MultibodySystem sys = system.withDrives(held.model, held.coupling);
  ForwardDynamics fd(sys);
  const std::vector<int>& free = fd.freeCoordinates();
  const int nf = static_cast<int>(free.size());
  if (free != lin.free_coordinates || lin.state_matrix.rows() != 2 * nf)
    return error("the linearization's free coordinates do not match the model's (an internal inconsistency)");

  // States: the free coordinates, then their rates.
  ChannelRecorder recorder(sys);
  const std::vector<Channel> channels = recorder.channels();
  auto unitOf = [&](const std::string& name) {
    for (const Channel& c : channels)
      if (c.name == name) return c.unit;
    return std::string("-");
  };
  for (int k : free) {
    m.states.push_back(sys.coordinates.names[k]);
    m.state_units.push_back(unitOf(sys.coordinates.names[k]));
  }
  for (int k = 0; k < nf; ++k) {
    m.states.push_back(names::coordinateRate(m.states[k]));
    m.state_units.push_back(rateUnit(m.state_units[k]));
  }
  m.A = lin.state_matrix;

  Eigen::VectorXd y = Eigen::VectorXd::Zero(2 * nf), ydot(2 * nf);
  for (int k = 0; k < nf; ++k) y(k) = lin.equilibrium_q(free[k]);
  if (!fd.evaluate(ForwardDynamics::Request::accelerations(0.0, y.data(), ydot.data())))
    return error("the equations cannot be evaluated at the equilibrium: " + fd.error());

  // B: an effort u on the driven coordinate k adds u to Q_k, so qdd_f gains M_ff^-1 e_k u.
  m.B = Eigen::MatrixXd::Zero(2 * nf, static_cast<int>(selection.input_joints.size()));
  const Eigen::LLT<Eigen::MatrixXd> mass(fd.massMatrix());
  for (std::size_t c = 0; c < selection.input_joints.size(); ++c) {
    const Body& body = sys.bodies[static_cast<std::size_t>(selection.input_joints[c])];
    m.inputs.push_back(names::jointEffort(body.joint_name));
    m.input_units.push_back(unitOf(m.inputs.back()));
    const auto at = std::find(free.begin(), free.end(), body.drivenIndex());
    if (at == free.end()) {
      m.held_inputs.push_back(m.inputs.back());
      continue;
    }
    Eigen::VectorXd e = Eigen::VectorXd::Zero(nf);
    e(static_cast<int>(at - free.begin())) = 1.0;
    m.B.col(static_cast<int>(c)).tail(nf) = mass.solve(e);
  }

  // C: central differences of the recorded channels.
  std::vector<int> columns;
  for (const std::string& name : selection.outputs) {
    const auto it = std::find_if(channels.begin(), channels.end(), [&](const Channel& c) { return c.name == name; });
    if (it == channels.end() || !isStateChannel(name)) return error("\"" + name + "\" is not an output of this model");
    columns.push_back(static_cast<int>(it - channels.begin()));
  }
  // The outputs are positions and rates: of a flexible system a pass of the equations with the
  // equilibrium's accelerations gives them (linear in the mesh), no mass matrix or its factorization.
  const Eigen::VectorXd accelerations = ydot.tail(nf);
  const bool kinematics_only = !sys.isRigid();
  Results rows;
  auto outputsAt = [&](const Eigen::VectorXd& state, Eigen::VectorXd& out) -> bool {
    if (kinematics_only ? !fd.evaluate(ForwardDynamics::Request::row(0.0, state.data(), accelerations.data()))
                        : !fd.evaluate(ForwardDynamics::Request::accelerations(0.0, state.data(), ydot.data())))
      return false;
    if (rows.rows() % 256 == 0) rows.setChannels(channels);  // only the last row is read
    recorder.record(0.0, fd, rows);
    const std::size_t row = rows.rows() - 1;
    out.resize(static_cast<int>(columns.size()));
    for (std::size_t i = 0; i < columns.size(); ++i)
      out(static_cast<int>(i)) = rows.value(row, static_cast<std::size_t>(columns[i]));
    return true;
  };
  Eigen::MatrixXd C = Eigen::MatrixXd::Zero(static_cast<int>(columns.size()), 2 * nf);
  Eigen::VectorXd op, om;
  // Outputs that are positions do not read the rates at all: when every rate moved at once leaves them
  // exactly as they were, the rate half of C is zero and its difference quotients (half the work on a
  // fine mesh) are skipped.
  int columns_needed = 2 * nf;
  {
    Eigen::VectorXd moved = y;
    for (int c = nf; c < 2 * nf; ++c) moved(c) += 1e-3 * (1.0 + std::abs(y(c))) * (1.0 + 0.1 * (c % 7));
    if (!outputsAt(y, op) || !outputsAt(moved, om))
      return error("the outputs cannot be evaluated near the equilibrium: " + fd.error());
    if (op == om) columns_needed = nf;
  }
  for (int c = 0; c < columns_needed; ++c) {
    if (options.cancel && *options.cancel) return error("cancelled");
    const double h = differenceStep(y(c));
    Eigen::VectorXd yp = y, ym = y;
    yp(c) += h;
    ym(c) -= h;
    if (!outputsAt(yp, op) || !outputsAt(ym, om))
      return error("the outputs cannot be evaluated near the equilibrium: " + fd.error());
    C.col(c) = (op - om) / (2 * h);
  }
  // A "tip" component the link's basis cannot deflect (w of a planar mesh) is left out.
  std::vector<int> kept;
  for (std::size_t i = 0; i < selection.outputs.size(); ++i) {
    const bool from_group = i < selection.output_from_group.size() && selection.output_from_group[i];
    if (from_group && C.row(static_cast<int>(i)).cwiseAbs().maxCoeff() == 0.0) continue;
    kept.push_back(static_cast<int>(i));
    m.outputs.push_back(selection.outputs[i]);
    m.output_units.push_back(channels[static_cast<std::size_t>(columns[i])].unit);
  }
  if (kept.empty()) return error("no outputs: the tip deflections asked for are zero whatever the state");
  m.C.resize(static_cast<int>(kept.size()), 2 * nf);
  for (std::size_t i = 0; i < kept.size(); ++i) m.C.row(static_cast<int>(i)) = C.row(kept[i]);
  m.D = Eigen::MatrixXd::Zero(m.C.rows(), m.B.cols());
  if (!m.A.allFinite() || !m.B.allFinite() || !m.C.allFinite())
    return error("the linear model is not finite (the mass matrix at the equilibrium is singular?)");
  return m;
}

}  // namespace flexarm
