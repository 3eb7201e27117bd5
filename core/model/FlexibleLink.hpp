#pragma once
// The elastic description of a flexible link: Euler-Bernoulli beam section, material,
// discretization (assumed modes or finite elements) and structural damping.
// Deformation in the link body frame: axial u (x), transverse v (y) and w (z), twist phi (about x).
#include <Eigen/Core>
#include <optional>
#include <string>
#include <vector>

namespace flexarm {

// Cross-section properties [SI]. Iz = integral of y^2 dA governs bending in y (deflection v);
// Iy = integral of z^2 dA governs bending in z (deflection w); J is the torsion constant
// (stiffness G J); the polar moment Iy + Iz gives the torsional mass moment rho (Iy + Iz).
struct BeamSection {
  double A = 0.0;   // [m^2]
  double Iy = 0.0;  // [m^4]
  double Iz = 0.0;  // [m^4]
  double J = 0.0;   // [m^4]
  double polar() const { return Iy + Iz; }
};

// Section presets computed from dimensions; the preset is remembered for saving.
struct SectionPreset {
  enum class Kind { Rectangle, Tube, IBeam };
  Kind kind = Kind::Rectangle;
  double width = 0.0;             // Rectangle: along y; IBeam: flange width (along y)
  double height = 0.0;            // Rectangle: along z; IBeam: total height (along z)
  double outer_diameter = 0.0;    // Tube
  double inner_diameter = 0.0;    // Tube
  double flange_thickness = 0.0;  // IBeam
  double web_thickness = 0.0;     // IBeam
};
BeamSection sectionFromPreset(const SectionPreset& preset);
const char* sectionPresetName(SectionPreset::Kind kind);

struct Material {
  double E = 0.0;    // Young's modulus [Pa]
  double G = 0.0;    // shear modulus [Pa]
  double rho = 0.0;  // density [kg/m^3]
};
// "steel", "aluminium", "cfrp"; empty optional for an unknown name.
std::optional<Material> materialPreset(const std::string& name);
std::vector<std::string> materialPresetNames();

struct LinkDiscretization {
  enum class Kind { AssumedModes, FiniteElements };
  Kind kind = Kind::AssumedModes;
  // Assumed modes: number of clamped-free eigenfunctions per family.
  int axial = 0, bending_y = 3, bending_z = 0, torsion = 0;
  // Finite elements.
  int elements = 10;
  bool planar = false;        // planar: (v, v') per node, bending in the x-y plane only; spatial: 6 DOF per node
  std::vector<double> nodes;  // optional user-placed node positions 0 < x1 < ... < L (empty: equal elements)
  int reduce_to = 0;          // > 0: keep only this many lowest clamped-free modes of the FE model
  // Planar elements only: the root node's deflection and slope are coordinates too (the link is
  // not clamped to its joint frame), for a beam held by sliding supports (Pan et al. 1990 sec. 5).
  bool free_root = false;
};

struct StructuralDamping {
  double rayleigh_alpha = 0.0;       // C = alpha M + beta K  [1/s]
  double rayleigh_beta = 0.0;        //                       [s]
  std::vector<double> modal_ratios;  // zeta_k of the link's k-th clamped-free mode (added to Rayleigh)
};

struct FlexibleLink {
  BeamSection section;
  std::optional<SectionPreset> section_preset;  // when set, section was computed from it (and is saved as it)
  Material material;
  std::string material_preset;  // when not empty, material follows from it
  LinkDiscretization discretization;
  StructuralDamping damping;
  std::vector<double> e0;   // initial elastic coordinates (empty: undeformed)
  std::vector<double> ed0;  // initial elastic rates (empty: at rest)
  // Initial deflection: the static shape under this uniform load per length [N/m] (y and z of the
  // body frame; x is ignored), with the joints at their initial values and the constraints held.
  std::optional<Eigen::Vector3d> initial_load;
};

}  // namespace flexarm
