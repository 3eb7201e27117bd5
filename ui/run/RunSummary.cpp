#include "ui/run/RunSummary.hpp"

#include <QStringList>
#include <algorithm>
#include <cmath>
#include <utility>

#include "model/SolverMethods.hpp"

namespace flexarm {
namespace {
QString percent(double fraction) { return QString::number(100.0 * fraction, 'g', 2) + " %"; }
}  // namespace

QString runMethodWords(const Results& r) {
  // The description starts with describeSolver()'s words for the method, after "auto: " when auto chose it.
  using M = SimulationSettings::Method;
  static const std::pair<const char*, M> kStarts[] = {
      {"CVODE BDF", M::Bdf},   {"CVODE Adams", M::Adams}, {"IDA", M::Ida},
      {"ARKODE", M::Dirk},     {"ESDIRK on", M::Esdirk},  {"generalized-alpha", M::GeneralizedAlpha},
      {"Newmark", M::Newmark},
  };
  const QString d = QString::fromStdString(r.solver_description);
  const bool automatic = d.startsWith("auto: ");
  const QString words = automatic ? d.mid(6) : d;
  for (const auto& [start, method] : kStarts)
    if (words.startsWith(start)) return QString::fromUtf8(solverMethod(method).label) + (automatic ? " (auto)" : "");
  return words.section(' ', 0, 1);
}

QString runErrorWords(const Results& r) {
  if (r.errors.empty()) return {};
  const ErrorEstimate* shown = nullptr;
  for (const ErrorEstimate& e : r.errors)
    if (e.group == "ee") shown = &e;
  if (!shown) {
    for (const ErrorEstimate& e : r.errors)
      if (!shown || e.relative > shown->relative) shown = &e;
  }
  QString text = "error ≤ " + percent(shown->relative);
  if (r.accuracy > 0.0) text += " (accuracy " + percent(r.accuracy) + ")";
  return text;
}

QString runErrorDetails(const Results& r) {
  QStringList lines;
  if (!r.method_choice.empty()) lines << "Method: " + QString::fromStdString(r.method_choice);
  if (!r.errors.empty()) lines << "Error estimate (a bound) per output, as a fraction of its excursion:";
  for (const ErrorEstimate& e : r.errors) {
    QString line = QString("  %1: %2 %3, %4 of its excursion")
                       .arg(QString::fromStdString(e.group))
                       .arg(e.absolute, 0, 'g', 2)
                       .arg(QString::fromStdString(e.unit))
                       .arg(percent(e.relative));
    if (e.measured >= 0.0) line += " (measured " + percent(e.measured) + ")";
    lines << line;
  }
  return lines.join('\n');
}

QString timeLeftWords(double working_seconds, double t, double t_end) {
  if (!(working_seconds >= 1.0) || !(t > 1e-3 * t_end) || !(t_end > t)) return "time left unknown";
  const double left = working_seconds * (t_end - t) / t;
  if (left < 120.0) return QString("about %1 s left").arg(std::max(1.0, std::round(left)), 0, 'f', 0);
  if (left < 7200.0) return QString("about %1 min left").arg(std::round(left / 60.0), 0, 'f', 0);
  if (left < 86400.0) return QString("about %1 h left").arg(left / 3600.0, 0, 'f', 1);
  return "more than a day left";
}

}  // namespace flexarm
