#pragma once
// A look at XML text before an XML library builds it (TinyXML, under urdfdom, recurses once per
// nesting level: 40 000 levels overflow the stack, 20 000 take seconds): the nesting of elements is
// limited as a project file's (kMaxJsonDepth), and a DOCTYPE that declares entities is refused (no
// URDF needs one, and TinyXML would leave their references unexpanded). One pass, linear in the text.
//
// The count holds only if the look reads the markup as TinyXML 2.6.2 reads it, not as XML would:
// wherever it steps over markup it steps no further than TinyXML, or an element that TinyXML nests
// could hide from it (a DOCTYPE's "[" ran to the end of a file under which TinyXML nested 58 805
// levels). So: "<!" other than a comment or CDATA, "<?" other than "<?xml", and "<" before a character
// that starts no name end at the first '>', quotes and brackets notwithstanding; in a start tag a
// quote opens a value only after '='; the text must be UTF-8 (TinyXML steps over a character by its
// first byte's length, over a quote that ends a value if that byte lies). Where the two could still
// read on differently, TinyXML has stopped at an error before.
#include <string>

#include "base/Result.hpp"

namespace flexarm {

constexpr int kMaxXmlDepth = 200;

// An error whose `where` is "line L" (the line of the element too deep, of the DOCTYPE or of the
// first byte that is not UTF-8).
Status checkXmlNesting(const std::string& text, int max_depth = kMaxXmlDepth);

}  // namespace flexarm
