#pragma once
// A material point of a link in the world and its Jacobian, for the loop-closure constraints
// (Constraints.hpp): a point fixed in a rigid link's body frame, or a point riding on a section of a
// flexible link, with flexible links anywhere on the way from the base.
//
// The positions are those of the equations of motion (EquationsOfMotion.hpp): a body frame sits on its
// parent's distal frame through the joint's placement and motion; a flexible link's distal frame is its
// tip section r(L) turned by Rz(v'(L)) Ry(-w'(L)) Rx(phi(L)), and a point at the section x with the
// offset o = (0, y, z) across it sits at r(x) + R_s(x) o in the body frame (SectionPoint.hpp; the same
// point a load at x acts on, ExternalLoads.hpp).
//
// The Jacobian J = dp/dq, column by column:
//  - a joint j on the way: a revolute one turns everything beyond it about its axis through its origin,
//    axis x (p - origin); a prismatic one moves it along its axis;
//  - an elastic coordinate of a flexible link j before the point's own link: it moves and turns link j's
//    distal frame, and everything beyond rigidly with it: R_j dr(L)/de + (R_j J_w(L)) x (p - tip), with
//    dr/de = [u - c ds/de; v; w] and J_w = e_z v' + Rz e_y (-w') + Rz Ry e_x phi (c = 1 for `high`
//    coupling, 0 otherwise);
//  - an elastic coordinate of the point's own link: R [dr(x)/de + J_w(x) x (R_s o)];
//  - motor coordinates: nothing.
// The rotation's Jacobian W (omega = W qd, world axes) has the columns: a revolute joint's axis, the
// turns R_j J_w(L) of the flexible links before the point's own, and R J_w(x) of its own section.
#include <vector>

#include "dynamics/MultibodySystem.hpp"

namespace flexarm {

class LinkPoint {
 public:
  // The point `point` of body `body`: for a rigid link in its body frame; for a flexible link, the
  // section x = point.x() (clamped to [0, L]) and the offset (0, point.y(), point.z()) across it.
  LinkPoint(const MultibodySystem& sys, int body, const Eigen::Vector3d& point);

  int body() const { return body_; }
  // The coordinates that move it: those of the joints and links from the base to its body (in a tree,
  // not a sibling branch's), ascending; the Jacobian's other columns are zero.
  ColumnSet coordinates() const { return {columns_.data(), static_cast<int>(columns_.size())}; }

  // The point in the world at coordinates q.
  Eigen::Vector3d position(const Eigen::VectorXd& q) const;
  // The point's frame in the world: at the point, with the axes of the link's body frame (rigid) or of
  // its section, turned with the deflection (flexible).
  Eigen::Isometry3d frame(const Eigen::VectorXd& q) const;
  // The position, and J = dp/dq (3 x nq; zero outside coordinates()).
  void jacobian(const Eigen::VectorXd& q, Eigen::Vector3d& p, Eigen::Matrix<double, 3, Eigen::Dynamic>& J) const;
  // The frame, J = dp/dq and, when W is given, the rotation's Jacobian W (omega = W qd, world axes).
  void jacobian(const Eigen::VectorXd& q, Eigen::Isometry3d& X, Eigen::Matrix<double, 3, Eigen::Dynamic>& J,
                Eigen::Matrix<double, 3, Eigen::Dynamic>* W) const;

 private:
  struct Work;  // per thread
  static Work& work();
  // The forward pass from the base along the path to the point's body: each body frame and distal
  // frame in the world, into w (by position in the path); returns the point's frame.
  Eigen::Isometry3d frames(const Eigen::VectorXd& q, Work& w) const;

  const MultibodySystem* sys_ = nullptr;
  int body_ = 0;
  Eigen::Vector3d point_ = Eigen::Vector3d::Zero();  // rigid: in the body frame; flexible: (x, y, z) as given
  SectionPoint section_;                             // flexible: the point's section
  std::vector<int> path_;                            // the bodies from the base to body_ (its ancestors, then it)
  std::vector<SectionPoint> tips_;                   // per body of the path but the last: its tip section (flexible links)
  std::vector<int> columns_;                         // coordinates(): the path's joint and elastic coordinates
  bool high_ = false;
};

}  // namespace flexarm
