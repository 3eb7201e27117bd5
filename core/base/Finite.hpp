#pragma once
// Whether every entry of a matrix or vector is finite, in one vectorized pass: x * 0 is 0 where x is
// finite and NaN where it is infinite or NaN, so their sum is 0 or NaN. Eigen's allFinite() tests
// entry by entry with an early exit that does not vectorize: about six times the instructions on a
// 42 x 42 matrix (12k against 2k), taken at every step of an implicit integrator. (Not with
// -ffast-math, which this project does not use.)
#include <Eigen/Core>
#include <cmath>

namespace flexarm {

template <typename Derived>
bool allFinite(const Eigen::DenseBase<Derived>& x) {
  return std::isfinite((x.derived().array() * 0.0).sum());
}

}  // namespace flexarm
