#include "dynamics/TangentStiffness.hpp"

#include "dynamics/GeometricStiffness.hpp"

namespace flexarm {

void tangentStiffness(const MultibodySystem& sys, const DynamicsData& data, Eigen::MatrixXd& K, Eigen::MatrixXd& C) {
  K.setZero(sys.nq, sys.nq);
  C.setZero(sys.nq, sys.nq);
  for (std::size_t i = 0; i < sys.bodies.size(); ++i) {
    const Body& b = sys.bodies[i];
    C(b.q_index, b.q_index) += b.joint_damping;
    if (b.motor_index >= 0) {
      // torque = k (q_m / N - q) + c (qd_m / N - qd) acts on the link (+) and on the motor (-1/N).
      const JointFlex& jf = b.joint_flex;
      const double N = jf.gear_ratio;
      const int a = b.q_index, m = b.motor_index;
      for (auto [target, k] : {std::pair<Eigen::MatrixXd*, double>{&K, jf.stiffness}, {&C, jf.damping}}) {
        (*target)(a, a) += k;
        (*target)(a, m) -= k / N;
        (*target)(m, a) -= k / N;
        (*target)(m, m) += k / (N * N);
      }
    }
    if (b.drive.kind == JointDrive::Kind::PD) {
      // effort = kp (ref - scale q) + kd (ref' - scale qd) on the driven coordinate.
      const int k = b.drivenIndex();
      K(k, k) += b.drive.kp * b.driveScale();
      C(k, k) += b.drive.kd * b.driveScale();
    }
    if (!b.isFlexible()) continue;
    const FlexibleBody& fb = *b.flexible;
    // The structural matrices' non-zeros only (banded for elements).
    for (auto [target, source] :
         {std::pair<Eigen::MatrixXd*, const Eigen::SparseMatrix<double>*>{&K, &fb.K_sparse}, {&C, &fb.C_sparse}})
      for (int c = 0; c < source->outerSize(); ++c)
        for (Eigen::SparseMatrix<double>::InnerIterator it(*source, c); it; ++it)
          (*target)(b.e_index + static_cast<int>(it.row()), b.e_index + static_cast<int>(it.col())) += it.value();
    if (sys.coupling != CouplingOrder::Zero)
      addGeometricStiffness(fb, rigidMotionAxialForce(sys, data, static_cast<int>(i)), K.block(b.e_index, b.e_index, fb.m, fb.m));
  }
}

}  // namespace flexarm
