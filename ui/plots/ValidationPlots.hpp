#pragma once
// The figures of the validation report (docs/validation.md), drawn from the runs' CSVs by the same
// export path as every other plot: report_dir/validation/<stem>.png.
#include <filesystem>
#include <string>

#include "ui/plots/PlotExport.hpp"
#include "validation/SeedValidation.hpp"

namespace flexarm {

// Draws the plot and sets plot.image (relative to report_dir). Returns "" or the reason.
std::string drawValidationPlot(ValidationPlot& plot, const std::filesystem::path& report_dir, const ExportSize& size);

}  // namespace flexarm
