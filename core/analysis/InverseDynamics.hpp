#pragma once
// Inverse dynamics of rigid and flexible arms.
//  - Along given joint trajectories (every joint's drive `prescribed`): the drive efforts that make
//    the joints follow them, with the elastic coordinates integrated along the way (a run).
//  - Along a desired end-effector path (project.inverse, Duong et al. 2017 sec. 3): rigid inverse kinematics
//    gives joint trajectories; rigid inverse dynamics their drive efforts; these drive the flexible
//    arm forward; the flexible inverse dynamics along the rigid trajectories gives the corrected
//    efforts. The result holds, per joint, the rigid and flexible values and their deviations, the
//    rigid and corrected efforts and their deviations, and per flexible link the tip deflection and
//    slope of the forward run.
#include "model/Project.hpp"
#include "results/Results.hpp"
#include "solvers/Simulation.hpp"
#include "base/Result.hpp"

namespace flexarm {

// Empty when the project says what to follow; otherwise why inverse dynamics cannot run (bad input).
Status checkInverseDynamics(const Project& project);

// Never throws for solver or kinematics trouble: status Failed with a message naming the time.
// A project with neither a path nor prescribed drives on every joint fails with a message.
Results inverseDynamics(const Project& project, const RunControl& control = {});

// The arm with every flexible link replaced by a rigid rod of the same mass and every flexible
// joint by a rigid one (the "rigid model" of Duong et al. 2017).
Model rigidCounterpart(const Model& model);

}  // namespace flexarm
