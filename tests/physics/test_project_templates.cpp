// The new-project templates (core/io/ProjectTemplates): each is a valid project whose parameters
// exist, and each is the arm its description promises. With the joints held, the single flexible link
// and the straight two-link arm are clamped-free beams with a tip mass, whose frequencies have a
// closed form; run, the two-link arm's shoulder reaches the 90 degrees its PD set-point asks.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <algorithm>
#include <unistd.h>

#include "FlexTestModels.hpp"
#include "analysis/Linearization.hpp"
#include "base/Constants.hpp"
#include "io/Overrides.hpp"
#include "io/ProjectFile.hpp"
#include "io/ProjectTemplates.hpp"
#include "solvers/Simulation.hpp"

using namespace flexarm;
using flexarm::test::heldJointOmegas;

namespace {
using flexarm::kPi;

std::optional<Project> interpret(const Json& doc, Diagnostics& diag) { return projectFromJson(doc, ".", diag); }

Project projectOf(const std::string& id, const std::vector<std::string>& assignments = {}) {
  Diagnostics diag;
  const ProjectTemplate* t = findTemplate(id);
  EXPECT_NE(t, nullptr) << id;
  if (!t) return {};
  const std::optional<Json> doc = instantiateTemplate(*t, "", assignments, diag);
  EXPECT_TRUE(doc) << diag.text();
  if (!doc) return {};
  std::optional<Project> p = interpret(*doc, diag);
  EXPECT_TRUE(p) << diag.text();
  return p ? *p : Project{};
}

// Clamped-free Euler-Bernoulli beam with a tip point mass, mu = M / (rho A L):
// 1 + cos(x) cosh(x) + mu x (cos(x) sinh(x) - sin(x) cosh(x)) = 0, x = beta L; the k-th root by bisection.
double betaL(double mu, int k) {
  auto f = [mu](double x) {
    return 1 + std::cos(x) * std::cosh(x) + mu * x * (std::cos(x) * std::sinh(x) - std::sin(x) * std::cosh(x));
  };
  int found = 0;
  for (double a = 0.05; a < 20; a += 0.05) {
    double lo = a, hi = a + 0.05;
    if (f(lo) * f(hi) > 0) continue;
    for (int it = 0; it < 100; ++it) {
      const double mid = 0.5 * (lo + hi);
      (f(lo) * f(mid) <= 0 ? hi : lo) = mid;
    }
    if (found++ == k) return 0.5 * (lo + hi);
  }
  return NAN;
}

// The in-plane bending frequencies [rad/s] of a clamped-free aluminium strip (width b in the plane,
// height h) of length L with a tip mass M.
double stripOmega(int k, double L, double b, double h, double M) {
  const double E = 68.9e9, rho = 2700.0;  // the loader's "aluminium" preset: 6061-T6
  const double A = b * h, Iz = h * b * b * b / 12;
  const double x = betaL(M / (rho * A * L), k);
  return x * x / (L * L) * std::sqrt(E * Iz / (rho * A));
}

}  // namespace

TEST(ProjectTemplates, EachIsAValidProjectAndItsParametersExist) {
  ASSERT_EQ(projectTemplates().size(), 3u);
  for (const ProjectTemplate& t : projectTemplates()) {
    Diagnostics diag;
    const std::optional<Project> p = interpret(t.doc, diag);
    if (t.id == "empty") {
      EXPECT_FALSE(p);  // no links: the editor's empty chain, which the loader alone refuses
      EXPECT_TRUE(t.doc.at("links").empty());
      continue;
    }
    ASSERT_TRUE(p) << t.id << ":\n" << diag.text();
    EXPECT_EQ(diag.text(), "") << t.id;  // no warnings either (no unknown keys)
    EXPECT_FALSE(t.parameters.empty()) << t.id;
    for (const TemplateParameter& param : t.parameters)
      for (const std::string& path : param.paths) {
        // Each parameter names a value the template holds, so setting it changes the project.
        EXPECT_NE(valueAtPath(t.doc, path), nullptr) << t.id << ": " << path;
      }
  }
}

TEST(ProjectTemplates, SingleFlexibleLinkIsACantileverWithATipMass) {
  const Project p = projectOf("single-flexible-link");
  ASSERT_EQ(p.model.links.size(), 1u);
  const std::vector<double> w = heldJointOmegas(p);
  ASSERT_GE(w.size(), 2u);
  // 1 m, 10 mm x 40 mm aluminium, 0.2 kg at the tip; six Hermite elements.
  EXPECT_NEAR(w[0] / stripOmega(0, 1.0, 0.01, 0.04, 0.2), 1.0, 1e-3);
  EXPECT_NEAR(w[1] / stripOmega(1, 1.0, 0.01, 0.04, 0.2), 1.0, 5e-3);
  // The user's values go where they say: 1.5 m long, 20 mm wide, 1 kg at the tip.
  const Project q =
      projectOf("single-flexible-link", {"links[0].length=1.5", "links[0].flex.section.width=0.02", "payloads[0].mass=1"});
  const std::vector<double> wq = heldJointOmegas(q);
  ASSERT_GE(wq.size(), 1u);
  EXPECT_NEAR(wq[0] / stripOmega(0, 1.5, 0.02, 0.04, 1.0), 1.0, 1e-3);
}

TEST(ProjectTemplates, StraightTwoLinkArmWithHeldJointsIsOneCantilever) {
  const Project p = projectOf("planar-two-link");
  ASSERT_EQ(p.model.links.size(), 2u);
  const std::vector<double> w = heldJointOmegas(p);
  ASSERT_GE(w.size(), 2u);
  // 0.8 m + 0.6 m in line, the same strip, 0.5 kg at the tip: one 1.4 m cantilever.
  EXPECT_NEAR(w[0] / stripOmega(0, 1.4, 0.01, 0.04, 0.5), 1.0, 1e-3);
  EXPECT_NEAR(w[1] / stripOmega(1, 1.4, 0.01, 0.04, 0.5), 1.0, 5e-3);
}

TEST(ProjectTemplates, TwoLinkArmTurnsByItsSetPoint) {
  Project p = projectOf("planar-two-link");
#ifdef FLEXARM_SANITIZED
  p.simulation.t_end = 1.0;  // the motion is checked in the Release pass; here, that it runs
#endif
  const Results r = simulate(p);
  ASSERT_EQ(r.status, RunStatus::Completed) << r.message;
#ifndef FLEXARM_SANITIZED
  // Set-point 0 -> 90 degrees over 0.2 .. 1.2 s; by 3 s the PD loop has settled (no gravity in the plane).
  const std::vector<double> shoulder = r.column("q.shoulder"), elbow = r.column("q.elbow");
  ASSERT_FALSE(shoulder.empty());
  EXPECT_NEAR(shoulder.back(), kPi / 2, 0.02);
  EXPECT_NEAR(elbow.back(), 0.0, 0.02);
#endif
}

TEST(ProjectTemplates, BadValuesAreNamedByTheLoader) {
  const ProjectTemplate* t = findTemplate("single-flexible-link");
  ASSERT_NE(t, nullptr);
  Diagnostics diag;
  const std::optional<Json> doc = instantiateTemplate(*t, "mine", {"links[0].length=-1"}, diag);
  ASSERT_TRUE(doc);
  EXPECT_EQ(doc->at("name"), "mine");
  EXPECT_FALSE(interpret(*doc, diag));
  EXPECT_NE(diag.text().find("links[0].length"), std::string::npos) << diag.text();
  Diagnostics bad;
  EXPECT_FALSE(instantiateTemplate(*t, "", {"links[0]length"}, bad));
  EXPECT_NE(bad.text(), "");
  EXPECT_EQ(findTemplate("no-such-template"), nullptr);
}

TEST(ProjectTemplates, AnExampleKeepsItsTableFilesWhenCopied) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / ("flexarm-template-test-" + std::to_string(::getpid()));
  fs::create_directories(dir / "tables");
  std::ofstream(dir / "tables" / "motion.csv") << "t,value\n0,0\n1,0.5\n2,1\n";
  std::ofstream(dir / "example.flexarm.json") << R"({"format": "flexarm-project", "schema_version": 1, "name": "tabled",
    "links": [{"name": "rod", "length": 1.0, "mass": 1.0, "shape": {"type": "rod"}}],
    "joints": [{"name": "j", "type": "revolute", "axis": [0, 0, 1],
                "drive": {"type": "prescribed", "law": "table", "file": "tables/motion.csv"}}]})";
  Diagnostics diag;
  const std::optional<Json> doc = projectFromExample(dir / "example.flexarm.json", diag);
  ASSERT_TRUE(doc) << diag.text();
  const std::string file = doc->at("joints")[0].at("drive").at("file");
  EXPECT_EQ(fs::path(file), (dir / "tables" / "motion.csv").lexically_normal());
  // Interpreted from elsewhere (the new project is not saved beside the example), the table is found.
  const std::optional<Project> p = projectFromJson(*doc, fs::temp_directory_path(), diag);
  ASSERT_TRUE(p) << diag.text();
  EXPECT_DOUBLE_EQ(p->model.joints[0].drive.law.evaluate(1.5).value, 0.75);
  Diagnostics missing;
  EXPECT_FALSE(projectFromExample(dir / "none.flexarm.json", missing));
  EXPECT_NE(missing.text().find("none.flexarm.json"), std::string::npos);
  fs::remove_all(dir);
}
