#include "paraview/ParaViewSeries.hpp"

#include <vtkPolyData.h>
#include <vtkXMLPolyDataWriter.h>

#include <cmath>
#include <sstream>
#include <system_error>

#include "base/Files.hpp"
#include "base/NumberFormat.hpp"
#include "base/Text.hpp"
#include "dynamics/Centreline.hpp"
#include "model/Names.hpp"
#include "paraview/ArmSnapshot.hpp"
#include "results/RowCoordinates.hpp"

namespace fs = std::filesystem;

namespace flexarm {
namespace {

std::string point(const Eigen::Vector3d& p) {
  return "(" + formatShort(p.x(), 9) + ", " + formatShort(p.y(), 9) + ", " + formatShort(p.z(), 9) + ")";
}

// The position a results row gives in channels <prefix>x|y|z, or why not.
Result<Eigen::Vector3d> recorded(const Results& r, std::size_t row, const std::string& x, const std::string& y,
                                 const std::string& z) {
  Eigen::Vector3d p;
  int axis = 0;
  for (const std::string* name : {&x, &y, &z}) {
    const int c = r.channelIndex(*name);
    if (c < 0) return error("no channel " + inQuotes(*name));
    p(axis++) = r.value(row, static_cast<std::size_t>(c));
  }
  return p;
}

std::string frameName(const std::string& base, std::size_t k, std::size_t total) {
  const int width = std::max<int>(4, static_cast<int>(std::to_string(total > 0 ? total - 1 : 0).size()));
  std::string digits = std::to_string(k);
  return base + "_" + std::string(static_cast<std::size_t>(std::max<int>(0, width - static_cast<int>(digits.size()))), '0') +
         digits + ".vtp";
}

}  // namespace

Status checkResultsBelong(const MultibodySystem& sys, const Results& results) {
  if (sys.bodies.empty()) return error("the project has no links");
  if (results.rows() == 0) return error("the results have no rows");
  for (const std::string& name : sys.coordinates.names)
    if (results.channelIndex(name) < 0) return error("no channel " + inQuotes(name) + " of the project's coordinates");
  double reach = 0.0;
  for (const Body& b : sys.bodies) reach += b.length;
  const double tolerance = 1e-6 * std::max(reach, 1.0);
  DynamicsData data(sys);
  Eigen::VectorXd q;
  for (std::size_t row = 0; row < results.rows(); ++row) {
    const std::string at = "row " + std::to_string(row + 1) + " (t = " + formatShort(results.value(row, 0), 9) + " s)";
    coordinatesAtRow(sys, results, row, q);
    for (int k = 0; k < sys.nq; ++k)
      if (!std::isfinite(q(k))) return errorAt(at, "no value of " + inQuotes(sys.coordinates.names[static_cast<std::size_t>(k)]));
    const auto lines = deformedCentrelines(sys, data, q, 2);
    for (std::size_t i = 0; i < sys.bodies.size(); ++i) {
      const Body& b = sys.bodies[i];
      const bool last = i + 1 == sys.bodies.size();
      if (!b.isFlexible() && !last) continue;
      const Result<Eigen::Vector3d> there =
          b.isFlexible()
              ? recorded(results, row, names::linkTip(b.name, "x"), names::linkTip(b.name, "y"), names::linkTip(b.name, "z"))
              : recorded(results, row, names::endEffector('x'), names::endEffector('y'), names::endEffector('z'));
      if (!there) return there.error();
      const Eigen::Vector3d& here = b.isFlexible() ? lines[i].back() : data.frames[i].X_world_distal.translation();
      if (!((here - *there).norm() <= tolerance))
        return errorAt(at, (b.isFlexible() ? "the tip of link " : "the end of link ") + inQuotes(b.name) + " is at " +
                               point(*there) + " m in the results but at " + point(here) +
                               " m in the project: the results were computed from another model");
    }
  }
  return {};
}

SeriesOutcome writeParaViewSeries(const Model& model, const MultibodySystem& sys, const Results& results, const fs::path& dir,
                                  const SeriesOptions& options) {
  SeriesOutcome out;
  if (const Status fits = checkResultsBelong(sys, results); !fits) {
    out.error = "the results do not belong to the project: " + fits.error().text();
    return out;
  }
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (!fs::is_directory(dir)) {
    out.error = "cannot create the folder " + inQuotes(dir.string(), 200) + (ec ? ": " + ec.message() : "");
    return out;
  }
  const fs::path pvd = dir / (options.base + ".pvd");
  if (const Status writable = checkWritable(pvd); !writable) {
    out.error = writable.error().text();
    return out;
  }
  const std::size_t total = results.rows();
  DynamicsData data(sys);
  Eigen::VectorXd q;
  auto writer = vtkSmartPointer<vtkXMLPolyDataWriter>::New();
  writer->SetDataModeToBinary();
  writer->WriteToOutputStringOn();
  std::ostringstream collection;
  collection << "<?xml version=\"1.0\"?>\n"
             << "<VTKFile type=\"Collection\" version=\"0.1\" byte_order=\"LittleEndian\">\n  <Collection>\n";
  for (std::size_t row = 0; row < total; ++row) {
    if (options.progress && !options.progress(row, total)) {
      out.cancelled = true;
      return out;
    }
    coordinatesAtRow(sys, results, row, q);
    const double t = results.value(row, 0);
    writer->SetInputData(armSnapshot(model, sys, data, q, t, options.samples));
    const std::string name = frameName(options.base, row, total);
    if (writer->Write() != 1) {
      out.error = "VTK could not write " + inQuotes(name);
      return out;
    }
    if (const Status written = writeFileAtomically(dir / name, writer->GetOutputString()); !written) {
      out.error = written.error().text();
      return out;
    }
    ++out.frames;
    collection << "    <DataSet timestep=\"" << formatNumber(t) << "\" group=\"\" part=\"0\" file=\"" << name << "\"/>\n";
  }
  collection << "  </Collection>\n</VTKFile>\n";
  if (const Status written = writeFileAtomically(pvd, collection.str()); !written) {
    out.error = written.error().text();
    return out;
  }
  out.pvd = pvd;
  return out;
}

std::string describeSeriesOutcome(const SeriesOutcome& o, const fs::path& dir) {
  if (!o.error.empty()) return o.error;
  if (o.cancelled) return "ParaView export cancelled after " + std::to_string(o.frames) + " files (no .pvd written)";
  return "ParaView series: " + std::to_string(o.frames) + " .vtp files and " + o.pvd.filename().string() + " written to " +
         fs::absolute(dir).string();
}

}  // namespace flexarm
