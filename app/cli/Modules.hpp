#pragma once
// flexarm-cli's modules, loaded on demand so that the commands that do not need them start without
// their libraries: flexarm-cli-draw.so (Drawing.hpp: Qt Widgets, QCustomPlot) and
// flexarm-cli-paraview.so (SeriesWriting.hpp: VTK's data model and XML writers). A module is looked
// for beside the program (the build tree), then in FLEXARM_MODULE_DIR relative to it (../lib/flexarm
// once installed), and is never closed.
#include <string>

namespace flexarm::cli {

struct ModuleSpec {
  const char* file;          // "flexarm-cli-draw.so"
  const char* entry;         // its one exported function, taking the interface version
  int interface_version;     // refused when the module's is another (it returns nullptr)
  const char* purpose;       // "draw": the messages start "cannot draw: "
  const char* build_target;  // named when the module is missing
};

// The module's entry point called with the interface version, or nullptr with `why` naming the file
// (missing, not loadable, not that module, another version).
void* openModule(const ModuleSpec& spec, std::string& why);

// The module's side of its entry point: its one Implementation as the Interface the program calls, when
// the program's interface version is the module's own (kVersion), else nullptr.
template <class Interface, class Implementation, int kVersion>
void* moduleInstance(int interface_version) {
  if (interface_version != kVersion) return nullptr;
  static Implementation instance;
  return static_cast<Interface*>(&instance);
}

}  // namespace flexarm::cli
