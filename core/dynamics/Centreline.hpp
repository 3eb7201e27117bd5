#pragma once
// The deformed neutral axis of every link, sampled along the link, for drawing the arm at any
// output time: r(x) = [x + u(x) - c s(x), v(x), w(x)] in the link body frame, mapped to the world.
#include <vector>

#include "dynamics/DynamicsData.hpp"

namespace flexarm {

// For each link, `samples` >= 2 world points from x = 0 to x = L (straight for rigid links).
std::vector<std::vector<Eigen::Vector3d>> deformedCentrelines(const MultibodySystem& sys, DynamicsData& data,
                                                              const Eigen::VectorXd& q, int samples);

// A scalar field along every link, at the same samples (zero for rigid links):
//  - Curvature: bending curvature magnitude sqrt(v''^2 + w''^2) [1/m];
//  - Strain: largest surface strain magnitude [-], |u'| plus the outer-fibre bending strain
//    (R |kappa| for a tube, |v''| c_y + |w''| c_z otherwise: exact at the corner of a rectangle).
enum class LinkField { Curvature, Strain };
std::vector<std::vector<double>> sampleLinkField(const MultibodySystem& sys, const Eigen::VectorXd& q, int samples,
                                                 LinkField field);

}  // namespace flexarm
