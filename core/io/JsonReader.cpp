#include "io/JsonReader.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "base/Text.hpp"

namespace flexarm {

namespace {

// "line L, column C" of a byte offset in text.
std::string lineColumn(const std::string& text, std::size_t byte) {
  std::size_t line = 1, col = 1;
  for (std::size_t k = 0; k < byte && k < text.size(); ++k) {
    if (text[k] == '\n') {
      ++line;
      col = 1;
    } else {
      ++col;
    }
  }
  return "line " + std::to_string(line) + ", column " + std::to_string(col);
}

// nlohmann's DOM builder, with every key checked against the others of its object. On a key given
// twice it stops the parse and keeps the key's JSON path.
class StrictDomParser : public nlohmann::detail::json_sax_dom_parser<Json> {
  using Base = nlohmann::detail::json_sax_dom_parser<Json>;

 public:
  explicit StrictDomParser(Json& result) : Base(result, true) {}

  bool null() { return value() && Base::null(); }
  bool boolean(bool v) { return value() && Base::boolean(v); }
  bool number_integer(number_integer_t v) { return value() && Base::number_integer(v); }
  bool number_unsigned(number_unsigned_t v) { return value() && Base::number_unsigned(v); }
  bool number_float(number_float_t v, const string_t& s) { return value() && Base::number_float(v, s); }
  bool string(string_t& v) { return value() && Base::string(v); }
  bool binary(binary_t& v) { return value() && Base::binary(v); }
  bool start_object(std::size_t n) {
    if (!value()) return false;
    frames_.push_back({false, 0, {}, {}});
    return Base::start_object(n);
  }
  bool end_object() {
    frames_.pop_back();
    return Base::end_object();
  }
  bool start_array(std::size_t n) {
    if (!value()) return false;
    frames_.push_back({true, 0, {}, {}});
    return Base::start_array(n);
  }
  bool end_array() {
    frames_.pop_back();
    return Base::end_array();
  }
  bool key(string_t& k) {
    Frame& f = frames_.back();
    f.key = k;
    if (!f.keys.insert(k).second) {
      duplicate_ = path();
      return false;
    }
    return Base::key(k);
  }

  const std::string& duplicate() const { return duplicate_; }

 private:
  struct Frame {
    bool array;
    std::size_t count;  // values seen in an array
    std::string key;    // the current key of an object
    std::set<std::string> keys;
  };

  // A value starts: it is the next element of an enclosing array.
  bool value() {
    if (!frames_.empty() && frames_.back().array) ++frames_.back().count;
    return true;
  }

  std::string path() const {
    std::string p;
    for (const Frame& f : frames_) {
      if (f.array)
        p += "[" + std::to_string(f.count == 0 ? 0 : f.count - 1) + "]";
      else
        p += (p.empty() ? "" : ".") + excerpt(f.key);
    }
    return p;
  }

  std::vector<Frame> frames_;
  std::string duplicate_;
};

}  // namespace

Status checkJsonNesting(const std::string& text) {
  int depth = 0;
  bool in_string = false, escaped = false;
  for (std::size_t k = 0; k < text.size(); ++k) {
    const char c = text[k];
    if (in_string) {
      if (escaped)
        escaped = false;
      else if (c == '\\')
        escaped = true;
      else if (c == '"')
        in_string = false;
      continue;
    }
    if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      if (++depth > kMaxJsonDepth)
        return error("not valid JSON at " + lineColumn(text, k) + ": arrays and objects nested more than " +
                     std::to_string(kMaxJsonDepth) + " levels deep");
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
  return {};
}

Json vec3Json(const Eigen::Vector3d& v) { return Json::array({v.x(), v.y(), v.z()}); }

Json inertia6Json(const Eigen::Matrix3d& I) { return Json::array({I(0, 0), I(1, 1), I(2, 2), I(0, 1), I(0, 2), I(1, 2)}); }

Result<Json> parseJsonText(const std::string& text) {
  // A file saved as UTF-16 (Windows' "Unicode") starts with its byte-order mark: say so, rather than
  // echo the bytes JSON cannot start with.
  if (text.rfind("\xFF\xFE", 0) == 0 || text.rfind("\xFE\xFF", 0) == 0)
    return error(std::string("is UTF-16 text (it starts with the byte-order mark ") + (text[0] == '\xFF' ? "FF FE" : "FE FF") +
                 "); FlexArm reads JSON as UTF-8: save it as UTF-8");
  if (Status nesting = checkJsonNesting(text); !nesting) return nesting.error();
  Json doc;
  try {
    StrictDomParser sax(doc);
    const bool complete = Json::sax_parse(text, &sax);
    if (!sax.duplicate().empty())
      return errorAt(sax.duplicate(), "this key is given twice in the same object (each key may appear once)");
    if (!complete) return error("not valid JSON");
  } catch (const Json::parse_error& e) {
    // e.byte is the 1-based position of the error; keep nlohmann's explanation after its own position.
    std::string what = e.what();
    const std::size_t pos = what.find(": ", what.find("parse error"));
    if (pos != std::string::npos) what = what.substr(pos + 2);
    // nlohmann quotes the whole token it last read, which may be a string of megabytes with raw
    // control characters in it: echo its start only, on one line.
    const std::string last_read = "; last read: '";
    if (const std::size_t at = what.find(last_read); at != std::string::npos) {
      std::string token = what.substr(at + last_read.size());
      if (!token.empty() && token.back() == '\'') token.pop_back();
      what = what.substr(0, at) + "; last read: " + inQuotes(token, 60);
    }
    return error("not valid JSON at " + lineColumn(text, e.byte > 0 ? e.byte - 1 : 0) + ": " + excerpt(what, 300));
  } catch (const Json::exception& e) {
    // e.g. a number too large for a double ("1e999"): nlohmann names the token, find where it is.
    std::string what = e.what();
    const std::size_t q0 = what.find('\''), q1 = what.rfind('\'');
    std::string where;
    if (q0 != std::string::npos && q1 > q0) {
      const std::size_t at_byte = text.find(what.substr(q0 + 1, q1 - q0 - 1));
      if (at_byte != std::string::npos) where = " at " + lineColumn(text, at_byte);
    }
    const std::size_t bracket = what.find("] ");
    if (bracket != std::string::npos) what = what.substr(bracket + 2);
    return error("not valid JSON" + where + ": " + excerpt(what, 200));
  }
  return doc;
}

std::string describeJson(const Json& j) {
  switch (j.type()) {
    case Json::value_t::null: return "null";
    case Json::value_t::boolean: return std::string("boolean ") + (j.get<bool>() ? "true" : "false");
    case Json::value_t::string: {
      return "string " + inQuotes(j.get<std::string>(), 40);
    }
    case Json::value_t::number_integer:
    case Json::value_t::number_unsigned:
    case Json::value_t::number_float: return "number " + formatNumber(j.get<double>());
    case Json::value_t::array: return "an array";
    case Json::value_t::object: return "an object";
    default: return "an unsupported value";
  }
}

JsonObjectReader::JsonObjectReader(const Json* j, std::string path, Diagnostics& diag) : path_(std::move(path)), diag_(diag) {
  if (j == nullptr) return;
  if (!j->is_object()) {
    diag_.error(path_, "must be an object, got " + describeJson(*j));
    return;
  }
  obj_ = j;
}

bool JsonObjectReader::has(const std::string& key) const { return obj_ && obj_->contains(key); }

const Json* JsonObjectReader::raw(const std::string& key, Need need) {
  known_.insert(key);
  if (!obj_) return nullptr;
  auto it = obj_->find(key);
  if (it == obj_->end()) {
    if (need == Need::Required) diag_.error(pathOf(key), "is missing");
    return nullptr;
  }
  return &*it;
}

bool JsonObjectReader::number(const std::string& key, double& out, Need need, Range range) {
  const Json* j = raw(key, need);
  if (!j) return false;
  if (!j->is_number()) {
    diag_.error(pathOf(key), "must be a number, got " + describeJson(*j));
    return false;
  }
  const double x = j->get<double>();
  if (!std::isfinite(x)) {
    diag_.error(pathOf(key), "must be a finite number");
    return false;
  }
  if (range == Range::Positive && !(x > 0.0)) {
    diag_.error(pathOf(key), "must be > 0, got " + formatNumber(x));
    return false;
  }
  if (range == Range::NonNegative && x < 0.0) {
    diag_.error(pathOf(key), "must be >= 0, got " + formatNumber(x));
    return false;
  }
  out = x;
  return true;
}

bool JsonObjectReader::integer(const std::string& key, long& out, Need need, long min_value) {
  const Json* j = raw(key, need);
  if (!j) return false;
  if (!j->is_number_integer() && !(j->is_number_float() && std::floor(j->get<double>()) == j->get<double>())) {
    diag_.error(pathOf(key), "must be an integer, got " + describeJson(*j));
    return false;
  }
  const double x = j->get<double>();
  if (x < static_cast<double>(min_value) || x > 9.0e15) {
    diag_.error(pathOf(key), "must be an integer >= " + std::to_string(min_value) + ", got " + formatNumber(x));
    return false;
  }
  out = static_cast<long>(x);
  return true;
}

bool JsonObjectReader::string(const std::string& key, std::string& out, Need need) {
  const Json* j = raw(key, need);
  if (!j) return false;
  if (!j->is_string()) {
    diag_.error(pathOf(key), "must be a string, got " + describeJson(*j));
    return false;
  }
  if (!isValidUtf8(j->get_ref<const std::string&>())) {
    diag_.error(pathOf(key), "is not valid UTF-8 text");
    return false;
  }
  out = j->get<std::string>();
  return true;
}

bool JsonObjectReader::numbers(const std::string& key, std::vector<double>& out, Need need, std::size_t min_count) {
  const Json* j = raw(key, need);
  if (!j) return false;
  if (!j->is_array()) {
    diag_.error(pathOf(key), "must be an array of numbers, got " + describeJson(*j));
    return false;
  }
  if (j->size() < min_count) {
    diag_.error(pathOf(key), "must have at least " + std::to_string(min_count) + " numbers, got " + std::to_string(j->size()));
    return false;
  }
  std::vector<double> values;
  for (std::size_t k = 0; k < j->size(); ++k) {
    const Json& e = (*j)[k];
    if (!e.is_number() || !std::isfinite(e.get<double>())) {
      diag_.error(pathOf(key) + "[" + std::to_string(k) + "]", "must be a finite number, got " + describeJson(e));
      return false;
    }
    values.push_back(e.get<double>());
  }
  out = std::move(values);
  return true;
}

bool JsonObjectReader::vector3(const std::string& key, Eigen::Vector3d& out, Need need) {
  std::vector<double> v;
  if (!numbers(key, v, need, 3)) return false;
  if (v.size() != 3) {
    diag_.error(pathOf(key), "must have exactly 3 numbers [x, y, z], got " + std::to_string(v.size()));
    return false;
  }
  out = Eigen::Vector3d(v[0], v[1], v[2]);
  return true;
}

int JsonObjectReader::choice(const std::string& key, const std::vector<std::string>& choices, Need need, int default_index) {
  std::string s;
  if (!string(key, s, need)) return has(key) ? -1 : default_index;
  for (std::size_t k = 0; k < choices.size(); ++k)
    if (choices[k] == s) return static_cast<int>(k);
  std::string list;
  for (std::size_t k = 0; k < choices.size(); ++k) list += (k ? ", " : "") + choices[k];
  diag_.error(pathOf(key), "unknown value " + inQuotes(s) + " (expected one of: " + list + ")");
  return -1;
}

JsonObjectReader JsonObjectReader::object(const std::string& key, Need need) {
  const Json* j = raw(key, need);
  return JsonObjectReader(j, pathOf(key), diag_);
}

const Json* JsonObjectReader::array(const std::string& key, Need need) {
  const Json* j = raw(key, need);
  if (!j) return nullptr;
  if (!j->is_array()) {
    diag_.error(pathOf(key), "must be an array, got " + describeJson(*j));
    return nullptr;
  }
  return j;
}

void JsonObjectReader::finish() {
  if (!obj_) return;
  for (auto it = obj_->begin(); it != obj_->end(); ++it) {
    if (!known_.count(it.key())) diag_.warning(pathOf(excerpt(it.key())), kUnknownKeyWarning);
  }
}

}  // namespace flexarm
