#include "dynamics/EquationsOfMotion.hpp"

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

// What an evaluation computes. The frames (poses, velocities, accelerations), the gravity potential and
// the kinetic energy always; with `forces` the generalized forces (data.tau), the Jacobians and the
// bodies' d'Alembert forces, and with `with_M` also M. Without forces: a kinematics pass.
struct Pass {
  bool with_M;
  bool forces;
};

// One mass element: inertia I at a frame with velocity v, acceleration a (body coordinates),
// Jacobian J (zero from column p on), world pose X_world. Its block of M by addBodyMass.
// Without forces (a kinematics pass) its energies only.
void addMassElement(const MultibodySystem& sys, DynamicsData& d, const Pass& pass, int p, const Matrix6d& I, const Vector6d& v,
                    const Vector6d& a, const Eigen::MatrixXd& J, const Eigen::Isometry3d& X_world, double mass,
                    const Eigen::Vector3d& com, Eigen::Vector3d& force_world) {
  const Vector6d Iv = I * v;
  d.kinetic += 0.5 * v.dot(Iv);
  d.gravity_potential -= mass * sys.gravity.dot(X_world * com);
  if (!pass.forces) return;
  const Vector6d f = I * a + crossForce(v, Iv);
  const ColumnSet cols = sys.jacobianColumns(p);
  addProjectedForce(J, cols, f, d.tau);
  if (pass.with_M) {
    addBodyMass(I, J, cols, d.IJ, d.M);
    noteMassBlock(d, 0, 0, p, p);
  }
  force_world += X_world.linear() * f.tail<3>();
}

void advance(const Eigen::Isometry3d& X_rel, const Vector6d& vrel, const Vector6d& crel, int p, Vector6d& v, Vector6d& a,
             const Eigen::MatrixXd& J_in, Eigen::MatrixXd& J_out) {
  const Matrix6d X = advanceMotion(X_rel, vrel, crel, v, a);
  J_out.leftCols(p).noalias() = X * J_in.leftCols(p);
}

// A section of a flexible link as a frame: its shape rows u, v, w at x, the rows of its rotation
// [phi; -w'; v'] (non-zero on the columns [first, first + count)), and its foreshortening s, sdd (the
// gradient g = ds/de is in DynamicsData::g_point): the distal frame (x = L) or a payload's section.
struct SectionRows {
  const Eigen::RowVectorXd &u, &v, &w;
  double x;
  const Eigen::Matrix<double, 3, Eigen::Dynamic>& rotation;
  int first, count;
  TipForeshortening fs;
};

// The section's rotation about `axis` by its row of the rotation rows: relative velocity and
// acceleration (vrel, crel) and the pose.
Eigen::Isometry3d sectionStep(const SectionRows& sr, int axis, const Eigen::Ref<const Eigen::VectorXd>& e,
                              const Eigen::Ref<const Eigen::VectorXd>& ed, const Eigen::Ref<const Eigen::VectorXd>& edd,
                              Vector6d& vrel, Vector6d& crel) {
  const int c0 = sr.first, nc = sr.count;  // the row's non-zeros lie there
  const auto row = sr.rotation.row(axis).segment(c0, nc);
  vrel.setZero();
  vrel(axis) = row.dot(ed.segment(c0, nc));
  crel.setZero();
  crel(axis) = row.dot(edd.segment(c0, nc));
  return rotation(axis, row.dot(e.segment(c0, nc)));
}

void evaluateEquations(const MultibodySystem& sys, DynamicsData& d, const Eigen::VectorXd& q, const Eigen::VectorXd& qd,
                       const Eigen::VectorXd& qdd_known, const Pass& pass) {
  const bool with_M = pass.with_M, forces = pass.forces;
  d.tau.setZero();
  if (with_M) clearMassMatrix(d);
  d.gravity_potential = 0.0;
  d.kinetic = 0.0;
  const bool high = sys.coupling == CouplingOrder::High;
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
    if (!parent) {
      a.tail<3>() = -sys.gravity;  // gravity as an upward acceleration of the base
    } else {
      v = parent->v_distal;
      a = parent->a_distal;
      X_world_parent = parent->X_world_distal;
      p_parent = sys.bodies[static_cast<std::size_t>(b.parent)].end_index;
    }
    const Eigen::Isometry3d X_rel = b.placement * MultibodySystem::jointMotion(b.joint_type, b.axis, q(b.q_index));
    const Vector6d vJ = b.S * qd(b.q_index);
    const Matrix6d X_joint = advanceMotion(X_rel, vJ, b.S * qdd_known(b.q_index), v, a);
    if (forces) {
      if (parent) transformColumns(X_joint, parent->J_distal, sys.jacobianColumns(p_parent), fr.J_body);
      fr.J_body.middleCols(p_parent, p - p_parent).setZero();
      fr.J_body.col(b.q_index) += b.S;
    }
    fr.v_body = v;
    fr.a_body = a;
    fr.X_world_body = X_world_parent * X_rel;

    // ---- rigid inertia carried by the body frame
    // J_body is zero on the body's own elastic coordinates (from e_index on).
    if (b.mass > 0.0)
      addMassElement(sys, d, pass, b.e_index, b.inertia, v, a, fr.J_body, fr.X_world_body, b.mass, b.com, fr.force_world);
    if (b.motor_index >= 0) {
      d.tau(b.motor_index) += b.joint_flex.rotor_inertia * qdd_known(b.motor_index);
      d.kinetic += 0.5 * b.joint_flex.rotor_inertia * qd(b.motor_index) * qd(b.motor_index);
      if (with_M) {
        d.M(b.motor_index, b.motor_index) += b.joint_flex.rotor_inertia;
        noteMassBlock(d, b.motor_index, b.motor_index, 1, 1);
      }
    }

    // The last body's distal Jacobian only for a payload on it (or when asked): nothing else reads it.
    const bool distal_jacobian = forces && (i + 1 < n || b.distal_mass > 0.0 || d.every_distal_jacobian);
    if (!b.isFlexible()) {
      fr.v_distal = v;
      fr.a_distal = a;
      if (distal_jacobian)
        advance(b.X_body_distal, Vector6d::Zero(), Vector6d::Zero(), p, fr.v_distal, fr.a_distal, fr.J_body, fr.J_distal);
      else
        advanceMotion(b.X_body_distal, Vector6d::Zero(), Vector6d::Zero(), fr.v_distal, fr.a_distal);
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

    // The frame of section sr (its gradient g = ds/de in d.g_point): pose, motion and, with `jacobian`,
    // its Jacobian J = X_all J_body + X_rot [0; dr_de] + c R_s, with X_rot the three rotations'
    // transform, X_all = X_rot X_translation, c.col(k) the unit vector e_k carried through the rotations
    // after the k-th, dr_de = [u - c g^T; v; w] and R_s the rotation rows. Returns r(x) in the body frame.
    auto sectionFrame = [&](const SectionRows& sr, bool jacobian, Eigen::Isometry3d& X_world, Vector6d& vs, Vector6d& as,
                            Eigen::MatrixXd& J) {
      dr_de.row(0) = sr.u;
      if (high) dr_de.row(0) -= g.transpose();
      dr_de.row(1) = sr.v;
      dr_de.row(2) = sr.w;
      const Eigen::Vector3d r(sr.x + sr.u.dot(e) - (high ? sr.fs.s : 0.0), sr.v.dot(e), sr.w.dot(e));
      Vector6d vrel = Vector6d::Zero(), crel = Vector6d::Zero();
      vrel.tail<3>().noalias() = dr_de * ed;
      crel.tail<3>() = Eigen::Vector3d(high ? -sr.fs.sdd : 0.0, 0.0, 0.0);
      crel.tail<3>().noalias() += dr_de * edd;  // the known elastic accelerations
      vs = fr.v_body;
      as = fr.a_body;
      X_world = fr.X_world_body * translation(r);
      Matrix6d X_all = advanceMotion(translation(r), vrel, crel, vs, as);
      Matrix6d X_rot = Matrix6d::Identity();
      Eigen::Matrix<double, 6, 3> c = Eigen::Matrix<double, 6, 3>::Zero();
      for (int axis : {2, 1, 0}) {
        const Eigen::Isometry3d R = sectionStep(sr, axis, e, ed, edd, vrel, crel);
        const Matrix6d X_step = advanceMotion(R, vrel, crel, vs, as);
        if (jacobian) {
          X_all = X_step * X_all;
          X_rot = X_step * X_rot;
          c = X_step * c;
          c(axis, axis) += 1.0;
        }
        X_world = X_world * R;
      }
      if (jacobian) {
        // J_body is zero on this link's elastic columns (from e_index on).
        transformColumns(X_all, fr.J_body, sys.jacobianColumns(b.e_index), J);
        auto J_elastic = J.middleCols(b.e_index, m);
        J_elastic.noalias() = X_rot.rightCols<3>() * dr_de;
        J_elastic.middleCols(sr.first, sr.count).noalias() += c * sr.rotation.middleCols(sr.first, sr.count);
      }
      return r;
    };

    // The stations (LinkInertia.hpp); g_start is then the foreshortening's gradient at the tip, g(L).
    const TipForeshortening tip = gatherLinkStations(b, high, with_M, forces, sys.gravity, fr, d);
    // The stations through the body Jacobian, whose non-zero columns end before this link's elastic ones.
    const int p0 = b.e_index;
    const ColumnSet cols = sys.jacobianColumns(p0);
    if (forces) {
      addProjectedForce(fr.J_body, cols, d.station_wrench, d.tau);
      d.tau.segment(b.e_index, m) += d.station_force_e.head(m);
    }
    if (with_M) {
      addCompositeMass(d.station_inertia, fr.J_body, d.station_coupling, cols, b.e_index, m, d.IJ, d.M);
      noteMassBlock(d, 0, 0, p0, p0);
      noteMassBlock(d, 0, b.e_index, p0, m);
      noteMassBlock(d, b.e_index, 0, m, p0);
      if (high) {
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
    const SectionRows distal{fb.tip.u, fb.tip.v, fb.tip.w, fb.length, fb.distal_rotation, fb.distal_first, fb.distal_count, tip};
    fr.tip_deformation = sectionFrame(distal, distal_jacobian, fr.X_world_distal, fr.v_distal, fr.a_distal, fr.J_distal) -
                         Eigen::Vector3d(fb.length, 0.0, 0.0);
    fr.tip_twist =
        fb.distal_rotation.row(0).segment(fb.distal_first, fb.distal_count).dot(e.segment(fb.distal_first, fb.distal_count));
    if (b.distal_mass > 0.0) {
      addMassElement(sys, d, pass, p, b.distal_inertia, fr.v_distal, fr.a_distal, fr.J_distal, fr.X_world_distal, b.distal_mass,
                     b.distal_com, fr.force_distal_world);
      fr.force_world += fr.force_distal_world;
    }
    // Payloads riding on sections of the link.
    for (std::size_t k = 0; k < b.section_masses.size(); ++k) {
      const Body::SectionMass& sm = b.section_masses[k];
      const SectionPoint& sp = sm.section;
      TipForeshortening fs;
      sp.foreshortening(e, ed, fs.s, fs.sdd, g);
      const SectionRows rows{sp.rows.u, sp.rows.v, sp.rows.w, sp.x, sp.rotation, sp.rotation_first, sp.rotation_count, fs};
      Eigen::Isometry3d X_world;
      Vector6d vs, as;
      sectionFrame(rows, forces, X_world, vs, as, d.J_section);
      Eigen::Vector3d& force = fr.force_section_world[k];
      force.setZero();
      addMassElement(sys, d, pass, p, sm.inertia, vs, as, d.J_section, X_world, sm.mass, sm.com, force);
      fr.force_world += force;
    }
  }
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
