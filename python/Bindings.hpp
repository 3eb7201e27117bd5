#pragma once
// The parts of the `flexarm` Python module (Module.cpp defines it): projects, results, runs and
// analyses. Every entry point takes Python values, calls core, and gives back Python values; no
// physics here.
#include <pybind11/pybind11.h>

#include <filesystem>
#include <memory>
#include <stdexcept>
#include <string>

#include "io/JsonReader.hpp"
#include "model/Project.hpp"
#include "results/Results.hpp"

namespace flexarm::python {

namespace py = pybind11;

// A project as Python sees it: the interpreted project and its canonical JSON document, kept in
// step (every change goes through the loader's checks), and the directory its table files are
// relative to.
struct PyProject {
  Json doc;
  Project project;
  std::filesystem::path base_dir;
};

// A run's results, shared with the NumPy views handed out (they keep it alive).
struct PyResults {
  std::shared_ptr<const Results> results;
  Project project;  // what was run: for centrelines
};

// Thrown for a refused project, path or value; Python sees flexarm.ProjectError, whose message names
// the JSON path as flexarm-cli does.
// Text Python can hold: each byte that is not part of valid UTF-8 (a file name's, a file's) as \xNN,
// where it would otherwise make the whole message empty.
std::string validUtf8(const std::string& s);

struct ProjectRefused : std::runtime_error {
  explicit ProjectRefused(std::string message) : std::runtime_error(validUtf8(trimmed(std::move(message)))) {}
  static std::string trimmed(std::string s) {
    while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.pop_back();
    return s;
  }
};

// The project from a document, or ProjectError.
PyProject projectFromDoc(Json doc, const std::filesystem::path& base_dir);

void bindProjects(py::module_& m);
void bindResults(py::module_& m);
void bindAnalyses(py::module_& m);

}  // namespace flexarm::python
