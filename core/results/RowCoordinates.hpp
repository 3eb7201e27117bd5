#pragma once
// The state of a run at one of its output rows, read back from its channels: the generalized coordinates
// (q.<joint>, qm.<joint>, e.<link>.<k>) for playback, the 3D view and the centreline exports, and with
// their rates (qd.<joint>, qmd.<joint>, ed.<link>.<k>) the initial state of a run that continues it.
#include <Eigen/Core>
#include <optional>

#include "base/Result.hpp"
#include "dynamics/MultibodySystem.hpp"
#include "model/Project.hpp"
#include "results/Results.hpp"

namespace flexarm {

// Returns false (and leaves q untouched) when the row or a channel is missing.
bool coordinatesAtRow(const MultibodySystem& sys, const Results& results, std::size_t row, Eigen::VectorXd& q);

// The row at time t (within a millionth of the output interval, or of 1e-9 s), the last row when t is not
// given. An error says which times the results hold.
Result<std::size_t> rowAtTime(const Results& results, std::optional<double> t);

// Makes `project` continue the run that wrote `results` from `row`: the state there becomes the initial
// state (joints' q0 and qd0, flexible joints' torsion0 and torsiond0, flexible links' e0 and ed0, their
// initial_load dropped) and the row's time simulation.t_start. `sys` is the project's discretized system;
// its model (MultibodySystem::model, which runs start from) becomes the continued one.
// An error names the first channel of the state the results lack (results of another model), or says
// that the row's time is not before simulation.t_end; project and system are then left as they were.
Status continueFromRow(Project& project, MultibodySystem& sys, const Results& results, std::size_t row);

}  // namespace flexarm
