#include "dynamics/DeformedLink.hpp"

#include "dynamics/FrameMotion.hpp"

namespace flexarm {
namespace {

// The section's rotation about `axis` by its row of the rotation rows: relative velocity and
// acceleration (vrel, crel) and the pose.
Eigen::Isometry3d sectionStep(const SectionRows& sr, int axis, const Eigen::Ref<const Eigen::VectorXd>& e,
                              const Eigen::Ref<const Eigen::VectorXd>& ed, const Eigen::Ref<const Eigen::VectorXd>& edd,
                              Vector6d& vrel, Vector6d& crel) {
  const int c0 = sr.first, nc = sr.count;  // the row's non-zeros lie there
  const auto row = sr.rotation.row(axis).segment(c0, nc);
  vrel.setZero();
  vrel(axis) = row.dot(ed.segment(c0, nc));
  crel.setZero();
  crel(axis) = row.dot(edd.segment(c0, nc));
  return rotation(axis, row.dot(e.segment(c0, nc)));
}

}  // namespace

Eigen::Vector3d DeformedLink::sectionFrame(const SectionRows& sr, bool jacobian, Eigen::Isometry3d& X_world, Vector6d& vs,
                                           Vector6d& as, Eigen::MatrixXd& J, Eigen::MatrixXd* Js, int column) {
  const BodyFrames& fr = frames;
  dr_de.row(0) = sr.u;
  if (high) dr_de.row(0) -= g.transpose();
  dr_de.row(1) = sr.v;
  dr_de.row(2) = sr.w;
  const Eigen::Vector3d r(sr.x + sr.u.dot(e) - (high ? sr.fs.s : 0.0), sr.v.dot(e), sr.w.dot(e));
  Vector6d vrel = Vector6d::Zero(), crel = Vector6d::Zero();
  vrel.tail<3>().noalias() = dr_de * ed;
  crel.tail<3>() = Eigen::Vector3d(high ? -sr.fs.sdd : 0.0, 0.0, 0.0);
  crel.tail<3>().noalias() += dr_de * edd;  // the known elastic accelerations
  vs = fr.v_body;
  as = fr.a_body;
  X_world = fr.X_world_body * translation(r);
  Matrix6d X_all = advanceMotion(translation(r), vrel, crel, vs, as);
  Matrix6d X_rot = Matrix6d::Identity();
  Eigen::Matrix<double, 6, 3> c = Eigen::Matrix<double, 6, 3>::Zero();
  for (int axis : {2, 1, 0}) {
    const Eigen::Isometry3d R = sectionStep(sr, axis, e, ed, edd, vrel, crel);
    const Matrix6d X_step = advanceMotion(R, vrel, crel, vs, as);
    if (jacobian) {
      X_all = X_step * X_all;
      X_rot = X_step * X_rot;
      c = X_step * c;
      c(axis, axis) += 1.0;
    }
    X_world = X_world * R;
  }
  if (jacobian) {
    // J_body is zero on this link's elastic columns (from e_index on).
    if (split_columns) {
      J.setZero();
      transformColumns(X_all, fr.J_body, ForeshorteningColumns::columnSet(*split_columns), J);
    } else {
      transformColumns(X_all, fr.J_body, sys.jacobianColumns(body.e_index), J);
    }
    if (Js) {
      Js->noalias() = X_all * fr.Js_body;
      if (column >= 0 && high) {  // the foreshortening's column: dr_de without it (work memory, read no more)
        dr_de.row(0) += g.transpose();
        Js->col(column) = -X_rot.col(3);
      }
    }
    auto J_elastic = J.middleCols(body.e_index, body.e_count);
    J_elastic.noalias() = X_rot.rightCols<3>() * dr_de;
    J_elastic.middleCols(sr.first, sr.count).noalias() += c * sr.rotation.middleCols(sr.first, sr.count);
  }
  return r;
}

}  // namespace flexarm
