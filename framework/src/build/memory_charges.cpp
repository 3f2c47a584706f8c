#include "build/memory_charges.h"

#include <variant>

namespace fluxion::internal {

namespace {

struct StructureCount {
  std::size_t nodes = 0, components = 0, attributes = 0;
};

void Count(const NodeDescription& node, StructureCount& count) {
  count.nodes += 1;
  count.attributes += node.attributes.size();
  for (const ElementDescription& element : node.components) {
    count.components += 1;
    count.attributes += element.attributes.size();
  }
  for (const NodeDescription& child : node.children) Count(child, count);
}

}  // namespace

bool ChargeSceneStructure(BuildState& state) {
  StructureCount count;
  Count(state.scene.root, count);
  const double bytes = static_cast<double>(count.nodes) * kBytesPerNode +
                       static_cast<double>(count.components) * kBytesPerComponent +
                       static_cast<double>(count.attributes) * kBytesPerAttribute;
  state.data_bytes += bytes;
  if (state.estimated_bytes() <= state.memory.bytes) return true;
  state.problems.Scene(state.scene.root.line, "the scene has " + std::to_string(count.nodes) +
                                                  " nodes and " + std::to_string(count.components) +
                                                  " components: about " + FormatBytes(bytes) +
                                                  " of memory to build (expected at most " +
                                                  state.MemoryBudgetText() + ")");
  return false;
}

double HeldBytes(const FieldValue& value) {
  struct Size {
    double operator()(const std::string& text) const { return static_cast<double>(text.size()); }
    double operator()(const std::vector<double>& list) const {
      return static_cast<double>(list.size() * sizeof(double));
    }
    double operator()(const std::vector<Index>& list) const {
      return static_cast<double>(list.size() * sizeof(Index));
    }
    // A scalar: counted with its component.
    double operator()(bool) const { return 0.0; }
    double operator()(long) const { return 0.0; }
    double operator()(double) const { return 0.0; }
  };
  return std::visit(Size{}, value);
}

void ChargeData(BuildState& state, double bytes, int line, const std::string& what) {
  state.data_bytes += bytes;
  if (state.estimated_bytes() <= state.memory.bytes) return;
  state.problems.Scene(line, what + " holds " + FormatBytes(bytes) +
                                 ", which brings the scene to about " +
                                 FormatBytes(state.estimated_bytes()) +
                                 " of memory (expected at most " + state.MemoryBudgetText() + ")");
  state.problems.ThrowIfAny();
}

}  // namespace fluxion::internal
