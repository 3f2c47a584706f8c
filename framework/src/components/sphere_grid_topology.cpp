#include "components/sphere_grid_topology.h"

#include "components/grid_size.h"
#include "components/shaped_grid_fields.h"
#include "mechanics/shaped_grids.h"

namespace fluxion::internal {

ComponentSpec SphereGridTopologyComponent::Spec() {
  ComponentSpec spec{.name = "SphereGridTopology",
                     .kind = ComponentKind::kTopology,
                     .summary =
                         "A grid of nx×ny×nz points squeezed onto a ball, with its lines, "
                         "quads and hexahedra",
                     .fields = ShapedGridFields(),
                     .aliases = {}};
  spec.fields.push_back(FieldSpec::Real("radius", 1.0, "radius of the ball [m]").GreaterThan(0));
  return spec;
}

void SphereGridTopologyComponent::Build(BuildContext& context) {
  std::array<Index, 3> n{};
  std::array<double, 3> center{}, axis{};
  if (!ShapedGridSetup(context, "SphereGridTopology", /*min_z=*/2, n, center, axis)) return;
  Topology grid = MakeSphereGrid(n, center, axis, context.parameters().real("radius"));
  KeepGridLists(grid, ReadGridLists(context.parameters()));
  context.SetTopology(std::move(grid));
}

}  // namespace fluxion::internal
