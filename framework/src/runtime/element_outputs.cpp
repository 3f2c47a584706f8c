// Simulation::ElementOutputs: the per-element outputs of the force fields that compute one
// (mechanics/element_output.h), at the current state.
#include <string>
#include <vector>

#include "fluxion/simulation.h"
#include "mechanics/element_output.h"
#include "runtime/simulation_access.h"
#include "runtime/simulation_impl.h"

namespace fluxion {

std::vector<ElementValues> Simulation::ElementOutputs() const {
  std::vector<ElementValues> outputs;
  for (const internal::MatrixSource& source : impl_->matrix_sources) {
    if (source.kind != ComponentMatrixKind::kStiffness || source.field == nullptr) continue;
    const auto* output = dynamic_cast<const internal::ElementOutputSource*>(source.field);
    if (output == nullptr || output->element_output() == nullptr) continue;
    const internal::ElementOutputSource::Description& description = *output->element_output();
    const ObjectModel& object = model().objects[static_cast<std::size_t>(source.object)];
    // A mapped object's force fields number its own DOFs from 0 (MappedForceField); the others
    // act in their solver node's state.
    Vector mapped_positions;
    const Vector* x = nullptr;
    if (object.mapped_from >= 0) {
      mapped_positions = position(source.object);
      x = &mapped_positions;
    } else if (object.system >= 0) {
      x = &impl_->nodes[static_cast<std::size_t>(object.system)].state.x;
    } else {
      continue;  // a static object's force fields are not built into any system
    }
    ElementValues values{source.component,
                         description.name,
                         description.unit,
                         source.object,
                         description.type,
                         description.topology,
                         {}};
    std::size_t count = 0;
    switch (description.type) {
      case ElementType::kEdge:
        count = description.topology->edges.size();
        break;
      case ElementType::kTriangle:
        count = description.topology->triangles.size();
        break;
      case ElementType::kQuad:
        count = description.topology->quads.size();
        break;
      case ElementType::kTetrahedron:
        count = description.topology->tetrahedra.size();
        break;
      case ElementType::kHexahedron:
        count = description.topology->hexahedra.size();
        break;
    }
    values.values.resize(count);
    output->ComputeElementOutput(*x, values.values);
    outputs.push_back(std::move(values));
  }
  return outputs;
}

}  // namespace fluxion
