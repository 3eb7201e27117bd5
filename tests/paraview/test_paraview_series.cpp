// The ParaView series (paraview/ParaViewSeries.hpp) read back by VTK's own XML reader: the .pvd's
// times are the results' t column, each .vtp holds every link's centreline, the joints and payloads,
// the tip is the results' tip.<link>.x|y|z to 1e-12, the displacement is the deformed minus the
// undeformed arm; results of another model, an unwritable folder and a cancel are refused or said.
#include <gtest/gtest.h>
#include <unistd.h>
#include <vtkDataArray.h>
#include <vtkFieldData.h>
#include <vtkIntArray.h>
#include <vtkPointData.h>
#include <vtkPolyData.h>
#include <vtkSmartPointer.h>
#include <vtkStringArray.h>
#include <vtkXMLDataElement.h>
#include <vtkXMLDataParser.h>
#include <vtkXMLPolyDataReader.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <string>

#include "base/Files.hpp"
#include "io/ProjectFile.hpp"
#include "model/Names.hpp"
#include "paraview/ParaViewSeries.hpp"
#include "solvers/Simulation.hpp"

namespace fs = std::filesystem;
using namespace flexarm;

namespace {

Project shipped(const std::string& name, const std::vector<std::string>& overrides = {}) {
  LoadedProject p = loadProjectFile(std::string(FLEXARM_PROJECTS_DIR) + "/" + name, overrides);
  if (!p.project) ADD_FAILURE() << p.diagnostics.text();
  return p.project ? *p.project : Project{};
}

struct TempDir {
  fs::path path = fs::temp_directory_path() / ("flexarm-paraview-" + std::to_string(::getpid()) + "-" +
                                               ::testing::UnitTest::GetInstance()->current_test_info()->name());
  TempDir() { fs::remove_all(path); }
  ~TempDir() { fs::remove_all(path); }
};

struct PvdEntry {
  double time;
  std::string file;
};

// The collection's data sets, parsed by VTK's XML parser.
std::vector<PvdEntry> readPvd(const fs::path& file) {
  std::vector<PvdEntry> out;
  auto parser = vtkSmartPointer<vtkXMLDataParser>::New();
  parser->SetFileName(file.c_str());
  if (!parser->Parse()) {
    ADD_FAILURE() << "VTK cannot parse " << file;
    return out;
  }
  vtkXMLDataElement* root = parser->GetRootElement();
  EXPECT_STREQ(root->GetName(), "VTKFile");
  EXPECT_STREQ(root->GetAttribute("type"), "Collection");
  vtkXMLDataElement* collection = root->FindNestedElementWithName("Collection");
  if (!collection) {
    ADD_FAILURE() << "no Collection element";
    return out;
  }
  for (int i = 0; i < collection->GetNumberOfNestedElements(); ++i) {
    vtkXMLDataElement* e = collection->GetNestedElement(i);
    EXPECT_STREQ(e->GetName(), "DataSet");
    out.push_back({std::strtod(e->GetAttribute("timestep"), nullptr), e->GetAttribute("file")});
  }
  return out;
}

vtkSmartPointer<vtkPolyData> readVtp(const fs::path& file) {
  auto reader = vtkSmartPointer<vtkXMLPolyDataReader>::New();
  reader->SetFileName(file.c_str());
  reader->Update();
  EXPECT_EQ(reader->GetErrorCode(), 0) << file;
  return reader->GetOutput();
}

Eigen::Vector3d pointOf(vtkPolyData* poly, vtkIdType id) {
  Eigen::Vector3d p;
  poly->GetPoint(id, p.data());
  return p;
}

// The point of `kind` (0 centreline, 1 joint, 2 payload) number `index` among those of its kind.
vtkIdType pointOfKind(vtkPolyData* poly, int kind, int index) {
  vtkDataArray* kinds = poly->GetPointData()->GetArray("kind");
  for (vtkIdType i = 0; i < poly->GetNumberOfPoints(); ++i)
    if (static_cast<int>(kinds->GetTuple1(i)) == kind && index-- == 0) return i;
  return -1;
}

Eigen::Vector3d recorded(const Results& r, std::size_t row, const std::string& link) {
  return {r.value(row, static_cast<std::size_t>(r.channelIndex(names::linkTip(link, "x")))),
          r.value(row, static_cast<std::size_t>(r.channelIndex(names::linkTip(link, "y")))),
          r.value(row, static_cast<std::size_t>(r.channelIndex(names::linkTip(link, "z"))))};
}

}  // namespace

TEST(ParaViewSeries, SpinUpBeamReadsBackWithTheResultsTimesAndTips) {
  const Project p = shipped("spin-up-beam.flexarm.json", {"simulation.t_end=3"});
  const Results r = simulate(p);
  ASSERT_EQ(r.status, RunStatus::Completed) << r.message;
  const MultibodySystem sys = MultibodySystem::fromModel(p.model, p.coupling);
  TempDir dir;
  SeriesOptions options;
  options.samples = 21;
  const SeriesOutcome o = writeParaViewSeries(p.model, sys, r, dir.path / "series", options);
  ASSERT_TRUE(o.error.empty()) << o.error;
  EXPECT_EQ(o.frames, r.rows());
  const std::vector<PvdEntry> entries = readPvd(dir.path / "series" / "arm.pvd");
  ASSERT_EQ(entries.size(), r.rows());
  const std::vector<double> t = r.column("t");
  const double L = p.model.links[0].length;
  double largest_deflection = 0.0;
  for (std::size_t row = 0; row < r.rows(); ++row) {
    EXPECT_EQ(entries[row].time, t[row]) << row;  // written to round-trip exactly
    vtkSmartPointer<vtkPolyData> poly = readVtp(dir.path / "series" / entries[row].file);
    ASSERT_EQ(poly->GetNumberOfPoints(), 21 + 1);  // the beam's centreline and the hub joint
    ASSERT_EQ(poly->GetNumberOfLines(), 1);
    ASSERT_EQ(poly->GetNumberOfVerts(), 1);
    EXPECT_EQ(poly->GetFieldData()->GetArray("TimeValue")->GetTuple1(0), t[row]);
    const Eigen::Vector3d tip = pointOf(poly, 20);
    EXPECT_LE((tip - recorded(r, row, "beam")).cwiseAbs().maxCoeff(), 1e-12) << "t = " << t[row];
    // The displacement is the deformed tip minus the undeformed beam's tip at the hub angle q,
    // L (cos q, sin q, 0): the rigid rotation by hand, not through the engine.
    const double q = r.value(row, static_cast<std::size_t>(r.channelIndex("q.hub")));
    double d[3];
    poly->GetPointData()->GetArray("displacement")->GetTuple(20, d);
    EXPECT_NEAR(d[0], tip.x() - L * std::cos(q), 1e-12);
    EXPECT_NEAR(d[1], tip.y() - L * std::sin(q), 1e-12);
    EXPECT_NEAR(d[2], tip.z(), 1e-12);
    largest_deflection = std::max(largest_deflection, std::hypot(d[0], d[1]));
    // The hub joint at the origin; the root of a clamped beam does not move.
    EXPECT_LE(pointOf(poly, 21).norm(), 1e-15);
    poly->GetPointData()->GetArray("displacement")->GetTuple(0, d);
    EXPECT_LE(std::abs(d[0]) + std::abs(d[1]) + std::abs(d[2]), 1e-15);
    EXPECT_EQ(poly->GetPointData()->GetArray("link_id")->GetTuple1(10), 0.0);
    auto* links = vtkStringArray::SafeDownCast(poly->GetFieldData()->GetAbstractArray("link_names"));
    ASSERT_TRUE(links);
    EXPECT_EQ(links->GetValue(0), "beam");
    // Curvature and strain along the beam: largest at the clamped root while it is spun up.
    vtkDataArray* kappa = poly->GetPointData()->GetArray("curvature");
    vtkDataArray* strain = poly->GetPointData()->GetArray("strain");
    ASSERT_TRUE(kappa && strain);
    if (row > 0 && t[row] < 2.0) {
      EXPECT_GT(kappa->GetTuple1(0), kappa->GetTuple1(19)) << t[row];
    }
  }
  EXPECT_GT(largest_deflection, 1e-3);  // the spin-up bends the beam: the check above compared something
}

TEST(ParaViewSeries, JointsAndPayloadsSitWhereTheResultsPutThem) {
  const Project p = shipped("two-link-flexible-arm.flexarm.json", {"simulation.t_end=0.5", "simulation.output_rate=20"});
  const Results r = simulate(p);
  ASSERT_EQ(r.status, RunStatus::Completed) << r.message;
  const MultibodySystem sys = MultibodySystem::fromModel(p.model, p.coupling);
  TempDir dir;
  const SeriesOutcome o = writeParaViewSeries(p.model, sys, r, dir.path);
  ASSERT_TRUE(o.error.empty()) << o.error;
  const std::vector<PvdEntry> entries = readPvd(o.pvd);
  ASSERT_EQ(entries.size(), r.rows());
  for (std::size_t row = 0; row < r.rows(); ++row) {
    vtkSmartPointer<vtkPolyData> poly = readVtp(dir.path / entries[row].file);
    ASSERT_EQ(poly->GetNumberOfPoints(), 2 * 41 + 2 + 1);
    ASSERT_EQ(poly->GetNumberOfLines(), 2);
    ASSERT_EQ(poly->GetNumberOfVerts(), 3);
    EXPECT_LE((pointOf(poly, 40) - recorded(r, row, "upper")).cwiseAbs().maxCoeff(), 1e-12);
    EXPECT_LE((pointOf(poly, 81) - recorded(r, row, "fore")).cwiseAbs().maxCoeff(), 1e-12);
    // The elbow (no placement) at the upper arm's tip; the tool (distal frame, no offset) at the forearm's.
    const vtkIdType elbow = pointOfKind(poly, 1, 1), tool = pointOfKind(poly, 2, 0);
    ASSERT_GE(elbow, 0);
    ASSERT_GE(tool, 0);
    EXPECT_LE((pointOf(poly, elbow) - recorded(r, row, "upper")).cwiseAbs().maxCoeff(), 1e-12);
    EXPECT_LE((pointOf(poly, tool) - recorded(r, row, "fore")).cwiseAbs().maxCoeff(), 1e-12);
    EXPECT_EQ(poly->GetPointData()->GetArray("link_id")->GetTuple1(tool), 1.0);
  }
}

TEST(ParaViewSeries, ResultsOfAnotherModelAreRefusedBeforeAnyFile) {
  const Project p = shipped("spin-up-beam.flexarm.json", {"simulation.t_end=1"});
  const Results r = simulate(p);
  TempDir dir;
  // Another arm: its coordinates have no channels.
  const Project other = shipped("two-link-flexible-arm.flexarm.json");
  SeriesOutcome o = writeParaViewSeries(other.model, MultibodySystem::fromModel(other.model), r, dir.path);
  EXPECT_NE(o.error.find("do not belong"), std::string::npos) << o.error;
  EXPECT_NE(o.error.find("q.shoulder"), std::string::npos) << o.error;
  // The same channels, another beam: the tips do not agree.
  const Project longer = shipped("spin-up-beam.flexarm.json", {"links[0].length=9"});
  o = writeParaViewSeries(longer.model, MultibodySystem::fromModel(longer.model, longer.coupling), r, dir.path);
  EXPECT_NE(o.error.find("the tip of link \"beam\""), std::string::npos) << o.error;
  EXPECT_NE(o.error.find("another model"), std::string::npos) << o.error;
  EXPECT_FALSE(fs::exists(dir.path));
}

TEST(ParaViewSeries, AFolderThatCannotBeWrittenIsNamed) {
  const Project p = shipped("spin-up-beam.flexarm.json", {"simulation.t_end=0.2"});
  const Results r = simulate(p);
  const MultibodySystem sys = MultibodySystem::fromModel(p.model, p.coupling);
  TempDir dir;
  fs::create_directories(dir.path);
  const fs::path file = dir.path / "a-file";
  ASSERT_TRUE(writeFileAtomically(file, "x"));
  const SeriesOutcome o = writeParaViewSeries(p.model, sys, r, file / "series");
  EXPECT_NE(o.error.find("a-file"), std::string::npos) << o.error;
  EXPECT_EQ(o.frames, 0u);
}

TEST(ParaViewSeries, ACancelKeepsTheFilesSoFarAndWritesNoCollection) {
  const Project p = shipped("spin-up-beam.flexarm.json", {"simulation.t_end=1"});
  const Results r = simulate(p);
  const MultibodySystem sys = MultibodySystem::fromModel(p.model, p.coupling);
  TempDir dir;
  SeriesOptions options;
  options.progress = [](std::size_t done, std::size_t total) {
    EXPECT_EQ(total, 21u);
    return done < 5;
  };
  const SeriesOutcome o = writeParaViewSeries(p.model, sys, r, dir.path, options);
  EXPECT_TRUE(o.error.empty()) << o.error;
  EXPECT_TRUE(o.cancelled);
  EXPECT_EQ(o.frames, 5u);
  EXPECT_FALSE(fs::exists(dir.path / "arm.pvd"));
  EXPECT_TRUE(fs::exists(dir.path / "arm_0004.vtp"));
}
