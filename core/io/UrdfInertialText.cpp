#include "io/UrdfInertialText.hpp"

#include <tinyxml.h>

#include <sstream>
#include <string>
#include <vector>

#include "base/NumberFormat.hpp"
#include "base/Text.hpp"

namespace flexarm {

namespace {

// `<element attribute="text">`, as the file has it.
std::string shown(const char* element, const char* attribute, const std::string& text) {
  return std::string("<") + element + " " + attribute + "=" + inQuotes(text) + ">";
}

// The attribute as one number; `unit` for the message.
void checkNumber(const TiXmlElement& e, const char* attribute, const char* unit, const std::string& path, Diagnostics& diag) {
  const char* text = e.Attribute(attribute);
  if (!text) {
    diag.error(path, "<inertial>: <" + e.ValueStr() + "> has no " + attribute + " attribute");
    return;
  }
  if (!parseNumber(text))
    diag.error(path, "<inertial>: " + shown(e.Value(), attribute, text) + " is not a finite decimal number [" + unit +
                         "] (e.g. 1.5 or 2e-3)");
}

// The attribute, when present, as three numbers separated by blanks.
void checkVector(const TiXmlElement& e, const char* attribute, const char* unit, const std::string& path, Diagnostics& diag) {
  const char* text = e.Attribute(attribute);
  if (!text) return;
  std::istringstream parts{std::string(text)};
  std::vector<std::string> items;
  for (std::string item; parts >> item;) items.push_back(item);
  bool ok = items.size() == 3;
  for (const std::string& item : items) ok = ok && parseNumber(item).has_value();
  if (!ok)
    diag.error(path, "<inertial>: " + shown(e.Value(), attribute, text) + " is not three finite decimal numbers [" + unit + "]");
}

void checkInertial(const TiXmlElement& inertial, const std::string& path, Diagnostics& diag) {
  if (const TiXmlElement* origin = inertial.FirstChildElement("origin")) {
    checkVector(*origin, "xyz", "m", path, diag);
    checkVector(*origin, "rpy", "rad", path, diag);
  }
  if (const TiXmlElement* mass = inertial.FirstChildElement("mass"))
    checkNumber(*mass, "value", "kg", path, diag);
  else
    diag.error(path, "<inertial> has no <mass value=\"...\"/>");
  const TiXmlElement* inertia = inertial.FirstChildElement("inertia");
  if (!inertia) {
    diag.warning(path,
                 "<inertial> has no <inertia>: imported as a point mass (no rotational inertia about its centre of "
                 "mass); add <inertia ixx=\"...\" ixy=\"...\" ixz=\"...\" iyy=\"...\" iyz=\"...\" izz=\"...\"/>");
    return;
  }
  for (const char* component : {"ixx", "ixy", "ixz", "iyy", "iyz", "izz"}) checkNumber(*inertia, component, "kg m²", path, diag);
}

}  // namespace

void checkInertialText(const TiXmlElement& robot, Diagnostics& diag) {
  for (const TiXmlElement* link = robot.FirstChildElement("link"); link; link = link->NextSiblingElement("link")) {
    const TiXmlElement* inertial = link->FirstChildElement("inertial");
    if (!inertial) continue;
    const char* name = link->Attribute("name");
    checkInertial(*inertial, "link " + inQuotes(name ? name : ""), diag);
  }
}

}  // namespace flexarm
