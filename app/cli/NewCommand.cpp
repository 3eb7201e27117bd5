// flexarm-cli new TEMPLATE|EXAMPLE --out FILE.flexarm.json: start a project.
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>

#include "CliSupport.hpp"
#include "Command.hpp"
#include "base/Files.hpp"
#include "base/Text.hpp"
#include "io/Overrides.hpp"
#include "io/ProjectFile.hpp"
#include "io/ProjectTemplates.hpp"

namespace fs = std::filesystem;

namespace flexarm::cli {

namespace {

struct NewOptions {
  std::string source;  // a template id or an example project file; empty: list the templates
  std::string out;
  std::string name;
  std::vector<std::string> sets;
};

int listTemplates() {
  std::cout << "templates (flexarm-cli new TEMPLATE --out FILE.flexarm.json [--set PATH=VALUE ...]):\n";
  for (const ProjectTemplate& t : projectTemplates()) {
    if (t.parameters.empty()) continue;  // the empty base is the editor's (a project needs a link)
    std::cout << "\n  " << t.id << ": " << t.title << "\n      " << t.description << "\n";
    for (const TemplateParameter& p : t.parameters) {
      std::cout << "      ";
      for (std::size_t k = 0; k < p.paths.size(); ++k) std::cout << (k ? ", " : "") << p.paths[k];
      std::cout << "  " << p.label << (p.unit.empty() || p.unit == "-" ? "" : " [" + p.unit + "]");
      if (const Json* v = valueAtPath(t.doc, p.paths.front())) std::cout << " (default " << v->dump() << ")";
      if (!p.choices.empty()) {
        std::cout << ", one of:";
        for (const std::string& c : p.choices) std::cout << " " << c;
      }
      std::cout << "\n";
    }
  }
  return kExitOk;
}

int newProject(const NewOptions& a) {
  if (a.source.empty()) return listTemplates();
  if (a.out.empty()) return fail("new needs --out FILE.flexarm.json");
  if (!checkOutputFile(a.out)) return kExitBadInput;
  Diagnostics diag;
  std::optional<Json> doc;
  if (const ProjectTemplate* t = findTemplate(a.source)) {
    if (t->parameters.empty())
      return fail("the \"" + t->id + "\" template has no links, which a project file needs: build it in the workbench");
    doc = instantiateTemplate(*t, a.name, a.sets, diag);
  } else if (fs::exists(a.source)) {
    doc = projectFromExample(a.source, diag);
    if (doc) {
      if (!a.name.empty()) (*doc)["name"] = a.name;
      for (const std::string& s : a.sets) applyOverride(*doc, s, diag);
    }
  } else {
    std::string names;
    for (const ProjectTemplate& t : projectTemplates())
      if (!t.parameters.empty()) names += (names.empty() ? "" : ", ") + t.id;
    return fail(inQuotes(a.source) + " is neither a template (" + names + ") nor a project file");
  }
  const fs::path out = a.out;
  if (doc && !diag.hasErrors()) projectFromJson(*doc, fs::absolute(out).parent_path(), diag);
  for (const Diagnostic& d : diag.all()) std::cerr << a.source << ": " << d.text() << "\n";
  if (!doc || diag.hasErrors()) return fail("nothing was written");
  // Through a temporary file: a failure (e.g. text nlohmann cannot dump) leaves an existing file as it was.
  if (const Status written = writeFileAtomically(out, [&doc](std::ostream& f) { f << doc->dump(2) << "\n"; }); !written)
    return fail(written.error().text());
  std::cout << "project: " << fs::absolute(out).string() << "\n";
  return kExitOk;
}

}  // namespace

Command newCommand() {
  return {"new", "[TEMPLATE|EXAMPLE.flexarm.json --out FILE.flexarm.json [--name NAME] [--set PATH=VALUE ...]]",
          "Start a project from a template (single-flexible-link, planar-two-link) or a copy of\n"
          "an example project, with the --set values applied and checked; the workbench's\n"
          "File > New offers the same. Without TEMPLATE: the templates and their parameters.",
          [](CLI::App& app) {
            auto o = std::make_shared<NewOptions>();
            app.add_option("TEMPLATE", o->source, "a template's name or an example project file");
            app.add_option("--out,-o", o->out, "the new project file")->type_name("FILE.flexarm.json")->check(nonEmptyPath());
            app.add_option_function<std::string>(
                   "--name",
                   [o](const std::string& name) {
                     if (name.empty()) throw CLI::ValidationError("--name needs a project name");
                     o->name = name;
                   },
                   "the project's name")
                ->type_name("NAME");
            addSetOption(app, o->sets);
            return CommandAction([o] { return newProject(*o); });
          }};
}

}  // namespace flexarm::cli
