#pragma once
// CSV export: '#' comment lines (program version, project, variant, solver with tolerances and
// coupling order, outcome, units), one header row of channel names, then one row per output time
// with values printed to round-trip precision (readCsv in CsvReader.hpp reads it back).
// A NaN value (no value: in a comparison, a run that had ended) is written as an empty cell.
#include <filesystem>
#include <ostream>
#include <string>

#include "base/Result.hpp"
#include "results/Results.hpp"

namespace flexarm {

void writeCsv(const Results& results, std::ostream& out);
Status writeCsvFile(const Results& results, const std::filesystem::path& file);

}  // namespace flexarm
