#pragma once
// Results as CSV that every CSV reader opens without options (pandas.read_csv, MATLAB's readtable,
// LibreOffice, csv.DictReader): the header row of channel names first, then one row per output time
// with values printed to round-trip precision and '.' under any locale; nothing else. A NaN value
// (no value: in a comparison, a run that had ended) is an empty cell. What describes the run (program
// version, project, variant, solver, outcome, statistics, units) is the JSON sidecar X.meta.json
// beside X.csv (results/CsvMetadata.hpp); readCsvFile in CsvReader.hpp reads both back.
#include <filesystem>
#include <ostream>
#include <string>

#include "base/Result.hpp"
#include "results/Results.hpp"

namespace flexarm {

// The CSV alone (for standard output, where no sidecar can go).
void writeCsv(const Results& results, std::ostream& out);

// `file` and then its sidecar (csvMetadataFile), each atomically. An error names the file that could
// not be written; when only the sidecar fails, an older sidecar of the same name is removed, so that
// it never describes another run.
Status writeCsvFile(const Results& results, const std::filesystem::path& file);

}  // namespace flexarm
