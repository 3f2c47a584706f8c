#include "components/cylinder_grid_topology.h"

#include "components/grid_size.h"
#include "components/shaped_grid_fields.h"
#include "mechanics/shaped_grids.h"

namespace fluxion::internal {

ComponentSpec CylinderGridTopologyComponent::Spec() {
  ComponentSpec spec{.name = "CylinderGridTopology",
                     .kind = ComponentKind::kTopology,
                     .summary =
                         "A grid of nx×ny×nz points bent into a cylinder, with its lines, "
                         "quads and hexahedra",
                     .fields = ShapedGridFields(),
                     .aliases = {}};
  spec.fields.push_back(
      FieldSpec::Real("radius", 1.0, "radius of the cylinder [m]").GreaterThan(0));
  spec.fields.push_back(
      FieldSpec::Real("length", 1.0, "length of the cylinder along its axis [m]").AtLeast(0));
  return spec;
}

void CylinderGridTopologyComponent::Build(BuildContext& context) {
  std::array<Index, 3> n{};
  std::array<double, 3> frame_center{}, axis{};
  if (!ShapedGridSetup(context, "CylinderGridTopology", /*min_z=*/1, n, frame_center, axis)) return;
  const Parameters& p = context.parameters();
  Topology grid = MakeCylinderGrid(n, frame_center, axis, p.real("radius"), p.real("length"));
  KeepGridLists(grid, ReadGridLists(context.parameters()));
  context.SetTopology(std::move(grid));
}

}  // namespace fluxion::internal
