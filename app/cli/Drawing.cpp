// Loads flexarm-cli-draw.so (Drawing.hpp) when a command first draws (Modules.hpp says where from).
#include "Drawing.hpp"

#include "Modules.hpp"

namespace flexarm::cli {

Drawing* loadDrawing(std::string& why) {
  static std::string error;
  static Drawing* const drawing = static_cast<Drawing*>(
      openModule({FLEXARM_DRAW_MODULE_FILE, "flexarm_cli_drawing", kDrawingInterfaceVersion, "draw", "flexarm-cli-draw"}, error));
  why = error;
  return drawing;
}

}  // namespace flexarm::cli
