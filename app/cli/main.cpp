// flexarm-cli: the FlexArm engine without a window. One command per file in app/cli/; this file
// holds the table of commands and turns parse errors into exit code 2.
// Exit codes: 0 success, 2 bad input (or output that could not be written), 3 solver failure or
// divergence (results so far are written), 130 interrupted (results so far are written).
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "CliSupport.hpp"
#include "Command.hpp"
#include "Version.hpp"

using namespace flexarm::cli;

namespace {

const std::vector<Command>& commands() {
  static const std::vector<Command> table = {checkCommand(),    runCommand(),          staticCommand(),    modesCommand(),
                                             campbellCommand(), linearizeCommand(),    exportVtkCommand(), inverseCommand(),
                                             studyCommand(),    studyCollectCommand(), compareCommand(),   plotCommand(),
                                             validateCommand(), newCommand(),          importUrdfCommand()};
  return table;
}

// Help text in the program's own words: "usage:" and the command's summary above its options.
class HelpFormatter : public CLI::Formatter {
 public:
  HelpFormatter() {
    label("Usage", "usage");
    label("OPTIONS", "options");
    label("Options", "options");
    label("Positionals", "arguments");
    column_width(28);
  }
};

std::string overview() {
  std::string text =
      "FlexArm command line: dynamics of flexible robot manipulators\n"
      "\n"
      "usage:\n";
  for (const Command& c : commands()) {
    text += "  flexarm-cli " + c.name + " " + c.synopsis + "\n";
    std::string summary = c.summary;
    std::size_t start = 0;
    while (start < summary.size()) {
      const std::size_t end = std::min(summary.find('\n', start), summary.size());
      text += "      " + summary.substr(start, end - start) + "\n";
      start = end + 1;
    }
  }
  text +=
      "  flexarm-cli --help | --version\n"
      "  flexarm-cli COMMAND --help       the command's arguments and options\n"
      "\n"
      "Options take their value as --opt VALUE or --opt=VALUE; --set PATH=VALUE overrides any field\n"
      "of the project by its JSON path before it is read (e.g. --set joints[0].drive.omega0=8\n"
      "--set gravity=[0,0,0]; VALUE is JSON, or a plain word for a string).\n"
      "\n"
      "exit codes: 0 success, 2 bad input, 3 solver failure or divergence (results computed so far\n"
      "are still written), 130 interrupted by Ctrl-C (results so far written)\n";
  return text;
}

int usageError(const std::string& command, const std::string& why) {
  std::cerr << "flexarm-cli" << (command.empty() ? "" : " " + command) << ": " << why << "\n(run 'flexarm-cli "
            << (command.empty() ? "" : command + " ") << "--help' for usage)\n";
  return kExitBadInput;
}

int dispatch(int argc, char** argv) {
  if (argc < 2) {
    std::cerr << overview();
    return kExitBadInput;
  }
  const std::string first = argv[1];
  if (first == "--help" || first == "-h" || first == "help") {
    std::cout << overview();
    return kExitOk;
  }
  if (first == "--version") {
    std::cout << "flexarm-cli " << flexarm::kVersion << "\n";
    return kExitOk;
  }
  const Command* command = nullptr;
  for (const Command& c : commands())
    if (c.name == first) command = &c;
  if (!command) return usageError("", first.rfind('-', 0) == 0 ? "unknown option " + first : "unknown command \"" + first + "\"");

  CLI::App app(command->summary, "flexarm-cli " + command->name);
  app.formatter(std::make_shared<HelpFormatter>());
  app.set_help_flag("--help,-h", "this help");
  app.footer("exit codes: 0 success, 2 bad input, 3 solver failure or divergence, 130 interrupted\n");
  app.allow_extras();  // refused below, in words that name the command
  const CommandAction action = command->define(app);
  try {
    app.parse(argc - 1, argv + 1);  // argv[1], the command, stands as the program's name
  } catch (const CLI::CallForHelp&) {
    std::cout << app.help();
    return kExitOk;
  } catch (const CLI::ParseError& e) {
    return usageError(command->name, e.what());
  }
  for (const std::string& extra : app.remaining()) {
    if (extra.size() > 1 && extra[0] == '-')
      return usageError(command->name, command->name + " has no option " + extra.substr(0, extra.find('=')));
    return usageError(command->name, "unexpected argument \"" + extra + "\"");
  }
  recordCommandLine(argc, argv);
  return action();
}

// What a command printed must have reached standard output: a full disk or /dev/full shows only when
// the buffered text is flushed, and a report that was lost is no success. Both std::cout and printf
// write through stdio's buffer (std::cout is synchronized with it), so one flush tells for both.
int withOutputChecked(int code) {
  errno = 0;
  std::cout.flush();
  const bool failed = std::fflush(stdout) != 0 || std::ferror(stdout) != 0 || !std::cout;
  if (!failed) return code;
  if (errno == 0) {  // an earlier flush failed and dropped its text: one more byte tells why
    std::clearerr(stdout);
    std::fputc('\n', stdout);
    std::fflush(stdout);
  }
  const int why = errno;
  std::cerr << "flexarm-cli: writing to standard output failed" << (why ? std::string(": ") + std::strerror(why) : std::string())
            << "\n";
  return code == kExitOk ? kExitBadInput : code;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return withOutputChecked(dispatch(argc, argv));
  } catch (const std::exception& e) {
    std::cerr << "flexarm-cli: internal error: " << e.what() << "\n";
    return withOutputChecked(kExitSolverFailure);
  }
}
