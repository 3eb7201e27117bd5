#pragma once
// The shape basis of a flexible link, clamped at its proximal end (x = 0):
//  - assumed modes: clamped-free eigenfunctions of the Euler-Bernoulli beam, axial rod and
//    torsion rod, a chosen count per family;
//  - finite elements: Hermite-cubic bending and linear axial/torsion elements, planar (v, v' per
//    node) or spatial (u, v, w, phi, v', w' per node), optionally reduced to the lowest modes.
#include <memory>
#include <string>
#include <vector>

#include "discretization/ShapeRows.hpp"
#include "model/FlexibleLink.hpp"

namespace flexarm {

class LinkBasis {
 public:
  virtual ~LinkBasis() = default;
  virtual int size() const = 0;  // number of elastic coordinates
  // All shape rows at x in [0, L].
  virtual void evaluate(double x, ShapeRows& out) const = 0;
  // Breakpoints of the piecewise definition (element ends) including 0 and L: quadrature is
  // done per interval. For assumed modes, equal cells fine enough for the highest mode.
  virtual std::vector<double> breakpoints() const = 0;
  // Human-readable name of coordinate k, e.g. "bending_y 2" or "node 3 v".
  virtual std::string coordinateName(int k) const = 0;
};

// Roots of 1 + cos(bL) cosh(bL) = 0 (clamped-free bending), k = 1, 2, ...
double clampedFreeBetaL(int k);

// Builds the basis of a flexible link of length L. For a reduced FE basis the link's own mass
// and stiffness matrices are needed; `reduceFiniteElements` does that after construction.
std::unique_ptr<LinkBasis> makeLinkBasis(const FlexibleLink& link, double length);

// Wraps a full basis so that its coordinates become modal amplitudes: rows = full rows * T.
std::unique_ptr<LinkBasis> makeReducedBasis(std::unique_ptr<LinkBasis> full, const Eigen::MatrixXd& T);

}  // namespace flexarm
