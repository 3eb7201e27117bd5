#include "io/XmlNesting.hpp"

#include <algorithm>
#include <cstring>

#include "base/Text.hpp"

namespace flexarm {

namespace {

// TinyXML's white space (isspace in the C locale).
bool isSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r'; }

// What may start a name (TinyXML's IsAlpha: ASCII letters, and every byte from 127 up) or continue it.
bool startsName(char c) {
  const unsigned char u = static_cast<unsigned char>(c);
  return (u >= 'a' && u <= 'z') || (u >= 'A' && u <= 'Z') || u == '_' || u >= 127;
}
bool continuesName(char c) { return startsName(c) || (c >= '0' && c <= '9') || c == '-' || c == '.' || c == ':'; }

// Walks the text once; `line` follows the position as it moves forward.
class Scanner {
 public:
  explicit Scanner(const std::string& text) : text_(text) {}

  std::size_t pos() const { return pos_; }
  bool atEnd() const { return pos_ >= text_.size(); }
  bool startsWith(const char* s) const { return text_.compare(pos_, std::strlen(s), s) == 0; }
  bool startsWithAnyCase(const char* s) const {
    const std::size_t n = std::strlen(s);
    if (text_.size() - std::min(pos_, text_.size()) < n) return false;
    for (std::size_t k = 0; k < n; ++k) {
      const char c = text_[pos_ + k];
      if ((c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c) != s[k]) return false;
    }
    return true;
  }
  // A U+FEFF, U+FFFE or U+FFFF, which TinyXML skips as white space in text it reads as UTF-8.
  bool atByteOrderMark() const { return startsWith("\xEF\xBB\xBF") || startsWith("\xEF\xBF\xBE") || startsWith("\xEF\xBF\xBF"); }
  int line() const { return line_; }

  // Moves to just after the next `s` (or to the end when there is none).
  void skipPast(const char* s) {
    const std::size_t at = text_.find(s, pos_);
    moveTo(at == std::string::npos ? text_.size() : at + std::strlen(s));
  }
  // Moves past the '>' that ends an element's start tag as TinyXML reads it: a quote opens an
  // attribute value only after '=' (white space between), and the value ends at the same quote.
  // Whether the tag closed itself ("/>").
  bool skipStartTag() {
    char before = 0;  // the character before, white space left out
    for (++pos_; pos_ < text_.size();) {
      const char c = text_[pos_];
      if (c == '>') {
        ++pos_;
        return text_[pos_ - 2] == '/';
      }
      if ((c == '"' || c == '\'') && before == '=') {
        const std::size_t end = text_.find(c, pos_ + 1);
        moveTo(end == std::string::npos ? text_.size() : end + 1);
        before = c;
        continue;
      }
      if (atByteOrderMark()) {
        pos_ += 3;
        continue;
      }
      if (c == '\n') ++line_;
      if (!isSpace(c)) before = c;
      ++pos_;
    }
    return false;
  }
  // Moves past "<?xml ...>" as TinyXML reads a declaration: up to a '>', stepping over version=,
  // encoding= and standalone= with their values (a quoted one may hold '>'). False where TinyXML's
  // reading depends on the encoding it has guessed so far: a byte-order mark where it skips white space.
  bool skipDeclaration() {
    moveTo(pos_ + 5);
    while (pos_ < text_.size()) {
      if (text_[pos_] == '>') {
        ++pos_;
        return true;
      }
      if (!skipSpace()) return false;
      if (startsWithAnyCase("version") || startsWithAnyCase("encoding") || startsWithAnyCase("standalone")) {
        while (pos_ < text_.size() && continuesName(text_[pos_])) ++pos_;
        if (!skipSpace()) return false;
        if (pos_ >= text_.size() || text_[pos_] != '=') return true;  // TinyXML stops here: an error
        ++pos_;
        if (!skipSpace()) return false;
        if (pos_ < text_.size() && (text_[pos_] == '"' || text_[pos_] == '\'')) {
          const std::size_t end = text_.find(text_[pos_], pos_ + 1);
          moveTo(end == std::string::npos ? text_.size() : end + 1);
        } else {
          while (pos_ < text_.size() && !isSpace(text_[pos_]) && text_[pos_] != '/' && text_[pos_] != '>') ++pos_;
        }
      } else {
        while (pos_ < text_.size() && text_[pos_] != '>' && !isSpace(text_[pos_])) ++pos_;
      }
    }
    return true;
  }
  void moveTo(std::size_t to) {
    to = std::min(to, text_.size());
    line_ += static_cast<int>(
        std::count(text_.begin() + static_cast<std::ptrdiff_t>(pos_), text_.begin() + static_cast<std::ptrdiff_t>(to), '\n'));
    pos_ = to;
  }

 private:
  // Over white space; false at a byte-order mark.
  bool skipSpace() {
    for (; pos_ < text_.size() && isSpace(text_[pos_]); ++pos_)
      if (text_[pos_] == '\n') ++line_;
    return !atByteOrderMark();
  }

  const std::string& text_;
  std::size_t pos_ = 0;
  int line_ = 1;
};

// The line of the first byte that is not part of well-formed UTF-8 (1 when there is none).
int firstLineNotUtf8(const std::string& text) {
  int line = 1;
  for (std::size_t start = 0; start < text.size(); ++line) {
    const std::size_t end = std::min(text.find('\n', start), text.size());
    if (!isValidUtf8(text.substr(start, end - start))) return line;
    start = end + 1;
  }
  return 1;
}

}  // namespace

Status checkXmlNesting(const std::string& text, int max_depth) {
  if (!isValidUtf8(text))
    return errorAt("line " + std::to_string(firstLineNotUtf8(text)),
                   "the text is not UTF-8 (a URDF is read as UTF-8; save it so, or write the characters as &#...; references)");
  Scanner s(text);
  int depth = 0;
  while (!s.atEnd()) {
    const std::size_t lt = text.find('<', s.pos());
    if (lt == std::string::npos) break;
    s.moveTo(lt);
    const int line = s.line();
    if (s.startsWithAnyCase("<?xml")) {
      if (!s.skipDeclaration())
        return errorAt("line " + std::to_string(line),
                       "a byte-order mark (U+FEFF, U+FFFE or U+FFFF) inside the XML declaration: take it out");
    } else if (s.startsWith("<!--")) {
      s.skipPast("-->");
    } else if (s.startsWith("<![CDATA[")) {
      s.skipPast("]]>");
    } else if (s.startsWith("</")) {
      s.skipPast(">");
      depth = std::max(0, depth - 1);
    } else if (lt + 1 < text.size() && startsName(text[lt + 1])) {
      if (!s.skipStartTag() && ++depth > max_depth)
        return errorAt("line " + std::to_string(line),
                       "elements nested more than " + std::to_string(max_depth) + " levels deep (a URDF needs about 5): refused");
    } else {
      // A DOCTYPE, "<!ENTITY", "<?target", "< ": what TinyXML does not know, read to the first '>'.
      const std::size_t gt = text.find('>', lt);
      const std::size_t end = gt == std::string::npos ? text.size() : gt + 1;
      static const std::string entity = "<!ENTITY";
      if (std::search(text.begin() + static_cast<std::ptrdiff_t>(lt), text.begin() + static_cast<std::ptrdiff_t>(end),
                      entity.begin(), entity.end()) != text.begin() + static_cast<std::ptrdiff_t>(end))
        return errorAt("line " + std::to_string(line),
                       "the DOCTYPE declares entities (<!ENTITY ...>): URDF files need none and they are not "
                       "expanded; write the values in place");
      s.moveTo(end);
    }
  }
  return {};
}

}  // namespace flexarm
