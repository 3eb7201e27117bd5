// Coordinate and channel names: one scheme, read back to the coordinate it names.
#include <gtest/gtest.h>

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
    ASSERT_EQ(sys.coordinate_names.size(), static_cast<std::size_t>(sys.nq));
    for (int k = 0; k < sys.nq; ++k) {
      const std::string& name = sys.coordinate_names[static_cast<std::size_t>(k)];
      EXPECT_EQ(sys.coordinateIndex(name), k) << name;
      EXPECT_NE(std::find(channels.begin(), channels.end(), name), channels.end()) << name;
    }
    EXPECT_EQ(sys.coordinateIndex("q.nonexistent"), -1);
    EXPECT_EQ(sys.coordinateIndex(names::elasticCoordinate(sys.bodies.back().name, sys.bodies.back().e_count + 1)), -1);
  }
}
