#include "components/mechanical_object.h"

#include <Eigen/Geometry>
#include <cmath>

#include "components/point_selection.h"
#include "components/sofa_float.h"

namespace fluxion::internal {

ComponentSpec MechanicalObjectComponent::Spec() {
  return ComponentSpec{
      .name = "MechanicalObject",
      .kind = ComponentKind::kState,
      .summary = "The DOFs of a node: points with positions and velocities (Vec1d, Vec2d or Vec3d)",
      .fields =
          {FieldSpec::Choice("template", "Vec3d",
                             {"Vec1d", "Vec2d", "Vec3d", "Vec1", "Vec2", "Vec3"},
                             "point type: 1, 2 or 3 coordinates per point"),
           FieldSpec::RealList("position",
                               "initial positions [m], one vector per point (default: the node's "
                               "topology points, else one point at the origin)"),
           FieldSpec::RealList(
               "velocity",
               "initial velocities [m/s]; shorter than position: zero-filled (SOFA); "
               "one velocity with topology points: broadcast"),
           FieldSpec::RealList("rest_position", "rest positions [m] (default: position)"),
           FieldSpec::RealList("externalForce",
                               "force on each point [N], applied during the first step only "
                               "(SOFA clears it after each step)"),
           FieldSpec::RealList("force", "SOFA output vector; must be empty or zero if given"),
           FieldSpec::Integer("size", 0, "number of points when no position is given").AtLeast(0),
           FieldSpec::RealList("translation", "translation applied to the positions [m], 3 numbers")
               .DefaultText("0 0 0"),
           FieldSpec::RealList("rotation",
                               "rotation applied to the positions, Euler angles X, Y, Z [degrees]")
               .DefaultText("0 0 0"),
           FieldSpec::RealList("scale3d", "scale applied to the positions, 3 numbers")
               .DefaultText("1 1 1"),
           FieldSpec::Real("dx", 0.0, "legacy translation along x [m]"),
           FieldSpec::Real("dy", 0.0, "legacy translation along y [m]"),
           FieldSpec::Real("dz", 0.0, "legacy translation along z [m]"),
           FieldSpec::Real("restScale", 1.0,
                           "scale of the rest position when it defaults to position"),
           FieldSpec::OptionalReal("scale", "legacy: one scale for x, y and z (sets scale3d)"),
           FieldSpec::OptionalReal("sx", "legacy: scale along x (sets scale3d; others 1)"),
           FieldSpec::OptionalReal("sy", "legacy: scale along y"),
           FieldSpec::OptionalReal("sz", "legacy: scale along z"),
           FieldSpec::OptionalReal("rx", "legacy: rotation about x [degrees] (sets rotation)"),
           FieldSpec::OptionalReal("ry", "legacy: rotation about y [degrees]"),
           FieldSpec::OptionalReal("rz", "legacy: rotation about z [degrees]"),
           FieldSpec::RealList("rotation2",
                               "rotation applied after the rest position is taken [degrees]")
               .DefaultText("0 0 0"),
           FieldSpec::RealList("translation2",
                               "translation applied after the rest position is taken [m]")
               .DefaultText("0 0 0"),
           FieldSpec::OptionalReal("rx2", "legacy: rotation2 about x [degrees]"),
           FieldSpec::OptionalReal("ry2", "legacy: rotation2 about y [degrees]"),
           FieldSpec::OptionalReal("rz2", "legacy: rotation2 about z [degrees]"),
           FieldSpec::OptionalReal("dx2", "legacy: translation2 along x [m]"),
           FieldSpec::OptionalReal("dy2", "legacy: translation2 along y [m]"),
           FieldSpec::OptionalReal("dz2", "legacy: translation2 along z [m]"),
           FieldSpec::Bool("useTopology", true,
                           "take the points of the node's topology when no position is given"),
           FieldSpec::RealList("derivX", "SOFA state vector (dx): accepted, unused"),
           FieldSpec::RealList("free_position", "SOFA state vector: accepted, unused"),
           FieldSpec::RealList("free_velocity", "SOFA state vector: accepted, unused"),
           FieldSpec::RealList("reset_position", "SOFA state vector: accepted, unused"),
           FieldSpec::RealList("reset_velocity", "SOFA state vector: accepted, unused"),
           FieldSpec::Integer("reserve", 0, "SOFA memory option: accepted, unused"),
           FieldSpec::Link("src",
                           "a component whose data of the same names (position, velocity, "
                           "…) this object takes: SOFA's src link, e.g. src=\"@loader\"")},
      .aliases = {}};
}

namespace {

// A list field cut to whole `dimension`-vectors. SOFA reads a vector Data point by point until a
// point is incomplete (type::vector::read stops at the first failed Vec), so trailing numbers are
// dropped; Fluxion does the same, with a warning instead of SOFA's silence (SOFA's own
// STLExporter.scn gives a Vec3d object 10 numbers).
std::vector<double> WholePoints(BuildContext& context, const char* field,
                                const std::vector<double>& values, int dimension,
                                const std::string& what) {
  const std::size_t extra = values.size() % static_cast<std::size_t>(dimension);
  if (extra == 0) return values;
  context.Warn("MechanicalObject '" + std::string(field) + "' has " +
               std::to_string(values.size()) + " numbers, not a multiple of " +
               std::to_string(dimension) + " (" + what + ": " + std::to_string(dimension) +
               " per point): the last " + std::to_string(extra) + (extra == 1 ? " is" : " are") +
               " ignored, as SOFA reads it");
  return {values.begin(), values.end() - static_cast<std::ptrdiff_t>(extra)};
}

// A vector field, or SOFA's legacy per-axis attributes in its place: any of `x`, `y`, `z` given
// replaces the whole vector, the missing ones taking `missing` (MechanicalObject::parse reads
// them with getAttributeAsFloat: single precision).
std::vector<double> WithLegacy(const Parameters& p, const char* field, const char* x, const char* y,
                               const char* z, double missing) {
  if (!p.has(x) && !p.has(y) && !p.has(z)) return p.reals(field);
  const auto axis = [&](const char* name) {
    return p.has(name) ? AsSofaFloat(p.real(name)) : missing;
  };
  return {axis(x), axis(y), axis(z)};
}

// Scale, then rotation (Euler angles in degrees, quaternion Z·Y·X), then translation, as SOFA's
// MechanicalObject::applyScale/applyRotation/applyTranslation.
void Transform(ObjectModel& object, const std::vector<double>& scale,
               const std::vector<double>& rotation, const std::vector<double>& translation) {
  const int dim = object.dimension;
  const bool rotate = rotation[0] != 0.0 || rotation[1] != 0.0 || rotation[2] != 0.0;
  Eigen::Quaterniond q = Eigen::Quaterniond::Identity();
  if (rotate) {
    const double deg = M_PI / 180.0;
    q = Eigen::AngleAxisd(rotation[2] * deg, Eigen::Vector3d::UnitZ()) *
        Eigen::AngleAxisd(rotation[1] * deg, Eigen::Vector3d::UnitY()) *
        Eigen::AngleAxisd(rotation[0] * deg, Eigen::Vector3d::UnitX());
  }
  for (Index i = 0; i < object.num_points; ++i) {
    Eigen::Vector3d point = Eigen::Vector3d::Zero();
    for (int c = 0; c < dim; ++c) point[c] = object.position[i * dim + c];
    for (int c = 0; c < 3; ++c)
      if (scale[c] != 1.0) point[c] *= scale[c];
    if (rotate) point = q * point;
    for (int c = 0; c < 3; ++c) point[c] += translation[c];
    for (int c = 0; c < dim; ++c) object.position[i * dim + c] = point[c];
  }
}

// SOFA's MechanicalObject::reinit: scale3d (or the legacy scale, sx/sy/sz), rotation (or
// rx/ry/rz), translation (or dx/dy/dz), in that order.
void ApplyTransforms(const Parameters& p, ObjectModel& object) {
  std::vector<double> scale = WithLegacy(p, "scale3d", "sx", "sy", "sz", 1.0);
  if (p.has("scale") && !p.has("sx") && !p.has("sy") && !p.has("sz")) {
    const double s = AsSofaFloat(p.real("scale"));
    scale = {s, s, s};
  }
  Transform(object, scale, WithLegacy(p, "rotation", "rx", "ry", "rz", 0.0),
            WithLegacy(p, "translation", "dx", "dy", "dz", 0.0));
}

// SOFA's MechanicalObject::init, after the rest position is stored: rotation2, then translation2.
void ApplySecondTransforms(const Parameters& p, ObjectModel& object) {
  Transform(object, {1.0, 1.0, 1.0}, WithLegacy(p, "rotation2", "rx2", "ry2", "rz2", 0.0),
            WithLegacy(p, "translation2", "dx2", "dy2", "dz2", 0.0));
}

// Checks the list fields; false after reporting every problem found.
bool CheckFields(BuildContext& context) {
  const Parameters& p = context.parameters();
  bool ok = true;
  for (const char* field : {"translation", "rotation", "scale3d", "translation2", "rotation2"}) {
    if (p.reals(field).size() != 3) {
      context.Error(std::string("MechanicalObject '") + field +
                    "' needs 3 numbers (SOFA: always x y z)");
      ok = false;
    }
  }
  for (double value : p.reals("force"))
    if (value != 0.0) {
      context.Error(
          "MechanicalObject 'force' is an output (expected it empty; use externalForce or "
          "a ConstantForceField)");
      ok = false;
      break;
    }
  return ok;
}

// The object's state vectors as given, each cut to whole points (WholePoints).
struct StateFields {
  std::vector<double> position, velocity, rest, external;
};

StateFields ReadStateFields(BuildContext& context, int dim, const std::string& template_name) {
  const Parameters& p = context.parameters();
  return {WholePoints(context, "position", p.reals("position"), dim, template_name),
          WholePoints(context, "velocity", p.reals("velocity"), dim, template_name),
          WholePoints(context, "rest_position", p.reals("rest_position"), dim, template_name),
          WholePoints(context, "externalForce", p.reals("externalForce"), dim, template_name)};
}

// The points and initial positions/velocities, before transforms; false after reporting.
bool InitialPoints(BuildContext& context, const StateFields& fields, int dim, Index& points,
                   std::vector<double>& x, std::vector<double>& v) {
  const Parameters& p = context.parameters();
  const std::vector<double>& position = fields.position;
  const std::vector<double>& velocity = fields.velocity;
  const std::vector<double>& rest = fields.rest;
  const Index given_points = static_cast<Index>(position.size()) / dim;
  const Index velocity_points = static_cast<Index>(velocity.size()) / dim;
  const std::shared_ptr<const Topology> topology = context.topology();
  points = given_points;
  x = position;
  v = velocity;
  // SOFA: with at most one position and one velocity, a topology of the same node gives the
  // points, and a single velocity is broadcast to all of them.
  if (given_points <= 1 && velocity_points <= 1 && topology && !topology->points.empty() &&
      p.flag("useTopology")) {
    points = static_cast<Index>(topology->points.size());
    x.assign(static_cast<std::size_t>(points * dim), 0.0);
    for (Index i = 0; i < points; ++i)
      for (int c = 0; c < dim; ++c)
        x[static_cast<std::size_t>(i * dim + c)] = topology->points[i][c];
    std::vector<double> single(static_cast<std::size_t>(dim), 0.0);
    if (velocity_points == 1) single.assign(velocity.begin(), velocity.end());
    v.clear();
    for (Index i = 0; i < points; ++i) v.insert(v.end(), single.begin(), single.end());
    return true;
  }
  if (given_points == 0) {
    points = std::max<Index>(p.integer("size"), 1);
    if (points > context.max_scene_points()) {
      context.Error("MechanicalObject 'size' is " + std::to_string(points) + " (expected " +
                    PointLimitText(context, context.max_scene_points()) + ")");
      return false;
    }
    if (static_cast<Index>(rest.size()) / dim > points)
      points = static_cast<Index>(rest.size()) / dim;
    x.assign(static_cast<std::size_t>(points * dim), 0.0);
  }
  if (velocity_points > points) {
    context.Error("MechanicalObject 'velocity' has " + PointCount(velocity_points) +
                  " but 'position' has " + PointCount(points) +
                  " (expected at most as many velocities as positions)");
    return false;
  }
  if (velocity_points > 1 && velocity_points < points)
    context.Warn(
        "MechanicalObject 'velocity' has fewer points than 'position': the others "
        "start at rest "
        "(as in SOFA)");
  v.resize(static_cast<std::size_t>(points * dim), 0.0);  // SOFA zero-fills
  return true;
}

}  // namespace

void MechanicalObjectComponent::Build(BuildContext& context) {
  const Parameters& p = context.parameters();
  ObjectModel object;
  const std::string& template_name = p.text("template");
  object.dimension = template_name.starts_with("Vec1")   ? 1
                     : template_name.starts_with("Vec2") ? 2
                                                         : 3;
  const int dim = object.dimension;
  object.name = context.name();
  if (!CheckFields(context)) return;

  const StateFields fields = ReadStateFields(context, dim, template_name);
  Index points = 0;
  std::vector<double> x, v;
  if (!InitialPoints(context, fields, dim, points, x, v)) return;
  const std::vector<double>& rest = fields.rest;
  const std::vector<double>& external = fields.external;
  if (!rest.empty() && static_cast<Index>(rest.size()) / dim != points) {
    context.Error("MechanicalObject 'rest_position' has " +
                  PointCount(static_cast<Index>(rest.size()) / dim) + " (expected " +
                  PointCount(points) + ")");
    return;
  }
  // SOFA resizes every state vector to the object's size: a shorter externalForce is zero-filled.
  if (static_cast<Index>(external.size()) / dim > points) {
    context.Error("MechanicalObject 'externalForce' has " +
                  PointCount(static_cast<Index>(external.size()) / dim) + " (expected " +
                  PointCount(points) + ")");
    return;
  }
  if (context.object_points() + points > context.max_scene_points()) {
    context.Error("MechanicalObject '" + context.node_path() + "/" + object.name +
                  "' brings the scene to " + std::to_string(context.object_points() + points) +
                  " points (expected " + PointLimitText(context, context.max_scene_points()) + ")");
    return;
  }
  object.num_points = points;
  object.position = Eigen::Map<const Vector>(x.data(), static_cast<Index>(x.size()));
  object.velocity = Eigen::Map<const Vector>(v.data(), static_cast<Index>(v.size()));
  ApplyTransforms(p, object);
  // SOFA copies the rest position from the *transformed* position (times restScale).
  if (!rest.empty())
    object.rest_position = Eigen::Map<const Vector>(rest.data(), static_cast<Index>(rest.size()));
  else if (p.real("restScale") != 1.0)
    object.rest_position = object.position * p.real("restScale");
  else
    object.rest_position = object.position;
  object.external_force = Vector::Zero(object.num_dofs());
  object.external_force.head(static_cast<Index>(external.size())) =
      Eigen::Map<const Vector>(external.data(), static_cast<Index>(external.size()));
  ApplySecondTransforms(p, object);
  context.AddObject(std::move(object));
}

}  // namespace fluxion::internal
