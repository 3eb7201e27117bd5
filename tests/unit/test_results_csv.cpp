// The results CSV and its JSON sidecar (issue 20, item 10): the sidecar's name, FlexArm's earlier
// layout ('#' comment lines before the header) still read, and a broken sidecar refused with a
// message naming it. The round trip of a written file is in tests/export (Export.CsvReadsBack...).
#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "results/CsvMetadata.hpp"
#include "results/CsvReader.hpp"
#include "results/CsvWriter.hpp"
#include "TestFiles.hpp"

using namespace flexarm;
namespace fs = std::filesystem;

namespace {

fs::path scratch(const std::string& name) { return test::scratchFolder("results-csv", name); }
using test::readAll;

Results smallRun() {
  Results r;
  r.setChannels({{"t", "s"}, {"q.shoulder", "rad"}, {"tip.arm.v", "m"}});
  for (int k = 0; k < 3; ++k) {
    const double row[] = {0.125 * k, 0.5 * k, 0.25 * k - 0.5};
    r.appendRow(row);
  }
  r.project_name = "small";
  r.solver_description = "CVODE BDF rtol=1e-08 atol=1e-10";
  r.status = RunStatus::Failed;
  r.end_time = 0.25;
  r.message = "too many steps";
  return r;
}

// The error readCsvFile gives for `file` once its sidecar holds `sidecar`.
std::string errorWithSidecar(const fs::path& file, const std::string& sidecar) {
  std::ofstream(csvMetadataFile(file), std::ios::trunc) << sidecar;
  const Result<Results> r = readCsvFile(file);
  return r ? std::string("(read without an error)") : r.error().text();
}

}  // namespace

TEST(ResultsCsv, TheSidecarIsNamedAfterTheCsv) {
  EXPECT_EQ(csvMetadataFile("out/run.csv"), fs::path("out/run.meta.json"));
  EXPECT_EQ(csvMetadataFile("RUN.CSV"), fs::path("RUN.meta.json"));
  EXPECT_EQ(csvMetadataFile("/a/coupling=zero.csv"), fs::path("/a/coupling=zero.meta.json"));
  EXPECT_EQ(csvMetadataFile("out.txt"), fs::path("out.txt.meta.json"));  // never the sidecar of out.csv
  EXPECT_EQ(csvMetadataFile("results"), fs::path("results.meta.json"));
}

TEST(ResultsCsv, TheEarlierLayoutWithCommentLinesIsStillRead) {
  const Result<Results> r = readCsvFile(fs::path(FLEXARM_TEST_DATA_DIR) / "results" / "old-form.csv");
  ASSERT_TRUE(r) << r.error().text();
  ASSERT_EQ(r->channels().size(), 3u);
  EXPECT_EQ(r->channels()[1].name, "q.shoulder");
  EXPECT_EQ(r->channels()[0].unit, "s");
  EXPECT_EQ(r->channels()[1].unit, "rad");
  EXPECT_EQ(r->channels()[2].unit, "m");
  ASSERT_EQ(r->rows(), 3u);
  EXPECT_EQ(r->value(1, 2), -1.5e-07);
  EXPECT_TRUE(std::isnan(r->value(2, 2)));
  EXPECT_EQ(r->project_name, "double pendulum [coupling=zero]");
  EXPECT_EQ(r->variant, "coupling=zero");
  EXPECT_EQ(r->solver_description, "CVODE BDF rtol=1e-08 atol=1e-10 coupling=zero");
  EXPECT_EQ(r->status, RunStatus::Diverged);
  EXPECT_EQ(r->end_time, 0.25);
  EXPECT_EQ(r->message, "the tip of link arm ran away");
  EXPECT_EQ(r->stats.steps, 42);
  EXPECT_EQ(r->stats.rhs_evaluations, 97);
  EXPECT_EQ(r->stats.jacobian_evaluations, 5);
  EXPECT_EQ(r->stats.wall_time, 0.0125);
}

TEST(ResultsCsv, WithoutASidecarTheUnitsAreEmptyAndTheRunCompleted) {
  const fs::path dir = scratch("plain");
  std::ofstream(dir / "plain.csv") << "t,x\n0,1\n0.5,2\n";
  const Result<Results> r = readCsvFile(dir / "plain.csv");
  ASSERT_TRUE(r) << r.error().text();
  EXPECT_EQ(r->channels()[1].name, "x");
  EXPECT_EQ(r->channels()[1].unit, "");
  EXPECT_EQ(r->status, RunStatus::Completed);
  EXPECT_EQ(r->value(1, 1), 2.0);
  fs::remove_all(dir);
}

TEST(ResultsCsv, ASidecarOnlyDescribesTheRunItsCsvHolds) {
  // A sidecar from FlexArm as written: the failed status and the units come from it, not the CSV.
  const fs::path dir = scratch("sidecar");
  const fs::path file = dir / "run.csv";
  ASSERT_TRUE(writeCsvFile(smallRun(), file));
  EXPECT_EQ(readAll(file), "t,q.shoulder,tip.arm.v\n0,0,-0.5\n0.125,0.5,-0.25\n0.25,1,0\n");
  const std::string meta = readAll(dir / "run.meta.json");
  EXPECT_NE(meta.find("\"status\": \"failed\""), std::string::npos) << meta;
  EXPECT_NE(meta.find("\"message\": \"too many steps\""), std::string::npos) << meta;
  Result<Results> r = readCsvFile(file);
  ASSERT_TRUE(r) << r.error().text();
  EXPECT_EQ(r->status, RunStatus::Failed);
  EXPECT_EQ(r->channels()[2].unit, "m");
  // Keys a newer FlexArm may add are ignored; the fields it leaves out keep their defaults.
  std::ofstream(dir / "run.meta.json", std::ios::trunc)
      << R"({"format": "flexarm-results-metadata", "version": 1, "status": "cancelled", "added_later": [1, 2]})";
  r = readCsvFile(file);
  ASSERT_TRUE(r) << r.error().text();
  EXPECT_EQ(r->status, RunStatus::Cancelled);
  EXPECT_EQ(r->project_name, "");
  EXPECT_EQ(r->channels()[2].unit, "");
  fs::remove_all(dir);
}

TEST(ResultsCsv, ABrokenSidecarIsAnErrorNamingIt) {
  const fs::path dir = scratch("broken");
  const fs::path file = dir / "run.csv";
  ASSERT_TRUE(writeCsvFile(smallRun(), file));
  const std::string head = R"({"format": "flexarm-results-metadata", "version": 1, )";
  const std::string cut = errorWithSidecar(file, "{\"format\": ");
  EXPECT_EQ(cut.rfind("run.meta.json: not valid JSON at line 1, column ", 0), 0u) << cut;
  EXPECT_EQ(errorWithSidecar(file, "[1, 2]"), "run.meta.json: must be an object, got an array");
  EXPECT_EQ(errorWithSidecar(file, R"({"format": "flexarm-study", "version": 1})"),
            "run.meta.json: format: must be \"flexarm-results-metadata\" (a FlexArm results sidecar), got \"flexarm-study\"");
  EXPECT_EQ(errorWithSidecar(file, R"({"format": "flexarm-results-metadata"})"), "run.meta.json: version: is missing");
  EXPECT_EQ(errorWithSidecar(file, R"({"format": "flexarm-results-metadata", "version": 7})"),
            "run.meta.json: version: this FlexArm reads version 1, the file has 7 (written by a newer FlexArm?)");
  EXPECT_EQ(errorWithSidecar(file, head + R"("status": "exploded"})"),
            "run.meta.json: status: unknown value \"exploded\" (expected one of: completed, failed, cancelled, diverged)");
  EXPECT_EQ(errorWithSidecar(file, head + R"("end_time": "late"})"),
            "run.meta.json: end_time: must be a number, got string \"late\"");
  EXPECT_EQ(errorWithSidecar(file, head + R"("stats": {"steps": -3}})"),
            "run.meta.json: stats.steps: must be an integer >= 0, got -3");
  EXPECT_EQ(errorWithSidecar(file, head + R"("channels": [{"name": "t"}]})"),
            "run.meta.json: channels: lists 1 channels, the CSV has 3 columns");
  EXPECT_EQ(errorWithSidecar(file, head + R"("channels": [{"name": "t"}, {"name": "q.elbow"}, {"name": "tip.arm.v"}]})"),
            "run.meta.json: channels[1].name: \"q.elbow\" is not the CSV's column 2, \"q.shoulder\"");
  EXPECT_EQ(errorWithSidecar(file, head + R"("project": "a", "project": "b"})"),
            "run.meta.json: project: this key is given twice in the same object (each key may appear once)");
  // A folder where the sidecar should be is named too, when read and when written.
  fs::remove(dir / "run.meta.json");
  fs::create_directory(dir / "run.meta.json");
  const Result<Results> r = readCsvFile(file);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().text().rfind("run.meta.json: cannot read the results' description: ", 0), 0u) << r.error().text();
  const Status written = writeCsvFile(smallRun(), file);
  ASSERT_FALSE(written);
  EXPECT_NE(written.error().text().find("run.meta.json"), std::string::npos) << written.error().text();
  fs::remove_all(dir);
}
