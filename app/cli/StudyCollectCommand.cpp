// flexarm-cli study-collect DIR: summary.csv of a prepared (e.g. Slurm) study from its cases' results.
#include <memory>

#include "Command.hpp"
#include "StudyStatus.hpp"

namespace flexarm::cli {

Command studyCollectCommand() {
  return {"study-collect", "DIR",
          "Write DIR/summary.csv of a study prepared by `study --slurm` from its cases' result\n"
          "files, the same summary a local study writes, and name the cases that are missing\n"
          "(no result yet) or failed.",
          [](CLI::App& app) {
            auto dir = std::make_shared<std::string>();
            app.add_option("DIR", *dir, "the folder of the prepared study (study --slurm --out DIR)")->required();
            return CommandAction([dir] { return collectStudy(*dir); });
          }};
}

}  // namespace flexarm::cli
