#pragma once
// Two-column numeric tables (t, value) from CSV files: '#' comments, an optional header line,
// comma, semicolon, tab or space separators.
#include <filesystem>
#include <string>
#include <vector>

namespace flexarm {

bool readTableFile(const std::filesystem::path& file, std::vector<double>& t, std::vector<double>& value, std::string& why);

}  // namespace flexarm
