#include "ui/run/RunAdvice.hpp"

#include <QStringList>
#include <algorithm>

namespace flexarm {
namespace {
QString names(const QStringList& list) { return list.size() == 1 ? "link " + list.front() : "links " + list.join(", "); }
}  // namespace

RunAdvice slowRunAdvice(const Project& project, int elastic_coordinates) {
  const SimulationSettings& s = project.simulation;
  QStringList causes, tries;
  const Joint* stiffest = nullptr;
  for (const Joint& j : project.model.joints)
    if (j.flex && (!stiffest || j.flex->stiffness > stiffest->flex->stiffness)) stiffest = &j;
  if (stiffest)
    causes << QString("stiff joint springs (k up to %1 %2 at %3)")
                  .arg(stiffest->flex->stiffness, 0, 'g', 3)
                  .arg(stiffest->type == JointType::Revolute ? "N m/rad" : "N/m", QString::fromStdString(stiffest->name));
  QStringList undamped;
  int elements = 0;
  for (const Link& l : project.model.links) {
    if (!l.flex) continue;
    const StructuralDamping& d = l.flex->damping;
    if (d.rayleigh_alpha == 0 && d.rayleigh_beta == 0 && d.modal_ratios.empty()) undamped << QString::fromStdString(l.name);
    if (l.flex->discretization.kind == LinkDiscretization::Kind::FiniteElements && l.flex->discretization.reduce_to == 0)
      elements += l.flex->discretization.elements;
  }
  if (!undamped.isEmpty()) causes << "undamped high modes (" + names(undamped) + ": no Rayleigh or modal damping)";
  if (elastic_coordinates > 0)
    causes << QString("%1 elastic coordinates%2")
                  .arg(elastic_coordinates)
                  .arg(elements > 0 ? QString(" (%1 elements)").arg(elements) : "");
  const bool tight_rtol = s.rtol > 0.0 && s.rtol < 1e-6;
  if (tight_rtol) causes << QString("a tight rtol (%1)").arg(s.rtol, 0, 'g', 2);
  if (s.accuracy < 1e-3) causes << QString("a tight accuracy (%1)").arg(s.accuracy, 0, 'g', 2);

  using M = SimulationSettings::Method;
  if ((s.method == M::Bdf || s.method == M::Ida) && (s.max_order == 0 || s.max_order > 2))
    tries << "simulation.solver.max_order 2";
  if (s.method != M::Auto && s.method != M::GeneralizedAlpha && s.method != M::Dirk && s.method != M::Esdirk && !s.constrained())
    tries << "method auto, or galpha (they damp the modes a step does not resolve)";
  if (!undamped.isEmpty()) tries << "a light Rayleigh damping (beta about 1e-4 s)";
  if (elements > 20) tries << "fewer elements, or reduce_to a few modes";
  if (tight_rtol) tries << "rtol 0 (from the accuracy)";
  if (s.accuracy < 1e-3) tries << "accuracy 1e-3";
  return {causes.join(", "), tries.join("; or ")};
}

}  // namespace flexarm
