#pragma once
// One flexarm-cli command: its name, a one-line summary for `flexarm-cli --help`, and how it
// defines its own options on a CLI11 parser (the options of one command are not accepted by
// another: `check --dpi 3` is refused). main.cpp holds the table of commands.
#include <functional>
#include <string>

#include <CLI/CLI.hpp>

namespace flexarm::cli {

// What runs a command once its parser has read the command line: returns the exit code.
using CommandAction = std::function<int()>;

struct Command {
  std::string name;
  std::string synopsis;  // e.g. "PROJECT [--out FILE.csv] [--t-end T] [--set PATH=VALUE ...]"
  std::string summary;   // one paragraph, shown by `flexarm-cli --help` and `flexarm-cli NAME --help`
  // Adds the command's arguments and options to app (whose name is "flexarm-cli NAME") and
  // returns the action, which reads the parsed values.
  std::function<CommandAction(CLI::App& app)> define;
};

// The commands, one file each in app/cli/.
Command checkCommand();
Command runCommand();
Command inverseCommand();
Command modesCommand();
Command campbellCommand();
Command exportVtkCommand();
Command linearizeCommand();
Command studyCommand();
Command studyCollectCommand();
Command compareCommand();
Command plotCommand();
Command validateCommand();
Command newCommand();
Command importUrdfCommand();
Command staticCommand();

}  // namespace flexarm::cli
