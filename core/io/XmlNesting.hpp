#pragma once
// A look at XML text before an XML library builds it (TinyXML, under urdfdom, recurses once per
// nesting level: 40 000 levels overflow the stack, 20 000 take seconds): the nesting of elements is
// limited as a project file's (kMaxJsonDepth), and a DOCTYPE that declares entities is refused (no
// URDF needs one, and TinyXML would leave their references unexpanded). One pass, linear in the text.
#include <string>

#include "base/Result.hpp"

namespace flexarm {

constexpr int kMaxXmlDepth = 200;

// An error whose `where` is "line L" (the line of the element too deep, or of the DOCTYPE).
Status checkXmlNesting(const std::string& text, int max_depth = kMaxXmlDepth);

}  // namespace flexarm
