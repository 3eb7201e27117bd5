#include "dynamics/TangentStiffness.hpp"

#include <algorithm>

#include "dynamics/ForceTerms.hpp"
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
  for (const ForceTerm* term : forceTerms()) term->addTangent(sys, data, sink);
  addInertiaTangent(sys, data, sink);
}

}  // namespace flexarm
