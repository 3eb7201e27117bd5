#include "results/RowCoordinates.hpp"

#include <cmath>
#include <string>

#include "base/NumberFormat.hpp"
#include "model/Names.hpp"

namespace flexarm {

bool coordinatesAtRow(const MultibodySystem& sys, const Results& results, std::size_t row, Eigen::VectorXd& q) {
  if (row >= results.rows()) return false;
  Eigen::VectorXd out = Eigen::VectorXd::Zero(sys.nq);
  auto take = [&](const std::string& channel, int index) {
    const int c = results.channelIndex(channel);
    if (c < 0) return false;
    out(index) = results.value(row, static_cast<std::size_t>(c));
    return true;
  };
  for (int k = 0; k < sys.nq; ++k)
    if (!take(sys.coordinates.names[static_cast<std::size_t>(k)], k)) return false;
  q = out;
  return true;
}

Result<std::size_t> rowAtTime(const Results& results, std::optional<double> t) {
  const std::size_t n = results.rows();
  if (n == 0 || results.channelIndex("t") != 0) return error("the results hold no rows of a run (no time column \"t\")");
  if (!t) return n - 1;
  const double interval = n > 1 ? (results.value(n - 1, 0) - results.value(0, 0)) / static_cast<double>(n - 1) : 0.0;
  const double slack = std::max(1e-6 * interval, 1e-9);
  for (std::size_t row = 0; row < n; ++row)
    if (std::abs(results.value(row, 0) - *t) <= slack) return row;
  return error("the results have no row at t = " + formatNumber(*t) + " s: they hold " + std::to_string(n) +
               " rows from t = " + formatNumber(results.value(0, 0)) + " to " + formatNumber(results.value(n - 1, 0)) + " s");
}

Status continueFromRow(Project& project, MultibodySystem& sys, const Results& results, std::size_t row) {
  if (row >= results.rows()) return error("the results have no row " + std::to_string(row));
  Eigen::VectorXd q, qd(sys.nq);
  if (!coordinatesAtRow(sys, results, row, q)) {
    for (const std::string& name : sys.coordinates.names)
      if (results.channelIndex(name) < 0)
        return error("the results have no channel \"" + name + "\": they are not a run of this model");
    return error("the results' row " + std::to_string(row + 1) + " cannot be read");
  }
  for (int k = 0; k < sys.nq; ++k) {
    const std::string rate = names::coordinateRate(sys.coordinates.names[static_cast<std::size_t>(k)]);
    const int c = results.channelIndex(rate);
    if (c < 0)
      return error("the results have no channel \"" + rate +
                   "\": they are not a run of this model, or were written before FlexArm recorded every rate");
    qd(k) = results.value(row, static_cast<std::size_t>(c));
  }
  for (int k = 0; k < sys.nq; ++k)
    if (!std::isfinite(q(k)) || !std::isfinite(qd(k)))
      return error("the state at row " + std::to_string(row + 1) + " is not finite (" +
                   sys.coordinates.names[static_cast<std::size_t>(k)] + ")");
  const double t = results.value(row, 0);
  if (!(t < project.simulation.t_end))
    return errorAt("simulation.t_end", "the run would continue from t = " + formatNumber(t) + " s, which is not before t_end " +
                                           formatNumber(project.simulation.t_end) + " s");
  Model& model = project.model;
  for (std::size_t i = 0; i < sys.bodies.size(); ++i) {
    const Body& b = sys.bodies[i];
    Joint& joint = model.joints[i];
    joint.q0 = q(b.q_index);
    joint.qd0 = qd(b.q_index);
    if (b.motor_index >= 0 && joint.flex) {  // torsion = motor / N - link
      joint.flex->torsion0 = q(b.motor_index) / b.joint_flex.gear_ratio - joint.q0;
      joint.flex->torsiond0 = qd(b.motor_index) / b.joint_flex.gear_ratio - joint.qd0;
    }
    if (b.e_count > 0 && model.links[i].flex) {
      FlexibleLink& f = *model.links[i].flex;
      f.e0.assign(q.data() + b.e_index, q.data() + b.e_index + b.e_count);
      f.ed0.assign(qd.data() + b.e_index, qd.data() + b.e_index + b.e_count);
      f.initial_load.reset();
    }
  }
  project.simulation.t_start = t;
  sys.model = std::make_shared<const Model>(model);
  return {};
}

}  // namespace flexarm
