#include "collision/proximity_geometry.h"

#include "collision/model_elements.h"

namespace fluxion::internal::collision {

bool ChooseTriangleFeature(const PlaneProjection& p, int flags, const FeatureRule& rule,
                           double& alpha, double& beta) {
  const double eps = rule.low;
  alpha = p.alpha;
  beta = p.beta;
  // Inside (written so that NaN coordinates, a zero-area triangle, take the feature branch).
  if (alpha >= eps && beta >= eps && alpha + beta <= rule.high) return true;
  const double on_ab = p.b0 / p.a00;  // AP·AB / AB·AB
  const double on_ac = p.b1 / p.a11;  // AP·AC / AC·AC
  const auto keep = [&](int flag, double a, double b) {
    alpha = a;
    beta = b;
    return (flags & flag) != 0;
  };
  if (on_ab < eps && on_ac < rule.corner_ac) return keep(kFlagP1, 0.0, 0.0);
  if (on_ab < rule.high && (!rule.edge_from_low || on_ab >= eps) && beta < eps)
    return keep(kFlagE12, on_ab, 0.0);
  if (on_ac < rule.high && (!rule.edge_from_low || on_ac >= eps) && alpha < eps)
    return keep(rule.flag_edge_ac, 0.0, on_ac);
  const double on_bc = (p.b1 - p.b0 + p.a00 - p.a01) / (p.a00 + p.a11 - 2 * p.a01);  // BP·BC/BC²
  if (on_bc < eps) return keep(kFlagP2, 1.0, 0.0);
  if (on_bc > rule.high) return keep(kFlagP3, 0.0, 1.0);
  return keep(rule.flag_edge_bc, 1.0 - on_bc, on_bc);
}

}  // namespace fluxion::internal::collision
