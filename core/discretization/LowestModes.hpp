#pragma once
// The lowest natural modes of a structural model K x = lambda M x (K symmetric, M symmetric positive
// definite). Small models are solved densely; large finite-element meshes by subspace iteration on the
// sparse matrices, whose solves grow linearly with the mesh where the dense solver grows with its cube
// (a 200-element spatial link: 1 200 coordinates). Taking the sparse view of the dense K and M given is
// O(m^2).
#include <Eigen/Core>

namespace flexarm {

struct LowestModes {
  Eigen::VectorXd values;   // eigenvalues lambda = omega^2, ascending
  Eigen::MatrixXd vectors;  // their M-normalized eigenvectors (columns)
};

// The min(count, m) lowest modes. Models of up to `dense_limit` coordinates, those whose stiffness is
// not positive definite (a free field) and those on which the iteration does not converge are solved
// densely, so the result is always the exact lowest modes to round-off.
LowestModes lowestModes(const Eigen::MatrixXd& K, const Eigen::MatrixXd& M, int count, int dense_limit = 240);

}  // namespace flexarm
