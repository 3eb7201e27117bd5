#pragma once
// What flexarm-cli says about a prepared study's cases: the exit code their statuses give, the
// summary collected from their result files (study-collect), and the counts of study --status.
#include <string>
#include <vector>

namespace flexarm::cli {

// 2 when a case is invalid or could not write its results, 130 when one was cancelled, 3 when one failed or (with missing_fails)
// has no result, else 0: a diverged case is a result.
int studyExitCode(const std::vector<std::string>& statuses, bool missing_fails = false);

// Writes DIR/summary.csv from the cases' result files and names the missing and failed cases.
int collectStudy(const std::string& dir);

// Prints the counts of completed, diverged, failed, invalid and pending cases of the study in DIR,
// the pending ones split by what Slurm says of them when the study was submitted.
int printStudyStatus(const std::string& dir);

}  // namespace flexarm::cli
