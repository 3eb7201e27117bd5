#pragma once
// Text from the user as messages echo it: cut to a readable length, and checked to be UTF-8 (JSON
// files and CSV headers hold UTF-8 only).
#include <cstddef>
#include <string>

namespace flexarm {

// At most max_chars bytes of s (cut at a character boundary) followed by "..." when it was longer;
// control characters (newlines, NUL) shown as '?', so that a message stays on its line.
std::string excerpt(const std::string& s, std::size_t max_chars = 80);

// excerpt(s) in double quotes (not "quoted": std::quoted would be found by argument-dependent lookup).
std::string inQuotes(const std::string& s, std::size_t max_chars = 80);

// Whether s is well-formed UTF-8 (no overlong forms, surrogates or code points above U+10FFFF).
bool isValidUtf8(const std::string& s);

// Whether s holds a control character (below U+0020, or DEL).
bool hasControlCharacter(const std::string& s);

}  // namespace flexarm
