#include "io/XmlNesting.hpp"

#include <algorithm>
#include <cstring>

namespace flexarm {

namespace {

// Walks the text once; `line` follows the position as it moves forward.
class Scanner {
 public:
  explicit Scanner(const std::string& text) : text_(text) {}

  std::size_t pos() const { return pos_; }
  bool atEnd() const { return pos_ >= text_.size(); }
  bool startsWith(const char* s) const { return text_.compare(pos_, std::strlen(s), s) == 0; }
  int line() const { return line_; }

  // Moves to just after the next `s` (or to the end when there is none).
  void skipPast(const char* s) {
    const std::size_t at = text_.find(s, pos_);
    moveTo(at == std::string::npos ? text_.size() : at + std::strlen(s));
  }
  // Moves to just after the '>' that ends a tag, skipping quoted attribute values; whether the tag
  // closed itself ("/>").
  bool skipTag() {
    char quote = 0, last = 0;
    for (; pos_ < text_.size(); ++pos_) {
      const char c = text_[pos_];
      if (c == '\n') ++line_;
      if (quote) {
        if (c == quote) quote = 0;
      } else if (c == '"' || c == '\'') {
        quote = c;
      } else if (c == '>') {
        ++pos_;
        return last == '/';
      }
      if (!quote && c != ' ' && c != '\t' && c != '\r' && c != '\n') last = c;
    }
    return false;
  }
  // Moves past a DOCTYPE (its internal subset in [...] included); whether it declares an entity.
  bool skipDoctype() {
    bool subset = false, entity = false;
    char quote = 0;
    for (; pos_ < text_.size(); ++pos_) {
      const char c = text_[pos_];
      if (c == '\n') ++line_;
      if (quote) {
        if (c == quote) quote = 0;
      } else if (c == '"' || c == '\'') {
        quote = c;
      } else if (c == '[') {
        subset = true;
      } else if (c == ']') {
        subset = false;
      } else if (subset && c == '<' && text_.compare(pos_, 8, "<!ENTITY") == 0) {
        entity = true;
      } else if (c == '>' && !subset) {
        ++pos_;
        break;
      }
    }
    return entity;
  }
  void moveTo(std::size_t to) {
    to = std::min(to, text_.size());
    line_ += static_cast<int>(
        std::count(text_.begin() + static_cast<std::ptrdiff_t>(pos_), text_.begin() + static_cast<std::ptrdiff_t>(to), '\n'));
    pos_ = to;
  }

 private:
  const std::string& text_;
  std::size_t pos_ = 0;
  int line_ = 1;
};

}  // namespace

Status checkXmlNesting(const std::string& text, int max_depth) {
  Scanner s(text);
  int depth = 0;
  while (!s.atEnd()) {
    const std::size_t lt = text.find('<', s.pos());
    if (lt == std::string::npos) break;
    s.moveTo(lt);
    const int line = s.line();
    if (s.startsWith("<!--")) {
      s.skipPast("-->");
    } else if (s.startsWith("<![CDATA[")) {
      s.skipPast("]]>");
    } else if (s.startsWith("<?")) {
      s.skipPast("?>");
    } else if (s.startsWith("<!DOCTYPE")) {
      if (s.skipDoctype())
        return errorAt("line " + std::to_string(line),
                       "the DOCTYPE declares entities (<!ENTITY ...>): URDF files need none and they are not "
                       "expanded; write the values in place");
    } else if (s.startsWith("</")) {
      s.skipTag();
      depth = std::max(0, depth - 1);
    } else if (s.startsWith("<!")) {
      s.skipTag();
    } else {
      if (!s.skipTag() && ++depth > max_depth)
        return errorAt("line " + std::to_string(line),
                       "elements nested more than " + std::to_string(max_depth) + " levels deep (a URDF needs about 5): refused");
    }
  }
  return {};
}

}  // namespace flexarm
