#pragma once
// summary.csv of a study: a header, then one row per case (status, divergence and when, wall time,
// message, the scalar metrics). A local study and a study collected from a batch job's result files
// build it from the same two functions, so the two cannot differ in format.
#include <filesystem>
#include <string>
#include <vector>

#include "base/Result.hpp"
#include "model/Model.hpp"
#include "solvers/Study.hpp"

namespace flexarm {

// The header line of the summary of a study of model m (without the newline).
std::string studySummaryHeader(const Model& m);

// The row of one case (without the newline); m is the study's base model (it names the columns).
std::string studySummaryRow(const Model& m, const StudyCaseResult& r);

// The row of a case without a result (status "missing"; the message names the case by number, and
// `problem` why a result file that was there could not be trusted).
std::string studySummaryMissingRow(const Model& m, const StudyCase& c, std::size_t number, const std::string& problem = {});

// The status field of a row ("completed", "diverged", "failed", "cancelled", "invalid", "unwritten" (its
// results could not be written), "missing"),
// or empty when the text is not a row.
std::string studySummaryRowStatus(const std::string& row);

// Why `row` (read back from a result file) is not a complete, well-formed row of case c of a study of
// model m: another case's row, an unknown status, a field missing or too many (truncated), a number
// that is not finite ("nan"). Empty when it is.
std::string studySummaryRowProblem(const Model& m, const StudyCase& c, const std::string& row);

// Writes header and rows to `file` atomically.
Status writeStudySummary(const std::filesystem::path& file, const std::string& header, const std::vector<std::string>& rows);

}  // namespace flexarm
