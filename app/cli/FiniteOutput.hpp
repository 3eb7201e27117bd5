#pragma once
// Analyses never report NaN or inf with exit 0 (issue 45): what modes, campbell and linearize are about
// to print or write is checked first, and a number that is not finite names where it is; the command
// then exits 3 (a solver failure) instead of printing it.
#include <string>

#include <Eigen/Core>

#include "analysis/Campbell.hpp"
#include "analysis/Linearization.hpp"

namespace flexarm::cli {

// "mode 2: frequency nan Hz" for the first mode with a number that is not finite; empty when all are.
std::string nonFiniteMode(const LinearizationResult& r);

// "curve 1 at 3 rad/s: frequency nan Hz"; empty when every point is finite.
std::string nonFiniteCampbell(const CampbellResult& r);

// "A(3, 4) = nan"; empty when every entry of the matrix named `name` is finite.
std::string nonFiniteEntry(const Eigen::MatrixXd& m, const std::string& name);

// The message and exit code (3) of a command whose results are not finite numbers.
int failNonFinite(const std::string& what);

}  // namespace flexarm::cli
