#include "ui/document/ConstraintEdits.hpp"

#include <QLocale>
#include <QRegularExpression>
#include <algorithm>
#include <cmath>
#include <set>

#include "ui/document/PathWords.hpp"
#include "dynamics/LinkPoint.hpp"
#include "dynamics/MultibodySystem.hpp"
#include "io/JsonReader.hpp"
#include "io/ProjectSchema.hpp"
#include "ui/document/ModelEdits.hpp"
#include "model/Names.hpp"
#include "model/SolverMethods.hpp"

namespace flexarm::edits {
namespace {

QString q(const std::string& s) { return QString::fromStdString(s); }
QString at(int i) { return QString("constraints[%1]").arg(i); }

std::string nameOf(const Json& entry) {
  const auto it = entry.find("name");
  return it != entry.end() && it->is_string() ? it->get<std::string>() : std::string();
}

bool validConstraint(const Json& doc, int i, QString* error) {
  if (doc.contains("constraints") && doc["constraints"].is_array() && i >= 0 && i < static_cast<int>(doc["constraints"].size()))
    return true;
  if (error) *error = at(i) + ": there is no such constraint";
  return false;
}

QString number(double x) { return QString::fromStdString(formatNumber(x)); }

// Where the point of the link starts (in the world), as a JSON array; round-off of the placement
// rotations (1e-17) is shown as 0.
Json initialPosition(const ProjectDocument& d, int link, const Eigen::Vector3d& point) {
  const MultibodySystem& sys = *d.system();
  Eigen::VectorXd q0, qd0;
  sys.initialState(d.project()->model, q0, qd0);
  Eigen::Vector3d p = LinkPoint(sys, link, point).position(q0);
  for (int a = 0; a < 3; ++a)
    if (std::abs(p(a)) < 1e-12) p(a) = 0.0;
  return Json::array({p.x(), p.y(), p.z()});
}

// The default body of a constraint of `type` in the document's project (name and type excluded).
Json defaults(const ProjectDocument& d, const std::string& type) {
  const Model& m = d.project()->model;
  const int n = static_cast<int>(m.links.size());
  if (type == "coordinates") {
    const Joint& j = m.joints.back();
    Json value = defaultLaw("constant");
    value["value"] = j.q0;
    return {{"terms", {{names::jointCoordinate(j.name), 1.0}}}, {"value", value}};
  }
  if (type == "point" || type == "revolute" || type == "prismatic") {
    // The last link's tip, held where it starts; a pin about the link's joint axis, a slider along the link.
    const int link = n - 1;
    const Link& l = m.links[static_cast<std::size_t>(link)];
    Json c = {{"link", l.name},
              {"point", Json::array({l.length, 0.0, 0.0})},
              {"world", initialPosition(d, link, {l.length, 0.0, 0.0})}};
    if (type == "point") {
      c["axes"] = schema::key("constraints[].axes").fallback;
    } else {
      const Eigen::Vector3d a = type == "revolute" ? m.joints[static_cast<std::size_t>(link)].axis : Eigen::Vector3d::UnitX();
      c["axis"] = Json::array({a.x(), a.y(), a.z()});
    }
    return c;
  }
  // sliding_support: a flexible link on a prismatic joint along +-x, else the first flexible link.
  int link = -1;
  for (int i = 0; i < n && link < 0; ++i) {
    const Joint& j = m.joints[static_cast<std::size_t>(i)];
    if (m.links[static_cast<std::size_t>(i)].flex && j.type == JointType::Prismatic &&
        std::abs(std::abs(j.axis.normalized().x()) - 1.0) < 1e-9)
      link = i;
  }
  for (int i = 0; i < n && link < 0; ++i)
    if (m.links[static_cast<std::size_t>(i)].flex) link = i;
  if (link < 0) link = n - 1;
  const Link& l = m.links[static_cast<std::size_t>(link)];
  const Joint& j = m.joints[static_cast<std::size_t>(link)];
  const double sigma = j.axis.x() < 0 ? -1.0 : 1.0;  // material point x = sigma (position - q)
  return {{"link", l.name},
          {"position", j.q0 + sigma * 0.5 * l.length},
          {"clamp_slope", schema::key("constraints[].clamp_slope").fallback}};
}

// The solver switch that a constrained model needs, in the document; "" when none was needed.
QString switchToConstrainedSolver(Json& doc) {
  if (!doc.contains("simulation") || !doc["simulation"].is_object()) doc["simulation"] = Json::object();
  Json& sim = doc["simulation"];
  if (!sim.contains("solver") || !sim["solver"].is_object()) sim["solver"] = Json::object();
  Json& solver = sim["solver"];
  const std::string method = solver.contains("method") && solver["method"].is_string()
                                 ? solver["method"].get<std::string>()
                                 : methodName(schema::simulationDefaults().method);
  for (const SolverMethodInfo& m : solverMethods())  // a method that integrates constraints stays
    if (m.constraints && method == m.name) return {};
  solver["method"] = "auto";
  return QString(" and switch the solver from %1 to auto (constraints need Lagrange multipliers)").arg(q(method));
}

}  // namespace

bool addConstraint(ProjectDocument& d, QString* error) {
  const Project* p = d.project();
  if (!p) {
    if (error) *error = "constraints: the chain is empty: add a link first";
    return false;
  }
  Json doc = d.json();
  if (!doc.contains("constraints") || !doc["constraints"].is_array()) doc["constraints"] = Json::array();
  std::set<std::string> used;
  for (const Constraint& c : p->model.constraints) used.insert(c.name);
  std::string name;
  for (std::size_t k = doc["constraints"].size() + 1; name.empty() || used.count(name); ++k)
    name = "constraint" + std::to_string(k);
  Json c = {{"name", name}, {"type", "coordinates"}};
  c.update(defaults(d, "coordinates"));
  doc["constraints"].push_back(c);
  const Joint& j = p->model.joints.back();
  const QString held = QString("holding q.%1 at %2 %3").arg(q(j.name), number(j.q0), j.type == JointType::Revolute ? "rad" : "m");
  const QString solver = switchToConstrainedSolver(doc);
  return d.apply("Add constraint " + q(name) + " " + held + solver, doc, error,
                 at(static_cast<int>(doc["constraints"].size()) - 1));
}

bool deleteConstraint(ProjectDocument& d, int index, QString* error) {
  Json doc = d.json();
  if (!validConstraint(doc, index, error)) return false;
  const Project* p = d.project();
  const std::string name = p && index < static_cast<int>(p->model.constraints.size())
                               ? p->model.constraints[static_cast<std::size_t>(index)].name
                               : nameOf(doc["constraints"][index]);
  doc["constraints"].erase(doc["constraints"].begin() + index);
  if (doc["constraints"].empty()) doc.erase("constraints");
  return d.apply("Delete constraint " + q(name), doc, error);
}

bool setConstraintType(ProjectDocument& d, int index, const std::string& type, QString* error) {
  Json doc = d.json();
  if (!validConstraint(doc, index, error)) return false;
  const Project* p = d.project();
  if (!p) return false;
  QStringList types;
  for (const std::string& t : schema::key("constraints[].type").choices) types << q(t);
  if (!types.contains(q(type))) {
    if (error) *error = at(index) + ".type: unknown value \"" + q(type) + "\" (expected one of: " + types.join(", ") + ")";
    return false;
  }
  Json& c = doc["constraints"][index];
  if (c.value("type", std::string()) == type) return true;
  Json fresh = Json::object();
  if (c.contains("name")) fresh["name"] = c["name"];
  fresh["type"] = type;
  fresh.update(defaults(d, type));
  c = fresh;
  const QString path = at(index) + ".type";
  return d.apply("Set " + pathWords(d.json(), path) + " to " + q(type), doc, error, at(index));
}

bool setConstraintCounterpart(ProjectDocument& d, int index, const std::string& other, QString* error) {
  Json doc = d.json();
  if (!validConstraint(doc, index, error)) return false;
  const Project* p = d.project();
  if (!p || index >= static_cast<int>(p->model.constraints.size())) return false;
  const Constraint& k = p->model.constraints[static_cast<std::size_t>(index)];
  Json& c = doc["constraints"][index];
  const QString path = at(index) + ".other_link";
  const Model& m = p->model;
  if (other == kWorld) {
    if (k.other_link < 0) return true;
    c.erase("other_link");
    c.erase("other_point");
    c["world"] = initialPosition(d, k.link, k.point);
    return d.apply("Hold " + pathWords(d.json(), at(index)) + " to the world", doc, error, path);
  }
  const int o = m.linkIndex(other);
  if (o < 0) {
    if (error) *error = path + ": no link is named \"" + q(other) + "\"";
    return false;
  }
  if (o == k.other_link) return true;
  // The other link's point where the link's point starts: in its body frame (rigid), or its nearest
  // section (flexible, undeformed).
  const MultibodySystem& sys = *d.system();
  Eigen::VectorXd q0, qd0;
  sys.initialState(m, q0, qd0);
  const Eigen::Vector3d start = LinkPoint(sys, k.link, k.point).position(q0);
  Eigen::Vector3d local = LinkPoint(sys, o, Eigen::Vector3d::Zero()).frame(q0).inverse() * start;
  const Link& ol = m.links[static_cast<std::size_t>(o)];
  if (ol.flex) local = Eigen::Vector3d(std::clamp(local.x(), 0.0, ol.length), 0.0, 0.0);
  for (int a = 0; a < 3; ++a)
    if (std::abs(local(a)) < 1e-12) local(a) = 0.0;
  c.erase("world");
  c["other_link"] = other;
  c["other_point"] = Json::array({local.x(), local.y(), local.z()});
  return d.apply("Join " + pathWords(d.json(), at(index)) + " to link " + q(other), doc, error, path);
}

bool setConstraintTerms(ProjectDocument& d, int index, const QString& text, QString* error) {
  Json doc = d.json();
  if (!validConstraint(doc, index, error)) return false;
  const QString path = at(index) + ".terms";
  Json terms = Json::object();
  for (const QString& part : text.split(',', Qt::SkipEmptyParts)) {
    const QString t = part.trimmed();
    const QRegularExpressionMatch m = QRegularExpression("^([^=\\s]+)\\s*=\\s*(\\S+)$").match(t);
    bool ok = false;
    const double coef = m.hasMatch() ? QLocale::c().toDouble(m.captured(2), &ok) : 0.0;
    if (!m.hasMatch() || !ok || !std::isfinite(coef)) {
      if (error) *error = path + ": expected coordinate = coefficient (e.g. q.shoulder = 1), got \"" + t + "\"";
      return false;
    }
    const std::string name = m.captured(1).toStdString();
    if (terms.contains(name)) {
      if (error) *error = path + ": " + m.captured(1) + " is given twice";
      return false;
    }
    terms[name] = coef;
  }
  doc["constraints"][index]["terms"] = terms;
  return d.apply("Set " + pathWords(d.json(), path) + " to " + termsText(terms), doc, error, path);
}

QString termsText(const Json& terms) {
  QStringList parts;
  if (terms.is_object())
    for (auto it = terms.begin(); it != terms.end(); ++it)
      parts << q(it.key()) + " = " + (it->is_number() ? number(it->get<double>()) : q(it->dump()));
  return parts.join(", ");
}

QStringList coordinateNames(const ProjectDocument& d) {
  QStringList out;
  const Project* p = d.project();
  if (!p) return out;
  for (const Body& b : d.system()->bodies) {
    out << q(names::jointCoordinate(b.joint_name));
    if (b.motor_index >= 0) out << q(names::motorCoordinate(b.joint_name));
    if (b.e_count > 0) out << q(names::elasticCoordinate(b.name, 1)) + " .. " + q(names::elasticCoordinate(b.name, b.e_count));
  }
  return out;
}

QString termsUnit(const ProjectDocument& d, const Json& terms) {
  const Project* p = d.project();
  if (!p || !terms.is_object()) return {};
  std::set<QString> units;
  for (auto it = terms.begin(); it != terms.end(); ++it) {
    const std::string& k = it.key();
    QString unit = "-";
    const std::optional<names::CoordinateName> c = names::parseCoordinate(k);
    for (const Joint& j : p->model.joints)
      if (c && c->kind != names::CoordinateName::Kind::Elastic && c->owner == j.name)
        unit = j.type == JointType::Revolute ? "rad" : "m";
    units.insert(unit);
  }
  if (units.size() == 1) return *units.begin();
  if (units.count("rad") && units.count("m")) return "rad or m";
  return units.count("rad") ? "rad" : units.count("m") ? "m" : "-";
}

}  // namespace flexarm::edits
