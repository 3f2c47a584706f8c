// The square cloth the topological-change tests share: point p + side·j at (p, j, 0), cell (i, j)
// (p = i + side·j) cut into the triangles (p, p+1, p+side+1) and (p, p+side+1, p+side), cells
// row by row, written as a container's `position` and `triangles` texts.
#pragma once

#include <string>

namespace fluxion::testing {

struct ClothGridText {
  std::string points, triangles;
};

inline ClothGridText ClothGrid(int side) {
  ClothGridText grid;
  for (int p = 0; p < side * side; ++p)
    grid.points += std::to_string(p % side) + " " + std::to_string(p / side) + " 0  ";
  for (int j = 0; j + 1 < side; ++j)
    for (int i = 0; i + 1 < side; ++i) {
      const int p = i + side * j;
      for (const int v : {p, p + 1, p + side + 1, p, p + side + 1, p + side})
        grid.triangles += std::to_string(v) + " ";
    }
  return grid;
}

}  // namespace fluxion::testing
