#include "fuzz/FiniteProject.hpp"

#include <cmath>
#include <sstream>
#include <vector>

namespace fuzz {
namespace {

using namespace flexarm;

// Visits numbers by name and remembers the first that is not finite.
class Checker {
 public:
  void number(const std::string& path, double x) {
    if (found_.empty() && !std::isfinite(x)) {
      std::ostringstream s;
      s << path << " = " << x;
      found_ = s.str();
    }
  }
  template <class Derived>
  void matrix(const std::string& path, const Eigen::MatrixBase<Derived>& m) {
    for (Eigen::Index i = 0; i < m.size(); ++i) number(path + "(" + std::to_string(i) + ")", m(i));
  }
  void list(const std::string& path, const std::vector<double>& v) {
    for (std::size_t i = 0; i < v.size(); ++i) number(path + "[" + std::to_string(i) + "]", v[i]);
  }
  void optional(const std::string& path, const std::optional<double>& x) {
    if (x) number(path, *x);
  }
  const std::string& found() const { return found_; }

 private:
  std::string found_;
};

void law(Checker& c, const std::string& p, const TimeFunction& f) {
  c.number(p + ".value", f.value);
  c.number(p + ".before", f.before);
  c.number(p + ".after", f.after);
  c.number(p + ".t_step", f.t_step);
  c.number(p + ".rise_time", f.rise_time);
  c.number(p + ".amplitude", f.amplitude);
  c.number(p + ".frequency", f.frequency);
  c.number(p + ".phase", f.phase);
  c.number(p + ".offset", f.offset);
  c.list(p + ".coefficients", f.coefficients);
  c.number(p + ".omega0", f.omega0);
  c.number(p + ".T", f.T);
  c.number(p + ".t0", f.t0);
  c.list(p + ".table_t", f.table_t);
  c.list(p + ".table_value", f.table_value);
  c.list(p + ".spline_m", f.spline_m);
}

void flex(Checker& c, const std::string& p, const FlexibleLink& f) {
  c.number(p + ".section.A", f.section.A);
  c.number(p + ".section.Iy", f.section.Iy);
  c.number(p + ".section.Iz", f.section.Iz);
  c.number(p + ".section.J", f.section.J);
  if (const auto& s = f.section_preset) {
    c.number(p + ".section.width", s->width);
    c.number(p + ".section.height", s->height);
    c.number(p + ".section.outer_diameter", s->outer_diameter);
    c.number(p + ".section.inner_diameter", s->inner_diameter);
    c.number(p + ".section.flange_thickness", s->flange_thickness);
    c.number(p + ".section.web_thickness", s->web_thickness);
  }
  c.number(p + ".material.E", f.material.E);
  c.number(p + ".material.G", f.material.G);
  c.number(p + ".material.rho", f.material.rho);
  c.list(p + ".nodes", f.discretization.nodes);
  c.number(p + ".damping.rayleigh_alpha", f.damping.rayleigh_alpha);
  c.number(p + ".damping.rayleigh_beta", f.damping.rayleigh_beta);
  c.list(p + ".damping.modal", f.damping.modal_ratios);
  c.list(p + ".e0", f.e0);
  if (f.initial_load) c.matrix(p + ".initial_load", *f.initial_load);
}

}  // namespace

std::string firstNonFinite(const Project& project) {
  Checker c;
  const Model& m = project.model;
  c.matrix("gravity", m.gravity);
  for (std::size_t i = 0; i < m.links.size(); ++i) {
    const Link& l = m.links[i];
    const std::string p = "links[" + std::to_string(i) + "]";
    c.number(p + ".length", l.length);
    c.number(p + ".mass", l.mass);
    if (l.shape) {
      c.number(p + ".shape.width", l.shape->width);
      c.number(p + ".shape.height", l.shape->height);
      c.number(p + ".shape.radius", l.shape->radius);
      c.number(p + ".shape.inner_radius", l.shape->inner_radius);
    }
    c.matrix(p + ".com", l.com);
    c.matrix(p + ".inertia", l.inertia);
    if (l.flex) flex(c, p + ".flex", *l.flex);
    if (!l.flex) {  // what the dynamics takes from a rigid link
      const RigidInertia ri = l.rigidInertia();
      c.number(p + ".rigid.mass", ri.mass);
      c.matrix(p + ".rigid.com", ri.com);
      c.matrix(p + ".rigid.inertia", ri.inertia_com);
    }
  }
  for (std::size_t i = 0; i < m.joints.size(); ++i) {
    const Joint& j = m.joints[i];
    const std::string p = "joints[" + std::to_string(i) + "]";
    c.matrix(p + ".axis", j.axis);
    c.matrix(p + ".placement.xyz", j.placement.xyz);
    c.matrix(p + ".placement.rpy", j.placement.rpy);
    c.number(p + ".q0", j.q0);
    c.number(p + ".qd0", j.qd0);
    c.number(p + ".damping", j.damping);
    c.number(p + ".mass", j.mass);
    if (j.flex) {
      c.number(p + ".flex.stiffness", j.flex->stiffness);
      c.number(p + ".flex.damping", j.flex->damping);
      c.number(p + ".flex.rotor_inertia", j.flex->rotor_inertia);
      c.number(p + ".flex.gear_ratio", j.flex->gear_ratio);
    }
    law(c, p + ".drive.law", j.drive.law);
    c.number(p + ".drive.kp", j.drive.kp);
    c.number(p + ".drive.kd", j.drive.kd);
    c.optional(p + ".limits.lower", j.limits.lower);
    c.optional(p + ".limits.upper", j.limits.upper);
    c.optional(p + ".limits.effort", j.limits.effort);
    c.optional(p + ".limits.velocity", j.limits.velocity);
  }
  for (std::size_t i = 0; i < m.payloads.size(); ++i) {
    const Payload& pl = m.payloads[i];
    const std::string p = "payloads[" + std::to_string(i) + "]";
    c.matrix(p + ".offset", pl.offset);
    c.number(p + ".mass", pl.mass);
    c.matrix(p + ".inertia", pl.inertia);
  }
  for (std::size_t i = 0; i < m.constraints.size(); ++i) {
    const Constraint& k = m.constraints[i];
    const std::string p = "constraints[" + std::to_string(i) + "]";
    for (std::size_t t = 0; t < k.terms.size(); ++t) c.number(p + ".terms[" + std::to_string(t) + "]", k.terms[t].second);
    law(c, p + ".value", k.value);
    c.matrix(p + ".point", k.point);
    c.matrix(p + ".world", k.world);
    c.matrix(p + ".other_point", k.other_point);
    c.matrix(p + ".axis", k.axis);
    c.number(p + ".position", k.position);
  }
  const SimulationSettings& s = project.simulation;
  c.number("simulation.t_end", s.t_end);
  c.number("simulation.output_rate", s.output_rate);
  c.number("simulation.rtol", s.rtol);
  c.number("simulation.atol", s.atol);
  c.number("simulation.max_step", s.max_step);
  c.number("simulation.initial_step", s.initial_step);
  c.number("simulation.rho_inf", s.rho_inf);
  c.number("simulation.step", s.step);
  c.number("simulation.newmark_alpha", s.newmark_alpha);
  c.number("simulation.newmark_delta", s.newmark_delta);
  c.number("simulation.baumgarte_gamma", s.baumgarte_gamma);
  c.number("simulation.baumgarte_beta", s.baumgarte_beta);
  c.number("simulation.divergence_ratio", s.divergence_ratio);
  if (project.inverse) {
    const char* axes[3] = {"x", "y", "z"};
    for (std::size_t a = 0; a < 3; ++a)
      if (project.inverse->path[a]) law(c, std::string("inverse_dynamics.path.") + axes[a], *project.inverse->path[a]);
  }
  return c.found();
}

}  // namespace fuzz
