// Reads a project file: one walk over the JSON document, every problem a diagnostic with its path.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <limits>
#include <set>

#include "base/Constants.hpp"
#include "base/Files.hpp"
#include "base/Text.hpp"
#include "discretization/ConstraintCheck.hpp"
#include "io/Overrides.hpp"
#include "io/ProjectFile.hpp"
#include "io/ProjectSchema.hpp"
#include "io/TableFile.hpp"
#include "model/SolverMethods.hpp"

namespace flexarm {
namespace {

using schema::key;

// Each reads the key `k` of the schema from r with its need, range and choices (ProjectSchema.hpp);
// true when a valid value was read into `out`.
bool read(JsonObjectReader& r, const schema::Key& k, double& out) { return r.number(k.name(), out, k.need, k.range); }
bool read(JsonObjectReader& r, const schema::Key& k, long& out) {
  return r.integer(k.name(), out, k.need, static_cast<long>(k.lower));
}
bool read(JsonObjectReader& r, const schema::Key& k, Eigen::Vector3d& out) { return r.vector3(k.name(), out, k.need); }
bool read(JsonObjectReader& r, const schema::Key& k, std::string& out) { return r.string(k.name(), out, k.need); }
// The index of the chosen word; the fallback's index when the key is absent, -1 when there is none.
int choose(JsonObjectReader& r, const schema::Key& k) {
  int fallback = -1;
  for (std::size_t i = 0; i < k.choices.size(); ++i)
    if (k.fallback == k.choices[i]) fallback = static_cast<int>(i);
  return r.choice(k.name(), k.choices, k.need, fallback);
}
JsonObjectReader object(JsonObjectReader& r, const schema::Key& k) { return r.object(k.name(), k.need); }

// " m²" for a unit a message may follow a number with; nothing for a pure number ("-").
std::string unitAfter(const schema::Key& k) {
  const std::string unit = k.unit;
  return unit.empty() || unit == "-" ? std::string() : " " + unit;
}

// A number of key k held to the schema's bounds (k.lower, k.upper), beyond which the model has no
// meaning in double precision: an error naming the field and the bound. The value is kept even when
// out of bounds (false is returned), so that what follows from it (a link's mass, its frequency) is
// still checked and named.
bool readWithinBounds(JsonObjectReader& r, const schema::Key& k, double& out) {
  double v = out;
  if (!read(r, k, v)) return false;
  out = v;
  if (v >= k.lower && v <= k.upper) return true;
  r.diagnostics().error(r.pathOf(k.name()),
                        (k.lower > 0.0 ? "must be between " + formatNumber(k.lower) + " and " : std::string("must be at most ")) +
                            formatNumber(k.upper) + unitAfter(k) + ", got " + formatNumber(v));
  return false;
}

// Reads the struct's numbers that the schema lists (a section's A, Iy, ..., a material's E, G, rho).
template <class T>
void readFields(JsonObjectReader& r, const std::vector<schema::Field<T>>& fields, T& out) {
  for (const schema::Field<T>& f : fields) readWithinBounds(r, *f.key, out.*f.field);
}

// Reads a preset's kind (the choice at kind_key) and the dimensions the schema gives it into `out`;
// false when the kind is not valid. `complete`: every dimension was read.
template <class Preset>
bool readPreset(JsonObjectReader& r, const schema::Key& kind_key, const std::vector<schema::PresetSpec<Preset>>& specs,
                Preset& out, bool& complete) {
  const int kind = choose(r, kind_key);
  complete = kind >= 0;
  if (kind < 0) return false;
  out.kind = static_cast<typename Preset::Kind>(kind);
  for (const schema::Dimension<Preset>& dim : specs[static_cast<std::size_t>(kind)].dimensions)
    complete &= read(r, *dim.key, out.*dim.field);
  return true;
}

std::string at(const std::string& path, std::size_t i) { return path + "[" + std::to_string(i) + "]"; }

bool validName(const std::string& s) {
  if (s.empty()) return false;
  for (char c : s)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-')) return false;
  return true;
}

void readName(JsonObjectReader& r, std::string& name, const std::string& fallback) {
  if (!r.string("name", name, Need::Optional)) {
    if (!r.has("name")) name = fallback;
    return;
  }
  if (!validName(name))
    r.diagnostics().error(r.pathOf("name"),
                          inQuotes(name) + " may contain only letters, digits, '_' and '-' (it names result channels)");
}

bool readInertiaComponents(JsonObjectReader& r, const std::string& key, Eigen::Matrix3d& out, Need need) {
  std::vector<double> c;
  if (!r.numbers(key, c, need, 3)) return false;
  if (c.size() != 3 && c.size() != 6) {
    r.diagnostics().error(
        r.pathOf(key), "must be [Ixx, Iyy, Izz] or [Ixx, Iyy, Izz, Ixy, Ixz, Iyz], got " + std::to_string(c.size()) + " numbers");
    return false;
  }
  if (c.size() == 3) c.resize(6, 0.0);
  const Eigen::Matrix3d I = inertiaFromComponents(c[0], c[1], c[2], c[3], c[4], c[5]);
  if (const Status admissible = checkInertia(I); !admissible) {
    r.diagnostics().error(r.pathOf(key), admissible.error().text());
    return false;
  }
  out = I;
  return true;
}

// Reads "law" and its parameters from the object r (a drive or a PD set-point).
void readLaw(JsonObjectReader& r, TimeFunction& f, const std::filesystem::path& base_dir) {
  const int law = r.choice("law", schema::lawNames(), Need::Required, -1);
  if (law < 0) return;
  f.law = static_cast<TimeFunction::Law>(law);
  for (const schema::LawParameter& p : schema::law(f.law).parameters) {
    if (p.list)
      r.numbers(p.key, f.*p.list, p.need, 1);
    else
      r.number(p.key, f.*p.number, p.need, p.range);
  }
  switch (f.law) {  // what is more than numbers
    case TimeFunction::Law::Piecewise: {
      const Json* pieces = r.array("pieces", Need::Required);
      if (!pieces) break;
      const std::string ppath = r.pathOf("pieces");
      if (pieces->empty()) r.diagnostics().error(ppath, "needs at least one piece {\"from\": t, \"law\": {...}}");
      for (std::size_t k = 0; k < pieces->size(); ++k) {
        JsonObjectReader piece(&(*pieces)[k], at(ppath, k), r.diagnostics());
        if (!piece.valid()) continue;
        double from = 0.0;
        piece.number("from", from, Need::Required);
        if (!f.piece_from.empty() && !(from > f.piece_from.back()))
          r.diagnostics().error(piece.pathOf("from"), "the pieces' start times must increase: " + formatNumber(from) + " after " +
                                                          formatNumber(f.piece_from.back()));
        TimeFunction law;
        JsonObjectReader inner = piece.object("law", Need::Required);
        if (inner.valid()) {
          if (const Json* name = inner.raw("law", Need::Optional); name && *name == "piecewise")
            r.diagnostics().error(inner.pathOf("law"), "a piece cannot itself be piecewise: list its pieces here");
          else
            readLaw(inner, law, base_dir);
        }
        inner.finish();
        piece.finish();
        f.piece_from.push_back(from);
        f.pieces.push_back(std::move(law));
      }
      break;
    }
    case TimeFunction::Law::Table: {
      const int interp = r.choice("interpolation", {"linear", "cubic"}, Need::Optional, 0);
      if (interp >= 0) f.interpolation = static_cast<TableInterpolation>(interp);
      const bool has_points = r.has("points"), has_file = r.has("file");
      if (has_points == has_file) {
        r.diagnostics().error(r.path(), "a table needs exactly one of \"points\" or \"file\"");
        r.raw("points", Need::Optional);
        r.raw("file", Need::Optional);
        break;
      }
      if (has_file) {
        if (!r.string("file", f.file, Need::Required)) break;
        std::filesystem::path p(f.file);
        if (p.is_relative()) p = base_dir / p;
        const Result<Table> table = readTableFile(p);
        if (!table) {
          r.diagnostics().error(r.pathOf("file"), table.error().text());
          break;
        }
        f.table_t = table->t;
        f.table_value = table->value;
      } else {
        const Json* pts = r.array("points", Need::Required);
        if (!pts) break;
        const std::string ppath = r.pathOf("points");
        for (std::size_t k = 0; k < pts->size(); ++k) {
          const Json& p = (*pts)[k];
          if (!p.is_array() || p.size() != 2 || !p[0].is_number() || !p[1].is_number() || !std::isfinite(p[0].get<double>()) ||
              !std::isfinite(p[1].get<double>())) {
            r.diagnostics().error(at(ppath, k), "must be a pair [t, value] of finite numbers, got " + describeJson(p));
            f.table_t.clear();
            return;
          }
          f.table_t.push_back(p[0].get<double>());
          f.table_value.push_back(p[1].get<double>());
        }
      }
      const std::string where = has_file ? r.pathOf("file") : r.pathOf("points");
      if (f.table_t.size() < 2) {
        r.diagnostics().error(where, "a table needs at least 2 points, got " + std::to_string(f.table_t.size()));
        break;
      }
      for (std::size_t k = 1; k < f.table_t.size(); ++k) {
        if (!(f.table_t[k] > f.table_t[k - 1])) {
          r.diagnostics().error(where, "times must increase strictly (point " + std::to_string(k) + " at t = " +
                                           formatNumber(f.table_t[k]) + " follows t = " + formatNumber(f.table_t[k - 1]) + ")");
          break;
        }
      }
      f.prepare();
      break;
    }
    default: break;  // the other laws are their parameters, read above
  }
}

void readDrive(JsonObjectReader& r, JointDrive& d, const std::filesystem::path& base_dir) {
  if (!r.valid()) return;
  const int kind = choose(r, key("joints[].drive.type"));
  if (kind < 0) return;
  d.kind = static_cast<JointDrive::Kind>(kind);
  switch (d.kind) {
    case JointDrive::Kind::Free: break;
    case JointDrive::Kind::Effort:
    case JointDrive::Kind::Prescribed: readLaw(r, d.law, base_dir); break;
    case JointDrive::Kind::PD: {
      read(r, key("joints[].drive.kp"), d.kp);
      read(r, key("joints[].drive.kd"), d.kd);
      JsonObjectReader sp = object(r, key("joints[].drive.setpoint"));
      if (sp.valid()) {
        readLaw(sp, d.law, base_dir);
        sp.finish();
      }
      break;
    }
  }
}

constexpr long kMaxCoordinates = 5000;

int elasticCount(const LinkDiscretization& d) {
  if (d.kind == LinkDiscretization::Kind::AssumedModes) return d.axial + d.bending_y + d.bending_z + d.torsion;
  const int elements = d.nodes.empty() ? d.elements : static_cast<int>(d.nodes.size()) + 1;
  const int full = (d.planar ? 2 : 6) * elements + (d.free_root ? 2 : 0);
  return d.reduce_to > 0 ? d.reduce_to : full;
}

void readFlexLink(JsonObjectReader& r, FlexibleLink& f, double length) {
  Diagnostics& diag = r.diagnostics();
  // Section: explicit properties or a preset.
  JsonObjectReader sec = object(r, key("links[].flex.section"));
  if (sec.valid()) {
    if (sec.has(key("links[].flex.section.preset").name())) {
      SectionPreset p;
      bool ok = false;
      if (readPreset(sec, key("links[].flex.section.preset"), schema::sectionPresets(), p, ok)) {
        switch (p.kind) {  // what the dimensions must satisfy together
          case SectionPreset::Kind::Rectangle: break;
          case SectionPreset::Kind::Tube:
            if (ok && p.inner_diameter >= p.outer_diameter) {
              diag.error(sec.pathOf("inner_diameter"), "must be < outer_diameter (" + formatNumber(p.outer_diameter) + "), got " +
                                                           formatNumber(p.inner_diameter));
              ok = false;
            }
            break;
          case SectionPreset::Kind::IBeam:
            if (ok && (2 * p.flange_thickness >= p.height || p.web_thickness >= p.width)) {
              diag.error(sec.path(), "flanges must be thinner than half the height and the web narrower than the width");
              ok = false;
            }
            break;
        }
        if (ok) {
          f.section_preset = p;
          f.section = sectionFromPreset(p);
          // Each dimension is a finite positive number, but their powers may overflow or underflow.
          const BeamSection& s = f.section;
          const std::pair<const char*, double> properties[] = {{"A", s.A}, {"Iy", s.Iy}, {"Iz", s.Iz}, {"J", s.J}};
          bool finite = true;
          for (auto [name, value] : properties) {
            if (!(std::isfinite(value) && value > 0.0)) {
              diag.error(sec.path(), std::string("the dimensions give ") + name + " = " + formatNumber(value) +
                                         ", which must be a finite number > 0 (the dimensions are out of range)");
              finite = false;
              break;
            }
          }
          for (auto [name, value] : properties) {
            const schema::Key& k = key(std::string("links[].flex.section.") + name);
            if (finite && (value < k.lower || value > k.upper)) {  // the bounds of an explicit section (ProjectSchemaKeys.cpp)
              diag.error(sec.path(), std::string("the dimensions give ") + name + " = " + formatNumber(value) + unitAfter(k) +
                                         ", which must be between " + formatNumber(k.lower) + " and " + formatNumber(k.upper));
              break;
            }
          }
        }
      }
    } else {
      readFields(sec, schema::sectionProperties(), f.section);
    }
    sec.finish();
  }
  // Material: explicit or a preset.
  JsonObjectReader mat = object(r, key("links[].flex.material"));
  if (mat.valid()) {
    const schema::Key& preset = key("links[].flex.material.preset");
    if (mat.has(preset.name())) {
      const int k = choose(mat, preset);
      if (k >= 0) {
        f.material_preset = preset.choices[static_cast<std::size_t>(k)];
        f.material = *materialPreset(f.material_preset);
      }
    } else {
      readFields(mat, schema::materialProperties(), f.material);
    }
    mat.finish();
  }
  // Discretization.
  LinkDiscretization& d = f.discretization;
  const int basis = choose(r, key("links[].flex.basis"));
  if (basis == 0) {
    d.kind = LinkDiscretization::Kind::AssumedModes;
    JsonObjectReader mo = object(r, key("links[].flex.modes"));
    if (mo.valid()) {
      const std::pair<const schema::Key*, int*> families[] = {{&key("links[].flex.modes.axial"), &d.axial},
                                                              {&key("links[].flex.modes.bending_y"), &d.bending_y},
                                                              {&key("links[].flex.modes.bending_z"), &d.bending_z},
                                                              {&key("links[].flex.modes.torsion"), &d.torsion}};
      long counts[4] = {0, 0, 0, 0}, total = 0;
      for (int k = 0; k < 4; ++k) read(mo, *families[k].first, counts[k]);
      for (int k = 0; k < 4; ++k) {
        const schema::Key& family = *families[k].first;
        if (counts[k] > family.upper)
          diag.error(mo.pathOf(family.name()), "at most " + std::to_string(static_cast<long>(family.upper)) +
                                                   " modes per family, got " + std::to_string(counts[k]));
        *families[k].second = static_cast<int>(counts[k]);
        total += counts[k];
      }
      if (total == 0) diag.error(mo.path(), "a flexible link needs at least one mode");
      mo.finish();
    }
  } else if (basis == 1) {
    d.kind = LinkDiscretization::Kind::FiniteElements;
    const schema::Key& elements_key = key("links[].flex.elements");
    const long most = static_cast<long>(elements_key.upper);
    long elements = elements_key.fallback.get<long>();
    if (read(r, elements_key, elements) && elements > most)
      diag.error(r.pathOf(elements_key.name()), "at most " + std::to_string(most) + " elements, got " + std::to_string(elements));
    d.elements = static_cast<int>(std::min(elements, most));
    d.planar = choose(r, key("links[].flex.layout")) == 1;
    if (r.numbers(key("links[].flex.nodes").name(), d.nodes, Need::Optional, 1)) {
      for (std::size_t k = 0; k < d.nodes.size(); ++k) {
        const double lo = k == 0 ? 0.0 : d.nodes[k - 1];
        if (!(d.nodes[k] > lo) || d.nodes[k] > length) {
          diag.error(r.pathOf("nodes") + "[" + std::to_string(k) + "]",
                     "node positions must increase strictly within (0, length = " + formatNumber(length) + "]");
          d.nodes.clear();
          break;
        }
      }
      if (!d.nodes.empty()) {
        if (d.nodes.back() < length) d.nodes.push_back(length);
        d.elements = static_cast<int>(d.nodes.size());
        d.nodes.pop_back();  // stored without the tip node: elements = nodes.size() + 1
      }
    }
    d.free_root = choose(r, key("links[].flex.root")) == 1;
    if (d.free_root && !d.planar)
      diag.error(r.pathOf("root"), "a free root is available for planar elements only (\"layout\": \"planar\")");
    long reduce = 0;
    read(r, key("links[].flex.reduce_to"), reduce);
    d.reduce_to = static_cast<int>(reduce);
    if (d.free_root && d.reduce_to > 0)
      diag.error(r.pathOf("reduce_to"), "modal reduction needs a clamped root (the free beam's lowest modes are rigid)");
    const int full =
        (d.planar ? 2 : 6) * (d.nodes.empty() ? d.elements : static_cast<int>(d.nodes.size()) + 1) + (d.free_root ? 2 : 0);
    if (d.reduce_to > full)
      diag.error(r.pathOf("reduce_to"), "cannot keep " + std::to_string(d.reduce_to) + " modes of a model with " +
                                            std::to_string(full) + " coordinates");
  }
  // Damping.
  std::vector<double> ab;
  const schema::Key& rayleigh = key("links[].flex.rayleigh");
  if (r.numbers(rayleigh.name(), ab, rayleigh.need, 2)) {
    if (ab.size() != 2 || ab[0] < 0 || ab[1] < 0)
      diag.error(r.pathOf(rayleigh.name()), "must be [alpha, beta] with alpha, beta >= 0");
    else
      f.damping.rayleigh_alpha = ab[0], f.damping.rayleigh_beta = ab[1];
  }
  const schema::Key& modal = key("links[].flex.modal_damping");
  if (r.numbers(modal.name(), f.damping.modal_ratios, modal.need, 0)) {
    for (double z : f.damping.modal_ratios)
      if (z < 0) diag.error(r.pathOf(modal.name()), "damping ratios must be >= 0");
  }
  for (auto [k, values] : {std::pair<const schema::Key*, std::vector<double>*>{&key("links[].flex.e0"), &f.e0},
                           {&key("links[].flex.ed0"), &f.ed0}}) {
    if (!r.numbers(k->name(), *values, k->need, 0) || basis < 0) continue;
    const int m = elasticCount(d);
    if (static_cast<int>(values->size()) != m)
      diag.error(r.pathOf(k->name()),
                 "must have one value per elastic coordinate (" + std::to_string(m) + "), got " + std::to_string(values->size()));
  }
  const schema::Key& e0 = key("links[].flex.e0");
  Eigen::Vector3d load;
  const schema::Key& initial_load = key("links[].flex.initial_load");
  if (read(r, initial_load, load)) {
    if (!f.e0.empty())
      diag.error(r.pathOf(initial_load.name()), "give either \"" + e0.name() + "\" or \"" + initial_load.name() + "\", not both");
    else
      f.initial_load = load;
  }
}

// A flexible link shorter than this (1 µm) is no beam FlexArm can model: its frequencies leave double
// precision long before its numbers do.
constexpr double kMinFlexibleLength = 1e-6;

// What follows from a flexible link's numbers must be a model too (issue 45): each number within its
// bounds can still give products that overflow or underflow, and a first bending frequency (clamped-free,
// (1.8751)² sqrt(E I / (rho A L⁴))) that is not a finite number > 0 would make every analysis print NaN.
void checkBeamPlausible(JsonObjectReader& r, JsonObjectReader& fx, const FlexibleLink& f, double length) {
  if (length > 0.0 && length < kMinFlexibleLength)
    r.diagnostics().error(r.pathOf("length"), "a flexible link must be at least " + formatNumber(kMinFlexibleLength) +
                                                  " m long, got " + formatNumber(length));
  const BeamSection& s = f.section;
  const Material& m = f.material;
  // Without a length, a section or a material an error has been given already.
  if (!(length > 0.0 && s.A > 0.0 && s.Iy > 0.0 && s.Iz > 0.0 && s.J > 0.0 && m.E > 0.0 && m.G > 0.0 && m.rho > 0.0)) return;
  const double bending = m.E * std::min(s.Iy, s.Iz), torsion = m.G * s.J, axial = m.E * s.A;
  for (auto [name, value] : {std::pair<const char*, double>{"E I", bending}, {"G J", torsion}, {"E A", axial}})
    if (!(std::isfinite(value) && value > 0.0)) {
      fx.diagnostics().error(fx.path(), std::string("the stiffness ") + name + " = " + formatNumber(value) +
                                            " must be a finite number > 0 (the material or the section is out of range)");
      return;
    }
  const double beta = 1.8751040687119611;  // beta L of the first clamped-free bending mode
  const double omega = beta * beta * std::sqrt(bending / (m.rho * s.A)) / (length * length);
  if (!(std::isfinite(omega) && omega > 0.0))
    fx.diagnostics().error(
        fx.path(), "the first bending frequency (1.8751² sqrt(E I / (rho A)) / length²) = " + formatNumber(omega / (2 * kPi)) +
                       " Hz must be a finite number > 0 (the material, section or length is out of range)");
}

void readLink(JsonObjectReader& r, Link& link, std::size_t i) {
  readName(r, link.name, "link" + std::to_string(i + 1));
  // Beyond its bound the arm is no robot and its numbers leave double precision (a length of 1e300 has no
  // clamped-free frequency).
  const schema::Key& length = key("links[].length");
  if (read(r, length, link.length) && link.length > length.upper) {
    r.diagnostics().error(r.pathOf(length.name()),
                          "must be at most " + formatNumber(length.upper) + " m, got " + formatNumber(link.length));
    link.length = 1.0;  // the rest of the link is still checked
  }
  if (r.has("flex")) {
    for (const char* key : {"mass", "shape", "com", "inertia"}) {
      if (r.has(key)) {
        r.diagnostics().error(r.pathOf(key), "a flexible link's mass follows from flex (rho A length); add masses as payloads");
        r.raw(key, Need::Optional);
      }
    }
    JsonObjectReader fx = r.object("flex", Need::Required);
    if (fx.valid()) {
      FlexibleLink f;
      if (!(link.length > 0.0)) r.diagnostics().error(r.pathOf("length"), "a flexible link needs a length > 0");
      readFlexLink(fx, f, link.length);
      link.flex = f;
      link.mass = f.material.rho * f.section.A * link.length;
      if (link.length > 0.0 && !(std::isfinite(link.mass) && link.mass > 0.0))
        r.diagnostics().error(fx.path(), "the mass rho A length = " + formatNumber(link.mass) +
                                             " kg must be a finite number > 0 (rho or the section is out of range)");
      checkBeamPlausible(r, fx, f, link.length);
      fx.finish();
    }
    return;
  }
  readWithinBounds(r, key("links[].mass"), link.mass);
  const bool has_shape = r.has("shape");
  if (has_shape && (r.has("com") || r.has("inertia"))) {
    r.diagnostics().error(r.path(), "give either \"shape\" or \"com\"/\"inertia\", not both");
  }
  if (has_shape) {
    JsonObjectReader s = object(r, key("links[].shape"));
    if (!s.valid()) return;
    ShapePreset shape;
    bool read_all = false;
    if (readPreset(s, key("links[].shape.type"), schema::shapePresets(), shape, read_all)) {
      if (shape.kind == ShapePreset::Kind::Tube && read_all && shape.inner_radius >= shape.radius)
        s.diagnostics().error(s.pathOf("inner_radius"),
                              "must be < radius (" + formatNumber(shape.radius) + "), got " + formatNumber(shape.inner_radius));
      link.shape = shape;
      // The inertia grows with mass x size^2, which may overflow although both are finite.
      const RigidInertia body = inertiaFromShape(shape, link.mass, link.length);
      if (!body.inertia_com.allFinite() || !body.com.allFinite())
        s.diagnostics().error(s.path(), "the inertia of this shape with mass " + formatNumber(link.mass) + " kg and length " +
                                            formatNumber(link.length) + " m is not a finite number (out of range)");
    }
    s.finish();
  } else {
    read(r, key("links[].com"), link.com);
    const schema::Key& inertia = key("links[].inertia");
    readInertiaComponents(r, inertia.name(), link.inertia, inertia.need);
  }
}

// The joint's limits (kept for display): lower <= upper, ratings >= 0; q0 outside them is a warning.
void readJointLimits(JsonObjectReader& r, Joint& joint) {
  const auto readLimit = [&r](const char* name, std::optional<double>& out) {
    double v = 0.0;
    if (read(r, key(std::string("joints[].limits.") + name), v)) out = v;
  };
  JointLimits& l = joint.limits;
  readLimit("lower", l.lower);
  readLimit("upper", l.upper);
  readLimit("effort", l.effort);
  readLimit("velocity", l.velocity);
  r.finish();
  if (l.lower && l.upper && *l.lower > *l.upper)
    r.diagnostics().error(r.pathOf("upper"), "must be >= lower (" + formatNumber(*l.lower) + "), got " + formatNumber(*l.upper));
  else if ((l.lower && joint.q0 < *l.lower) || (l.upper && joint.q0 > *l.upper))
    r.diagnostics().warning(r.pathOf(l.lower && joint.q0 < *l.lower ? "lower" : "upper"),
                            "q0 = " + formatNumber(joint.q0) + " is outside the joint's limits (they are not enforced)");
}

// A direction, made a unit vector; a zero vector is reported.
void readAxis(JsonObjectReader& r, const schema::Key& k, Eigen::Vector3d& axis) {
  if (!read(r, k, axis)) return;
  // The norm of [1e308, 1e308, 1e308] overflows (even Eigen's stableNorm when it is above the
  // largest double), and dividing by it would make the axis zero: scale by the largest component
  // first. An axis already unit to round-off is kept as it is, so that a saved project reads back the same.
  const double n = axis.stableNorm();  // inf only when the norm itself is out of range
  if (n < 1e-12) {
    r.diagnostics().error(r.pathOf(k.name()), "must not be the zero vector");
  } else if (std::abs(n - 1.0) > 4 * std::numeric_limits<double>::epsilon()) {
    axis /= axis.cwiseAbs().maxCoeff();
    axis.normalize();
  }
}

void readJoint(JsonObjectReader& r, Joint& joint, std::size_t i, const Model& model, const std::filesystem::path& base_dir) {
  readName(r, joint.name, "joint" + std::to_string(i + 1));
  // The link it sits on: the previous one unless named (a tree), or the world.
  const schema::Key& parent_key = key("joints[].parent");
  std::string parent;
  if (read(r, parent_key, parent)) {
    const int index = parent == "world" ? Joint::kWorld : model.linkIndex(parent);
    if (parent != "world" && index < 0)
      r.diagnostics().error(r.pathOf("parent"), "no link is named " + inQuotes(parent) + " (or \"world\")");
    else if (index >= static_cast<int>(i))
      r.diagnostics().error(r.pathOf("parent"), "link " + inQuotes(parent) + " comes at or after the link this joint drives (" +
                                                    std::to_string(i + 1) +
                                                    "): list the links parents first, each joint's parent before it");
    else
      joint.parent = index;
  }
  const int type = choose(r, key("joints[].type"));
  if (type >= 0) joint.type = static_cast<JointType>(type);
  readAxis(r, key("joints[].axis"), joint.axis);
  JsonObjectReader pl = object(r, key("joints[].placement"));
  if (pl.valid()) {
    read(pl, key("joints[].placement.xyz"), joint.placement.xyz);
    read(pl, key("joints[].placement.rpy"), joint.placement.rpy);
    pl.finish();
  }
  read(r, key("joints[].q0"), joint.q0);
  read(r, key("joints[].qd0"), joint.qd0);
  read(r, key("joints[].damping"), joint.damping);
  readWithinBounds(r, key("joints[].mass"), joint.mass);
  JsonObjectReader fx = object(r, key("joints[].flex"));
  if (fx.valid()) {
    JointFlex jf;
    // The gear ratio's bounds keep the motor's numbers within double precision (1e300 has no energy).
    const schema::Key& gear = key("joints[].flex.gear_ratio");
    for (const schema::Field<JointFlex>& f : schema::jointFlexProperties())
      if (read(fx, *f.key, jf.*f.field) && f.key == &gear && (jf.gear_ratio < gear.lower || jf.gear_ratio > gear.upper))
        fx.diagnostics().error(fx.pathOf(gear.name()), "must be between " + formatNumber(gear.lower) + " and " +
                                                           formatNumber(gear.upper) + ", got " + formatNumber(jf.gear_ratio));
    read(fx, key("joints[].flex.torsion0"), jf.torsion0);
    read(fx, key("joints[].flex.torsiond0"), jf.torsiond0);
    // The motor starts at N (q0 + torsion0) with rate N (qd0 + torsiond0): finite numbers whose product may overflow.
    for (auto [key, value] : {std::pair<const char*, double>{"q0", joint.q0 + jf.torsion0}, {"qd0", joint.qd0 + jf.torsiond0}})
      if (!std::isfinite(jf.gear_ratio * value))
        r.diagnostics().error(r.pathOf(key), "times the gear ratio " + formatNumber(jf.gear_ratio) +
                                                 " (the motor's initial value) is not a finite number, got " +
                                                 formatNumber(value));
    joint.flex = jf;
    fx.finish();
  }
  JsonObjectReader drive = object(r, key("joints[].drive"));
  readDrive(drive, joint.drive, base_dir);
  drive.finish();
  JsonObjectReader limits = object(r, key("joints[].limits"));
  if (limits.valid()) readJointLimits(limits, joint);
}

// A link named by the string at `key`; -1 (reported) when absent or unknown.
int readLinkRef(JsonObjectReader& r, const char* key, const Model& model) {
  const Json* link = r.raw(key, Need::Required);
  if (!link) return -1;
  if (!link->is_string()) {
    r.diagnostics().error(r.pathOf(key), "must be the name of a link, got " + describeJson(*link));
    return -1;
  }
  const int index = model.linkIndex(link->get<std::string>());
  if (index < 0) r.diagnostics().error(r.pathOf(key), "no link is named " + inQuotes(link->get<std::string>()));
  return index;
}

void readPayload(JsonObjectReader& r, Payload& p, std::size_t i, const Model& model) {
  readName(r, p.name, "payload" + std::to_string(i + 1));
  p.link = readLinkRef(r, "link", model);
  const int frame = choose(r, key("payloads[].frame"));
  if (frame >= 0) p.frame = static_cast<Payload::Frame>(frame);
  read(r, key("payloads[].offset"), p.offset);
  readWithinBounds(r, key("payloads[].mass"), p.mass);
  const std::string inertia = key("payloads[].inertia").name();
  if (r.has(inertia)) readInertiaComponents(r, inertia, p.inertia, Need::Required);
  if (p.link < 0 || p.frame != Payload::Frame::Section) return;
  const Link& link = model.links[static_cast<std::size_t>(p.link)];
  if (link.flex && !(p.offset.x() >= 0.0 && p.offset.x() <= link.length))
    r.diagnostics().error(r.pathOf("offset"), "a payload on a section of the flexible link " + inQuotes(link.name) +
                                                  " sits at x = offset[0] between 0 and its length " + formatNumber(link.length) +
                                                  " m, got " + formatNumber(p.offset.x()));
}

// A vector of key k whose components lie within the schema's bounds (k.lower, k.upper).
void readVectorWithinBounds(JsonObjectReader& r, const schema::Key& k, Eigen::Vector3d& out) {
  if (!read(r, k, out)) return;
  if (out.minCoeff() >= k.lower && out.maxCoeff() <= k.upper) return;
  r.diagnostics().error(r.pathOf(k.name()), "each component must be between " + formatNumber(k.lower) + " and " +
                                                formatNumber(k.upper) + unitAfter(k) + ", got [" + formatNumber(out.x()) + ", " +
                                                formatNumber(out.y()) + ", " + formatNumber(out.z()) + "]");
}

void readLoad(JsonObjectReader& r, Load& load, std::size_t i, const Model& model, const std::filesystem::path& base_dir) {
  readName(r, load.name, "load" + std::to_string(i + 1));
  load.link = readLinkRef(r, "link", model);
  readVectorWithinBounds(r, key("loads[].point"), load.point);
  readVectorWithinBounds(r, key("loads[].force"), load.force);
  readVectorWithinBounds(r, key("loads[].torque"), load.torque);
  const int axes = choose(r, key("loads[].axes"));
  if (axes >= 0) load.axes = static_cast<Load::Axes>(axes);
  JsonObjectReader law = object(r, key("loads[].law"));
  if (law.valid()) readLaw(law, load.law, base_dir);
  law.finish();
  if (load.link < 0) return;
  const Link& link = model.links[static_cast<std::size_t>(load.link)];
  if (link.flex && !(load.point.x() >= 0.0 && load.point.x() <= link.length))
    r.diagnostics().error(r.pathOf("point"), "a load on the flexible link " + inQuotes(link.name) +
                                                 " acts at a section x = point[0] between 0 and its length " +
                                                 formatNumber(link.length) + " m, got " + formatNumber(load.point.x()));
}

void readConstraint(JsonObjectReader& r, Constraint& c, std::size_t i, const Model& model,
                    const std::filesystem::path& base_dir) {
  readName(r, c.name, "constraint" + std::to_string(i + 1));
  const int kind = choose(r, key("constraints[].type"));
  if (kind < 0) return;
  c.kind = static_cast<Constraint::Kind>(kind);
  switch (c.kind) {
    case Constraint::Kind::Coordinates: {
      const schema::Key& terms_key = key("constraints[].terms");
      JsonObjectReader terms = object(r, terms_key);
      if (terms.valid()) {
        const Json& obj = *r.raw(terms_key.name(), terms_key.need);
        for (auto it = obj.begin(); it != obj.end(); ++it) {
          double coef = 0.0;
          if (terms.number(it.key(), coef, Need::Required)) c.terms.emplace_back(it.key(), coef);
        }
        if (obj.empty())
          r.diagnostics().error(r.pathOf(terms_key.name()), "needs at least one coordinate, e.g. {\"q.shoulder\": 1}");
        terms.finish();
      }
      JsonObjectReader value = object(r, key("constraints[].value"));
      if (value.valid()) readLaw(value, c.value, base_dir);
      value.finish();
      break;
    }
    case Constraint::Kind::Point:
    case Constraint::Kind::Revolute:
    case Constraint::Kind::Prismatic: {
      c.link = readLinkRef(r, "link", model);
      read(r, key("constraints[].point"), c.point);
      // The counterpart: a point of another link, or a world point.
      if (r.has("other_link")) {
        c.other_link = readLinkRef(r, "other_link", model);
        read(r, key("constraints[].other_point"), c.other_point);
        if (c.other_link >= 0 && c.other_link == c.link)
          r.diagnostics().error(r.pathOf("other_link"),
                                "joins link " + inQuotes(model.links[static_cast<std::size_t>(c.link)].name) +
                                    " to itself: a loop closes between two links, or a link and the world");
      } else if (!r.has("world")) {
        r.diagnostics().error(
            r.pathOf("world"),
            "is required: the world point [x, y, z] the link's point is held at, or give other_link and other_point");
      } else {
        read(r, key("constraints[].world"), c.world);
      }
      if (c.kind != Constraint::Kind::Point) {
        readAxis(r, key("constraints[].axis"), c.axis);
        break;
      }
      const schema::Key& axes_key = key("constraints[].axes");
      std::string axes = axes_key.fallback.get<std::string>();
      if (read(r, axes_key, axes)) {
        c.axes = {{false, false, false}};
        for (char a : axes) {
          if (a < 'x' || a > 'z') {
            r.diagnostics().error(r.pathOf(axes_key.name()),
                                  "must be letters among x, y, z (e.g. \"xy\"), got " + inQuotes(axes));
            break;
          }
          c.axes[static_cast<std::size_t>(a - 'x')] = true;
        }
      }
      break;
    }
    case Constraint::Kind::SlidingSupport: {
      c.link = readLinkRef(r, "link", model);
      read(r, key("constraints[].position"), c.position);
      const schema::Key& clamp = key("constraints[].clamp_slope");
      const Json* slope = r.raw(clamp.name(), clamp.need);
      if (slope) {
        if (slope->is_boolean())
          c.clamp_slope = slope->get<bool>();
        else
          r.diagnostics().error(r.pathOf(clamp.name()), "must be true or false, got " + describeJson(*slope));
      }
      if (c.link >= 0 && !model.links[static_cast<std::size_t>(c.link)].flex)
        r.diagnostics().error(r.pathOf("link"), "link \"" + model.links[static_cast<std::size_t>(c.link)].name +
                                                    "\" is rigid; a sliding support holds a flexible link");
      break;
    }
  }
}

// "3, 4 and 5": the orders a method offers.
std::string orderList(const SolverMethodInfo& m) {
  std::string list;
  for (int k = m.lowest_order; k <= m.highest_order; ++k)
    list += (k == m.lowest_order ? "" : k == m.highest_order ? " and " : ", ") + std::to_string(k);
  return list;
}

void readSimulation(JsonObjectReader& r, SimulationSettings& s) {
  if (!r.valid()) return;
  const bool t_end = read(r, key("simulation.t_end"), s.t_end);
  const bool t_start = readWithinBounds(r, key("simulation.t_start"), s.t_start);
  const bool rate = read(r, key("simulation.output_rate"), s.output_rate);
  if (t_end || t_start || rate) {
    if (const Status length = checkRunLength(s); !length) r.diagnostics().error(length.error().where, length.error().message);
  }
  const schema::Key& accuracy = key("simulation.accuracy");
  if (read(r, accuracy, s.accuracy) && (s.accuracy < accuracy.lower || s.accuracy > accuracy.upper))
    r.diagnostics().error(r.pathOf(accuracy.name()), "must be between " + formatNumber(accuracy.lower) + " and " +
                                                         formatNumber(accuracy.upper) + ", got " + formatNumber(s.accuracy));
  read(r, key("simulation.divergence_ratio"), s.divergence_ratio);
  JsonObjectReader sv = object(r, key("simulation.solver"));
  if (sv.valid()) {
    const int m = choose(sv, key("simulation.solver.method"));
    if (m >= 0) s.method = static_cast<SimulationSettings::Method>(m);
    read(sv, key("simulation.solver.rtol"), s.rtol);
    read(sv, key("simulation.solver.atol"), s.atol);
    read(sv, key("simulation.solver.max_step"), s.max_step);
    read(sv, key("simulation.solver.initial_step"), s.initial_step);
    read(sv, key("simulation.solver.max_steps"), s.max_steps);
    long max_order = s.max_order;
    if (read(sv, key("simulation.solver.max_order"), max_order)) {
      const SolverMethodInfo& m = solverMethod(s.method);
      const long highest = m.highest_order > 0 ? m.highest_order : 5;  // the methods without orders ignore it
      if (max_order > highest)
        sv.diagnostics().error(sv.pathOf("max_order"), "must be <= " + std::to_string(highest) + " for method \"" +
                                                           methodName(s.method) + "\", got " + std::to_string(max_order));
      else if (max_order > 0 && max_order < m.lowest_order)
        sv.diagnostics().error(sv.pathOf("max_order"), std::string("method \"") + methodName(s.method) + "\" has orders " +
                                                           orderList(m) + " (0 = " + std::to_string(m.default_order) + "), got " +
                                                           std::to_string(max_order));
      else
        s.max_order = static_cast<int>(max_order);
    }
    const int jac = choose(sv, key("simulation.solver.jacobian"));
    if (jac >= 0) s.jacobian = static_cast<SimulationSettings::Jacobian>(jac);
    const schema::Key& rho_inf = key("simulation.solver.rho_inf");
    if (read(sv, rho_inf, s.rho_inf) && s.rho_inf > rho_inf.upper)
      sv.diagnostics().error(sv.pathOf(rho_inf.name()), "must be between " + formatNumber(rho_inf.lower) + " and " +
                                                            formatNumber(rho_inf.upper) + ", got " + formatNumber(s.rho_inf));
    read(sv, key("simulation.solver.step"), s.step);
    JsonObjectReader nm = object(sv, key("simulation.solver.newmark"));
    if (nm.valid()) {
      read(nm, key("simulation.solver.newmark.alpha"), s.newmark_alpha);
      read(nm, key("simulation.solver.newmark.delta"), s.newmark_delta);
      nm.finish();
    }
    JsonObjectReader bg = object(sv, key("simulation.solver.baumgarte"));
    if (bg.valid()) {
      read(bg, key("simulation.solver.baumgarte.gamma"), s.baumgarte_gamma);
      read(bg, key("simulation.solver.baumgarte.beta"), s.baumgarte_beta);
      bg.finish();
    }
    sv.finish();
  }
}

template <class T>
void checkUniqueNames(const std::vector<T>& items, const std::string& path, Diagnostics& diag) {
  std::set<std::string> seen;
  for (std::size_t i = 0; i < items.size(); ++i)
    if (!seen.insert(items[i].name).second)
      diag.error(at(path, i) + ".name", inQuotes(items[i].name) + " is used twice in " + path);
}

// Reads the array at the schema's key `k` (its items by readOne(reader, item, index)) into `out`; the
// names must be unique. Returns the array, or nullptr when it is absent or not an array.
template <class T, class ReadOne>
const Json* readArray(JsonObjectReader& root, const schema::Key& k, std::vector<T>& out, ReadOne readOne) {
  const Json* items = root.array(k.name(), k.need);
  if (!items) return nullptr;
  for (std::size_t i = 0; i < items->size(); ++i) {
    JsonObjectReader r(&(*items)[i], at(k.name(), i), root.diagnostics());
    T item;
    if (r.valid()) readOne(r, item, i);
    r.finish();
    out.push_back(item);
  }
  checkUniqueNames(out, k.name(), root.diagnostics());
  return items;
}

// Overrides by path: an object {"path": value, ...}; the values are kept as JSON text. An empty object
// is the project as it is (a baseline variant).
std::vector<std::pair<std::string, std::string>> readSets(JsonObjectReader& r, const schema::Key& k) {
  std::vector<std::pair<std::string, std::string>> out;
  const Json* obj = r.raw(k.name(), k.need);
  if (!obj) return out;
  if (!obj->is_object()) {
    r.diagnostics().error(r.pathOf(k.name()), "must be an object of overrides by path, e.g. {\"coupling\": \"zero\"}");
    return out;
  }
  for (auto it = obj->begin(); it != obj->end(); ++it) out.emplace_back(it.key(), it.value().dump());
  return out;
}

void readVariantsAndStudy(JsonObjectReader& root, Project& project, Diagnostics& diag) {
  const schema::Key& variants_key = key("variants");
  if (const Json* variants = root.array(variants_key.name(), variants_key.need)) {
    for (std::size_t i = 0; i < variants->size(); ++i) {
      JsonObjectReader r(&(*variants)[i], at(variants_key.name(), i), diag);
      Variant v;
      if (r.valid()) {
        readName(r, v.name, "variant" + std::to_string(i + 1));
        // A study writes DIR/<variant>.csv beside summary.csv, and a comparison compare.csv.
        for (const char* reserved : {"summary", "compare"})
          if (v.name == reserved)
            diag.error(r.pathOf("name"), "\"" + v.name + "\" is reserved: a study or comparison writes its own " + reserved +
                                             ".csv (choose another name)");
        v.sets = readSets(r, key("variants[].set"));
      }
      r.finish();
      project.variants.push_back(v);
    }
    checkUniqueNames(project.variants, variants_key.name(), diag);
  }
  JsonObjectReader st = object(root, key("study"));
  if (!st.valid()) return;
  Study study;
  if (st.has("variants") == st.has("grid")) {
    diag.error(st.path(), "a study needs exactly one of \"variants\" (names) or \"grid\" (values by path)");
  } else if (const Json* names = st.array("variants", key("study.variants").need)) {
    for (std::size_t k = 0; k < names->size(); ++k) {
      const Json& n = (*names)[k];
      const std::string path = at(st.pathOf("variants"), k);
      if (!n.is_string()) {
        diag.error(path, "must be the name of a variant, got " + describeJson(n));
        continue;
      }
      bool known = false;
      for (const Variant& v : project.variants) known = known || v.name == n.get<std::string>();
      if (!known) diag.error(path, "no variant is named " + inQuotes(n.get<std::string>()));
      study.variants.push_back(n.get<std::string>());
    }
    if (names->empty()) diag.error(st.pathOf("variants"), "list at least one variant");
  } else if (const Json* grid = st.raw("grid", key("study.grid").need)) {
    if (!grid->is_object() || grid->empty()) {
      diag.error(st.pathOf("grid"),
                 "must be an object from paths to arrays of values, e.g. {\"coupling\": [\"zero\", \"high\"]}");
    } else {
      for (auto it = grid->begin(); it != grid->end(); ++it) {
        if (!it.value().is_array() || it.value().empty()) {
          diag.error(st.pathOf("grid") + "." + excerpt(it.key()), "must be a non-empty array of values");
          continue;
        }
        std::vector<std::string> values;
        for (const Json& v : it.value()) values.push_back(v.dump());
        study.grid.emplace_back(it.key(), values);
      }
    }
  }
  st.finish();
  project.study = study;
}

// Every path a variant or the study's grid sets is well formed (as --set reads it): `check` finds
// what would otherwise fail only in a study's worker. Whether the path names a field is known only
// against the document the case starts from (a variant may remove what another sets), so at run time.
void checkVariantPaths(const Project& project, Diagnostics& diag) {
  auto check = [&](const std::string& where, const std::string& path) {
    if (const Status ok = checkOverridePath(path); !ok) diag.error(where + "." + excerpt(path), ok.error().text());
  };
  for (std::size_t i = 0; i < project.variants.size(); ++i)
    for (const auto& set : project.variants[i].sets) check(at("variants", i) + ".set", set.first);
  if (project.study)
    for (const auto& grid : project.study->grid) check("study.grid", grid.first);
}

}  // namespace

Status checkRunLength(const SimulationSettings& s) {
  if (s.t_end > kMaxEndTime)
    return errorAt("simulation.t_end", "must be at most " + formatNumber(kMaxEndTime) + " s, got " + formatNumber(s.t_end));
  if (s.output_rate > kMaxOutputRate)
    return errorAt("simulation.output_rate",
                   "must be at most " + formatNumber(kMaxOutputRate) + " Hz, got " + formatNumber(s.output_rate));
  if (!(s.t_start < s.t_end))
    return errorAt("simulation.t_start",
                   "must be before simulation.t_end " + formatNumber(s.t_end) + " s, got " + formatNumber(s.t_start) + " s");
  const double rows = (s.t_end - s.t_start) * s.output_rate;
  if (rows > kMaxOutputRows)
    return errorAt("simulation.t_end x simulation.output_rate",
                   formatNumber(s.t_end - s.t_start) + " s x " + formatNumber(s.output_rate) + " Hz = " + formatShort(rows, 3) +
                       " output rows, at most " + formatShort(kMaxOutputRows, 3) + " (shorten t_end or lower output_rate)");
  return {};
}

std::optional<Project> projectFromJson(const Json& doc, const std::filesystem::path& base_dir, Diagnostics& diag) {
  JsonObjectReader root(&doc, "", diag);
  if (!root.valid()) return std::nullopt;
  Project project;
  std::string format;
  if (root.string("format", format, Need::Required) && format != "flexarm-project")
    diag.error("format", "must be \"flexarm-project\", got " + inQuotes(format));
  long version = 0;
  if (root.integer("schema_version", version, Need::Required, 1) && version > Project::kSchemaVersion)
    diag.error("schema_version", "this FlexArm reads schema version " + std::to_string(Project::kSchemaVersion) +
                                     " and older, the file has " + std::to_string(version) + " (written by a newer FlexArm?)");
  if (root.string("name", project.name, Need::Optional) && hasControlCharacter(project.name))
    diag.error("name", "must be one line of text without control characters (it heads every results file), got " +
                           inQuotes(project.name));
  root.string("description", project.description, Need::Optional);
  Model& model = project.model;
  const int coupling = choose(root, key("coupling"));
  if (coupling >= 0) project.coupling = static_cast<CouplingOrder>(coupling);
  const double most_gravity = key("gravity").upper;  // 100 g
  if (read(root, key("gravity"), model.gravity) && !(model.gravity.norm() <= most_gravity))
    diag.error("gravity", "must be at most " + formatNumber(most_gravity) + " m/s^2 in magnitude (100 g), got " +
                              formatShort(model.gravity.norm(), 3));

  const Json* links =
      readArray(root, key("links"), model.links, [](JsonObjectReader& r, Link& link, std::size_t i) { readLink(r, link, i); });
  if (links && links->empty()) diag.error("links", "the chain is empty: add at least one link");
  const Json* joints = readArray(root, key("joints"), model.joints, [&](JsonObjectReader& r, Joint& joint, std::size_t i) {
    readJoint(r, joint, i, model, base_dir);
  });
  if (links && joints && joints->size() != links->size())
    diag.error("joints", "there must be one joint per link (joint i drives link i): " + std::to_string(links->size()) +
                             " links, " + std::to_string(joints->size()) + " joints");
  // The equations hold a dense mass matrix: n^2 numbers, factorized in n^3 / 3. A 60 000-link chain asked
  // for 20 GB; 5 000 coordinates (a 200 MB matrix) is far beyond the largest model meant (a 200-element
  // spatial link has 1 200).
  long coordinates = 0;
  for (std::size_t i = 0; i < model.links.size(); ++i) {
    coordinates += 1 + (i < model.joints.size() && model.joints[i].flex ? 1 : 0);
    if (model.links[i].flex) coordinates += elasticCount(model.links[i].flex->discretization);
  }
  if (coordinates > kMaxCoordinates)
    diag.error("links", "the arm has " + std::to_string(coordinates) + " generalized coordinates (joints, motors and elastic); " +
                            "FlexArm takes at most " + std::to_string(kMaxCoordinates) +
                            " (its mass matrix is dense): use fewer links, elements or modes");
  readArray(root, key("payloads"), model.payloads,
            [&](JsonObjectReader& r, Payload& p, std::size_t i) { readPayload(r, p, i, model); });
  readArray(root, key("loads"), model.loads,
            [&](JsonObjectReader& r, Load& load, std::size_t i) { readLoad(r, load, i, model, base_dir); });
  readArray(root, key("constraints"), model.constraints,
            [&](JsonObjectReader& r, Constraint& c, std::size_t i) { readConstraint(r, c, i, model, base_dir); });
  JsonObjectReader inv = object(root, key("inverse_dynamics"));
  if (inv.valid()) {
    InverseSpec spec;
    JsonObjectReader path = object(inv, key("inverse_dynamics.path"));
    if (path.valid()) {
      const char* axes[3] = {"inverse_dynamics.path.x", "inverse_dynamics.path.y", "inverse_dynamics.path.z"};
      for (int a = 0; a < 3; ++a) {
        JsonObjectReader law = object(path, key(axes[a]));
        if (!law.valid()) continue;
        TimeFunction f;
        readLaw(law, f, base_dir);
        law.finish();
        spec.path[static_cast<std::size_t>(a)] = f;
      }
      if (!spec.path[0] && !spec.path[1] && !spec.path[2]) diag.error(path.path(), "give a time law for at least one of x, y, z");
      path.finish();
    }
    inv.finish();
    project.inverse = spec;
  }
  readVariantsAndStudy(root, project, diag);
  checkVariantPaths(project, diag);
  JsonObjectReader sim = object(root, key("simulation"));
  readSimulation(sim, project.simulation);
  sim.finish();
  if (!model.constraints.empty() && !project.simulation.constrained() &&
      project.simulation.method != SimulationSettings::Method::Auto) {
    std::vector<std::string> with;
    for (const SolverMethodInfo& m : solverMethods())
      if (m.constraints) with.push_back(inQuotes(m.name));
    std::string list;
    for (std::size_t k = 0; k < with.size(); ++k) list += (k == 0 ? "" : k + 1 == with.size() ? " or " : ", ") + with[k];
    diag.error("simulation.solver.method", "the model has constraints: choose " + list + " (\"" +
                                               std::string(methodName(project.simulation.method)) + "\" has no multipliers)");
  }
  root.finish();
  if (diag.hasErrors()) return std::nullopt;
  if (!model.constraints.empty())  // what only the coordinates can tell (their names, chains)
    if (const Status checked = checkConstraints(model, Coordinates::of(model)); !checked)
      diag.error("constraints", checked.error().text());
  if (diag.hasErrors()) return std::nullopt;
  return project;
}

LoadedProject parseProjectText(const std::string& text, const std::filesystem::path& base_dir,
                               const std::vector<std::string>& overrides) {
  LoadedProject out;
  Result<Json> parsed = parseJsonText(text);
  if (!parsed) {
    out.diagnostics.error(parsed.error().where, parsed.error().message);
    return out;
  }
  Json& doc = *parsed;
  for (const std::string& o : overrides) applyOverride(doc, o, out.diagnostics);
  if (out.diagnostics.hasErrors()) return out;
  out.project = projectFromJson(doc, base_dir, out.diagnostics);
  refuseUnknownKeysSetBy(overrides, out.diagnostics);
  if (out.diagnostics.hasErrors()) out.project.reset();
  return out;
}

LoadedProject loadProjectFile(const std::filesystem::path& file, const std::vector<std::string>& overrides) {
  Result<std::string> text = readRegularFile(file);
  if (!text) {
    LoadedProject out;
    out.diagnostics.error("", "cannot open project file " + inQuotes(file.string(), 200) + ": " + text.error().message);
    return out;
  }
  return parseProjectText(*text, file.parent_path(), overrides);
}

}  // namespace flexarm
