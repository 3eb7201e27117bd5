#pragma once
// Two-column numeric tables (t, value) from CSV files: '#' comments, an optional header line,
// comma, semicolon, tab or space separators.
#include <filesystem>
#include <string>
#include <vector>

#include "base/Result.hpp"

namespace flexarm {

struct Table {
  std::vector<double> t, value;
};

Result<Table> readTableFile(const std::filesystem::path& file);

}  // namespace flexarm
