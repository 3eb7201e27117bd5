#include "model/RigidInertia.hpp"

#include <Eigen/Eigenvalues>
#include <cmath>
#include <sstream>

namespace flexarm {

const char* shapeName(ShapePreset::Kind kind) {
  switch (kind) {
    case ShapePreset::Kind::Rod: return "rod";
    case ShapePreset::Kind::Box: return "box";
    case ShapePreset::Kind::Cylinder: return "cylinder";
    case ShapePreset::Kind::Tube: return "tube";
  }
  return "?";
}

RigidInertia inertiaFromShape(const ShapePreset& shape, double m, double L) {
  RigidInertia out;
  out.mass = m;
  out.com = Eigen::Vector3d(0.5 * L, 0.0, 0.0);
  double ixx = 0.0, iyy = 0.0, izz = 0.0;
  switch (shape.kind) {
    case ShapePreset::Kind::Rod:  // slender rod: no inertia about its own axis
      iyy = izz = m * L * L / 12.0;
      break;
    case ShapePreset::Kind::Box: {
      const double b = shape.width, h = shape.height;
      ixx = m * (b * b + h * h) / 12.0;
      iyy = m * (L * L + h * h) / 12.0;
      izz = m * (L * L + b * b) / 12.0;
      break;
    }
    case ShapePreset::Kind::Cylinder: {
      const double r = shape.radius;
      ixx = 0.5 * m * r * r;
      iyy = izz = m * (3.0 * r * r + L * L) / 12.0;
      break;
    }
    case ShapePreset::Kind::Tube: {
      const double r2 = shape.radius * shape.radius + shape.inner_radius * shape.inner_radius;
      ixx = 0.5 * m * r2;
      iyy = izz = m * (3.0 * r2 + L * L) / 12.0;
      break;
    }
  }
  out.inertia_com = inertiaFromComponents(ixx, iyy, izz, 0.0, 0.0, 0.0);
  return out;
}

Eigen::Matrix3d inertiaFromComponents(double ixx, double iyy, double izz, double ixy, double ixz, double iyz) {
  Eigen::Matrix3d I;
  I << ixx, ixy, ixz, ixy, iyy, iyz, ixz, iyz, izz;
  return I;
}

Status checkInertia(const Eigen::Matrix3d& I) {
  if (!I.allFinite()) return error("inertia has non-finite entries");
  const double scale = std::max(I.cwiseAbs().maxCoeff(), 1e-300);
  const double tol = 1e-9 * scale;
  Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d> eig(I, Eigen::EigenvaluesOnly);
  const Eigen::Vector3d p = eig.eigenvalues();
  std::ostringstream os;
  if (p.minCoeff() < -tol) {
    os << "inertia is not positive semi-definite (principal moments " << p(0) << ", " << p(1) << ", " << p(2) << ")";
    return error(os.str());
  }
  if (p(0) + p(1) < p(2) - tol) {
    os << "principal moments " << p(0) << ", " << p(1) << ", " << p(2) << " violate the triangle inequality";
    return error(os.str());
  }
  return {};
}

RigidInertia transformInertia(const Eigen::Isometry3d& X, const RigidInertia& body) {
  RigidInertia out;
  out.mass = body.mass;
  out.com = X * body.com;
  out.inertia_com = X.linear() * body.inertia_com * X.linear().transpose();
  return out;
}

RigidInertia combineInertias(const std::vector<RigidInertia>& bodies) {
  if (bodies.size() == 1) return bodies.front();
  RigidInertia out;
  Eigen::Vector3d first_moment = Eigen::Vector3d::Zero();
  for (const RigidInertia& b : bodies) {
    out.mass += b.mass;
    first_moment += b.mass * b.com;
  }
  if (out.mass > 0.0) out.com = first_moment / out.mass;
  for (const RigidInertia& b : bodies) {
    const Eigen::Vector3d d = b.com - out.com;
    out.inertia_com += b.inertia_com + b.mass * (d.squaredNorm() * Eigen::Matrix3d::Identity() - d * d.transpose());
  }
  return out;
}

}  // namespace flexarm
