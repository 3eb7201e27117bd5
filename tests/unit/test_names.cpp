// Coordinate and channel names: one scheme, read back to the coordinate it names.
#include <gtest/gtest.h>

#include <filesystem>

#include "dynamics/MultibodySystem.hpp"
#include "io/ProjectFile.hpp"
#include "model/Names.hpp"
#include "results/ChannelRecorder.hpp"

using namespace flexarm;

TEST(Names, ParseReadsBackWhatTheBuildersWrite) {
  using K = names::CoordinateName::Kind;
  auto c = names::parseCoordinate(names::jointCoordinate("shoulder"));
  ASSERT_TRUE(c);
  EXPECT_EQ(c->kind, K::Joint);
  EXPECT_EQ(c->owner, "shoulder");
  c = names::parseCoordinate(names::motorCoordinate("elbow"));
  ASSERT_TRUE(c);
  EXPECT_EQ(c->kind, K::Motor);
  EXPECT_EQ(c->owner, "elbow");
  c = names::parseCoordinate(names::elasticCoordinate("upper.arm", 12));  // a link name with a dot
  ASSERT_TRUE(c);
  EXPECT_EQ(c->kind, K::Elastic);
  EXPECT_EQ(c->owner, "upper.arm");
  EXPECT_EQ(c->k, 12);
  for (const char* not_a_coordinate :
       {"qd.shoulder", "tau.shoulder", "e.beam.0", "e.beam.x", "e.beam.", "e..3", "q.", "t", "ee.x"})
    EXPECT_FALSE(names::parseCoordinate(not_a_coordinate)) << not_a_coordinate;
  // Renaming a joint renames its q and qm, renaming a link its e; nothing else changes.
  EXPECT_EQ(names::renameOwner("qm.elbow", true, "elbow", "wrist"), "qm.wrist");
  EXPECT_EQ(names::renameOwner("q.elbow", false, "elbow", "wrist"), "q.elbow");  // a link named elbow
  EXPECT_EQ(names::renameOwner("e.beam.12", false, "beam", "boom"), "e.boom.12");
  EXPECT_EQ(names::renameOwner("e.beam2.1", false, "beam", "boom"), "e.beam2.1");
  EXPECT_TRUE(names::namesCoordinateOf("qm.elbow", "elbow", "beam"));
  EXPECT_TRUE(names::namesCoordinateOf("e.beam.3", "elbow", "beam"));
  EXPECT_FALSE(names::namesCoordinateOf("e.elbow.3", "elbow", "beam"));
  EXPECT_TRUE(names::isTipDeflection("tip.beam.w"));
  EXPECT_FALSE(names::isTipDeflection("tip.beam.slope_w"));
}

TEST(Names, TheRateOfEachCoordinateIsNamedAfterIt) {
  EXPECT_EQ(names::coordinateRate("q.shoulder"), names::jointRate("shoulder"));
  EXPECT_EQ(names::coordinateRate("qm.elbow"), "qmd.elbow");
  EXPECT_EQ(names::coordinateRate("e.upper.arm.12"), "ed.upper.arm.12");
  for (const char* not_a_coordinate : {"qd.shoulder", "tip.beam.v", "e.beam.0", ""})
    EXPECT_EQ(names::coordinateRate(not_a_coordinate), "") << not_a_coordinate;
}

TEST(Names, EveryCoordinateIsARecordedChannelAndLooksUpToItsIndex) {
  // A flexible joint (motor coordinate) and flexible links: every coordinate's name is the name of
  // the channel that records it, and the lookup returns its index.
  for (const char* file : {"spatial-rrr-flexible-seed004.flexarm.json", "canadarm2-drop-seed000.flexarm.json"}) {
    const LoadedProject loaded = loadProjectFile(std::string(FLEXARM_PROJECTS_DIR) + "/" + file);
    ASSERT_TRUE(loaded.project) << file;
    const MultibodySystem sys = MultibodySystem::fromModel(loaded.project->model, loaded.project->coupling);
    const ChannelRecorder recorder(sys, nullptr);
    std::vector<std::string> channels;
    for (const Channel& ch : recorder.channels()) channels.push_back(ch.name);
    ASSERT_EQ(sys.coordinates.names.size(), static_cast<std::size_t>(sys.nq));
    for (int k = 0; k < sys.nq; ++k) {
      const std::string& name = sys.coordinates.names[static_cast<std::size_t>(k)];
      EXPECT_EQ(sys.coordinateIndex(name), k) << name;
      EXPECT_NE(std::find(channels.begin(), channels.end(), name), channels.end()) << name;
    }
    EXPECT_EQ(sys.coordinateIndex("q.nonexistent"), -1);
    EXPECT_EQ(sys.coordinateIndex(names::elasticCoordinate(sys.bodies.back().name, sys.bodies.back().e_count + 1)), -1);
  }
}

TEST(Names, TheCoordinatesOfAModelAreThoseItsBuiltSystemHas) {
  // Coordinates::of lays the coordinates out from the model and the bases' sizes alone (the reader checks
  // constraints with it); the built system counts each flexible link's coordinates from its built
  // FlexibleBody. Every shipped project, and a mesh reduced to its lowest modes, agree.
  std::vector<std::pair<std::string, std::vector<std::string>>> cases;
  for (const auto& f : std::filesystem::directory_iterator(FLEXARM_PROJECTS_DIR))
    if (f.path().string().size() > 14 && f.path().string().rfind(".flexarm.json") == f.path().string().size() - 13)
      cases.push_back({f.path().string(), {}});
  ASSERT_GE(cases.size(), 10u);
  cases.push_back({std::string(FLEXARM_PROJECTS_DIR) + "/cantilever.flexarm.json", {"links[0].flex.reduce_to=5"}});
  for (const auto& [file, overrides] : cases) {
    const LoadedProject loaded = loadProjectFile(file, overrides);
    ASSERT_TRUE(loaded.project) << file;
    const Coordinates c = Coordinates::of(loaded.project->model);
    const MultibodySystem sys = MultibodySystem::fromModel(loaded.project->model, loaded.project->coupling);
    ASSERT_EQ(c.size(), sys.nq) << file;
    ASSERT_EQ(c.links.size(), sys.bodies.size()) << file;
    for (std::size_t i = 0; i < sys.bodies.size(); ++i) {
      const Body& b = sys.bodies[i];
      EXPECT_EQ(c.links[i].q, b.q_index) << file;
      EXPECT_EQ(c.links[i].motor, b.motor_index) << file;
      EXPECT_EQ(c.links[i].e_first, b.e_index) << file;
      EXPECT_EQ(c.links[i].e_count, b.isFlexible() ? b.flexible->m : 0) << file;
    }
    if (!overrides.empty()) EXPECT_EQ(c.links[0].e_count, 5);
  }
}
