#include "analysis/InverseDynamics.hpp"

#include <Eigen/Dense>
#include <cmath>

#include "dynamics/Kinematics.hpp"
#include "model/Names.hpp"
#include "base/NumberFormat.hpp"

namespace flexarm {
namespace {

std::string at(double t) { return "t = " + formatShort(t, 6) + " s"; }

Results failed(const std::string& message, double t = 0.0) {
  Results r;
  r.status = RunStatus::Failed;
  r.message = message;
  r.end_time = t;
  return r;
}

TimeFunction cubicTable(const std::vector<double>& t, const std::vector<double>& v) {
  TimeFunction f;
  f.law = TimeFunction::Law::Table;
  f.interpolation = TableInterpolation::Cubic;
  f.table_t = t;
  f.table_value = v;
  f.prepare();
  return f;
}

// World position of the last link's distal frame of a rigid arm at joint coordinates q.
Eigen::Vector3d endEffector(const MultibodySystem& sys, DynamicsData& data, const Eigen::VectorXd& q) {
  forwardKinematics(sys, data, q);
  return distalFrame(sys, data, static_cast<int>(sys.bodies.size()) - 1).translation();
}

// Joint coordinates that put the end effector on the tracked components of `target`, starting
// from `guess` (least change: minimum-norm Gauss-Newton steps). Empty optional when it fails.
std::optional<Eigen::VectorXd> inverseKinematics(const MultibodySystem& sys, DynamicsData& data, const std::vector<int>& axes,
                                                 const Eigen::Vector3d& target, Eigen::VectorXd q) {
  const int n = sys.nq, m = static_cast<int>(axes.size());
  Eigen::VectorXd e(m);
  Eigen::MatrixXd J(m, n);
  for (int it = 0; it < 300; ++it) {
    const Eigen::Vector3d p = endEffector(sys, data, q);
    for (int a = 0; a < m; ++a) e(a) = target(axes[static_cast<std::size_t>(a)]) - p(axes[static_cast<std::size_t>(a)]);
    if (e.cwiseAbs().maxCoeff() < 1e-13) return q;
    for (int k = 0; k < n; ++k) {
      const double h = 1e-7 * (1.0 + std::abs(q(k)));
      Eigen::VectorXd qp = q, qm = q;
      qp(k) += h;
      qm(k) -= h;
      const Eigen::Vector3d dp = (endEffector(sys, data, qp) - endEffector(sys, data, qm)) / (2 * h);
      for (int a = 0; a < m; ++a) J(a, k) = dp(axes[static_cast<std::size_t>(a)]);
    }
    Eigen::VectorXd step = J.completeOrthogonalDecomposition().solve(e);
    const double norm = step.norm();
    if (!std::isfinite(norm)) return std::nullopt;
    if (norm > 0.2) step *= 0.2 / norm;  // stay in the basin of the guess
    q += step;
  }
  return std::nullopt;
}

}  // namespace

Model rigidCounterpart(const Model& model) {
  Model rigid = model;
  for (Link& link : rigid.links) {
    if (!link.flex) continue;
    link.mass = link.flex->material.rho * link.flex->section.A * link.length;
    link.shape = ShapePreset{};  // a slender rod along x
    link.flex.reset();
  }
  for (Joint& j : rigid.joints) j.flex.reset();
  return rigid;
}

Status checkInverseDynamics(const Project& project) {
  if (project.inverse) {
    int tracked = 0;
    for (const auto& law : project.inverse->path) tracked += law ? 1 : 0;
    if (tracked > static_cast<int>(project.model.joints.size()))
      return errorAt("inverse_dynamics.path", "the path tracks " + std::to_string(tracked) + " components but the arm has only " +
                                                  std::to_string(project.model.joints.size()) + " joints");
    if (!project.model.constraints.empty())
      return errorAt("constraints", "inverse dynamics along a path does not take model constraints");
    return {};
  }
  for (const Joint& j : project.model.joints)
    if (j.drive.kind != JointDrive::Kind::Prescribed)
      return error(
          "inverse dynamics needs a trajectory for every joint (drive \"prescribed\") or an end-effector path "
          "(\"inverse_dynamics\"): joint '" +
          j.name + "' has drive \"" + driveKindName(j.drive.kind) + "\"");
  return {};
}

Results inverseDynamics(const Project& project, const RunControl& control) {
  const Model& model = project.model;
  const std::size_t nj = model.joints.size();
  if (const Status followable = checkInverseDynamics(project); !followable) return failed(followable.error().text());
  if (!project.inverse) return simulate(project, control);

  // 1. Rigid inverse kinematics on a grid four times finer than the output.
  Project rigid = project;
  rigid.model = rigidCounterpart(model);
  const MultibodySystem rsys = MultibodySystem::fromModel(rigid.model, rigid.coupling);
  DynamicsData rdata(rsys);
  std::vector<int> axes;
  for (int a = 0; a < 3; ++a)
    if (project.inverse->path[static_cast<std::size_t>(a)]) axes.push_back(a);
  auto target = [&](double t) {
    Eigen::Vector3d p = Eigen::Vector3d::Zero();
    for (int a : axes) p(a) = project.inverse->path[static_cast<std::size_t>(a)]->evaluate(t).value;
    return p;
  };
  const double t_end = project.simulation.t_end, rate = 4.0 * project.simulation.output_rate;
  // The grid runs 8 samples past t_end, so that the spline's end condition (zero second derivative)
  // does not falsify the accelerations near t_end.
  const long n_grid = static_cast<long>(std::ceil(t_end * rate - 1e-9)) + 8;
  std::vector<double> times;
  for (long k = 0; k <= n_grid; ++k) times.push_back(static_cast<double>(k) / rate);
  std::vector<std::vector<double>> q_ik(nj);
  Eigen::VectorXd q0(static_cast<int>(nj)), prev, prev2;
  for (std::size_t j = 0; j < nj; ++j) q0(static_cast<int>(j)) = model.joints[j].q0;  // the branch: start near q0
  for (std::size_t k = 0; k < times.size(); ++k) {
    if (control.cancel && control.cancel->load()) return failed("cancelled by the user", times[k]);
    const Eigen::VectorXd guess = k < 2 ? q0 : Eigen::VectorXd(2 * prev - prev2);
    const auto q = inverseKinematics(rsys, rdata, axes, target(times[k]), guess);
    if (!q)
      return failed("inverse kinematics failed at " + at(times[k]) +
                    ": the path point is out of reach of the rigid arm, or the joints' q0 start it in another branch");
    prev2 = k == 0 ? *q : prev;
    prev = *q;
    for (std::size_t j = 0; j < nj; ++j) q_ik[j].push_back((*q)(static_cast<int>(j)));
  }

  // 2. Rigid inverse dynamics: the rigid arm with every joint following its IK trajectory.
  Project rigid_id = rigid;
  rigid_id.inverse.reset();
  rigid_id.model.constraints.clear();
  rigid_id.simulation.method = SimulationSettings::Method::Bdf;
  rigid_id.simulation.output_rate = rate;
  for (std::size_t j = 0; j < nj; ++j) {
    rigid_id.model.joints[j].drive = JointDrive{};
    rigid_id.model.joints[j].drive.kind = JointDrive::Kind::Prescribed;
    rigid_id.model.joints[j].drive.law = cubicTable(times, q_ik[j]);
  }
  const Results r_rigid = simulate(rigid_id, control);
  if (r_rigid.status != RunStatus::Completed) return failed("rigid inverse dynamics: " + r_rigid.message, r_rigid.end_time);

  // 3. The flexible arm driven forward by the rigid efforts, from the rigid initial state.
  Project forward = project;
  forward.inverse.reset();
  for (std::size_t j = 0; j < nj; ++j) {
    Joint& joint = forward.model.joints[j];
    joint.q0 = r_rigid.column(names::jointCoordinate(joint.name)).front();
    joint.qd0 = r_rigid.column(names::jointRate(joint.name)).front();
    joint.drive = JointDrive{};
    joint.drive.kind = JointDrive::Kind::Effort;
    joint.drive.law = cubicTable(r_rigid.column("t"), r_rigid.column(names::jointEffort(joint.name)));
  }
  const MultibodySystem fsys = MultibodySystem::fromModel(forward.model, forward.coupling);  // the flexible arm's
  const Results r_fwd = simulate(fsys, forward.simulation, control);

  // 4. Flexible inverse dynamics: the efforts that make the flexible arm's joints follow the rigid
  //    trajectories, its elastic coordinates integrated along them.
  Project flex_id = forward;
  for (std::size_t j = 0; j < nj; ++j) {
    flex_id.model.joints[j].drive = JointDrive{};
    flex_id.model.joints[j].drive.kind = JointDrive::Kind::Prescribed;
    flex_id.model.joints[j].drive.law = cubicTable(times, q_ik[j]);
  }
  const Results r_flex_id = simulate(flex_id, control);  // its own system: the drives are part of it

  // 5. One table at the output times.
  Results out;
  out.project_name = project.name;
  out.solver_description = "inverse dynamics along the end-effector path; " + describeRun(fsys, forward.simulation);
  std::vector<Channel> ch{{"t", "s"}};
  for (const Body& b : fsys.bodies) {
    const bool rev = b.joint_type == JointType::Revolute;
    for (const char* kind : {"q_rigid", "q_flex", "dq"})
      ch.push_back({names::inverseDynamics(kind, b.joint_name), rev ? "rad" : "m"});
    for (const char* kind : {"tau_rigid", "tau_flex", "dtau"})
      ch.push_back({names::inverseDynamics(kind, b.joint_name), rev ? "N m" : "N"});
  }
  for (const Body& b : fsys.bodies) {
    if (!b.isFlexible()) continue;
    ch.push_back({names::linkTip(b.name, "v"), "m"});
    ch.push_back({names::linkTip(b.name, "w"), "m"});
    ch.push_back({names::linkTip(b.name, "slope_v"), "rad"});
    ch.push_back({names::linkTip(b.name, "slope_w"), "rad"});
  }
  for (const char* c : {"x", "y", "z"}) ch.push_back({names::inverseDynamics("path", c), "m"});
  for (const char* c : {"x", "y", "z"}) ch.push_back({names::inverseDynamics("ee_flex", c), "m"});
  out.setChannels(ch);
  const std::size_t rows = std::min(r_fwd.rows(), r_flex_id.rows());
  std::vector<double> row(ch.size());
  for (std::size_t r = 0; r < rows; ++r) {
    const double t = r_fwd.value(r, 0);
    const std::size_t rr = std::min(r * 4, r_rigid.rows() - 1);  // the rigid run is on the 4x grid
    std::size_t k = 0;
    row[k++] = t;
    for (const Body& b : fsys.bodies) {
      const double qr = r_rigid.value(rr, static_cast<std::size_t>(r_rigid.channelIndex(names::jointCoordinate(b.joint_name))));
      const double qf = r_fwd.value(r, static_cast<std::size_t>(r_fwd.channelIndex(names::jointCoordinate(b.joint_name))));
      const double tr = r_rigid.value(rr, static_cast<std::size_t>(r_rigid.channelIndex(names::jointEffort(b.joint_name))));
      const double tf = r_flex_id.value(r, static_cast<std::size_t>(r_flex_id.channelIndex(names::jointEffort(b.joint_name))));
      row[k++] = qr;
      row[k++] = qf;
      row[k++] = qf - qr;
      row[k++] = tr;
      row[k++] = tf;
      row[k++] = tf - tr;
    }
    for (const Body& b : fsys.bodies) {
      if (!b.isFlexible()) continue;
      const FlexibleBody& fb = *b.flexible;
      double v = 0, w = 0, sv = 0, sw = 0;
      for (int c = 0; c < fb.m; ++c) {
        const double e = r_fwd.value(r, static_cast<std::size_t>(r_fwd.channelIndex(names::elasticCoordinate(b.name, c + 1))));
        v += fb.tip.v(c) * e;
        w += fb.tip.w(c) * e;
        sv += fb.tip.v1(c) * e;
        sw += fb.tip.w1(c) * e;
      }
      row[k++] = v;
      row[k++] = w;
      row[k++] = sv;
      row[k++] = sw;
    }
    const Eigen::Vector3d p = target(t);
    for (int a = 0; a < 3; ++a) row[k++] = p(a);
    for (const char c : {'x', 'y', 'z'})
      row[k++] = r_fwd.value(r, static_cast<std::size_t>(r_fwd.channelIndex(names::endEffector(c))));
    out.appendRow(row.data());
  }
  out.stats = r_fwd.stats;
  out.end_time = rows > 0 ? out.value(rows - 1, 0) : 0.0;
  const Results* worst = r_fwd.status != RunStatus::Completed       ? &r_fwd
                         : r_flex_id.status != RunStatus::Completed ? &r_flex_id
                                                                    : nullptr;
  if (worst) {
    out.status = worst->status;
    out.message = std::string(worst == &r_fwd ? "flexible forward run: " : "flexible inverse dynamics: ") + worst->message;
  }
  return out;
}

}  // namespace flexarm
