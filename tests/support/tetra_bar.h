// A bar of unit cubes along x, one cube in cross-section, each cube cut into the six tetrahedra
// of its main diagonal (Kuhn's subdivision: conforming across cubes, each of volume 1/6 m³),
// written as a container's `position` and `tetrahedra` texts, for the tests of removals of
// tetrahedra.
// Point (i, j, k), i = 0…cubes, j, k ∈ {0, 1}, is number i + (cubes + 1)·(j + 2k), at (i, j, k).
// Cube c (from x = c to c + 1) holds tetrahedra 6c … 6c + 5: for each order (a, b, d) of the axes,
// (p, p + e_a, p + e_a + e_b, p + (1, 1, 1)), p its corner (c, 0, 0), the last two swapped
// for an odd order (every tetrahedron positively oriented).
#pragma once

#include <array>
#include <string>
#include <utility>

namespace fluxion::testing {

struct TetraBarText {
  std::string points, tetrahedra;
};

/// The number of point (i, j, k) of a bar of `cubes` cubes.
inline int TetraBarPoint(int cubes, int i, int j, int k) { return i + (cubes + 1) * (j + 2 * k); }

inline TetraBarText TetraBar(int cubes) {
  TetraBarText bar;
  for (int k = 0; k < 2; ++k)
    for (int j = 0; j < 2; ++j)
      for (int i = 0; i <= cubes; ++i)
        bar.points += std::to_string(i) + " " + std::to_string(j) + " " + std::to_string(k) + "  ";
  // The orders, and whether each is odd (its last two vertices then swapped: every tetrahedron
  // positively oriented).
  constexpr std::array<std::array<int, 3>, 6> kOrders{
      {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}}};
  constexpr std::array<bool, 6> kOdd{false, true, true, false, false, true};
  for (int c = 0; c < cubes; ++c)
    for (std::size_t o = 0; o < kOrders.size(); ++o) {
      std::array<int, 3> at = {c, 0, 0};
      std::array<int, 4> vertices{};
      vertices[0] = TetraBarPoint(cubes, at[0], at[1], at[2]);
      for (std::size_t n = 0; n < 3; ++n) {
        ++at[static_cast<std::size_t>(kOrders[o][n])];
        vertices[n + 1] = TetraBarPoint(cubes, at[0], at[1], at[2]);
      }
      if (kOdd[o]) std::swap(vertices[2], vertices[3]);
      for (const int v : vertices) bar.tetrahedra += std::to_string(v) + " ";
      bar.tetrahedra += " ";
    }
  return bar;
}

}  // namespace fluxion::testing
