#include "SlurmStudy.hpp"

#include <sys/wait.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <sstream>

#include "CliSupport.hpp"
#include "base/Files.hpp"

namespace fs = std::filesystem;

namespace flexarm::cli {

namespace {

// Slurm's default MaxArraySize: array indices 0 ... 1000.
constexpr long kDefaultMaxArraySize = 1001;

std::string shellQuoted(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

struct Shell {
  int exit_code = -1;  // 127: not found
  std::string output;  // standard output and error
};

// Runs a command through /bin/sh and returns its exit code and output.
Shell shell(const std::string& command) {
  Shell r;
  FILE* pipe = ::popen((command + " 2>&1 < /dev/null").c_str(), "r");
  if (!pipe) return r;
  char buffer[4096];
  for (std::size_t n; (n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0;) r.output.append(buffer, n);
  const int status = ::pclose(pipe);
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128;
  while (!r.output.empty() && (r.output.back() == '\n' || r.output.back() == ' ')) r.output.pop_back();
  return r;
}

fs::path slurmDir(const StudyFolder& study) { return study.dir / "slurm"; }
fs::path tasksFile(const StudyFolder& study, int n) { return slurmDir(study) / ("tasks-" + std::to_string(n) + ".txt"); }
fs::path jobsFile(const StudyFolder& study) { return slurmDir(study) / "jobs.txt"; }

// The recorded submissions: job id -> submission number.
std::vector<std::pair<std::string, int>> recordedJobs(const StudyFolder& study) {
  std::vector<std::pair<std::string, int>> jobs;
  const Result<std::string> text = readRegularFile(jobsFile(study));
  if (!text) return jobs;
  std::istringstream in(*text);
  std::string id;
  int n = 0;
  while (in >> id >> n) jobs.emplace_back(id, n);
  return jobs;
}

// Line T (1 ...) of tasks-N.txt: the cases of array task T.
std::vector<std::vector<std::size_t>> taskCases(const StudyFolder& study, int n) {
  std::vector<std::vector<std::size_t>> tasks;
  const Result<std::string> text = readRegularFile(tasksFile(study, n));
  if (!text) return tasks;
  std::istringstream lines(*text);
  for (std::string line; std::getline(lines, line);) {
    std::istringstream words(line);
    tasks.emplace_back();
    for (std::size_t k; words >> k;) tasks.back().push_back(k);
  }
  return tasks;
}

// The cluster's MaxArraySize from `scontrol show config`, or Slurm's default when it cannot be asked.
long maxArraySize() {
  const Shell config = shell("scontrol show config");
  std::istringstream lines(config.output);
  for (std::string line; std::getline(lines, line);)
    if (line.rfind("MaxArraySize", 0) == 0) {
      const std::size_t eq = line.find('=');
      if (eq != std::string::npos) {
        const long size = std::strtol(line.c_str() + eq + 1, nullptr, 10);
        if (size > 1) return size;
      }
    }
  return kDefaultMaxArraySize;
}

// The program that runs a case: this flexarm-cli (the cluster's nodes see the same file system).
std::string thisProgram() {
  std::error_code ec;
  const fs::path self = fs::read_symlink("/proc/self/exe", ec);
  return ec ? std::string("flexarm-cli") : self.string();
}

// #SBATCH lines take no shell quoting; Slurm reads a value in double quotes as one word.
std::string sbatchValue(const std::string& s) { return s.find_first_of(" \t") == std::string::npos ? s : "\"" + s + "\""; }

std::string jobScript(const StudyFolder& study, int n, std::size_t cases, std::size_t tasks, const SlurmOptions& o) {
  const std::string dir = fs::absolute(study.dir).string();
  std::string name = "flexarm-";  // "flexarm-Spin-up-beam-seed-000": letters and digits, one '-' between words
  for (char c : study.base.name.substr(0, 40))
    if (std::isalnum(static_cast<unsigned char>(c)))
      name += c;
    else if (name.back() != '-')
      name += '-';
  if (name.back() == '-') name.pop_back();
  std::ostringstream s;
  s << "#!/bin/bash\n"
    << "# FlexArm study \"" << study.base.name << "\": " << cases << " case" << (cases == 1 ? "" : "s") << " in " << tasks
    << " array task" << (tasks == 1 ? "" : "s") << ", written by\n"
    << "#   " << commandLine() << "\n"
    << "# Task T runs the cases on line T of tasks-" << n << ".txt; each case writes its CSV and then\n"
    << "# results/K.result. Submit the cases still without a result: flexarm-cli study " << shellQuoted(dir)
    << " --resume --slurm\n"
    << "# Progress: flexarm-cli study --status " << shellQuoted(dir) << "; summary.csv: flexarm-cli study-collect "
    << shellQuoted(dir) << "\n"
    << "#SBATCH --job-name=" << name << "\n"
    << "#SBATCH --array=1-" << tasks << "\n"
    << "#SBATCH --output=" << sbatchValue(dir + "/slurm/job-" + std::to_string(n) + "-task-%a.out") << "\n";
  if (!o.partition.empty()) s << "#SBATCH --partition=" << sbatchValue(o.partition) << "\n";
  if (!o.time.empty()) s << "#SBATCH --time=" << o.time << "\n";
  s << "#SBATCH --cpus-per-task=" << o.cpus_per_task.value_or(1) << "\n";
  for (const std::string& arg : o.sbatch_args) s << "#SBATCH " << arg << "\n";
  s << "set -u\n"
    << "study=" << shellQuoted(dir) << "\n"
    << "cases=$(sed -n \"${SLURM_ARRAY_TASK_ID}p\" \"$study/slurm/tasks-" << n << ".txt\")\n"
    << "status=0\n"
    << "for k in $cases; do\n"
    << "  " << shellQuoted(thisProgram()) << " study \"$study\" --case \"$k\" || status=$?\n"
    << "done\n"
    << "exit \"$status\"\n";
  return s.str();
}

}  // namespace

int submitStudyCases(const StudyFolder& study, const std::vector<std::size_t>& cases, const SlurmOptions& o) {
  const long max_tasks = o.array_max ? *o.array_max : (o.submit ? maxArraySize() : kDefaultMaxArraySize) - 1;
  const std::size_t tasks = std::min<std::size_t>(cases.size(), static_cast<std::size_t>(std::max(1L, max_tasks)));
  std::error_code ec;
  fs::create_directories(slurmDir(study), ec);
  int n = 1;
  while (fs::exists(slurmDir(study) / ("job-" + std::to_string(n) + ".sh"))) ++n;
  // Contiguous chunks: the first (cases % tasks) tasks run one case more.
  std::string lines;
  for (std::size_t t = 0, next = 0; t < tasks; ++t) {
    const std::size_t count = cases.size() / tasks + (t < cases.size() % tasks ? 1 : 0);
    for (std::size_t j = 0; j < count; ++j) lines += (j ? " " : "") + std::to_string(cases[next++]);
    lines += "\n";
  }
  const fs::path script = slurmDir(study) / ("job-" + std::to_string(n) + ".sh");
  if (Status written = writeFileAtomically(tasksFile(study, n), lines); !written) return fail(written.error().text());
  if (Status written = writeFileAtomically(script, jobScript(study, n, cases.size(), tasks, o)); !written)
    return fail(written.error().text());
  fs::permissions(script, fs::perms::owner_exec | fs::perms::group_exec | fs::perms::others_exec, fs::perm_options::add, ec);
  const std::string what = std::to_string(cases.size()) + " case" + (cases.size() == 1 ? "" : "s") + " in " +
                           std::to_string(tasks) + " array task" + (tasks == 1 ? "" : "s");
  if (!o.submit) {
    std::cout << "job script: " << script.string() << " (" << what << "; not submitted)\n"
              << "submit it with: sbatch " << shellQuoted(script.string()) << "\n";
    return kExitOk;
  }
  const Shell sbatch = shell("sbatch --parsable " + shellQuoted(script.string()));
  if (sbatch.exit_code != 0)
    return fail(std::string(sbatch.exit_code == 127
                                ? "sbatch not found (is this a Slurm login node? --no-submit writes the job script only)"
                                : "sbatch refused the job") +
                ":\n" + sbatch.output + "\nthe job script is " + script.string());
  const std::string job = sbatch.output.substr(0, sbatch.output.find_first_of(";\n"));
  std::string jobs;
  for (const auto& [id, k] : recordedJobs(study)) jobs += id + " " + std::to_string(k) + "\n";
  jobs += job + " " + std::to_string(n) + "\n";
  if (Status recorded = writeFileAtomically(jobsFile(study), jobs); !recorded)
    return fail("job " + job + " was submitted but not recorded: " + recorded.error().text());
  std::cout << "submitted job " << job << ": " << what << " (" << script.string() << ")\n"
            << "progress: flexarm-cli study --status " << shellQuoted(study.dir.string()) << "\n"
            << "summary.csv: flexarm-cli study-collect " << shellQuoted(study.dir.string()) << "\n";
  return kExitOk;
}

void forgetSubmissions(const StudyFolder& study) {
  std::error_code ec;
  fs::remove(jobsFile(study), ec);  // the old scripts may stay; --status and --resume no longer ask about their jobs
}

SlurmCaseStates slurmCaseStates(const StudyFolder& study) {
  SlurmCaseStates out;
  const std::vector<std::pair<std::string, int>> jobs = recordedJobs(study);
  if (jobs.empty()) return out;
  out.submitted = true;
  std::map<std::string, int> submission;
  std::string ids;
  for (const auto& [id, n] : jobs) {
    submission[id] = n;
    ids += (ids.empty() ? "" : ",") + id;
  }
  // "JOBID_TASK STATE" per array task -> the task's cases.
  auto forEachTask = [&](const std::string& text, char separator, std::map<std::size_t, std::string>& into) {
    std::istringstream lines(text);
    for (std::string line; std::getline(lines, line);) {
      const std::size_t sep = line.find(separator), under = line.find('_');
      if (sep == std::string::npos || under == std::string::npos || under > sep) continue;
      const std::string id = line.substr(0, under), task = line.substr(under + 1, sep - under - 1);
      if (task.find_first_not_of("0123456789") != std::string::npos || task.empty() || !submission.count(id)) continue;
      std::string state = line.substr(sep + 1);
      state = state.substr(0, state.find(' '));
      const std::vector<std::vector<std::size_t>> tasks = taskCases(study, submission[id]);
      const std::size_t t = std::stoul(task);
      if (t >= 1 && t <= tasks.size())
        for (std::size_t k : tasks[t - 1]) into[k] = state;
    }
  };
  const Shell queue = shell("squeue --noheader --array --format='%i %T' --jobs=" + ids);
  if (queue.exit_code == 0)
    forEachTask(queue.output, ' ', out.queue);
  else if (queue.output.find("Invalid job id") == std::string::npos)  // jobs the controller has forgotten are not queued
    out.notes.push_back("squeue: " + (queue.exit_code == 127 ? std::string("not found") : queue.output));
  const Shell accounts = shell("sacct --noheader --parsable2 --format=JobID,State --jobs=" + ids);
  if (accounts.exit_code == 0)
    forEachTask(accounts.output, '|', out.accounts);
  else
    out.notes.push_back("sacct: " + (accounts.exit_code == 127 ? std::string("not found") : accounts.output));
  return out;
}

}  // namespace flexarm::cli
