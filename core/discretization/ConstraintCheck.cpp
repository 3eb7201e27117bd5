#include "discretization/ConstraintCheck.hpp"

#include <cmath>
#include <utility>

#include "base/NumberFormat.hpp"
#include "base/Text.hpp"

namespace flexarm {

Status checkConstraints(const Model& model, const Coordinates& coordinates) {
  for (std::size_t c = 0; c < model.constraints.size(); ++c) {
    const Constraint& k = model.constraints[c];
    const std::string where = "constraint '" + excerpt(k.name) + "'";
    switch (k.kind) {
      case Constraint::Kind::Coordinates: {
        Eigen::VectorXd a = Eigen::VectorXd::Zero(coordinates.size());
        for (const auto& [name, coef] : k.terms) {
          const int i = coordinates.index(name);
          if (i < 0)
            return errorAt(where, "no coordinate named " + inQuotes(name) + " (use q.<joint>, qm.<joint> or e.<link>.<k>)");
          a(i) += coef;
        }
        if (a.norm() == 0.0) return errorAt(where, "all coefficients are zero");
        break;
      }
      case Constraint::Kind::Point:
      case Constraint::Kind::Revolute:
      case Constraint::Kind::Prismatic: {
        // A point of a flexible link is a section of it.
        for (const auto& [index, point] : {std::pair{k.link, k.point}, std::pair{k.other_link, k.other_point}}) {
          if (index < 0) continue;
          const Link& link = model.links[static_cast<std::size_t>(index)];
          if (link.flex && !(point.x() >= 0.0 && point.x() <= link.length))
            return errorAt(where, "a point of the flexible link '" + link.name +
                                      "' sits at a section x = point[0] between 0 and its length " + formatNumber(link.length) +
                                      " m, got " + formatNumber(point.x()));
        }
        if (k.other_link == k.link)
          return errorAt(where, "joins link '" + model.links[static_cast<std::size_t>(k.link)].name + "' to itself");
        if (k.kind == Constraint::Kind::Point && !k.axes[0] && !k.axes[1] && !k.axes[2]) return errorAt(where, "no axis is held");
        if (k.kind != Constraint::Kind::Point && !(k.axis.norm() > 1e-12)) return errorAt(where, "the axis is the zero vector");
        break;
      }
      case Constraint::Kind::SlidingSupport: {
        const Link& link = model.links[static_cast<std::size_t>(k.link)];
        const Joint& joint = model.joints[static_cast<std::size_t>(k.link)];
        if (!link.flex) return errorAt(where, "link '" + link.name + "' is rigid; a sliding support holds a flexible link");
        if (joint.type != JointType::Prismatic || std::abs(std::abs(joint.axis.normalized().x()) - 1.0) > 1e-9)
          return errorAt(where, "the joint of link '" + link.name +
                                    "' must be prismatic along the link's x axis (±[1, 0, 0]) for it to slide through a support");
        for (std::size_t o = 0; o < c; ++o) {
          const Constraint& other = model.constraints[o];
          if (other.kind == Constraint::Kind::SlidingSupport && other.link == k.link &&
              std::abs(other.position - k.position) < 1e-12)
            return errorAt(where, "another support of link '" + link.name + "' sits at the same position");
        }
        break;
      }
    }
  }
  return {};
}

}  // namespace flexarm
