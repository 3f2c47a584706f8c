#include "build/node_spec.h"

#include <array>

namespace fluxion::internal {

bool IsIgnoredAttribute(const std::string& name) {
  // `depend`: an old SOFA Node attribute (ordering hints between objects) that today's SOFA
  // only warns about.
  static const std::array<const char*, 10> kBookkeeping = {
      "listening", "printLog",  "tags",    "bbox",     "componentState",
      "color",     "isToPrint", "verbose", "notMuted", "depend"};
  if (name.rfind("show", 0) == 0 || name.rfind("draw", 0) == 0) return true;
  if (name.rfind("_", 0) == 0 || name.rfind("NO", 0) == 0) return true;
  for (const char* ignored : kBookkeeping)
    if (name == ignored) return true;
  return false;
}

ComponentSpec NodeSpec() {
  return ComponentSpec{
      .name = "Node",
      .kind = ComponentKind::kNode,
      .summary = "A node of the scene graph; a solver in a node integrates the node's subtree",
      .fields = {FieldSpec::Text("name", "", "node name; the CSV ids join node names with '/'"),
                 FieldSpec::Real("dt", 0.01, "time step [s] (root node; children inherit it)")
                     .GreaterThan(0),
                 FieldSpec::RealList("gravity",
                                     "gravity [m/s²], always 3 numbers; Vec1/Vec2 objects use the "
                                     "first 1/2 (root node; children inherit it)")
                     .DefaultText("0 -9.81 0"),
                 FieldSpec::Real("time", 0.0, "start time [s]"),
                 FieldSpec::Bool("animate", false, "SOFA option, ignored"),
                 FieldSpec::Bool("multiThreadSimulation", false, "SOFA option, ignored"),
                 FieldSpec::Bool("activated", true,
                                 "SOFA option; only activated nodes are supported")},
      .aliases = {}};
}

}  // namespace fluxion::internal
