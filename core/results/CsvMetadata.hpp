#pragma once
// The JSON sidecar of a results CSV. The CSV itself holds only the header row of channel names and
// the data rows, so that pandas.read_csv, MATLAB's readtable, LibreOffice and csv.DictReader open it
// without options; what describes the run is in X.meta.json beside X.csv:
//   {"format": "flexarm-results-metadata", "version": 1, "flexarm": "0.9.0",
//    "project": "...", "variant": "...", "solver": "CVODE BDF rtol=1e-08 ...",
//    "status": "completed" | "failed" | "cancelled" | "diverged", "end_time": 10.0, "message": "...",
//    "stats": {"steps": 812, "rhs_evaluations": ..., ..., "wall_time": 0.42},
//    "channels": [{"name": "t", "unit": "s"}, {"name": "q.shoulder", "unit": "rad"}, ...]}
// Numbers are written to round-trip precision with '.' under any locale.
#include <filesystem>
#include <ostream>
#include <string>

#include "base/Result.hpp"
#include "results/Results.hpp"

namespace flexarm {

// The sidecar of a results file: X.meta.json for X.csv (any case of ".csv"); for a file with another
// extension, ".meta.json" is appended to the whole name (out.txt -> out.txt.meta.json).
std::filesystem::path csvMetadataFile(const std::filesystem::path& csv_file);

// The sidecar's JSON text for `results` (its description, outcome, statistics and channel units).
void writeCsvMetadata(const Results& results, std::ostream& out);

// Applies a sidecar's text to `results` read from its CSV: project, variant, solver, outcome, end
// time, message, statistics and the units of the channels. The sidecar's channels must be the CSV's
// columns, in order. An error names the JSON path and what is wrong ("status: unknown value ...");
// `results` is unchanged then. Keys this version does not know are ignored (a newer FlexArm may add some).
Status readCsvMetadata(const std::string& text, Results& results);

}  // namespace flexarm
