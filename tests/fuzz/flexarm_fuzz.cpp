// flexarm_fuzz: a mutation fuzzer over the engine's readers (issue 21, item 3). It mutates seed
// inputs - the shipped projects, the broken files of tests/data/bad, table files and results CSVs
// it makes itself, the URDFs of tests/data/urdf and projects/robots, the study.json of study folders it prepares - and
// feeds them to the project loader, --set overrides, the table-file reader, the results-CSV reader,
// the URDF import and a prepared study's reader. An input is a finding when an exception escapes,
// the engine accepts a number that is not finite or refuses without a message, what it accepted
// does not save and read back the same, one input takes longer than --timeout, or the process
// crashes (a sanitizer report in the FLEXARM_SANITIZE build). Findings are saved under --findings and make the exit status 1.
// Deterministic for a given --seed and --iterations. See docs/theory/testing.md, "Fuzzing".
#include <signal.h>
#include <unistd.h>
#include <fcntl.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <iostream>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#ifdef __SANITIZE_ADDRESS__
#include <sanitizer/common_interface_defs.h>
#endif

#include "fuzz/Mutator.hpp"
#include "fuzz/Targets.hpp"
#include "io/ProjectFile.hpp"
#include "results/CsvWriter.hpp"
#include "solvers/Simulation.hpp"

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

namespace {

enum Target { kProject, kOverrides, kTable, kCsv, kUrdf, kStudy, kTargets };
const char* const kTargetNames[kTargets] = {"project", "overrides", "table", "csv", "urdf", "study"};

int targetNumber(const std::string& name) {
  int t = 0;
  while (t < kTargets && name != kTargetNames[t]) ++t;
  return t;
}

struct Options {
  std::uint64_t seed = 1;
  long iterations = 0;   // 0: until --seconds
  double seconds = 0.0;  // 0: until --iterations
#ifdef FLEXARM_SANITIZED
  double timeout = 20.0;  // per input [s]; the sanitizers slow the engine down about 10 times
#else
  double timeout = 2.0;
#endif
  int evaluate_every = 8;
  fs::path projects = FLEXARM_PROJECTS_DIR;
  fs::path bad = fs::path(FLEXARM_TEST_DATA_DIR) / "bad";
  fs::path urdf = fs::path(FLEXARM_TEST_DATA_DIR) / "urdf";
  std::vector<int> targets;  // in turn; empty: all
  fs::path corpus;           // extra seeds in corpus/<target>/
  fs::path findings = "flexarm-fuzz-findings";
  std::string replay_target;  // --replay TARGET FILE: one input, no mutation
  fs::path replay_file;
  bool verbose = false;
};

void usage() {
  std::cout << "usage: flexarm_fuzz [--seed N] [--iterations N] [--seconds S] [--timeout S] [--evaluate-every N]\n"
               "                    [--targets T,T,...] [--projects DIR] [--bad DIR] [--urdf DIR] [--corpus DIR]\n"
               "                    [--findings DIR] [--verbose]\n"
               "       flexarm_fuzz --replay project|overrides|table|csv|urdf|study FILE\n"
               "Mutates seed inputs and feeds them in turn to the targets (all when --targets is not given):\n"
               "project (the project loader), overrides (--set), table (table files), csv (results CSVs),\n"
               "urdf (the URDF import) and study (a prepared study's study.json). Without --iterations or\n"
               "--seconds it runs 10000 inputs.\n"
               "Exit status 1 when there is a finding (saved under --findings), 2 for bad options.\n";
}

bool parseOptions(int argc, char** argv, Options& o) {
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&](const char* what) -> std::string {
      if (i + 1 >= argc) throw std::invalid_argument(a + " needs " + what);
      return argv[++i];
    };
    if (a == "--seed")
      o.seed = std::stoull(value("a number"));
    else if (a == "--iterations")
      o.iterations = std::stol(value("a number"));
    else if (a == "--seconds")
      o.seconds = std::stod(value("a number"));
    else if (a == "--timeout")
      o.timeout = std::stod(value("a number"));
    else if (a == "--evaluate-every")
      o.evaluate_every = std::stoi(value("a number"));
    else if (a == "--projects")
      o.projects = value("a folder");
    else if (a == "--bad")
      o.bad = value("a folder");
    else if (a == "--urdf")
      o.urdf = value("a folder");
    else if (a == "--targets") {
      std::istringstream list(value("a list of targets"));
      for (std::string name; std::getline(list, name, ',');) {
        const int t = targetNumber(name);
        if (t == kTargets) throw std::invalid_argument("unknown target " + name);
        o.targets.push_back(t);
      }
    } else if (a == "--corpus")
      o.corpus = value("a folder");
    else if (a == "--findings")
      o.findings = value("a folder");
    else if (a == "--verbose")
      o.verbose = true;
    else if (a == "--replay") {
      o.replay_target = value("a target");
      o.replay_file = value("a file");
    } else if (a == "--help" || a == "-h") {
      usage();
      std::exit(0);
    } else {
      throw std::invalid_argument("unknown option " + a);
    }
  }
  if (o.iterations < 0 || o.seconds < 0 || o.timeout <= 0 || o.evaluate_every < 0)
    throw std::invalid_argument("--iterations, --seconds, --evaluate-every must be >= 0 and --timeout > 0");
  if (o.iterations == 0 && o.seconds == 0) o.iterations = 10000;
  if (o.targets.empty())
    for (int t = 0; t < kTargets; ++t) o.targets.push_back(t);
  return true;
}

std::string readFile(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

void writeFile(const fs::path& file, const std::string& text) {
  std::ofstream out(file, std::ios::binary | std::ios::trunc);
  out.write(text.data(), static_cast<std::streamsize>(text.size()));
}

std::vector<fs::path> filesIn(const fs::path& dir, const std::string& suffix) {
  std::vector<fs::path> out;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir, ec))
    if (e.is_regular_file() && e.path().string().size() >= suffix.size() &&
        e.path().string().compare(e.path().string().size() - suffix.size(), suffix.size(), suffix) == 0)
      out.push_back(e.path());
  std::sort(out.begin(), out.end());  // the order of the seeds is part of the determinism
  return out;
}

// ------------------------------------------------------------------ the input being run
// Kept for the watchdog (a hang) and the crash handlers, which save it as a finding.
std::mutex g_current_mutex;
std::string g_current;                      // the input's bytes (for overrides: the assignments, one per line, then the project)
std::atomic<std::int64_t> g_started_ns{0};  // 0 when no input is running
char g_crash_file[4096];                    // where a crash writes g_current (set before each input)

std::int64_t nowNs() { return std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now().time_since_epoch()).count(); }

void saveCurrentOnCrash() {  // async-signal-safe: open/write/close only
  if (g_started_ns.load() == 0) {
    // No input is running: LeakSanitizer at exit (what every input left, together), after g_current was
    // destroyed. Saving it as the last input's crash was wrong, and read freed memory.
    const char msg[] = "flexarm_fuzz: a sanitizer report with no input running (a leak at exit): no input saved\n";
    (void)!::write(2, msg, sizeof msg - 1);
    return;
  }
  const int fd = ::open(g_crash_file, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd < 0) return;
  std::size_t done = 0;
  while (done < g_current.size()) {
    const ssize_t n = ::write(fd, g_current.data() + done, g_current.size() - done);
    if (n <= 0) break;
    done += static_cast<std::size_t>(n);
  }
  ::close(fd);
  const char msg[] = "flexarm_fuzz: crash; the input is saved as ";
  (void)!::write(2, msg, sizeof msg - 1);
  (void)!::write(2, g_crash_file, std::strlen(g_crash_file));
  (void)!::write(2, "\n", 1);
}

#ifndef __SANITIZE_ADDRESS__
void onSignal(int sig) {
  saveCurrentOnCrash();
  ::signal(sig, SIG_DFL);
  ::raise(sig);
}
#endif

void installCrashHandlers() {
#ifdef __SANITIZE_ADDRESS__
  __sanitizer_set_death_callback(saveCurrentOnCrash);  // ASan and UBSan (no recovery) report, then call it
#else
  for (int sig : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT}) ::signal(sig, onSignal);
#endif
}

void watchdog(double timeout, const std::atomic<bool>& done) {
  const auto limit = static_cast<std::int64_t>(timeout * 1e9);
  while (!done) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    const std::int64_t started = g_started_ns.load();
    if (started != 0 && nowNs() - started > limit) {
      std::string input;
      {
        std::lock_guard<std::mutex> lock(g_current_mutex);
        input = g_current;
      }
      const fs::path file = fs::path(std::string(g_crash_file) + ".hang");
      writeFile(file, input);
      std::cerr << "flexarm_fuzz: HANG: an input ran longer than " << timeout << " s; saved as " << file.string() << "\n";
      std::_Exit(1);
    }
  }
}

// ------------------------------------------------------------------ seeds

// Every path of a JSON document that an override may name: links[0].flex.material.E, simulation.t_end, ...
void collectPaths(const nlohmann::ordered_json& j, const std::string& at, std::vector<std::string>& out) {
  if (!at.empty()) out.push_back(at);
  if (j.is_object()) {
    for (auto it = j.begin(); it != j.end(); ++it) collectPaths(it.value(), at.empty() ? it.key() : at + "." + it.key(), out);
  } else if (j.is_array()) {
    for (std::size_t i = 0; i < j.size(); ++i) collectPaths(j[i], at + "[" + std::to_string(i) + "]", out);
  }
}

std::string syntheticCsv() {
  flexarm::Results r;
  r.setChannels({{"t", "s"}, {"q.shoulder", "rad"}, {"tip.beam.v", "m"}, {"energy.total", "J"}});
  const double rows[4][4] = {{0, 0.5, -1.5e-07, 12.25},
                             {0.01, 0.49999999999999994, 2e-300, 12.25},
                             {0.02, -3.0e8, std::nan(""), 1e-320},
                             {0.03, 1.7976931348623157e308, -0.0, 5}};
  for (const auto& row : rows) r.appendRow(row);
  r.project_name = "synthetic";
  r.variant = "zero";
  r.solver_description = "CVODE BDF rtol=1e-08 atol=1e-10";
  r.status = flexarm::RunStatus::Diverged;
  r.end_time = 0.03;
  r.message = "tip deflection of beam above 0.5 L";
  std::ostringstream out;
  flexarm::writeCsv(r, out);
  return out.str();
}

std::string realRunCsv(const fs::path& projects) {
  flexarm::LoadedProject p = flexarm::loadProjectFile(projects / "double-pendulum.flexarm.json");
  if (!p.project) return {};
  p.project->simulation.t_end = 0.05;
  std::ostringstream out;
  flexarm::writeCsv(flexarm::simulate(*p.project), out);
  return out.str();
}

struct Seeds {
  std::vector<std::string> inputs[kTargets];
  std::vector<std::string> valid_projects;              // the bases of the overrides
  std::vector<std::vector<std::string>> project_paths;  // per valid project
  std::vector<std::string> all_paths;
};

// A small robot of each kind the import handles: a prismatic joint, a fixed tool, a branch off the chain.
const char* const kSmallRobots[] = {
    R"(<robot name="slider"><link name="base"/>
<joint name="slide" type="prismatic"><parent link="base"/><child link="carriage"/><axis xyz="1 0 0"/>
<limit lower="0" upper="1" effort="10" velocity="1"/></joint>
<link name="carriage"><inertial><mass value="2"/><inertia ixx="0.1" ixy="0" ixz="0" iyy="0.1" iyz="0" izz="0.1"/></inertial></link>
<joint name="tool" type="fixed"><parent link="carriage"/><child link="tool0"/><origin xyz="0.3 0 0"/></joint>
<link name="tool0"/></robot>
)",
    R"(<robot name="branching"><link name="base"/>
<joint name="a" type="continuous"><parent link="base"/><child link="l1"/><axis xyz="0 0 1"/><dynamics damping="0.1" friction="0.2"/></joint>
<link name="l1"><inertial><origin xyz="0.2 0 0" rpy="0 0 0.5"/><mass value="1"/><inertia ixx="0.01" ixy="0" ixz="0" iyy="0.02" iyz="0" izz="0.02"/></inertial></link>
<joint name="b" type="revolute"><parent link="l1"/><child link="l2"/><origin xyz="0.4 0 0"/><axis xyz="0 1 0"/><limit lower="-1" upper="1" effort="5" velocity="2"/></joint>
<link name="l2"><inertial><mass value="0.5"/></inertial></link>
<joint name="c" type="revolute"><parent link="l1"/><child link="camera"/><origin xyz="0.1 0.1 0"/><axis xyz="1 0 0"/><limit lower="-1" upper="1" effort="5" velocity="2"/></joint>
<link name="camera"><inertial><mass value="0.2"/><inertia ixx="0.001" ixy="0" ixz="0" iyy="0.001" iyz="0" izz="0.001"/></inertial></link>
</robot>
)"};

Seeds makeSeeds(const Options& o, fuzz::Targets& targets) {
  Seeds s;
  for (const fs::path& f : filesIn(o.projects, ".flexarm.json")) {
    const std::string text = readFile(f);
    s.inputs[kProject].push_back(text);
    if (flexarm::parseProjectText(text, o.projects).project) {
      s.valid_projects.push_back(text);
      std::vector<std::string> paths;
      collectPaths(nlohmann::ordered_json::parse(text), "", paths);
      s.all_paths.insert(s.all_paths.end(), paths.begin(), paths.end());
      s.project_paths.push_back(std::move(paths));
    }
  }
  for (const fs::path& f : filesIn(o.bad, ".json")) s.inputs[kProject].push_back(readFile(f));
  if (!s.valid_projects.empty()) {
    const std::string& base = s.valid_projects.front();
    s.inputs[kProject].push_back(fuzz::Targets::projectWithTableFile(base, "table.csv"));
  }
  s.inputs[kTable] = {"t,value\n0,0\n0.5,1\n1,0\n", "# a drive torque\n# t [s]; tau [N m]\n0;1\n0.25;2\n1;-2\n",
                      "0\t1\r\n1\t2\r\n2\t0\r\n", "time value extra\n0 0 7\n1e-3 1e-3 7\n2 -4.5e2 7\n", "+0,+1\n1.5,.5\n"};
  std::string sine = "t,value\n";
  for (int k = 0; k <= 100; ++k) sine += std::to_string(0.01 * k) + "," + std::to_string(std::sin(0.1 * k)) + "\n";
  s.inputs[kTable].push_back(sine);
  s.inputs[kCsv] = {syntheticCsv(), "t,q.a\n0,1\n0.1,2\n", "t\n0\n"};
  if (std::string real = realRunCsv(o.projects); !real.empty()) s.inputs[kCsv].push_back(real);
  for (const fs::path& f : filesIn(o.urdf, ".urdf")) s.inputs[kUrdf].push_back(readFile(f));
  for (const fs::path& f : filesIn(o.projects / "robots", ".urdf")) s.inputs[kUrdf].push_back(readFile(f));
  for (const char* robot : kSmallRobots) s.inputs[kUrdf].push_back(robot);
  // Study folders (each shipped project with a study), prepared only for the study target: their
  // study.json as written, and one with overrides and an end time.
  if (std::find(o.targets.begin(), o.targets.end(), kStudy) != o.targets.end())
    for (const fs::path& f : filesIn(o.projects, ".flexarm.json"))
      if (std::string manifest = targets.prepareStudy(f, {}, 0.0); !manifest.empty()) {
        s.inputs[kStudy].push_back(manifest);
        if (std::string other = targets.prepareStudy(f, {"simulation.output_rate=50"}, 0.25); !other.empty())
          s.inputs[kStudy].push_back(other);
      }
  if (!o.corpus.empty())
    for (int t = 0; t < kTargets; ++t)
      for (const fs::path& f : filesIn(o.corpus / kTargetNames[t], "")) s.inputs[t].push_back(readFile(f));
  return s;
}

// ------------------------------------------------------------------ overrides

std::vector<std::string> makeAssignments(fuzz::Rng& rng, fuzz::Mutator& m, const Seeds& seeds, std::size_t base) {
  std::vector<std::string> out;
  const std::size_t n = 1 + (rng.chance(30) ? rng.below(3) : 0);
  const std::vector<std::string>& own = seeds.project_paths[base];
  const std::vector<std::string>& values = fuzz::interestingValues();
  for (std::size_t k = 0; k < n; ++k) {
    const std::vector<std::string>& paths = rng.chance(80) ? own : seeds.all_paths;
    std::string path = paths[rng.below(paths.size())];
    std::string value = values[rng.below(values.size())];
    if (rng.chance(15)) value = m.mutate(value, values);
    if (rng.chance(10)) value = "null";
    std::string a = path + "=" + value;
    if (rng.chance(25)) a = m.mutate(a, {path, value});  // the path itself bent
    out.push_back(a);
  }
  return out;
}

// ------------------------------------------------------------------ the loop

struct Tally {
  long inputs = 0, accepted = 0, refused = 0;
  double slowest = 0.0;  // [s]
};

struct Finding {
  std::string target, what;
  fs::path file;
};

class Runner {
 public:
  Runner(const Options& o, const fs::path& scratch) : o_(o), targets_(scratch, o.evaluate_every) {}

  // One input to one target, judged. `saved` is what the findings file holds.
  void run(int target, const std::string& saved, const std::function<fuzz::Outcome()>& call, long iteration) {
    const std::string base = (o_.findings / (std::string(kTargetNames[target]) + "-" + std::to_string(iteration))).string();
    {
      std::lock_guard<std::mutex> lock(g_current_mutex);
      g_current = saved;
      std::snprintf(g_crash_file, sizeof g_crash_file, "%s.crash", base.c_str());
    }
    const std::int64_t start = nowNs();
    g_started_ns = start;
    fuzz::Outcome out;
    try {
      out = call();
    } catch (const std::exception& e) {
      out.finding = std::string("exception escaped: ") + e.what();
    } catch (...) {
      out.finding = "a non-standard exception escaped";
    }
    g_started_ns = 0;
    Tally& t = tally[target];
    ++t.inputs;
    ++(out.accepted ? t.accepted : t.refused);
    t.slowest = std::max(t.slowest, 1e-9 * static_cast<double>(nowNs() - start));
    if (!out.finding.empty()) {
      const fs::path file = base + ".finding";
      writeFile(file, saved);
      findings.push_back({kTargetNames[target], out.finding, file});
      std::cerr << "flexarm_fuzz: FINDING (" << kTargetNames[target] << ", input " << iteration << "): " << out.finding
                << "\n  saved as " << file.string() << "\n";
    }
    last_accepted = out.accepted && out.finding.empty();
  }

  fuzz::Targets& targets() { return targets_; }
  Tally tally[kTargets];
  std::vector<Finding> findings;
  bool last_accepted = false;

 private:
  const Options& o_;
  fuzz::Targets targets_;
};

int replay(const Options& o, const fs::path& scratch) {
  Runner runner(o, scratch);
  const std::string input = readFile(o.replay_file);
  const int t = targetNumber(o.replay_target);
  if (t == kTargets) {
    std::cerr << "flexarm_fuzz: --replay takes project, overrides, table, csv, urdf or study\n";
    return 2;
  }
  if (t == kStudy) {  // the study folders the input's "source" may name
    Options study = o;
    study.targets = {kStudy};
    (void)makeSeeds(study, runner.targets());
  }
  // An overrides finding: "--set <assignment>" lines, an empty line, then the project (an
  // assignment with a newline in it is read as far as that newline).
  std::vector<std::string> sets;
  std::string project;
  if (t == kOverrides) {
    std::istringstream in(input);
    std::string line;
    while (std::getline(in, line) && line.rfind("--set ", 0) == 0) sets.push_back(line.substr(6));
    project.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  fuzz::Targets& tg = runner.targets();
  runner.run(
      t, input,
      [&]() {
        switch (t) {
          case kProject: return tg.project(input);
          case kOverrides: return tg.overrides(project, sets);
          case kTable: return tg.table(input);
          case kCsv: return tg.csv(input);
          case kUrdf: return tg.urdf(input);
          default: return tg.study(input);
        }
      },
      0);
  std::cout << "flexarm_fuzz: replay " << o.replay_file.string() << ": " << (runner.tally[t].accepted ? "accepted" : "refused")
            << ", " << runner.findings.size() << " findings\n";
  return runner.findings.empty() ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  try {
    parseOptions(argc, argv, o);
  } catch (const std::exception& e) {
    std::cerr << "flexarm_fuzz: " << e.what() << "\n";
    usage();
    return 2;
  }
  std::error_code ec;
  fs::create_directories(o.findings, ec);
  const fs::path scratch = fs::temp_directory_path() / ("flexarm-fuzz-" + std::to_string(::getpid()));
  fs::create_directories(scratch);
  writeFile(scratch / "table.csv", "t,value\n0,0\n0.5,2\n1,1\n");
  installCrashHandlers();
  std::atomic<bool> done{false};
  std::thread dog(watchdog, o.timeout, std::cref(done));
  int rc = 0;
  if (!o.replay_target.empty()) {
    rc = replay(o, scratch);
  } else {
    Runner runner(o, scratch);
    fuzz::Targets& tg = runner.targets();
    const Seeds seeds = makeSeeds(o, tg);
    if (seeds.valid_projects.empty()) {
      std::cerr << "flexarm_fuzz: no valid project in " << o.projects.string() << "\n";
      done = true;
      dog.join();
      return 2;
    }
    for (int t : o.targets)
      if (t != kOverrides && seeds.inputs[t].empty()) {
        std::cerr << "flexarm_fuzz: no seed for the " << kTargetNames[t] << " target\n";
        done = true;
        dog.join();
        return 2;
      }
    fuzz::Rng rng(o.seed);
    fuzz::Mutator mutator(rng);
    // Inputs that were accepted join the seeds they came from (up to a bound), so that mutations
    // reach past the first refusal.
    std::vector<std::string> pool[kTargets];
    for (int t = 0; t < kTargets; ++t) pool[t] = seeds.inputs[t];
    const std::size_t kPoolLimit = 400;
    const auto start = Clock::now();
    long i = 0;
    for (;; ++i) {
      if (o.iterations > 0 && i >= o.iterations) break;
      if (o.seconds > 0 && std::chrono::duration<double>(Clock::now() - start).count() >= o.seconds) break;
      const int target = o.targets[static_cast<std::size_t>(i) % o.targets.size()];
      if (target == kOverrides) {
        const std::size_t base = rng.below(seeds.valid_projects.size());
        const std::vector<std::string> sets = makeAssignments(rng, mutator, seeds, base);
        std::string saved;
        for (const std::string& a : sets) saved += "--set " + a + "\n";
        saved += "\n" + seeds.valid_projects[base];
        runner.run(
            target, saved, [&]() { return tg.overrides(seeds.valid_projects[base], sets); }, i);
      } else {
        std::vector<std::string>& p = pool[target];
        const std::string& from = p[rng.below(p.size())];
        const std::string input = target == kUrdf ? mutator.mutateXml(from, p) : mutator.mutate(from, p);
        runner.run(
            target, input,
            [&]() {
              switch (target) {
                case kProject: return tg.project(input);
                case kTable: return tg.table(input);
                case kCsv: return tg.csv(input);
                case kUrdf: return tg.urdf(input);
                default: return tg.study(input);
              }
            },
            i);
        if (runner.last_accepted && input.size() < (std::size_t{256} << 10)) {
          if (p.size() < kPoolLimit)
            p.push_back(input);
          else if (kPoolLimit > seeds.inputs[target].size())
            p[seeds.inputs[target].size() + rng.below(kPoolLimit - seeds.inputs[target].size())] = input;
        }
      }
      if (o.verbose && (i + 1) % 10000 == 0) std::cerr << "flexarm_fuzz: " << (i + 1) << " inputs\n";
    }
    const double wall = std::chrono::duration<double>(Clock::now() - start).count();
    std::ostringstream line;
    line << "flexarm_fuzz: seed " << o.seed << ", " << i << " inputs in " << static_cast<long>(wall * 10) / 10.0 << " s:";
    const char* separator = " ";
    for (int t = 0; t < kTargets; ++t) {
      const Tally& tl = runner.tally[t];
      if (std::find(o.targets.begin(), o.targets.end(), t) == o.targets.end()) continue;
      line << separator << kTargetNames[t] << " " << tl.inputs << " (accepted " << tl.accepted << ", refused " << tl.refused
           << ", slowest " << static_cast<long>(tl.slowest * 1000) << " ms)";
      separator = "; ";
    }
    line << "; " << tg.evaluations() << " equation evaluations; " << runner.findings.size() << " findings";
    std::cout << line.str() << std::endl;
    rc = runner.findings.empty() ? 0 : 1;
  }
  done = true;
  dog.join();
  fs::remove_all(scratch, ec);
  return rc;
}
