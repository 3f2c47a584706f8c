#include "python_scene.h"

#include <algorithm>
#include <string_view>
#include <utility>

#include "fluxion/text.h"

namespace fluxion::runner {

namespace {

// A control byte would let the scene's text start a line of its own in a message.
bool HasControlByte(std::string_view text) { return EscapeControl(text) != text; }

}  // namespace

PythonScene::PythonScene(std::string scene, std::string xml)
    : scene_(std::move(scene)), xml_(std::move(xml)) {}

Simulation PythonScene::Load(const Host& host, const LoadOptions& options) const {
  // Errors, warnings and the lines they refer to, at the Python calls (scene/python_origins.h).
  LoadOptions generated = options;
  generated.python_origins = true;
  return host.LoadString(xml_, scene_, generated);
}

std::string PythonScene::controllers_message() const {
  std::string message = xml_.substr(std::min(xml_.size(), kControllersMark.size()));
  message = message.substr(0, message.find('\n'));
  return HasControlByte(message) ? scene_ + ": the scene has Python controllers" : message;
}

}  // namespace fluxion::runner
