#pragma once
// A study prepared in a folder, so that its cases can run one at a time, anywhere and in any order:
// as the tasks of a batch job, or in a later run that resumes a killed or cancelled one. DIR holds
//   study.json            the source project, the overrides, the end time and the numbered cases
//   project.flexarm.json  a frozen copy of the project file: later edits of the source change nothing
//   results/K.result      once case K (1 ... N) has run: its row of summary.csv on one line (a
//                         newline in a message as \n), then "csv <checksum>" of its CSV
//                         (base/Checksum.hpp), written atomically after the case's CSV, so that a
//                         result means a complete case. A result is verified, not trusted: another
//                         case's row, a truncated or corrupt one, or a CSV missing or changed since
//                         makes the case not done (caseResultProblem says why)
//   <case>.csv, <case>.meta.json, summary.csv  as a local study writes them
// Relative file names in the project (table laws) still resolve against the source project's folder.
#include <atomic>
#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

#include "base/Result.hpp"
#include "model/Project.hpp"
#include "solvers/Study.hpp"

namespace flexarm {

struct StudyFolder {
  std::filesystem::path dir;
  std::filesystem::path source;    // the project file it was prepared from (absolute)
  std::filesystem::path base_dir;  // where the project's relative file names point (the source's folder)
  std::string project_text;        // the frozen copy
  std::vector<std::string> overrides;
  double t_end = 0.0;            // 0: the project's own
  std::vector<StudyCase> cases;  // case K is cases[K - 1]
  Project base;                  // the project with the overrides: it names the summary's columns
};

// The study of a project file for DIR, in memory (nothing is written): an error when the file
// cannot be read, has errors with the overrides, or defines no study.
Result<StudyFolder> studyFolderFor(const std::filesystem::path& project_file, const std::vector<std::string>& overrides,
                                   double t_end, const std::filesystem::path& dir);

// Writes study.json and the frozen copy (atomically) and creates results/.
Status writeStudyFolder(const StudyFolder& study);

// Reads a prepared study; the error names the file and what is wrong with it.
Result<StudyFolder> openStudyFolder(const std::filesystem::path& dir);

// Whether dir holds a prepared study (a study.json).
bool isStudyFolder(const std::filesystem::path& dir);

// The same study: project text, overrides, end time and cases.
bool sameStudy(const StudyFolder& a, const StudyFolder& b);

// Removes every result (a study that starts afresh).
Status clearCaseResults(const StudyFolder& study);

std::filesystem::path caseResultFile(const StudyFolder& study, std::size_t number);

// The summary status of case `number` ("completed", "diverged", "failed", "cancelled", "invalid",
// "unwritten"), or "missing" without a result that can be trusted.
std::string caseStatus(const StudyFolder& study, std::size_t number);

// Why case `number`'s result file cannot be trusted (then its status is "missing"): "results/3.result:
// it is the row of another case", "its CSV \"a.csv\": no such file", ...; empty when it can or there is none.
std::string caseResultProblem(const StudyFolder& study, std::size_t number);

// A case still to run: without a result, cancelled before its end, or unable to write its results.
bool isPendingStatus(const std::string& status);

// The numbers of the pending cases, in order.
std::vector<std::size_t> pendingCases(const StudyFolder& study);

struct FolderCaseRun {
  StudyCaseResult result;
  Status recorded;  // or why the result file could not be written
};

// Runs case `number` (1 ... N): its CSV, then its result file. A cancelled run also records its row
// (status "cancelled"), which leaves the case pending.
FolderCaseRun runStudyFolderCase(const StudyFolder& study, std::size_t number, const std::atomic<bool>* cancel = nullptr);

struct StudyCollection {
  std::vector<std::string> statuses;  // per case, as caseStatus
  std::vector<std::string> problems;  // per case, as caseResultProblem
  std::string summary_csv;
  Status summary_written;
};

// Writes DIR/summary.csv from the result files: the rows a local study writes, and for a case
// without a result a row with status "missing".
StudyCollection collectStudyFolder(const StudyFolder& study);

}  // namespace flexarm
