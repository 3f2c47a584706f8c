#include "components/transform_position.h"

#include <Eigen/Geometry>
#include <cmath>
#include <numbers>

#include "fluxion/errors.h"
#include "meshio/affine_transform_reader.h"

namespace fluxion::internal {

ComponentSpec TransformPositionComponent::Spec() {
  return ComponentSpec{
      .name = "TransformPosition",
      .kind = ComponentKind::kEngine,
      .summary =
          "Projects, translates, rotates, scales or maps by an affine matrix a list of "
          "points (output for links)",
      .fields =
          {FieldSpec::Choice("template", "Vec3d", {"Vec3d", "Vec3", "Vec3f"},
                             "point type (only 3 coordinates per point here)"),
           FieldSpec::Choice("method", "projectOnPlane",
                             {"projectOnPlane", "translation", "rotation", "random", "scale",
                              "scaleTranslation", "scaleRotationTranslation", "affine", "fromFile"},
                             "the transformation (random is refused)"),
           FieldSpec::RealList("input_position", "points to transform [m]").Alias("inputPosition"),
           FieldSpec::RealList("origin", "a point of the plane; the centre of `scale` [m]")
               .DefaultText("0 0 0"),
           FieldSpec::RealList("normal", "the plane's normal (projectOnPlane)")
               .DefaultText("0 0 0"),
           FieldSpec::RealList("translation", "translation (x, y, z) [m]").DefaultText("0 0 0"),
           FieldSpec::RealList("rotation", "rotation, Euler angles X Y Z [degrees]")
               .DefaultText("0 0 0"),
           FieldSpec::RealList("scale", "scale factors (x, y, z)").DefaultText("1 1 1"),
           FieldSpec::RealList("matrix", "4×4 affine matrix, row by row")
               .DefaultText("1 0 0 0  0 1 0 0  0 0 1 0  0 0 0 1"),
           FieldSpec::Text("filename", "",
                           "fromFile: the matrix file (.tfm, .trm, .txt, .xfm), found next to the "
                           "scene, then in the data folders"),
           FieldSpec::IndexList("fixedIndices", "points left as they are"),
           FieldSpec::Integer("seedValue", 0, "random: not supported"),
           FieldSpec::Real("maxRandomDisplacement", 1.0, "random: not supported"),
           FieldSpec::Bool("drawInput", false, "visual only: ignored"),
           FieldSpec::Bool("drawOutput", false, "visual only: ignored"),
           FieldSpec::Real("pointSize", 1.0, "visual only: ignored")},
      .aliases = {}};
}

namespace {

using Vec = Eigen::Vector3d;

Vec PositionVector(const std::vector<double>& v) { return Vec(v[0], v[1], v[2]); }

// SOFA's createQuaterFromEuler (R = Rz·Ry·Rx), angles in degrees.
Eigen::Quaterniond PositionEulerRotation(const Vec& degrees) {
  const double degree = std::numbers::pi / 180.0;
  return Eigen::AngleAxisd(degrees[2] * degree, Vec::UnitZ()) *
         Eigen::AngleAxisd(degrees[1] * degree, Vec::UnitY()) *
         Eigen::AngleAxisd(degrees[0] * degree, Vec::UnitX());
}

}  // namespace

void TransformPositionComponent::Build(BuildContext& context) {
  const Parameters& p = context.parameters();
  const std::string type = "TransformPosition";
  bool ok = true;
  for (const char* field : {"origin", "normal", "translation", "rotation", "scale"})
    if (p.reals(field).size() != 3) {
      context.Error(type + " '" + field + "' has " + std::to_string(p.reals(field).size()) +
                    " numbers (expected 3: x y z)");
      ok = false;
    }
  if (p.reals("matrix").size() != 16) {
    context.Error(type + " 'matrix' has " + std::to_string(p.reals("matrix").size()) +
                  " numbers (expected 16: a 4×4 matrix row by row)");
    ok = false;
  }
  const std::vector<double>& in = p.reals("input_position");
  if (in.size() % 3 != 0) {
    context.Error(type + " 'input_position' has " + std::to_string(in.size()) +
                  " numbers (expected 3 per point)");
    ok = false;
  }
  const Index points = static_cast<Index>(in.size() / 3);
  for (const Index fixed : p.indices("fixedIndices"))
    if (fixed >= points) {
      context.Error(type + " 'fixedIndices' has " + std::to_string(fixed) +
                    " (expected indices below the " + std::to_string(points) + " input points)");
      ok = false;
      break;
    }
  if (!ok) return;
  const std::string& method = p.text("method");
  if (method == "random") {
    context.Error(type +
                  " method 'random' is not supported (expected a deterministic method: "
                  "SOFA's random generator is not reproduced)");
    return;
  }

  // The 4×4 matrix of affine and fromFile.
  Eigen::Matrix4d matrix;
  for (int i = 0; i < 16; ++i)
    matrix(i / 4, i % 4) = p.reals("matrix")[static_cast<std::size_t>(i)];
  if (method == "fromFile") {
    const std::string& name = p.text("filename");
    if (name.empty()) {
      context.Error(type +
                    " method 'fromFile' needs 'filename' (expected a .tfm, .trm, .txt or "
                    ".xfm file)");
      return;
    }
    const std::optional<AffineTransformFormat> format = AffineTransformFormatOf(name);
    if (!format) {
      context.Error(type + " 'filename' is '" + name +
                    "' (expected a .tfm, .trm, .txt or .xfm file)");
      return;
    }
    const std::optional<BuildContext::InputFile> file = context.ReadInputFile(name);
    if (!file) return;
    try {
      const std::array<double, 16> read = ReadAffineTransform(file->bytes, file->path, *format);
      for (int i = 0; i < 16; ++i) matrix(i / 4, i % 4) = read[static_cast<std::size_t>(i)];
    } catch (const ConfigError& error) {
      context.Error(type + " cannot read the transformation: " + error.what());
      return;
    }
  }

  Vec normal = PositionVector(p.reals("normal"));
  if (method == "projectOnPlane") {
    if (normal.norm() == 0.0) {
      context.Error(type +
                    " method 'projectOnPlane' has the normal 0 0 0 (expected the plane's "
                    "normal)");
      return;
    }
    if (std::abs(normal.squaredNorm() - 1.0) > 1e-10) normal /= normal.norm();  // SOFA's init
  }
  const Vec origin = PositionVector(p.reals("origin")),
            translation = PositionVector(p.reals("translation"));
  const Vec scale = PositionVector(p.reals("scale"));
  const Eigen::Quaterniond rotation = PositionEulerRotation(PositionVector(p.reals("rotation")));

  std::vector<double> out(in.size());
  for (Index i = 0; i < points; ++i) {
    const Vec x(in[3 * i], in[3 * i + 1], in[3 * i + 2]);
    Vec y;
    if (method == "projectOnPlane") {
      y = x + normal * (origin - x).dot(normal);
    } else if (method == "translation") {
      y = x + translation;
    } else if (method == "rotation") {
      y = rotation * x;
    } else if (method == "scale") {
      y = origin + (x - origin).cwiseProduct(scale);
    } else if (method == "scaleTranslation") {
      y = x.cwiseProduct(scale) + translation;
    } else if (method == "scaleRotationTranslation") {
      y = rotation * x.cwiseProduct(scale) + translation;
    } else {  // affine, fromFile
      const Eigen::Vector4d image = matrix * Eigen::Vector4d(x[0], x[1], x[2], 1.0);
      if (std::abs(image[3]) <= 1e-10) {
        context.Error(type + " maps point " + std::to_string(i) +
                      " to infinity (the matrix's 4th row gives it w = " +
                      std::to_string(image[3]) + ": expected |w| > 1e-10)");
        return;
      }
      y = image.head<3>() / image[3];
    }
    for (int c = 0; c < 3; ++c) out[static_cast<std::size_t>(3 * i + c)] = y[c];
  }
  for (const Index fixed : p.indices("fixedIndices"))
    for (int c = 0; c < 3; ++c)
      out[static_cast<std::size_t>(3 * fixed + c)] = in[static_cast<std::size_t>(3 * fixed + c)];
  context.SetOutput("outputPosition", out);
  context.SetOutput("output_position", std::move(out));
}

}  // namespace fluxion::internal
