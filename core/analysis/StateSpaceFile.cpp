#include "analysis/StateSpaceFile.hpp"

#include <dlfcn.h>
#include <matio.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "Version.hpp"
#include "base/Files.hpp"
#include "base/NumberFormat.hpp"

namespace fs = std::filesystem;

namespace flexarm {

namespace {

std::string lowerExtension(const fs::path& file) {
  std::string ext = file.extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return ext;
}

// A text on one line (a comment): control characters become spaces, so that it never starts a line.
std::string oneLine(std::string s) {
  for (char& c : s)
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7F) c = ' ';
  return s;
}

// A CSV cell: one line, and a comma (the separator) becomes a semicolon, so that a name never splits a row.
std::string csvCell(std::string s) {
  s = oneLine(std::move(s));
  std::replace(s.begin(), s.end(), ',', ';');
  return s;
}

std::string joined(const std::vector<std::string>& items) {
  std::string s;
  for (std::size_t i = 0; i < items.size(); ++i) s += (i ? "," : "") + csvCell(items[i]);
  return s;
}

void writeBlock(std::ostream& out, const char* name, const Eigen::MatrixXd& m, const std::vector<std::string>& rows,
                const std::vector<std::string>& columns) {
  out << "[" << name << "]";
  for (const std::string& c : columns) out << "," << csvCell(c);
  out << "\n";
  for (int r = 0; r < m.rows(); ++r) {
    out << csvCell(rows[static_cast<std::size_t>(r)]);
    for (int c = 0; c < m.cols(); ++c) out << "," << formatNumber(m(r, c));
    out << "\n";
  }
}

// matio, loaded on the first MATLAB file (CMakeLists.txt: it is not linked, to keep every command's
// start-up free of HDF5 and what it brings). Never unloaded.
struct Matio {
  decltype(&::Mat_CreateVer) create_ver = nullptr;
  decltype(&::Mat_Close) close = nullptr;
  decltype(&::Mat_VarCreate) var_create = nullptr;
  decltype(&::Mat_VarFree) var_free = nullptr;
  decltype(&::Mat_VarSetCell) var_set_cell = nullptr;
  decltype(&::Mat_VarWrite) var_write = nullptr;
  std::string error;  // why it could not be loaded; "" when loaded
};

const Matio& matio() {
  static const Matio lib = [] {
    Matio m;
    void* handle = ::dlopen(FLEXARM_MATIO_SONAME, RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
      const char* why = ::dlerror();
      m.error = std::string(FLEXARM_MATIO_SONAME) + " (Debian's libmatio) cannot be loaded: " + (why ? why : "unknown error");
      return m;
    }
    auto bind = [&](auto& f, const char* name) {
      f = reinterpret_cast<std::remove_reference_t<decltype(f)>>(::dlsym(handle, name));
      if (!f && m.error.empty()) m.error = std::string(FLEXARM_MATIO_SONAME) + " has no " + name;
    };
    bind(m.create_ver, "Mat_CreateVer");
    bind(m.close, "Mat_Close");
    bind(m.var_create, "Mat_VarCreate");
    bind(m.var_free, "Mat_VarFree");
    bind(m.var_set_cell, "Mat_VarSetCell");
    bind(m.var_write, "Mat_VarWrite");
    return m;
  }();
  return lib;
}

struct MatFileCloser {
  void operator()(mat_t* mat) const { matio().close(mat); }
};
struct MatVarFreer {
  void operator()(matvar_t* var) const { matio().var_free(var); }
};
using MatVar = std::unique_ptr<matvar_t, MatVarFreer>;

MatVar matrixVariable(const char* name, const Eigen::MatrixXd& m) {
  size_t dims[2] = {static_cast<size_t>(m.rows()), static_cast<size_t>(m.cols())};
  Eigen::MatrixXd copy = m;  // column-major, as MATLAB stores it; matio copies it
  return MatVar(matio().var_create(name, MAT_C_DOUBLE, MAT_T_DOUBLE, 2, dims, copy.data(), 0));
}

MatVar stringVariable(const char* name, const std::string& text) {
  size_t dims[2] = {1, text.size()};
  std::string copy = text;
  return MatVar(matio().var_create(name, MAT_C_CHAR, MAT_T_UTF8, 2, dims, copy.data(), 0));
}

// A column cell array of strings, {'q.hub'; 'e.beam.1'; ...}.
MatVar cellVariable(const char* name, const std::vector<std::string>& items) {
  size_t dims[2] = {items.size(), 1};
  MatVar cell(matio().var_create(name, MAT_C_CELL, MAT_T_CELL, 2, dims, nullptr, 0));
  if (!cell) return cell;
  for (std::size_t i = 0; i < items.size(); ++i) {
    MatVar item = stringVariable(nullptr, items[i]);
    if (!item) return MatVar();
    matio().var_set_cell(cell.get(), static_cast<int>(i), item.release());  // the cell owns it now
  }
  return cell;
}

Status writeMat(const StateSpaceModel& m, const std::string& description, const fs::path& file) {
  // matio writes to a named file: a temporary one, read back and put in place atomically.
  static std::atomic<unsigned> counter{0};
  const fs::path tmp = fs::temp_directory_path() /
                       ("flexarm-statespace-" + std::to_string(::getpid()) + "-" + std::to_string(counter.fetch_add(1)) + ".mat");
  std::error_code ignored;
  if (!matio().error.empty()) return errorAt(file.string(), "cannot write a MATLAB file: " + matio().error);
  {
    std::unique_ptr<mat_t, MatFileCloser> mat(matio().create_ver(tmp.string().c_str(), nullptr, MAT_FT_MAT5));
    if (!mat) return errorAt(file.string(), "cannot create the MATLAB file (temporary " + tmp.string() + ")");
    std::vector<MatVar> vars;
    vars.push_back(matrixVariable("A", m.A));
    vars.push_back(matrixVariable("B", m.B));
    vars.push_back(matrixVariable("C", m.C));
    vars.push_back(matrixVariable("D", m.D));
    vars.push_back(cellVariable("states", m.states));
    vars.push_back(cellVariable("inputs", m.inputs));
    vars.push_back(cellVariable("outputs", m.outputs));
    vars.push_back(cellVariable("state_units", m.state_units));
    vars.push_back(cellVariable("input_units", m.input_units));
    vars.push_back(cellVariable("output_units", m.output_units));
    vars.push_back(stringVariable("description", description));
    vars.push_back(stringVariable("operating_point", m.operating_point));
    for (const MatVar& v : vars)
      if (!v || matio().var_write(mat.get(), v.get(), MAT_COMPRESSION_NONE) != 0) {
        mat.reset();
        fs::remove(tmp, ignored);
        return errorAt(file.string(), "cannot write the MATLAB variables");
      }
  }
  const Result<std::string> bytes = readRegularFile(tmp, std::size_t{1} << 30);
  fs::remove(tmp, ignored);
  if (!bytes) return errorAt(file.string(), "the MATLAB file written could not be read back: " + bytes.error().text());
  return writeFileAtomically(file, bytes.value());
}

}  // namespace

std::string stateSpaceDescription(const Project& project) {
  return std::string("FlexArm ") + kVersion + ", project " + project.name + ", " + couplingName(project.coupling) +
         "-order coupling";
}

void writeStateSpaceCsv(const StateSpaceModel& m, const std::string& description, std::ostream& out) {
  out << "# " << oneLine(description) << "\n";
  out << "# linear model dx/dt = A x + B u, y = C x + D u: deviations from the operating point, SI units\n";
  out << "# operating point: " << oneLine(m.operating_point) << "\n";
  out << "# states: " << m.states.size() << ", inputs: " << m.inputs.size() << ", outputs: " << m.outputs.size() << "\n";
  out << "# state units: " << joined(m.state_units) << "\n";
  out << "# input units: " << joined(m.input_units) << "\n";
  out << "# output units: " << joined(m.output_units) << "\n";
  writeBlock(out, "A", m.A, m.states, m.states);
  out << "\n";
  writeBlock(out, "B", m.B, m.states, m.inputs);
  out << "\n";
  writeBlock(out, "C", m.C, m.outputs, m.states);
  out << "\n";
  writeBlock(out, "D", m.D, m.outputs, m.inputs);
}

Status writeStateSpaceFile(const StateSpaceModel& model, const std::string& description, const fs::path& file) {
  const std::string ext = lowerExtension(file);
  if (ext == ".mat") return writeMat(model, description, file);
  if (ext == ".csv") return writeFileAtomically(file, [&](std::ostream& out) { writeStateSpaceCsv(model, description, out); });
  return errorAt(file.string(), "the model is written as .mat or .csv, not \"" + file.extension().string() + "\"");
}

}  // namespace flexarm
