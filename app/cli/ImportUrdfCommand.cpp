// flexarm-cli import-urdf ROBOT.urdf --out FILE.flexarm.json: a robot described in URDF as a
// project (core/io/UrdfImport), with the links chosen by --flexible made flexible.
#include <filesystem>
#include <iostream>
#include <memory>

#include "CliSupport.hpp"
#include "Command.hpp"
#include "base/Files.hpp"
#include "io/UrdfImport.hpp"

namespace fs = std::filesystem;

namespace flexarm::cli {

namespace {

struct ImportUrdfOptions {
  std::string urdf;
  std::string out;
  UrdfImportOptions import;
};

int importUrdf(const ImportUrdfOptions& o) {
  stopOnSignals();  // Ctrl-C during the import: exit 130, nothing written
  if (!checkOutputFile(o.out)) return kExitBadInput;
  Diagnostics diag;
  std::optional<Json> doc;
  if (const std::optional<UrdfRobot> robot = UrdfRobot::read(o.urdf, diag)) doc = robot->toProject(o.import, diag);
  if (cancelFlag()) return fail("interrupted: nothing was written", kExitInterrupted);
  for (const Diagnostic& d : diag.all()) std::cerr << o.urdf << ": " << d.text() << "\n";
  if (!doc) return fail("nothing was written");
  if (const Status written = writeFileAtomically(o.out, [&doc](std::ostream& f) { f << doc->dump(2) << "\n"; }); !written)
    return fail(written.error().text());
  std::cout << "project: " << fs::absolute(o.out).string() << " (" << (*doc)["links"].size() << " links)\n";
  return kExitOk;
}

}  // namespace

Command importUrdfCommand() {
  return {"import-urdf", "ROBOT.urdf --out FILE.flexarm.json [--tip LINK] [--flexible LINK=SPEC ...] [--name NAME]",
          "Import a robot described in URDF: the serial chain from the root link to the tip (fixed\n"
          "joints merged into the link before them), each link rigid with its <inertial>, or\n"
          "flexible with SPEC = length=L,section=tube:D:d,material=aluminium,basis=modes:2\n"
          "(docs/project-format.md, URDF import). Visual meshes are ignored; the workbench's\n"
          "File > Import URDF... does the same.",
          [](CLI::App& app) {
            auto o = std::make_shared<ImportUrdfOptions>();
            app.add_option("ROBOT", o->urdf, "the URDF file")->required()->type_name("ROBOT.urdf");
            app.add_option("--out,-o", o->out, "the project file to write")
                ->required()
                ->type_name("FILE.flexarm.json")
                ->check(nonEmptyPath());
            app.add_option("--tip", o->import.tip,
                           "the last link of the chain to import (without it: the chain, or the whole tree where it branches)")
                ->type_name("LINK")
                ->check(nonEmptyPath());
            app.add_option_function<std::vector<std::string>>(
                   "--flexible",
                   [o](const std::vector<std::string>& specs) {
                     for (const std::string& text : specs) {
                       Result<FlexibleLinkSpec> spec = parseFlexibleLinkSpec(text);
                       if (!spec) throw CLI::ValidationError("--flexible " + text + ": " + spec.error().text());
                       o->import.flexible.push_back(std::move(spec.value()));
                     }
                   },
                   "make a link flexible: LINK=length=L,section=rectangle:W:H|tube:D:d|ibeam:B:H:TF:TW|A:Iy:Iz:J,\n"
                   "material=steel|aluminium|cfrp|E:G:RHO[,basis=modes:N|modes:A:BY:BZ:T|fem:N[:planar]]\n"
                   "[,rayleigh=ALPHA:BETA], or LINK={JSON: length and the keys of links[i].flex}")
                ->type_name("LINK=SPEC")
                ->allow_extra_args(false);
            app.add_option_function<std::string>(
                   "--name",
                   [o](const std::string& name) {
                     if (name.empty()) throw CLI::ValidationError("--name needs a project name");
                     o->import.name = name;
                   },
                   "the project's name (default: the robot's)")
                ->type_name("NAME");
            return CommandAction([o] { return importUrdf(*o); });
          }};
}

}  // namespace flexarm::cli
