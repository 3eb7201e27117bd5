#include "StudyStatus.hpp"

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <map>
#include <optional>

#include "CliSupport.hpp"
#include "SlurmStudy.hpp"
#include "solvers/StudyFolder.hpp"

namespace fs = std::filesystem;

namespace flexarm::cli {

namespace {

// "3, 7, 12" for case numbers (1 ...), at most 20 of them.
std::string caseList(const std::vector<std::size_t>& numbers) {
  std::string out;
  for (std::size_t j = 0; j < numbers.size() && j < 20; ++j) out += (j ? ", " : "") + std::to_string(numbers[j]);
  if (numbers.size() > 20) out += ", ... (" + std::to_string(numbers.size()) + " in all)";
  return out;
}

// The numbers of the cases with each status.
std::map<std::string, std::vector<std::size_t>> byStatus(const std::vector<std::string>& statuses) {
  std::map<std::string, std::vector<std::size_t>> out;
  for (std::size_t k = 0; k < statuses.size(); ++k) out[statuses[k]].push_back(k + 1);
  return out;
}

std::optional<StudyFolder> openOrFail(const std::string& dir) {
  Result<StudyFolder> s = openStudyFolder(dir);
  if (!s) {
    fail(s.error().text());
    return std::nullopt;
  }
  return std::move(*s);
}

}  // namespace

int studyExitCode(const std::vector<std::string>& statuses, bool missing_fails) {
  int code = kExitOk;
  for (const std::string& s : statuses) {
    if (s == "invalid" || s == "unwritten") return kExitBadInput;
    if (s == "cancelled") code = kExitInterrupted;
    if ((s == "failed" || (missing_fails && s == "missing")) && code == kExitOk) code = kExitSolverFailure;
  }
  return code;
}

int collectStudy(const std::string& dir) {
  const std::optional<StudyFolder> study = openOrFail(dir);
  if (!study) return kExitBadInput;
  const StudyCollection collected = collectStudyFolder(*study);
  if (!collected.summary_written) return fail(collected.summary_written.error().text());
  auto cases = byStatus(collected.statuses);
  std::cout << "summary: " << fs::absolute(collected.summary_csv).string() << " (" << study->cases.size() << " cases";
  for (const char* status : {"completed", "diverged", "failed", "invalid", "unwritten", "cancelled", "missing"})
    if (cases.count(status)) std::cout << ", " << cases[status].size() << " " << status;
  std::cout << ")\n";
  for (const char* status : {"failed", "invalid", "unwritten", "cancelled", "missing"})
    if (cases.count(status))
      std::cout << status << ": case" << (cases[status].size() == 1 ? " " : "s ") << caseList(cases[status]) << "\n";
  // A result that was there but cannot be trusted: the case is not done, and this is why.
  for (std::size_t k = 0; k < collected.problems.size(); ++k)
    if (!collected.problems[k].empty()) std::cout << "not done: case " << k + 1 << ": " << collected.problems[k] << "\n";
  if (cases.count("missing") || cases.count("cancelled") || cases.count("unwritten"))
    std::cout << "run them: flexarm-cli study " << dir << " --resume [--slurm]\n";
  return studyExitCode(collected.statuses, true);
}

int printStudyStatus(const std::string& dir) {
  const std::optional<StudyFolder> study = openOrFail(dir);
  if (!study) return kExitBadInput;
  std::vector<std::string> statuses;
  for (std::size_t k = 1; k <= study->cases.size(); ++k) statuses.push_back(caseStatus(*study, k));
  auto cases = byStatus(statuses);
  std::vector<std::size_t> pending = cases["missing"];
  pending.insert(pending.end(), cases["cancelled"].begin(), cases["cancelled"].end());
  pending.insert(pending.end(), cases["unwritten"].begin(), cases["unwritten"].end());
  std::sort(pending.begin(), pending.end());
  std::cout << "study: " << study->base.name << " (" << study->cases.size() << " cases in " << dir << ")\n";
  std::cout << "done: " << cases["completed"].size() << "\n";
  std::cout << "diverged: " << cases["diverged"].size() << "\n";
  for (const char* status : {"failed", "invalid"})
    std::cout << status << ": " << cases[status].size()
              << (cases[status].empty()
                      ? std::string()
                      : " (case" + std::string(cases[status].size() == 1 ? " " : "s ") + caseList(cases[status]) + ")")
              << "\n";
  std::cout << "pending: " << pending.size() << "\n";
  const SlurmCaseStates slurm = slurmCaseStates(*study);
  if (!slurm.submitted || pending.empty()) return kExitOk;
  std::map<std::string, std::vector<std::size_t>> scheduler;  // pending cases by what Slurm says
  for (std::size_t k : pending) {
    if (slurm.queue.count(k))
      scheduler[slurm.queue.at(k) == "PENDING" ? "queued" : "running"].push_back(k);
    else if (slurm.accounts.count(k) && slurm.accounts.at(k) != "PENDING" && slurm.accounts.at(k) != "RUNNING")
      scheduler["ended without a result (" + slurm.accounts.at(k) + ")"].push_back(k);
    else
      scheduler["not queued"].push_back(k);
  }
  for (const auto& [what, numbers] : scheduler)
    std::cout << "  " << what << ": " << numbers.size() << " (case" << (numbers.size() == 1 ? " " : "s ") << caseList(numbers)
              << ")\n";
  for (const std::string& note : slurm.notes) std::cout << "  (" << note << ")\n";
  if (scheduler.count("not queued") || scheduler.size() > scheduler.count("queued") + scheduler.count("running"))
    std::cout << "submit the cases without a job: flexarm-cli study " << dir << " --resume --slurm\n";
  return kExitOk;
}

}  // namespace flexarm::cli
