#include "dynamics/TangentStiffness.hpp"

#include <algorithm>

#include "dynamics/GeometricStiffness.hpp"

namespace flexarm {

DenseTangent::DenseTangent(const std::vector<int>& number, int nf, Eigen::MatrixXd& K, Eigen::MatrixXd& C)
    : TangentSink(number), K_(K), C_(C) {
  // std::fill, which becomes a memset: Eigen's setZero() of a dynamic matrix took 14k instructions
  // for 42 x 42.
  K_.resize(nf, nf);
  C_.resize(nf, nf);
  std::fill_n(K_.data(), K_.size(), 0.0);
  std::fill_n(C_.data(), C_.size(), 0.0);
}

void DenseTangent::addGeometricStiffness(const FlexibleBody& fb, const AxialForce& P, int e_index) {
  const int first = freeNumber(e_index);  // elastic coordinates are free and consecutive
  flexarm::addGeometricStiffness(fb, P, K_.block(first, first, fb.m, fb.m));
}

TangentEntries::TangentEntries(const std::vector<int>& number, MatrixEntries& K, MatrixEntries& C, Eigen::MatrixXd& window)
    : TangentSink(number), K_(K), C_(C), window_(window) {
  K_.clear();
  C_.clear();
}

void TangentEntries::addGeometricStiffness(const FlexibleBody& fb, const AxialForce& P, int e_index) {
  flexarm::addGeometricStiffness(fb, P, freeNumber(e_index), window_, K_);
}

void tangentStiffness(const MultibodySystem& sys, const DynamicsData& data, TangentSink& sink) {
  for (std::size_t i = 0; i < sys.bodies.size(); ++i) {
    const Body& b = sys.bodies[i];
    sink.add(true, b.q_index, b.q_index, b.joint_damping);
    if (b.motor_index >= 0) {
      // torque = k (q_m / N - q) + c (qd_m / N - qd) acts on the link (+) and on the motor (-1/N).
      const JointFlex& jf = b.joint_flex;
      const double N = jf.gear_ratio;
      const int a = b.q_index, m = b.motor_index;
      for (auto [damping, k] : {std::pair<bool, double>{false, jf.stiffness}, {true, jf.damping}}) {
        sink.add(damping, a, a, k);
        sink.add(damping, a, m, -k / N);
        sink.add(damping, m, a, -k / N);
        sink.add(damping, m, m, k / (N * N));
      }
    }
    if (b.drive.kind == JointDrive::Kind::PD) {
      // effort = kp (ref - scale q) + kd (ref' - scale qd) on the driven coordinate.
      const int k = b.drivenIndex();
      sink.add(false, k, k, b.drive.kp * b.driveScale());
      sink.add(true, k, k, b.drive.kd * b.driveScale());
    }
    if (!b.isFlexible()) continue;
    const FlexibleBody& fb = *b.flexible;
    // The structural matrices' non-zeros only (banded for elements).
    for (auto [damping, source] :
         {std::pair<bool, const Eigen::SparseMatrix<double>*>{false, &fb.K_sparse}, {true, &fb.C_sparse}})
      for (int c = 0; c < source->outerSize(); ++c)
        for (Eigen::SparseMatrix<double>::InnerIterator it(*source, c); it; ++it)
          sink.add(damping, b.e_index + static_cast<int>(it.row()), b.e_index + static_cast<int>(it.col()), it.value());
    if (sys.coupling == CouplingOrder::Zero) continue;
    sink.addGeometricStiffness(fb, rigidMotionAxialForce(sys, data, static_cast<int>(i)), b.e_index);
    // A payload on a section pulls on the link from its root to that section: its tension P times
    // int_0^x (v1^T v1 + w1^T w1), one window of coordinates at a time.
    for (std::size_t k = 0; k < b.section_masses.size(); ++k) {
      const double P = sectionMassTension(sys, data, static_cast<int>(i), k);
      for (const SectionPoint::SlopeWindow& sw : b.section_masses[k].section.slopes) {
        const int n = static_cast<int>(sw.v1.cols()), e0 = b.e_index + sw.first;
        for (int c = 0; c < n; ++c)
          for (int r = 0; r < n; ++r) {
            const double value = P * (sw.weight.array() *
                                      (sw.v1.col(r).array() * sw.v1.col(c).array() + sw.w1.col(r).array() * sw.w1.col(c).array()))
                                         .sum();
            if (value != 0.0) sink.add(false, e0 + r, e0 + c, value);
          }
      }
    }
  }
}

}  // namespace flexarm
