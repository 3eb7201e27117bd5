#pragma once
// The tangent stiffness K_t = dF/dq and damping C_t = dF/dqd of the residual F = M(q) qdd + b(q, qd) - Q
// that the implicit integrators need for their iteration matrix M + gamma h C_t + beta h^2 K_t: the sum
// of each force term's (ForceTerms.hpp: the links' structural K and C, the flexible joints' springs and
// dampers, the joints' viscous damping, `geometric` coupling's geometric stiffness, the PD drives' gains)
// and the leading part of the inertia's (addInertiaTangent: `high` coupling's dynamic stiffening).
#include <Eigen/SparseCore>
#include <vector>

#include "dynamics/DynamicsData.hpp"

namespace flexarm {

struct AxialForce;
struct FlexibleBody;

// Where the terms go: K_t and C_t of the free coordinates, numbered as such (`number`: per coordinate
// its place among the free ones, or -1 for a prescribed one, whose rows and columns drop out).
class TangentSink {
 public:
  explicit TangentSink(const std::vector<int>& number) : number_(number) {}
  virtual ~TangentSink() = default;
  // K (damping false) or C (damping true) (row, column) += value, in the coordinates' numbering.
  void add(bool damping, int row, int column, double value) {
    const int r = number_[static_cast<std::size_t>(row)], c = number_[static_cast<std::size_t>(column)];
    if (r >= 0 && c >= 0) addFree(damping, r, c, value);
  }
  // K += the geometric stiffness of link `fb` (its coordinates from e_index, all free) under P.
  virtual void addGeometricStiffness(const FlexibleBody& fb, const AxialForce& P, int e_index) = 0;

 protected:
  virtual void addFree(bool damping, int row, int column, double value) = 0;
  int freeNumber(int coordinate) const { return number_[static_cast<std::size_t>(coordinate)]; }

 private:
  const std::vector<int>& number_;
};

// Into dense matrices (nf x nf, zeroed first). No heap allocation when they have the size.
class DenseTangent final : public TangentSink {
 public:
  DenseTangent(const std::vector<int>& number, int nf, Eigen::MatrixXd& K, Eigen::MatrixXd& C);
  void addGeometricStiffness(const FlexibleBody& fb, const AxialForce& P, int e_index) override;

 private:
  void addFree(bool damping, int row, int column, double value) override { (damping ? C_ : K_)(row, column) += value; }
  Eigen::MatrixXd &K_, &C_;
};

// As entries (row, column, value) of sparse matrices, element-local (banded blocks): no dense n x n
// pass. Entries at the same place add up. No heap allocation once the vectors have the capacity.
using MatrixEntries = std::vector<Eigen::Triplet<double>>;
class TangentEntries final : public TangentSink {
 public:
  TangentEntries(const std::vector<int>& number, MatrixEntries& K, MatrixEntries& C, Eigen::MatrixXd& window);
  void addGeometricStiffness(const FlexibleBody& fb, const AxialForce& P, int e_index) override;

 private:
  void addFree(bool damping, int row, int column, double value) override { (damping ? C_ : K_).emplace_back(row, column, value); }
  MatrixEntries &K_, &C_;
  Eigen::MatrixXd& window_;  // work memory
};

// K and C are symmetric, and the solvers factorize their iteration matrix by Cholesky
// (base/SymmetricSolve.hpp): a term added here must keep them so.
// Adds K_t and C_t to `sink`. Needs the frames of an evaluation of the equations at the same state
// (EquationsOfMotion.hpp).
void tangentStiffness(const MultibodySystem& sys, const DynamicsData& data, TangentSink& sink);

}  // namespace flexarm
