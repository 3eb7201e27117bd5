#include "io/ProjectSchema.hpp"

#include <algorithm>

namespace flexarm::schema {

namespace {

using L = TimeFunction::Law;
using TF = TimeFunction;

LawParameter number(const char* key, const char* unit, double TF::*field, double initial, Need need = Need::Required,
                    Range range = Range::Any) {
  return {key, unit, need, range, field, nullptr, initial};
}

}  // namespace

const std::vector<LawSpec>& laws() {
  static const std::vector<LawSpec> table = {
      {L::Constant, lawName(L::Constant), 0, {number("value", "f", &TF::value, 0.0)}},
      {L::Step,
       lawName(L::Step),
       1,
       {number("t_step", "s", &TF::t_step, 0.5), number("before", "f", &TF::before, 0.0), number("after", "f", &TF::after, 1.0),
        number("rise_time", "s", &TF::rise_time, 0.2, Need::Optional, Range::NonNegative)}},
      {L::Sine,
       lawName(L::Sine),
       2,
       {number("amplitude", "f", &TF::amplitude, 1.0),
        number("frequency", "Hz", &TF::frequency, 1.0, Need::Required, Range::NonNegative),
        number("phase", "rad", &TF::phase, 0.0, Need::Optional), number("offset", "f", &TF::offset, 0.0, Need::Optional)}},
      {L::Table, lawName(L::Table), 8, {}},
      {L::Polynomial,
       lawName(L::Polynomial),
       3,
       {LawParameter{"coefficients", "", Need::Required, Range::Any, nullptr, &TF::coefficients, Json::array({0.0, 1.0})}}},
      {L::SpinUp,
       lawName(L::SpinUp),
       4,
       {number("omega0", "f/s", &TF::omega0, 1.0), number("T", "s", &TF::T, 5.0, Need::Required, Range::Positive)}},
      {L::OutAndBack,
       lawName(L::OutAndBack),
       5,
       {number("amplitude", "f", &TF::amplitude, 1.0), number("t0", "s", &TF::t0, 2.0, Need::Required, Range::Positive)}},
      {L::Cycloidal,
       lawName(L::Cycloidal),
       6,
       {number("before", "f", &TF::before, 0.0), number("after", "f", &TF::after, 1.0),
        number("T", "s", &TF::T, 1.0, Need::Required, Range::Positive), number("t_step", "s", &TF::t_step, 0.0, Need::Optional)}},
      {L::Piecewise, lawName(L::Piecewise), 7, {}},  // its pieces are read apart
  };
  return table;
}

const LawSpec& law(TimeFunction::Law l) { return laws()[static_cast<std::size_t>(l)]; }

const LawSpec* findLaw(const std::string& name) {
  for (const LawSpec& s : laws())
    if (name == s.name) return &s;
  return nullptr;
}

std::vector<std::string> lawNames() {
  std::vector<std::string> out;
  for (const LawSpec& s : laws()) out.push_back(s.name);
  return out;
}

std::vector<std::string> lawMenuNames() {
  std::vector<const LawSpec*> order;
  for (const LawSpec& s : laws()) order.push_back(&s);
  std::sort(order.begin(), order.end(), [](const LawSpec* a, const LawSpec* b) { return a->menu_position < b->menu_position; });
  std::vector<std::string> out;
  for (const LawSpec* s : order) out.push_back(s->name);
  return out;
}

Json newLaw(const std::string& name) {
  Json j = {{"law", name}};
  const LawSpec* s = findLaw(name);
  if (!s) return j;
  for (const LawParameter& p : s->parameters) j[p.key] = p.initial;
  if (s->law == L::Table) {
    j["interpolation"] = "linear";
    j["points"] = Json::array({Json::array({0.0, 0.0}), Json::array({1.0, 1.0})});
  }
  if (s->law == L::Piecewise)  // on, then off at 1 s
    j["pieces"] = Json::array({{{"from", 0.0}, {"law", newLaw("constant")}}, {{"from", 1.0}, {"law", newLaw("constant")}}});
  return j;
}

std::vector<std::string> couplingNames() { return enumNames<CouplingOrder>(couplingName); }
std::vector<std::string> methodNames() { return enumNames<SimulationSettings::Method>(methodName); }
std::vector<std::string> jacobianNames() { return enumNames<SimulationSettings::Jacobian>(jacobianName); }
std::vector<std::string> driveTypeNames() { return enumNames<JointDrive::Kind>(driveKindName); }

const SimulationSettings& simulationDefaults() {
  static const SimulationSettings defaults;
  return defaults;
}

}  // namespace flexarm::schema
