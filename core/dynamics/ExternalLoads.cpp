#include "dynamics/ExternalLoads.hpp"

#include <algorithm>

#include "dynamics/FrameMotion.hpp"

namespace flexarm {

LoadPoint LoadPoint::build(const Load& load, int body, const FlexibleBody* flexible) {
  LoadPoint lp;
  lp.body = body;
  lp.force = load.force;
  lp.torque = load.torque;
  lp.link_axes = load.axes == Load::Axes::Link;
  lp.law = load.law;
  lp.law.prepare();
  lp.point = load.point;
  if (!flexible) return lp;
  lp.section = SectionPoint::build(*flexible, load.point.x());
  lp.point.x() = lp.section.x;
  return lp;
}

namespace {

// The loaded point of `lp` on body b at elastic coordinates e (a flexible link): the point p and the
// section's rotation R_s in the body frame (LoadPoint.hpp).
struct SectionPose {
  Eigen::Vector3d p = Eigen::Vector3d::Zero();
  Eigen::Matrix3d R = Eigen::Matrix3d::Identity();
  Eigen::Matrix3d Rz = Eigen::Matrix3d::Identity(), Ry = Eigen::Matrix3d::Identity();  // its first two factors
};

SectionPose sectionPose(const LoadPoint& lp, const Body& b, bool high, const Eigen::Ref<const Eigen::VectorXd>& e) {
  SectionPose sp;
  if (!b.isFlexible()) {
    sp.p = lp.point;
    return sp;
  }
  const ShapeRows& r = lp.section.rows;
  const Eigen::Isometry3d X = lp.section.pose(e, high);
  sp.Rz = rotation(2, r.v1.dot(e)).linear();
  sp.Ry = rotation(1, -r.w1.dot(e)).linear();
  sp.R = X.linear();
  sp.p = X * Eigen::Vector3d(0.0, lp.point.y(), lp.point.z());
  return sp;
}

const Eigen::Isometry3d& bodyPose(const DynamicsData& data, LoadFrames from, int i) {
  return from == LoadFrames::Recursive ? data.X_world_body[static_cast<std::size_t>(i)]
                                       : data.frames[static_cast<std::size_t>(i)].X_world_body;
}

// Force and torque of load lp times `scale` in the body frame of its body.
void bodyForceTorque(const LoadPoint& lp, const SectionPose& sp, const Eigen::Isometry3d& X_world_body, double scale,
                     Eigen::Vector3d& F, Eigen::Vector3d& T) {
  if (lp.link_axes) {
    F = sp.R * (scale * lp.force);
    T = sp.R * (scale * lp.torque);
  } else {
    F = X_world_body.linear().transpose() * (scale * lp.force);
    T = X_world_body.linear().transpose() * (scale * lp.torque);
  }
}

}  // namespace

void externalForces(const MultibodySystem& sys, const DynamicsData& data, LoadFrames from, double t, const Eigen::VectorXd& q,
                    Eigen::VectorXd& Q) {
  Q.setZero();
  const bool high = sys.coupling == CouplingOrder::High;
  for (const LoadPoint& lp : sys.loads) {
    const Body& b = sys.bodies[static_cast<std::size_t>(lp.body)];
    const auto e = q.segment(b.e_index, b.e_count);
    const SectionPose sp = sectionPose(lp, b, high, e);
    Eigen::Vector3d F, T;
    bodyForceTorque(lp, sp, bodyPose(data, from, lp.body), lp.law.evaluate(t).value, F, T);
    // The wrench about the body frame's origin, in its axes.
    Vector6d w;
    w.head<3>() = T + sp.p.cross(F);
    w.tail<3>() = F;
    if (from == LoadFrames::Recursive) {  // up the chain: Q_j = S_j . w_j, w_parent = X_up^T w
      for (int j = lp.body; j >= 0; j = sys.bodies[static_cast<std::size_t>(j)].parent) {
        const Body& bj = sys.bodies[static_cast<std::size_t>(j)];
        Q(bj.q_index) += bj.S.dot(w);
        w = data.X_up[static_cast<std::size_t>(j)].transpose() * w;
      }
    } else {
      addProjectedForce(data.frames[static_cast<std::size_t>(lp.body)].J_body, sys.jacobianColumns(b.e_index), w, Q);
    }
    if (!b.isFlexible()) continue;
    // The link's own elastic coordinates: Q_e = dr/de^T F + J_we^T (T + (R_s o) x F), with
    // dr/de = [u - c ds/de; v; w] and J_we = e_z v' + Rz e_y (-w') + Rz Ry e_x phi (LoadPoint.hpp).
    const ShapeRows& r = lp.section.rows;
    auto Qe = Q.segment(b.e_index, b.e_count);
    const Eigen::Vector3d moment = T + (sp.R * Eigen::Vector3d(0.0, lp.point.y(), lp.point.z())).cross(F);
    Qe.noalias() += F.x() * r.u.transpose() + F.y() * r.v.transpose() + F.z() * r.w.transpose();
    Qe.noalias() += moment.z() * r.v1.transpose();
    Qe.noalias() -= sp.Rz.col(1).dot(moment) * r.w1.transpose();
    Qe.noalias() += (sp.Rz * sp.Ry.col(0)).dot(moment) * r.phi.transpose();
    if (!high) continue;
    for (const SectionPoint::SlopeWindow& sw : lp.section.slopes) {  // - F_x ds/de
      const auto ew = e.segment(sw.first, sw.v1.cols());
      auto Qw = Qe.segment(sw.first, sw.v1.cols());
      for (int k = 0; k < sw.weight.size(); ++k) {
        const double c = -F.x() * sw.weight(k);
        Qw.noalias() += (c * sw.v1.row(k).dot(ew)) * sw.v1.row(k).transpose();
        Qw.noalias() += (c * sw.w1.row(k).dot(ew)) * sw.w1.row(k).transpose();
      }
    }
  }
}

LoadState loadState(const MultibodySystem& sys, const DynamicsData& data, LoadFrames from, int k, double t,
                    const Eigen::VectorXd& q) {
  const LoadPoint& lp = sys.loads[static_cast<std::size_t>(k)];
  const Body& b = sys.bodies[static_cast<std::size_t>(lp.body)];
  const SectionPose sp = sectionPose(lp, b, sys.coupling == CouplingOrder::High, q.segment(b.e_index, b.e_count));
  const Eigen::Isometry3d& X = bodyPose(data, from, lp.body);
  Eigen::Vector3d F, T;
  bodyForceTorque(lp, sp, X, 1.0, F, T);
  return {X * sp.p, X.linear() * F, X.linear() * T, lp.law.evaluate(t).value};
}

}  // namespace flexarm
