#include "components/sparse_grid_topology.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "components/point_selection.h"
#include "components/sparse_grid_surface.h"
#include "fluxion/text.h"
#include "mechanics/regular_grid.h"
#include "mechanics/sparse_grid.h"
#include "mechanics/sparse_grid_ramification.h"

namespace fluxion::internal {

namespace {

// The fields of SparseGridTopology, which SparseGridRamificationTopology has too.
std::vector<FieldSpec> SparseGridFields() {
  const char* kVoxelOption = "SOFA's voxel-file option (.voxel, .raw): accepted, unused";
  return {FieldSpec::Text("fileTopology", "",
                          "the closed surface mesh (.obj): found next to the scene, then in the "
                          "data folders (README, 'Files and safety')")
              .Alias("filename"),
          FieldSpec::IndexList("n", "grid points along x, y, z (each ≥ 2)").DefaultText("2 2 2"),
          FieldSpec::RealList("min", "grid corner [m] (with max 0 0 0: the mesh's box + 1 %)")
              .DefaultText("0 0 0"),
          FieldSpec::RealList("max", "opposite grid corner [m]").DefaultText("0 0 0"),
          FieldSpec::Real("cellWidth", 0.0, "if > 0: the cell size [m], which sets n").AtLeast(0),
          FieldSpec::Integer("nbVirtualFinerLevels", 0,
                             "voxelize on a grid 2^L times finer, then coarsen L times")
              .AtLeast(0)
              .AtMost(16),
          FieldSpec::Bool("fillWeighted", true,
                          "boundary cells get the stiffness and mass coefficient 0.5 (else 1)"),
          FieldSpec::Bool("onlyInsideCells", false, "keep only the cells inside the surface"),
          FieldSpec::RealList("position", "surface vertices [m] when there is no fileTopology"),
          FieldSpec::IndexList("triangles", "surface triangles when there is no fileTopology"),
          FieldSpec::IndexList("quads", "surface quads when there is no fileTopology"),
          FieldSpec::IndexList("dataResolution", kVoxelOption).DefaultText("0 0 0"),
          FieldSpec::RealList("voxelSize", kVoxelOption).DefaultText("1 1 1"),
          FieldSpec::Integer("marchingCubeStep", 1, kVoxelOption),
          FieldSpec::Integer("convolutionSize", 0, kVoxelOption),
          FieldSpec::IndexList("dataVoxels", kVoxelOption)};
}

// Reads a 3-number list field into `out`; false after reporting.
bool ReadTriple(BuildContext& context, const char* field, std::array<double, 3>& out) {
  const std::vector<double>& list = context.parameters().reals(field);
  if (list.size() != 3) {
    context.Error(context.type() + " '" + std::string(field) + "' has " +
                  std::to_string(list.size()) + " numbers (expected 3)");
    return false;
  }
  std::copy(list.begin(), list.end(), out.begin());
  return true;
}

// The grid's box: min and max as given, or (both 0 0 0, SOFA's defaults) the vertices' bounding
// box grown by 1 % of its size on each side (SOFA's buildFromTriangleMesh).
bool GridBox(BuildContext& context, const Surface& surface, VoxelGrid& grid) {
  if (!ReadTriple(context, "min", grid.min) || !ReadTriple(context, "max", grid.max)) return false;
  const std::array<double, 3> zero = {0.0, 0.0, 0.0};
  if (grid.min == zero && grid.max == zero) {
    grid.min = grid.max = surface.vertices.front();
    for (const auto& v : surface.vertices)
      for (int a = 0; a < 3; ++a) {
        grid.min[a] = std::min(grid.min[a], v[a]);
        grid.max[a] = std::max(grid.max[a], v[a]);
      }
    for (int a = 0; a < 3; ++a) {
      const double grow = (grid.max[a] - grid.min[a]) / 100.0;
      grid.min[a] -= grow;
      grid.max[a] += grow;
    }
  }
  for (int a = 0; a < 3; ++a)
    if (!(grid.min[a] < grid.max[a])) {
      context.Error(context.type() + "'s grid is flat along " + std::string(1, "xyz"[a]) +
                    " (min " + FormatReal(grid.min[a]) + ", max " + FormatReal(grid.max[a]) +
                    "; expected min < max: a mesh with volume, or a min and max that say so)");
      return false;
    }
  return true;
}

// The points per axis: n, or ⌈size/cellWidth⌉ + 1 (SOFA's cellWidth), then refined for the
// virtual finer levels, (n − 1)·2^L + 1; false after reporting a size below 2 or beyond what the
// scene may allocate (the voxelization holds a few bytes per grid point; the limit is the one on
// scene points, which are charged far more).
bool GridPoints(BuildContext& context, VoxelGrid& grid, long levels) {
  const Parameters& p = context.parameters();
  std::array<double, 3> count{};
  const double width = p.real("cellWidth");
  if (width > 0 && levels == 0) {  // SOFA's virtual finer levels take n, never cellWidth
    for (int a = 0; a < 3; ++a) count[a] = std::ceil((grid.max[a] - grid.min[a]) / width) + 1;
  } else {
    const std::vector<Index>& n = p.indices("n");
    if (n.size() != 3) {
      context.Error(context.type() + " 'n' has " + std::to_string(n.size()) +
                    " numbers (expected 3: nx ny nz)");
      return false;
    }
    for (int a = 0; a < 3; ++a) {
      if (n[static_cast<std::size_t>(a)] < 2) {
        context.Error(context.type() + " 'n' is " + p.source_text("n") +
                      " (expected at least 2 points along each axis: one cell)");
        return false;
      }
      count[a] = static_cast<double>(n[static_cast<std::size_t>(a)]);
    }
  }
  double total = 1.0;
  for (int a = 0; a < 3; ++a) {
    count[a] = (count[a] - 1) * std::ldexp(1.0, static_cast<int>(levels)) + 1;
    total *= count[a];
  }
  const Index limit = std::min<Index>(kMaxGridPoints, context.max_scene_points());
  if (total + static_cast<double>(context.topology_points()) > static_cast<double>(limit)) {
    context.Error(context.type() + "'s regular grid of " + FormatReal(count[0]) + "×" +
                  FormatReal(count[1]) + "×" + FormatReal(count[2]) + " points is too large " +
                  "(expected " + PointLimitText(context, limit) + ")");
    return false;
  }
  for (int a = 0; a < 3; ++a) grid.n[a] = static_cast<Index>(count[a]);
  return true;
}

// Both components: the surface voxelized on the finest grid, then coarsened level by level
// (SparseGridTopology's buildFromFiner, or the ramification's).
void BuildSparseGrid(BuildContext& context, bool ramified) {
  const Parameters& p = context.parameters();
  const std::optional<Surface> surface = ReadSparseGridSurface(context);
  if (!surface) return;
  VoxelGrid grid;
  const long levels = p.integer("nbVirtualFinerLevels");
  if (!GridBox(context, *surface, grid) || !GridPoints(context, grid, levels)) return;
  // SOFA voxelizes the finest level; each coarser one is made from the one below.
  const std::vector<CellKind> kinds = VoxelizeSurface(grid, surface->vertices, surface->triangles);
  Topology topology;
  if (ramified) {
    const RamificationOptions options{.levels = levels,
                                      .finest_connectivity = p.flag("finestConnectivity"),
                                      .only_inside = p.flag("onlyInsideCells"),
                                      .fill_weighted = p.flag("fillWeighted")};
    topology =
        MakeRamifiedSparseGrid(grid, kinds, options, surface->vertices, surface->facet_edges);
  } else {
    topology = MakeSparseGrid(grid, kinds, levels == 0 && p.flag("onlyInsideCells"),
                              p.flag("fillWeighted"));
    for (long level = 0; level < levels; ++level) topology = CoarsenSparseGrid(topology);
  }
  if (topology.hexahedra.empty()) {
    context.Error(context.type() + " keeps no cell of its " + std::to_string(grid.n[0]) + "×" +
                  std::to_string(grid.n[1]) + "×" + std::to_string(grid.n[2]) +
                  " grid (expected a surface that crosses or encloses some cell" +
                  (p.flag("onlyInsideCells")
                       ? std::string(": onlyInsideCells drops the boundary cells")
                       : std::string()) +
                  ")");
    return;
  }
  context.SetTopology(std::move(topology));
}

}  // namespace

ComponentSpec SparseGridTopologyComponent::Spec() {
  return ComponentSpec{.name = "SparseGridTopology",
                       .kind = ComponentKind::kTopology,
                       .summary =
                           "The cells of a regular grid that a closed surface mesh crosses or "
                           "encloses, as hexahedra",
                       .fields = SparseGridFields(),
                       .aliases = {}};
}

void SparseGridTopologyComponent::Build(BuildContext& context) { BuildSparseGrid(context, false); }

ComponentSpec SparseGridRamificationTopologyComponent::Spec() {
  std::vector<FieldSpec> fields = SparseGridFields();
  fields.push_back(FieldSpec::Bool(
      "finestConnectivity", true,
      "test the connection of boundary cells at the finest level: two neighbours are apart "
      "unless a surface edge crosses their common face (slower, finer)"));
  return ComponentSpec{.name = "SparseGridRamificationTopology",
                       .kind = ComponentKind::kTopology,
                       .summary =
                           "A sparse grid whose hexahedra each hold one connected part of the "
                           "object: a cell holding parts apart becomes several hexahedra",
                       .fields = std::move(fields),
                       .aliases = {}};
}

void SparseGridRamificationTopologyComponent::Build(BuildContext& context) {
  BuildSparseGrid(context, true);
}

}  // namespace fluxion::internal
