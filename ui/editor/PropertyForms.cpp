#include "ui/editor/PropertyForms.hpp"

#include <algorithm>
#include <cmath>

#include "base/NumberFormat.hpp"
#include "dynamics/MultibodySystem.hpp"
#include "io/ProjectSchema.hpp"
#include "model/SolverMethods.hpp"
#include "ui/document/ConstraintEdits.hpp"
#include "ui/document/ModelEdits.hpp"
#include "ui/document/VariantEdits.hpp"
#include "ui/editor/VariantPanels.hpp"

namespace flexarm {
namespace {

using Kind = FieldSpec::Kind;
using Commit = std::function<bool(ProjectDocument&, const Json&, QString*)>;

FieldSpec field(Kind kind, const QString& path, const QString& label, const QString& unit = {}, Json fallback = {}) {
  FieldSpec f;
  f.kind = kind;
  f.path = path;
  f.label = label;
  f.unit = unit;
  f.fallback = std::move(fallback);
  return f;
}
FieldSpec number(const QString& path, const QString& label, const QString& unit, Json fallback = {}) {
  return field(Kind::Number, path, label, unit, std::move(fallback));
}
FieldSpec integer(const QString& path, const QString& label, Json fallback = {}) {
  return field(Kind::Integer, path, label, {}, std::move(fallback));
}
FieldSpec numbers(const QString& path, const QString& label, const QString& unit, int count, Json fallback = {}) {
  FieldSpec f = field(Kind::Numbers, path, label, unit, std::move(fallback));
  f.count = count;
  return f;
}
FieldSpec choice(const QString& path, const QString& label, const QStringList& choices, Json fallback, Commit commit = {}) {
  FieldSpec f = field(Kind::Choice, path, label, {}, std::move(fallback));
  f.choices = choices;
  f.commit = std::move(commit);
  return f;
}
FieldSpec heading(const QString& label) { return field(Kind::Heading, {}, label); }
FieldSpec info(const QString& label, const QString& text) {
  FieldSpec f = field(Kind::Info, {}, label);
  f.info = text;
  return f;
}
FieldSpec nameField(const QString& path, const ModelItem& item) {
  FieldSpec f = field(Kind::Text, path, "name");
  f.commit = [item](ProjectDocument& d, const Json& v, QString* e) {
    return edits::rename(d, item, QString::fromStdString(v.get<std::string>()), e);
  };
  return f;
}

QStringList words(const std::vector<std::string>& names) {
  QStringList out;
  for (const std::string& n : names) out << QString::fromStdString(n);
  return out;
}

// The field of the schema's key `key` (io/ProjectSchema.hpp: "links[].length") at the document's `path`
// ("links[0].length"): its kind, label, unit, default and choices, with the units of a revolute (true)
// or prismatic joint.
FieldSpec keyField(const QString& path, const std::string& key, bool revolute = true) {
  const schema::Key& k = schema::key(key);
  const QString unit = QString::fromStdString(schema::unitFor(k.unit, revolute));
  const QString label = QString::fromUtf8(k.label);
  using T = schema::Type;
  switch (k.type) {
    case T::Number: return number(path, label, unit, k.fallback);
    case T::Integer: return integer(path, label, k.fallback);
    case T::Vector3: return numbers(path, label, unit, 3, k.fallback);
    case T::Inertia: return numbers(path, label, unit, 0, k.fallback);
    case T::Numbers: return numbers(path, label, unit, static_cast<int>(k.fallback.size()), k.fallback);
    default:
      if (!k.choices.empty()) return choice(path, label, words(k.choices), k.fallback);
      return field(Kind::Text, path, label, unit, k.fallback);
  }
}

}  // namespace

Json withoutRoundOff(const Json& list) {
  if (!list.is_array()) return list;
  double scale = 0.0;
  for (const Json& x : list)
    if (x.is_number()) scale = std::max(scale, std::abs(x.get<double>()));
  Json out = Json::array();
  for (const Json& x : list) out.push_back(x.is_number() && std::abs(x.get<double>()) <= 1e-12 * scale ? Json(0.0) : x);
  return out;
}

namespace {

// A rigid body's inertia (the schema's key `key`: 3 or 6 numbers at `path`) as two fields of three, the
// moments Ixx, Iyy, Izz and the products Ixy, Ixz, Iyz (0 when only the moments are given): six numbers in
// one field would be wider than the dock. Each commits the whole list, with the products only when one of
// them is not 0.
void inertiaFields(std::vector<FieldSpec>& out, const QString& path, const std::string& key) {
  const schema::Key& k = schema::key(key);
  const QString unit = QString::fromStdString(schema::unitFor(k.unit, true));
  auto six = [path, fallback = k.fallback](const ProjectDocument& doc) {
    const Json* v = doc.value(path);
    const Json given = v && v->is_array() ? *v : fallback;
    Json all = Json::array({0.0, 0.0, 0.0, 0.0, 0.0, 0.0});
    for (std::size_t i = 0; i < std::min<std::size_t>(given.size(), 6); ++i) all[i] = given[i];
    return all;
  };
  for (const bool products : {false, true}) {
    const std::size_t from = products ? 3 : 0;
    FieldSpec f = numbers(products ? path + ".products" : path,
                          products ? "inertia products Ixy, Ixz, Iyz" : "inertia moments Ixx, Iyy, Izz", unit, 3);
    f.tooltip = path + ": " + QString::fromUtf8(k.label);
    f.current = [six, from](const ProjectDocument& doc) {  // round-off against all six (an imported 2e-17) as 0
      const Json all = withoutRoundOff(six(doc));
      return Json::array({all[from], all[from + 1], all[from + 2]});
    };
    f.commit = [six, from, path, unit](ProjectDocument& doc, const Json& v, QString* e) {
      Json all = six(doc);
      for (std::size_t i = 0; i < 3; ++i) all[from + i] = v[i];
      const bool any_product = all[3] != 0.0 || all[4] != 0.0 || all[5] != 0.0;
      const Json written = any_product ? all : Json::array({all[0], all[1], all[2]});
      return doc.setValue(path, written, e, unit);
    };
    out.push_back(f);
  }
}

QString num(double x) { return QString::number(x, 'g', 6); }
QString at(const char* array, int i) { return QString("%1[%2]").arg(array).arg(i); }
std::string str(const Json& v) { return v.is_string() ? v.get<std::string>() : std::string(); }
// "explicit" in a preset choice stands for no preset (explicit values).
std::string presetOf(const Json& v) { return str(v) == "explicit" ? std::string() : str(v); }

std::string stringAt(const ProjectDocument& d, const QString& path, const std::string& fallback) {
  const Json* v = d.value(path);
  return v && v->is_string() ? v->get<std::string>() : fallback;
}

QStringList linkNames(const ProjectDocument& d) {
  QStringList links;
  if (const Project* pr = d.project())
    for (const Link& l : pr->model.links) links << QString::fromStdString(l.name);
  return links;
}

QStringList lawChoices() {
  QStringList laws;
  for (const std::string& l : edits::lawNames()) laws << QString::fromStdString(l);
  return laws;
}

// The fields of keys at the same path in the document and the schema (no array index on the way).
void keyFields(std::vector<FieldSpec>& out, std::initializer_list<const char*> keys) {
  for (const char* k : keys) out.push_back(keyField(k, k));
}

void projectForm(std::vector<FieldSpec>& out, const ProjectDocument&) {
  out.push_back(nameField("name", {ModelItem::Kind::Project, -1}));
  keyFields(out, {"description", "gravity"});
}

// The defaults shown for absent keys are the reader's (the schema's, from schema::simulationDefaults).
// Accuracy and method lead (auto chooses the rest); the solver's own settings follow under Advanced.
void simulationForm(std::vector<FieldSpec>& out, const ProjectDocument&) {
  FieldSpec accuracy = keyField("simulation.accuracy", "simulation.accuracy");
  accuracy.tooltip =
      "The largest error you accept in each output (end effector, tips, joints), as a fraction of its "
      "excursion over the run: 1e-3 is 0.1 %. Every run reports its error estimate.";
  out.push_back(accuracy);
  FieldSpec method = keyField("simulation.solver.method", "simulation.solver.method");
  method.choices.clear();
  for (const SolverMethodInfo& m : solverMethods()) {  // auto first, each with when to use it
    method.choices << QString::fromUtf8(m.name);
    method.choice_tooltips << QString::fromUtf8(m.label) + ": " + QString::fromUtf8(m.when);
  }
  method.tooltip = "auto: FlexArm chooses the method and its tolerances from the model and the accuracy";
  out.push_back(method);
  keyFields(out, {"simulation.t_start", "simulation.t_end", "simulation.output_rate", "coupling"});
  out.push_back(heading("Advanced: the method's own settings (auto sets them; rtol and atol override the accuracy)"));
  keyFields(out, {"simulation.solver.rtol", "simulation.solver.atol", "simulation.solver.max_step", "simulation.solver.step",
                  "simulation.solver.max_steps", "simulation.solver.max_order", "simulation.solver.jacobian",
                  "simulation.solver.rho_inf", "simulation.divergence_ratio"});
}

void sectionFields(std::vector<FieldSpec>& out, const ProjectDocument& d, const QString& p, int i) {
  const QString s = p + ".flex.section";
  const std::string preset = stringAt(d, s + ".preset", "explicit");
  FieldSpec kind = keyField(s + ".preset", "links[].flex.section.preset");
  kind.choices.prepend("explicit");
  kind.fallback = "explicit";
  kind.commit = [i](ProjectDocument& doc, const Json& v, QString* e) { return edits::setSectionPreset(doc, i, presetOf(v), e); };
  out.push_back(kind);
  const QString field_of = s + ".";
  if (preset == "explicit") {
    for (const schema::Field<BeamSection>& f : schema::sectionProperties())
      out.push_back(keyField(field_of + QString::fromStdString(f.key->name()), f.key->path));
    return;
  }
  for (const schema::PresetSpec<SectionPreset>& spec : schema::sectionPresets())
    if (preset == spec.name)
      for (const schema::Dimension<SectionPreset>& dim : spec.dimensions)
        out.push_back(keyField(field_of + QString::fromStdString(dim.key->name()), dim.key->path));
}

void flexibleLinkFields(std::vector<FieldSpec>& out, const ProjectDocument& d, const QString& p, int i,
                        const MultibodySystem* sys) {
  out.push_back(heading("Section"));
  sectionFields(out, d, p, i);
  out.push_back(heading("Material"));
  const QString m = p + ".flex.material";
  FieldSpec material = keyField(m + ".preset", "links[].flex.material.preset");
  material.choices.prepend("explicit");
  material.fallback = "explicit";
  material.commit = [i](ProjectDocument& doc, const Json& v, QString* e) {
    return edits::setMaterialPreset(doc, i, presetOf(v), e);
  };
  out.push_back(material);
  if (stringAt(d, m + ".preset", "explicit") == "explicit") {
    for (const schema::Field<Material>& f : schema::materialProperties())
      out.push_back(keyField(m + "." + QString::fromStdString(f.key->name()), f.key->path));
  } else if (const Project* pr = d.project(); pr && pr->model.links[static_cast<std::size_t>(i)].flex) {
    const Material& mat = pr->model.links[static_cast<std::size_t>(i)].flex->material;
    out.push_back(info("E, G, rho", QString("%1 Pa, %2 Pa, %3 kg/m³").arg(num(mat.E), num(mat.G), num(mat.rho))));
  }
  out.push_back(heading("Discretization"));
  const QString f = p + ".flex";
  FieldSpec basis = keyField(f + ".basis", "links[].flex.basis");
  // The basis a new link starts with (fem) first, as the editor listed them before the schema.
  const QString first = QString::fromStdString(schema::key("links[].flex.basis").initial.get<std::string>());
  basis.choices.removeAll(first);
  basis.choices.prepend(first);
  basis.commit = [i](ProjectDocument& doc, const Json& v, QString* e) { return edits::setBasis(doc, i, str(v), e); };
  out.push_back(basis);
  const auto flexKey = [&f](const char* key) { return keyField(f + "." + key, std::string("links[].flex.") + key); };
  if (stringAt(d, f + ".basis", "fem") == "modes") {
    for (const char* family : {"modes.axial", "modes.bending_y", "modes.bending_z", "modes.torsion"})
      out.push_back(flexKey(family));
  } else {
    for (const char* key : {"elements", "layout", "reduce_to"}) out.push_back(flexKey(key));
    FieldSpec nodes = flexKey("nodes");
    nodes.commit = [f](ProjectDocument& doc, const Json& v, QString* e) {
      return edits::setListOrDefault(doc, f + ".nodes", v, false, {}, e);
    };
    out.push_back(nodes);
  }
  out.push_back(heading("Initial shape"));
  FieldSpec load = flexKey("initial_load");
  load.commit = [f](ProjectDocument& doc, const Json& v, QString* e) {
    return edits::setListOrDefault(doc, f + ".initial_load", v, true, {"e0"}, e);
  };
  out.push_back(load);
  QString count;
  if (sys && i < static_cast<int>(sys->bodies.size()))
    count = QString(", %1 values").arg(sys->bodies[static_cast<std::size_t>(i)].e_count);
  FieldSpec e0 = flexKey("e0");
  e0.label += " (empty: undeformed" + count + ")";
  e0.commit = [f](ProjectDocument& doc, const Json& v, QString* e) {
    return edits::setListOrDefault(doc, f + ".e0", v, false, {"initial_load"}, e);
  };
  out.push_back(e0);
  FieldSpec ed0 = flexKey("ed0");
  ed0.label += " (empty: at rest" + count + ")";
  ed0.commit = [f](ProjectDocument& doc, const Json& v, QString* e) {
    return edits::setListOrDefault(doc, f + ".ed0", v, false, {}, e);
  };
  out.push_back(ed0);
  out.push_back(heading("Damping"));
  out.push_back(flexKey("rayleigh"));
  out.push_back(flexKey("modal_damping"));
  if (sys && i < static_cast<int>(sys->bodies.size()) && d.project()) {
    const Body& b = sys->bodies[static_cast<std::size_t>(i)];
    out.push_back(heading("Computed"));
    out.push_back(info("mass (rho A L)", num(d.project()->model.links[static_cast<std::size_t>(i)].mass) + " kg"));
    out.push_back(info("elastic coordinates", QString::number(b.e_count)));
    if (b.flexible && b.flexible->frequencies.size() > 0)
      out.push_back(info("first clamped-free frequency", num(b.flexible->frequencies(0) / (2 * M_PI)) + " Hz"));
  }
}

void linkForm(std::vector<FieldSpec>& out, const ProjectDocument& d, int i, const MultibodySystem* sys) {
  const QString p = at("links", i);
  out.push_back(nameField(p + ".name", {ModelItem::Kind::Link, i}));
  FieldSpec kind = choice(p + ".flex", "link", {"rigid", "flexible"}, {}, [i](ProjectDocument& doc, const Json& v, QString* e) {
    return edits::setLinkFlexible(doc, i, str(v) == "flexible", e);
  });
  kind.current = [p](const ProjectDocument& doc) { return Json(doc.value(p + ".flex") ? "flexible" : "rigid"); };
  out.push_back(kind);
  out.push_back(keyField(p + ".length", "links[].length"));
  if (d.value(p + ".flex")) return flexibleLinkFields(out, d, p, i, sys);
  out.push_back(keyField(p + ".mass", "links[].mass"));
  const std::string shape = stringAt(d, p + ".shape.type", "explicit");
  FieldSpec kind_of_shape = keyField(p + ".shape.type", "links[].shape.type");
  kind_of_shape.choices.append("explicit");
  kind_of_shape.fallback = "explicit";
  kind_of_shape.commit = [i](ProjectDocument& doc, const Json& v, QString* e) { return edits::setShape(doc, i, presetOf(v), e); };
  out.push_back(kind_of_shape);
  if (shape == "explicit") {
    out.push_back(keyField(p + ".com", "links[].com"));
    inertiaFields(out, p + ".inertia", "links[].inertia");
    return;
  }
  for (const schema::PresetSpec<ShapePreset>& spec : schema::shapePresets())
    if (shape == spec.name)
      for (const schema::Dimension<ShapePreset>& dim : spec.dimensions)
        out.push_back(keyField(p + ".shape." + QString::fromStdString(dim.key->name()), dim.key->path));
}

// A table law at `law` (its TimeFunction as loaded: `loaded`, may be null): its interpolation, what it
// holds, and where its points come from.
void tableFields(std::vector<FieldSpec>& out, const QString& law, const TimeFunction* loaded, const QString& unit) {
  out.push_back(choice(law + ".interpolation", "interpolation", {"linear", "cubic"}, "linear"));
  if (loaded && !loaded->table_t.empty()) {
    const auto [lo, hi] = std::minmax_element(loaded->table_value.begin(), loaded->table_value.end());
    out.push_back(info("points", QString("%1 points, t from %2 to %3 s, values from %4 to %5 %6")
                                     .arg(loaded->table_t.size())
                                     .arg(num(loaded->table_t.front()), num(loaded->table_t.back()), num(*lo), num(*hi), unit)));
  }
  FieldSpec file = field(Kind::Text, law + ".file", "table file (read at load)", {}, "");
  file.commit = [law](ProjectDocument& doc, const Json& v, QString* e) {
    return edits::setTableFile(doc, law, QString::fromStdString(str(v)), e);
  };
  out.push_back(file);
  FieldSpec import = field(Kind::File, law + ".points", "copy points from");
  import.info = "Import CSV...";
  import.commit = [law](ProjectDocument & doc, const Json& v, QString* e) {
    return edits::importTable(doc, law, QString::fromStdString(str(v)), e);
};
out.push_back(import);
}  // namespace

namespace {

// The range and ratings a joint is built for (joints[i].limits, e.g. from a URDF): kept and shown,
// not enforced. "none" removes them; "given" starts from the whole turn (or +-1 m).
void limitFields(std::vector<FieldSpec>& out, const ProjectDocument& d, const QString& p, bool revolute) {
  FieldSpec kind = choice(p + ".limits", "limits (not enforced)", {"none", "given"}, {},
                          [p, revolute](ProjectDocument& doc, const Json& v, QString* e) {
                            if (str(v) == "none") return doc.value(p + ".limits") ? doc.removeValue(p + ".limits", e) : true;
                            if (doc.value(p + ".limits")) return true;
                            const double range = revolute ? M_PI : 1.0;
                            return doc.setValue(p + ".limits", Json({{"lower", -range}, {"upper", range}}), e);
                          });
  kind.current = [p](const ProjectDocument& doc) { return Json(doc.value(p + ".limits") ? "given" : "none"); };
  out.push_back(kind);
  if (!d.value(p + ".limits")) return;
  for (const char* key : {"lower", "upper", "effort", "velocity"})
    out.push_back(keyField(p + ".limits." + key, std::string("joints[].limits.") + key, revolute));
}

}  // namespace

// A piecewise law's pieces, listed (they are edited in the project file).
void pieceFields(std::vector<FieldSpec>& out, const ProjectDocument& d, const QString& law) {
  if (stringAt(d, law + ".law", "") != "piecewise") return;
  const Json* pieces = d.value(law + ".pieces");
  QStringList lines;
  for (std::size_t k = 0; pieces && pieces->is_array() && k < pieces->size(); ++k) {
    const Json& p = (*pieces)[k];
    const bool ok = p.is_object() && p.contains("from") && p["from"].is_number() && p.contains("law") && p["law"].is_object();
    lines << (ok ? QString("from %1 s: %2")
                       .arg(QString::fromStdString(formatNumber(p["from"].get<double>())),
                            QString::fromStdString(p["law"].value("law", std::string("?"))))
                 : QString("piece %1: not valid").arg(k + 1));
  }
  out.push_back(info("pieces", lines.join("\n") + "\n(edit them in the project file: docs/project-format.md, time laws)"));
}

void jointForm(std::vector<FieldSpec>& out, const ProjectDocument& d, int i) {
  const QString p = at("joints", i);
  const bool revolute = stringAt(d, p + ".type", "revolute") == "revolute";
  const QString q = revolute ? "rad" : "m", effort = revolute ? "N m" : "N";
  out.push_back(nameField(p + ".name", {ModelItem::Kind::Joint, i}));
  const auto jointKey = [&p, revolute](const char* key) {
    return keyField(p + "." + key, std::string("joints[].") + key, revolute);
  };
  // The link it sits on: the previous one (a chain), any earlier one (a tree), or the world.
  QStringList parents{"world"};
  const QStringList links = linkNames(d);
  for (int k = 0; k < i && k < links.size(); ++k) parents << links[k];
  FieldSpec parent = choice(p + ".parent", "parent link", parents, {}, [p, i](ProjectDocument& doc, const Json& v, QString* e) {
    // The default (the previous link, the world for the first joint) is left out of the file.
    const QStringList names = linkNames(doc);
    const QString chosen = QString::fromStdString(str(v));
    if (chosen == (i == 0 ? QString("world") : names.value(i - 1)))
      return !doc.value(p + ".parent") || doc.removeValue(p + ".parent", e);
    return doc.setValue(p + ".parent", v, e);
  });
  parent.current = [p, i](const ProjectDocument& doc) {
    const Json* v = doc.value(p + ".parent");
    if (v && v->is_string()) return *v;
    return Json(i == 0 ? std::string("world") : linkNames(doc).value(i - 1).toStdString());
  };
  out.push_back(parent);
  for (const char* key : {"type", "axis", "placement.xyz", "placement.rpy", "q0", "qd0", "damping", "mass"})
    out.push_back(jointKey(key));
  limitFields(out, d, p, revolute);
  out.push_back(heading("Flexibility"));
  FieldSpec kind = choice(p + ".flex", "joint", {"rigid", "flexible"}, {}, [i](ProjectDocument& doc, const Json& v, QString* e) {
    return edits::setJointFlexible(doc, i, str(v) == "flexible", e);
  });
  kind.current = [p](const ProjectDocument& doc) { return Json(doc.value(p + ".flex") ? "flexible" : "rigid"); };
  out.push_back(kind);
  if (d.value(p + ".flex")) {
    for (const schema::Field<JointFlex>& f : schema::jointFlexProperties())
      out.push_back(keyField(p + ".flex." + QString::fromStdString(f.key->name()), f.key->path, revolute));
    for (const char* key : {"torsion0", "torsiond0"})
      out.push_back(keyField(p + ".flex." + key, std::string("joints[].flex.") + key, revolute));
  }
  out.push_back(heading("Drive"));
  FieldSpec drive = jointKey("drive.type");
  drive.commit = [i](ProjectDocument& doc, const Json& v, QString* e) { return edits::setDriveType(doc, i, str(v), e); };
  out.push_back(drive);
  const std::string type = stringAt(d, p + ".drive.type", "free");
  if (type == "pd") {
    out.push_back(jointKey("drive.kp"));
    out.push_back(jointKey("drive.kd"));
  }
  const QString law = edits::lawPath(d, i);
  if (law.isEmpty()) return;
  out.push_back(choice(law + ".law", type == "pd" ? "set-point law" : "law", lawChoices(), {},
                       [i](ProjectDocument& doc, const Json& v, QString* e) { return edits::setLaw(doc, i, str(v), e); }));
  const QString f = type == "effort" ? effort : q;
  for (const edits::LawParam& lp : edits::lawParams(stringAt(d, law + ".law", ""))) {
    QString unit = QString(lp.unit);
    unit = unit == "f" ? f : unit == "f/s" ? f + "/s" : unit;
    if (lp.list)
      out.push_back(numbers(law + "." + lp.key, lp.key, QString("%1/s^k").arg(f), 0));
    else
      out.push_back(number(law + "." + lp.key, lp.key, unit, lp.optional ? Json(0.0) : Json()));
  }
  if (stringAt(d, law + ".law", "") == "table")
    tableFields(out, law, d.project() ? &d.project()->model.joints[static_cast<std::size_t>(i)].drive.law : nullptr, f);
  pieceFields(out, d, law);
}

void payloadForm(std::vector<FieldSpec>& out, const ProjectDocument& d, int i) {
  const QString p = at("payloads", i);
  out.push_back(nameField(p + ".name", {ModelItem::Kind::Payload, i}));
  out.push_back(choice(p + ".link", "link", linkNames(d), {}));
  for (const char* key : {"frame", "offset", "mass"}) out.push_back(keyField(p + "." + key, std::string("payloads[].") + key));
  inertiaFields(out, p + ".inertia", "payloads[].inertia");
}

// A time law at path v that may be absent (then the constant `absent_value`): its choice and parameters,
// f the unit of its value; `loaded` the law as the loader read it (a table's points), when there is one.
void optionalLawFields(std::vector<FieldSpec>& out, const ProjectDocument& d, const QString& v, const char* label,
                       const QString& f, double absent_value, const TimeFunction* loaded) {
  const bool given = d.value(v) != nullptr;
  out.push_back(choice(v + ".law", label, lawChoices(), "constant", [v](ProjectDocument& doc, const Json& x, QString* e) {
    if (doc.value(v)) return edits::setLawAt(doc, v, str(x), e);
    return doc.setValue(v, edits::defaultLaw(str(x)), e);
  }));
  const std::string law = given ? stringAt(d, v + ".law", "") : "constant";
  for (const edits::LawParam& lp : edits::lawParams(law)) {
    QString unit = QString(lp.unit);
    unit = unit == "f" ? f : unit == "f/s" ? f + "/s" : unit;
    if (lp.list) {
      out.push_back(numbers(v + "." + lp.key, lp.key, QString("%1/s^k").arg(f), 0));
      continue;
    }
    FieldSpec n = number(v + "." + lp.key, lp.key, unit, lp.optional || !given ? Json(given ? 0.0 : absent_value) : Json());
    if (!given)  // the default made explicit as a constant law
      n.commit = [v](ProjectDocument& doc, const Json& x, QString* e) {
        Json law = edits::defaultLaw("constant");
        law["value"] = x;
        return doc.setValue(v, law, e);
      };
    out.push_back(n);
  }
  if (law == "table") tableFields(out, v, loaded, f);
  pieceFields(out, d, v);
}

// The time law f(t) of a coordinates constraint (sum c_k q_k = f(t)); absent means 0.
void constraintValueFields(std::vector<FieldSpec>& out, const ProjectDocument& d, int i, const QString& p) {
  const Json* terms = d.value(p + ".terms");
  const Project* pr = d.project();
  const bool loaded = pr && i < static_cast<int>(pr->model.constraints.size());
  optionalLawFields(out, d, p + ".value", "value law f(t)", terms ? edits::termsUnit(d, *terms) : QString(), 0.0,
                    loaded ? &pr->model.constraints[static_cast<std::size_t>(i)].value : nullptr);
}

// A load: where it acts, what it applies, in which axes, and its scale in time (absent: 1).
void loadForm(std::vector<FieldSpec>& out, const ProjectDocument& d, int i) {
  const QString p = at("loads", i);
  out.push_back(nameField(p + ".name", {ModelItem::Kind::Load, i}));
  out.push_back(choice(p + ".link", "link", linkNames(d), {}));
  for (const char* key : {"point", "force", "torque", "axes"})
    out.push_back(keyField(p + "." + key, std::string("loads[].") + key));
  out.push_back(heading("Scale in time"));
  const Project* pr = d.project();
  const bool loaded = pr && i < static_cast<int>(pr->model.loads.size());
  optionalLawFields(out, d, p + ".law", "law", "-", 1.0, loaded ? &pr->model.loads[static_cast<std::size_t>(i)].law : nullptr);
}

void constraintForm(std::vector<FieldSpec>& out, const ProjectDocument& d, int i) {
  const QString p = at("constraints", i);
  out.push_back(nameField(p + ".name", {ModelItem::Kind::Constraint, i}));
  FieldSpec kind = keyField(p + ".type", "constraints[].type");
  kind.commit = [i](ProjectDocument& doc, const Json& v, QString* e) { return edits::setConstraintType(doc, i, str(v), e); };
  out.push_back(kind);
  const std::string type = stringAt(d, p + ".type", "");
  if (type == "coordinates") {
    out.push_back(heading("sum of c_k q_k = f(t)"));
    FieldSpec terms = field(Kind::Text, p + ".terms", "terms: coordinate = c_k", "-");
    terms.current = [p](const ProjectDocument& doc) {
      const Json* t = doc.value(p + ".terms");
      return Json(t ? edits::termsText(*t).toStdString() : std::string());
    };
    terms.commit = [i](ProjectDocument& doc, const Json& v, QString* e) {
      return edits::setConstraintTerms(doc, i, QString::fromStdString(str(v)), e);
    };
    out.push_back(terms);
    out.push_back(info("coordinates", edits::coordinateNames(d).join(", ")));
    constraintValueFields(out, d, i, p);
  } else if (type == "point" || type == "revolute" || type == "prismatic") {
    out.push_back(choice(p + ".link", "link", linkNames(d), {}));
    out.push_back(keyField(p + ".point", "constraints[].point"));
    if (type != "point") out.push_back(keyField(p + ".axis", "constraints[].axis"));
    // The counterpart: the world or another link.
    FieldSpec other = choice(
        p + ".other_link", "held by", QStringList{edits::kWorld} + linkNames(d), {},
        [i](ProjectDocument& doc, const Json& v, QString* e) { return edits::setConstraintCounterpart(doc, i, str(v), e); });
    other.current = [p](const ProjectDocument& doc) {
      const Json* v = doc.value(p + ".other_link");
      return Json(v && v->is_string() ? v->get<std::string>() : std::string(edits::kWorld));
    };
    out.push_back(other);
    const Json* o = d.value(p + ".other_link");
    out.push_back(o ? keyField(p + ".other_point", "constraints[].other_point") : keyField(p + ".world", "constraints[].world"));
    if (type == "point") out.push_back(keyField(p + ".axes", "constraints[].axes"));
  } else if (type == "sliding_support") {
    out.push_back(choice(p + ".link", "flexible link", linkNames(d), {}));
    out.push_back(keyField(p + ".position", "constraints[].position"));
    FieldSpec slope = choice(
        p + ".clamp_slope", "also zero slope (sleeve)", {"false", "true"}, {},
        [p](ProjectDocument& doc, const Json& v, QString* e) { return doc.setValue(p + ".clamp_slope", str(v) == "true", e); });
    slope.current = [p](const ProjectDocument& doc) {
      const Json* v = doc.value(p + ".clamp_slope");
      return Json(v && v->is_boolean() && v->get<bool>() ? "true" : "false");
    };
    out.push_back(slope);
  }
}

void variantForm(std::vector<FieldSpec>& out, const ProjectDocument& d, int i) {
  const QString p = at("variants", i);
  FieldSpec name = field(Kind::Text, p + ".name", "name");
  name.commit = [i](ProjectDocument& doc, const Json& v, QString* e) {
    return edits::renameVariant(doc, i, QString::fromStdString(str(v)), e);
  };
  out.push_back(name);
  const Json* set = d.value(p + ".set");
  const std::size_t n = set && set->is_object() ? set->size() : 0;
  const QString problem = edits::variantProblem(d, i);
  out.push_back(info("check", problem.isEmpty() ? (n == 0 ? QString("no overrides: the project as it is (a baseline)")
                                                          : QString("the project with these %1 overrides loads").arg(n))
                                                : "these overrides no longer make a valid project:\n" + problem));
  out.push_back(heading("Overrides, applied in order (as flexarm-cli --set)"));
  FieldSpec table = field(Kind::Panel, p + ".set", {});
  table.panel = [i, p](ProjectDocument& doc, QWidget* parent) -> FormPanel* {
    PathTable::Hooks hooks;
    hooks.rows = [p](const ProjectDocument& dd) {
      PathTable::Rows rows;
      if (const Json* s = dd.value(p + ".set"); s && s->is_object())
        for (auto it = s->begin(); it != s->end(); ++it)
          rows.emplace_back(QString::fromStdString(it.key()), edits::overrideText(it.value()));
      return rows;
    };
    hooks.set = [i](ProjectDocument& dd, int row, const QString& path, const QString& text, QString* e) {
      return edits::setOverride(dd, i, row, path, text, e);
    };
    hooks.remove = [i](ProjectDocument& dd, int row, QString* e) { return edits::removeOverride(dd, i, row, e); };
    hooks.addLines = [i](ProjectDocument& dd, const QString& lines, QString* e) {
      return edits::addOverrideLines(dd, i, lines, e);
    };
    return new PathTable(&doc, "value", hooks, parent);
  };
  out.push_back(table);
}

void studyForm(std::vector<FieldSpec>& out, const ProjectDocument& d) {
  FieldSpec kind = choice("study", "study runs", {"none", "variants", "grid"}, {},
                          [](ProjectDocument& doc, const Json& v, QString* e) { return edits::setStudyKind(doc, str(v), e); });
  kind.current = [](const ProjectDocument& doc) { return Json(edits::studyKind(doc).toStdString()); };
  out.push_back(kind);
  const QString k = edits::studyKind(d);
  if (k == "variants") {
    out.push_back(heading("Variants in the study (checked)"));
    FieldSpec list = field(Kind::Panel, "study.variants", {});
    list.panel = [](ProjectDocument& doc, QWidget* parent) -> FormPanel* { return new StudyVariantList(&doc, parent); };
    out.push_back(list);
  } else if (k == "grid") {
    out.push_back(heading("Grid: every combination of the values (the last path varies fastest)"));
    FieldSpec grid = field(Kind::Panel, "study.grid", {});
    grid.panel = [](ProjectDocument& doc, QWidget* parent) -> FormPanel* {
      PathTable::Hooks hooks;
      hooks.rows = [](const ProjectDocument& dd) {
        PathTable::Rows rows;
        if (const Json* g = dd.value("study.grid"); g && g->is_object())
          for (auto it = g->begin(); it != g->end(); ++it)
            rows.emplace_back(QString::fromStdString(it.key()), edits::valuesText(it.value()));
        return rows;
      };
      hooks.set = [](ProjectDocument& dd, int row, const QString& path, const QString& text, QString* e) {
        return edits::setGridRow(dd, row, path, text, e);
      };
      hooks.remove = [](ProjectDocument& dd, int row, QString* e) { return edits::removeGridRow(dd, row, e); };
      return new PathTable(&doc, "values (a, b, c)", hooks, parent);
    };
    out.push_back(grid);
  }
  const QStringList cases = edits::studyCaseNames(d);
  QString text = k == "none" ? QString("no study: flexarm-cli study has nothing to run") : QString("%1 cases").arg(cases.size());
  if (!cases.isEmpty()) text += ": " + (cases.size() > 12 ? cases.mid(0, 12).join(", ") + ", ..." : cases.join(", "));
  out.push_back(info("cases", text));
}

}  // namespace flexarm

std::vector<FieldSpec> formFor(const ProjectDocument& doc, const ModelItem& item, const MultibodySystem* system) {
  std::vector<FieldSpec> out;
  switch (item.kind) {
    case ModelItem::Kind::Project: projectForm(out, doc); break;
    case ModelItem::Kind::Simulation: simulationForm(out, doc); break;
    case ModelItem::Kind::Link:
      if (doc.value(at("links", item.index))) linkForm(out, doc, item.index, system);
      break;
    case ModelItem::Kind::Joint:
      if (doc.value(at("joints", item.index))) jointForm(out, doc, item.index);
      break;
    case ModelItem::Kind::Payload:
      if (doc.value(at("payloads", item.index))) payloadForm(out, doc, item.index);
      break;
    case ModelItem::Kind::Load:
      if (doc.value(at("loads", item.index))) loadForm(out, doc, item.index);
      break;
    case ModelItem::Kind::Constraint:
      if (doc.value(at("constraints", item.index))) constraintForm(out, doc, item.index);
      break;
    case ModelItem::Kind::Variant:
      if (doc.value(at("variants", item.index))) variantForm(out, doc, item.index);
      break;
    case ModelItem::Kind::Study: studyForm(out, doc); break;
    case ModelItem::Kind::None: break;
  }
  return out;
}

}  // namespace flexarm
