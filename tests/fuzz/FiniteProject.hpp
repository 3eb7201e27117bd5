#pragma once
// The fuzz oracle for an accepted project: every number of the project the loader built (model,
// drives and their laws, constraints, simulation settings, inverse-dynamics path) is finite.
#include <string>

#include "model/Project.hpp"

namespace fuzz {

// Empty when every double is finite, else the field of the first one that is not and its value
// ("links[0].flex.section.A = nan").
std::string firstNonFinite(const flexarm::Project& project);

}  // namespace fuzz
