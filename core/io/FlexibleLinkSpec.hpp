#pragma once
// How a link of an imported robot is made flexible, written on one line (flexarm-cli import-urdf
// --flexible LINK=SPEC): the beam's length (it runs toward the next joint) and its `flex` object
// (docs/project-format.md §3.3), in a short form
//   LINK=length=0.7,section=tube:0.08:0.072,material=aluminium,basis=modes:2
// or as JSON: LINK={"length": 0.7, "section": {...}, "material": {...}, "basis": "fem", ...}.
//   length=L               [m]; absent: the distance to the next joint's origin (or the tool frame)
//   section=rectangle:W:H | tube:D:d | ibeam:B:H:TF:TW | A:Iy:Iz:J    [m, m², m⁴] (required)
//   material=steel | aluminium | cfrp | E:G:RHO                        [Pa, Pa, kg/m³] (required)
//   basis=modes:N (N modes per bending direction) | modes:AXIAL:BY:BZ:TORSION | fem:N | fem:N:planar
//                          (default modes:2)
//   rayleigh=ALPHA:BETA    [1/s, s] (optional)
// The values are checked where the project loader checks them (the imported project is read back).
#include <optional>
#include <string>

#include "base/Result.hpp"
#include "io/JsonReader.hpp"

namespace flexarm {

struct FlexibleLinkSpec {
  std::string link;              // the URDF link's name
  std::optional<double> length;  // [m]
  Json flex = Json::object();    // the project's links[i].flex object
};

// Parses "LINK=SPEC"; the error names the part that is wrong ("section: ...").
Result<FlexibleLinkSpec> parseFlexibleLinkSpec(const std::string& text);
}  // namespace flexarm
