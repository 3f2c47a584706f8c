// The region of SOFA's BoxROI: axis-aligned boxes (xmin ymin zmin xmax ymax zmax) and oriented
// boxes (p0 p1 p2 depth), a point being inside when it is inside any of them.
// Source: Sofa/Component/Engine/Select/src/sofa/component/engine/select/BoxROI.inl
// (roiInit, computeOrientedBoxes, isPointInAlignedBox, isPointInOrientedBox).
#pragma once

#include <array>
#include <string>
#include <vector>

namespace fluxion::internal {

class BoxRegion {
 public:
  /// `boxes`: 6 numbers per aligned box (a min above its max is swapped, as SOFA does);
  /// `oriented`: 10 per oriented box. Returns false and sets `why` for a wrong count or a
  /// degenerate oriented box.
  bool Set(const std::vector<double>& boxes, const std::vector<double>& oriented, std::string& why);

  /// SOFA's test, bounds included; `dimension` (1–3) coordinates of `p` are compared with an
  /// aligned box, oriented boxes need 3.
  bool Contains(const double* p, int dimension) const;

 private:
  struct Oriented {
    std::array<double, 3> p0, p2, normal, plane0, plane1, plane2, plane3;
    double width = 0, length = 0, depth = 0;
  };
  std::vector<std::array<double, 6>> aligned_;
  std::vector<Oriented> oriented_;
};

}  // namespace fluxion::internal
