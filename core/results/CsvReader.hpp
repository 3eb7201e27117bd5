#pragma once
// Reads a FlexArm results CSV (the layout CsvWriter writes) back into Results: the '#' comment
// lines give the project, variant, solver, outcome and units; empty cells are NaN (no value).
// Values round-trip exactly (they are written with 17 significant digits).
#include <filesystem>
#include <istream>
#include <optional>
#include <string>

#include "base/Result.hpp"
#include "results/Results.hpp"

namespace flexarm {

// An error naming the line (and the file) when the text is not a results table.
Result<Results> readCsv(std::istream& in);
Result<Results> readCsvFile(const std::filesystem::path& file);

}  // namespace flexarm
