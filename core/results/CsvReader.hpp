#pragma once
// Reads a FlexArm results CSV (the layout CsvWriter writes) back into Results: the '#' comment
// lines give the project, variant, solver, outcome and units; empty cells are NaN (no value).
// Values round-trip exactly (they are written with 17 significant digits).
#include <filesystem>
#include <istream>
#include <optional>
#include <string>

#include "results/Results.hpp"

namespace flexarm {

// Empty and a reason naming the line when the text is not a results table.
std::optional<Results> readCsv(std::istream& in, std::string& error);
std::optional<Results> readCsvFile(const std::filesystem::path& file, std::string& error);

}  // namespace flexarm
