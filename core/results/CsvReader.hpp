#pragma once
// Reads a FlexArm results CSV back into Results; empty cells are NaN (no value) and values round-trip
// exactly (they are written with 17 significant digits). Two layouts are read:
//  - today's (CsvWriter.hpp): the header row first, the run's description in the JSON sidecar
//    X.meta.json beside X.csv (CsvMetadata.hpp);
//  - FlexArm's earlier one: '#' comment lines before the header give the project, variant, solver,
//    outcome, statistics and units.
// Without either, the units are empty and the status is "completed".
#include <filesystem>
#include <istream>
#include <optional>
#include <string>

#include "base/Result.hpp"
#include "results/Results.hpp"

namespace flexarm {

// The CSV text alone (no sidecar); an error naming the line when it is not a results table.
Result<Results> readCsv(std::istream& in);

// The file and, when it exists, its sidecar. An error names the file (the CSV or the sidecar) and
// what is wrong: "results.meta.json: status: unknown value ...".
Result<Results> readCsvFile(const std::filesystem::path& file);

}  // namespace flexarm
