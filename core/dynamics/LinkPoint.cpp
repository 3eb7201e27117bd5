#include "dynamics/LinkPoint.hpp"

#include <algorithm>

#include "dynamics/FrameMotion.hpp"

namespace flexarm {

struct LinkPoint::Work {
  std::vector<Eigen::Isometry3d> body, distal;  // per body up to the point's: its frames in the world
  Eigen::Matrix<double, 3, Eigen::Dynamic> dr, Jw;
  Eigen::VectorXd g, rates;
};

LinkPoint::Work& LinkPoint::work() {
  thread_local Work w;
  return w;
}

namespace {

// dr/de = [u - c ds/de; v; w] and J_w = e_z v' + Rz e_y (-w') + Rz Ry e_x phi of section s at elastic
// coordinates e (body frame, 3 x m each); g and rates are work space.
void sectionRates(const SectionPoint& s, bool high, const Eigen::Ref<const Eigen::VectorXd>& e, Eigen::VectorXd& g,
                  Eigen::VectorXd& rates, Eigen::Matrix<double, 3, Eigen::Dynamic>& dr,
                  Eigen::Matrix<double, 3, Eigen::Dynamic>& Jw) {
  const ShapeRows& r = s.rows;
  const int m = static_cast<int>(e.size());
  dr.resize(3, m);
  Jw.resize(3, m);
  dr.row(0) = r.u;
  if (high) {
    g.resize(m);
    rates.setZero(m);
    double fs = 0.0, fsdd = 0.0;
    s.foreshortening(e, rates, fs, fsdd, g);
    dr.row(0) -= g.transpose();
  }
  dr.row(1) = r.v;
  dr.row(2) = r.w;
  const Eigen::Matrix3d Rz = rotation(2, r.v1.dot(e)).linear(), Ry = rotation(1, -r.w1.dot(e)).linear();
  const Eigen::Vector3d about_y = Rz.col(1), about_x = Rz * Ry.col(0);
  Jw.noalias() = Eigen::Vector3d::UnitZ() * r.v1 - about_y * r.w1 + about_x * r.phi;
}

}  // namespace

LinkPoint::LinkPoint(const MultibodySystem& sys, int body, const Eigen::Vector3d& point)
    : sys_(&sys), body_(body), point_(point), high_(sys.coupling == CouplingOrder::High) {
  for (int j = body; j >= 0; j = sys.bodies[static_cast<std::size_t>(j)].parent) path_.insert(path_.begin(), j);
  for (int j : path_) {  // a body's coordinates follow its parent's: ascending along the path
    const Body& on_path = sys.bodies[static_cast<std::size_t>(j)];
    columns_.push_back(on_path.q_index);
    for (int k = 0; k < on_path.e_count; ++k) columns_.push_back(on_path.e_index + k);
  }
  std::sort(columns_.begin(), columns_.end());
  tips_.resize(path_.size());
  for (std::size_t k = 0; k + 1 < path_.size(); ++k) {
    const Body& b = sys.bodies[static_cast<std::size_t>(path_[k])];
    if (b.isFlexible()) tips_[k] = SectionPoint::build(*b.flexible, b.length);
  }
  const Body& b = sys.bodies[static_cast<std::size_t>(body)];
  if (b.isFlexible()) {
    section_ = SectionPoint::build(*b.flexible, point.x());
    point_.x() = section_.x;
  }
}

Eigen::Isometry3d LinkPoint::frames(const Eigen::VectorXd& q, Work& w) const {
  const std::size_t n = path_.size();
  w.body.resize(n);
  w.distal.resize(n);
  Eigen::Isometry3d parent = Eigen::Isometry3d::Identity();
  for (std::size_t k = 0; k < n; ++k) {
    const Body& b = sys_->bodies[static_cast<std::size_t>(path_[k])];
    w.body[k] = parent * b.placement * MultibodySystem::jointMotion(b.joint_type, b.axis, q(b.q_index));
    if (k + 1 == n) break;
    w.distal[k] =
        b.isFlexible() ? w.body[k] * tips_[k].pose(q.segment(b.e_index, b.e_count), high_) : w.body[k] * b.X_body_distal;
    parent = w.distal[k];
  }
  const Body& b = sys_->bodies[static_cast<std::size_t>(body_)];
  Eigen::Isometry3d X = w.body.back();
  if (!b.isFlexible()) {
    X.translation() = X * point_;
    return X;
  }
  X = X * section_.pose(q.segment(b.e_index, b.e_count), high_);
  X.translation() = X * Eigen::Vector3d(0.0, point_.y(), point_.z());
  return X;
}

Eigen::Vector3d LinkPoint::position(const Eigen::VectorXd& q) const { return frames(q, work()).translation(); }

Eigen::Isometry3d LinkPoint::frame(const Eigen::VectorXd& q) const { return frames(q, work()); }

void LinkPoint::jacobian(const Eigen::VectorXd& q, Eigen::Vector3d& p, Eigen::Matrix<double, 3, Eigen::Dynamic>& J) const {
  Eigen::Isometry3d X;
  jacobian(q, X, J, nullptr);
  p = X.translation();
}

void LinkPoint::jacobian(const Eigen::VectorXd& q, Eigen::Isometry3d& X_point, Eigen::Matrix<double, 3, Eigen::Dynamic>& J,
                         Eigen::Matrix<double, 3, Eigen::Dynamic>* W) const {
  Work& w = work();
  X_point = frames(q, w);
  const Eigen::Vector3d p = X_point.translation();
  J.setZero(3, sys_->nq);
  if (W) W->setZero(3, sys_->nq);
  for (std::size_t k = 0; k < path_.size(); ++k) {
    const Body& b = sys_->bodies[static_cast<std::size_t>(path_[k])];
    const Eigen::Isometry3d& X = w.body[k];
    const Eigen::Vector3d axis = X.linear() * b.axis;  // the joint's axis is invariant under its own motion
    if (b.joint_type == JointType::Revolute) {
      J.col(b.q_index) = axis.cross(p - X.translation());
      if (W) W->col(b.q_index) = axis;
    } else {
      J.col(b.q_index) = axis;
    }
    if (!b.isFlexible()) continue;
    const auto e = q.segment(b.e_index, b.e_count);
    auto Je = J.middleCols(b.e_index, b.e_count);
    if (k + 1 < path_.size()) {  // the distal frame moves and turns everything beyond it
      sectionRates(tips_[k], high_, e, w.g, w.rates, w.dr, w.Jw);
      const Eigen::Vector3d lever = p - w.distal[k].translation();
      Je.noalias() = X.linear() * w.dr;
      w.Jw = X.linear() * w.Jw;  // world axes
      for (int c = 0; c < b.e_count; ++c) Je.col(c) += w.Jw.col(c).cross(lever);
      if (W) W->middleCols(b.e_index, b.e_count) = w.Jw;
    } else {  // the point's own section
      sectionRates(section_, high_, e, w.g, w.rates, w.dr, w.Jw);
      const Eigen::Vector3d offset = section_.pose(e, high_).linear() * Eigen::Vector3d(0.0, point_.y(), point_.z());
      for (int c = 0; c < b.e_count; ++c) w.dr.col(c) += w.Jw.col(c).cross(offset);
      Je.noalias() = X.linear() * w.dr;
      if (W) W->middleCols(b.e_index, b.e_count).noalias() = X.linear() * w.Jw;
    }
  }
}

}  // namespace flexarm
