// Structural elasticity and damping of the flexible links (ForceTerms.hpp): Q = -K e - C ed with each
// link's stiffness and Rayleigh or modal damping matrices (FlexibleBody), potential 1/2 e^T K e,
// K_t = K and C_t = C.
#include "dynamics/ForceTerms.hpp"

namespace flexarm {
namespace {

class StructuralElasticity final : public ForceTerm {
 public:
  const char* name() const override { return "structural elasticity"; }
  Eigen::VectorXd& of(DynamicsData& d) const override { return d.structural_force; }

  double addForce(const MultibodySystem& sys, const DynamicsData&, const TermState& s,
                  Eigen::Ref<Eigen::VectorXd> force) const override {
    double potential = 0.0;
    for (const Body& b : sys.bodies) {
      if (!b.isFlexible()) continue;
      const FlexibleBody& fb = *b.flexible;
      const auto e = s.q.segment(b.e_index, fb.m);
      auto out = force.segment(b.e_index, fb.m);
      // Banded for elements: the sparse copies keep this linear in the mesh. The potential 1/2 e^T K e
      // is read off the change of e . out (no work vector).
      const double before = e.dot(out);
      out.noalias() -= fb.K_sparse * e;
      potential += 0.5 * (before - e.dot(out));
      out.noalias() -= fb.C_sparse * s.qd.segment(b.e_index, fb.m);
    }
    return potential;
  }

  void addTangent(const MultibodySystem& sys, const DynamicsData&, TangentSink& sink) const override {
    for (const Body& b : sys.bodies) {
      if (!b.isFlexible()) continue;
      const FlexibleBody& fb = *b.flexible;
      // The structural matrices' non-zeros only (banded for elements).
      for (auto [damping, source] :
           {std::pair<bool, const Eigen::SparseMatrix<double>*>{false, &fb.K_sparse}, {true, &fb.C_sparse}})
        for (int c = 0; c < source->outerSize(); ++c)
          for (Eigen::SparseMatrix<double>::InnerIterator it(*source, c); it; ++it)
            sink.add(damping, b.e_index + static_cast<int>(it.row()), b.e_index + static_cast<int>(it.col()), it.value());
    }
  }
};

}  // namespace

const ForceTerm& structuralElasticity() {
  static const StructuralElasticity term;
  return term;
}

}  // namespace flexarm
