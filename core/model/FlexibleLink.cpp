#include "model/FlexibleLink.hpp"

#include <cmath>

#include "base/Constants.hpp"

namespace flexarm {
namespace {}

BeamSection sectionFromPreset(const SectionPreset& p) {
  BeamSection s;
  switch (p.kind) {
    case SectionPreset::Kind::Rectangle: {
      const double b = p.width, h = p.height;  // b along y, h along z
      s.A = b * h;
      s.Iz = h * b * b * b / 12.0;
      s.Iy = b * h * h * h / 12.0;
      // Saint-Venant torsion constant of a rectangle (Roark): a >= c are the long and short sides.
      const double a = std::max(b, h), c = std::min(b, h);
      s.J = a * c * c * c * (1.0 / 3.0 - 0.21 * (c / a) * (1.0 - std::pow(c / a, 4) / 12.0));
      break;
    }
    case SectionPreset::Kind::Tube: {
      const double D = p.outer_diameter, d = p.inner_diameter;
      s.A = kPi * (D * D - d * d) / 4.0;
      s.Iy = s.Iz = kPi * (std::pow(D, 4) - std::pow(d, 4)) / 64.0;
      s.J = 2.0 * s.Iy;
      break;
    }
    case SectionPreset::Kind::IBeam: {
      // Flanges of width b and thickness tf top and bottom (z = +-h/2), web of thickness tw along z.
      const double b = p.width, h = p.height, tf = p.flange_thickness, tw = p.web_thickness;
      const double hw = h - 2.0 * tf;
      s.A = 2.0 * b * tf + hw * tw;
      s.Iy = b * h * h * h / 12.0 - (b - tw) * hw * hw * hw / 12.0;
      s.Iz = 2.0 * tf * b * b * b / 12.0 + hw * tw * tw * tw / 12.0;
      s.J = (2.0 * b * tf * tf * tf + (h - tf) * tw * tw * tw) / 3.0;  // thin-walled open section
      break;
    }
  }
  return s;
}

const char* sectionPresetName(SectionPreset::Kind kind) {
  switch (kind) {
    case SectionPreset::Kind::Rectangle: return "rectangle";
    case SectionPreset::Kind::Tube: return "tube";
    case SectionPreset::Kind::IBeam: return "ibeam";
  }
  return "?";
}

std::optional<Material> materialPreset(const std::string& name) {
  // Typical handbook values: structural steel; aluminium alloy 6061-T6; unidirectional
  // carbon-fibre epoxy loaded along the fibres (E1, G12).
  if (name == "steel") return Material{210e9, 81e9, 7850.0};
  if (name == "aluminium") return Material{68.9e9, 26e9, 2700.0};
  if (name == "cfrp") return Material{135e9, 5e9, 1600.0};
  return std::nullopt;
}

std::vector<std::string> materialPresetNames() { return {"steel", "aluminium", "cfrp"}; }

}  // namespace flexarm
