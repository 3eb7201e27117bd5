#include "ui/document/ConstraintEdits.hpp"

#include <QLocale>
#include <QRegularExpression>
#include <cmath>
#include <set>

#include "dynamics/DynamicsData.hpp"
#include "ui/document/PathWords.hpp"
#include "dynamics/Kinematics.hpp"
#include "dynamics/MultibodySystem.hpp"
#include "io/JsonReader.hpp"
#include "io/ProjectSchema.hpp"
#include "ui/document/ModelEdits.hpp"
#include "model/Names.hpp"

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
  if (type == "point") {
    int link = 0;  // the last link of the rigid chain from the base (the loader explains when there is none)
    while (link + 1 < n && !m.links[static_cast<std::size_t>(link)].flex && !m.links[static_cast<std::size_t>(link + 1)].flex)
      ++link;
    const Link& l = m.links[static_cast<std::size_t>(link)];
    Eigen::Vector3d world = Eigen::Vector3d::Zero();
    if (!l.flex) {  // where the distal end starts
      const MultibodySystem& sys = *d.system();
      DynamicsData data(sys);
      Eigen::VectorXd q0, qd0;
      sys.initialState(m, q0, qd0);
      forwardKinematics(sys, data, q0);
      world = distalFrame(sys, data, link).translation();
      for (int a = 0; a < 3; ++a)  // round-off of the placement rotations (1e-17) would read badly
        if (std::abs(world(a)) < 1e-12) world(a) = 0.0;
    }
    return {{"link", l.name},
            {"point", Json::array({l.length, 0.0, 0.0})},
            {"world", Json::array({world.x(), world.y(), world.z()})},
            {"axes", schema::key("constraints[].axes").fallback}};
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
  if (method == "ida" || method == "newmark" || method == "auto") return {};
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
  if (type != "coordinates" && type != "point" && type != "sliding_support") {
    if (error)
      *error = at(index) + ".type: unknown value \"" + q(type) + "\" (expected one of: coordinates, point, sliding_support)";
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
