#include "dynamics/EquationsOfMotion.hpp"

#include "dynamics/DeformedLink.hpp"
#include "dynamics/FrameMotion.hpp"
#include "dynamics/GeometricStiffness.hpp"
#include "dynamics/LinkInertia.hpp"

namespace flexarm {
namespace {

// M := 0 where the last evaluation wrote it (all of it when that is not known).
void clearMassMatrix(DynamicsData& d) {
  if (!d.M_regions_valid) {
    d.M.setZero();
  } else {
    for (const MatrixRegion& r : d.M_regions) {
      if (!r.pattern) {
        d.M.block(r.row, r.col, r.rows, r.cols).setZero();
        continue;
      }
      for (int c = 0; c < r.pattern->outerSize(); ++c)
        for (Eigen::SparseMatrix<double>::InnerIterator it(*r.pattern, c); it; ++it)
          d.M(r.row + static_cast<int>(it.row()), r.col + c) = 0.0;
    }
  }
  d.M_regions.clear();
  d.M_regions_valid = true;
}

// This evaluation writes M in the block (row, col, rows, cols). The same corner written again (by
// several mass elements) is noted once, as the largest block.
void noteMassBlock(DynamicsData& d, int row, int col, int rows, int cols) {
  for (MatrixRegion& r : d.M_regions) {
    if (r.pattern || r.row != row || r.col != col) continue;
    r.rows = std::max(r.rows, rows);
    r.cols = std::max(r.cols, cols);
    return;
  }
  d.M_regions.push_back({row, col, rows, cols, nullptr});
}

// M += Jb^T A Jb on the columns of Jb that can be non-zero, IJ <- A Jb there: each entry one product of
// two six-vectors, the upper triangle mirrored (Spatial.hpp: general products of six rows spend most of
// their time packing).
void addBodyMass(const Matrix6d& A, const Eigen::MatrixXd& J, ColumnSet cols, Eigen::MatrixXd& IJ, Eigen::MatrixXd& M) {
  using Col = Eigen::Map<const Vector6d>;
  transformColumns(A, J, cols, IJ);
  for (int kj = 0; kj < cols.count; ++kj) {
    const int j = cols.index[kj];
    const Col ij(IJ.col(j).data());
    double* Mj = M.col(j).data();
    for (int ki = 0; ki < kj; ++ki) {
      const int i = cols.index[ki];
      const double s = Col(J.col(i).data()).dot(ij);
      Mj[i] += s;
      M(j, i) += s;
    }
    Mj[j] += Col(J.col(j).data()).dot(ij);
  }
}

// addBodyMass, and the coupling blocks M(c, e:e+m) += Jb^T B, M(e:e+m, c) += B^T Jb for the columns c
// of the set, each entry computed once for both; Bt = B^T (m x 6, DynamicsData::station_coupling).
void addCompositeMass(const Matrix6d& A, const Eigen::MatrixXd& J, const Eigen::MatrixXd& Bt, ColumnSet cols, int e, int m,
                      Eigen::MatrixXd& IJ, Eigen::MatrixXd& M) {
  using Col = Eigen::Map<const Vector6d>;
  addBodyMass(A, J, cols, IJ, M);
  for (int j = 0; j < m; ++j) {
    const Vector6d bj = Bt.row(j).transpose();
    double* Mj = M.col(e + j).data();
    for (int k = 0; k < cols.count; ++k) {
      const int i = cols.index[k];
      const double s = Col(J.col(i).data()).dot(bj);
      Mj[i] += s;
      M(e + j, i) += s;
    }
  }
}

// What an evaluation computes. The frames (poses, velocities, accelerations) and the kinetic energy always; with `forces` the
// generalized forces (data.tau), the Jacobians and the bodies' d'Alembert forces, and with `with_M` also M. Without forces: a
// kinematics pass.
struct Pass {
  bool with_M;
  bool forces;
  bool split = false;  // the foreshortening in columns of its own: M~_xx in the pattern's region only
};

// One mass element: inertia I at a frame with velocity v, acceleration a (body coordinates),
// Jacobian J (zero from column p on), world pose X_world. Its block of M by addBodyMass, and with Js
// (a pass that splits the foreshortening) its part of the split mass matrix.
// Without forces (a kinematics pass) its energies only.
// `cols`: where J can be non-zero (below p, or fewer in a split pass).
void addMassElement(DynamicsData& d, const Pass& pass, ColumnSet cols, int p, const Matrix6d& I, const Vector6d& v,
                    const Vector6d& a, const Eigen::MatrixXd& J, const Eigen::MatrixXd* Js, const Eigen::Isometry3d& X_world,
                    Eigen::Vector3d& force_world) {
  const Vector6d Iv = I * v;
  d.kinetic += 0.5 * v.dot(Iv);
  if (!pass.forces) return;
  const Vector6d f = I * a + crossForce(v, Iv);
  addProjectedForce(J, cols, f, d.tau);
  if (pass.with_M) {
    addBodyMass(I, J, cols, d.IJ, d.M);
    if (!pass.split) noteMassBlock(d, 0, 0, p, p);
    if (Js) d.foreshortening.addMassElement(I, J, cols, *Js, f);
  }
  force_world += X_world.linear() * f.tail<3>();
}

Matrix6d advance(const Eigen::Isometry3d& X_rel, const Vector6d& vrel, const Vector6d& crel, int p, Vector6d& v, Vector6d& a,
                 const Eigen::MatrixXd& J_in, Eigen::MatrixXd& J_out) {
  const Matrix6d X = advanceMotion(X_rel, vrel, crel, v, a);
  J_out.leftCols(p).noalias() = X * J_in.leftCols(p);
  return X;
}

// After a pass that split the foreshortening: every Jacobian it computed whole again, and the bias folded.
void joinForeshortening(const MultibodySystem& sys, DynamicsData& d) {
  const ForeshorteningColumns& fc = d.foreshortening;
  fc.foldBias(d.tau);
  for (std::size_t i = 0; i < sys.bodies.size(); ++i) {
    BodyFrames& fr = d.frames[i];
    fc.joinJacobian(fr.J_body, fr.Js_body);
    if (fr.distal_split) fc.joinJacobian(fr.J_distal, fr.Js_distal);
    for (std::size_t k = 0; k < fr.J_section.size(); ++k) fc.joinJacobian(fr.J_section[k], fr.Js_section[k]);
  }
}

void evaluateEquations(const MultibodySystem& sys, DynamicsData& d, const Eigen::VectorXd& q, const Eigen::VectorXd& qd,
                       const Eigen::VectorXd& qdd_known, Pass pass) {
  const bool with_M = pass.with_M, forces = pass.forces;
  d.tau.setZero();
  if (with_M) clearMassMatrix(d);
  d.kinetic = 0.0;
  d.composite_frames = true;
  const bool high = sys.coupling == CouplingOrder::High;
  ForeshorteningColumns& fc = d.foreshortening;
  // The foreshortening in columns of its own (ForeshorteningColumns.hpp): the split mass matrix, written
  // in its pattern only.
  const bool split = with_M && forces && high && fc.split && fc.count() > 0;
  pass.split = split;
  if (split) {
    fc.clear();
    d.M_regions.push_back({0, 0, sys.nq, sys.nq, &fc.mass_pattern});
  }
  // Where the Jacobians can be non-zero: below a coordinate, or (split) the columns of ForeshorteningColumns.
  auto columns = [&](const std::vector<std::vector<int>>& split_columns, std::size_t body, int p) {
    return split ? ForeshorteningColumns::columnSet(split_columns[body]) : sys.jacobianColumns(p);
  };
  const int n = static_cast<int>(sys.bodies.size());
  for (int i = 0; i < n; ++i) {
    const Body& b = sys.bodies[i];
    BodyFrames& fr = d.frames[i];
    const int p = b.end_index;
    fr.force_world.setZero();
    fr.force_distal_world.setZero();

    // ---- joint: from the parent's distal frame (or the world) to this body frame. The parent comes
    // before the body (a chain's previous link, a tree's branching link), its coordinates before the
    // body's: the parent's Jacobian is zero from its end_index on, and the body's columns between
    // there and its own end (a sibling branch's, and its own) start at zero.
    Vector6d v = Vector6d::Zero(), a = Vector6d::Zero();
    Eigen::Isometry3d X_world_parent = Eigen::Isometry3d::Identity();
    int p_parent = 0;
    const BodyFrames* parent = b.parent >= 0 ? &d.frames[static_cast<std::size_t>(b.parent)] : nullptr;
    if (parent) {
      v = parent->v_distal;
      a = parent->a_distal;
      X_world_parent = parent->X_world_distal;
      p_parent = sys.bodies[static_cast<std::size_t>(b.parent)].end_index;
    }
    const Eigen::Isometry3d X_rel = b.placement * MultibodySystem::jointMotion(b.joint_type, b.axis, q(b.q_index));
    const Vector6d vJ = b.S * qd(b.q_index);
    const Matrix6d X_joint = advanceMotion(X_rel, vJ, b.S * qdd_known(b.q_index), v, a);
    if (forces && split) {  // zero off the few columns the split pass writes
      fr.J_body.setZero();
      if (parent)
        transformColumns(X_joint, parent->J_distal, ForeshorteningColumns::columnSet(fc.distal_columns[b.parent]), fr.J_body);
      fr.J_body.col(b.q_index) += b.S;
    } else if (forces) {
      if (parent) transformColumns(X_joint, parent->J_distal, sys.jacobianColumns(p_parent), fr.J_body);
      fr.J_body.middleCols(p_parent, p - p_parent).setZero();
      fr.J_body.col(b.q_index) += b.S;
    }
    if (split) {
      if (parent)
        fr.Js_body.noalias() = X_joint * parent->Js_distal;
      else
        fr.Js_body.setZero();
    }
    fr.v_body = v;
    fr.a_body = a;
    fr.X_world_body = X_world_parent * X_rel;

    // ---- rigid inertia carried by the body frame
    // J_body is zero on the body's own elastic coordinates (from e_index on).
    const std::size_t bi = static_cast<std::size_t>(i);
    if (b.mass > 0.0)
      addMassElement(d, pass, columns(fc.body_columns, bi, b.e_index), b.e_index, b.inertia, v, a, fr.J_body,
                     split ? &fr.Js_body : nullptr, fr.X_world_body, fr.force_world);
    if (b.motor_index >= 0) {
      d.tau(b.motor_index) += b.joint_flex.rotor_inertia * qdd_known(b.motor_index);
      d.kinetic += 0.5 * b.joint_flex.rotor_inertia * qd(b.motor_index) * qd(b.motor_index);
      if (with_M) {
        d.M(b.motor_index, b.motor_index) += b.joint_flex.rotor_inertia;
        if (!split) noteMassBlock(d, b.motor_index, b.motor_index, 1, 1);
      }
    }

    // The last body's distal Jacobian only for a payload on it (or when asked): nothing else reads it.
    const bool distal_jacobian = forces && (i + 1 < n || b.distal_mass > 0.0 || d.every_distal_jacobian);
    fr.distal_split = split && distal_jacobian;
    if (!b.isFlexible()) {
      fr.v_distal = v;
      fr.a_distal = a;
      if (distal_jacobian) {
        const Matrix6d X =
            advance(b.X_body_distal, Vector6d::Zero(), Vector6d::Zero(), p, fr.v_distal, fr.a_distal, fr.J_body, fr.J_distal);
        if (split) fr.Js_distal.noalias() = X * fr.Js_body;
      } else {
        advanceMotion(b.X_body_distal, Vector6d::Zero(), Vector6d::Zero(), fr.v_distal, fr.a_distal);
      }
      fr.X_world_distal = fr.X_world_body * b.X_body_distal;
      fr.tip_deformation.setZero();
      fr.tip_twist = 0.0;
      continue;
    }

    // ---- flexible link: Gauss stations, then the deformed distal frame
    const FlexibleBody& fb = *b.flexible;
    const int m = fb.m;
    auto e = d.e.head(m);
    auto ed = d.ed.head(m);
    auto edd = d.edd.head(m);
    e = q.segment(b.e_index, m);
    ed = qd.segment(b.e_index, m);
    edd = qdd_known.segment(b.e_index, m);
    auto g_start = d.g_start.head(m);
    auto g = d.g_point.head(m);
    auto dr_de = d.dr_de.leftCols(m);

    // The deformed link's sections as frames (DeformedLink.hpp), from the body frame's motion.
    DeformedLink link{sys, b, fr, high, e, ed, edd, g, dr_de, split ? &fc.body_columns[bi] : nullptr};

    // The stations (LinkInertia.hpp); g_start is then the foreshortening's gradient at the tip, g(L).
    const TipForeshortening tip = gatherLinkStations(b, high, with_M, forces, fr, d);
    if (split && d.mass_without_running_terms)
      fc.addRunningTerms(i, fb, b.e_index, d.interval_slope, d.interval_lever, d.interval_mass, sys.nq);
    // The stations through the body Jacobian, whose non-zero columns end before this link's elastic ones.
    const int p0 = b.e_index;
    const ColumnSet cols = columns(fc.body_columns, bi, p0);
    if (forces && high && !sys.gravity.isZero(0.0)) {  // the first moment's foreshortening, for the gravity term: D e
      fr.foreshortening_moment.setZero();
      for (int c = 0; c < fb.mass_slopes.outerSize(); ++c)
        for (Eigen::SparseMatrix<double>::InnerIterator it(fb.mass_slopes, c); it; ++it)
          fr.foreshortening_moment(it.row()) += it.value() * e(c);
    }
    if (forces) {
      addProjectedForce(fr.J_body, cols, d.station_wrench, d.tau);
      d.tau.segment(b.e_index, m) += d.station_force_e.head(m);
    }
    if (with_M) {
      addCompositeMass(d.station_inertia, fr.J_body, d.station_coupling, cols, b.e_index, m, d.IJ, d.M);
      if (split) {
        fc.addMassElement(d.station_inertia, fr.J_body, cols, fr.Js_body, d.station_wrench);
        fc.addCoupling(d.station_coupling, b.e_index, m, fr.Js_body);
      } else {
        noteMassBlock(d, 0, 0, p0, p0);
        noteMassBlock(d, 0, b.e_index, p0, m);
        noteMassBlock(d, b.e_index, 0, m, p0);
      }
      if (split && d.mass_without_running_terms) {  // banded: on the intervals' windows (the pattern's)
        const auto C = d.station_mass.topLeftCorner(m, m);
        const Eigen::SparseMatrix<double>& windows = fc.station_patterns[bi];
        for (int c = 0; c < windows.outerSize(); ++c)
          for (Eigen::SparseMatrix<double>::InnerIterator it(windows, c); it; ++it)
            d.M(b.e_index + static_cast<int>(it.row()), b.e_index + c) += C(it.row(), c);
      } else if (high) {
        d.M.block(b.e_index, b.e_index, m, m) += d.station_mass.topLeftCorner(m, m);
        noteMassBlock(d, b.e_index, b.e_index, m, m);
      } else {  // the structural mass: its non-zeros only (banded for elements)
        for (int c = 0; c < fb.M_sparse.outerSize(); ++c)
          for (Eigen::SparseMatrix<double>::InnerIterator it(fb.M_sparse, c); it; ++it)
            d.M(b.e_index + static_cast<int>(it.row()), b.e_index + c) += it.value();
        d.M_regions.push_back({b.e_index, b.e_index, m, m, &fb.M_sparse});
      }
    }

    // Distal frame: translation to r(L), then Rz(v'(L)) Ry(-w'(L)) Rx(phi(L)).
    g = g_start;
    const int distal_column = fc.distal_column[static_cast<std::size_t>(i)];
    if (fr.distal_split && distal_column >= 0) fc.gradients.col(distal_column).head(m) = g;
    const SectionRows distal{fb.tip.u, fb.tip.v, fb.tip.w, fb.length, fb.distal_rotation, fb.distal_first, fb.distal_count, tip};
    fr.tip_deformation = link.sectionFrame(distal, distal_jacobian, fr.X_world_distal, fr.v_distal, fr.a_distal, fr.J_distal,
                                           fr.distal_split ? &fr.Js_distal : nullptr, distal_column) -
                         Eigen::Vector3d(fb.length, 0.0, 0.0);
    fr.tip_twist =
        fb.distal_rotation.row(0).segment(fb.distal_first, fb.distal_count).dot(e.segment(fb.distal_first, fb.distal_count));
    if (b.distal_mass > 0.0) {
      addMassElement(d, pass, columns(fc.distal_columns, bi, p), p, b.distal_inertia, fr.v_distal, fr.a_distal, fr.J_distal,
                     split ? &fr.Js_distal : nullptr, fr.X_world_distal, fr.force_distal_world);
      fr.force_world += fr.force_distal_world;
    }
    // Payloads riding on sections of the link.
    for (std::size_t k = 0; k < b.section_masses.size(); ++k) {
      const Body::SectionMass& sm = b.section_masses[k];
      const SectionPoint& sp = sm.section;
      TipForeshortening fs;
      sp.foreshortening(e, ed, fs.s, fs.sdd, g);
      const SectionRows rows{sp.rows.u, sp.rows.v, sp.rows.w, sp.x, sp.rotation, sp.rotation_first, sp.rotation_count, fs};
      Vector6d vs, as;
      const int column = split ? fc.payload_column[static_cast<std::size_t>(i)][k] : -1;
      if (split) fc.gradients.col(column).head(m) = g;
      link.sectionFrame(rows, forces, fr.X_world_section[k], vs, as, fr.J_section[k], split ? &fr.Js_section[k] : nullptr,
                        column);
      Eigen::Vector3d& force = fr.force_section_world[k];
      force.setZero();
      addMassElement(d, pass, split ? ForeshorteningColumns::columnSet(fc.section_columns[bi][k]) : sys.jacobianColumns(p), p,
                     sm.inertia, vs, as, fr.J_section[k], split ? &fr.Js_section[k] : nullptr, fr.X_world_section[k], force);
      fr.force_world += force;
    }
  }
  if (split) joinForeshortening(sys, d);
}

}  // namespace

void compositeEquations(const MultibodySystem& sys, DynamicsData& d, const Eigen::VectorXd& q, const Eigen::VectorXd& qd,
                        const Eigen::VectorXd& qdd_known, bool with_M) {
  evaluateEquations(sys, d, q, qd, qdd_known, {with_M, true});
}

void compositeKinematics(const MultibodySystem& sys, DynamicsData& d, const Eigen::VectorXd& q, const Eigen::VectorXd& qd,
                         const Eigen::VectorXd& qdd) {
  evaluateEquations(sys, d, q, qd, qdd, {false, false});
}

}  // namespace flexarm
