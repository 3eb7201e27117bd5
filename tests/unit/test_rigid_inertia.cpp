// Shape presets against textbook inertia formulas and the admissibility check.
#include <gtest/gtest.h>

#include "model/RigidInertia.hpp"

using namespace flexarm;

TEST(RigidInertia, ShapePresetsMatchTextbookFormulas) {
  const double m = 2.0, L = 1.5;
  ShapePreset rod;
  const RigidInertia r = inertiaFromShape(rod, m, L);
  EXPECT_DOUBLE_EQ(r.com.x(), 0.75);
  EXPECT_DOUBLE_EQ(r.inertia_com(1, 1), m * L * L / 12);
  EXPECT_DOUBLE_EQ(r.inertia_com(0, 0), 0.0);

  ShapePreset box{ShapePreset::Kind::Box, 0.2, 0.1, 0.0, 0.0};
  const RigidInertia b = inertiaFromShape(box, m, L);
  EXPECT_DOUBLE_EQ(b.inertia_com(0, 0), m * (0.04 + 0.01) / 12);
  EXPECT_DOUBLE_EQ(b.inertia_com(1, 1), m * (L * L + 0.01) / 12);
  EXPECT_DOUBLE_EQ(b.inertia_com(2, 2), m * (L * L + 0.04) / 12);

  ShapePreset cyl{ShapePreset::Kind::Cylinder, 0, 0, 0.1, 0};
  EXPECT_DOUBLE_EQ(inertiaFromShape(cyl, m, L).inertia_com(0, 0), 0.5 * m * 0.01);
  // Thick-walled tube: m (R^2 + r^2) / 2 about its axis, m (3 (R^2 + r^2) + L^2) / 12 across.
  ShapePreset tube{ShapePreset::Kind::Tube, 0, 0, 0.1, 0.06};
  EXPECT_DOUBLE_EQ(inertiaFromShape(tube, m, L).inertia_com(0, 0), 0.5 * m * (0.01 + 0.0036));
  EXPECT_DOUBLE_EQ(inertiaFromShape(tube, m, L).inertia_com(2, 2), m * (3 * (0.01 + 0.0036) + L * L) / 12);
  // A thin tube tends to m R^2 about its axis.
  ShapePreset thin{ShapePreset::Kind::Tube, 0, 0, 0.1, 0.1 * (1 - 1e-9)};
  EXPECT_NEAR(inertiaFromShape(thin, m, L).inertia_com(0, 0), m * 0.01, 1e-10);
}

TEST(RigidInertia, AdmissibilityCheck) {
  EXPECT_TRUE(checkInertia(inertiaFromComponents(1, 1, 1, 0, 0, 0)));
  EXPECT_TRUE(checkInertia(inertiaFromComponents(0, 1, 1, 0, 0, 0)));   // slender rod
  EXPECT_FALSE(checkInertia(inertiaFromComponents(1, 1, 3, 0, 0, 0)));  // triangle inequality
  EXPECT_FALSE(checkInertia(inertiaFromComponents(1, 1, 1, 2, 0, 0)));  // indefinite
}

TEST(RigidInertia, CombinedBodiesFollowTheParallelAxisTheorem) {
  // Two halves of a rod are the rod: m L^2/12 about the middle, from two m/2 rods of L/2 at L/4, 3L/4.
  const double m = 3.0, L = 2.0;
  const RigidInertia half = inertiaFromShape(ShapePreset{}, m / 2, L / 2);
  RigidInertia second = half;
  second.com.x() += L / 2;
  const RigidInertia rod = combineInertias({half, second});
  EXPECT_DOUBLE_EQ(rod.mass, m);
  EXPECT_DOUBLE_EQ(rod.com.x(), L / 2);
  EXPECT_NEAR(rod.inertia_com(1, 1), m * L * L / 12, 1e-15);
  EXPECT_NEAR(rod.inertia_com(0, 0), 0.0, 1e-15);
  // A box turned by 90 deg about z swaps its x and y moments; its centre moves with the frame.
  const RigidInertia box = inertiaFromShape(ShapePreset{ShapePreset::Kind::Box, 0.2, 0.1, 0.0, 0.0}, m, L);
  Eigen::Isometry3d X = Eigen::Isometry3d::Identity();
  X.linear() = Eigen::AngleAxisd(M_PI / 2, Eigen::Vector3d::UnitZ()).toRotationMatrix();
  X.translation() = Eigen::Vector3d(0.0, 0.0, 0.5);
  const RigidInertia turned = transformInertia(X, box);
  EXPECT_NEAR(turned.inertia_com(0, 0), box.inertia_com(1, 1), 1e-15);
  EXPECT_NEAR(turned.inertia_com(1, 1), box.inertia_com(0, 0), 1e-15);
  EXPECT_NEAR((turned.com - Eigen::Vector3d(0.0, L / 2, 0.5)).norm(), 0.0, 1e-15);
  // A single body comes back exactly.
  const RigidInertia same = combineInertias({box});
  EXPECT_EQ(same.com, box.com);
  EXPECT_EQ(same.inertia_com, box.inertia_com);
}
