#include "dynamics/GeometricStiffness.hpp"

namespace flexarm {

AxialForce rigidMotionAxialForce(const MultibodySystem& sys, const DynamicsData& d, int i) {
  const BodyFrames& fr = d.frames[static_cast<std::size_t>(i)];
  const FlexibleBody& fb = *sys.bodies[static_cast<std::size_t>(i)].flexible;
  Eigen::Vector3d outboard = fr.force_distal_world;
  for (std::size_t j = static_cast<std::size_t>(i) + 1; j < sys.bodies.size(); ++j) outboard += d.frames[j].force_world;
  AxialForce P;
  P.P_tip = -(fr.X_world_body.linear().transpose() * outboard).x();
  const Eigen::Vector3d w = fr.v_body.head<3>(), vO = fr.v_body.tail<3>();
  P.a0x = fr.a_body(3) + w.cross(vO).x();  // classical acceleration of the origin along x (incl. -g)
  P.k2 = w.y() * w.y() + w.z() * w.z();
  P.rhoA = fb.rhoA;
  P.length = fb.length;
  return P;
}

void addGeometricStiffness(const FlexibleBody& fb, const AxialForce& P, Eigen::Ref<Eigen::MatrixXd> K) {
  // A slope point's rows are non-zero only on its interval's window of coordinates.
  for (const FlexibleBody::Interval& iv : fb.intervals) {
    auto K_w = K.block(iv.first, iv.first, iv.count, iv.count);
    for (int k = iv.full_begin; k < iv.full_begin + iv.full_count; ++k) {
      const FlexibleBody::SlopePoint& sp = fb.slopes[static_cast<std::size_t>(k)];
      const double c = sp.weight * P.at(sp.x);
      const auto v1 = sp.v1.segment(iv.first, iv.count), w1 = sp.w1.segment(iv.first, iv.count);
      K_w.noalias() += c * v1.transpose() * v1;
      K_w.noalias() += c * w1.transpose() * w1;
    }
  }
}

}  // namespace flexarm
