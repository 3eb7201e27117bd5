#include "dynamics/DynamicsData.hpp"

namespace flexarm {

DynamicsData::DynamicsData(const MultibodySystem& sys) : foreshortening(sys) {
  const std::size_t n = sys.bodies.size();
  X_parent_body.assign(n, Eigen::Isometry3d::Identity());
  X_world_body.assign(n, Eigen::Isometry3d::Identity());
  X_up.assign(n, Matrix6d::Identity());
  v.assign(n, Vector6d::Zero());
  a.assign(n, Vector6d::Zero());
  f.assign(n, Vector6d::Zero());
  subtree_weight.assign(n, Vector6d::Zero());
  I_composite.assign(n, Matrix6d::Zero());
  M = Eigen::MatrixXd::Zero(sys.nq, sys.nq);
  tau = Eigen::VectorXd::Zero(sys.nq);
  frames.resize(n);
  int m_max = 0, w_max = 0, n_max = 0;
  for (std::size_t i = 0; i < n; ++i) {
    frames[i].J_body = Eigen::MatrixXd::Zero(6, sys.nq);
    frames[i].J_distal = Eigen::MatrixXd::Zero(6, sys.nq);
    const std::size_t sections = sys.bodies[i].section_masses.size();
    frames[i].force_section_world.assign(sections, Eigen::Vector3d::Zero());
    frames[i].X_world_section.assign(sections, Eigen::Isometry3d::Identity());
    frames[i].J_section.assign(sections, Eigen::MatrixXd::Zero(6, sys.nq));
    frames[i].foreshortening_moment = Eigen::VectorXd::Zero(sys.bodies[i].e_count);
    const int L = foreshortening.count();
    frames[i].Js_body = frames[i].Js_distal = Eigen::MatrixXd::Zero(6, L);
    frames[i].Js_section.assign(sections, Eigen::MatrixXd::Zero(6, L));
    m_max = std::max(m_max, sys.bodies[i].e_count);
    if (!sys.bodies[i].isFlexible()) continue;
    const FlexibleBody& fb = *sys.bodies[i].flexible;
    n_max = std::max(n_max, static_cast<int>(fb.intervals.size()));
    for (const FlexibleBody::Interval& iv : fb.intervals) w_max = std::max(w_max, iv.count);
  }
  interval_slope = interval_lever = Eigen::MatrixXd::Zero(w_max, n_max);
  interval_moment = Eigen::MatrixXd::Zero(6, n_max);
  interval_force = interval_mass = Eigen::VectorXd::Zero(n_max);
  window_states = Eigen::Matrix<double, Eigen::Dynamic, 3>::Zero(w_max, 3);
  window_gradient = Eigen::VectorXd::Zero(w_max);
  slope_states = slope_products = Eigen::Matrix<double, Eigen::Dynamic, 2>::Zero(w_max, 2);
  window_lever = Eigen::VectorXd::Zero(w_max);
  prefix_slope = suffix_slope = suffix_lever = row_work = Eigen::VectorXd::Zero(m_max);
  IJ = Eigen::MatrixXd::Zero(6, sys.nq);
  dr_de = Eigen::MatrixXd::Zero(3, m_max);
  g_start = g_point = e = ed = edd = Eigen::VectorXd::Zero(m_max);
  station_coupling = Eigen::MatrixXd::Zero(m_max, 6);
  station_mass = Eigen::MatrixXd::Zero(m_max, m_max);
  station_force_e = Eigen::VectorXd::Zero(m_max);
  gravity_force = structural_force = joint_spring_force = joint_damping_force = geometric_force = drive_force =
      Eigen::VectorXd::Zero(sys.nq);
  internal = Eigen::VectorXd::Zero(sys.nq);
  external = Eigen::VectorXd::Zero(sys.nq);
}

}  // namespace flexarm
