#include "components/transform_engine.h"

#include <Eigen/Geometry>
#include <cmath>
#include <functional>
#include <numbers>

namespace fluxion::internal {

ComponentSpec TransformEngineComponent::Spec() {
  return ComponentSpec{
      .name = "TransformEngine",
      .kind = ComponentKind::kEngine,
      .summary = "Scales, rotates and translates a list of points (output for links)",
      .fields =
          {FieldSpec::Choice("template", "Vec3d", {"Vec3d", "Vec3", "Vec3f"},
                             "point type (only 3 coordinates per point here)"),
           FieldSpec::RealList("input_position", "points to transform [m]"),
           FieldSpec::RealList("translation", "translation (x, y, z) [m]").DefaultText("0 0 0"),
           FieldSpec::RealList("rotation", "rotation, Euler angles X Y Z [degrees]")
               .DefaultText("0 0 0"),
           FieldSpec::RealList("quaternion", "rotation quaternion qx qy qz qw")
               .DefaultText("0 0 0 1"),
           FieldSpec::RealList("scale", "scale factors (x, y, z)").DefaultText("1 1 1"),
           FieldSpec::Bool("inverse", false, "apply the inverse transformation")},
      .aliases = {}};
}

namespace {

using Vec = Eigen::Vector3d;

// SOFA's Quat::rotate, as written (a rotation when q has unit norm).
Vec Rotate(const Eigen::Vector4d& q, const Vec& v) {
  const Vec axis(q[0], q[1], q[2]);
  const Vec t = 2.0 * axis.cross(v);
  return v + q[3] * t + axis.cross(t);
}

// SOFA's Quat::inverse: the conjugate divided by the norm.
Eigen::Vector4d Inverse(const Eigen::Vector4d& q) {
  const double norm = q.norm();
  if (norm == 0.0) return q;
  return Eigen::Vector4d(-q[0], -q[1], -q[2], q[3]) / norm;
}

}  // namespace

void TransformEngineComponent::Build(BuildContext& context) {
  const Parameters& p = context.parameters();
  bool ok = true;
  for (const auto& [field, size] : {std::pair{"translation", 3u}, std::pair{"rotation", 3u},
                                    std::pair{"scale", 3u}, std::pair{"quaternion", 4u}})
    if (p.reals(field).size() != size) {
      context.Error(std::string("TransformEngine '") + field + "' needs " + std::to_string(size) +
                    " numbers");
      ok = false;
    }
  const std::vector<double>& in = p.reals("input_position");
  if (in.size() % 3 != 0) {
    context.Error("TransformEngine 'input_position' has " + std::to_string(in.size()) +
                  " numbers (expected 3 per point)");
    ok = false;
  }
  if (!ok) return;
  const auto vec = [&](const char* field) {
    return Vec(p.reals(field)[0], p.reals(field)[1], p.reals(field)[2]);
  };
  const bool inverse = p.flag("inverse");
  const Vec scale = vec("scale"), rotation = vec("rotation"), translation = vec("translation");
  const Eigen::Vector4d quaternion(p.reals("quaternion")[0], p.reals("quaternion")[1],
                                   p.reals("quaternion")[2], p.reals("quaternion")[3]);

  // The operations in SOFA's order; with `inverse`, each inverted and the order reversed.
  std::vector<std::function<Vec(const Vec&)>> operations;
  const auto add = [&](std::function<Vec(const Vec&)> operation) {
    operations.insert(inverse ? operations.begin() : operations.end(), std::move(operation));
  };
  if (scale != Vec(1, 1, 1)) {
    const Vec s = inverse ? Vec(1.0 / scale[0], 1.0 / scale[1], 1.0 / scale[2]) : scale;
    add([s](const Vec& x) { return Vec(x.cwiseProduct(s)); });
  }
  if (rotation != Vec(0, 0, 0)) {
    const double degree = std::numbers::pi / 180.0;
    const Eigen::Quaterniond euler = Eigen::AngleAxisd(rotation[2] * degree, Vec::UnitZ()) *
                                     Eigen::AngleAxisd(rotation[1] * degree, Vec::UnitY()) *
                                     Eigen::AngleAxisd(rotation[0] * degree, Vec::UnitX());
    Eigen::Vector4d q(euler.x(), euler.y(), euler.z(), euler.w());
    if (inverse) q = Inverse(q);
    add([q](const Vec& x) { return Rotate(q, x); });
  }
  if (quaternion != Eigen::Vector4d(0, 0, 0, 1)) {
    const Eigen::Vector4d q = inverse ? Inverse(quaternion) : quaternion;
    add([q](const Vec& x) { return Rotate(q, x); });
  }
  if (translation != Vec(0, 0, 0)) {
    const Vec t = inverse ? Vec(-translation) : translation;
    add([t](const Vec& x) { return Vec(x + t); });
  }
  std::vector<double> out(in.size());
  for (std::size_t i = 0; i < in.size(); i += 3) {
    Vec x(in[i], in[i + 1], in[i + 2]);
    for (const auto& operation : operations) x = operation(x);
    out[i] = x[0];
    out[i + 1] = x[1];
    out[i + 2] = x[2];
  }
  context.SetOutput("output_position", std::move(out));
}

}  // namespace fluxion::internal
