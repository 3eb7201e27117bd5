#pragma once
// The kinematics of a deformed flexible link: where a section of it is, how it moves, and its Jacobian.
//
// A point of the link's neutral axis sits at r(x) = [x + u(x) - c s(x), v(x), w(x)] in the body frame,
// s(x) = 1/2 int_0^x (v'^2 + w'^2) the foreshortening (c = 1 under `high` coupling, 0 otherwise), and
// the section there is turned by Rz(v'(x)) Ry(-w'(x)) Rx(phi(x)). The distal frame is the section at
// x = L; a payload on a section rides on the section at its x. The Gauss stations' own positions and
// motions are taken where their inertia is gathered (LinkInertia.cpp), with the same r(x).
#include "dynamics/DynamicsData.hpp"

namespace flexarm {

// The foreshortening at a section: s(x) and the velocity-product part of its second derivative,
// int_0^x (v.'^2 + w.'^2) (its gradient g(x) = ds/de is kept in DynamicsData).
struct TipForeshortening {
  double s = 0.0, sdd = 0.0;
};

// A section of a flexible link as a frame: its shape rows u, v, w at x, the rows of its rotation
// [phi; -w'; v'] (non-zero on the columns [first, first + count)), and its foreshortening: the distal
// frame (x = L) or a payload's section.
struct SectionRows {
  const Eigen::RowVectorXd &u, &v, &w;
  double x;
  const Eigen::Matrix<double, 3, Eigen::Dynamic>& rotation;
  int first, count;
  TipForeshortening fs;
};

// One flexible link in a pass of the equations: its body frame's pose, motion and Jacobian (`frames`),
// its elastic coordinates, rates and known accelerations, and the foreshortening gradient g of the
// section asked for next (set by the caller before each section).
struct DeformedLink {
  const MultibodySystem& sys;
  const Body& body;
  const BodyFrames& frames;
  bool high;
  Eigen::Ref<const Eigen::VectorXd> e, ed, edd, g;
  Eigen::Ref<Eigen::MatrixXd> dr_de;  // 3 x m work: [u - c g^T; v; w]
  // A pass that splits the foreshortening: the columns on which the body frame's Jacobian can be
  // non-zero (ForeshorteningColumns::body_columns); a section's Jacobian is then zero elsewhere.
  const std::vector<int>* split_columns = nullptr;

  // The frame of section sr: its world pose, its velocity and velocity-product acceleration (with the
  // known elastic accelerations edd) in its own axes and, with `jacobian`, its 6 x nq Jacobian
  //   J = X_all J_body + X_rot [0; dr/de] + c R_s,
  // X_rot the three rotations' transform, X_all = X_rot X_translation, c.col(k) the unit vector e_k
  // carried through the rotations after the k-th, R_s the rotation rows. Returns r(x) in the body frame.
  // With Js (a pass that splits the foreshortening, ForeshorteningColumns.hpp) the Jacobian is split:
  // Js = X_all Js_body the columns of the foreshortening before the link, and when the section has a
  // column of its own (`column`) its foreshortening -g^T goes there as -X_rot e_x instead of into J.
  // No heap allocation.
  Eigen::Vector3d sectionFrame(const SectionRows& sr, bool jacobian, Eigen::Isometry3d& X_world, Vector6d& v, Vector6d& a,
                               Eigen::MatrixXd& J, Eigen::MatrixXd* Js = nullptr, int column = -1);
};

}  // namespace flexarm
