#pragma once
// The arm at one state as ParaView sees it: the deformed centreline of every link as a polyline of
// `samples` points from x = 0 to x = L (core/dynamics/Centreline), with point data
//   displacement [m]  deformed point minus the same point of the undeformed arm at the same joint
//                     coordinates (the workbench's ghost), in world axes ("Warp By Vector" with -1
//                     draws the undeformed arm);
//   curvature [1/m], strain [-]  bending curvature and largest surface strain (LinkField);
//   link_id           the link's index (from 0);
//   kind              0 centreline, 1 joint, 2 payload;
// then every joint (at its frame's origin: the parent's distal frame with the placement) and every
// payload (at its centre of mass) as a vertex, with link_id the link it drives or sits on. Field data:
// TimeValue (ParaView's time of a data set) and the link, joint and payload names by index.
#include <vtkSmartPointer.h>

#include <Eigen/Core>

#include "dynamics/DynamicsData.hpp"
#include "model/Project.hpp"

class vtkPolyData;

namespace flexarm {

enum class SnapshotPointKind { Centreline = 0, Joint = 1, Payload = 2 };

// `data` is work space of `sys` (its frames are left at the state q).
vtkSmartPointer<vtkPolyData> armSnapshot(const Model& model, const MultibodySystem& sys, DynamicsData& data,
                                         const Eigen::VectorXd& q, double t, int samples);

}  // namespace flexarm
