#pragma once
// Whether a model's constraints can be built on its discretization: every coordinate they name
// exists, a point of a flexible link lies on it, a sliding support holds a flexible link on a prismatic
// joint along its axis. What only the coordinates can tell, checked without building the dynamics
// (the reader checks a project with it; ConstraintSet::build starts with it).
#include "base/Result.hpp"
#include "discretization/Coordinates.hpp"
#include "model/Model.hpp"

namespace flexarm {

// The first problem, naming the constraint ("constraint 'hold': no coordinate named ...").
Status checkConstraints(const Model& model, const Coordinates& coordinates);

}  // namespace flexarm
