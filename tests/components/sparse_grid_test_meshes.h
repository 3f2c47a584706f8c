// Closed surfaces for the SparseGridTopology tests: a box and an inscribed icosphere as triangle
// lists, and the volume a closed surface encloses.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <utility>
#include <vector>

#include "fluxion/types.h"

namespace fluxion::sparse_grid_test {

using Point = std::array<double, 3>;
using Triangle = std::array<Index, 3>;

// The closed surface of the box [lo, hi]³: 8 vertices (bit 0: x, bit 1: y, bit 2: z), 12
// triangles oriented outwards.
struct Mesh {
  std::vector<Point> vertices;
  std::vector<Triangle> triangles;
};

inline Mesh Cube(double lo, double hi) {
  Mesh mesh;
  for (int v = 0; v < 8; ++v)
    mesh.vertices.push_back({v & 1 ? hi : lo, v & 2 ? hi : lo, v & 4 ? hi : lo});
  const std::array<std::array<Index, 4>, 6> faces = {
      {{0, 2, 3, 1}, {4, 5, 7, 6}, {0, 1, 5, 4}, {2, 6, 7, 3}, {0, 4, 6, 2}, {1, 3, 7, 5}}};
  for (const auto& f : faces) {
    mesh.triangles.push_back({f[0], f[1], f[2]});
    mesh.triangles.push_back({f[0], f[2], f[3]});
  }
  return mesh;
}

// An icosahedron subdivided `levels` times, its vertices pushed onto the sphere of radius r
// centred at c: a closed polyhedron inscribed in the ball.
inline Mesh Icosphere(int levels, double r, const Point& c) {
  const double t = (1.0 + std::sqrt(5.0)) / 2.0;
  std::vector<Point> v = {{-1, t, 0}, {1, t, 0}, {-1, -t, 0}, {1, -t, 0},
                          {0, -1, t}, {0, 1, t}, {0, -1, -t}, {0, 1, -t},
                          {t, 0, -1}, {t, 0, 1}, {-t, 0, -1}, {-t, 0, 1}};
  std::vector<Triangle> f = {{0, 11, 5}, {0, 5, 1},  {0, 1, 7},   {0, 7, 10}, {0, 10, 11},
                             {1, 5, 9},  {5, 11, 4}, {11, 10, 2}, {10, 7, 6}, {7, 1, 8},
                             {3, 9, 4},  {3, 4, 2},  {3, 2, 6},   {3, 6, 8},  {3, 8, 9},
                             {4, 9, 5},  {2, 4, 11}, {6, 2, 10},  {8, 6, 7},  {9, 8, 1}};
  for (int level = 0; level < levels; ++level) {
    std::map<std::pair<Index, Index>, Index> middle;
    const auto mid = [&](Index a, Index b) {
      const auto key = std::minmax(a, b);
      const auto found = middle.find(key);
      if (found != middle.end()) return found->second;
      const auto& p = v[static_cast<std::size_t>(a)];
      const auto& q = v[static_cast<std::size_t>(b)];
      v.push_back({(p[0] + q[0]) / 2, (p[1] + q[1]) / 2, (p[2] + q[2]) / 2});
      return middle[key] = static_cast<Index>(v.size() - 1);
    };
    std::vector<Triangle> finer;
    for (const auto& tri : f) {
      const Index ab = mid(tri[0], tri[1]), bc = mid(tri[1], tri[2]), ca = mid(tri[2], tri[0]);
      finer.push_back({tri[0], ab, ca});
      finer.push_back({tri[1], bc, ab});
      finer.push_back({tri[2], ca, bc});
      finer.push_back({ab, bc, ca});
    }
    f = std::move(finer);
  }
  for (auto& p : v) {
    const double norm = std::sqrt(p[0] * p[0] + p[1] * p[1] + p[2] * p[2]);
    for (int a = 0; a < 3; ++a) p[a] = c[a] + r * p[a] / norm;
  }
  return {v, f};
}

// The volume a closed, outward-oriented triangle surface encloses (divergence theorem: the sum
// of the signed tetrahedra from the origin).
inline double EnclosedVolume(const Mesh& mesh) {
  double volume = 0.0;
  for (const auto& t : mesh.triangles) {
    const Point& a = mesh.vertices[static_cast<std::size_t>(t[0])];
    const Point& b = mesh.vertices[static_cast<std::size_t>(t[1])];
    const Point& c = mesh.vertices[static_cast<std::size_t>(t[2])];
    volume += (a[0] * (b[1] * c[2] - b[2] * c[1]) - a[1] * (b[0] * c[2] - b[2] * c[0]) +
               a[2] * (b[0] * c[1] - b[1] * c[0])) /
              6.0;
  }
  return volume;
}

}  // namespace fluxion::sparse_grid_test
