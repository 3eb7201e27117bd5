#include "ui/document/VariantEdits.hpp"

#include <set>

#include "io/Overrides.hpp"
#include "io/ProjectFile.hpp"
#include "solvers/Study.hpp"

namespace flexarm::edits {
namespace {

using Sets = std::vector<std::pair<std::string, Json>>;

QString q(const std::string& s) { return QString::fromStdString(s); }
QString at(int i) { return QString("variants[%1]").arg(i); }

bool validVariant(const Json& doc, int i, QString* error) {
  if (doc.contains("variants") && doc["variants"].is_array() && i >= 0 && i < static_cast<int>(doc["variants"].size()) &&
      doc["variants"][i].is_object())
    return true;
  if (error) *error = at(i) + ": there is no such variant";
  return false;
}

std::string variantName(const ProjectDocument& d, int i) {
  const Project* p = d.project();
  if (p && i >= 0 && i < static_cast<int>(p->variants.size())) return p->variants[static_cast<std::size_t>(i)].name;
  const Json* n = d.value(at(i) + ".name");
  return n && n->is_string() ? n->get<std::string>() : "variant" + std::to_string(i + 1);
}

std::string uniqueVariantName(const ProjectDocument& d, const std::string& stem, bool numbered_first) {
  std::set<std::string> used;
  if (const Project* p = d.project())
    for (const Variant& v : p->variants) used.insert(v.name);
  if (!numbered_first && !used.count(stem)) return stem;
  for (int n = numbered_first ? static_cast<int>(used.size()) + 1 : 2;; ++n) {
    const std::string name = stem + std::to_string(n);
    if (!used.count(name)) return name;
  }
}

Sets setsOf(const Json& set) {
  Sets out;
  if (set.is_object())
    for (auto it = set.begin(); it != set.end(); ++it) out.emplace_back(it.key(), it.value());
  return out;
}

Json objectOf(const Sets& sets) {
  Json out = Json::object();
  for (const auto& [path, value] : sets) out[path] = value;
  return out;
}

// Why the project with `sets` applied in order (as a study case is: to the canonical JSON) is not a
// valid project, one "path: message" per line; "" when it is. Warnings count: an override that the
// loader ignores (an unknown key) would silently do nothing in every run.
std::string problems(const ProjectDocument& d, const Sets& sets) {
  if (sets.empty()) return {};
  const Project* p = d.project();
  if (!p) return "links: the chain is empty: add a link before giving overrides";
  Json doc = projectToJson(*p);
  Diagnostics diag;
  for (const auto& [path, value] : sets)
    if (!applyOverride(doc, path + "=" + value.dump(), diag)) break;
  if (!diag.hasErrors()) projectFromJson(doc, d.baseDir(), diag);
  std::string out;
  for (const Diagnostic& g : diag.all()) {
    std::string path = g.path;
    if (path.rfind("--set ", 0) == 0) path = path.substr(6);
    out += (path.empty() ? std::string() : path + ": ") + g.message + "\n";
  }
  if (!out.empty()) out.pop_back();
  return out;
}

QString prefixed(const QString& prefix, const std::string& lines) {
  QStringList out;
  for (const QString& l : q(lines).split('\n')) out << prefix + l;
  return out.join('\n');
}

// The path as the table holds it, or why it cannot be one.
bool checkPath(const QString& where, const QString& path, QString* error) {
  if (path.trimmed().isEmpty()) {
    if (error) *error = where + ": the path is empty (e.g. joints[0].drive.omega0)";
    return false;
  }
  if (path.contains('=')) {
    if (error) *error = where + ": a path cannot contain '=': \"" + path + "\"";
    return false;
  }
  return true;
}

bool parseValue(const QString& where, const QString& text, Json& out, QString* error) {
  if (text.trimmed().isEmpty()) {
    if (error) *error = where + ": needs a value (null removes the key)";
    return false;
  }
  out = overrideValue(text);
  return true;
}

// Commits a variant whose overrides changed, after checking them.
bool commitVariant(ProjectDocument& d, int i, const Sets& sets, const QString& text, QString* error) {
  const std::string why = problems(d, sets);
  if (!why.empty()) {
    if (error) *error = prefixed("variant " + q(variantName(d, i)) + ": ", why);
    return false;
  }
  Json doc = d.json();
  doc["variants"][i]["set"] = objectOf(sets);
  return d.apply(text, doc, error, at(i));
}

// Values of a grid row: one JSON array, or values separated by commas outside brackets and strings.
bool parseValues(const QString& where, const QString& text, Json& out, QString* error) {
  const std::string t = text.trimmed().toStdString();
  out = Json::array();
  if (!t.empty() && t.front() == '[') {
    const Json whole = Json::parse(t, nullptr, false);
    if (!whole.is_discarded() && whole.is_array()) {
      out = whole;
      if (out.empty() && error) *error = where + ": give at least one value";
      return !out.empty();
    }
  }
  int depth = 0;
  bool in_string = false, escaped = false;
  std::string part;
  auto flush = [&]() {
    Json v;
    if (!parseValue(where, q(part), v, error)) return false;
    out.push_back(v);
    part.clear();
    return true;
  };
  for (char c : t) {
    if (in_string) {
      escaped = !escaped && c == '\\';
      if (c == '"' && !escaped) in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      ++depth;
    } else if (c == ']' || c == '}') {
      --depth;
    } else if (c == ',' && depth == 0) {
      if (!flush()) return false;
      continue;
    }
    part += c;
  }
  return flush();
}

// Every case of a grid, checked; "" when all are valid projects.
QString gridProblem(const ProjectDocument& d, const Sets& grid) {
  std::vector<std::size_t> index(grid.size(), 0);
  if (grid.empty()) return {};
  while (true) {
    Sets c;
    QString name;
    for (std::size_t g = 0; g < grid.size(); ++g) {
      const Json& v = grid[g].second[index[g]];
      c.emplace_back(grid[g].first, v);
      name += (name.isEmpty() ? "" : ",") + q(grid[g].first) + "=" + (v.is_string() ? q(v.get<std::string>()) : q(v.dump()));
    }
    const std::string why = problems(d, c);
    if (!why.empty()) return prefixed("study grid, case " + name + ": ", why);
    std::size_t g = grid.size();
    while (g > 0) {
      --g;
      if (++index[g] < grid[g].second.size()) break;
      index[g] = 0;
      if (g == 0) return {};
    }
  }
}

bool commitGrid(ProjectDocument& d, const Sets& grid, const QString& text, QString* error) {
  if (const QString why = gridProblem(d, grid); !why.isEmpty()) {
    if (error) *error = why;
    return false;
  }
  Json doc = d.json();
  doc["study"] = {{"grid", objectOf(grid)}};
  return d.apply(text, doc, error, "study");
}

}  // namespace

QString overrideText(const Json& value) {
  if (value.is_string()) {
    const std::string s = value.get<std::string>();
    const Json reread = overrideValue(q(s));  // a bare word reads back as the same string
    if (reread == value && !s.empty() && s.find(',') == std::string::npos) return q(s);
  }
  if (value.is_number_float()) return q(formatNumber(value.get<double>()));
  return q(value.dump());
}

Json overrideValue(const QString& text) {
  const std::string t = text.trimmed().toStdString();
  Json v = Json::parse(t, nullptr, false);
  if (v.is_discarded()) v = t;  // a bare word is a string, as with --set
  return v;
}

bool addVariant(ProjectDocument& d, QString* error) {
  Json doc = d.json();
  const std::string name = uniqueVariantName(d, "variant", true);
  if (!doc.contains("variants") || !doc["variants"].is_array()) doc["variants"] = Json::array();
  doc["variants"].push_back({{"name", name}, {"set", Json::object()}});
  return d.apply("Add variant " + q(name), doc, error, at(static_cast<int>(doc["variants"].size()) - 1));
}

bool duplicateVariant(ProjectDocument& d, int i, QString* error) {
  Json doc = d.json();
  if (!validVariant(doc, i, error)) return false;
  const std::string from = variantName(d, i), name = uniqueVariantName(d, from + "-copy", false);
  Json copy = doc["variants"][i];
  copy["name"] = name;
  doc["variants"].insert(doc["variants"].begin() + i + 1, copy);
  return d.apply("Duplicate variant " + q(from) + " as " + q(name), doc, error, at(i + 1));
}

bool deleteVariant(ProjectDocument& d, int i, QString* error) {
  Json doc = d.json();
  if (!validVariant(doc, i, error)) return false;
  const std::string name = variantName(d, i);
  doc["variants"].erase(doc["variants"].begin() + i);
  if (doc["variants"].empty()) doc.erase("variants");
  QString text = "Delete variant " + q(name);
  if (doc.contains("study") && doc["study"].is_object() && doc["study"].contains("variants") &&
      doc["study"]["variants"].is_array()) {
    Json& names = doc["study"]["variants"];
    const std::size_t before = names.size();
    Json kept = Json::array();
    for (const Json& n : names)
      if (!(n.is_string() && n.get<std::string>() == name)) kept.push_back(n);
    if (kept.empty() && before > 0) {
      doc.erase("study");
      text += " and the study, which listed only it";
    } else if (kept.size() != before) {
      names = kept;
      text += " and its place in the study";
    }
  }
  return d.apply(text, doc, error);
}

bool renameVariant(ProjectDocument& d, int i, const QString& name, QString* error) {
  Json doc = d.json();
  if (!validVariant(doc, i, error)) return false;
  const std::string from = variantName(d, i), to = name.toStdString();
  doc["variants"][i]["name"] = to;
  if (doc.contains("study") && doc["study"].is_object() && doc["study"].contains("variants") &&
      doc["study"]["variants"].is_array())
    for (Json& n : doc["study"]["variants"])
      if (n.is_string() && n.get<std::string>() == from) n = to;
  return d.apply("Rename variant " + q(from) + " to " + name, doc, error, at(i) + ".name");
}

bool setOverride(ProjectDocument& d, int i, int row, const QString& path_text, const QString& value_text, QString* error) {
  if (!validVariant(d.json(), i, error)) return false;
  const QString where = at(i) + ".set";
  const QString path = path_text.trimmed();
  Json value;
  if (!checkPath(where, path, error) || !parseValue(where + "." + path, value_text, value, error)) return false;
  Sets sets = setsOf(d.json()["variants"][i].value("set", Json::object()));
  const std::string p = path.toStdString();
  for (std::size_t k = 0; k < sets.size(); ++k)
    if (sets[k].first == p && static_cast<int>(k) != row) {
      if (error)
        *error = QString("variant %1: %2 is already set (row %3): edit that row").arg(q(variantName(d, i)), path).arg(k + 1);
      return false;
    }
  const QString name = q(variantName(d, i));
  QString text = "In variant " + name + ", set " + path + " = " + overrideText(value);
  if (row < 0 || row >= static_cast<int>(sets.size())) {
    sets.emplace_back(p, value);
  } else {
    if (sets[static_cast<std::size_t>(row)].first != p)
      text = "In variant " + name + ", replace " + q(sets[static_cast<std::size_t>(row)].first) + " by " + path + " = " +
             overrideText(value);
    sets[static_cast<std::size_t>(row)] = {p, value};
  }
  return commitVariant(d, i, sets, text, error);
}

bool removeOverride(ProjectDocument& d, int i, int row, QString* error) {
  if (!validVariant(d.json(), i, error)) return false;
  Sets sets = setsOf(d.json()["variants"][i].value("set", Json::object()));
  if (row < 0 || row >= static_cast<int>(sets.size())) {
    if (error) *error = at(i) + ".set: there is no override in row " + QString::number(row + 1);
    return false;
  }
  const std::string path = sets[static_cast<std::size_t>(row)].first;
  sets.erase(sets.begin() + row);
  return commitVariant(d, i, sets, "In variant " + q(variantName(d, i)) + ", remove the override of " + q(path), error);
}

bool addOverrideLines(ProjectDocument& d, int i, const QString& lines, QString* error) {
  if (!validVariant(d.json(), i, error)) return false;
  const QString where = at(i) + ".set";
  Sets sets = setsOf(d.json()["variants"][i].value("set", Json::object()));
  QStringList paths;
  for (const QString& raw : lines.split('\n')) {
    QString line = raw.trimmed();
    if (line.startsWith("--set")) line = line.mid(5).trimmed();  // pasted from a command line
    if (line.startsWith('=')) line = line.mid(1);
    if (line.isEmpty() || line.startsWith('#')) continue;
    const int eq = line.indexOf('=');
    if (eq < 0) {
      if (error) *error = where + ": \"" + line + "\" is not path=value";
      return false;
    }
    const QString path = line.left(eq).trimmed();
    Json value;
    if (!checkPath(where, path, error) || !parseValue(where + "." + path, line.mid(eq + 1), value, error)) return false;
    const std::string p = path.toStdString();
    bool replaced = false;
    for (auto& s : sets)
      if (s.first == p) {
        s.second = value;
        replaced = true;
      }
    if (!replaced) sets.emplace_back(p, value);
    paths << path;
  }
  if (paths.isEmpty()) {
    if (error) *error = where + ": no path=value line to add";
    return false;
  }
  QString list = paths.mid(0, 2).join(", ");
  if (paths.size() > 2) list += QString(" and %1 more").arg(paths.size() - 2);
  return commitVariant(d, i, sets, "In variant " + q(variantName(d, i)) + ", set " + list, error);
}

QString variantProblem(const ProjectDocument& d, int i) {
  if (!validVariant(d.json(), i, nullptr)) return {};
  return q(problems(d, setsOf(d.json()["variants"][i].value("set", Json::object()))));
}

QString studyKind(const ProjectDocument& d) {
  const Json* s = d.value("study");
  if (!s || !s->is_object()) return "none";
  return s->contains("grid") ? "grid" : "variants";
}

bool setStudyKind(ProjectDocument& d, const std::string& kind, QString* error) {
  if (studyKind(d).toStdString() == kind) return true;
  Json doc = d.json();
  if (kind == "none") {
    doc.erase("study");
    return d.apply("Remove the study", doc, error, "study");
  }
  if (kind == "variants") {
    Json names = Json::array();
    if (const Project* p = d.project())
      for (const Variant& v : p->variants) names.push_back(v.name);
    doc["study"] = {{"variants", names}};
    QStringList list;
    for (const Json& n : names) list << q(n.get<std::string>());
    return d.apply("Set the study to the variants " + list.join(", "), doc, error, "study");
  }
  if (kind == "grid") {
    const Sets grid = {{"coupling", Json::array({"zero", "high"})}};
    return commitGrid(d, grid, "Set the study to a grid of coupling = zero, high", error);
  }
  if (error) *error = "study: unknown kind \"" + q(kind) + "\" (expected one of: none, variants, grid)";
  return false;
}

bool setStudyVariants(ProjectDocument& d, const QStringList& names, QString* error) {
  Json doc = d.json();
  Json list = Json::array();
  for (const QString& n : names) list.push_back(n.toStdString());
  doc["study"] = {{"variants", list}};
  return d.apply(names.isEmpty() ? QString("Set the study to no variant") : "Set the study to the variants " + names.join(", "),
                 doc, error, "study");
}

bool setGridRow(ProjectDocument& d, int row, const QString& path_text, const QString& values_text, QString* error) {
  const Json* grid = d.value("study.grid");
  Sets rows = grid ? setsOf(*grid) : Sets{};
  const QString path = path_text.trimmed();
  Json values;
  if (!checkPath("study.grid", path, error) || !parseValues("study.grid." + path, values_text, values, error)) return false;
  const std::string p = path.toStdString();
  for (std::size_t k = 0; k < rows.size(); ++k)
    if (rows[k].first == p && static_cast<int>(k) != row) {
      if (error) *error = QString("study.grid: %1 is already in the grid (row %2): edit that row").arg(path).arg(k + 1);
      return false;
    }
  if (row < 0 || row >= static_cast<int>(rows.size()))
    rows.emplace_back(p, values);
  else
    rows[static_cast<std::size_t>(row)] = {p, values};
  return commitGrid(d, rows, "In the study grid, set " + path + " to " + valuesText(values), error);
}

bool removeGridRow(ProjectDocument& d, int row, QString* error) {
  const Json* grid = d.value("study.grid");
  Sets rows = grid ? setsOf(*grid) : Sets{};
  if (row < 0 || row >= static_cast<int>(rows.size())) {
    if (error) *error = "study.grid: there is no row " + QString::number(row + 1);
    return false;
  }
  const std::string path = rows[static_cast<std::size_t>(row)].first;
  rows.erase(rows.begin() + row);
  Json doc = d.json();
  doc["study"] = {{"grid", objectOf(rows)}};  // an empty grid: the loader explains
  return d.apply("In the study grid, remove " + q(path), doc, error, "study.grid");
}

QString valuesText(const Json& values) {
  if (!values.is_array()) return q(values.dump());
  QStringList parts;
  for (const Json& v : values) {
    if (v.is_structured() || (v.is_string() && v.get<std::string>().find_first_of(",[]{}\"") != std::string::npos))
      return q(values.dump());  // joined by commas it would read differently
    parts << overrideText(v);
  }
  return parts.join(", ");
}

QStringList studyCaseNames(const ProjectDocument& d) {
  QStringList out;
  if (const Project* p = d.project())
    for (const StudyCase& c : studyCases(*p)) out << q(c.name);
  return out;
}

}  // namespace flexarm::edits
