#include "io/ProjectFile.hpp"

#include <cctype>
#include <cmath>
#include <fstream>
#include <limits>
#include <set>
#include <sstream>

#include "base/Files.hpp"
#include "base/Text.hpp"
#include "dynamics/Constraints.hpp"
#include "io/Overrides.hpp"
#include "io/ProjectSchema.hpp"
#include "io/TableFile.hpp"

namespace flexarm {
namespace {

// Beyond these the arm is no robot and its numbers leave double precision (a length of 1e300 has no
// clamped-free frequency, a gear ratio of 1e300 no energy).
constexpr double kMaxLinkLength = 1e3;  // [m]
constexpr double kMaxGravity = 981.0;   // [m/s^2], 100 g
constexpr double kMinGearRatio = 1e-3;
constexpr double kMaxGearRatio = 1e5;

const std::vector<std::string> kShapeNames = {"rod", "box", "cylinder", "tube"};

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
  const int kind = r.choice("type", schema::driveTypeNames(), Need::Required, -1);
  if (kind < 0) return;
  d.kind = static_cast<JointDrive::Kind>(kind);
  switch (d.kind) {
    case JointDrive::Kind::Free: break;
    case JointDrive::Kind::Effort:
    case JointDrive::Kind::Prescribed: readLaw(r, d.law, base_dir); break;
    case JointDrive::Kind::PD: {
      r.number("kp", d.kp, Need::Required, Range::NonNegative);
      r.number("kd", d.kd, Need::Required, Range::NonNegative);
      JsonObjectReader sp = r.object("setpoint", Need::Required);
      if (sp.valid()) {
        readLaw(sp, d.law, base_dir);
        sp.finish();
      }
      break;
    }
  }
}

int elasticCount(const LinkDiscretization& d) {
  if (d.kind == LinkDiscretization::Kind::AssumedModes) return d.axial + d.bending_y + d.bending_z + d.torsion;
  const int elements = d.nodes.empty() ? d.elements : static_cast<int>(d.nodes.size()) + 1;
  const int full = (d.planar ? 2 : 6) * elements + (d.free_root ? 2 : 0);
  return d.reduce_to > 0 ? d.reduce_to : full;
}

void readFlexLink(JsonObjectReader& r, FlexibleLink& f, double length) {
  Diagnostics& diag = r.diagnostics();
  // Section: explicit properties or a preset.
  JsonObjectReader sec = r.object("section", Need::Required);
  if (sec.valid()) {
    if (sec.has("preset")) {
      SectionPreset p;
      const int kind = sec.choice("preset", {"rectangle", "tube", "ibeam"}, Need::Required, -1);
      if (kind >= 0) {
        p.kind = static_cast<SectionPreset::Kind>(kind);
        bool ok = true;
        switch (p.kind) {
          case SectionPreset::Kind::Rectangle:
            ok &= sec.number("width", p.width, Need::Required, Range::Positive);
            ok &= sec.number("height", p.height, Need::Required, Range::Positive);
            break;
          case SectionPreset::Kind::Tube:
            ok &= sec.number("outer_diameter", p.outer_diameter, Need::Required, Range::Positive);
            ok &= sec.number("inner_diameter", p.inner_diameter, Need::Required, Range::NonNegative);
            if (ok && p.inner_diameter >= p.outer_diameter) {
              diag.error(sec.pathOf("inner_diameter"), "must be < outer_diameter (" + formatNumber(p.outer_diameter) + "), got " +
                                                           formatNumber(p.inner_diameter));
              ok = false;
            }
            break;
          case SectionPreset::Kind::IBeam:
            ok &= sec.number("width", p.width, Need::Required, Range::Positive);
            ok &= sec.number("height", p.height, Need::Required, Range::Positive);
            ok &= sec.number("flange_thickness", p.flange_thickness, Need::Required, Range::Positive);
            ok &= sec.number("web_thickness", p.web_thickness, Need::Required, Range::Positive);
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
          for (auto [name, value] : {std::pair<const char*, double>{"A", s.A}, {"Iy", s.Iy}, {"Iz", s.Iz}, {"J", s.J}}) {
            if (!(std::isfinite(value) && value > 0.0)) {
              diag.error(sec.path(), std::string("the dimensions give ") + name + " = " + formatNumber(value) +
                                         ", which must be a finite number > 0 (the dimensions are out of range)");
              break;
            }
          }
        }
      }
    } else {
      sec.number("A", f.section.A, Need::Required, Range::Positive);
      sec.number("Iy", f.section.Iy, Need::Required, Range::Positive);
      sec.number("Iz", f.section.Iz, Need::Required, Range::Positive);
      sec.number("J", f.section.J, Need::Required, Range::Positive);
    }
    sec.finish();
  }
  // Material: explicit or a preset.
  JsonObjectReader mat = r.object("material", Need::Required);
  if (mat.valid()) {
    if (mat.has("preset")) {
      const std::vector<std::string> names = materialPresetNames();
      const int k = mat.choice("preset", names, Need::Required, -1);
      if (k >= 0) {
        f.material_preset = names[k];
        f.material = *materialPreset(names[k]);
      }
    } else {
      mat.number("E", f.material.E, Need::Required, Range::Positive);
      mat.number("G", f.material.G, Need::Required, Range::Positive);
      mat.number("rho", f.material.rho, Need::Required, Range::Positive);
    }
    mat.finish();
  }
  // Discretization.
  LinkDiscretization& d = f.discretization;
  const int basis = r.choice("basis", {"modes", "fem"}, Need::Required, -1);
  if (basis == 0) {
    d.kind = LinkDiscretization::Kind::AssumedModes;
    JsonObjectReader mo = r.object("modes", Need::Required);
    if (mo.valid()) {
      long a = 0, v = 0, w = 0, t = 0;
      mo.integer("axial", a, Need::Optional, 0);
      mo.integer("bending_y", v, Need::Optional, 0);
      mo.integer("bending_z", w, Need::Optional, 0);
      mo.integer("torsion", t, Need::Optional, 0);
      for (auto [name, value] : {std::pair<const char*, long>{"axial", a}, {"bending_y", v}, {"bending_z", w}, {"torsion", t}})
        if (value > 20) diag.error(mo.pathOf(name), "at most 20 modes per family, got " + std::to_string(value));
      d.axial = static_cast<int>(a);
      d.bending_y = static_cast<int>(v);
      d.bending_z = static_cast<int>(w);
      d.torsion = static_cast<int>(t);
      if (a + v + w + t == 0) diag.error(mo.path(), "a flexible link needs at least one mode");
      mo.finish();
    }
  } else if (basis == 1) {
    d.kind = LinkDiscretization::Kind::FiniteElements;
    long elements = 10;
    if (r.integer("elements", elements, Need::Optional, 1) && elements > 200)
      diag.error(r.pathOf("elements"), "at most 200 elements, got " + std::to_string(elements));
    d.elements = static_cast<int>(std::min(elements, 200L));
    const int layout = r.choice("layout", {"spatial", "planar"}, Need::Optional, 0);
    d.planar = layout == 1;
    if (r.numbers("nodes", d.nodes, Need::Optional, 1)) {
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
    const int root = r.choice("root", {"clamped", "free"}, Need::Optional, 0);
    d.free_root = root == 1;
    if (d.free_root && !d.planar)
      diag.error(r.pathOf("root"), "a free root is available for planar elements only (\"layout\": \"planar\")");
    long reduce = 0;
    r.integer("reduce_to", reduce, Need::Optional, 0);
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
  if (r.numbers("rayleigh", ab, Need::Optional, 2)) {
    if (ab.size() != 2 || ab[0] < 0 || ab[1] < 0)
      diag.error(r.pathOf("rayleigh"), "must be [alpha, beta] with alpha, beta >= 0");
    else
      f.damping.rayleigh_alpha = ab[0], f.damping.rayleigh_beta = ab[1];
  }
  if (r.numbers("modal_damping", f.damping.modal_ratios, Need::Optional, 0)) {
    for (double z : f.damping.modal_ratios)
      if (z < 0) diag.error(r.pathOf("modal_damping"), "damping ratios must be >= 0");
  }
  if (r.numbers("e0", f.e0, Need::Optional, 0) && basis >= 0) {
    const int m = elasticCount(d);
    if (static_cast<int>(f.e0.size()) != m)
      diag.error(r.pathOf("e0"),
                 "must have one value per elastic coordinate (" + std::to_string(m) + "), got " + std::to_string(f.e0.size()));
  }
  Eigen::Vector3d load;
  if (r.vector3("initial_load", load, Need::Optional)) {
    if (!f.e0.empty())
      diag.error(r.pathOf("initial_load"), "give either \"e0\" or \"initial_load\", not both");
    else
      f.initial_load = load;
  }
}

void readLink(JsonObjectReader& r, Link& link, std::size_t i) {
  readName(r, link.name, "link" + std::to_string(i + 1));
  if (r.number("length", link.length, Need::Required, Range::NonNegative) && link.length > kMaxLinkLength) {
    r.diagnostics().error(r.pathOf("length"),
                          "must be at most " + formatNumber(kMaxLinkLength) + " m, got " + formatNumber(link.length));
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
      fx.finish();
    }
    return;
  }
  r.number("mass", link.mass, Need::Required, Range::Positive);
  const bool has_shape = r.has("shape");
  if (has_shape && (r.has("com") || r.has("inertia"))) {
    r.diagnostics().error(r.path(), "give either \"shape\" or \"com\"/\"inertia\", not both");
  }
  if (has_shape) {
    JsonObjectReader s = r.object("shape", Need::Required);
    if (!s.valid()) return;
    ShapePreset shape;
    const int kind = s.choice("type", kShapeNames, Need::Required, -1);
    if (kind >= 0) {
      shape.kind = static_cast<ShapePreset::Kind>(kind);
      switch (shape.kind) {
        case ShapePreset::Kind::Rod: break;
        case ShapePreset::Kind::Box:
          s.number("width", shape.width, Need::Required, Range::Positive);
          s.number("height", shape.height, Need::Required, Range::Positive);
          break;
        case ShapePreset::Kind::Cylinder: s.number("radius", shape.radius, Need::Required, Range::Positive); break;
        case ShapePreset::Kind::Tube:
          s.number("radius", shape.radius, Need::Required, Range::Positive);
          if (s.number("inner_radius", shape.inner_radius, Need::Required, Range::NonNegative) &&
              shape.inner_radius >= shape.radius)
            s.diagnostics().error(s.pathOf("inner_radius"), "must be < radius (" + formatNumber(shape.radius) + "), got " +
                                                                formatNumber(shape.inner_radius));
          break;
      }
      link.shape = shape;
      // The inertia grows with mass x size^2, which may overflow although both are finite.
      const RigidInertia body = inertiaFromShape(shape, link.mass, link.length);
      if (!body.inertia_com.allFinite() || !body.com.allFinite())
        s.diagnostics().error(s.path(), "the inertia of this shape with mass " + formatNumber(link.mass) + " kg and length " +
                                            formatNumber(link.length) + " m is not a finite number (out of range)");
    }
    s.finish();
  } else {
    r.vector3("com", link.com, Need::Required);
    readInertiaComponents(r, "inertia", link.inertia, Need::Required);
  }
}

// The joint's limits (kept for display): lower <= upper, ratings >= 0; q0 outside them is a warning.
void readJointLimits(JsonObjectReader& r, Joint& joint) {
  const auto read = [&r](const char* key, std::optional<double>& out, Range range) {
    double v = 0.0;
    if (r.number(key, v, Need::Optional, range)) out = v;
  };
  JointLimits& l = joint.limits;
  read("lower", l.lower, Range::Any);
  read("upper", l.upper, Range::Any);
  read("effort", l.effort, Range::NonNegative);
  read("velocity", l.velocity, Range::NonNegative);
  r.finish();
  if (l.lower && l.upper && *l.lower > *l.upper)
    r.diagnostics().error(r.pathOf("upper"), "must be >= lower (" + formatNumber(*l.lower) + "), got " + formatNumber(*l.upper));
  else if ((l.lower && joint.q0 < *l.lower) || (l.upper && joint.q0 > *l.upper))
    r.diagnostics().warning(r.pathOf(l.lower && joint.q0 < *l.lower ? "lower" : "upper"),
                            "q0 = " + formatNumber(joint.q0) + " is outside the joint's limits (they are not enforced)");
}

void readJoint(JsonObjectReader& r, Joint& joint, std::size_t i, const std::filesystem::path& base_dir) {
  readName(r, joint.name, "joint" + std::to_string(i + 1));
  const int type = r.choice("type", {"revolute", "prismatic"}, Need::Required, -1);
  if (type >= 0) joint.type = static_cast<JointType>(type);
  if (r.vector3("axis", joint.axis, Need::Required)) {
    // The norm of [1e308, 1e308, 1e308] overflows (even Eigen's stableNorm when it is above the
    // largest double), and dividing by it would make the axis zero: scale by the largest component
    // first. An axis already unit to round-off is kept as it is, so that a saved project reads back the same.
    const double n = joint.axis.stableNorm();  // inf only when the norm itself is out of range
    if (n < 1e-12) {
      r.diagnostics().error(r.pathOf("axis"), "must not be the zero vector");
    } else if (std::abs(n - 1.0) > 4 * std::numeric_limits<double>::epsilon()) {
      joint.axis /= joint.axis.cwiseAbs().maxCoeff();
      joint.axis.normalize();
    }
  }
  JsonObjectReader pl = r.object("placement", Need::Optional);
  if (pl.valid()) {
    pl.vector3("xyz", joint.placement.xyz, Need::Optional);
    pl.vector3("rpy", joint.placement.rpy, Need::Optional);
    pl.finish();
  }
  r.number("q0", joint.q0, Need::Optional);
  r.number("qd0", joint.qd0, Need::Optional);
  r.number("damping", joint.damping, Need::Optional, Range::NonNegative);
  r.number("mass", joint.mass, Need::Optional, Range::NonNegative);
  JsonObjectReader fx = r.object("flex", Need::Optional);
  if (fx.valid()) {
    JointFlex jf;
    fx.number("stiffness", jf.stiffness, Need::Required, Range::Positive);
    fx.number("damping", jf.damping, Need::Optional, Range::NonNegative);
    fx.number("rotor_inertia", jf.rotor_inertia, Need::Required, Range::Positive);
    if (fx.number("gear_ratio", jf.gear_ratio, Need::Optional, Range::Positive) &&
        (jf.gear_ratio < kMinGearRatio || jf.gear_ratio > kMaxGearRatio))
      fx.diagnostics().error(fx.pathOf("gear_ratio"), "must be between " + formatNumber(kMinGearRatio) + " and " +
                                                          formatNumber(kMaxGearRatio) + ", got " + formatNumber(jf.gear_ratio));
    // The motor starts at N q0 with rate N qd0: finite numbers whose product may overflow.
    for (auto [key, value] : {std::pair<const char*, double>{"q0", joint.q0}, {"qd0", joint.qd0}})
      if (!std::isfinite(jf.gear_ratio * value))
        r.diagnostics().error(r.pathOf(key), "times the gear ratio " + formatNumber(jf.gear_ratio) +
                                                 " (the motor's initial value) is not a finite number, got " +
                                                 formatNumber(value));
    joint.flex = jf;
    fx.finish();
  }
  JsonObjectReader drive = r.object("drive", Need::Optional);
  readDrive(drive, joint.drive, base_dir);
  drive.finish();
  JsonObjectReader limits = r.object("limits", Need::Optional);
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
  const int frame = r.choice("frame", {"body", "distal"}, Need::Optional, 0);
  if (frame >= 0) p.frame = static_cast<Payload::Frame>(frame);
  r.vector3("offset", p.offset, Need::Optional);
  r.number("mass", p.mass, Need::Required, Range::Positive);
  if (r.has("inertia")) readInertiaComponents(r, "inertia", p.inertia, Need::Required);
}

void readConstraint(JsonObjectReader& r, Constraint& c, std::size_t i, const Model& model,
                    const std::filesystem::path& base_dir) {
  readName(r, c.name, "constraint" + std::to_string(i + 1));
  const int kind = r.choice("type", {"coordinates", "point", "sliding_support"}, Need::Required, -1);
  if (kind < 0) return;
  c.kind = static_cast<Constraint::Kind>(kind);
  switch (c.kind) {
    case Constraint::Kind::Coordinates: {
      JsonObjectReader terms = r.object("terms", Need::Required);
      if (terms.valid()) {
        const Json& obj = *r.raw("terms", Need::Required);
        for (auto it = obj.begin(); it != obj.end(); ++it) {
          double coef = 0.0;
          if (terms.number(it.key(), coef, Need::Required)) c.terms.emplace_back(it.key(), coef);
        }
        if (obj.empty()) r.diagnostics().error(r.pathOf("terms"), "needs at least one coordinate, e.g. {\"q.shoulder\": 1}");
        terms.finish();
      }
      JsonObjectReader value = r.object("value", Need::Optional);
      if (value.valid()) readLaw(value, c.value, base_dir);
      value.finish();
      break;
    }
    case Constraint::Kind::Point: {
      c.link = readLinkRef(r, "link", model);
      r.vector3("point", c.point, Need::Optional);
      r.vector3("world", c.world, Need::Required);
      std::string axes = "xyz";
      if (r.string("axes", axes, Need::Optional)) {
        c.axes = {{false, false, false}};
        for (char a : axes) {
          if (a < 'x' || a > 'z') {
            r.diagnostics().error(r.pathOf("axes"), "must be letters among x, y, z (e.g. \"xy\"), got " + inQuotes(axes));
            break;
          }
          c.axes[static_cast<std::size_t>(a - 'x')] = true;
        }
      }
      break;
    }
    case Constraint::Kind::SlidingSupport: {
      c.link = readLinkRef(r, "link", model);
      r.number("position", c.position, Need::Required);
      const Json* slope = r.raw("clamp_slope", Need::Optional);
      if (slope) {
        if (slope->is_boolean())
          c.clamp_slope = slope->get<bool>();
        else
          r.diagnostics().error(r.pathOf("clamp_slope"), "must be true or false, got " + describeJson(*slope));
      }
      if (c.link >= 0 && !model.links[static_cast<std::size_t>(c.link)].flex)
        r.diagnostics().error(r.pathOf("link"), "link \"" + model.links[static_cast<std::size_t>(c.link)].name +
                                                    "\" is rigid; a sliding support holds a flexible link");
      break;
    }
  }
}

void readSimulation(JsonObjectReader& r, SimulationSettings& s) {
  if (!r.valid()) return;
  const bool t_end = r.number("t_end", s.t_end, Need::Optional, Range::Positive);
  const bool rate = r.number("output_rate", s.output_rate, Need::Optional, Range::Positive);
  if (t_end || rate) {
    if (const Status length = checkRunLength(s); !length) r.diagnostics().error(length.error().where, length.error().message);
  }
  r.number("divergence_ratio", s.divergence_ratio, Need::Optional, Range::Positive);
  JsonObjectReader sv = r.object("solver", Need::Optional);
  if (sv.valid()) {
    const int m = sv.choice("method", schema::methodNames(), Need::Optional, 0);
    if (m >= 0) s.method = static_cast<SimulationSettings::Method>(m);
    sv.number("rtol", s.rtol, Need::Optional, Range::Positive);
    sv.number("atol", s.atol, Need::Optional, Range::Positive);
    sv.number("max_step", s.max_step, Need::Optional, Range::NonNegative);
    sv.number("initial_step", s.initial_step, Need::Optional, Range::NonNegative);
    sv.integer("max_steps", s.max_steps, Need::Optional, 1);
    long max_order = s.max_order;
    if (sv.integer("max_order", max_order, Need::Optional, 0)) {
      const long highest = s.method == SimulationSettings::Method::Adams ? 12 : 5;
      if (max_order > highest)
        sv.diagnostics().error(sv.pathOf("max_order"), "must be <= " + std::to_string(highest) + " for method \"" +
                                                           methodName(s.method) + "\", got " + std::to_string(max_order));
      else if (s.method == SimulationSettings::Method::Dirk && max_order > 0 && max_order < 3)
        sv.diagnostics().error(sv.pathOf("max_order"),
                               "method \"dirk\" has orders 3, 4 and 5 (0 = 4), got " + std::to_string(max_order));
      else
        s.max_order = static_cast<int>(max_order);
    }
    const int jac = sv.choice("jacobian", schema::jacobianNames(), Need::Optional, 0);
    if (jac >= 0) s.jacobian = static_cast<SimulationSettings::Jacobian>(jac);
    if (sv.number("rho_inf", s.rho_inf, Need::Optional, Range::NonNegative) && s.rho_inf > 1.0)
      sv.diagnostics().error(sv.pathOf("rho_inf"), "must be between 0 and 1, got " + formatNumber(s.rho_inf));
    sv.number("step", s.step, Need::Optional, Range::Positive);
    JsonObjectReader nm = sv.object("newmark", Need::Optional);
    if (nm.valid()) {
      nm.number("alpha", s.newmark_alpha, Need::Optional, Range::Positive);
      nm.number("delta", s.newmark_delta, Need::Optional, Range::Positive);
      nm.finish();
    }
    JsonObjectReader bg = sv.object("baumgarte", Need::Optional);
    if (bg.valid()) {
      bg.number("gamma", s.baumgarte_gamma, Need::Optional, Range::NonNegative);
      bg.number("beta", s.baumgarte_beta, Need::Optional, Range::NonNegative);
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

// Overrides by path: an object {"path": value, ...}; the values are kept as JSON text. An empty object
// is the project as it is (a baseline variant).
std::vector<std::pair<std::string, std::string>> readSets(JsonObjectReader& r, const char* key) {
  std::vector<std::pair<std::string, std::string>> out;
  const Json* obj = r.raw(key, Need::Required);
  if (!obj) return out;
  if (!obj->is_object()) {
    r.diagnostics().error(r.pathOf(key), "must be an object of overrides by path, e.g. {\"coupling\": \"zero\"}");
    return out;
  }
  for (auto it = obj->begin(); it != obj->end(); ++it) out.emplace_back(it.key(), it.value().dump());
  return out;
}

void readVariantsAndStudy(JsonObjectReader& root, Project& project, Diagnostics& diag) {
  if (const Json* variants = root.array("variants", Need::Optional)) {
    for (std::size_t i = 0; i < variants->size(); ++i) {
      JsonObjectReader r(&(*variants)[i], at("variants", i), diag);
      Variant v;
      if (r.valid()) {
        readName(r, v.name, "variant" + std::to_string(i + 1));
        // A study writes DIR/<variant>.csv beside summary.csv, and a comparison compare.csv.
        for (const char* reserved : {"summary", "compare"})
          if (v.name == reserved)
            diag.error(r.pathOf("name"), "\"" + v.name + "\" is reserved: a study or comparison writes its own " + reserved +
                                             ".csv (choose another name)");
        v.sets = readSets(r, "set");
      }
      r.finish();
      project.variants.push_back(v);
    }
    checkUniqueNames(project.variants, "variants", diag);
  }
  JsonObjectReader st = root.object("study", Need::Optional);
  if (!st.valid()) return;
  Study study;
  if (st.has("variants") == st.has("grid")) {
    diag.error(st.path(), "a study needs exactly one of \"variants\" (names) or \"grid\" (values by path)");
  } else if (const Json* names = st.array("variants", Need::Optional)) {
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
  } else if (const Json* grid = st.raw("grid", Need::Optional)) {
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

void writeLaw(Json& j, const TimeFunction& f) {
  j["law"] = lawName(f.law);
  for (const schema::LawParameter& p : schema::law(f.law).parameters) {
    if (p.list)
      j[p.key] = f.*p.list;
    else
      j[p.key] = f.*p.number;
  }
  switch (f.law) {
    case TimeFunction::Law::Table:
      j["interpolation"] = f.interpolation == TableInterpolation::Cubic ? "cubic" : "linear";
      if (!f.file.empty()) {
        j["file"] = f.file;
      } else {
        Json pts = Json::array();
        for (std::size_t k = 0; k < f.table_t.size(); ++k) pts.push_back(Json::array({f.table_t[k], f.table_value[k]}));
        j["points"] = pts;
      }
      break;
    default: break;  // the other laws are their parameters, written above
  }
}

Json flexToJson(const FlexibleLink& f) {
  Json fj;
  if (f.section_preset) {
    const SectionPreset& p = *f.section_preset;
    Json sj;
    sj["preset"] = sectionPresetName(p.kind);
    switch (p.kind) {
      case SectionPreset::Kind::Rectangle:
        sj["width"] = p.width;
        sj["height"] = p.height;
        break;
      case SectionPreset::Kind::Tube:
        sj["outer_diameter"] = p.outer_diameter;
        sj["inner_diameter"] = p.inner_diameter;
        break;
      case SectionPreset::Kind::IBeam:
        sj["width"] = p.width;
        sj["height"] = p.height;
        sj["flange_thickness"] = p.flange_thickness;
        sj["web_thickness"] = p.web_thickness;
        break;
    }
    fj["section"] = sj;
  } else {
    fj["section"] = {{"A", f.section.A}, {"Iy", f.section.Iy}, {"Iz", f.section.Iz}, {"J", f.section.J}};
  }
  if (!f.material_preset.empty())
    fj["material"] = {{"preset", f.material_preset}};
  else
    fj["material"] = {{"E", f.material.E}, {"G", f.material.G}, {"rho", f.material.rho}};
  const LinkDiscretization& d = f.discretization;
  if (d.kind == LinkDiscretization::Kind::AssumedModes) {
    fj["basis"] = "modes";
    fj["modes"] = {{"axial", d.axial}, {"bending_y", d.bending_y}, {"bending_z", d.bending_z}, {"torsion", d.torsion}};
  } else {
    fj["basis"] = "fem";
    fj["elements"] = d.elements;
    fj["layout"] = d.planar ? "planar" : "spatial";
    if (!d.nodes.empty()) fj["nodes"] = d.nodes;
    if (d.free_root) fj["root"] = "free";
    fj["reduce_to"] = d.reduce_to;
  }
  fj["rayleigh"] = Json::array({f.damping.rayleigh_alpha, f.damping.rayleigh_beta});
  fj["modal_damping"] = f.damping.modal_ratios;
  if (!f.e0.empty()) fj["e0"] = f.e0;
  if (f.initial_load) fj["initial_load"] = vec3Json(*f.initial_load);
  return fj;
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
  const double rows = s.t_end * s.output_rate;
  if (rows > kMaxOutputRows)
    return errorAt("simulation.t_end x simulation.output_rate",
                   formatNumber(s.t_end) + " s x " + formatNumber(s.output_rate) + " Hz = " + formatShort(rows, 3) +
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
  const int coupling = root.choice("coupling", schema::couplingNames(), Need::Optional, 2);
  if (coupling >= 0) project.coupling = static_cast<CouplingOrder>(coupling);
  if (root.vector3("gravity", model.gravity, Need::Optional) && !(model.gravity.norm() <= kMaxGravity))
    diag.error("gravity", "must be at most " + formatNumber(kMaxGravity) + " m/s^2 in magnitude (100 g), got " +
                              formatShort(model.gravity.norm(), 3));

  const Json* links = root.array("links", Need::Required);
  if (links) {
    if (links->empty()) diag.error("links", "the chain is empty: add at least one link");
    for (std::size_t i = 0; i < links->size(); ++i) {
      JsonObjectReader r(&(*links)[i], at("links", i), diag);
      Link link;
      if (r.valid()) readLink(r, link, i);
      r.finish();
      model.links.push_back(link);
    }
    checkUniqueNames(model.links, "links", diag);
  }
  const Json* joints = root.array("joints", Need::Required);
  if (joints) {
    for (std::size_t i = 0; i < joints->size(); ++i) {
      JsonObjectReader r(&(*joints)[i], at("joints", i), diag);
      Joint joint;
      if (r.valid()) readJoint(r, joint, i, base_dir);
      r.finish();
      model.joints.push_back(joint);
    }
    checkUniqueNames(model.joints, "joints", diag);
    if (links && joints->size() != links->size())
      diag.error("joints", "there must be one joint per link (joint i drives link i): " + std::to_string(links->size()) +
                               " links, " + std::to_string(joints->size()) + " joints");
  }
  const Json* payloads = root.array("payloads", Need::Optional);
  if (payloads) {
    for (std::size_t i = 0; i < payloads->size(); ++i) {
      JsonObjectReader r(&(*payloads)[i], at("payloads", i), diag);
      Payload p;
      if (r.valid()) readPayload(r, p, i, model);
      r.finish();
      model.payloads.push_back(p);
    }
    checkUniqueNames(model.payloads, "payloads", diag);
  }
  const Json* constraints = root.array("constraints", Need::Optional);
  if (constraints) {
    for (std::size_t i = 0; i < constraints->size(); ++i) {
      JsonObjectReader r(&(*constraints)[i], at("constraints", i), diag);
      Constraint c;
      if (r.valid()) readConstraint(r, c, i, model, base_dir);
      r.finish();
      model.constraints.push_back(c);
    }
    checkUniqueNames(model.constraints, "constraints", diag);
  }
  JsonObjectReader inv = root.object("inverse_dynamics", Need::Optional);
  if (inv.valid()) {
    InverseSpec spec;
    JsonObjectReader path = inv.object("path", Need::Required);
    if (path.valid()) {
      const char* names[3] = {"x", "y", "z"};
      for (int a = 0; a < 3; ++a) {
        JsonObjectReader law = path.object(names[a], Need::Optional);
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
  JsonObjectReader sim = root.object("simulation", Need::Optional);
  readSimulation(sim, project.simulation);
  sim.finish();
  if (!model.constraints.empty() && !project.simulation.constrained())
    diag.error("simulation.solver.method", "the model has constraints: choose \"ida\" or \"newmark\" (CVODE's \"" +
                                               std::string(methodName(project.simulation.method)) + "\" has no multipliers)");
  root.finish();
  if (diag.hasErrors()) return std::nullopt;
  if (!model.constraints.empty()) {  // what only the discretized system can tell (coordinate names, chains)
    const MultibodySystem sys = MultibodySystem::fromModel(model, project.coupling);
    ConstraintSet cs;
    if (const Status built = cs.build(sys, model, true); !built) diag.error("constraints", built.error().text());
  }
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

Json projectToJson(const Project& project) {
  const Model& m = project.model;
  Json j;
  j["format"] = "flexarm-project";
  j["schema_version"] = Project::kSchemaVersion;
  j["name"] = project.name;
  j["description"] = project.description;
  j["coupling"] = couplingName(project.coupling);
  j["gravity"] = vec3Json(m.gravity);
  j["links"] = Json::array();
  for (const Link& l : m.links) {
    Json lj;
    lj["name"] = l.name;
    lj["length"] = l.length;
    if (l.flex) {
      lj["flex"] = flexToJson(*l.flex);
      j["links"].push_back(lj);
      continue;
    }
    lj["mass"] = l.mass;
    if (l.shape) {
      Json s;
      s["type"] = shapeName(l.shape->kind);
      switch (l.shape->kind) {
        case ShapePreset::Kind::Rod: break;
        case ShapePreset::Kind::Box:
          s["width"] = l.shape->width;
          s["height"] = l.shape->height;
          break;
        case ShapePreset::Kind::Cylinder: s["radius"] = l.shape->radius; break;
        case ShapePreset::Kind::Tube:
          s["radius"] = l.shape->radius;
          s["inner_radius"] = l.shape->inner_radius;
          break;
      }
      lj["shape"] = s;
    } else {
      lj["com"] = vec3Json(l.com);
      lj["inertia"] = inertia6Json(l.inertia);
    }
    j["links"].push_back(lj);
  }
  j["joints"] = Json::array();
  for (const Joint& jt : m.joints) {
    Json jj;
    jj["name"] = jt.name;
    jj["type"] = jointTypeName(jt.type);
    jj["axis"] = vec3Json(jt.axis);
    jj["placement"] = {{"xyz", vec3Json(jt.placement.xyz)}, {"rpy", vec3Json(jt.placement.rpy)}};
    jj["q0"] = jt.q0;
    jj["qd0"] = jt.qd0;
    jj["damping"] = jt.damping;
    jj["mass"] = jt.mass;
    if (jt.flex) {
      jj["flex"] = {{"stiffness", jt.flex->stiffness},
                    {"damping", jt.flex->damping},
                    {"rotor_inertia", jt.flex->rotor_inertia},
                    {"gear_ratio", jt.flex->gear_ratio}};
    }
    Json d;
    d["type"] = driveKindName(jt.drive.kind);
    switch (jt.drive.kind) {
      case JointDrive::Kind::Free: break;
      case JointDrive::Kind::Effort:
      case JointDrive::Kind::Prescribed: writeLaw(d, jt.drive.law); break;
      case JointDrive::Kind::PD: {
        d["kp"] = jt.drive.kp;
        d["kd"] = jt.drive.kd;
        Json sp;
        writeLaw(sp, jt.drive.law);
        d["setpoint"] = sp;
        break;
      }
    }
    jj["drive"] = d;
    if (jt.limits.any()) {
      Json lj = Json::object();
      const std::pair<const char*, const std::optional<double>*> values[] = {{"lower", &jt.limits.lower},
                                                                             {"upper", &jt.limits.upper},
                                                                             {"effort", &jt.limits.effort},
                                                                             {"velocity", &jt.limits.velocity}};
      for (const auto& [key, v] : values)
        if (*v) lj[key] = **v;
      jj["limits"] = lj;
    }
    j["joints"].push_back(jj);
  }
  j["payloads"] = Json::array();
  for (const Payload& p : m.payloads) {
    Json pj;
    pj["name"] = p.name;
    pj["link"] = (p.link >= 0 && p.link < static_cast<int>(m.links.size())) ? m.links[p.link].name : std::string();
    pj["frame"] = p.frame == Payload::Frame::Distal ? "distal" : "body";
    pj["offset"] = vec3Json(p.offset);
    pj["mass"] = p.mass;
    pj["inertia"] = inertia6Json(p.inertia);
    j["payloads"].push_back(pj);
  }
  if (!m.constraints.empty()) {
    j["constraints"] = Json::array();
    for (const Constraint& c : m.constraints) {
      Json cj;
      cj["name"] = c.name;
      cj["type"] = constraintKindName(c.kind);
      auto linkName = [&] {
        return (c.link >= 0 && c.link < static_cast<int>(m.links.size())) ? m.links[c.link].name : std::string();
      };
      switch (c.kind) {
        case Constraint::Kind::Coordinates: {
          Json terms = Json::object();
          for (const auto& [name, coef] : c.terms) terms[name] = coef;
          cj["terms"] = terms;
          Json value;
          writeLaw(value, c.value);
          cj["value"] = value;
          break;
        }
        case Constraint::Kind::Point: {
          cj["link"] = linkName();
          cj["point"] = vec3Json(c.point);
          cj["world"] = vec3Json(c.world);
          std::string axes;
          for (int a = 0; a < 3; ++a)
            if (c.axes[static_cast<std::size_t>(a)]) axes += static_cast<char>('x' + a);
          cj["axes"] = axes;
          break;
        }
        case Constraint::Kind::SlidingSupport:
          cj["link"] = linkName();
          cj["position"] = c.position;
          cj["clamp_slope"] = c.clamp_slope;
          break;
      }
      j["constraints"].push_back(cj);
    }
  }
  if (project.inverse) {
    Json path = Json::object();
    const char* names[3] = {"x", "y", "z"};
    for (int a = 0; a < 3; ++a) {
      if (!project.inverse->path[static_cast<std::size_t>(a)]) continue;
      Json law;
      writeLaw(law, *project.inverse->path[static_cast<std::size_t>(a)]);
      path[names[a]] = law;
    }
    j["inverse_dynamics"] = {{"path", path}};
  }
  if (!project.variants.empty()) {
    j["variants"] = Json::array();
    for (const Variant& v : project.variants) {
      Json set = Json::object();
      for (const auto& [path, value] : v.sets) set[path] = Json::parse(value);
      j["variants"].push_back({{"name", v.name}, {"set", set}});
    }
  }
  if (project.study) {
    if (!project.study->grid.empty()) {
      Json grid = Json::object();
      for (const auto& [path, values] : project.study->grid) {
        Json arr = Json::array();
        for (const std::string& v : values) arr.push_back(Json::parse(v));
        grid[path] = arr;
      }
      j["study"] = {{"grid", grid}};
    } else {
      j["study"] = {{"variants", project.study->variants}};
    }
  }
  const SimulationSettings& s = project.simulation;
  j["simulation"] = {{"t_end", s.t_end},
                     {"output_rate", s.output_rate},
                     {"divergence_ratio", s.divergence_ratio},
                     {"solver",
                      {{"method", methodName(s.method)},
                       {"rtol", s.rtol},
                       {"atol", s.atol},
                       {"max_step", s.max_step},
                       {"initial_step", s.initial_step},
                       {"max_steps", s.max_steps},
                       {"max_order", s.max_order},
                       {"jacobian", jacobianName(s.jacobian)},
                       {"rho_inf", s.rho_inf},
                       {"step", s.step},
                       {"newmark", {{"alpha", s.newmark_alpha}, {"delta", s.newmark_delta}}},
                       {"baumgarte", {{"gamma", s.baumgarte_gamma}, {"beta", s.baumgarte_beta}}}}}};
  return j;
}

std::string projectToText(const Project& project) { return projectToJson(project).dump(2) + "\n"; }

Status saveProjectFile(const Project& project, const std::filesystem::path& file) {
  return writeFileAtomically(file, projectToText(project));
}

}  // namespace flexarm
