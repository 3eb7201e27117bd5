#include "results/CsvWriter.hpp"

#include <charconv>
#include <cmath>
#include <system_error>

#include "base/Files.hpp"
#include "base/Text.hpp"
#include "results/CsvMetadata.hpp"

namespace flexarm {

void writeCsv(const Results& r, std::ostream& out) {
  for (std::size_t c = 0; c < r.channels().size(); ++c) out << (c ? "," : "") << r.channels()[c].name;
  out << "\n";
  char buf[32];
  for (std::size_t row = 0; row < r.rows(); ++row) {
    for (std::size_t c = 0; c < r.channels().size(); ++c) {
      if (c) out << ',';
      if (std::isnan(r.value(row, c))) continue;  // no value (a compared run had ended): an empty cell
      // to_chars, not printf: the C locale may use ',' for the decimal point (see NumberFormat.cpp).
      // The shortest text that reads back as the same double: 0.05, not 0.050000000000000003.
      out.write(buf, std::to_chars(buf, buf + sizeof buf, r.value(row, c)).ptr - buf);
    }
    out << '\n';
  }
}

Status writeCsvFile(const Results& results, const std::filesystem::path& file) {
  if (Status csv = writeFileAtomically(file, [&results](std::ostream& out) { writeCsv(results, out); }); !csv) return csv;
  const std::filesystem::path sidecar = csvMetadataFile(file);
  Status meta = writeFileAtomically(sidecar, [&results](std::ostream& out) { writeCsvMetadata(results, out); });
  if (!meta) {
    // Never a stale description, and never a CSV without its own: the pair is the result, or nothing is.
    std::error_code ec;
    if (std::filesystem::is_regular_file(sidecar, ec)) std::filesystem::remove(sidecar, ec);
    std::filesystem::remove(file, ec);
    return error(meta.error().text() + " (so " + inQuotes(file.string()) +
                 " was removed: a CSV without its description is no result)");
  }
  return meta;
}

}  // namespace flexarm
