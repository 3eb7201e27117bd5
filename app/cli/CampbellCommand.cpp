// flexarm-cli campbell PROJECT --spin FROM:TO:STEP: the Campbell diagram, natural frequencies against
// a steady spin of joint 1, each mode followed by its shape (core/analysis/Campbell), for one or more
// coupling orders, written as CSV.
#include <cmath>
#include <filesystem>
#include <iostream>
#include <memory>
#include <sstream>

#include "CliSupport.hpp"
#include "Command.hpp"
#include "FiniteOutput.hpp"
#include "analysis/Campbell.hpp"
#include "base/Files.hpp"
#include "base/NumberFormat.hpp"

namespace fs = std::filesystem;

namespace flexarm::cli {

namespace {

struct CampbellOptions {
  ProjectInput project;
  std::string spin;
  std::string couplings;
  std::string out;
  int count = 6;
};

// "FROM:TO:STEP" (inclusive of TO within rounding) or one rate; an error names what is wrong.
Result<std::vector<double>> spinRates(const std::string& text) {
  std::vector<double> parts;
  std::stringstream in(text);
  std::string item;
  while (std::getline(in, item, ':')) {
    char* end = nullptr;
    const double x = std::strtod(item.c_str(), &end);
    if (item.empty() || *end != '\0' || !std::isfinite(x)) return error("--spin: \"" + item + "\" is not a number");
    parts.push_back(x);
  }
  if (parts.size() == 1) return parts;
  if (parts.size() != 3) return error("--spin: expected FROM:TO:STEP or one rate, got \"" + text + "\"");
  const double from = parts[0], to = parts[1], step = parts[2];
  if (!(step > 0.0)) return error("--spin: STEP must be > 0, got " + formatNumber(step));
  if (to < from) return error("--spin: TO must be >= FROM");
  const double n = std::floor((to - from) / step * (1.0 + 1e-12)) + 1.0;
  if (n > 10000) return error("--spin: " + formatNumber(n) + " rates; at most 10000");
  std::vector<double> rates;
  for (int k = 0; k < static_cast<int>(n); ++k) rates.push_back(from + k * step);
  return rates;
}

int campbell(const CampbellOptions& o) {
  stopAnalysisOnSignals();  // Ctrl-C stops the sweep: exit 130
  std::optional<Project> project = loadProject(o.project);
  if (!project) return kExitBadInput;
  const Result<std::vector<double>> rates = spinRates(o.spin);
  if (!rates) return fail(rates.error().text());
  if (!checkOutputFile(o.out)) return kExitBadInput;  // before the sweep, not after it
  std::vector<CouplingOrder> orders;
  if (o.couplings.empty()) {
    orders.push_back(project->coupling);
  } else {
    std::stringstream in(o.couplings);
    std::string word;
    while (std::getline(in, word, ',')) {
      bool found = false;
      for (CouplingOrder c : {CouplingOrder::Zero, CouplingOrder::Geometric, CouplingOrder::High})
        if (word == couplingName(c)) {
          orders.push_back(c);
          found = true;
        }
      if (!found) return fail("--coupling: \"" + word + "\" is not zero, geometric or high");
    }
  }
  std::ostringstream csv;
  csv << "coupling,curve,dominant,spin [rad/s],frequency [Hz],omega [rad/s],damping ratio,unstable,growth rate [1/s],match\n";
  for (CouplingOrder order : orders) {
    Project p = *project;
    p.coupling = order;
    const Result<CampbellResult> r = campbellDiagram(p, rates.value(), o.count, {}, &cancelFlag());
    if (!r && cancelFlag()) return fail("interrupted", kExitInterrupted);
    if (!r) return fail(std::string(couplingName(order)) + "-order coupling: " + r.error().text(), kExitSolverFailure);
    if (const std::string bad = nonFiniteCampbell(r.value()); !bad.empty())
      return failNonFinite(std::string(couplingName(order)) + "-order coupling, " + bad);
    for (std::size_t c = 0; c < r.value().curves.size(); ++c) {
      const CampbellCurve& curve = r.value().curves[c];
      bool reported = false;
      for (const CampbellPoint& pt : curve.points) {
        csv << couplingName(order) << "," << c + 1 << ",\"" << curve.dominant << "\"," << formatNumber(pt.spin) << ","
            << formatNumber(pt.frequency_hz) << "," << formatNumber(pt.omega) << "," << formatNumber(pt.damping_ratio) << ","
            << (pt.unstable ? "yes" : "no") << "," << formatNumber(pt.growth_rate) << "," << formatShort(pt.match, 4) << "\n";
        if (pt.unstable && !reported) {
          std::cout << couplingName(order) << "-order: curve " << c + 1 << " (" << curve.dominant << ") is unstable from "
                    << formatNumber(pt.spin) << " rad/s\n";
          reported = true;
        }
      }
    }
  }
  const fs::path out(o.out);
  if (const Status written = writeFileAtomically(out, csv.str()); !written) return fail(written.error().text());
  std::cout << "Campbell diagram: " << rates.value().size() << " spin rates x " << orders.size()
            << " coupling order(s) written to " << fs::absolute(out).string() << "\n";
  return kExitOk;
}

}  // namespace

Command campbellCommand() {
  return {"campbell", "PROJECT --spin FROM:TO:STEP [--coupling zero,high] [--count N] --out FILE.csv [--set PATH=VALUE ...]",
          "Campbell diagram: the natural frequencies of the arm linearized about a steady spin of\n"
          "joint 1 at each rate of the sweep, each mode followed through the sweep by its shape (not\n"
          "by its order, so crossing curves stay themselves), for each coupling order asked for.\n"
          "Modes that turn unstable are marked (and named on the terminal with the rate).",
          [](CLI::App& app) {
            auto o = std::make_shared<CampbellOptions>();
            addProjectArguments(app, o->project, false);
            app.add_option("--spin", o->spin, "spin rates of joint 1 [rad/s]: FROM:TO:STEP, or one rate")
                ->type_name("FROM:TO:STEP")
                ->required();
            app.add_option("--coupling", o->couplings, "coupling orders, comma-separated (default: the project's)")
                ->type_name("ORDERS");
            app.add_option("--count", o->count, "how many modes to follow (default 6)")
                ->type_name("N")
                ->check(integerBetween(1, 1000));
            app.add_option("-o,--out", o->out, "the CSV file to write")->type_name("FILE.csv")->required()->check(nonEmptyPath());
            return CommandAction([o] { return campbell(*o); });
          }};
}

}  // namespace flexarm::cli
