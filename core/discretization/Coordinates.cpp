#include "discretization/Coordinates.hpp"

#include "discretization/FlexibleBody.hpp"
#include "model/Names.hpp"

namespace flexarm {

Coordinates Coordinates::of(const Model& model) {
  Coordinates c;
  auto add = [&](std::string name, CoordinateKind kind) {
    c.names.push_back(std::move(name));
    c.kinds.push_back(kind);
    return c.size() - 1;
  };
  for (std::size_t i = 0; i < model.links.size() && i < model.joints.size(); ++i) {
    const Link& link = model.links[i];
    const Joint& joint = model.joints[i];
    OfLink l;
    l.link = link.name;
    l.joint = joint.name;
    l.revolute = joint.type == JointType::Revolute;
    l.q = add(names::jointCoordinate(joint.name), CoordinateKind::Joint);
    if (joint.flex) l.motor = add(names::motorCoordinate(joint.name), CoordinateKind::Motor);
    l.e_first = c.size();
    if (link.flex) {
      l.e_count = elasticCoordinateCount(*link.flex, link.length);
      for (int k = 0; k < l.e_count; ++k) add(names::elasticCoordinate(link.name, k + 1), CoordinateKind::Elastic);
    }
    c.links.push_back(std::move(l));
  }
  return c;
}

int Coordinates::index(const std::string& name) const {
  const std::optional<names::CoordinateName> c = names::parseCoordinate(name);
  if (!c) return -1;
  for (const OfLink& l : links) {
    switch (c->kind) {
      case names::CoordinateName::Kind::Joint:
        if (c->owner == l.joint) return l.q;
        break;
      case names::CoordinateName::Kind::Motor:
        if (c->owner == l.joint) return l.motor;
        break;
      case names::CoordinateName::Kind::Elastic:
        if (c->owner == l.link) return c->k <= l.e_count ? l.e_first + c->k - 1 : -1;
        break;
    }
  }
  return -1;
}

std::string Coordinates::unit(int k) const {
  if (k < 0 || k >= size() || kinds[static_cast<std::size_t>(k)] == CoordinateKind::Elastic) return "-";
  for (const OfLink& l : links)
    if (k == l.q || k == l.motor) return l.revolute ? "rad" : "m";
  return "-";
}

}  // namespace flexarm
