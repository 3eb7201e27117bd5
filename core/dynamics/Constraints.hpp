#pragma once
// The constraint rows of a system for the constrained solvers (IDA, Newmark):
//   Phi(q, t) = 0,  Phi_q qd + Phi_t = 0,  Phi_q qdd = h(q, qd, t),
// built from the model's constraints and, when asked, one row per prescribed drive (the joint
// follows its law through a Lagrange multiplier instead of being eliminated).
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
  // Sliding supports analytically; point rows by central differences of their Jacobian along the
  // coordinates that move the point; coordinate rows are linear (nothing).
  void addForceDerivative(const Eigen::VectorXd& q, const Eigen::VectorXd& w, double scale,
                          Eigen::Ref<Eigen::MatrixXd> out_force) const;
  void rateDerivative(const Eigen::VectorXd& q, const Eigen::VectorXd& qd, Eigen::Ref<Eigen::MatrixXd> out_rate) const;

 private:
  struct Linear {  // a . q = gain f(t)
    Eigen::VectorXd a;
    TimeFunction law;
    double gain = 1.0;
  };
  struct PointRows {  // axis_k . (p(q) - world) = 0 for the chosen world axes
    LinkPoint point;  // on a rigid link or a section of a flexible one, flexible links on the way or not
    Eigen::Vector3d world = Eigen::Vector3d::Zero();
    std::vector<int> axes;
  };
  struct Support {  // rows of N(x_D) e (and N'(x_D) e) with x_D = sigma (s - q_joint)
    int body = -1;
    double position = 0.0, sigma = 1.0;
    bool slope = false;
    bool lateral_w = false;  // spatial links: also the deflection along z
  };
  struct Entry {
    enum class Kind { Linear, Point, Support } kind = Kind::Linear;
    int index = 0;  // into linear_, points_ or supports_
    int first_row = 0;
  };

  void evaluateSupport(const Support& s, const Eigen::VectorXd& q, const Eigen::VectorXd& qd, int row, ConstraintRows& out) const;
  // Calls fn(row, N, N1, N2) for each row of support s (Phi = N(x_D) e), with its shape rows at x_D.
  template <class Fn>
  void forEachSupportRow(const Support& s, const Eigen::VectorXd& q, int row, Fn&& fn) const;
  // Central differences of a point's Jacobian along each coordinate k that moves it: fn(k, dJ/dq_k).
  template <class Fn>
  void forEachPointJacobianDerivative(const PointRows& p, const Eigen::VectorXd& q, Fn&& fn) const;

  const MultibodySystem* sys_ = nullptr;
  int rows_ = 0;
  std::vector<Group> groups_;
  std::vector<Entry> entries_;
  std::vector<Linear> linear_;
  std::vector<PointRows> points_;
  std::vector<Support> supports_;
};

}  // namespace flexarm
