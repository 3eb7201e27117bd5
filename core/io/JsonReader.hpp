#pragma once
// Reads one JSON object field by field, recording every problem with its JSON path and
// warning about keys it never asked for.
#include <Eigen/Core>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "base/NumberFormat.hpp"
#include "base/Result.hpp"
#include "base/Text.hpp"
#include "io/Diagnostics.hpp"

namespace flexarm {

// The warning an unknown key in a project file gets (an override that sets one gets an error instead).
inline constexpr const char* kUnknownKeyWarning = "unknown key ignored (it will not be saved)";

using Json = nlohmann::ordered_json;

enum class Need { Required, Optional };
enum class Range { Any, Positive, NonNegative };

std::string describeJson(const Json& j);  // "string \"abc\"", "number -2", "null", ...

// The deepest nesting of arrays and objects a project file (or a --set value) may have: far below
// what overflows the stack in any build, far above what a project needs (about 6).
constexpr int kMaxJsonDepth = 200;

// An error when `text` nests arrays and objects deeper than kMaxJsonDepth ("not valid JSON at line
// L, column C: ..."); checked before parsing, so nothing deep is built.
Status checkJsonNesting(const std::string& text);

// Parses JSON text as FlexArm reads project files: the nesting is limited (checkJsonNesting) and a
// key given twice in one object is an error naming its JSON path (nlohmann would keep the last one).
// Syntax errors say where: "not valid JSON at line 3, column 7: ...".
Result<Json> parseJsonText(const std::string& text);

// The file's forms of a vector, [x, y, z], and of a symmetric inertia, [Ixx, Iyy, Izz, Ixy, Ixz, Iyz],
// as JsonObjectReader::vector3 and the project reader read them back.
Json vec3Json(const Eigen::Vector3d& v);
Json inertia6Json(const Eigen::Matrix3d& I);

class JsonObjectReader {
 public:
  // j may be null (the object is missing); a non-object value is reported as an error.
  JsonObjectReader(const Json* j, std::string path, Diagnostics& diag);

  bool valid() const { return obj_ != nullptr; }
  const std::string& path() const { return path_; }
  // The key as a message shows it: a key of the file (a coordinate, a grid path) may be any text, so it is an excerpt.
  std::string pathOf(const std::string& key) const { return path_.empty() ? excerpt(key) : path_ + "." + excerpt(key); }
  bool has(const std::string& key) const;
  Diagnostics& diagnostics() { return diag_; }

  // Each returns true when a valid value was read into `out` (out is untouched otherwise).
  bool number(const std::string& key, double& out, Need need, Range range = Range::Any);
  bool integer(const std::string& key, long& out, Need need, long min_value);
  bool string(const std::string& key, std::string& out, Need need);
  bool vector3(const std::string& key, Eigen::Vector3d& out, Need need);
  bool numbers(const std::string& key, std::vector<double>& out, Need need, std::size_t min_count);
  // A string that must be one of `choices`; returns its index or -1.
  int choice(const std::string& key, const std::vector<std::string>& choices, Need need, int default_index);
  // The raw value (marks the key as known); nullptr when absent (reported if required).
  const Json* raw(const std::string& key, Need need);
  // A nested object (invalid reader when absent or wrong type; errors reported).
  JsonObjectReader object(const std::string& key, Need need);
  // An array value; nullptr when absent or not an array (errors reported).
  const Json* array(const std::string& key, Need need);

  // Warns about every key that was never read.
  void finish();

 private:
  const Json* obj_ = nullptr;
  std::string path_;
  Diagnostics& diag_;
  std::set<std::string> known_;
};

}  // namespace flexarm
