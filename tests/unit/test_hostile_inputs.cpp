// What the fuzz program (tests/fuzz, issue 45 deliverable 6) found in the URDF import and in a prepared
// study's study.json, each refused now with a message that names what is wrong: the broken URDFs of
// tests/data/bad/urdf (cases.tsv gives each one's message) and the study.json edits below.
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "io/UrdfImport.hpp"
#include "solvers/StudyFolder.hpp"

using namespace flexarm;
namespace fs = std::filesystem;

namespace {

std::string badUrdfDir() { return std::string(FLEXARM_TEST_DATA_DIR) + "/bad/urdf"; }

// The import as flexarm-cli import-urdf and the workbench do it, to the tip it finds and to every
// leaf: the project of the first that imports, else nothing; every message in diag.
std::optional<Json> importEveryWay(const std::string& file, Diagnostics& diag) {
  const std::optional<UrdfRobot> robot = UrdfRobot::read(file, diag);
  if (!robot) return std::nullopt;
  std::vector<std::string> tips{""};
  for (const std::string& leaf : robot->leaves()) tips.push_back(leaf);
  for (const std::string& tip : tips) {
    UrdfImportOptions options;
    options.tip = tip;
    if (std::optional<Json> doc = robot->toProject(options, diag)) return doc;
  }
  return std::nullopt;
}

}  // namespace

TEST(HostileUrdf, EveryBrokenUrdfIsRefusedQuicklyWithItsReason) {
  std::ifstream cases(badUrdfDir() + "/cases.tsv");
  ASSERT_TRUE(cases) << "missing cases.tsv";
  int count = 0;
  for (std::string line; std::getline(cases, line);) {
    if (line.empty() || line[0] == '#') continue;
    const std::size_t tab = line.find('\t');
    ASSERT_NE(tab, std::string::npos) << line;
    const std::string file = badUrdfDir() + "/" + line.substr(0, tab), expected = line.substr(tab + 1);
    ++count;
    const auto start = std::chrono::steady_clock::now();
    Diagnostics diag;
    EXPECT_FALSE(importEveryWay(file, diag)) << file;
    EXPECT_TRUE(diag.hasErrors()) << file;
    EXPECT_NE(diag.text().find(expected), std::string::npos) << file << "\nexpected: " << expected << "\ngot:\n" << diag.text();
    EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), 2.0) << file;
  }
  EXPECT_GE(count, 1);
}
