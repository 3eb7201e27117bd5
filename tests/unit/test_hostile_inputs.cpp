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

// The broken URDFs and the text each one's error must contain (cases.tsv).
std::vector<std::pair<std::string, std::string>> badUrdfCases() {
  std::ifstream cases(badUrdfDir() + "/cases.tsv");
  EXPECT_TRUE(cases) << "missing cases.tsv";
  std::vector<std::pair<std::string, std::string>> out;
  for (std::string line; std::getline(cases, line);) {
    if (line.empty() || line[0] == '#') continue;
    const std::size_t tab = line.find('\t');
    EXPECT_NE(tab, std::string::npos) << line;
    if (tab != std::string::npos) out.emplace_back(badUrdfDir() + "/" + line.substr(0, tab), line.substr(tab + 1));
  }
  return out;
}

}  // namespace

TEST(HostileUrdf, EveryBrokenUrdfIsRefusedQuicklyWithItsReason) {
  int count = 0;
  for (const auto& [file, expected] : badUrdfCases()) {
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

// What urdfdom says and the names of the file (newlines in them, thousands of them) reach the user in
// messages of one line of reasonable length, as the fuzz program requires (issue 21).
TEST(HostileUrdf, EveryMessageIsOneLineOfAtMost2000Characters) {
  for (const auto& [file, expected] : badUrdfCases()) {
    Diagnostics diag;
    importEveryWay(file, diag);
    for (const Diagnostic& d : diag.all()) {
      EXPECT_EQ(d.text().find('\n'), std::string::npos) << file << ": " << d.text();
      EXPECT_LE(d.text().size(), 2000u) << file << ": " << d.text().substr(0, 300);
    }
  }
}
