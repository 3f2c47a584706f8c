#include "components/spiral.h"

#include <cmath>
#include <limits>
#include <numbers>
#include <string>
#include <vector>

namespace fluxion::internal {

ComponentSpec SpiralComponent::Spec() {
  return ComponentSpec{
      .name = "Spiral",
      .kind = ComponentKind::kEngine,
      .summary = "Rolls points along x into a spiral in the xy plane (output for links)",
      .fields = {FieldSpec::Choice("template", "Vec3d", {"Vec3d", "Vec3", "Vec3f"},
                                   "point type (3 coordinates per point)"),
                 FieldSpec::RealList("rest_position", "points to roll up [m]"),
                 FieldSpec::Real("curvature", 0.2, "A: the spiral's radius grows by A per radian")},
      .aliases = {}};
}

void SpiralComponent::Build(BuildContext& context) {
  const Parameters& p = context.parameters();
  const std::vector<double>& in = p.reals("rest_position");
  if (in.size() % 3 != 0) {
    context.Error("Spiral 'rest_position' has " + std::to_string(in.size()) +
                  " numbers (expected 3 per point)");
    return;
  }
  const double A = p.real("curvature");
  // SOFA compares with and assigns the float 0.8f.
  const double bend = static_cast<double>(0.8f);
  std::vector<double> out;
  out.reserve(in.size());
  for (std::size_t i = 0; i < in.size(); i += 3) {
    const double x0 = in[i], y0 = in[i + 1], z0 = in[i + 2];
    // The spiral's parameter t at arc length l = |x0|: Newton on l(t) − l, 10 steps from √l.
    const double l = x0 > 0 ? x0 : -x0;
    double t = std::sqrt(l);
    for (int n = 0; n < 10; ++n) {
      const double l_t = A / 2 * (t * std::sqrt(1 + t * t) + std::asinh(t));
      const double dl_t = A * std::sqrt(1 + t * t);
      t = t - (l_t - l) / dl_t;
    }
    const double r = x0 > 0 ? A * t : -A * t;
    double nx = -A * std::sin(t) - A * t * std::cos(t), ny = A * std::cos(t) - A * t * std::sin(t);
    const double norm = std::sqrt(nx * nx + ny * ny);
    if (norm > std::numeric_limits<double>::epsilon()) {  // SOFA's normalize: else unchanged
      nx /= norm;
      ny /= norm;
    }
    if (t > -std::numbers::pi / 2 && t < std::numbers::pi / 2 && ny > bend) {
      ny = bend;
      nx = -std::sqrt(1 - ny * ny);
    }
    out.insert(out.end(), {r * std::cos(t) + nx * y0, r * std::sin(t) + ny * y0, z0});
  }
  context.SetOutput("position", std::move(out));
}

}  // namespace fluxion::internal
