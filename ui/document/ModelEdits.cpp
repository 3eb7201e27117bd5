#include "ui/document/ModelEdits.hpp"

#include <QFileInfo>
#include <QStringList>
#include <functional>
#include <set>

#include "io/ProjectSchema.hpp"
#include "ui/document/PathWords.hpp"
#include "io/TableFile.hpp"
#include "model/Names.hpp"

namespace flexarm::edits {
namespace {

QString q(const std::string& s) { return QString::fromStdString(s); }

std::string nameOf(const Json& entry) {
  const auto it = entry.find("name");
  return it != entry.end() && it->is_string() ? it->get<std::string>() : std::string();
}

Json& arrayOf(Json& doc, const char* key) {
  if (!doc.contains(key) || !doc[key].is_array()) doc[key] = Json::array();
  return doc[key];
}

// The document with an explicit name on every link, joint, payload and constraint: the default
// names follow the index, and structure edits must not rename anything by moving it.
Json withNames(const ProjectDocument& d) {
  Json doc = d.json();
  const Project* p = d.project();
  if (!p) return doc;
  auto fill = [&doc](const char* key, auto names) {
    if (!doc.contains(key) || !doc[key].is_array()) return;
    Json& arr = doc[key];
    for (std::size_t i = 0; i < arr.size() && i < names.size(); ++i)
      if (arr[i].is_object() && !arr[i].contains("name")) arr[i]["name"] = names[i];
  };
  auto names = [](const auto& items) {
    std::vector<std::string> out;
    for (const auto& it : items) out.push_back(it.name);
    return out;
  };
  fill("links", names(p->model.links));
  fill("joints", names(p->model.joints));
  fill("payloads", names(p->model.payloads));
  fill("loads", names(p->model.loads));
  fill("constraints", names(p->model.constraints));
  return doc;
}

std::string uniqueName(const Json& doc, const char* array, const std::string& prefix) {
  std::set<std::string> used;
  if (doc.contains(array))
    for (const Json& e : doc[array]) used.insert(nameOf(e));
  for (std::size_t n = (doc.contains(array) ? doc[array].size() : 0) + 1;; ++n) {
    const std::string name = prefix + std::to_string(n);
    if (!used.count(name)) return name;
  }
}

// Variants and study grids name values by index ("links[1].flex"): keep them on the same entries
// when entries of `array` move. map: old index -> new index, -1 when the entry is gone (key dropped).
void remapPaths(Json& doc, const std::string& array, const std::function<int(int)>& map) {
  const std::string prefix = array + "[";
  auto remap = [&](Json& obj) {
    if (!obj.is_object()) return;
    Json out = Json::object();
    for (auto it = obj.begin(); it != obj.end(); ++it) {
      const std::string& key = it.key();
      const std::size_t close = key.find(']');
      if (key.rfind(prefix, 0) == 0 && close != std::string::npos && close > prefix.size() &&
          key.find_first_not_of("0123456789", prefix.size()) == close) {
        const int to = map(std::stoi(key.substr(prefix.size(), close - prefix.size())));
        if (to >= 0) out[prefix + std::to_string(to) + key.substr(close)] = it.value();
      } else {
        out[key] = it.value();
      }
    }
    obj = std::move(out);
  };
  if (doc.contains("variants") && doc["variants"].is_array())
    for (Json& v : doc["variants"])
      if (v.is_object() && v.contains("set")) remap(v["set"]);
  if (doc.contains("study") && doc["study"].is_object() && doc["study"].contains("grid")) remap(doc["study"]["grid"]);
}

// Erases the entries of doc[array] for which drop(index, entry) holds; returns their names.
QStringList eraseWhere(Json& doc, const char* array, const std::function<bool(int, const Json&)>& drop) {
  QStringList names;
  if (!doc.contains(array) || !doc[array].is_array()) return names;
  Json kept = Json::array();
  std::vector<int> to;
  for (std::size_t i = 0; i < doc[array].size(); ++i) {
    const Json& e = doc[array][i];
    if (drop(static_cast<int>(i), e)) {
      names << q(nameOf(e));
      to.push_back(-1);
    } else {
      to.push_back(static_cast<int>(kept.size()));
      kept.push_back(e);
    }
  }
  doc[array] = std::move(kept);
  remapPaths(doc, array, [&](int i) { return i < static_cast<int>(to.size()) ? to[static_cast<std::size_t>(i)] : i; });
  return names;
}

bool refersTo(const Json& constraint, const std::string& link, const std::string& joint) {
  if (constraint.value("link", std::string()) == link) return true;
  const auto terms = constraint.find("terms");
  if (terms == constraint.end() || !terms->is_object()) return false;
  for (auto it = terms->begin(); it != terms->end(); ++it) {
    const std::string& k = it.key();
    if (names::namesCoordinateOf(k, joint, link)) return true;
  }
  return false;
}

// Renames the coordinates of a joint (joint == true) or a link in coordinate constraints' terms.
void renameTerms(Json& doc, bool joint, const std::string& from, const std::string& to) {
  if (!doc.contains("constraints")) return;
  for (Json& c : doc["constraints"]) {
    if (!c.is_object() || !c.contains("terms") || !c["terms"].is_object()) continue;
    Json out = Json::object();
    for (auto it = c["terms"].begin(); it != c["terms"].end(); ++it) {
      out[names::renameOwner(it.key(), joint, from, to)] = it.value();
    }
    c["terms"] = std::move(out);
  }
}

bool validIndex(const Json& doc, const char* array, int i, QString* error) {
  if (doc.contains(array) && doc[array].is_array() && i >= 0 && i < static_cast<int>(doc[array].size())) return true;
  if (error) *error = QString("%1[%2]: there is no such entry").arg(array).arg(i);
  return false;
}

QString at(const char* array, int i) { return QString("%1[%2]").arg(array).arg(i); }

// The interpreted flexible link `index`; nullptr (and why) when there is none.
const FlexibleLink* flexibleLink(const ProjectDocument& d, int index, QString* error) {
  const Project* p = d.project();
  if (p && index >= 0 && index < static_cast<int>(p->model.links.size()) && p->model.links[static_cast<std::size_t>(index)].flex)
    return &*p->model.links[static_cast<std::size_t>(index)].flex;
  if (error) *error = at("links", index) + ": not a flexible link";
  return nullptr;
}

}  // namespace

Json defaultLaw(const std::string& law) { return schema::newLaw(law); }

const std::vector<std::string>& lawNames() {
  static const std::vector<std::string> names = schema::lawMenuNames();
  return names;
}

std::vector<LawParam> lawParams(const std::string& law) {
  std::vector<LawParam> out;
  if (const schema::LawSpec* spec = schema::findLaw(law))
    for (const schema::LawParameter& p : spec->parameters)
      out.push_back({p.key, p.unit, p.list != nullptr, p.need == Need::Optional});
  return out;
}

namespace {
// In a tree (a joint names its parent link), the link commands keep every joint on the link it sits on:
// pinTree() names each joint's parent before the lists change, unpinTree() leaves out the names that
// are the default again (the previous link; the world for the first joint). A chain is left as it is:
// there, moving or inserting a link re-chains the links in their new order. Returns whether it pinned.
bool pinTree(Json& doc) {
  if (!doc.contains("joints") || !doc["joints"].is_array()) return false;
  bool tree = false;
  for (const Json& j : doc["joints"]) tree = tree || (j.is_object() && j.contains("parent"));
  if (!tree) return false;
  Json& joints = doc["joints"];
  for (std::size_t i = 0; i < joints.size() && i <= doc["links"].size(); ++i)
    if (joints[i].is_object() && !joints[i].contains("parent"))
      joints[i]["parent"] = i == 0 ? std::string("world") : nameOf(doc["links"][i - 1]);
  return true;
}
void unpinTree(Json& doc) {
  Json& joints = doc["joints"];
  for (std::size_t i = 0; i < joints.size() && i <= doc["links"].size(); ++i) {
    if (!joints[i].is_object() || !joints[i].contains("parent") || !joints[i]["parent"].is_string()) continue;
    const std::string fallback = i == 0 ? std::string("world") : nameOf(doc["links"][i - 1]);
    if (joints[i]["parent"].get<std::string>() == fallback) joints[i].erase("parent");
  }
}

// A new link and its joint: unique names, and what the schema gives new ones.
std::pair<Json, Json> newLinkAndJoint(const Json& doc) {
  Json link = {{"name", uniqueName(doc, "links", "link")}}, joint = {{"name", uniqueName(doc, "joints", "joint")}};
  link.update(schema::newObject("links[]"));
  joint.update(schema::newObject("joints[]"));
  return {link, joint};
}
}  // namespace

bool addLink(ProjectDocument& d, int index, QString* error) {
  Json doc = withNames(d);
  Json& links = arrayOf(doc, "links");
  Json& joints = arrayOf(doc, "joints");
  const int n = static_cast<int>(links.size());
  if (index < 0 || index > n) index = n;
  auto [link, joint] = newLinkAndJoint(doc);
  const std::string ln = nameOf(link), jn = nameOf(joint);
  const bool tree = pinTree(doc);  // the new joint sits on the link before it
  links.insert(links.begin() + index, link);
  joints.insert(joints.begin() + index, joint);
  if (tree) unpinTree(doc);
  for (const char* a : {"links", "joints"}) remapPaths(doc, a, [index](int i) { return i >= index ? i + 1 : i; });
  const QString what = "link " + q(ln) + " with joint " + q(jn);
  return d.apply(index == n ? "Add " + what : QString("Insert %1 at position %2").arg(what).arg(index + 1), doc, error);
}

bool addBranchLink(ProjectDocument& d, int parent, QString* error) {
  Json doc = withNames(d);
  if (!validIndex(doc, "links", parent, error)) return false;
  Json& links = arrayOf(doc, "links");
  Json& joints = arrayOf(doc, "joints");
  const int n = static_cast<int>(links.size());
  auto [link, joint] = newLinkAndJoint(doc);
  const std::string ln = nameOf(link), jn = nameOf(joint);
  const std::string on = nameOf(links[static_cast<std::size_t>(parent)]);
  if (parent != n - 1) joint["parent"] = on;  // the last link is the new one's default parent
  links.push_back(link);
  joints.push_back(joint);
  return d.apply("Add link " + q(ln) + " with joint " + q(jn) + " on link " + q(on), doc, error);
}

bool duplicateLink(ProjectDocument& d, int index, QString* error) {
  Json doc = withNames(d);
  if (!validIndex(doc, "links", index, error)) return false;
  const bool tree = pinTree(doc);  // in a tree the copy is a sibling: its joint on the original's parent
  Json link = doc["links"][index], joint = doc["joints"][index];
  const std::string from = nameOf(link);
  link["name"] = uniqueName(doc, "links", "link");
  joint["name"] = uniqueName(doc, "joints", "joint");
  doc["links"].insert(doc["links"].begin() + index + 1, link);
  doc["joints"].insert(doc["joints"].begin() + index + 1, joint);
  for (const char* a : {"links", "joints"}) remapPaths(doc, a, [index](int i) { return i > index ? i + 1 : i; });
  if (tree) unpinTree(doc);
  // What is carried by the link goes with the copy: its payloads and loads, renamed.
  QString text = "Duplicate link " + q(from) + " as " + q(nameOf(link)) + " with joint " + q(nameOf(joint));
  for (const auto& [array, kind] : {std::pair<const char*, const char*>{"payloads", "payload"}, {"loads", "load"}}) {
    if (!doc.contains(array) || !doc[array].is_array()) continue;
    QStringList copied;
    const Json originals = doc[array];
    for (const Json& p : originals)
      if (p.is_object() && p.value("link", std::string()) == from) {
        Json copy = p;
        copy["link"] = nameOf(link);
        copy["name"] = uniqueName(doc, array, kind);
        copied << q(nameOf(copy));
        doc[array].push_back(copy);
      }
    if (!copied.isEmpty()) text += QString(" and %1 ").arg(kind) + copied.join(", ");
  }
  return d.apply(text, doc, error);
}

bool deleteLink(ProjectDocument& d, int index, QString* error) {
  Json doc = withNames(d);
  if (!validIndex(doc, "links", index, error) || !validIndex(doc, "joints", index, error)) return false;
  const std::string ln = nameOf(doc["links"][index]), jn = nameOf(doc["joints"][index]);
  const bool tree = pinTree(doc);  // a joint on the deleted link is refused by the loader, naming it
  auto isIt = [index](int i, const Json&) { return i == index; };
  eraseWhere(doc, "links", isIt);
  eraseWhere(doc, "joints", isIt);
  if (tree) unpinTree(doc);
  const auto onTheLink = [&](int, const Json& p) { return p.value("link", std::string()) == ln; };
  const QStringList payloads = eraseWhere(doc, "payloads", onTheLink);
  const QStringList loads = eraseWhere(doc, "loads", onTheLink);
  const QStringList constraints = eraseWhere(doc, "constraints", [&](int, const Json& c) { return refersTo(c, ln, jn); });
  QString text = "Delete link " + q(ln) + " and joint " + q(jn);
  if (!payloads.isEmpty()) text += ", payload " + payloads.join(", ");
  if (!loads.isEmpty()) text += ", load " + loads.join(", ");
  if (!constraints.isEmpty()) text += ", constraint " + constraints.join(", ");
  return d.apply(text, doc, error);
}

bool moveLink(ProjectDocument& d, int index, int delta, QString* error) {
  Json doc = withNames(d);
  const int to = index + delta;
  if (!validIndex(doc, "links", index, error) || !validIndex(doc, "links", to, error)) return false;
  const Json link = doc["links"][index], joint = doc["joints"][index];
  const bool tree = pinTree(doc);  // a move that puts a link before its parent is refused by the loader
  for (const char* a : {"links", "joints"}) {
    Json& arr = doc[a];
    const Json moved = arr[index];
    arr.erase(arr.begin() + index);
    arr.insert(arr.begin() + to, moved);
    remapPaths(doc, a, [index, to](int i) {
      if (i == index) return to;
      if (index < to && i > index && i <= to) return i - 1;
      if (to < index && i >= to && i < index) return i + 1;
      return i;
    });
  }
  if (tree) unpinTree(doc);
  return d.apply(QString("Move link %1 with joint %2 %3 to position %4")
                     .arg(q(nameOf(link)), q(nameOf(joint)), delta < 0 ? "up" : "down")
                     .arg(to + 1),
                 doc, error);
}

bool addPayload(ProjectDocument& d, int link, QString* error) {
  Json doc = withNames(d);
  if (!validIndex(doc, "links", link, error)) return false;
  const std::string name = uniqueName(doc, "payloads", "payload");
  Json payload = {{"name", name}, {"link", nameOf(doc["links"][link])}};
  payload.update(schema::newObject("payloads[]"));
  arrayOf(doc, "payloads").push_back(payload);
  return d.apply("Add payload " + q(name) + " on link " + q(nameOf(doc["links"][link])), doc, error);
}

bool deletePayload(ProjectDocument& d, int index, QString* error) {
  Json doc = withNames(d);
  if (!validIndex(doc, "payloads", index, error)) return false;
  const QStringList gone = eraseWhere(doc, "payloads", [index](int i, const Json&) { return i == index; });
  return d.apply("Delete payload " + gone.join(""), doc, error);
}

bool addLoad(ProjectDocument& d, int link, QString* error) {
  Json doc = withNames(d);
  if (!validIndex(doc, "links", link, error)) return false;
  const std::string name = uniqueName(doc, "loads", "load");
  // Copies, not references: adding "loads" to the document may move its other members.
  const Json l = doc["links"][link];
  const double length = l.contains("length") && l["length"].is_number() ? l["length"].get<double>() : 0.0;
  Json load = {{"name", name}, {"link", nameOf(l)}};
  load.update(schema::newObject("loads[]"));
  load["point"] = Json::array({length, 0.0, 0.0});  // at the link's tip
  arrayOf(doc, "loads").push_back(load);
  return d.apply("Add load " + q(name) + " at the tip of link " + q(nameOf(l)), doc, error);
}

bool deleteLoad(ProjectDocument& d, int index, QString* error) {
  Json doc = withNames(d);
  if (!validIndex(doc, "loads", index, error)) return false;
  const QStringList gone = eraseWhere(doc, "loads", [index](int i, const Json&) { return i == index; });
  return d.apply("Delete load " + gone.join(""), doc, error);
}

bool rename(ProjectDocument& d, const ModelItem& item, const QString& name, QString* error) {
  Json doc = withNames(d);
  const std::string to = name.toStdString();
  if (item.kind == ModelItem::Kind::Project) {
    doc["name"] = to;
    return d.apply("Rename the project to " + name, doc, error, "name");
  }
  const char* array = item.kind == ModelItem::Kind::Link      ? "links"
                      : item.kind == ModelItem::Kind::Joint   ? "joints"
                      : item.kind == ModelItem::Kind::Payload ? "payloads"
                      : item.kind == ModelItem::Kind::Load    ? "loads"
                                                              : "constraints";
  if (!validIndex(doc, array, item.index, error)) return false;
  const std::string from = nameOf(doc[array][item.index]);
  doc[array][item.index]["name"] = to;
  if (item.kind == ModelItem::Kind::Link) {
    for (const char* refs : {"payloads", "loads", "constraints"})
      if (doc.contains(refs))
        for (Json& e : doc[refs])
          if (e.is_object() && e.value("link", std::string()) == from) e["link"] = to;
    renameTerms(doc, false, from, to);
  } else if (item.kind == ModelItem::Kind::Joint) {
    renameTerms(doc, true, from, to);
  }
  QString kind = QString(array).chopped(1);
  return d.apply("Rename " + kind + " " + q(from) + " to " + name, doc, error, at(array, item.index) + ".name");
}

bool setLinkFlexible(ProjectDocument& d, int index, bool flexible, QString* error) {
  Json doc = withNames(d);
  if (!validIndex(doc, "links", index, error)) return false;
  Json& link = doc["links"][index];
  if (flexible == link.contains("flex")) return true;
  if (flexible) {
    for (const char* k : {"mass", "shape", "com", "inertia"}) link.erase(k);
    link["flex"] = schema::newFlexibleLink();
  } else {
    const double mass = d.project() ? d.project()->model.links[static_cast<std::size_t>(index)].mass : 1.0;
    link.erase("flex");
    link["mass"] = mass;  // the beam's own rho A L
    link["shape"] = schema::key("links[].shape").initial;
  }
  return d.apply(QString("Make link %1 %2").arg(q(nameOf(link)), flexible ? "flexible" : "rigid"), doc, error,
                 at("links", index));
}

bool setJointFlexible(ProjectDocument& d, int index, bool flexible, QString* error) {
  Json doc = withNames(d);
  if (!validIndex(doc, "joints", index, error)) return false;
  Json& joint = doc["joints"][index];
  if (flexible == joint.contains("flex")) return true;
  if (flexible)
    joint["flex"] = schema::newObject("joints[].flex");
  else
    joint.erase("flex");
  return d.apply(QString("Make joint %1 %2").arg(q(nameOf(joint)), flexible ? "flexible" : "rigid"), doc, error,
                 at("joints", index));
}

bool setSectionPreset(ProjectDocument& d, int index, const std::string& preset, QString* error) {
  Json doc = d.json();
  const FlexibleLink* flex = flexibleLink(d, index, error);
  if (!flex) return false;
  Json& section = doc["links"][index]["flex"]["section"];
  if (preset.empty()) {
    section = Json::object();
    for (const schema::Field<BeamSection>& f : schema::sectionProperties()) section[f.key->name()] = flex->section.*f.field;
  } else {
    section = schema::newSection(preset);
  }
  const QString path = at("links", index) + ".flex.section";
  return d.apply(
      "Set " + pathWords(d.json(), path) + (preset.empty() ? QString(" to explicit A, Iy, Iz, J") : " to preset " + q(preset)),
      doc, error, path);
}

bool setMaterialPreset(ProjectDocument& d, int index, const std::string& preset, QString* error) {
  Json doc = d.json();
  const FlexibleLink* flex = flexibleLink(d, index, error);
  if (!flex) return false;
  Json& material = doc["links"][index]["flex"]["material"];
  if (preset.empty()) {
    material = Json::object();
    for (const schema::Field<Material>& f : schema::materialProperties()) material[f.key->name()] = flex->material.*f.field;
  } else {
    material = {{schema::key("links[].flex.material.preset").name(), preset}};
  }
  const QString path = at("links", index) + ".flex.material";
  return d.apply(
      "Set " + pathWords(d.json(), path) + (preset.empty() ? QString(" to explicit E, G, rho") : " to preset " + q(preset)), doc,
      error, path);
}

bool setBasis(ProjectDocument& d, int index, const std::string& basis, QString* error) {
  Json doc = d.json();
  if (!flexibleLink(d, index, error)) return false;
  Json& flex = doc["links"][index]["flex"];
  if (flex.value("basis", std::string()) == basis) return true;
  flex.erase("e0");  // its count follows from the basis
  if (basis == "modes") {
    for (const char* k : {"elements", "layout", "nodes", "reduce_to", "root"}) flex.erase(k);
    flex["modes"] = schema::newObject("links[].flex.modes");
  } else {
    flex.erase("modes");
    for (const char* key : {"elements", "layout"}) flex[key] = schema::key(std::string("links[].flex.") + key).initial;
  }
  flex["basis"] = basis;
  const QString path = at("links", index) + ".flex.basis";
  return d.apply("Set " + pathWords(d.json(), path) + " to " + q(basis), doc, error, path);
}

bool setShape(ProjectDocument& d, int index, const std::string& shape, QString* error) {
  Json doc = d.json();
  if (!validIndex(doc, "links", index, error) || doc["links"][index].contains("flex")) {
    if (error) *error = at("links", index) + ": not a rigid link";
    return false;
  }
  Json& link = doc["links"][index];
  if (shape.empty()) {
    const Project* p = d.project();
    if (!p) return false;
    const RigidInertia ri = p->model.links[static_cast<std::size_t>(index)].rigidInertia();
    const Eigen::Matrix3d& I = ri.inertia_com;
    link.erase("shape");
    link["com"] = Json::array({ri.com.x(), ri.com.y(), ri.com.z()});
    link["inertia"] = Json::array({I(0, 0), I(1, 1), I(2, 2), I(0, 1), I(0, 2), I(1, 2)});
  } else {
    link.erase("com");
    link.erase("inertia");
    link["shape"] = schema::newShape(shape);
  }
  const QString path = at("links", index) + ".shape";
  return d.apply(
      "Set " + pathWords(d.json(), path) + " to " + (shape.empty() ? QString("explicit centre of mass and inertia") : q(shape)),
      doc, error, path);
}

QString lawPath(const ProjectDocument& d, int joint) {
  const Json* drive = d.value(at("joints", joint) + ".drive");
  if (!drive || !drive->is_object()) return {};
  const std::string type = drive->value("type", std::string("free"));
  if (type == "pd") return at("joints", joint) + ".drive.setpoint";
  if (type == "effort" || type == "prescribed") return at("joints", joint) + ".drive";
  return {};
}

bool setDriveType(ProjectDocument& d, int index, const std::string& type, QString* error) {
  Json doc = d.json();
  if (!validIndex(doc, "joints", index, error)) return false;
  Json& joint = doc["joints"][index];
  if (type == "free") {
    joint["drive"] = {{"type", type}};
  } else if (type == "pd") {
    Json drive = {{"type", type}};
    drive.update(schema::newObject("joints[].drive"));  // kp, kd
    drive["setpoint"] = defaultLaw("constant");
    joint["drive"] = drive;
  } else {
    Json drive = defaultLaw("constant");
    drive["type"] = type;
    joint["drive"] = drive;
  }
  const QString path = at("joints", index) + ".drive.type";
  return d.apply("Set " + pathWords(d.json(), path) + " to " + q(type), doc, error, path);
}

bool setLaw(ProjectDocument& d, int index, const std::string& law, QString* error) {
  const QString path = lawPath(d, index);
  if (path.isEmpty()) {
    if (error) *error = at("joints", index) + ".drive: a free drive has no law";
    return false;
  }
  return setLawAt(d, path, law, error);
}

bool setLawAt(ProjectDocument& d, const QString& path, const std::string& law, QString* error) {
  Json doc = d.json();
  const Json::json_pointer p = ProjectDocument::pointer(path);
  if (!doc.contains(p) || !doc[p].is_object()) {
    if (error) *error = path + ": there is no time law here";
    return false;
  }
  Json& obj = doc[p];
  Json fresh = defaultLaw(law);
  if (obj.contains("type")) fresh["type"] = obj["type"];  // the drive's own key (a set-point has none)
  obj = fresh;
  return d.apply("Set " + pathWords(d.json(), path + ".law") + " to " + q(law), doc, error, path + ".law");
}

namespace {
// The table law at `path` in doc (nullptr, with the reason, when there is none).
Json* tableLaw(Json& doc, const QString& path, QString* error) {
  Json* law = nullptr;
  try {
    law = &doc.at(ProjectDocument::pointer(path));
  } catch (const std::exception&) {
  }
  if (!law || !law->is_object() || law->value("law", std::string()) != "table") {
    if (error) *error = path + ": there is no table law here";
    return nullptr;
  }
  return law;
}
}  // namespace

bool setListOrDefault(ProjectDocument& d, const QString& path, const Json& list, bool zero_is_default,
                      const QStringList& excludes, QString* error) {
  Json doc = d.json();
  const Json::json_pointer p = ProjectDocument::pointer(path);
  Json* parent = nullptr;
  try {
    parent = &doc.at(p.parent_pointer());
  } catch (const std::exception&) {
  }
  if (!parent || !parent->is_object()) {
    if (error) *error = path + ": no such place in the project";
    return false;
  }
  bool is_default = !list.is_array() || list.empty();
  if (zero_is_default && !is_default) {
    is_default = true;
    for (const Json& x : list) is_default = is_default && x.is_number() && x.get<double>() == 0.0;
  }
  QStringList removed;
  for (const QString& key : excludes)
    if (parent->contains(key.toStdString())) {
      parent->erase(key.toStdString());
      removed << key;
    }
  QString text;
  if (is_default) {
    parent->erase(p.back());
    text = "Reset " + pathWords(d.json(), path) + " to its default";
  } else {
    (*parent)[p.back()] = list;
    text = "Set " + pathWords(d.json(), path) + " to " + q(list.dump());
  }
  if (!removed.isEmpty()) text += " (instead of " + removed.join(", ") + ")";
  return d.apply(text, doc, error, path);
}

bool importTable(ProjectDocument& d, const QString& path, const QString& file, QString* error) {
  Json doc = d.json();
  Json* law = tableLaw(doc, path, error);
  if (!law) return false;
  const Result<Table> table = readTableFile(file.toStdString());
  if (!table) {
    if (error)
      *error = path + ": cannot import " + QFileInfo(file).fileName() + ": " + QString::fromStdString(table.error().text());
    return false;
  }
  const std::vector<double>& t = table->t;
  const std::vector<double>& v = table->value;
  Json points = Json::array();
  for (std::size_t k = 0; k < t.size(); ++k) points.push_back(Json::array({t[k], v[k]}));
  law->erase("file");
  (*law)["points"] = points;
  return d.apply(
      QString("Import %1 points from %2 into %3").arg(t.size()).arg(QFileInfo(file).fileName(), pathWords(d.json(), path)), doc,
      error, path);
}

bool setTableFile(ProjectDocument& d, const QString& path, const QString& file, QString* error) {
  Json doc = d.json();
  Json* law = tableLaw(doc, path, error);
  if (!law) return false;
  law->erase("points");
  (*law)["file"] = file.toStdString();
  return d.apply("Set " + pathWords(d.json(), path + ".file") + " to " + q(file.toStdString()), doc, error, path);
}

}  // namespace flexarm::edits
