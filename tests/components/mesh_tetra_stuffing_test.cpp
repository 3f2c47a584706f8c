// SOFA's MeshTetraStuffing (components/mesh_tetra_stuffing.cpp): a unit cube and a polyhedral
// sphere stuffed with tetrahedra, checked against counts worked by hand on the BCC lattice and
// against volumes from the divergence theorem; bad inputs refused with one clear error.
#include <gmock/gmock.h>

#include <Eigen/Geometry>
#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <numbers>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "fluxion/errors.h"
#include "support/test_support.h"

namespace fluxion {
namespace {

using ::testing::HasSubstr;
using testing::LoadScene;

using Vec = Eigen::Vector3d;
using Tet = std::array<Index, 4>;

// The unit cube [0, 1]³: 8 corners, 12 triangles with outward normals.
constexpr const char* kCubePoints = "0 0 0  1 0 0  1 1 0  0 1 0  0 0 1  1 0 1  1 1 1  0 1 1";
constexpr const char* kCubeTriangles =
    "0 2 1  0 3 2  4 5 6  4 6 7  0 1 5  0 5 4  1 2 6  1 6 5  2 3 7  2 7 6  3 0 4  3 4 7";

// Volumes are sums of a few thousand tetrahedra of size ~1e-3 each rounded to ~1e-16 relatively.
constexpr double kVolumeRoundOff = 1e-12;

struct Stuffed {
  std::vector<Vec> points;
  std::vector<Tet> tetrahedra;
};

// Loads the stuffing engine written in `engine` (named "stuffing") and reads its outputs back
// through links into a tetrahedron container and its object, as SOFA's tutorial scene does.
Stuffed Stuff(const std::string& engine) {
  const Simulation simulation = LoadScene(R"(<Node name="root" dt="0.1">
  <EulerExplicitSolver/>
  <Node name="input">)" + engine + R"(</Node>
  <Node name="output">
    <TetrahedronSetTopologyContainer name="volume" points="@../input/stuffing.outputPoints"
        tetras="@../input/stuffing.outputTetras"/>
    <MechanicalObject template="Vec3"/>
    <UniformMass vertexMass="1"/>
  </Node>
</Node>)");
  const ObjectModel& object = simulation.objects().at(0);
  Stuffed result;
  for (Index i = 0; i < object.num_points; ++i)
    result.points.emplace_back(object.position[3 * i], object.position[3 * i + 1],
                               object.position[3 * i + 2]);
  EXPECT_NE(object.topology, nullptr);
  if (object.topology != nullptr) result.tetrahedra = object.topology->tetrahedra;
  return result;
}

std::string CubeEngine(const std::string& options) {
  return std::string(R"(<MeshTetraStuffing name="stuffing" inputPoints=")") + kCubePoints +
         R"(" inputTriangles=")" + kCubeTriangles + "\" " + options + "/>";
}

std::string ErrorOf(const std::string& engine) {
  try {
    LoadScene(R"(<Node name="root" dt="0.1">)" + engine + "</Node>");
  } catch (const SceneError& error) {
    if (error.diagnostics().size() != 1) return "several errors: " + std::string(error.what());
    return error.diagnostics()[0].message;
  }
  return "no error";
}

double Volume6(const Stuffed& mesh, const Tet& t) {
  const Vec& a = mesh.points[static_cast<std::size_t>(t[0])];
  return (mesh.points[static_cast<std::size_t>(t[1])] - a)
      .dot((mesh.points[static_cast<std::size_t>(t[2])] - a)
               .cross(mesh.points[static_cast<std::size_t>(t[3])] - a));
}

double TotalVolume(const Stuffed& mesh) {
  double sum = 0;
  for (const Tet& t : mesh.tetrahedra) sum += Volume6(mesh, t) / 6;
  return sum;
}

// Oriented outward faces of the positive tetrahedra, each rotated to start at its smallest
// point: how many appear twice (overlapping tetrahedra), and the boundary ones (no reverse).
struct Faces {
  int duplicates = 0;
  std::vector<std::array<Index, 3>> boundary;
};
Faces CheckFaces(const Stuffed& mesh) {
  std::set<std::array<Index, 3>> faces;
  Faces result;
  for (const auto& [a, b, c, d] : mesh.tetrahedra)
    for (std::array<Index, 3> f :
         {std::array{b, c, d}, std::array{a, d, c}, std::array{a, b, d}, std::array{a, c, b}}) {
      std::rotate(f.begin(), std::min_element(f.begin(), f.end()), f.end());
      if (!faces.insert(f).second) ++result.duplicates;
    }
  for (const auto& f : faces)
    if (!faces.contains({f[0], f[2], f[1]})) result.boundary.push_back(f);
  return result;
}

// Every tetrahedron positively oriented and not flat: its volume above a millionth of the
// lattice's tetrahedra (cell³/12; cut and snapped ones are smaller, never that small here).
void ExpectPositive(const Stuffed& mesh, double cell) {
  for (const Tet& t : mesh.tetrahedra)
    ASSERT_GT(Volume6(mesh, t) / 6, 1e-6 * cell * cell * cell / 12)
        << "tetrahedron " << t[0] << " " << t[1] << " " << t[2] << " " << t[3];
}

class MeshTetraStuffing : public testing::QuietTest {};

// size 0.3 on the unit cube. Box: the cube widened by 1 %, [−0.01, 1.01]³, centre 0.5; per axis
// ⌊0.51/0.3⌋ + 2 = 3 cells each side, so primary points at 0.5 + 0.3·k (k = −3…3) and dual
// points 0.15 off them. In half-cells h (x = 0.5 + 0.15·(h − 6)), primary points have even
// h ∈ [0, 12], dual points odd h ∈ [−1, 13], and a point is inside iff every h ∈ [3, 9]
// (0 < x < 1 ⇔ −3.33 < h − 6 < 3.33). No lattice point lies within 0.05 of a face.
constexpr double kCubeCell = 0.3;

bool InsideHalfCells(const std::array<int, 3>& h) {
  return h[0] >= 3 && h[0] <= 9 && h[1] >= 3 && h[1] <= 9 && h[2] >= 3 && h[2] <= 9;
}

TEST_F(MeshTetraStuffing, CubeWithoutSplittingKeepsLatticeTetrahedraWithAnInsidePoint) {
  const Stuffed mesh = Stuff(CubeEngine(R"(size="0.3")"));

  // Inside lattice points: primary h ∈ {4, 6, 8} (3³ = 27), dual h ∈ {3, 5, 7, 9} (4³ = 64).
  int inside = 0;
  for (const Vec& p : mesh.points)
    if ((p.array() > 0).all() && (p.array() < 1).all()) ++inside;
  EXPECT_EQ(inside, 27 + 64);

  // Tetrahedra with all 4 points inside: around each long primary edge with both ends inside
  // (h pairs (4, 6), (6, 8) along the axis, {4, 6, 8}² across: 18 per axis, 54), whose 4 dual
  // neighbours (h ± 1 across, h − 1 along) are then all inside: 54 × 4 = 216.
  int all_inside = 0;
  for (const Tet& t : mesh.tetrahedra) {
    bool in = true;
    for (const Index i : t) {
      const Vec& p = mesh.points[static_cast<std::size_t>(i)];
      in = in && (p.array() > 0).all() && (p.array() < 1).all();
    }
    all_inside += in ? 1 : 0;
  }
  EXPECT_EQ(all_inside, 216);

  // Without splitting, every lattice tetrahedron with an inside point is kept whole. Counted here
  // on the lattice in half-cells, independently of the engine's numbering: the 4 tetrahedra
  // around each long primary edge (ends h − 2 and h along an axis, h even in [2, 12], the other
  // two even in [0, 12]) take two consecutive dual points of the ring (h − 1 along the axis,
  // ±1 across it).
  int kept = 0;
  std::set<std::array<int, 3>> used;
  for (int axis = 0; axis < 3; ++axis)
    for (int h = 2; h <= 12; h += 2)
      for (int u = 0; u <= 12; u += 2)
        for (int v = 0; v <= 12; v += 2) {
          const auto point = [&](int along, int across1, int across2) {
            std::array<int, 3> p{};
            p[axis] = along;
            p[(axis + 1) % 3] = across1;
            p[(axis + 2) % 3] = across2;
            return p;
          };
          const std::array<std::array<int, 2>, 4> ring = {{{-1, -1}, {1, -1}, {1, 1}, {-1, 1}}};
          for (int i = 0; i < 4; ++i) {
            const std::array<std::array<int, 3>, 4> t = {
                point(h - 2, u, v), point(h, u, v), point(h - 1, u + ring[i][0], v + ring[i][1]),
                point(h - 1, u + ring[(i + 1) % 4][0], v + ring[(i + 1) % 4][1])};
            if (!InsideHalfCells(t[0]) && !InsideHalfCells(t[1]) && !InsideHalfCells(t[2]) &&
                !InsideHalfCells(t[3]))
              continue;
            ++kept;
            used.insert(t.begin(), t.end());
          }
        }
  EXPECT_EQ(mesh.tetrahedra.size(), static_cast<std::size_t>(kept));
  EXPECT_EQ(mesh.points.size(), used.size());  // unused lattice points are dropped

  // Every BCC tetrahedron has 2 long edges of length c and 4 short ones of c·√3/2, and volume
  // c³/12 (12 per primary cell: 4 around each of its 3 long edges).
  EXPECT_NEAR(TotalVolume(mesh), kept * kCubeCell * kCubeCell * kCubeCell / 12, kVolumeRoundOff);
  ExpectPositive(mesh, kCubeCell);
  EXPECT_EQ(CheckFaces(mesh).duplicates, 0);
}

TEST_F(MeshTetraStuffing, CubeSplitAtTheSurfaceHasTheCubesVolume) {
  const Stuffed mesh = Stuff(CubeEngine(R"(size="0.3" splitTetras="true")"));
  // Split: outside points are replaced by cut points on the faces, so every point lies in the
  // closed cube (up to the ray test's round-off).
  for (const Vec& p : mesh.points) {
    EXPECT_TRUE((p.array() >= -1e-12).all() && (p.array() <= 1 + 1e-12).all()) << p.transpose();
  }
  ExpectPositive(mesh, kCubeCell);
  const Faces faces = CheckFaces(mesh);
  EXPECT_EQ(faces.duplicates, 0);
  // Each boundary triangle lies in one face of the cube. Why, in half-cells (test above): a
  // tetrahedron cut at two faces, say x = 0 and y = 0, would need an outside point A with h_x ≤ 2
  // and a neighbour B with h_y ≤ 2 but h_x ≥ 3 and A's h_y ≥ 3 — they differ by ≥ 1 on two axes,
  // so form a short edge (±1 on every axis), which joins an even point to an odd one: h_x 2 → 3
  // and h_y 3 → 2 cannot both hold. Cuts towards a point outside across both faces (h_x, h_y ≤ 2)
  // lie on the cube's edge, on both faces, since the lattice is symmetric about the cube's
  // centre. A conforming mesh whose boundary is the cube's surface has the cube's volume.
  for (const auto& f : faces.boundary) {
    bool on_one_face = false;
    for (int axis = 0; axis < 3; ++axis)
      for (const double side : {0.0, 1.0}) {
        bool all = true;
        for (const Index i : f)
          all = all && std::abs(mesh.points[static_cast<std::size_t>(i)][axis] - side) < 1e-12;
        on_one_face = on_one_face || all;
      }
    EXPECT_TRUE(on_one_face) << "boundary face " << f[0] << " " << f[1] << " " << f[2];
  }
  EXPECT_NEAR(TotalVolume(mesh), 1.0, kVolumeRoundOff);
}

// The alphas are in lattice edge lengths: a snapped point moves at most alphaShort·(√3/2)·c =
// 0.372·c (short edges) or alphaLong·c = 0.25·c (long ones) along an edge, so a stuffed
// tetrahedron, inside its lattice tetrahedron (diameter c) up to those moves, is at most
// (1 + 2·0.372)·c < 1.75·c across.
constexpr double kMaxEdgeInCells = 1.75;

TEST_F(MeshTetraStuffing, CubeSnappedAndSplitStaysInsideTheCube) {
  // size 0.045: ⌊0.51/0.045⌋ + 2 = 13 cells each side of 0.5, primary points at 0.5 + 0.045·k,
  // so 0.005 (0.11 cells) inside the faces at k = ±11: closer than alphaLong along their long
  // edges out of the cube, so they are snapped onto the faces. No point lies on a face.
  const double cell = 0.045;
  const Stuffed mesh = Stuff(CubeEngine(R"(size="0.045" snapPoints="true" splitTetras="true")"));
  ExpectPositive(mesh, cell);
  const Faces faces = CheckFaces(mesh);
  EXPECT_EQ(faces.duplicates, 0);
  // Snapped and cut points lie on the surface: every boundary point on a face.
  for (const auto& f : faces.boundary)
    for (const Index i : f) {
      const Vec& p = mesh.points[static_cast<std::size_t>(i)];
      EXPECT_LT(std::min(p.minCoeff(), 1 - p.maxCoeff()), 1e-12) << p.transpose();
    }
  // Bounds: all points in the (convex) cube, so the volume is at most 1. A boundary triangle
  // with points on two faces, x = 0 and y = 0, has all its points within L (its diameter) of
  // both, so the cube minus the mesh lies within the 12 prisms [0, L]² × [0, 1] along the edges
  // (the rest of the cube is connected, meets no boundary and holds the centre): at most 12·L².
  const double edge = kMaxEdgeInCells * cell;
  const double volume = TotalVolume(mesh);
  EXPECT_LE(volume, 1.0 + kVolumeRoundOff);
  EXPECT_GE(volume, 1.0 - 12 * edge * edge);
}

TEST_F(MeshTetraStuffing, SofasSnappingLeavesAnOutsidePointAtTheSurfaceInPlace) {
  // vbbox centres the lattice at x = (0.089999999 + 1.109999999)/2 = 0.599999999, so primary
  // points at x = 0.599999999 + 0.3·k: k = −2 gives x = −1e-9, outside face x = 0 by 1e-9, a
  // violated outside point. SOFA's first snapping pass only moves such points towards other
  // outside points (its comment says inside ones), so it stays; the cut points on its edges to
  // inside points gather at it and the tetrahedra between them are flat: Fluxion keeps SOFA's
  // mesh and warns.
  ExpectWarnings(1);
  const double cell = 0.3;
  const Stuffed mesh = Stuff(CubeEngine(
      R"(size="0.3" snapPoints="true" splitTetras="true"
         vbbox="0.089999999 -0.01 -0.01  1.109999999 1.01 1.01")"));
  int flat = 0;
  for (const Tet& t : mesh.tetrahedra) {
    EXPECT_GE(Volume6(mesh, t), 0.0);
    if (Volume6(mesh, t) / 6 < 1e-8 * cell * cell * cell / 12) ++flat;
  }
  EXPECT_GT(flat, 0);
  EXPECT_EQ(CheckFaces(mesh).duplicates, 0);
}

// A polyhedral sphere: the octahedron's faces cut into n² triangles each, projected onto the unit
// sphere (shared points merged, outward normals).
struct Surface {
  std::vector<Vec> points;
  std::vector<std::array<Index, 3>> triangles;
};
Surface OctaSphere(int n) {
  Surface s;
  std::map<std::array<int, 3>, Index> index;
  const auto point = [&](std::array<int, 3> key) {
    const auto [it, added] = index.emplace(key, static_cast<Index>(s.points.size()));
    if (added) s.points.push_back(Vec(key[0], key[1], key[2]).normalized());
    return it->second;
  };
  for (const int sx : {-1, 1})
    for (const int sy : {-1, 1})
      for (const int sz : {-1, 1}) {
        const auto at = [&](int i, int j) { return point({sx * i, sy * j, sz * (n - i - j)}); };
        const bool mirrored = sx * sy * sz < 0;  // an odd number of flips reverses orientation
        const auto add = [&](Index a, Index b, Index c) {
          s.triangles.push_back(mirrored ? std::array{a, c, b} : std::array{a, b, c});
        };
        for (int i = 0; i < n; ++i)
          for (int j = 0; i + j < n; ++j) {
            add(at(i, j), at(i + 1, j), at(i, j + 1));
            if (i + j + 2 <= n) add(at(i + 1, j), at(i + 1, j + 1), at(i, j + 1));
          }
      }
  return s;
}

TEST_F(MeshTetraStuffing, SphereVolumeIsBracketedByThePolyhedronAndAnInnerBall) {
  const Surface sphere = OctaSphere(12);
  // The points written with 17 digits: the engine reads exactly the surface below.
  std::ostringstream out;
  out.precision(17);
  for (const Vec& p : sphere.points) out << p[0] << " " << p[1] << " " << p[2] << " ";
  const std::string points = out.str();
  std::string triangles;
  for (const auto& t : sphere.triangles)
    for (const Index i : t) triangles += std::to_string(i) + " ";
  const double cell = 0.15;
  const Stuffed mesh = Stuff(R"(<MeshTetraStuffing name="stuffing" size="0.15" snapPoints="true"
      splitTetrahedra="true" inputPoints=")" +
                             points + R"(" inputTriangles=")" + triangles + R"("/>)");
  ExpectPositive(mesh, cell);
  EXPECT_EQ(CheckFaces(mesh).duplicates, 0);

  // The polyhedron's volume by the divergence theorem, and its inradius (the nearest face plane).
  double volume6 = 0, inradius = HUGE_VAL;
  for (const auto& t : sphere.triangles) {
    const Vec &a = sphere.points[static_cast<std::size_t>(t[0])],
              &b = sphere.points[static_cast<std::size_t>(t[1])],
              &c = sphere.points[static_cast<std::size_t>(t[2])];
    volume6 += a.dot(b.cross(c));
    inradius = std::min(inradius, std::abs((b - a).cross(c - a).normalized().dot(a)));
  }
  const double exact = volume6 / 6;
  // Upper bound: every point lies in the convex polyhedron. Lower bound: boundary triangles have
  // their points on the polyhedron (|v| ≥ inradius r) and sides ≤ L; a point Σλᵢvᵢ of one has
  // |x|² = Σλᵢ|vᵢ|² − Σᵢ<ⱼ λᵢλⱼ|vᵢ − vⱼ|² ≥ r² − L²/3, so the mesh covers the ball of radius
  // √(r² − L²/3) about the centre.
  const double edge = kMaxEdgeInCells * cell;
  const double inner =
      std::pow(inradius * inradius - edge * edge / 3, 1.5) * 4 * std::numbers::pi / 3;
  const double volume = TotalVolume(mesh);
  EXPECT_LE(volume, exact + kVolumeRoundOff);
  EXPECT_GE(volume, inner);
  // Every point in the polyhedron, so in the unit ball its vertices lie on (to round-off).
  for (const Vec& p : mesh.points) EXPECT_LE(p.norm(), 1 + 1e-12);
}

TEST_F(MeshTetraStuffing, OpenSurfaceIsStuffedWithAWarning) {
  // The cube without its last triangle (3 4 7): SOFA stuffs it anyway, guessing inside and outside
  // from the rays, and gets overlapping and flat tetrahedra; Fluxion does the same and warns three
  // times (3 edges lose their reverse; faces shared by two tetrahedra on one side; flat ones).
  ExpectWarnings(3);
  std::string triangles = kCubeTriangles;
  triangles = triangles.substr(0, triangles.rfind("3 4 7"));
  const Stuffed mesh = Stuff(std::string(R"(<MeshTetraStuffing name="stuffing" size="0.3"
      splitTetras="true" inputPoints=")") +
                             kCubePoints + R"(" inputTriangles=")" + triangles + R"("/>)");
  EXPECT_GT(mesh.tetrahedra.size(), 0u);
  for (const Tet& t : mesh.tetrahedra) EXPECT_GE(Volume6(mesh, t), 0.0);
}

TEST_F(MeshTetraStuffing, QuadsAreSplitIntoTwoTriangles) {
  // The cube's 6 faces as quads (a, b, c, d) → (a, b, c), (a, c, d): the same 12 triangles as
  // kCubeTriangles, so the same mesh (inputPoints and inputQuads, as SOFA's tutorial links them).
  const Stuffed quads = Stuff(std::string(R"(<MeshTetraStuffing name="stuffing" size="0.3"
      splitTetras="true" inputPoints=")") +
                              kCubePoints + R"(" inputQuads="0 3 2 1  4 5 6 7
      0 1 5 4  1 2 6 5  2 3 7 6  3 0 4 7"/>)");
  const Stuffed triangles = Stuff(CubeEngine(R"(size="0.3" splitTetras="true")"));
  EXPECT_EQ(quads.points, triangles.points);
  EXPECT_EQ(quads.tetrahedra, triangles.tetrahedra);
  EXPECT_NEAR(TotalVolume(quads), 1.0, kVolumeRoundOff);
}

TEST_F(MeshTetraStuffing, RefusesEmptyInputAbsurdSizesAndBadBoxes) {
  EXPECT_THAT(ErrorOf(R"(<MeshTetraStuffing/>)"),
              HasSubstr("MeshTetraStuffing has 0 input points, 0 triangles and 0 quads (expected "
                        "a closed surface"));
  EXPECT_THAT(ErrorOf(std::string(R"(<MeshTetraStuffing inputPoints=")") + kCubePoints + "\"/>"),
              HasSubstr("has 8 input points, 0 triangles and 0 quads"));
  // size 1e-4 over the 1.02-wide box: 2·(⌊0.51/1e-4⌋ + 2) + 1 = 10205 primary points per axis,
  // 10206 dual ones: 10205³ + 10206³ = 1062769365125 + 1063081821816.
  EXPECT_THAT(ErrorOf(CubeEngine(R"(size="1e-4")")),
              HasSubstr("'size' 1e-04 makes a lattice of 2125851186941 points"));
  // The limit is what the machine's memory allows (no fixed cap): far below 2·10¹² points.
  EXPECT_THAT(ErrorOf(CubeEngine(R"(size="1e-4")")), HasSubstr("points (expected at most "));
  EXPECT_THAT(ErrorOf(CubeEngine(R"(size="-1e9")")), HasSubstr("makes a lattice of "));
  EXPECT_THAT(ErrorOf(CubeEngine(R"(size="0")")),
              HasSubstr("'size' 0 gives cells of size 0 (expected a positive size"));
  EXPECT_THAT(ErrorOf(CubeEngine(R"(vbbox="0 0 0 1 1")")),
              HasSubstr("'vbbox' has 5 numbers (expected 6"));
  EXPECT_THAT(ErrorOf(CubeEngine(R"(vbbox="0 1 0  1 0 1")")),
              HasSubstr("'vbbox' has min 1 > max 0 on axis y (expected min <= max)"));
  EXPECT_THAT(ErrorOf(CubeEngine(R"(inputQuads="0 1 2 9")")), HasSubstr("inputQuads"));
}

TEST_F(MeshTetraStuffing, SizeNegativeCountsCellsAcrossTheBox) {
  // SOFA's default size −8: 8 cells across the widened box's largest side (1.02), c = 0.1275;
  // ⌊0.51/0.1275⌋ + 2 = 6 cells each side, 13 primary and 14 dual points per axis. Without
  // splitting the mesh keeps lattice points only, whose coordinates are 0.5 + k·c/2.
  const Stuffed mesh = Stuff(CubeEngine(""));
  const double cell = 1.02 / 8;
  ASSERT_FALSE(mesh.points.empty());
  for (const Vec& p : mesh.points)
    for (int k = 0; k < 3; ++k) {
      const double halves = (p[k] - 0.5) / (cell / 2);
      EXPECT_NEAR(halves, std::round(halves), 1e-9);
      EXPECT_LE(std::abs(halves), 13.0);
    }
  ExpectPositive(mesh, cell);
}

}  // namespace
}  // namespace fluxion
