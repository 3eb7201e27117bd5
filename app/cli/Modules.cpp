#include "Modules.hpp"

#include <dlfcn.h>

#include <filesystem>
#include <system_error>
#include <vector>

namespace fs = std::filesystem;

namespace flexarm::cli {

namespace {

// Where a module may be, in the order it is looked for.
std::vector<fs::path> moduleCandidates(const char* file) {
  std::error_code ec;
  const fs::path program = fs::read_symlink("/proc/self/exe", ec);
  if (ec) return {};
  const fs::path dir = program.parent_path();
  return {dir / file, (dir / FLEXARM_MODULE_DIR / file).lexically_normal()};
}

}  // namespace

void* openModule(const ModuleSpec& spec, std::string& why) {
  const std::string cannot = std::string("cannot ") + spec.purpose + ": ";
  const std::vector<fs::path> candidates = moduleCandidates(spec.file);
  if (candidates.empty()) {
    why = cannot + "the program's folder is unknown (/proc/self/exe cannot be read), so " + spec.file + " cannot be found";
    return nullptr;
  }
  for (const fs::path& file : candidates) {
    std::error_code ec;
    if (!fs::exists(file, ec)) continue;
    // Never closed: what a module starts (Qt for the drawing) lives until the process ends.
    void* module = ::dlopen(file.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!module) {
      const char* error = ::dlerror();
      why = cannot + file.string() + " cannot be loaded: " + (error ? error : "unknown error");
      return nullptr;
    }
    using Entry = void* (*)(int);
    const auto entry = reinterpret_cast<Entry>(::dlsym(module, spec.entry));
    if (!entry) {
      why = cannot + file.string() + " is not flexarm-cli's module " + spec.file + " (it has no " + spec.entry + ")";
      return nullptr;
    }
    void* interface = entry(spec.interface_version);
    if (!interface) why = cannot + file.string() + " belongs to another version of flexarm-cli (reinstall FlexArm)";
    return interface;
  }
  why = cannot + "the module " + spec.file + " is missing (looked for ";
  for (std::size_t i = 0; i < candidates.size(); ++i)
    why += (i == 0 ? "" : i + 1 == candidates.size() ? " and " : ", ") + candidates[i].string();
  why += std::string("; build the target ") + spec.build_target + ", or reinstall FlexArm)";
  return nullptr;
}

}  // namespace flexarm::cli
