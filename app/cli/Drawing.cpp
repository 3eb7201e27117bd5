// Loads flexarm-cli-draw.so (Drawing.hpp) when a command first draws: beside the program in the build
// tree, else from FLEXARM_DRAW_MODULE_DIR relative to it (../lib/flexarm once installed).
#include "Drawing.hpp"

#include <dlfcn.h>

#include <system_error>

namespace fs = std::filesystem;

namespace flexarm::cli {

namespace {

constexpr const char* kModule = FLEXARM_DRAW_MODULE_FILE;

// Where the module may be, in the order it is looked for.
std::vector<fs::path> moduleCandidates() {
  std::error_code ec;
  const fs::path program = fs::read_symlink("/proc/self/exe", ec);
  if (ec) return {};
  const fs::path dir = program.parent_path();
  return {dir / kModule, (dir / FLEXARM_DRAW_MODULE_DIR / kModule).lexically_normal()};
}

Drawing* openModule(std::string& why) {
  const std::vector<fs::path> candidates = moduleCandidates();
  if (candidates.empty()) {
    why = std::string("cannot draw: the program's folder is unknown (/proc/self/exe cannot be read), so ") + kModule +
          " cannot be found";
    return nullptr;
  }
  for (const fs::path& file : candidates) {
    std::error_code ec;
    if (!fs::exists(file, ec)) continue;
    // Never closed: Qt, once started by the module, lives until the process ends.
    void* module = ::dlopen(file.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!module) {
      const char* error = ::dlerror();
      why = "cannot draw: " + file.string() + " cannot be loaded: " + (error ? error : "unknown error");
      return nullptr;
    }
    using Entry = Drawing* (*)(int);
    const auto entry = reinterpret_cast<Entry>(::dlsym(module, "flexarm_cli_drawing"));
    if (!entry) {
      why = "cannot draw: " + file.string() + " is not flexarm-cli's drawing module (it has no flexarm_cli_drawing)";
      return nullptr;
    }
    Drawing* drawing = entry(kDrawingInterfaceVersion);
    if (!drawing) why = "cannot draw: " + file.string() + " belongs to another version of flexarm-cli (reinstall FlexArm)";
    return drawing;
  }
  why = std::string("cannot draw: the drawing module ") + kModule + " is missing (looked for ";
  for (std::size_t i = 0; i < candidates.size(); ++i)
    why += (i == 0 ? "" : i + 1 == candidates.size() ? " and " : ", ") + candidates[i].string();
  why += "; build the target flexarm-cli-draw, or reinstall FlexArm)";
  return nullptr;
}

}  // namespace

Drawing* loadDrawing(std::string& why) {
  static std::string error;
  static Drawing* const drawing = openModule(error);
  why = error;
  return drawing;
}

}  // namespace flexarm::cli
