// The key table of ProjectSchema.hpp: every key of a project file, defined once.
#include <stdexcept>
#include <unordered_map>

#include "io/ProjectSchema.hpp"

namespace flexarm::schema {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kMaxMass = 1e9;  // kg, of a link, joint or payload
constexpr double kMaxLoad = 1e9;  // N or N m, each component of a load
const Json kNone;                 // no fallback, no initial value

Json zeros3() { return Json::array({0.0, 0.0, 0.0}); }

// The builders of the table's rows: k(...) gives the common part, the others fill what differs.
Key k(const std::string& path, Type type, const char* unit, Need need, const char* label, Json fallback = kNone,
      Range range = Range::Any) {
  Key key;
  key.path = path;
  key.type = type;
  key.unit = unit;
  key.need = need;
  key.range = range;
  key.fallback = std::move(fallback);
  key.label = label;
  return key;
}
Key number(const std::string& path, const char* unit, Need need, Range range, const char* label, Json fallback = kNone) {
  return k(path, Type::Number, unit, need, label, std::move(fallback), range);
}
Key integer(const std::string& path, Need need, double lower, double upper, const char* label, Json fallback = kNone) {
  Key key = k(path, Type::Integer, "", need, label, std::move(fallback));
  key.lower = lower;
  key.upper = upper;
  return key;
}
Key choice(const std::string& path, std::vector<std::string> choices, Need need, const char* label, Json fallback = kNone) {
  Key key = k(path, Type::Choice, "", need, label, std::move(fallback));
  key.choices = std::move(choices);
  return key;
}
Key object(const std::string& path, Need need, Json fallback = kNone) {
  return k(path, Type::Object, "", need, "", std::move(fallback));
}
Key withChoices(Key key, std::vector<std::string> choices) {
  key.choices = std::move(choices);
  return key;
}
Key withInitial(Key key, Json initial) {
  key.initial = std::move(initial);
  return key;
}
Key bounded(Key key, double lower, double upper) {
  key.lower = lower;
  key.upper = upper;
  return key;
}

std::vector<Key> buildKeys() {
  const SimulationSettings& s = simulationDefaults();
  const Joint joint;
  const Payload payload;
  const std::string L = "links[].", F = "links[].flex.", J = "joints[].", P = "payloads[].", C = "constraints[].",
                    LD = "loads[].";
  const std::string S = "simulation.", SV = "simulation.solver.";
  std::vector<Key> t = {
      k("format", Type::Text, "", Need::Required, "format"),
      integer("schema_version", Need::Required, 1, Project::kSchemaVersion, "schema version"),
      k("name", Type::Text, "", Need::Optional, "name", ""),
      k("description", Type::Text, "", Need::Optional, "description", ""),
      choice("coupling", couplingNames(), Need::Optional, "coupling order", couplingName(Project{}.coupling)),
      bounded(k("gravity", Type::Vector3, "m/s²", Need::Optional, "gravity", vec3Json(Model{}.gravity)), -kInf, 981.0),
      k("links", Type::Array, "", Need::Required, "links"),
      // links[i]
      k(L + "name", Type::Name, "", Need::Optional, "name"),
      withInitial(bounded(number(L + "length", "m", Need::Required, Range::NonNegative, "length"), 0.0, 1e3), 1.0),
      // Masses up to 1e9 kg (the ISS is 4.2e5 kg): their sums and the energies they carry stay finite.
      withInitial(bounded(number(L + "mass", "kg", Need::Required, Range::Positive, "mass"), 0.0, kMaxMass), 1.0),
      withInitial(object(L + "shape", Need::Required), Json{{"type", shapeName(ShapePreset::Kind::Rod)}}),  // a new link: a rod
      choice(L + "shape.type", enumNames<ShapePreset::Kind>(shapeName), Need::Required, "shape"),
      number(L + "shape.width", "m", Need::Required, Range::Positive, "width (along y)"),
      number(L + "shape.height", "m", Need::Required, Range::Positive, "height (along z)"),
      number(L + "shape.radius", "m", Need::Required, Range::Positive, "radius"),
      number(L + "shape.inner_radius", "m", Need::Required, Range::NonNegative, "inner radius"),
      k(L + "com", Type::Vector3, "m", Need::Required, "centre of mass"),
      k(L + "inertia", Type::Inertia, "kg m²", Need::Required, "inertia Ixx, Iyy, Izz [, Ixy, Ixz, Iyz]"),
      object(L + "flex", Need::Optional),
      // links[i].flex
      object(F + "section", Need::Required),
      choice(F + "section.preset", enumNames<SectionPreset::Kind>(sectionPresetName), Need::Required, "section"),
      // Physical plausibility (issue 45): beyond these bounds a beam has no meaning in double precision
      // (an area of 1e-300 m² gives a mass and frequencies that underflow or are NaN), yet they hold every
      // real beam with room to spare: areas from a 1 µm fibre (1e-12 m²) to a 100 m x 100 m section
      // (1e4 m²), second moments from a 0.1 µm fibre (5e-30 m⁴) to that section (8e6 m⁴).
      bounded(number(F + "section.A", "m²", Need::Required, Range::Positive, "area A"), 1e-12, 1e4),
      bounded(number(F + "section.Iy", "m⁴", Need::Required, Range::Positive, "Iy (bending in x-z)"), 1e-30, 1e8),
      bounded(number(F + "section.Iz", "m⁴", Need::Required, Range::Positive, "Iz (bending in x-y)"), 1e-30, 1e8),
      bounded(number(F + "section.J", "m⁴", Need::Required, Range::Positive, "torsion constant J"), 1e-30, 1e8),
      number(F + "section.width", "m", Need::Required, Range::Positive, "width (along y)"),
      number(F + "section.height", "m", Need::Required, Range::Positive, "height (along z)"),
      number(F + "section.outer_diameter", "m", Need::Required, Range::Positive, "outer diameter"),
      number(F + "section.inner_diameter", "m", Need::Required, Range::NonNegative, "inner diameter"),
      number(F + "section.flange_thickness", "m", Need::Required, Range::Positive, "flange thickness"),
      number(F + "section.web_thickness", "m", Need::Required, Range::Positive, "web thickness"),
      withInitial(object(F + "material", Need::Required), Json{{"preset", "aluminium"}}),
      choice(F + "material.preset", materialPresetNames(), Need::Required, "material"),
      // Moduli from soft gels (1e3 Pa) to a million times steel (1e18 Pa, which the rigid-limit checks use;
      // diamond is 1.2e12 Pa); densities from aerogels and gases (1e-3 kg/m³) to far beyond osmium (2.3e4).
      bounded(number(F + "material.E", "Pa", Need::Required, Range::Positive, "Young's modulus E"), 1e3, 1e18),
      bounded(number(F + "material.G", "Pa", Need::Required, Range::Positive, "shear modulus G"), 1e3, 1e18),
      bounded(number(F + "material.rho", "kg/m³", Need::Required, Range::Positive, "density rho"), 1e-3, 1e6),
      withInitial(choice(F + "basis", {"modes", "fem"}, Need::Required, "basis"), "fem"),
      object(F + "modes", Need::Required),
      integer(F + "modes.axial", Need::Optional, 0, 20, "axial modes", 0),
      withInitial(integer(F + "modes.bending_y", Need::Optional, 0, 20, "bending modes along y", 0), 2),
      withInitial(integer(F + "modes.bending_z", Need::Optional, 0, 20, "bending modes along z", 0), 2),
      integer(F + "modes.torsion", Need::Optional, 0, 20, "torsion modes", 0),
      withInitial(integer(F + "elements", Need::Optional, 1, 200, "elements", 10), 4),
      withInitial(choice(F + "layout", {"spatial", "planar"}, Need::Optional, "layout", "spatial"), "spatial"),
      k(F + "nodes", Type::Numbers, "m", Need::Optional, "node positions (empty: equal elements)", Json::array()),
      choice(F + "root", {"clamped", "free"}, Need::Optional, "root", "clamped"),
      integer(F + "reduce_to", Need::Optional, 0, kInf, "modal reduction (0: none)", 0),
      k(F + "rayleigh", Type::Numbers, "1/s, s", Need::Optional, "Rayleigh alpha, beta", Json::array({0.0, 0.0}),
        Range::NonNegative),
      k(F + "modal_damping", Type::Numbers, "-", Need::Optional, "modal damping ratios", Json::array(), Range::NonNegative),
      k(F + "e0", Type::Numbers, "m, rad", Need::Optional, "initial elastic coordinates e0", Json::array()),
      k(F + "initial_load", Type::Vector3, "N/m", Need::Optional, "static shape under the load px, py, pz", zeros3()),
      k(F + "ed0", Type::Numbers, "m/s, rad/s", Need::Optional, "initial elastic rates ed0", Json::array()),
      // joints[i]
      k("joints", Type::Array, "", Need::Required, "joints"),
      k(J + "name", Type::Name, "", Need::Optional, "name"),
      k(J + "parent", Type::Text, "", Need::Optional, "parent link"),
      withInitial(
          choice(J + "type", {jointTypeName(JointType::Revolute), jointTypeName(JointType::Prismatic)}, Need::Required, "type"),
          jointTypeName(joint.type)),
      withInitial(k(J + "axis", Type::Vector3, "-", Need::Required, "axis (joint frame)"), Json::array({0.0, 1.0, 0.0})),
      object(J + "placement", Need::Optional),
      k(J + "placement.xyz", Type::Vector3, "m", Need::Optional, "placement xyz", vec3Json(joint.placement.xyz)),
      k(J + "placement.rpy", Type::Vector3, "rad", Need::Optional, "placement roll, pitch, yaw", vec3Json(joint.placement.rpy)),
      number(J + "q0", "rad|m", Need::Optional, Range::Any, "initial q", joint.q0),
      number(J + "qd0", "rad/s|m/s", Need::Optional, Range::Any, "initial rate", joint.qd0),
      number(J + "damping", "N m s/rad|N s/m", Need::Optional, Range::NonNegative, "damping", joint.damping),
      bounded(number(J + "mass", "kg", Need::Optional, Range::NonNegative, "joint mass", joint.mass), 0.0, kMaxMass),
      object(J + "flex", Need::Optional),
      withInitial(number(J + "flex.stiffness", "N m/rad|N/m", Need::Required, Range::Positive, "stiffness k"), 1000.0),
      number(J + "flex.damping", "N m s/rad|N s/m", Need::Optional, Range::NonNegative, "damping c", JointFlex{}.damping),
      withInitial(number(J + "flex.rotor_inertia", "kg m²|kg", Need::Required, Range::Positive, "rotor inertia J"), 0.01),
      bounded(number(J + "flex.gear_ratio", "-", Need::Optional, Range::Positive, "gear ratio N", JointFlex{}.gear_ratio), 1e-3,
              1e5),
      number(J + "flex.torsion0", "rad|m", Need::Optional, Range::Any, "initial torsion", JointFlex{}.torsion0),
      number(J + "flex.torsiond0", "rad/s|m/s", Need::Optional, Range::Any, "initial torsion rate", JointFlex{}.torsiond0),
      object(J + "drive", Need::Optional, Json{{"type", driveKindName(JointDrive{}.kind)}}),
      choice(J + "drive.type", driveTypeNames(), Need::Required, "drive", driveKindName(JointDrive{}.kind)),
      withInitial(number(J + "drive.kp", "N m/rad|N/m", Need::Required, Range::NonNegative, "kp"), 100.0),
      withInitial(number(J + "drive.kd", "N m s/rad|N s/m", Need::Required, Range::NonNegative, "kd"), 10.0),
      k(J + "drive.setpoint", Type::Law, "rad|m", Need::Required, "set-point law"),
      object(J + "limits", Need::Optional),
      number(J + "limits.lower", "rad|m", Need::Optional, Range::Any, "lower limit"),
      number(J + "limits.upper", "rad|m", Need::Optional, Range::Any, "upper limit"),
      number(J + "limits.effort", "N m|N", Need::Optional, Range::NonNegative, "largest effort"),
      number(J + "limits.velocity", "rad/s|m/s", Need::Optional, Range::NonNegative, "largest rate"),
      // payloads[i]
      k("payloads", Type::Array, "", Need::Optional, "payloads", Json::array()),
      k(P + "name", Type::Name, "", Need::Optional, "name"),
      k(P + "link", Type::Text, "", Need::Required, "link"),
      withInitial(choice(P + "frame", {"body", "distal", "section"}, Need::Optional, "offset frame", "body"), "distal"),
      k(P + "offset", Type::Vector3, "m", Need::Optional, "offset", vec3Json(payload.offset)),
      withInitial(bounded(number(P + "mass", "kg", Need::Required, Range::Positive, "mass"), 0.0, kMaxMass), 1.0),
      k(P + "inertia", Type::Inertia, "kg m²", Need::Optional, "inertia Ixx, Iyy, Izz [, Ixy, Ixz, Iyz]", zeros3()),
      // loads[i]: up to 1e9 N and N m (a Saturn V's thrust is 3.4e7 N), so that the work they do stays finite
      k("loads", Type::Array, "", Need::Optional, "loads", Json::array()),
      k(LD + "name", Type::Name, "", Need::Optional, "name"),
      k(LD + "link", Type::Text, "", Need::Required, "link"),
      bounded(k(LD + "point", Type::Vector3, "m", Need::Required, "point (body frame; x along a flexible link)"), -1e4, 1e4),
      withInitial(bounded(k(LD + "force", Type::Vector3, "N", Need::Optional, "force", zeros3()), -kMaxLoad, kMaxLoad),
                  Json::array({0.0, 0.0, -10.0})),  // a new load: 10 N downwards
      bounded(k(LD + "torque", Type::Vector3, "N m", Need::Optional, "torque", zeros3()), -kMaxLoad, kMaxLoad),
      choice(LD + "axes", {"world", "link"}, Need::Optional, "axes of force and torque", "world"),
      k(LD + "law", Type::Law, "", Need::Optional, "scale in time", Json{{"law", "constant"}, {"value", 1.0}}),
      // constraints[i]
      k("constraints", Type::Array, "", Need::Optional, "constraints", Json::array()),
      k(C + "name", Type::Name, "", Need::Optional, "name"),
      choice(C + "type", enumNames<Constraint::Kind>(constraintKindName), Need::Required, "type"),
      k(C + "terms", Type::Object, "-", Need::Required, "terms: coordinate = c_k"),
      k(C + "value", Type::Law, "", Need::Optional, "value law f(t)", Json{{"law", "constant"}, {"value", 0.0}}),
      k(C + "link", Type::Text, "", Need::Required, "link"),
      k(C + "point", Type::Vector3, "m", Need::Optional, "point (link body frame)", zeros3()),
      k(C + "world", Type::Vector3, "m", Need::Optional, "held at (world)"),
      k(C + "other_link", Type::Text, "", Need::Optional, "other link"),
      k(C + "other_point", Type::Vector3, "m", Need::Optional, "point (other link's body frame)", zeros3()),
      k(C + "axis", Type::Vector3, "-", Need::Optional, "axis (link frame)", Json::array({0.0, 0.0, 1.0})),
      withChoices(k(C + "axes", Type::Text, "", Need::Optional, "world axes held", "xyz"),
                  {"xyz", "xy", "xz", "yz", "x", "y", "z"}),  // any of x, y, z: the editor offers these
      number(C + "position", "m", Need::Required, Range::Any, "support position (joint axis)"),
      k(C + "clamp_slope", Type::Boolean, "", Need::Optional, "also zero slope (sleeve)", false),
      // inverse dynamics, variants, study
      object("inverse_dynamics", Need::Optional),
      object("inverse_dynamics.path", Need::Required),
      k("inverse_dynamics.path.x", Type::Law, "m", Need::Optional, "x"),
      k("inverse_dynamics.path.y", Type::Law, "m", Need::Optional, "y"),
      k("inverse_dynamics.path.z", Type::Law, "m", Need::Optional, "z"),
      k("variants", Type::Array, "", Need::Optional, "variants", Json::array()),
      k("variants[].name", Type::Name, "", Need::Optional, "name"),
      k("variants[].set", Type::Object, "", Need::Required, "overrides"),
      object("study", Need::Optional),
      k("study.variants", Type::Array, "", Need::Optional, "variants in the study"),
      k("study.grid", Type::Object, "", Need::Optional, "grid"),
      // simulation
      object("simulation", Need::Optional),
      bounded(number(S + "t_end", "s", Need::Optional, Range::Positive, "end time", s.t_end), 0.0, 1e6),
      bounded(number(S + "t_start", "s", Need::Optional, Range::NonNegative, "start time", s.t_start), 0.0, 1e6),
      bounded(number(S + "output_rate", "Hz", Need::Optional, Range::Positive, "output rate", s.output_rate), 0.0, 1e6),
      bounded(number(S + "accuracy", "-", Need::Optional, Range::Positive, "accuracy (fraction of excursion)", s.accuracy), 1e-10,
              0.5),
      number(S + "divergence_ratio", "-", Need::Optional, Range::Positive, "divergence: tip deflection / length",
             s.divergence_ratio),
      object(SV.substr(0, SV.size() - 1), Need::Optional),
      choice(SV + "method", methodNames(), Need::Optional, "method", methodName(s.method)),
      number(SV + "rtol", "-", Need::Optional, Range::NonNegative, "relative tolerance (0: from the accuracy)", s.rtol),
      number(SV + "atol", "-", Need::Optional, Range::NonNegative, "absolute tolerance (0: from the accuracy)", s.atol),
      number(SV + "max_step", "s", Need::Optional, Range::NonNegative, "largest step (0: no limit)", s.max_step),
      number(SV + "initial_step", "s", Need::Optional, Range::NonNegative, "first step (0: the solver's own)", s.initial_step),
      integer(SV + "max_steps", Need::Optional, 1, kInf, "step limit", s.max_steps),
      integer(SV + "max_order", Need::Optional, 0, 12,
              "order (BDF, Adams: the largest; dirk, esdirk: the table's; 0: the default)", s.max_order),
      choice(SV + "jacobian", jacobianNames(), Need::Optional, "Newton matrix", jacobianName(s.jacobian)),
      bounded(number(SV + "rho_inf", "-", Need::Optional, Range::NonNegative, "galpha damping rho_inf (0-1; 1: none)", s.rho_inf),
              0.0, 1.0),
      number(SV + "step", "s", Need::Optional, Range::Positive, "Newmark step", s.step),
      object(SV + "newmark", Need::Optional),
      number(SV + "newmark.alpha", "-", Need::Optional, Range::Positive, "Newmark alpha", s.newmark_alpha),
      number(SV + "newmark.delta", "-", Need::Optional, Range::Positive, "Newmark delta", s.newmark_delta),
      object(SV + "baumgarte", Need::Optional),
      number(SV + "baumgarte.gamma", "1/s", Need::Optional, Range::NonNegative, "Baumgarte gamma", s.baumgarte_gamma),
      number(SV + "baumgarte.beta", "1/s²", Need::Optional, Range::NonNegative, "Baumgarte beta", s.baumgarte_beta),
  };
  return t;
}

}  // namespace

const char* typeName(Type type) {
  switch (type) {
    case Type::Text: return "string";
    case Type::Name: return "name";
    case Type::Number: return "number";
    case Type::Integer: return "integer";
    case Type::Vector3: return "[x, y, z]";
    case Type::Numbers: return "array of numbers";
    case Type::Inertia: return "3 or 6 numbers";
    case Type::Choice: return "choice";
    case Type::Boolean: return "true | false";
    case Type::Object: return "object";
    case Type::Array: return "array";
    case Type::Law: return "law";
  }
  return "?";
}

std::string Key::name() const {
  const std::size_t dot = path.rfind('.');
  return dot == std::string::npos ? path : path.substr(dot + 1);
}

const std::vector<Key>& keys() {
  static const std::vector<Key> table = buildKeys();
  return table;
}

const Key& key(const std::string& path) {
  static const std::unordered_map<std::string, const Key*> index = [] {
    std::unordered_map<std::string, const Key*> out;
    for (const Key& k : keys()) out.emplace(k.path, &k);
    return out;
  }();
  const auto it = index.find(path);
  if (it == index.end()) throw std::logic_error("the project schema has no key " + path);
  return *it->second;
}

std::vector<const Key*> keysUnder(const std::string& path) {
  std::vector<const Key*> out;
  const std::string prefix = path + ".";
  for (const Key& k : keys())
    if (k.path.rfind(prefix, 0) == 0 && k.path.find('.', prefix.size()) == std::string::npos) out.push_back(&k);
  return out;
}

Json newObject(const std::string& path) {
  Json out = Json::object();
  for (const Key* k : keysUnder(path))
    if (!k->initial.is_null()) out[k->name()] = k->initial;
  return out;
}

std::string unitFor(const char* unit, bool revolute) {
  const std::string u = unit;
  const std::size_t bar = u.find('|');
  if (bar == std::string::npos) return u;
  return revolute ? u.substr(0, bar) : u.substr(bar + 1);
}

std::string docUnit(const char* unit) {
  std::string u = unit;
  const std::size_t bar = u.find('|');
  if (bar != std::string::npos) u.replace(bar, 1, " / ");
  return u;
}

namespace {
const Key* at(const std::string& path) { return &key(path); }
}  // namespace

const std::vector<PresetSpec<SectionPreset>>& sectionPresets() {
  using S = SectionPreset;
  using K = SectionPreset::Kind;
  const std::string F = "links[].flex.section.";
  static const std::vector<PresetSpec<S>> table = {
      {K::Rectangle, sectionPresetName(K::Rectangle), {{at(F + "width"), &S::width, 0.05}, {at(F + "height"), &S::height, 0.01}}},
      {K::Tube,
       sectionPresetName(K::Tube),
       {{at(F + "outer_diameter"), &S::outer_diameter, 0.05}, {at(F + "inner_diameter"), &S::inner_diameter, 0.04}}},
      {K::IBeam,
       sectionPresetName(K::IBeam),
       {{at(F + "width"), &S::width, 0.05},
        {at(F + "height"), &S::height, 0.1},
        {at(F + "flange_thickness"), &S::flange_thickness, 0.008},
        {at(F + "web_thickness"), &S::web_thickness, 0.005}}},
  };
  return table;
}

const std::vector<PresetSpec<ShapePreset>>& shapePresets() {
  using S = ShapePreset;
  using K = ShapePreset::Kind;
  const std::string L = "links[].shape.";
  static const std::vector<PresetSpec<S>> table = {
      {K::Rod, shapeName(K::Rod), {}},
      {K::Box, shapeName(K::Box), {{at(L + "width"), &S::width, 0.05}, {at(L + "height"), &S::height, 0.05}}},
      {K::Cylinder, shapeName(K::Cylinder), {{at(L + "radius"), &S::radius, 0.025}}},
      {K::Tube, shapeName(K::Tube), {{at(L + "radius"), &S::radius, 0.025}, {at(L + "inner_radius"), &S::inner_radius, 0.02}}},
  };
  return table;
}

namespace {
template <class Preset>
std::vector<std::string> presetNames(const std::vector<PresetSpec<Preset>>& table) {
  std::vector<std::string> out;
  for (const PresetSpec<Preset>& p : table) out.push_back(p.name);
  return out;
}
template <class Preset>
Json newPreset(const std::vector<PresetSpec<Preset>>& table, const char* kind_key, const std::string& name) {
  for (const PresetSpec<Preset>& p : table) {
    if (name != p.name) continue;
    Json j = {{kind_key, name}};
    for (const Dimension<Preset>& d : p.dimensions) j[d.key->name()] = d.initial;
    return j;
  }
  return nullptr;
}
}  // namespace

std::vector<std::string> sectionPresetNames() { return presetNames(sectionPresets()); }
std::vector<std::string> shapeNames() { return presetNames(shapePresets()); }
Json newSection(const std::string& preset) { return newPreset(sectionPresets(), "preset", preset); }
Json newShape(const std::string& type) { return newPreset(shapePresets(), "type", type); }

Json newFlexibleLink() {
  Json flex = {{"section", newSection(sectionPresetName(SectionPreset::Kind::Tube))}};
  flex.update(newObject("links[].flex"));
  return flex;
}

namespace {
// The fields of T under `object`, each named by its key.
template <class T>
std::vector<Field<T>> fields(const std::string& object, std::initializer_list<std::pair<const char*, double T::*>> named) {
  std::vector<Field<T>> out;
  for (const auto& [name, field] : named) out.push_back({at(object + "." + name), field});
  return out;
}
}  // namespace

const std::vector<Field<BeamSection>>& sectionProperties() {
  using B = BeamSection;
  static const auto table = fields<B>("links[].flex.section", {{"A", &B::A}, {"Iy", &B::Iy}, {"Iz", &B::Iz}, {"J", &B::J}});
  return table;
}

const std::vector<Field<Material>>& materialProperties() {
  using M = Material;
  static const auto table = fields<M>("links[].flex.material", {{"E", &M::E}, {"G", &M::G}, {"rho", &M::rho}});
  return table;
}

const std::vector<Field<JointFlex>>& jointFlexProperties() {
  using F = JointFlex;
  static const auto table = fields<F>("joints[].flex", {{"stiffness", &F::stiffness},
                                                        {"damping", &F::damping},
                                                        {"rotor_inertia", &F::rotor_inertia},
                                                        {"gear_ratio", &F::gear_ratio}});
  return table;
}

}  // namespace flexarm::schema
