#include "model/Names.hpp"

namespace flexarm::names {

namespace {

bool startsWith(const std::string& s, const std::string& prefix) { return s.rfind(prefix, 0) == 0; }

bool endsWith(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

}  // namespace

std::string jointCoordinate(const std::string& joint) { return kJointPrefix + joint; }
std::string jointRate(const std::string& joint) { return "qd." + joint; }
std::string jointEffort(const std::string& joint) { return "tau." + joint; }
std::string motorCoordinate(const std::string& joint) { return kMotorPrefix + joint; }
std::string jointTorsion(const std::string& joint) { return kTorsionPrefix + joint; }
std::string elasticCoordinate(const std::string& link, int k) { return kElasticPrefix + link + "." + std::to_string(k); }
std::string linkTip(const std::string& link, const std::string& component) { return kTipPrefix + link + "." + component; }
std::string endEffector(char axis) { return std::string("ee.") + axis; }
std::string energy(const std::string& kind) { return "energy." + kind; }
std::string driveConstraint(const std::string& joint) { return "drive." + joint; }
std::string inverseDynamics(const std::string& quantity, const std::string& owner) { return quantity + "." + owner; }
std::string constraintViolation(const std::string& constraint, const std::string& level) {
  return "constraint." + constraint + "." + level;
}

std::optional<CoordinateName> parseCoordinate(const std::string& name) {
  CoordinateName c;
  if (startsWith(name, kMotorPrefix)) {
    c.kind = CoordinateName::Kind::Motor;
    c.owner = name.substr(3);
  } else if (startsWith(name, kJointPrefix)) {
    c.kind = CoordinateName::Kind::Joint;
    c.owner = name.substr(2);
  } else if (startsWith(name, kElasticPrefix)) {
    // e.<link>.<k>: the link's name may itself hold dots; k follows the last one.
    const std::size_t dot = name.rfind('.');
    if (dot <= 2) return std::nullopt;
    const std::string k = name.substr(dot + 1);
    if (k.empty() || k.size() > 9 || k.find_first_not_of("0123456789") != std::string::npos) return std::nullopt;
    c.kind = CoordinateName::Kind::Elastic;
    c.owner = name.substr(2, dot - 2);
    c.k = std::stoi(k);
    if (c.k < 1) return std::nullopt;
  } else {
    return std::nullopt;
  }
  if (c.owner.empty()) return std::nullopt;
  return c;
}

std::string coordinateRate(const std::string& coordinate) {
  const std::optional<CoordinateName> c = parseCoordinate(coordinate);
  if (!c) return {};
  switch (c->kind) {
    case CoordinateName::Kind::Joint: return jointRate(c->owner);
    case CoordinateName::Kind::Motor: return "qmd." + c->owner;
    case CoordinateName::Kind::Elastic: return "ed." + c->owner + "." + std::to_string(c->k);
  }
  return {};
}

std::string coordinateName(const CoordinateName& c) {
  switch (c.kind) {
    case CoordinateName::Kind::Joint: return jointCoordinate(c.owner);
    case CoordinateName::Kind::Motor: return motorCoordinate(c.owner);
    case CoordinateName::Kind::Elastic: return elasticCoordinate(c.owner, c.k);
  }
  return {};
}

std::string renameOwner(const std::string& coordinate, bool joint, const std::string& from, const std::string& to) {
  std::optional<CoordinateName> c = parseCoordinate(coordinate);
  if (!c || c->owner != from || (c->kind == CoordinateName::Kind::Elastic) == joint) return coordinate;
  c->owner = to;
  return coordinateName(*c);
}

bool namesCoordinateOf(const std::string& name, const std::string& joint, const std::string& link) {
  const std::optional<CoordinateName> c = parseCoordinate(name);
  if (!c) return false;
  return c->kind == CoordinateName::Kind::Elastic ? c->owner == link : c->owner == joint;
}

bool isElasticChannel(const std::string& channel) {
  return startsWith(channel, kElasticPrefix) || startsWith(channel, kElasticRatePrefix);
}

bool isTipDeflection(const std::string& channel) {
  return startsWith(channel, kTipPrefix) && (endsWith(channel, ".v") || endsWith(channel, ".w"));
}

}  // namespace flexarm::names
