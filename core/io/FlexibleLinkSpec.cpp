#include "io/FlexibleLinkSpec.hpp"

#include <cmath>
#include <vector>

#include "base/NumberFormat.hpp"
#include "base/Text.hpp"

namespace flexarm {
namespace {

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  while (true) {
    const std::size_t end = s.find(sep, start);
    parts.push_back(s.substr(start, end == std::string::npos ? std::string::npos : end - start));
    if (end == std::string::npos) return parts;
    start = end + 1;
  }
}

// The numbers after a preset's name ("tube:0.08:0.072" -> 0.08, 0.072), exactly `count` of them.
Result<std::vector<double>> numbers(const std::string& key, const std::vector<std::string>& parts, std::size_t first,
                                    std::size_t count, const std::string& form) {
  if (parts.size() - first != count) return errorAt(key, "expected " + form);
  std::vector<double> out;
  for (std::size_t k = first; k < parts.size(); ++k) {
    const std::optional<double> v = parseNumber(parts[k]);
    if (!v) return errorAt(key, inQuotes(parts[k]) + " is not a number (expected " + form + ")");
    out.push_back(*v);
  }
  return out;
}

Result<Json> section(const std::string& value) {
  const std::vector<std::string> p = split(value, ':');
  const std::string& kind = p.front();
  const char* form = "rectangle:W:H, tube:D:d, ibeam:B:H:TF:TW or A:Iy:Iz:J";
  if (kind == "rectangle") {
    const auto v = numbers("section", p, 1, 2, "rectangle:WIDTH:HEIGHT");
    if (!v) return v.error();
    return Json{{"preset", "rectangle"}, {"width", (*v)[0]}, {"height", (*v)[1]}};
  }
  if (kind == "tube") {
    const auto v = numbers("section", p, 1, 2, "tube:OUTER_DIAMETER:INNER_DIAMETER");
    if (!v) return v.error();
    return Json{{"preset", "tube"}, {"outer_diameter", (*v)[0]}, {"inner_diameter", (*v)[1]}};
  }
  if (kind == "ibeam") {
    const auto v = numbers("section", p, 1, 4, "ibeam:WIDTH:HEIGHT:FLANGE_THICKNESS:WEB_THICKNESS");
    if (!v) return v.error();
    return Json{
        {"preset", "ibeam"}, {"width", (*v)[0]}, {"height", (*v)[1]}, {"flange_thickness", (*v)[2]}, {"web_thickness", (*v)[3]}};
  }
  if (!parseNumber(kind)) return errorAt("section", "unknown preset " + inQuotes(kind) + " (expected " + form + ")");
  const auto v = numbers("section", p, 0, 4, form);
  if (!v) return v.error();
  return Json{{"A", (*v)[0]}, {"Iy", (*v)[1]}, {"Iz", (*v)[2]}, {"J", (*v)[3]}};
}

Result<Json> material(const std::string& value) {
  if (value == "steel" || value == "aluminium" || value == "cfrp") return Json{{"preset", value}};
  const std::vector<std::string> p = split(value, ':');
  const char* form = "steel, aluminium, cfrp or E:G:RHO";
  if (!parseNumber(p.front())) return errorAt("material", "unknown preset " + inQuotes(value) + " (expected " + form + ")");
  const auto v = numbers("material", p, 0, 3, form);
  if (!v) return v.error();
  return Json{{"E", (*v)[0]}, {"G", (*v)[1]}, {"rho", (*v)[2]}};
}

// Writes basis (and modes or elements/layout) into flex.
Status basis(const std::string& value, Json& flex) {
  const std::vector<std::string> p = split(value, ':');
  const char* form = "modes:N, modes:AXIAL:BENDING_Y:BENDING_Z:TORSION, fem:N or fem:N:planar";
  const auto count = [&](const std::string& text) -> std::optional<int> {
    const std::optional<double> v = parseNumber(text);
    if (!v || *v < 0 || *v > 1000 || *v != std::floor(*v)) return std::nullopt;
    return static_cast<int>(*v);
  };
  std::vector<int> n;
  const bool layout = p.front() == "fem" && p.size() == 3 && (p[2] == "planar" || p[2] == "spatial");
  for (std::size_t k = 1; k < p.size() - (layout ? 1 : 0); ++k) {
    const std::optional<int> c = count(p[k]);
    if (!c) return errorAt("basis", inQuotes(p[k]) + " is not a whole number >= 0 (expected " + form + ")");
    n.push_back(*c);
  }
  if (p.front() == "modes" && (n.size() == 1 || n.size() == 4)) {
    flex["basis"] = "modes";
    flex["modes"] = n.size() == 1 ? Json{{"axial", 0}, {"bending_y", n[0]}, {"bending_z", n[0]}, {"torsion", 0}}
                                  : Json{{"axial", n[0]}, {"bending_y", n[1]}, {"bending_z", n[2]}, {"torsion", n[3]}};
    return {};
  }
  if (p.front() == "fem" && n.size() == 1) {
    flex["basis"] = "fem";
    flex["elements"] = n[0];
    if (layout) flex["layout"] = p[2];
    return {};
  }
  return errorAt("basis", inQuotes(value) + ": expected " + form);
}

Result<FlexibleLinkSpec> fromJson(FlexibleLinkSpec spec, const std::string& text) {
  Result<Json> doc = parseJsonText(text);
  if (!doc) return errorAt("JSON", doc.error().text());
  if (!doc->is_object()) return errorAt("JSON", "must be an object, got " + describeJson(*doc));
  for (auto it = doc->begin(); it != doc->end(); ++it) {
    if (it.key() != "length") {
      spec.flex[it.key()] = it.value();
      continue;
    }
    if (!it.value().is_number()) return errorAt("length", "must be a number, got " + describeJson(it.value()));
    spec.length = it.value().get<double>();
  }
  return spec;
}

}  // namespace

Result<FlexibleLinkSpec> parseFlexibleLinkSpec(const std::string& text) {
  const std::size_t eq = text.find('=');
  if (eq == std::string::npos || eq == 0)
    return error(inQuotes(text) + ": expected LINK=SPEC, e.g. forearm=section=tube:0.08:0.072,material=aluminium");
  FlexibleLinkSpec spec;
  spec.link = text.substr(0, eq);
  for (const char* key : {"length", "section", "material", "basis", "rayleigh"})
    if (spec.link == key)
      return error(inQuotes(text) + ": expected LINK=SPEC (" + inQuotes(key) + " is a key of the spec: name the link first)");
  const std::string rest = text.substr(eq + 1);
  if (!rest.empty() && rest.front() == '{') return fromJson(std::move(spec), rest);
  bool has_basis = false;
  for (const std::string& item : split(rest, ',')) {
    const std::size_t ieq = item.find('=');
    if (ieq == std::string::npos)
      return error(inQuotes(item) + ": expected KEY=VALUE (length, section, material, basis or rayleigh)");
    const std::string key = item.substr(0, ieq), value = item.substr(ieq + 1);
    if (spec.flex.contains(key) || (key == "length" && spec.length) || (key == "basis" && has_basis))
      return errorAt(key, "given twice");
    if (key == "length") {
      spec.length = parseNumber(value);
      if (!spec.length) return errorAt("length", inQuotes(value) + " is not a number");
    } else if (key == "section") {
      Result<Json> s = section(value);
      if (!s) return s.error();
      spec.flex["section"] = *s;
    } else if (key == "material") {
      Result<Json> m = material(value);
      if (!m) return m.error();
      spec.flex["material"] = *m;
    } else if (key == "basis") {
      if (Status b = basis(value, spec.flex); !b) return b.error();
      has_basis = true;
    } else if (key == "rayleigh") {
      const auto v = numbers("rayleigh", split(value, ':'), 0, 2, "rayleigh=ALPHA:BETA");
      if (!v) return v.error();
      spec.flex["rayleigh"] = {(*v)[0], (*v)[1]};
    } else {
      return errorAt(key, "unknown key (length, section, material, basis or rayleigh)");
    }
  }
  for (const char* required : {"section", "material"})
    if (!spec.flex.contains(required)) return errorAt(required, "missing (the beam needs a section and a material)");
  if (!has_basis) (void)basis("modes:2", spec.flex);
  return spec;
}

}  // namespace flexarm
