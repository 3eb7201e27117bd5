#include "io/Overrides.hpp"
#include "base/Result.hpp"
#include "io/ProjectSchema.hpp"
#include "base/Text.hpp"

#include <cctype>
#include <variant>
#include <vector>

namespace flexarm {
namespace {

using Token = std::variant<std::string, std::size_t>;

// The keys and indices of a path such as links[2].flex.E: keys are separated by '.', an index in
// [] follows a key or another index, and nothing else may follow a ']' ("links[0]length",
// "links[0]]" and "links[0]." are refused, not guessed at).
Result<std::vector<Token>> tokenize(const std::string& path) {
  // A key becomes a JSON object's key: the project must stay writable (a variant's `set` keeps it).
  if (!isValidUtf8(path)) return error("the path is not valid UTF-8 text");
  std::vector<Token> out;
  std::size_t i = 0;
  while (i < path.size()) {
    if (path[i] == '[') {
      if (out.empty()) return error("an index [] must follow a key");
      const std::size_t close = path.find(']', i);
      if (close == std::string::npos || close == i + 1) return error("unbalanced or empty [] in the path");
      const std::string digits = path.substr(i + 1, close - i - 1);
      for (char c : digits)
        if (!std::isdigit(static_cast<unsigned char>(c)))
          return error("index " + inQuotes(digits) + " is not a non-negative integer");
      if (digits.size() > 9) return error("index " + excerpt(digits) + " is out of range");  // no list is that long
      out.emplace_back(static_cast<std::size_t>(std::stoul(digits)));
      i = close + 1;
      if (i == path.size() || path[i] == '[') continue;
      if (path[i] == ']') return error("']' without '[' in the path");
      if (path[i] != '.') return error("expected '.', '[' or the end of the path after ']' at " + inQuotes(path.substr(i)));
      ++i;
      if (i == path.size()) return error("empty key at the end of the path");
    } else {
      std::size_t end = i;
      while (end < path.size() && path[end] != '.' && path[end] != '[' && path[end] != ']') ++end;
      if (end < path.size() && path[end] == ']') return error("']' without '[' in the path");
      if (end == i) return error("empty key in the path");
      out.emplace_back(path.substr(i, end - i));
      i = end;
      if (i < path.size() && path[i] == '.') {
        ++i;
        if (i == path.size()) return error("empty key at the end of the path");
      }
    }
  }
  if (out.empty()) return error("the path is empty");
  return out;
}

}  // namespace

Status checkOverridePath(const std::string& path) {
  if (const Result<std::vector<Token>> tokens = tokenize(path); !tokens) return tokens.error();
  return {};
}

const Json* valueAtPath(const Json& doc, const std::string& path) {
  const Result<std::vector<Token>> tokens = tokenize(path);
  if (!tokens) return nullptr;
  const Json* node = &doc;
  for (const Token& t : *tokens) {
    if (const auto* key = std::get_if<std::string>(&t)) {
      if (!node->is_object() || !node->contains(*key)) return nullptr;
      node = &(*node)[*key];
    } else {
      const std::size_t i = std::get<std::size_t>(t);
      if (!node->is_array() || i >= node->size()) return nullptr;
      node = &(*node)[i];
    }
  }
  return node;
}

void refuseUnknownKeysSetBy(const std::vector<std::string>& assignments, Diagnostics& diag) {
  for (const std::string& a : assignments) {
    const std::size_t eq = a.find('=');
    if (eq == std::string::npos || eq == 0) continue;
    diag.escalateWarningsUnder(a.substr(0, eq), kUnknownKeyWarning,
                               "not a field of the project format (misspelled? an override of it would do nothing)");
  }
}

bool applyOverride(Json& doc, const std::string& assignment, Diagnostics& diag) {
  const std::size_t eq = assignment.find('=');
  if (eq == std::string::npos) {
    diag.error("--set " + excerpt(assignment), "expected path=value");
    return false;
  }
  const std::string path = assignment.substr(0, eq);
  const std::string text = assignment.substr(eq + 1);
  const std::string where = "--set " + excerpt(path);
  const Result<std::vector<Token>> parsed = tokenize(path);
  if (!parsed) {
    diag.error(where, parsed.error().text());
    return false;
  }
  const std::vector<Token>& tokens = *parsed;
  if (!isValidUtf8(text)) {
    diag.error(where, "the value is not valid UTF-8 text");
    return false;
  }
  Json value;
  if (Result<Json> json = parseJsonText(text)) {
    value = std::move(*json);
  } else {
    if (const Status nesting = checkJsonNesting(text); !nesting) {
      diag.error(where, nesting.error().text());
      return false;
    }
    if (!json.error().where.empty()) {  // a key given twice
      diag.error(where, json.error().text());
      return false;
    }
    value = text;  // a bare word is a string
  }

  Json* node = &doc;
  std::string walked, schema_path;  // schema_path: walked with "[]" for every index
  for (std::size_t k = 0; k < tokens.size(); ++k) {
    const bool last = k + 1 == tokens.size();
    if (const auto* key = std::get_if<std::string>(&tokens[k])) {
      if (!node->is_object()) {
        diag.error(where, (walked.empty() ? std::string("the project") : walked) + " is not an object");
        return false;
      }
      const std::string schema_key = schema_path + (schema_path.empty() ? "" : ".") + *key;
      if (!node->contains(*key) && !last) {
        // An object of the format that the file leaves out (simulation.solver of a project that sets no
        // solver): made empty, as if the file had it. Anything else cannot be reached.
        if (!std::holds_alternative<std::string>(tokens[k + 1]) || schema::keysUnder(schema_key).empty()) {
          diag.error(where, inQuotes(*key) + " does not exist" + (walked.empty() ? std::string() : " in " + excerpt(walked)));
          return false;
        }
        (*node)[*key] = Json::object();
      }
      if (last && value.is_null()) {  // "path=null" removes the key
        if (!node->contains(*key)) {
          diag.error(where, inQuotes(*key) + " does not exist" + (walked.empty() ? std::string() : " in " + excerpt(walked)) +
                                ", so it cannot be removed");
          return false;
        }
        node->erase(*key);
        return true;
      }
      walked += (walked.empty() ? "" : ".") + *key;
      schema_path = schema_key;
      node = &(*node)[*key];
    } else {
      const std::size_t index = std::get<std::size_t>(tokens[k]);
      if (!node->is_array()) {
        diag.error(where, walked + " is not an array");
        return false;
      }
      if (index >= node->size()) {
        diag.error(where, walked + " has " + std::to_string(node->size()) + " entries, index " + std::to_string(index) +
                              " is out of range");
        return false;
      }
      walked += "[" + std::to_string(index) + "]";
      schema_path += "[]";
      node = &(*node)[index];
    }
  }
  *node = value;
  return true;
}

}  // namespace flexarm
