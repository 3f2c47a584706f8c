#include "components/mesh_tetra_stuffing.h"

#include <Eigen/Geometry>
#include <cmath>
#include <map>
#include <utility>

#include "components/bcc_lattice.h"
#include "components/engine_inputs.h"
#include "components/lattice_crossings.h"
#include "components/lattice_snapping.h"
#include "components/lattice_tetrahedra.h"
#include "fluxion/log.h"
#include "fluxion/text.h"

namespace fluxion::internal {

ComponentSpec MeshTetraStuffingComponent::Spec() {
  return ComponentSpec{
      .name = "MeshTetraStuffing",
      .kind = ComponentKind::kEngine,
      .summary = "Tetrahedra filling a closed surface, by isosurface stuffing (output for links)",
      .fields =
          {FieldSpec::RealList("vbbox",
                               "box to mesh: xmin ymin zmin xmax ymax zmax [m] (unset, or xmin "
                               ">= xmax: the surface's box widened by 1 %)"),
           FieldSpec::Real("size", -8.0,
                           "cell size of the lattice [m]; negative: −(cells across the box's "
                           "largest extent)"),
           FieldSpec::RealList("inputPoints", "points of the surface [m]"),
           FieldSpec::IndexList("inputTriangles", "triangles of the surface (outward normals)"),
           FieldSpec::IndexList("inputQuads", "quads of the surface (outward normals)"),
           FieldSpec::Real("alphaLong", 0.24999,
                           "snap a point when the surface cuts a long edge closer than this "
                           "[edge lengths]"),
           FieldSpec::Real("alphaShort", 0.42978,
                           "snap a point when the surface cuts a short edge closer than this "
                           "[edge lengths]"),
           FieldSpec::Bool("snapPoints", false, "move points near the surface onto it"),
           FieldSpec::Bool("splitTetrahedra", false, "cut the tetrahedra crossing the surface")
               .Alias("splitTetras")},
      .aliases = {}};
}

namespace {

using Vec = Eigen::Vector3d;

// Largest number of (triangle, bin) pairs the ray casting may sort (80 MB of indices).
constexpr double kMaxCandidates = 1e7;

// Oriented edges not matched by their reverse (0 for a closed, consistently oriented surface),
// and six times the enclosed volume (divergence theorem: Σ a · (b × c)).
std::pair<std::size_t, double> SurfaceCheck(const std::vector<Vec>& x,
                                            const std::vector<std::array<Index, 3>>& triangles) {
  std::map<std::pair<Index, Index>, long> balance;
  double volume6 = 0;
  for (const auto& t : triangles) {
    for (int k = 0; k < 3; ++k) {
      const Index a = t[static_cast<std::size_t>(k)], b = t[static_cast<std::size_t>((k + 1) % 3)];
      balance[{std::min(a, b), std::max(a, b)}] += a < b ? 1 : -1;
    }
    volume6 += x[static_cast<std::size_t>(t[0])].dot(
        x[static_cast<std::size_t>(t[1])].cross(x[static_cast<std::size_t>(t[2])]));
  }
  std::size_t unmatched = 0;
  for (const auto& [edge, count] : balance) unmatched += static_cast<std::size_t>(std::abs(count));
  return {unmatched, volume6};
}

}  // namespace

void MeshTetraStuffingComponent::Build(BuildContext& context) {
  const Parameters& p = context.parameters();
  const auto input = ReadPoints(context, "inputPoints");
  if (!input) return;
  const auto points = static_cast<Index>(input->size());
  auto triangles = ReadElements<3>(context, "inputTriangles", points);
  const auto quads = ReadElements<4>(context, "inputQuads", points);
  if (!triangles || !quads) return;
  if (input->empty() || (triangles->empty() && quads->empty())) {
    context.Error("MeshTetraStuffing has " + std::to_string(input->size()) + " input points, " +
                  std::to_string(triangles->size()) + " triangles and " +
                  std::to_string(quads->size()) +
                  " quads (expected a closed surface, e.g. inputPoints=\"@loader.position\" "
                  "inputTriangles=\"@loader.triangles\")");
    return;
  }
  for (const auto& q : *quads) {
    triangles->push_back({q[0], q[1], q[2]});
    triangles->push_back({q[0], q[2], q[3]});
  }
  std::vector<Vec> x;
  for (const Point3& q : *input) x.emplace_back(q[0], q[1], q[2]);

  // The box: vbbox, else the surface's box widened by 1 % of its extent.
  const std::vector<double>& vbbox = p.reals("vbbox");
  if (!vbbox.empty() && vbbox.size() != 6) {
    context.Error("MeshTetraStuffing 'vbbox' has " + std::to_string(vbbox.size()) +
                  " numbers (expected 6: xmin ymin zmin xmax ymax zmax)");
    return;
  }
  std::array<double, 3> low{}, high{};
  if (vbbox.size() == 6 && vbbox[0] < vbbox[3]) {
    for (int k = 0; k < 3; ++k) {
      low[k] = vbbox[static_cast<std::size_t>(k)];
      high[k] = vbbox[static_cast<std::size_t>(k + 3)];
      if (low[k] > high[k]) {
        context.Error("MeshTetraStuffing 'vbbox' has min " + FormatReal(low[k]) + " > max " +
                      FormatReal(high[k]) + " on axis " + "xyz"[k] + " (expected min <= max)");
        return;
      }
    }
  } else {
    Vec a = x[0], b = x[0];
    for (const Vec& q : x) {
      a = a.cwiseMin(q);
      b = b.cwiseMax(q);
    }
    for (int k = 0; k < 3; ++k) {
      low[k] = a[k] - (b[k] - a[k]) * 0.01;
      high[k] = b[k] + (b[k] - a[k]) * 0.01;
    }
  }

  // The cell size: `size`, or the largest extent over −size cells.
  const double size = p.real("size");
  double cell = size;
  if (size < 0) cell = std::max({high[0] - low[0], high[1] - low[1], high[2] - low[2]}) / -size;
  if (!(cell > 0) || !std::isfinite(cell)) {
    context.Error("MeshTetraStuffing 'size' " + FormatReal(size) + " gives cells of size " +
                  FormatReal(cell) +
                  " (expected a positive size, or a negative one over a box of non-zero extent)");
    return;
  }
  const double lattice_points = BccLattice::PointCount(low, high, cell);
  if (!(lattice_points <= static_cast<double>(context.max_scene_points()))) {
    context.Error("MeshTetraStuffing 'size' " + FormatReal(size) + " makes a lattice of " +
                  FormatReal(lattice_points) + " points (expected at most " +
                  std::to_string(context.max_scene_points()) +
                  ": a larger cell size, or size=\"-N\" for N cells across the box)");
    return;
  }

  const auto [unmatched, volume6] = SurfaceCheck(x, *triangles);
  if (unmatched > 0)
    context.Warn("MeshTetraStuffing's surface is not closed: " + std::to_string(unmatched) +
                 " edges are not matched by a reverse edge; inside and outside are guessed from "
                 "rays as SOFA does");
  else if (volume6 < 0)
    context.Warn("MeshTetraStuffing's surface encloses a negative volume (" +
                 FormatReal(volume6 / 6) +
                 "): its normals point inward, and SOFA's stuffing "
                 "then fills the outside (expected outward normals)");

  const BccLattice lattice(low, high, cell);
  LatticeCrossings crossings = FindCrossings(lattice, x, *triangles, kMaxCandidates);
  if (!crossings.error.empty()) {
    context.Error("MeshTetraStuffing: " + crossings.error + " (" +
                  std::to_string(triangles->size()) + " triangles over cells of size " +
                  FormatReal(cell) + "; expected a smaller lattice or a finer surface)");
    return;
  }
  // Undecided points count as outside, as in SOFA.
  for (int& vote : crossings.votes)
    if (vote == 0) vote = -1;

  std::vector<Vec> position;
  position.reserve(static_cast<std::size_t>(lattice.size()));
  for (Index i = 0; i < lattice.size(); ++i) {
    const std::array<double, 3> q = lattice.Position(i);
    position.emplace_back(q[0], q[1], q[2]);
  }
  int snapped = 0, unsnapped = 0;
  if (p.flag("snapPoints"))
    snapped = SnapToSurface(lattice, p.real("alphaLong"), p.real("alphaShort"), crossings, position,
                            unsnapped);
  const StuffedMesh mesh = MakeTetrahedra(lattice, std::move(position), crossings.votes,
                                          crossings.distance, p.flag("splitTetrahedra"));
  if (mesh.invalid_splits > 0)
    context.Warn("MeshTetraStuffing could not split " + std::to_string(mesh.invalid_splits) +
                 " tetrahedra crossing the surface consistently (SOFA's 'Invalid tetra split')");
  if (mesh.duplicate_faces > 0)
    context.Warn("MeshTetraStuffing made " + std::to_string(mesh.duplicate_faces) +
                 " faces shared by two tetrahedra on the same side (overlapping tetrahedra)");
  // Nearly flat tetrahedra: SOFA's snapping never moves an outside point that the surface passes
  // closer than alpha (its first pass only looks at edges to other outside points), so the cut
  // points on its edges to inside points gather at it.
  const double flat_volume6 = 1e-8 * cell * cell * cell / 2;  // 10⁻⁸ of a lattice tetrahedron
  std::size_t flat_count = 0;
  for (const auto& t : mesh.tetrahedra) {
    const Vec& a = mesh.points[static_cast<std::size_t>(t[0])];
    const double tet_volume6 =
        (mesh.points[static_cast<std::size_t>(t[1])] - a)
            .dot((mesh.points[static_cast<std::size_t>(t[2])] - a)
                     .cross(mesh.points[static_cast<std::size_t>(t[3])] - a));
    if (tet_volume6 < flat_volume6) ++flat_count;
  }
  if (flat_count > 0)
    context.Warn("MeshTetraStuffing made " + std::to_string(flat_count) +
                 " nearly flat tetrahedra (volume below 1e-8 of a lattice tetrahedron): cut points "
                 "gather at a lattice point the surface passes almost through (SOFA's snapping "
                 "leaves such outside points in place), or the surface is not closed (expected "
                 "none: try another 'size')");
  const auto& n = lattice.primary_counts();
  LogInfo(context.Where() + "MeshTetraStuffing: cell size " + FormatReal(cell) + ", lattice " +
          std::to_string(n[0]) + "x" + std::to_string(n[1]) + "x" + std::to_string(n[2]) +
          " + dual, " + std::to_string(snapped) + " points snapped (" + std::to_string(unsnapped) +
          " violated inside points left), " + std::to_string(mesh.cut_points) + " cut points; " +
          std::to_string(mesh.points.size()) + " points, " +
          std::to_string(mesh.tetrahedra.size()) + " tetrahedra");

  std::vector<double> flat;
  flat.reserve(3 * mesh.points.size());
  for (const Vec& q : mesh.points) flat.insert(flat.end(), {q[0], q[1], q[2]});
  std::vector<Index> tetrahedra = Flatten(mesh.tetrahedra);
  context.SetOutput("outputPoints", std::move(flat));
  context.SetOutput("outputTetras", tetrahedra);
  context.SetOutput("outputTetrahedra", std::move(tetrahedra));
}

}  // namespace fluxion::internal
