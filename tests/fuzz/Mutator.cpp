#include "fuzz/Mutator.hpp"

#include <algorithm>
#include <cctype>
#include <functional>
#include <nlohmann/json.hpp>
#include <utility>

namespace fuzz {

std::uint64_t Rng::next() {
  std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ULL);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

std::size_t Rng::below(std::size_t n) { return static_cast<std::size_t>(next() % n); }

const std::vector<std::string>& interestingValues() {
  static const std::vector<std::string> values = {"nan",
                                                  "NaN",
                                                  "-nan",
                                                  "inf",
                                                  "-inf",
                                                  "Infinity",
                                                  "1e308",
                                                  "-1e308",
                                                  "1e309",
                                                  "1.7976931348623157e308",
                                                  "-0",
                                                  "-0.0",
                                                  "0",
                                                  "1e-320",
                                                  "4.9e-324",
                                                  "2.2250738585072014e-308",
                                                  "99999999999999999999",
                                                  "-99999999999999999999",
                                                  "18446744073709551616",
                                                  "9223372036854775807",
                                                  "-9223372036854775808",
                                                  "2147483648",
                                                  "-2147483649",
                                                  "4294967296",
                                                  "1e-300",
                                                  "1e300",
                                                  "0.1",
                                                  "-1",
                                                  "1",
                                                  "2",
                                                  "3",
                                                  "1000000",
                                                  "1e7",
                                                  "1e100",
                                                  "0x10",
                                                  "1,5",
                                                  "1.",
                                                  ".5",
                                                  "+1",
                                                  "--1",
                                                  "1e",
                                                  "e5",
                                                  "true",
                                                  "false",
                                                  "null",
                                                  "[]",
                                                  "{}",
                                                  "[0,0,0]",
                                                  "[1e308,1e308,1e308]",
                                                  "[null]",
                                                  "\"\"",
                                                  "\"nan\"",
                                                  "\"x\"",
                                                  "\"\\u0000\"",
                                                  "\"\\ud800\"",
                                                  "\"a\\nb\""};
  return values;
}

std::string Mutator::flipBytes(std::string s) {
  if (s.empty()) return s;
  const std::size_t n = 1 + rng_.below(4);
  for (std::size_t k = 0; k < n; ++k) {
    const std::size_t i = rng_.below(s.size());
    if (rng_.chance(50))
      s[i] = static_cast<char>(s[i] ^ (1 << rng_.below(8)));
    else
      s[i] = static_cast<char>(rng_.below(256));
  }
  return s;
}

std::string Mutator::insertBytes(std::string s) {
  static const char* const kTokens[] = {"{", "}", "[",  "]",    ",",  ":", "\"",  "\\",         "=",
                                        ".", "#", "\n", "\r\n", "\t", " ", "\0",  "\xff",       "\xc3\xa9",
                                        "e", "-", "+",  "0",    "9",  ";", "[0]", "[999999999]"};
  const std::size_t at = s.empty() ? 0 : rng_.below(s.size() + 1);
  std::string piece;
  switch (rng_.below(3)) {
    case 0: piece.assign(1 + rng_.below(8), static_cast<char>(rng_.below(256))); break;
    case 1: {
      const char* t = kTokens[rng_.below(sizeof(kTokens) / sizeof(kTokens[0]))];
      piece = *t ? std::string(t) : std::string(1, '\0');
      break;
    }
    default: piece = interestingValues()[rng_.below(interestingValues().size())];
  }
  s.insert(at, piece);
  return s;
}

std::string Mutator::deleteBytes(std::string s) {
  if (s.empty()) return s;
  const std::size_t at = rng_.below(s.size());
  const std::size_t n = 1 + rng_.below(rng_.chance(80) ? 8 : s.size() - at);
  s.erase(at, n);
  return s;
}

std::string Mutator::splice(const std::string& s, const std::string& other) {
  const std::size_t a = s.empty() ? 0 : rng_.below(s.size() + 1);
  const std::size_t b = other.empty() ? 0 : rng_.below(other.size() + 1);
  if (rng_.chance(50)) return s.substr(0, a) + other.substr(b);  // head of one, tail of the other
  const std::size_t len = other.size() > b ? rng_.below(other.size() - b + 1) : 0;
  return s.substr(0, a) + other.substr(b, len) + s.substr(a);  // a piece of the other inserted
}

namespace {

bool numberChar(char c) {
  return std::isdigit(static_cast<unsigned char>(c)) || c == '.' || c == '-' || c == '+' || c == 'e' || c == 'E';
}

}  // namespace

std::string Mutator::replaceNumber(std::string s) {
  // The digits around a random position, widened to the whole number-like token.
  std::vector<std::size_t> digits;
  for (std::size_t i = 0; i < s.size(); ++i)
    if (std::isdigit(static_cast<unsigned char>(s[i]))) digits.push_back(i);
  if (digits.empty()) return insertBytes(std::move(s));
  std::size_t b = digits[rng_.below(digits.size())], e = b;
  while (b > 0 && numberChar(s[b - 1])) --b;
  while (e < s.size() && numberChar(s[e])) ++e;
  std::string value = interestingValues()[rng_.below(interestingValues().size())];
  if (rng_.chance(10)) value.assign(1 + rng_.below(400), static_cast<char>('1' + rng_.below(9)));  // a long digit string
  s.replace(b, e - b, value);
  return s;
}

std::string Mutator::replaceString(std::string s) {
  std::vector<std::size_t> quotes;
  for (std::size_t i = 0; i < s.size(); ++i)
    if (s[i] == '"') quotes.push_back(i);
  if (quotes.size() < 2) return insertBytes(std::move(s));
  const std::size_t k = rng_.below(quotes.size() - 1);
  const std::size_t b = quotes[k] + 1, e = quotes[k + 1];
  std::string value;
  switch (rng_.below(4)) {
    case 0: value.assign(1 + rng_.below(200000), static_cast<char>('a' + rng_.below(26))); break;  // huge
    case 1: value = ""; break;
    case 2: value = s.substr(b, e - b) + s.substr(b, e - b); break;
    default: value = interestingValues()[rng_.below(interestingValues().size())];
  }
  s.replace(b, e - b, value);
  return s;
}

std::string Mutator::nest(std::string s) {
  const std::size_t depth = rng_.chance(70) ? 1 + rng_.below(300) : 1 + rng_.below(100000);
  const bool object = rng_.chance(50);
  const bool close = rng_.chance(70);
  std::string open, end;
  for (std::size_t i = 0; i < depth; ++i) open += object ? "{\"a\":" : "[";
  if (close)
    for (std::size_t i = 0; i < depth; ++i) end += object ? "}" : "]";
  // In place of a value after a ':' when there is one, else anywhere.
  std::vector<std::size_t> colons;
  for (std::size_t i = 0; i < s.size(); ++i)
    if (s[i] == ':') colons.push_back(i + 1);
  const std::size_t at = !colons.empty() ? colons[rng_.below(colons.size())] : (s.empty() ? 0 : rng_.below(s.size() + 1));
  s.insert(at, open + "0" + end + (close ? "" : ","));
  return s;
}

namespace {

using Json = nlohmann::ordered_json;

void collectPointers(const Json& j, const Json::json_pointer& at, std::vector<Json::json_pointer>& out) {
  out.push_back(at);
  if (j.is_object()) {
    for (auto it = j.begin(); it != j.end(); ++it) collectPointers(it.value(), at / it.key(), out);
  } else if (j.is_array()) {
    for (std::size_t i = 0; i < j.size(); ++i) collectPointers(j[i], at / i, out);
  }
}

}  // namespace

std::string Mutator::swapJsonValue(const std::string& s, const std::string& other) {
  Json a = Json::parse(s, nullptr, false);
  const Json b = Json::parse(other, nullptr, false);
  if (a.is_discarded() || b.is_discarded()) return splice(s, other);
  std::vector<Json::json_pointer> pa, pb;
  collectPointers(a, Json::json_pointer(), pa);
  collectPointers(b, Json::json_pointer(), pb);
  const Json::json_pointer& target = pa[rng_.below(pa.size())];
  switch (rng_.below(4)) {
    case 0: a[target] = b[pb[rng_.below(pb.size())]]; break;  // a value of the other document
    case 1: a[target] = a[pa[rng_.below(pa.size())]]; break;  // a value of the same document
    case 2:                                                   // a key or an element removed
      if (!target.empty()) {
        Json& parent = a[target.parent_pointer()];
        if (parent.is_object())
          parent.erase(target.back());
        else
          parent.erase(static_cast<std::size_t>(std::stoul(target.back())));
      }
      break;
    default: {  // a JSON-valid interesting value
      const std::string& v = interestingValues()[rng_.below(interestingValues().size())];
      Json parsed = Json::parse(v, nullptr, false);
      if (!parsed.is_discarded()) a[target] = parsed;
    }
  }
  return a.dump(rng_.chance(50) ? 2 : -1, ' ', false, Json::error_handler_t::replace);
}

std::string Mutator::duplicateLine(std::string s) {
  std::vector<std::size_t> starts{0};
  for (std::size_t i = 0; i < s.size(); ++i)
    if (s[i] == '\n') starts.push_back(i + 1);
  const std::size_t k = rng_.below(starts.size());
  const std::size_t end = s.find('\n', starts[k]);
  const std::string line = s.substr(starts[k], end == std::string::npos ? std::string::npos : end - starts[k] + 1);
  std::size_t copies = rng_.chance(90) ? 1 : 1 + rng_.below(2000);
  copies = std::min(copies, 1 + (std::size_t{1} << 20) / (line.size() + 1));  // at most about 1 MiB more
  std::string rep;
  for (std::size_t c = 0; c < copies; ++c) rep += line;
  s.insert(starts[rng_.below(starts.size())], rep);
  return s;
}

std::string Mutator::stack(const std::string& input, const std::vector<std::string>& others,
                           const std::function<std::string(std::string, const std::string&)>& one) {
  std::string s = input;
  const std::size_t stacked = 1 + (rng_.chance(30) ? rng_.below(4) : 0);
  for (std::size_t k = 0; k < stacked; ++k) {
    const std::string& other = others.empty() ? input : others[rng_.below(others.size())];
    s = one(std::move(s), other);
    if (s.size() > kMaxSize) s.resize(kMaxSize);
  }
  return s;
}

std::string Mutator::mutate(const std::string& input, const std::vector<std::string>& others) {
  return stack(input, others, [this](std::string s, const std::string& other) {
    switch (rng_.below(20)) {
      case 0:
      case 1:
      case 2: return flipBytes(std::move(s));
      case 3:
      case 4: return insertBytes(std::move(s));
      case 5:
      case 6: return deleteBytes(std::move(s));
      case 7: return splice(s, other);
      case 8:
      case 9:
      case 10:
      case 11: return replaceNumber(std::move(s));
      case 12:
      case 13: return replaceString(std::move(s));
      case 14: return nest(std::move(s));
      case 15: return duplicateLine(std::move(s));
      default: return swapJsonValue(s, other);
    }
  });
}

std::string Mutator::insertXmlToken(std::string s) {
  static const char* const kTokens[] = {"<",
                                        ">",
                                        "/>",
                                        "</",
                                        "</robot>",
                                        "<robot name=\"r\">",
                                        "<link name=\"a\"/>",
                                        "<joint name=\"j\" type=\"revolute\"><parent link=\"a\"/><child link=\"a\"/></joint>",
                                        "<inertial><mass value=\"1\"/></inertial>",
                                        "&amp;",
                                        "&#0;",
                                        "&#x110000;",
                                        "&#99999999999;",
                                        "&undefined;",
                                        "&",
                                        "<!--",
                                        "-->",
                                        "<![CDATA[",
                                        "]]>",
                                        "<?xml version=\"1.0\"?>",
                                        "<?",
                                        "<!DOCTYPE robot>",
                                        "<!DOCTYPE robot [<!ENTITY e \"x\">]>",
                                        "<!DOCTYPE robot [",
                                        "=\"",
                                        "'",
                                        " type=\"floating\"",
                                        " type=\"planar\"",
                                        " xyz=\"nan 0 0\"",
                                        " rpy=\"0 1e308 0\"",
                                        "\xef\xbb\xbf",
                                        "\xff\xfe"};
  const std::size_t at = s.empty() ? 0 : rng_.below(s.size() + 1);
  s.insert(at, kTokens[rng_.below(sizeof(kTokens) / sizeof(kTokens[0]))]);
  return s;
}

std::string Mutator::nestXml(std::string s) {
  const std::size_t depth = rng_.chance(70) ? 1 + rng_.below(300) : 1 + rng_.below(100000);
  const bool close = rng_.chance(70);
  const bool self_closing = rng_.chance(20);  // <a/> at the bottom: nesting that is no deeper
  std::string open, end;
  for (std::size_t i = 0; i < depth; ++i) open += "<a>";
  if (close)
    for (std::size_t i = 0; i < depth; ++i) end += "</a>";
  std::vector<std::size_t> tags;  // before an element
  for (std::size_t i = 0; i < s.size(); ++i)
    if (s[i] == '<') tags.push_back(i);
  const std::size_t at = !tags.empty() ? tags[rng_.below(tags.size())] : (s.empty() ? 0 : rng_.below(s.size() + 1));
  s.insert(at, open + (self_closing ? "<a/>" : "") + end);
  return s;
}

namespace {

// The [begin, end) of each "quoted" attribute value of an XML text (either quote).
std::vector<std::pair<std::size_t, std::size_t>> attributeValues(const std::string& s) {
  std::vector<std::pair<std::size_t, std::size_t>> out;
  for (std::size_t i = 0; i + 1 < s.size(); ++i) {
    if (s[i] != '=' || (s[i + 1] != '"' && s[i + 1] != '\'')) continue;
    const std::size_t end = s.find(s[i + 1], i + 2);
    if (end == std::string::npos) break;
    out.emplace_back(i + 2, end);
    i = end;
  }
  return out;
}

// The [begin, end) of the element whose start tag begins at `at` ('<' of "<name"): to its "/>" or
// to its matching "</name>" (no nesting of the same name assumed, as in URDF); npos when unclosed.
std::size_t elementEnd(const std::string& s, std::size_t at) {
  std::size_t n = at + 1;
  while (n < s.size() && (std::isalnum(static_cast<unsigned char>(s[n])) || s[n] == '_' || s[n] == ':')) ++n;
  const std::string name = s.substr(at + 1, n - at - 1);
  const std::size_t gt = s.find('>', n);
  if (name.empty() || gt == std::string::npos) return std::string::npos;
  if (s[gt - 1] == '/') return gt + 1;
  const std::size_t close = s.find("</" + name + ">", gt);
  return close == std::string::npos ? std::string::npos : close + name.size() + 3;
}

std::vector<std::size_t> elementStarts(const std::string& s) {
  std::vector<std::size_t> out;
  for (std::size_t i = 0; i + 1 < s.size(); ++i)
    if (s[i] == '<' && std::isalpha(static_cast<unsigned char>(s[i + 1]))) out.push_back(i);
  return out;
}

}  // namespace

std::string Mutator::swapXmlString(const std::string& s, const std::string& other) {
  const auto mine = attributeValues(s);
  if (mine.empty()) return insertXmlToken(s);
  const auto theirs = attributeValues(other);
  const auto [b, e] = mine[rng_.below(mine.size())];
  std::string value;
  if (rng_.chance(50) || theirs.empty()) {
    const auto [vb, ve] = mine[rng_.below(mine.size())];  // a name of this robot: loops, two parents, ...
    value = s.substr(vb, ve - vb);
  } else {
    const auto [vb, ve] = theirs[rng_.below(theirs.size())];
    value = other.substr(vb, ve - vb);
  }
  return s.substr(0, b) + value + s.substr(e);
}

std::string Mutator::xmlElement(const std::string& s, const std::string& other) {
  const std::vector<std::size_t> starts = elementStarts(s);
  if (starts.empty()) return insertXmlToken(s);
  const std::size_t at = starts[rng_.below(starts.size())];
  const std::size_t end = elementEnd(s, at);
  switch (rng_.below(3)) {
    case 0:  // deleted
      return end == std::string::npos ? s.substr(0, at) : s.substr(0, at) + s.substr(end);
    case 1: {  // doubled (a link or joint named twice, two <inertial>s, ...)
      if (end == std::string::npos) return s;
      const std::string element = s.substr(at, end - at);
      std::string out = s;
      const std::size_t copies = rng_.chance(95) ? 1 : 1 + rng_.below(2000);
      std::string rep;
      for (std::size_t c = 0; c < copies && rep.size() < (std::size_t{1} << 20); ++c) rep += element;
      return out.insert(at, rep);
    }
    default: {  // one of the other document's elements inserted before it
      const std::vector<std::size_t> theirs = elementStarts(other);
      if (theirs.empty()) return s;
      const std::size_t ob = theirs[rng_.below(theirs.size())];
      const std::size_t oe = elementEnd(other, ob);
      if (oe == std::string::npos) return s;
      return s.substr(0, at) + other.substr(ob, oe - ob) + s.substr(at);
    }
  }
}

std::string Mutator::mutateXml(const std::string& input, const std::vector<std::string>& others) {
  return stack(input, others, [this](std::string s, const std::string& other) {
    switch (rng_.below(20)) {
      case 0:
      case 1: return flipBytes(std::move(s));
      case 2: return insertBytes(std::move(s));
      case 3:
      case 4: return insertXmlToken(std::move(s));
      case 5: return deleteBytes(std::move(s));
      case 6: return splice(s, other);
      case 7:
      case 8:
      case 9:
      case 10: return replaceNumber(std::move(s));
      case 11: return replaceString(std::move(s));
      case 12:
      case 13: return swapXmlString(s, other);
      case 14: return nestXml(std::move(s));
      case 15: return duplicateLine(std::move(s));
      default: return xmlElement(s, other);
    }
  });
}

}  // namespace fuzz
