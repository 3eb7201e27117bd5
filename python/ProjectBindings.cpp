// flexarm.load, flexarm.Project, flexarm.templates, flexarm.new: projects through the same loader,
// overrides and canonical writer as flexarm-cli.
#include <pybind11/stl.h>
#include <pybind11/stl/filesystem.h>

#include <fstream>
#include <sstream>

#include "Bindings.hpp"
#include "io/Overrides.hpp"
#include "io/ProjectFile.hpp"
#include "io/ProjectTemplates.hpp"

namespace fs = std::filesystem;

namespace flexarm::python {

namespace {

// Python value <-> JSON, through Python's own json module (the exact text flexarm-cli would read).
Json toJson(const py::handle& value) {
  const std::string text = py::module_::import("json").attr("dumps")(value, py::arg("allow_nan") = false).cast<std::string>();
  return Json::parse(text);
}
py::object fromJson(const Json& value) { return py::module_::import("json").attr("loads")(value.dump()); }

// Applies "path=value" assignments to a copy of the document and interprets it, or ProjectRefused.
PyProject withAssignments(const PyProject& p, const std::vector<std::string>& assignments) {
  Json doc = p.doc;
  Diagnostics diag;
  for (const std::string& a : assignments)
    if (!applyOverride(doc, a, diag)) throw ProjectRefused(diag.text());
  std::optional<Project> project = projectFromJson(doc, p.base_dir, diag);
  refuseUnknownKeysSetBy(assignments, diag);
  if (!project || diag.hasErrors()) throw ProjectRefused(diag.text());
  PyProject out;  // interpreted once: the document of record is the canonical one
  out.doc = projectToJson(*project);
  out.project = std::move(*project);
  out.base_dir = p.base_dir;
  return out;
}

std::string assignment(const std::string& path, const py::handle& value) {
  try {
    return path + "=" + toJson(value).dump();
  } catch (const std::exception&) {
    throw ProjectRefused("--set " + path + ": the value " + py::repr(value).cast<std::string>() +
                         " is not a JSON value (numbers, strings, booleans, None, lists and dicts of them)");
  }
}

PyProject load(const fs::path& file) {
  LoadedProject loaded = loadProjectFile(file);
  if (!loaded.project) throw ProjectRefused(file.string() + ": " + loaded.diagnostics.text());
  PyProject p;
  p.project = *loaded.project;
  p.doc = projectToJson(p.project);
  p.base_dir = file.parent_path();
  return p;
}

// A keyword of flexarm.new that names no field of the format (length=1.25 for links[0].length) would
// set a key the loader ignores: TypeError naming it, as Python does for any unknown keyword.
void refuseUnknownKeywords(const Json& doc, const fs::path& base_dir, const std::vector<std::string>& keywords) {
  Diagnostics read;
  projectFromJson(doc, base_dir, read);
  for (const std::string& k : keywords) {
    Diagnostics one = read;
    refuseUnknownKeysSetBy({k + "=0"}, one);
    for (const Diagnostic& d : one.all())
      if (d.severity == Diagnostic::Severity::Error && d.message.rfind("not a field of the project format", 0) == 0 &&
          (d.path == k || d.path.rfind(k + ".", 0) == 0 || d.path.rfind(k + "[", 0) == 0))
        throw py::type_error("new() got an unexpected keyword argument '" + k +
                             "': not a field of the project format; values are given by JSON path, e.g. "
                             "flexarm.new('single-flexible-link', **{'links[0].length': 1.25})");
  }
}

PyProject newProject(const std::string& start, std::optional<std::string> name, const py::kwargs& values) {
  std::vector<std::string> assignments, keywords;
  for (const auto& [key, value] : values) {
    keywords.push_back(key.cast<std::string>());
    assignments.push_back(assignment(keywords.back(), value));
  }
  Diagnostics diag;
  std::optional<Json> doc;
  fs::path base = fs::current_path();
  if (const ProjectTemplate* t = findTemplate(start)) {
    doc = instantiateTemplate(*t, name.value_or(t->title), assignments, diag);
  } else if (fs::exists(start)) {
    doc = projectFromExample(start, diag);
    if (doc && name) (*doc)["name"] = *name;
    for (const std::string& a : assignments)
      if (doc && !applyOverride(*doc, a, diag)) doc.reset();
  } else {
    std::string known;
    for (const ProjectTemplate& t : projectTemplates()) known += (known.empty() ? "" : ", ") + t.id;
    throw ProjectRefused("no template or example \"" + start + "\" (templates: " + known + ")");
  }
  if (!doc) throw ProjectRefused(diag.text());
  refuseUnknownKeywords(*doc, base, keywords);
  return projectFromDoc(std::move(*doc), base);
}

}  // namespace

PyProject projectFromDoc(Json doc, const fs::path& base_dir) {
  Diagnostics diag;
  std::optional<Project> project = projectFromJson(doc, base_dir, diag);
  if (!project) throw ProjectRefused(diag.text());
  PyProject p;
  p.project = std::move(*project);
  p.doc = projectToJson(p.project);
  p.base_dir = base_dir;
  return p;
}

void bindProjects(py::module_& m) {
  py::class_<PyProject>(m, "Project",
                        "A FlexArm project: the model, its variants and study, and the simulation settings.\n"
                        "Every change goes through the project loader's checks; a refused one raises ProjectError.")
      .def_static(
          "from_dict",
          [](const py::dict& d, const std::string& base_dir) {
            Json doc;
            try {
              doc = toJson(d);
            } catch (const std::exception& e) {
              throw ProjectRefused(std::string("not a JSON document: ") + e.what());
            }
            return projectFromDoc(std::move(doc), base_dir);
          },
          py::arg("d"), py::arg("base_dir") = ".",
          "A project from its JSON document as Python objects (docs/project-format.md); table files are relative to "
          "base_dir.")
      .def(
          "to_dict", [](const PyProject& p) { return fromJson(p.doc); },
          "The project's canonical JSON document as Python objects (what save() writes).")
      .def(
          "set",
          [](PyProject& p, const std::string& path, const py::object& value) {
            p = withAssignments(p, {assignment(path, value)});
          },
          py::arg("path"), py::arg("value"),
          "Sets the value at a JSON path, e.g. p.set('joints[0].drive.omega0', 8), exactly as flexarm-cli --set does.\n"
          "Raises ProjectError naming the path when the path or the value is refused; the project is then unchanged.")
      .def(
          "get",
          [](const PyProject& p, const std::string& path) {
            const Json* v = valueAtPath(p.doc, path);
            if (!v) throw ProjectRefused(path + ": no such value in the project");
            return fromJson(*v);
          },
          py::arg("path"), "The value at a JSON path, e.g. p.get('links[0].length').")
      .def(
          "save",
          [](const PyProject& p, const fs::path& file) {
            if (const Status saved = saveProjectFile(p.project, file); !saved) throw ProjectRefused(saved.error().text());
          },
          py::arg("path"), "Writes the canonical project file (the same bytes flexarm-cli writes), atomically.")
      .def(
          "copy", [](const PyProject& p) { return p; }, "An independent copy.")
      .def_property_readonly(
          "name", [](const PyProject& p) { return p.project.name; }, "The project's name.")
      .def_property_readonly(
          "variants",
          [](const PyProject& p) {
            std::vector<std::string> names;
            for (const Variant& v : p.project.variants) names.push_back(v.name);
            return names;
          },
          "The names of the project's variants.")
      .def("__repr__", [](const PyProject& p) {
        return "<flexarm.Project '" + p.project.name + "': " + std::to_string(p.project.model.links.size()) + " link(s), " +
               couplingName(p.project.coupling) + "-order coupling>";
      });

  m.def("load", &load, py::arg("path"),
        "Reads a project file (.flexarm.json). Raises ProjectError with every problem and its JSON path.");
  m.def(
      "templates",
      [] {
        py::list out;
        for (const ProjectTemplate& t : projectTemplates()) {
          py::list params;
          for (const TemplateParameter& tp : t.parameters)
            params.append(py::dict(py::arg("paths") = tp.paths, py::arg("label") = tp.label, py::arg("unit") = tp.unit,
                                   py::arg("choices") = tp.choices));
          out.append(py::dict(py::arg("id") = t.id, py::arg("title") = t.title, py::arg("description") = t.description,
                              py::arg("parameters") = params));
        }
        return out;
      },
      "The built-in starting points of flexarm.new(): id, title, description and first values (JSON paths).");
  m.def("new", &newProject, py::arg("template"), py::arg("name") = py::none(),
        "A new project from a template id (flexarm.templates()) or a shipped example's path, with values by JSON\n"
        "path: flexarm.new('single-flexible-link', name='beam', **{'links[0].length': 3.0}).");
}

}  // namespace flexarm::python
