// The one-line spec of a link made flexible at URDF import (--flexible LINK=SPEC), and the
// placement of a transform (the URDF origins composed through fixed joints) read back as rpy.
#include <gtest/gtest.h>

#include <random>

#include "io/FlexibleLinkSpec.hpp"
#include "model/Model.hpp"

using namespace flexarm;

TEST(FlexibleLinkSpec, ShortFormGivesTheProjectsFlexObject) {
  const Result<FlexibleLinkSpec> s =
      parseFlexibleLinkSpec("forearm=length=0.7,section=tube:0.08:0.072,material=aluminium,basis=modes:0:2:2:1,rayleigh=0:1e-3");
  ASSERT_TRUE(s) << s.error().text();
  EXPECT_EQ(s->link, "forearm");
  EXPECT_EQ(*s->length, 0.7);
  EXPECT_EQ(s->flex["section"], Json({{"preset", "tube"}, {"outer_diameter", 0.08}, {"inner_diameter", 0.072}}));
  EXPECT_EQ(s->flex["material"], Json({{"preset", "aluminium"}}));
  EXPECT_EQ(s->flex["basis"], "modes");
  EXPECT_EQ(s->flex["modes"]["torsion"], 1);
  EXPECT_EQ(s->flex["rayleigh"][1], 1e-3);

  const Result<FlexibleLinkSpec> e =
      parseFlexibleLinkSpec("arm=section=1e-4:2e-9:3e-9:4e-9,material=70e9:26e9:2700,basis=fem:6:planar");
  ASSERT_TRUE(e) << e.error().text();
  EXPECT_FALSE(e->length);
  EXPECT_EQ(e->flex["section"]["Iz"], 3e-9);
  EXPECT_EQ(e->flex["material"]["rho"], 2700.0);
  EXPECT_EQ(e->flex["elements"], 6);
  EXPECT_EQ(e->flex["layout"], "planar");
  const Result<FlexibleLinkSpec> d = parseFlexibleLinkSpec("arm=section=rectangle:0.05:0.01,material=steel");
  ASSERT_TRUE(d);
  EXPECT_EQ(d->flex["modes"]["bending_y"], 2);  // the default basis

  const Result<FlexibleLinkSpec> j =
      parseFlexibleLinkSpec(R"(arm={"length": 0.5, "section": {"preset": "tube", "outer_diameter": 0.1,
      "inner_diameter": 0.09}, "material": {"preset": "cfrp"}, "basis": "fem", "elements": 3, "modal_damping": [0.01]})");
  ASSERT_TRUE(j) << j.error().text();
  EXPECT_EQ(*j->length, 0.5);
  EXPECT_EQ(j->flex["modal_damping"][0], 0.01);
  EXPECT_FALSE(j->flex.contains("length"));
}

TEST(FlexibleLinkSpec, MistakesNameTheirPart) {
  const std::pair<const char*, const char*> cases[] = {
      {"section=tube:0.1:0.09,material=steel", "expected LINK=SPEC"},
      {"a=section=tube:0.1,material=steel", "section: expected tube:OUTER_DIAMETER:INNER_DIAMETER"},
      {"a=section=hexagon:1,material=steel", "section: unknown preset \"hexagon\""},
      {"a=section=tube:0.1:x,material=steel", "section: \"x\" is not a number"},
      {"a=section=tube:0.1:0.09,material=wood", "material: unknown preset \"wood\""},
      {"a=section=tube:0.1:0.09", "material: missing"},
      {"a=section=tube:0.1:0.09,material=steel,basis=fem:2.5", "basis: \"2.5\" is not a whole number"},
      {"a=section=tube:0.1:0.09,material=steel,basis=modes:1:2", "basis: \"modes:1:2\": expected"},
      {"a=section=tube:0.1:0.09,material=steel,colour=red", "colour: unknown key"},
      {"a=length=0.5,length=0.6,section=tube:0.1:0.09,material=steel", "length: given twice"},
      {"a=length=abc,section=tube:0.1:0.09,material=steel", "length: \"abc\" is not a number"},
      {"a={\"length\": \"long\"}", "length: must be a number"},
      {"a={\"section\": ", "JSON"},
  };
  for (const auto& [text, expected] : cases) {
    const Result<FlexibleLinkSpec> s = parseFlexibleLinkSpec(text);
    ASSERT_FALSE(s) << text;
    EXPECT_NE(s.error().text().find(expected), std::string::npos) << text << "\n" << s.error().text();
  }
}

TEST(Placement, FromTransformRebuildsTheTransformIncludingGimbalLock) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> u(-3.0, 3.0);
  std::vector<Eigen::Vector3d> rpys = {
      {0.3, M_PI / 2, -1.1}, {-2.0, -M_PI / 2, 0.4}, {0.0, -M_PI / 2, 0.0}, {0.1, M_PI / 2 - 1e-9, 0.2}};
  for (int k = 0; k < 50; ++k) rpys.emplace_back(u(rng), u(rng) / 2, u(rng));
  for (const Eigen::Vector3d& rpy : rpys) {
    Placement p;
    p.xyz = Eigen::Vector3d(u(rng), u(rng), u(rng));
    p.rpy = rpy;
    const Eigen::Isometry3d X = p.transform();
    const Placement back = Placement::fromTransform(X);
    EXPECT_LT((back.transform().matrix() - X.matrix()).cwiseAbs().maxCoeff(), 1e-14) << rpy.transpose();
    EXPECT_LE(std::abs(back.rpy.y()), M_PI / 2 + 1e-15);
  }
  // Where it is not singular, the angles themselves come back.
  Placement p;
  p.rpy = Eigen::Vector3d(0.3, -0.7, 2.9);
  EXPECT_LT((Placement::fromTransform(p.transform()).rpy - p.rpy).norm(), 1e-14);
}
