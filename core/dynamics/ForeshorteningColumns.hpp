#pragma once
// The foreshortening of `high` coupling as columns of its own in the Jacobians: the split mass matrix
// that the structured solve of the iteration matrices factorizes at a cost linear in the mesh.
//
// Under `high` coupling a section of a flexible link at x sits at r_x = x + u - s(x), and the gradient
// g = ds/de of the foreshortening spans every elastic coordinate of the link before x. So the Jacobian
// of every frame beyond the section (the link's distal frame and each link after it, a payload on the
// section) is dense on those coordinates, J_b = J~_b + j_b g^T, and the mass matrix is dense across the
// links. Taking each such section's foreshortening rate sigma = g^T e. as a velocity of its own, a
// column j_b of its own, the Jacobians become sparse again: J_b = [J~_b j_b] T with T = [I; G^T]
// (G = [g_1 ... g_L], each column on its link's coordinates), and
//   M = T^T M~ T = M~_xx + G M~_sx + M~_xs G^T + G M~_ss G^T,
// with M~ = sum of [J~ j]^T I [J~ j] over the mass elements: M~_xx sparse like the mass matrix of zero
// coupling (banded link blocks and the joints' rows), M~_xs an n x L border, M~_ss L x L. The same pass
// of the equations computes M~ instead of M when `split` is set (EquationsOfMotion.cpp): its M holds
// M~_xx, these the rest. Nothing else changes: after the pass the Jacobians are made whole again
// (J~ + j g^T) and the bias folded (tau_x + G tau_s), so that the forces, the bias and every frame are
// those of the ordinary pass.
//
// Within a link the same running integral gives the mass matrix its running-integral terms
// (LinkInertia.hpp): C_run = sum_k (mu_k G_k G_k^T - G_k L_k^T - L_k G_k^T) over the intervals k >= 1,
// G_k = phi_0 + ... + phi_{k-1} the gradient of the foreshortening at the interval's start, mu_k its
// mass and L_k its stations' levers. A pass that splits with DynamicsData::mass_without_running_terms
// leaves them out of M~_xx, which is then banded by element, and gives them instead as the rows of
// 2 (K - 1) unknowns per link beside the coordinates (`running`): sigma = G^T x and its multipliers nu,
// with G = Phi N (N upper triangular ones: sigma_k - sigma_{k-1} = phi_k^T x) so that every block is sparse:
//   [ A      -L      Phi   ] [x    ]   [b]
//   [ -L^T    D     -N^-1  ] [sigma] = [0]     D = diag(mu_k), A = M~_xx + ... (banded),
//   [ Phi^T  -N^-T    0    ] [nu   ]   [0]
// whose Schur complement on x is A + G D G^T - G L^T - L G^T = A + C_run, to round-off. So
// M + c_v C_t + c_q K_t is that sparse symmetric system plus a rank-2L update, which
// base/LowRankUpdatedSolve.hpp factorizes at a cost linear in the mesh (ForwardDynamicsRhs).
#include <Eigen/Core>
#include <Eigen/SparseCore>
#include <vector>

#include "dynamics/Spatial.hpp"

namespace flexarm {

struct MultibodySystem;
struct FlexibleBody;

struct ForeshorteningColumns {
  // A section whose foreshortening has its own column: the distal frame of a flexible link that carries
  // something (a payload, or a link after it), or a payload's section on it.
  struct Section {
    int body = 0;
    int payload = -1;  // -1: the distal frame; k: the section of Body::section_masses[k]
    int e_index = 0, e_count = 0;
  };
  std::vector<Section> sections;                 // L of them (none without `high` coupling)
  std::vector<int> distal_column;                // per body: its distal frame's column, or -1
  std::vector<std::vector<int>> payload_column;  // per body and section payload: its column
  bool split = false;                            // the next passes with M compute M~ (above)
  // The running terms' unknowns: per body the first (relative to the coordinates' count) of its
  // 2 (K - 1), or -1; and their number.
  std::vector<int> running_offset;
  int running_count = 0;
  // Where each of them belongs among the coordinates: just after the first coordinate of the interval
  // it reads (a banded order for the solve, LowRankUpdatedSolve.hpp).
  std::vector<int> running_place;
  // The columns on which a split pass's Jacobians can be non-zero (the joints on the way and the few
  // elastic coordinates that move a distal frame or a payload's section without the foreshortening), per
  // body: its body frame, its distal frame, each payload's section. And where the pass writes M~_xx in all
  // (their products, each link's coupling rows and its element blocks, the rotors): a pass with the split
  // is linear in the mesh, writes M only there and notes it as its one region.
  std::vector<std::vector<int>> body_columns, distal_columns;
  std::vector<std::vector<std::vector<int>>> section_columns;
  Eigen::SparseMatrix<double> mass_pattern;
  // Per flexible body, where its stations' block without the running terms can be non-zero (m x m): the
  // union of its intervals' windows.
  std::vector<Eigen::SparseMatrix<double>> station_patterns;
  static ColumnSet columnSet(const std::vector<int>& c) { return {c.data(), static_cast<int>(c.size())}; }
  // From the last pass with `split` and M:
  Eigen::MatrixXd gradients;  // m_max x L: g of each section, on its link's coordinates
  Eigen::MatrixXd M_xs;       // nq x L
  Eigen::MatrixXd M_ss;       // L x L
  Eigen::VectorXd tau_s;      // L: the bias on the sections' columns, folded into the bias by the pass
  // With mass_without_running_terms: the rows of the running terms' unknowns (above), the coordinates
  // numbered as the system's and the unknowns as nq + running_offset + k, both triangles.
  std::vector<Eigen::Triplet<double>> running;

  ForeshorteningColumns() = default;
  explicit ForeshorteningColumns(const MultibodySystem& sys);
  int count() const { return static_cast<int>(sections.size()); }

  // The pass's steps (EquationsOfMotion.cpp). At its start: M~_xs, M~_ss, tau_s := 0.
  void clear();
  // A mass element of inertia A on a frame with Jacobian [J Js] (J on the columns `cols`, Js 6 x L) and
  // d'Alembert wrench f: M~_xs += J^T A Js, M~_ss += Js^T A Js, tau_s += Js^T f. Its M~_xx (J^T A J) and
  // tau_x (J^T f) are the pass's own.
  void addMassElement(const Matrix6d& A, const Eigen::MatrixXd& J, ColumnSet cols, const Eigen::MatrixXd& Js, const Vector6d& f);
  // A flexible link's stations' coupling rows B^T (m x 6) with its body frame's Js: M~_xs(e) += B^T Js.
  void addCoupling(const Eigen::MatrixXd& Bt, int e_index, int m, const Eigen::MatrixXd& Js);
  // A flexible link's running terms from its intervals' sums (DynamicsData::interval_*, just gathered).
  void addRunningTerms(int body, const FlexibleBody& fb, int e_index, const Eigen::MatrixXd& interval_slope,
                       const Eigen::MatrixXd& interval_lever, const Eigen::VectorXd& interval_mass, int nq);
  // After the pass: a frame's Jacobian whole again, J + Js G^T, and the bias tau_x + G tau_s.
  void joinJacobian(Eigen::MatrixXd& J, const Eigen::MatrixXd& Js) const;
  void foldBias(Eigen::VectorXd& tau) const;

 private:
  void buildColumns(const MultibodySystem& sys);
  Eigen::Matrix<double, 6, Eigen::Dynamic> IJs_;  // work: A Js
};

}  // namespace flexarm
