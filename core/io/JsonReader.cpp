#include "io/JsonReader.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace flexarm {

std::string describeJson(const Json& j) {
  switch (j.type()) {
    case Json::value_t::null: return "null";
    case Json::value_t::boolean: return std::string("boolean ") + (j.get<bool>() ? "true" : "false");
    case Json::value_t::string: {
      std::string s = j.get<std::string>();
      if (s.size() > 40) s = s.substr(0, 40) + "...";
      return "string \"" + s + "\"";
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
  diag_.error(pathOf(key), "unknown value \"" + s + "\" (expected one of: " + list + ")");
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
    if (!known_.count(it.key())) diag_.warning(pathOf(it.key()), "unknown key ignored (it will not be saved)");
  }
}

}  // namespace flexarm
