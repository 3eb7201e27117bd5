// Issue 45, deliverable 3: the long analyses of flexarm-cli answer Ctrl-C (SIGINT) within half a second
// with exit code 130, as `run` does, and write nothing. The shipped cantilever refined to 200 spatial
// elements (1 200 coordinates) keeps modes, linearize and a Campbell sweep busy for longer than the
// half second after which the signal comes; they ignored it for minutes before.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

namespace fs = std::filesystem;

#if defined(__SANITIZE_ADDRESS__)
constexpr bool kSanitized = true;
#else
constexpr bool kSanitized = false;
#endif

namespace {

struct Interrupted {
  bool finished_before_signal = false;
  bool exited = false;  // on its own after the signal (not killed by it, nor by the test)
  int exit_code = -1;
  double seconds_after_signal = 0.0;
};

// Starts flexarm-cli with `args` (its output to /dev/null), sends SIGINT after `delay` seconds and waits up
// to 20 s for it to exit.
Interrupted interruptCli(const std::vector<std::string>& args, double delay) {
  std::vector<char*> argv{const_cast<char*>(FLEXARM_CLI)};
  for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  const pid_t pid = ::fork();
  if (pid == 0) {
    if (!std::freopen("/dev/null", "w", stdout) || !std::freopen("/dev/null", "w", stderr)) ::_exit(127);
    ::execv(FLEXARM_CLI, argv.data());
    ::_exit(127);
  }
  Interrupted r;
  if (pid < 0) return r;
  int status = 0;
  std::this_thread::sleep_for(std::chrono::duration<double>(delay));
  if (::waitpid(pid, &status, WNOHANG) == pid) {
    r.finished_before_signal = true;
    return r;
  }
  ::kill(pid, SIGINT);
  const auto signalled = std::chrono::steady_clock::now();
  while (std::chrono::steady_clock::now() - signalled < std::chrono::seconds(20)) {
    if (::waitpid(pid, &status, WNOHANG) == pid) {
      r.seconds_after_signal = std::chrono::duration<double>(std::chrono::steady_clock::now() - signalled).count();
      r.exited = WIFEXITED(status);
      r.exit_code = r.exited ? WEXITSTATUS(status) : -1;
      return r;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  ::kill(pid, SIGKILL);
  ::waitpid(pid, &status, 0);
  r.seconds_after_signal = 20.0;
  return r;
}

}  // namespace

TEST(Cli, LongAnalysesAnswerCtrlCWithExit130) {
  const fs::path dir = fs::temp_directory_path() / ("flexarm-cli-interrupt-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const std::string project = std::string(FLEXARM_PROJECTS_DIR) + "/cantilever.flexarm.json";
  const std::string fine = "links[0].flex.elements=200";
  const fs::path model = dir / "model.mat", sweep = dir / "campbell.csv";
  const std::vector<std::vector<std::string>> commands = {
      // Spinning, so that every column of K and C is taken: at rest the grouped columns finish in about
      // 0.5 s, when the signal comes.
      {"modes", project, "--set", fine, "--spin", "5"},
      {"modes", project, "--set", fine, "--lock-joints", "--spin", "5"},
      {"linearize", project, "--set", fine, "--out", model.string()},
      {"campbell", project, "--set", fine, "--spin", "0:20:1", "--out", sweep.string()}};
  for (const std::vector<std::string>& args : commands) {
    std::string line;
    for (const std::string& a : args) line += " " + a;
    const Interrupted r = interruptCli(args, 0.5);
    ASSERT_FALSE(r.finished_before_signal) << line << ": done within 0.5 s, nothing to interrupt";
    EXPECT_TRUE(r.exited) << line;
    EXPECT_EQ(r.exit_code, 130) << line;
    // The latency is a claim of the Release build: under the sanitizers the dense factorization that
    // cannot be interrupted takes seconds, and that pass checks the exit code and the files only.
    if (!kSanitized) EXPECT_LT(r.seconds_after_signal, 0.5) << line;
  }
  EXPECT_FALSE(fs::exists(model));
  EXPECT_FALSE(fs::exists(sweep));
  fs::remove_all(dir);
}
