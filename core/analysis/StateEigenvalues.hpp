#pragma once
// The eigenvalues lambda and eigenvectors of the linearized equations M x'' + C x' + K x = 0, that is of
// the state matrix A = [0 I; -M^-1 K, -M^-1 C], as the modes of a linearization need them:
//   - every one, by Eigen's dense nonsymmetric solver on A (2 n x 2 n, ~25 (2n)^3 operations: a
//     second for 2n = 300, minutes for the 2 400 states of a 200-element spatial link);
//   - the ones nearest zero, by Arnoldi's method on the shift-inverted operator (A - sigma I)^-1, which
//     needs one LU factorization of the n x n matrix K + sigma C + sigma^2 M and then O(n^2) per
//     Krylov vector (M's product; a K that is mostly zeros, as the grouped columns of a fine mesh
//     give it, is factorized sparse when it is regular, and C's product is then sparse too). The
//     Krylov space grows until every eigenvalue within a disk around sigma has converged (Ritz
//     residual within 1e-10) and the disk holds the wanted number of modes; the eigenvalues are
//     returned only from that disk, so none nearer zero is ever missing.
// A vibration mode is an eigenvalue that is not zero (|lambda| < 1e-7 scale, a rigid-body mode), not
// the conjugate of one with Im(lambda) > 0, and not an overdamped decay (real and negative).
#include <Eigen/Dense>
#include <atomic>
#include <complex>
#include <string>

namespace flexarm {

struct StateEigenpairs {
  Eigen::VectorXcd values;
  Eigen::MatrixXcd shapes;  // n x values.size(): the displacement part of each eigenvector
  double scale = 0.0;       // |lambda| below 1e-7 scale counts as zero
  bool cancelled = false;
  std::string error;  // empty on success
  // Set when fewer vibration modes than asked converged within the Krylov space's limit: says why.
  std::string note;
};

enum class EigenvalueKind { Zero, Mode, Conjugate, Decay };
EigenvalueKind eigenvalueKind(std::complex<double> lambda, double scale);

// Every eigenvalue of A (2n x 2n); scale = the largest |lambda|.
StateEigenpairs everyEigenvalue(const Eigen::MatrixXd& A);

// The eigenvalues nearest zero, at least `modes` vibration modes among them (all of them when there are
// fewer, and those found when the Krylov space reaches max(6 modes + 120, 300) vectors first: `note`
// says so). `cancel` is checked every Krylov vector. scale = the largest |lambda| of those returned.
StateEigenpairs eigenvaluesNearZero(const Eigen::MatrixXd& M, const Eigen::MatrixXd& K, const Eigen::MatrixXd& C, int modes,
                                    const std::atomic<bool>* cancel);

}  // namespace flexarm
