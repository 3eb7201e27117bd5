// The tangent stiffness and damping of the implicit integrators' iteration matrix
// (dynamics/TangentStiffness.hpp) against difference quotients of the equations of motion, where
// the terms it leaves out (the inertial ones) vanish: at rest without gravity every arm's residual
// depends on q only through its springs, structure and drives; and a link spinning steadily about z
// has no inertial stiffness out of its plane, where the difference quotients must give the
// structural plus the geometric stiffness of the centrifugal tension (dynamic stiffening). The
// geometric stiffness itself against its quadrature over the slope points, for an axial force with
// every term.
#include <gtest/gtest.h>

#include "FlexTestModels.hpp"
#include "dynamics/ForwardDynamics.hpp"
#include "dynamics/GeometricStiffness.hpp"

using namespace flexarm;

namespace {

// d(-force_f)/dq (or /dqd) of the free coordinates by central differences at y.
Eigen::MatrixXd differenceQuotients(ForwardDynamics& fd, double t, std::vector<double> y, bool rates) {
  const int nf = fd.stateSize() / 2;
  Eigen::MatrixXd D(nf, nf);
  for (int k = 0; k < nf; ++k) {
    double& x = y[static_cast<std::size_t>(rates ? nf + k : k)];
    const double x0 = x, h = 1e-6 * (1.0 + std::abs(x0));
    x = x0 + h;
    fd.evaluate(ForwardDynamics::Request::terms(t, y.data()));
    const Eigen::VectorXd fp = fd.residualForce();
    x = x0 - h;
    fd.evaluate(ForwardDynamics::Request::terms(t, y.data()));
    D.col(k) = -(fp - fd.residualForce()) / (2.0 * h);
    x = x0;
  }
  return D;
}

struct Tangent {
  Eigen::MatrixXd K, C;
};
Tangent analytic(ForwardDynamics& fd, double t, const std::vector<double>& y) {
  fd.evaluate(ForwardDynamics::Request::terms(t, y.data()));
  Tangent out;
  fd.tangent(out.K, out.C);
  return out;
}

}  // namespace

TEST(TangentStiffness, AtRestWithoutGravityEqualsDifferenceQuotients) {
  for (const char* name :
       {"spatial-rrr-flexible-seed004.flexarm.json", "two-link-flexible-arm.flexarm.json", "canadarm2-drop-seed000.flexarm.json",
        "cantilever.flexarm.json", "spin-up-beam.flexarm.json", "sliding-beam-fast-push.flexarm.json"}) {
    Project p = test::loadShipped(name);
    p.model.gravity.setZero();
    for (Joint& j : p.model.joints)  // at rest: a prescribed joint held where it starts
      if (j.drive.kind == JointDrive::Kind::Prescribed) {
        j.drive.law = TimeFunction{};
        j.drive.law.law = TimeFunction::Law::Polynomial;
        j.drive.law.coefficients = {j.q0};
      }
    for (CouplingOrder order : {CouplingOrder::Zero, CouplingOrder::Geometric, CouplingOrder::High}) {
      const MultibodySystem sys = MultibodySystem::fromModel(p.model, order);
      ForwardDynamics fd(sys);
      const int nf = fd.stateSize() / 2;
      std::vector<double> y(static_cast<std::size_t>(2 * nf), 0.0);
      for (int k = 0; k < nf; ++k) {  // a deformed, displaced configuration, at rest
        const int c = fd.freeCoordinates()[static_cast<std::size_t>(k)];
        const double size = sys.coordinates.kinds[static_cast<std::size_t>(c)] == CoordinateKind::Elastic ? 1e-4 : 0.3;
        y[static_cast<std::size_t>(k)] = size * std::sin(1.7 * k + 0.4);
      }
      const Tangent T = analytic(fd, 0.0, y);
      const Eigen::MatrixXd Kd = differenceQuotients(fd, 0.0, y, false);
      const Eigen::MatrixXd Cd = differenceQuotients(fd, 0.0, y, true);
      ASSERT_GT(T.K.cwiseAbs().maxCoeff(), 0.0) << name;
      EXPECT_LE((T.K - Kd).cwiseAbs().maxCoeff(), 1e-6 * T.K.cwiseAbs().maxCoeff()) << name << " " << couplingName(order);
      const double c_scale = std::max(1.0, T.C.cwiseAbs().maxCoeff());
      EXPECT_LE((T.C - Cd).cwiseAbs().maxCoeff(), 1e-6 * c_scale) << name << " " << couplingName(order);
      // Stored sparse (the iteration matrices of fine meshes), the same matrices.
      Eigen::SparseMatrix<double> Ks, Cs;
      fd.evaluate(ForwardDynamics::Request::terms(0.0, y.data()));
      fd.tangent(Ks, Cs);
      EXPECT_LE((Eigen::MatrixXd(Ks) - T.K).cwiseAbs().maxCoeff(), 1e-13 * T.K.cwiseAbs().maxCoeff()) << name;
      EXPECT_LE((Eigen::MatrixXd(Cs) - T.C).cwiseAbs().maxCoeff(), 1e-13 * c_scale) << name;
    }
  }
}

TEST(TangentStiffness, SpinningLinkOutOfPlaneIsStructuralPlusCentrifugalStiffening) {
  const double Omega = 30.0;  // [rad/s], about z; the link lies along x
  Project p = test::cantilever(R"({"section": {"A": 4e-4, "Iy": 2e-8, "Iz": 2e-8, "J": 4e-8},
      "material": {"E": 7e10, "G": 2.6e10, "rho": 2700}, "basis": "fem", "elements": 4, "layout": "spatial"})",
                               2.0);
  TimeFunction spin;
  spin.law = TimeFunction::Law::Polynomial;
  spin.coefficients = {0.0, Omega};
  p.model.joints[0].drive.law = spin;
  for (CouplingOrder order : {CouplingOrder::Zero, CouplingOrder::Geometric, CouplingOrder::High}) {
    const MultibodySystem sys = MultibodySystem::fromModel(p.model, order);
    const Body& beam = sys.bodies[0];
    ForwardDynamics fd(sys);  // the joint is prescribed: the free coordinates are the elastic ones
    ASSERT_EQ(fd.stateSize() / 2, beam.e_count);
    const std::vector<double> y(static_cast<std::size_t>(fd.stateSize()), 0.0);
    const double t = 0.7;
    const Tangent T = analytic(fd, t, y);
    const Eigen::MatrixXd Kd = differenceQuotients(fd, t, y, false);
    // Out of plane: w and w' of every node (spatial node DOFs u, v, w, phi, v', w').
    std::vector<int> out_of_plane;
    for (int k = 0; k < beam.e_count; ++k)
      if (k % 6 == 2 || k % 6 == 5) out_of_plane.push_back(k);
    Eigen::MatrixXd Ka(out_of_plane.size(), out_of_plane.size()), Kn = Ka, Ks = Ka;
    const Eigen::MatrixXd& Kstruct = beam.flexible->K;
    for (std::size_t r = 0; r < out_of_plane.size(); ++r)
      for (std::size_t c = 0; c < out_of_plane.size(); ++c) {
        Ka(r, c) = T.K(out_of_plane[r], out_of_plane[c]);
        Kn(r, c) = Kd(out_of_plane[r], out_of_plane[c]);
        Ks(r, c) = Kstruct(out_of_plane[r], out_of_plane[c]);
      }
    const double scale = Ka.cwiseAbs().maxCoeff();
    EXPECT_LE((Ka - Kn).cwiseAbs().maxCoeff(), 1e-6 * scale) << couplingName(order);
    // The stiffening is there for geometric and high coupling, and only the structure for zero.
    const double stiffening = (Kn - Ks).cwiseAbs().maxCoeff();
    if (order == CouplingOrder::Zero)
      EXPECT_LE(stiffening, 1e-6 * scale);
    else
      EXPECT_GT(stiffening, 1e-2 * Ks.cwiseAbs().maxCoeff()) << couplingName(order) << " " << stiffening;
  }
}

// K_G = sum over the slope points of weight P(x) (v1^T v1 + w1^T w1) (seed 003 eq. 16-18), summed
// point by point on the whole rows, against addGeometricStiffness (the intervals' x-moments of the
// slope sums), for an axial force with a tip tension, an axial acceleration and a spin, on global
// modes and on spatial and planar elements; and the entries form of it for fine meshes.
TEST(TangentStiffness, GeometricStiffnessEqualsItsQuadratureForAnyAxialForce) {
  for (const char* flex :
       {R"({"section": {"preset": "tube", "outer_diameter": 0.05, "inner_diameter": 0.044}, "material": {"preset": "aluminium"},
            "basis": "modes", "modes": {"axial": 3, "bending_y": 3, "bending_z": 3, "torsion": 3}})",
        R"({"section": {"preset": "tube", "outer_diameter": 0.05, "inner_diameter": 0.044}, "material": {"preset": "aluminium"},
            "basis": "fem", "elements": 5, "layout": "spatial"})",
        R"({"section": {"preset": "rectangle", "width": 0.01, "height": 0.02}, "material": {"preset": "steel"},
            "basis": "fem", "elements": 4, "layout": "planar"})"}) {
    const Project p = test::cantilever(flex, 1.7);
    const MultibodySystem sys = MultibodySystem::fromModel(p.model, CouplingOrder::High);
    const FlexibleBody& fb = *sys.bodies[0].flexible;
    AxialForce P;
    P.P_tip = 130.0;
    P.a0x = -4.3;
    P.k2 = 37.0;
    P.rhoA = fb.rhoA;
    P.length = fb.length;
    Eigen::MatrixXd expected = Eigen::MatrixXd::Zero(fb.m, fb.m);
    for (const FlexibleBody::Interval& iv : fb.intervals)
      for (int k = iv.full_begin; k < iv.full_begin + iv.full_count; ++k) {
        const FlexibleBody::SlopePoint& sp = fb.slopes[static_cast<std::size_t>(k)];
        expected.noalias() += sp.weight * P.at(sp.x) * (sp.v1.transpose() * sp.v1 + sp.w1.transpose() * sp.w1);
      }
    ASSERT_GT(expected.cwiseAbs().maxCoeff(), 0.0) << flex;
    Eigen::MatrixXd K = Eigen::MatrixXd::Zero(fb.m, fb.m);
    addGeometricStiffness(fb, P, K);
    EXPECT_LE((K - expected).cwiseAbs().maxCoeff(), 1e-12 * expected.cwiseAbs().maxCoeff()) << flex;
    std::vector<Eigen::Triplet<double>> entries;
    Eigen::MatrixXd window;
    addGeometricStiffness(fb, P, 2, window, entries);
    Eigen::SparseMatrix<double> Ks(fb.m + 2, fb.m + 2);
    Ks.setFromTriplets(entries.begin(), entries.end());
    EXPECT_LE((Eigen::MatrixXd(Ks).bottomRightCorner(fb.m, fb.m) - expected).cwiseAbs().maxCoeff(),
              1e-12 * expected.cwiseAbs().maxCoeff())
        << flex;
  }
}
