#pragma once
// Deterministic mutations of text inputs for the fuzz program: byte flips, inserts, deletions,
// splices between seeds, number-ish replacements (nan, inf, 1e308, -0, 1e-320, 20-digit integers),
// huge strings, deep nesting and, for JSON seeds, swaps of whole values between documents; for XML
// seeds (URDF) also XML's tokens, deep elements, attribute values and whole elements moved about.
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace fuzz {

// SplitMix64: the same sequence on every platform and standard library, from one 64-bit seed.
class Rng {
 public:
  explicit Rng(std::uint64_t seed) : state_(seed) {}
  std::uint64_t next();
  std::size_t below(std::size_t n);  // uniform in [0, n), n > 0
  bool chance(int percent) { return below(100) < static_cast<std::size_t>(percent); }

 private:
  std::uint64_t state_;
};

// Values that break numeric and string handling when they replace a number or a string.
const std::vector<std::string>& interestingValues();

class Mutator {
 public:
  // Mutated inputs are cut to this size: larger ones test the memory, not the readers.
  static constexpr std::size_t kMaxSize = std::size_t{4} << 20;
  explicit Mutator(Rng& rng) : rng_(rng) {}
  // One to a few stacked mutations of `input`; `others` are the seeds a splice may take from.
  std::string mutate(const std::string& input, const std::vector<std::string>& others);
  // One mutation of each kind, for the tests of the mutator itself and for a mix on demand.
  std::string flipBytes(std::string s);
  std::string insertBytes(std::string s);
  std::string deleteBytes(std::string s);
  std::string splice(const std::string& s, const std::string& other);
  std::string replaceNumber(std::string s);  // a number-like token -> an interesting value
  std::string replaceString(std::string s);  // a "quoted" string -> an interesting value or a huge string
  std::string nest(std::string s);           // wraps a value in [[[...]]] or {"a":{...}} deeply
  std::string swapJsonValue(const std::string& s, const std::string& other);  // a value of `other` in place of one of `s`
  std::string duplicateLine(std::string s);

  // The same for XML (URDF): the byte-level mutations above, plus XML's own.
  std::string mutateXml(const std::string& input, const std::vector<std::string>& others);
  std::string insertXmlToken(std::string s);  // "<", "/>", "&amp;", "<![CDATA[", a DOCTYPE, ...
  std::string nestXml(std::string s);         // <a><a>...</a></a>, deeply, closed or not
  std::string swapXmlString(const std::string& s,
                            const std::string& other);                     // an attribute value of either in place of one of `s`
  std::string xmlElement(const std::string& s, const std::string& other);  // an element deleted, doubled or taken from `other`

 private:
  // One to a few mutations stacked, each by `one` (given the text and a seed to splice from).
  std::string stack(const std::string& input, const std::vector<std::string>& others,
                    const std::function<std::string(std::string, const std::string&)>& one);
  Rng& rng_;
};

}  // namespace fuzz
