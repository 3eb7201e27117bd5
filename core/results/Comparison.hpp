#pragma once
// Runs of variants of one project side by side: each chosen channel of every run on a common time
// grid, then each later run minus the first. Used by `flexarm-cli compare` and the compare mode.
#include <string>
#include <utility>
#include <vector>

#include "results/Results.hpp"

namespace flexarm {

struct NamedRun {
  std::string name;  // the variant
  const Results* results = nullptr;
};

// Channels: "t", then "<channel>[<name>]" for every run, then "<channel>[<name> - <first name>]" for
// every later run, channel by channel. The grid is the times of the run that reached furthest, plus
// the last time of each run that ended between two of them (a diverged run's last row is the state
// that diverged, off the output grid); a run is linearly interpolated on it and has no value (NaN, an
// empty CSV cell) past its own end, e.g. after it diverged. `channels` empty: every channel the runs
// have in common. The result's status is Completed and its message gives each run's outcome;
// project_name is left for the caller.
Results compareRuns(const std::vector<NamedRun>& runs, std::vector<std::string> channels);

// The project name a comparison's results carry: "<project> [compare: A | B]".
std::string comparisonName(const std::string& project, const std::vector<NamedRun>& runs);

// The channels every run has, in the first run's order (without "t").
std::vector<std::string> commonChannels(const std::vector<NamedRun>& runs);

}  // namespace flexarm
