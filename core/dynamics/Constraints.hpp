#pragma once
// The constraint rows of a system for the constrained solvers (IDA, Newmark):
//   Phi(q, t) = 0,  Phi_q qd + Phi_t = 0,  Phi_q qdd = h(q, qd, t),
// built from the model's constraints and, when asked, one row per prescribed drive (the joint
// follows its law through a Lagrange multiplier instead of being eliminated).
#include <optional>
#include <string>
#include <vector>

#include "dynamics/DynamicsData.hpp"
#include "dynamics/LinkPoint.hpp"
#include "model/Constraint.hpp"
#include "model/Model.hpp"
#include "base/Result.hpp"

namespace flexarm {

struct ConstraintRows {
  Eigen::VectorXd phi, phi_t, h;  // nc
  Eigen::MatrixXd Phi_q;          // nc x nq
  // Empty when fine; otherwise what went wrong (a sliding link that left its support).
  std::string error;
};

// The change dx of the coordinates with G dx = r that a user expects when a state is brought onto the
// constraints: made by the joints where they can (`joint` marks their columns; the least change of
// them), and by every coordinate for what the joints leave (a link's deflection or rate only where the
// joints cannot close the loop). G is rows x columns, r the rows' residual.
Eigen::VectorXd jointsFirstCorrection(const Eigen::MatrixXd& G, const Eigen::VectorXd& r, const std::vector<bool>& joint);

class ConstraintSet {
 public:
  // A named group of rows: one model constraint, or one prescribed drive ("drive.<joint>").
  struct Group {
    std::string name;
    std::string unit;  // of the position rows: "m", "rad", "m or rad"
    int first_row = 0, rows = 0;
    int joint = -1;  // prescribed drive: index of the joint whose effort is -lambda
    double effort_scale = 1.0;
  };

  // Or why the constraints cannot be built (what and where).
  Status build(const MultibodySystem& sys, const Model& model, bool prescribed_as_constraints);

  int size() const { return rows_; }
  const std::vector<Group>& groups() const { return groups_; }

  // Evaluates every row at (q, qd, t).
  void evaluate(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& qd, ConstraintRows& out) const;

  // The derivatives with respect to q that an iteration matrix of the constrained equations needs
  // beyond Phi_q itself, at (q, qd):
  //   out_force += scale d(Phi_q^T w)/dq   (nq x nq, symmetric: w . Phi_qq, the constraint forces'
  //                                          stiffness for multipliers w),
  //   out_rate   = d(Phi_q qd + Phi_t)/dq  (nc x nq).
  // Sliding supports analytically; closures (point, revolute, prismatic) by central differences of their Jacobian along the
  // coordinates that move the point; coordinate rows are linear (nothing).
  void addForceDerivative(const Eigen::VectorXd& q, const Eigen::VectorXd& w, double scale,
                          Eigen::Ref<Eigen::MatrixXd> out_force) const;
  void rateDerivative(const Eigen::VectorXd& q, const Eigen::VectorXd& qd, Eigen::Ref<Eigen::MatrixXd> out_rate) const;
  // Several of those from one sweep of the closures' differences (each sweep evaluates a closure's
  // Jacobian twice per coordinate that moves it): every force term's out += scale d(Phi_q^T w)/dq, and
  // *out_rate = d(Phi_q qd + Phi_t)/dq when out_rate is given (qd is read only then). The index-2 iteration matrix needs
  // two force terms and the rate (GglResidual::jacobian).
  struct ForceTerm {
    const Eigen::VectorXd& w;
    double scale;
    Eigen::Ref<Eigen::MatrixXd> out;
  };
  void addDerivatives(const Eigen::VectorXd& q, std::vector<ForceTerm>& force, const Eigen::VectorXd& qd,
                      Eigen::Ref<Eigen::MatrixXd>* out_rate) const;

 private:
  struct Linear {  // a . q = gain f(t)
    Eigen::VectorXd a;
    TimeFunction law;
    double gain = 1.0;
  };
  // The rows between a point of a link (A) and its counterpart (B: a point of another link, or the
  // world), with d = p_A - p_B and the directions below turning with their frame:
  //   point:     d (3 rows: along the world's x, y and z);
  //   revolute:  d (3 rows) and a . b_1, a . b_2 (the axis a of A normal to two directions b_i of B);
  //   prismatic: n_1 . d, n_2 . d (n_i of A normal to its axis) and f_1 . g_2, f_2 . g_0, f_0 . g_1
  //              (A's axes f_k against B's axes g_k, which are f_k in the initial state).
  // Of those, a closure keeps the rows the model can move (of a point's, those of its held axes).
  struct Closure {
    Constraint::Kind kind = Constraint::Kind::Point;
    LinkPoint a;
    std::optional<LinkPoint> b;                       // absent: the world
    Eigen::Vector3d world = Eigen::Vector3d::Zero();  // B's point when b is absent
    Eigen::Matrix3d f = Eigen::Matrix3d::Identity();  // A's directions in A's frame: [axis, n_1, n_2]
    Eigen::Matrix3d g = Eigen::Matrix3d::Identity();  // B's directions in B's frame (the world's when b is absent)
    std::vector<int> moving;                          // the coordinates that move A or B, ascending
    std::vector<int> kept;                            // the rows kept, ascending
    int rows() const { return static_cast<int>(kept.size()); }
  };
  // The closure of constraint k, or why it cannot be (a row that nothing can move, off in the initial state).
  static Result<Closure> closure(const MultibodySystem& sys, const Model& model, const Constraint& k);
  // Every row of closure c at q (3 for a point, 5 otherwise) and their Jacobian (rows x nq).
  static void allRows(const Closure& c, const Eigen::VectorXd& q, Eigen::Ref<Eigen::VectorXd> phi, Eigen::Ref<Eigen::MatrixXd> J);
  // The kept rows of closure c at q and their Jacobian.
  void closureRows(const Closure& c, const Eigen::VectorXd& q, Eigen::Ref<Eigen::VectorXd> phi,
                   Eigen::Ref<Eigen::MatrixXd> J) const;
  struct Support {  // rows of N(x_D) e (and N'(x_D) e) with x_D = sigma (s - q_joint)
    int body = -1;
    double position = 0.0, sigma = 1.0;
    bool slope = false;
    bool lateral_w = false;  // spatial links: also the deflection along z
  };
  struct Entry {
    enum class Kind { Linear, Closure, Support } kind = Kind::Linear;
    int index = 0;  // into linear_, closures_ or supports_
    int first_row = 0;
  };

  void evaluateSupport(const Support& s, const Eigen::VectorXd& q, const Eigen::VectorXd& qd, int row, ConstraintRows& out) const;
  // Calls fn(row, N, N1, N2) for each row of support s (Phi = N(x_D) e), with its shape rows at x_D.
  template <class Fn>
  void forEachSupportRow(const Support& s, const Eigen::VectorXd& q, int row, Fn&& fn) const;
  // Central differences of a closure's Jacobian along each coordinate k that moves it: fn(k, dJ/dq_k).
  template <class Fn>
  void forEachClosureJacobianDerivative(const Closure& c, const Eigen::VectorXd& q, Fn&& fn) const;

  const MultibodySystem* sys_ = nullptr;
  int rows_ = 0;
  std::vector<Group> groups_;
  std::vector<Entry> entries_;
  std::vector<Linear> linear_;
  std::vector<Closure> closures_;
  std::vector<Support> supports_;
};

}  // namespace flexarm
