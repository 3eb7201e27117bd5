#pragma once
// A linear state-space model (StateSpace.hpp) in files that control tools read directly.
//
// .mat (MATLAB 5, through matio; MATLAB, Octave and scipy.io.loadmat read it): the double matrices
// A, B, C, D; the names as cell arrays (column) of strings: states, inputs, outputs; their units
// likewise: state_units, input_units, output_units; and the strings description (program, project,
// coupling order) and operating_point.
//
// .csv: '#' comment lines (program and project, the equations, the operating point, the units of
// the states, inputs and outputs as "# state units: rad,-,...", ...), then the four matrices one after
// the other, each as a block whose first line is "[A]" (or [B], [C], [D]) followed by the column
// names, and one line per row: the row's name and its values (round-trip precision). Blocks are
// separated by an empty line. Columns of A and C are the states, of B and D the inputs; rows of A and
// B are the states, of C and D the outputs.
#include <filesystem>
#include <ostream>
#include <string>

#include "analysis/StateSpace.hpp"
#include "base/Result.hpp"

namespace flexarm {

// The description written into the file: "FlexArm 0.9.0, project <name>, <order>-order coupling".
std::string stateSpaceDescription(const Project& project);

void writeStateSpaceCsv(const StateSpaceModel& model, const std::string& description, std::ostream& out);

// Writes `file` atomically, as .mat or .csv by its extension (any other is an error naming the file).
Status writeStateSpaceFile(const StateSpaceModel& model, const std::string& description, const std::filesystem::path& file);

}  // namespace flexarm
