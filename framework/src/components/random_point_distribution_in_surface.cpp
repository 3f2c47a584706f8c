#include "components/random_point_distribution_in_surface.h"

#include <Eigen/Dense>
#include <cmath>
#include <optional>
#include <random>

#include "components/engine_inputs.h"
#include "components/ray_triangle.h"
#include "fluxion/log.h"

namespace fluxion::internal {

ComponentSpec RandomPointDistributionInSurfaceComponent::Spec() {
  return ComponentSpec{
      .name = "RandomPointDistributionInSurface",
      .kind = ComponentKind::kEngine,
      .summary = "Random points inside a closed triangle surface (output for links)",
      .fields = {FieldSpec::Choice("template", "Vec3d", {"Vec3d", "Vec3", "Vec3f"}, "point type"),
                 FieldSpec::Integer("randomSeed", 0, "seed of the random numbers").AtLeast(0),
                 FieldSpec::Bool("isVisible", true, "SOFA display option, ignored"),
                 FieldSpec::Real("minDistanceBetweenPoints", 0.1,
                                 "smallest distance between two inside points [m]"),
                 FieldSpec::Integer("numberOfInPoints", 10, "number of points inside").AtLeast(0),
                 FieldSpec::Integer("numberOfTests", 5,
                                    "rays per point (odd; an even number gets one more)")
                     .AtLeast(0),
                 FieldSpec::RealList("vertices", "points of the surface [m]"),
                 FieldSpec::IndexList("triangles", "triangles of the surface (outward normals)")},
      .aliases = {}};
}

namespace {

using Vec = Eigen::Vector3d;

constexpr double kMaxDraws = 1e6;

// A uniform number in [low, high] from 53 random bits.
double Uniform(std::mt19937_64& random, double low, double high) {
  const double unit = static_cast<double>(random() >> 11) * 0x1.0p-53;
  return low + (high - low) * unit;
}

}  // namespace

void RandomPointDistributionInSurfaceComponent::Build(BuildContext& context) {
  const Parameters& p = context.parameters();
  const auto points = ReadPoints(context, "vertices");
  if (!points) return;
  const auto triangles = ReadElements<3>(context, "triangles", static_cast<Index>(points->size()));
  if (!triangles) return;
  if (triangles->size() <= 1 || points->size() <= 1) {
    context.Error("RandomPointDistributionInSurface has " + std::to_string(points->size()) +
                  " points and " + std::to_string(triangles->size()) +
                  " triangles (expected a closed surface: at least 2 of each)");
    return;
  }
  std::vector<Vec> x;
  for (const Point3& q : *points) x.emplace_back(q[0], q[1], q[2]);
  long tests = p.integer("numberOfTests");
  if (tests % 2 == 0) {
    context.Warn("RandomPointDistributionInSurface 'numberOfTests' is even: one more is used");
    ++tests;
  }
  std::mt19937_64 random(static_cast<std::uint64_t>(p.integer("randomSeed")));
  std::vector<Vec> directions;
  for (long i = 0; i < tests; ++i) {
    Vec d;
    for (int k = 0; k < 3; ++k) d[k] = Uniform(random, -1.0, 1.0);
    directions.push_back(d);
  }
  std::vector<Vec> normals;
  for (const auto& t : *triangles)
    normals.push_back(
        (x[static_cast<std::size_t>(t[1])] - x[static_cast<std::size_t>(t[0])])
            .cross(x[static_cast<std::size_t>(t[2])] - x[static_cast<std::size_t>(t[0])])
            .normalized());
  const auto inside = [&](const Vec& origin) {
    for (const Vec& direction : directions) {
      double nearest = 1e9;  // SOFA's starting distance (10e8)
      std::ptrdiff_t hit = -1;
      for (std::size_t i = 0; i < triangles->size(); ++i) {
        const auto& t = (*triangles)[i];
        const std::optional<RayHit> crossing =
            RayTriangleHit(x[static_cast<std::size_t>(t[0])], x[static_cast<std::size_t>(t[1])],
                           x[static_cast<std::size_t>(t[2])], origin, direction);
        if (crossing && crossing->t < nearest) {
          nearest = crossing->t;
          hit = static_cast<std::ptrdiff_t>(i);
        }
      }
      if (hit < 0 || !(direction.dot(normals[static_cast<std::size_t>(hit)]) > 0.0)) return false;
    }
    return true;
  };
  Vec low = x[0], high = x[0];
  for (const Vec& q : x) {
    low = low.cwiseMin(q);
    high = high.cwiseMax(q);
  }
  const auto wanted = static_cast<std::size_t>(p.integer("numberOfInPoints"));
  const double limit = std::min(std::pow(static_cast<double>(wanted), 4), kMaxDraws);
  const double min_distance = p.real("minDistanceBetweenPoints");
  std::vector<Vec> in, out;
  double draws = 0;
  while (in.size() < wanted && draws < limit) {
    Vec q;
    for (int k = 0; k < 3; ++k) q[k] = Uniform(random, low[k], high[k]);
    ++draws;
    bool keep = inside(q);
    for (std::size_t i = 0; keep && i < in.size(); ++i)
      if (min_distance >= 0.0 && (q - in[i]).squaredNorm() < min_distance * min_distance)
        keep = false;
    (keep ? in : out).push_back(q);
  }
  if (in.size() < wanted)
    context.Warn("RandomPointDistributionInSurface found " + std::to_string(in.size()) +
                 " inside points of " + std::to_string(wanted) + " in " +
                 std::to_string(static_cast<long long>(draws)) + " draws");
  LogInfo(context.Where() + "RandomPointDistributionInSurface: " + std::to_string(in.size()) +
          " points inside, " + std::to_string(out.size()) + " rejected");
  const auto flat = [](const std::vector<Vec>& list) {
    std::vector<double> numbers;
    for (const Vec& q : list) numbers.insert(numbers.end(), {q[0], q[1], q[2]});
    return numbers;
  };
  context.SetOutput("inPoints", flat(in));
  context.SetOutput("outPoints", flat(out));
}

}  // namespace fluxion::internal
