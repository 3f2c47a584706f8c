#include "components/transform_matrix_engine.h"

#include <Eigen/Geometry>
#include <cmath>
#include <limits>
#include <numbers>
#include <optional>

namespace fluxion::internal {

namespace {

using Matrix4 = Eigen::Matrix<double, 4, 4, Eigen::RowMajor>;

ComponentSpec MatrixEngineSpec(std::string name, std::string summary,
                               std::optional<FieldSpec> own) {
  ComponentSpec spec{.name = std::move(name),
                     .kind = ComponentKind::kEngine,
                     .summary = std::move(summary),
                     .fields = {FieldSpec::RealList("inT", "input transformation, 4×4 row by row")
                                    .DefaultText("1 0 0 0  0 1 0 0  0 0 1 0  0 0 0 1")},
                     .aliases = {}};
  if (own) spec.fields.push_back(std::move(*own));
  return spec;
}

// inT, and the 3 numbers of `field` (when given): false after reporting a wrong size.
bool Inputs(BuildContext& context, const char* field, Matrix4& in, Eigen::Vector3d& v) {
  const Parameters& p = context.parameters();
  bool ok = true;
  if (p.reals("inT").size() != 16) {
    context.Error(context.type() + " 'inT' needs 16 numbers (a 4×4 matrix, row by row)");
    ok = false;
  } else {
    in = Eigen::Map<const Matrix4>(p.reals("inT").data());
  }
  if (field != nullptr) {
    if (p.reals(field).size() != 3) {
      context.Error(context.type() + " '" + field + "' needs 3 numbers (x y z)");
      ok = false;
    } else {
      v = Eigen::Vector3d(p.reals(field)[0], p.reals(field)[1], p.reals(field)[2]);
    }
  }
  return ok;
}

void Publish(BuildContext& context, const Matrix4& out) {
  context.SetOutput("outT", std::vector<double>(out.data(), out.data() + 16));
}

}  // namespace

ComponentSpec TranslateTransformMatrixEngineComponent::Spec() {
  return MatrixEngineSpec(
      "TranslateTransformMatrixEngine", "Composes a 4×4 transformation with a translation",
      FieldSpec::RealList("translation", "translation (x, y, z) [m]").DefaultText("0 0 0"));
}

void TranslateTransformMatrixEngineComponent::Build(BuildContext& context) {
  Matrix4 in;
  Eigen::Vector3d t;
  if (!Inputs(context, "translation", in, t)) return;
  Matrix4 m = Matrix4::Identity();
  m.topRightCorner<3, 1>() = t;
  Publish(context, in * m);
}

ComponentSpec RotateTransformMatrixEngineComponent::Spec() {
  return MatrixEngineSpec(
      "RotateTransformMatrixEngine", "Composes a 4×4 transformation with a rotation",
      FieldSpec::RealList("rotation", "Euler angles X Y Z [degrees]").DefaultText("0 0 0"));
}

void RotateTransformMatrixEngineComponent::Build(BuildContext& context) {
  Matrix4 in;
  Eigen::Vector3d r;
  if (!Inputs(context, "rotation", in, r)) return;
  const double degree = std::numbers::pi / 180.0;
  const Eigen::Quaterniond q = Eigen::AngleAxisd(r[2] * degree, Eigen::Vector3d::UnitZ()) *
                               Eigen::AngleAxisd(r[1] * degree, Eigen::Vector3d::UnitY()) *
                               Eigen::AngleAxisd(r[0] * degree, Eigen::Vector3d::UnitX());
  Matrix4 m = Matrix4::Identity();
  m.topLeftCorner<3, 3>() = q.toRotationMatrix();
  Publish(context, in * m);
}

ComponentSpec ScaleTransformMatrixEngineComponent::Spec() {
  return MatrixEngineSpec(
      "ScaleTransformMatrixEngine", "Composes a 4×4 transformation with a scaling",
      FieldSpec::RealList("scale", "scale factors (x, y, z) (SOFA's default: 0 0 0)")
          .DefaultText("0 0 0"));
}

void ScaleTransformMatrixEngineComponent::Build(BuildContext& context) {
  Matrix4 in;
  Eigen::Vector3d s;
  if (!Inputs(context, "scale", in, s)) return;
  Matrix4 m = Matrix4::Identity();
  m(0, 0) = s[0];
  m(1, 1) = s[1];
  m(2, 2) = s[2];
  Publish(context, in * m);
}

ComponentSpec InvertTransformMatrixEngineComponent::Spec() {
  return MatrixEngineSpec("InvertTransformMatrixEngine", "Inverts a 4×4 affine transformation",
                          std::nullopt);
}

void InvertTransformMatrixEngineComponent::Build(BuildContext& context) {
  Matrix4 in;
  Eigen::Vector3d unused;
  if (!Inputs(context, nullptr, in, unused)) return;
  const Eigen::Matrix3d a = in.topLeftCorner<3, 3>();
  const double det = a.determinant();
  // SOFA's invertMatrix refuses |det| below its equalsZero threshold (machine epsilon).
  if (std::abs(det) <= std::numeric_limits<double>::epsilon()) {
    context.Error("InvertTransformMatrixEngine 'inT' has a singular 3×3 part (determinant " +
                  std::to_string(det) + "; expected an invertible transformation)");
    return;
  }
  Matrix4 out = Matrix4::Identity();
  const Eigen::Matrix3d a_inv = a.inverse();
  out.topLeftCorner<3, 3>() = a_inv;
  out.topRightCorner<3, 1>() = -a_inv * in.topRightCorner<3, 1>();
  Publish(context, out);
}

}  // namespace fluxion::internal
