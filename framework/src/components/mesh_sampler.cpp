#include "components/mesh_sampler.h"

#include <cmath>
#include <limits>
#include <set>

#include "components/engine_inputs.h"

namespace fluxion::internal {

ComponentSpec MeshSamplerComponent::Spec() {
  return ComponentSpec{
      .name = "MeshSampler",
      .kind = ComponentKind::kEngine,
      .summary =
          "Well spread sample points of a mesh, farthest-point then Lloyd (output for "
          "links)",
      .fields = {FieldSpec::Choice("template", "Vec3d", {"Vec3d", "Vec3", "Vec3f"}, "point type"),
                 FieldSpec::Integer("number", 1, "number of samples").AtLeast(0),
                 FieldSpec::RealList("position", "points to sample [m]"),
                 FieldSpec::IndexList("edges",
                                      "edges for geodesic distances (default: "
                                      "Euclidean distances)"),
                 FieldSpec::Integer("maxIter", 100, "largest number of Lloyd sweeps").AtLeast(0)},
      .aliases = {}};
}

namespace {

constexpr Index kNoRegion = -1;

class Sampler {
 public:
  Sampler(const std::vector<Point3>& x, const std::vector<std::array<Index, 2>>& edges)
      : x_(x), geodesic_(!edges.empty()), around_(x.size()) {
    for (const auto& edge : edges) {
      around_[static_cast<std::size_t>(edge[0])].push_back(edge[1]);
      around_[static_cast<std::size_t>(edge[1])].push_back(edge[0]);
    }
  }

  std::vector<Index> Sample(std::size_t number, long max_iterations) {
    samples_ = {0};
    Measure();
    number = std::min(number, x_.size());
    while (samples_.size() < number) {
      double farthest = 0.0;
      Index pick = 0;
      for (std::size_t i = 0; i < distance_.size(); ++i)
        if (distance_[i] > farthest) {
          farthest = distance_[i];
          pick = static_cast<Index>(i);
        }
      if (farthest == 0.0) break;
      samples_.push_back(pick);
      Measure();
    }
    for (long sweep = 0; sweep < max_iterations; ++sweep)
      if (!Relax()) break;
    return samples_;
  }

 private:
  double Length(Index a, Index b) const {
    const Point3& p = x_[static_cast<std::size_t>(a)];
    const Point3& q = x_[static_cast<std::size_t>(b)];
    return std::hypot(p[0] - q[0], p[1] - q[1], p[2] - q[2]);
  }

  // Each point's distance to its nearest sample and that sample's place (its region).
  void Measure() {
    const std::size_t n = x_.size();
    distance_.assign(n, std::numeric_limits<double>::infinity());
    region_.assign(n, kNoRegion);
    if (!geodesic_) {
      for (std::size_t i = 0; i < n; ++i)
        for (std::size_t s = 0; s < samples_.size(); ++s) {
          const Point3& q = x_[static_cast<std::size_t>(samples_[s])];
          const double d = (x_[i][0] - q[0]) * (x_[i][0] - q[0]) +
                           (x_[i][1] - q[1]) * (x_[i][1] - q[1]) +
                           (x_[i][2] - q[2]) * (x_[i][2] - q[2]);
          if (d < distance_[i]) {
            distance_[i] = d;
            region_[i] = static_cast<Index>(s);
          }
        }
      return;
    }
    std::set<std::pair<double, Index>> queue;
    for (std::size_t s = 0; s < samples_.size(); ++s) {
      const auto i = static_cast<std::size_t>(samples_[s]);
      queue.insert({0.0, samples_[s]});
      distance_[i] = 0.0;
      region_[i] = static_cast<Index>(s);
    }
    while (!queue.empty()) {
      const Index v = queue.begin()->second;
      queue.erase(queue.begin());
      const auto vi = static_cast<std::size_t>(v);
      for (const Index w : around_[vi]) {
        const auto wi = static_cast<std::size_t>(w);
        const double d = distance_[vi] + Length(v, w);
        if (distance_[wi] > d) {
          queue.erase({distance_[wi], w});
          region_[wi] = region_[vi];
          distance_[wi] = d;
          queue.insert({d, w});
        }
      }
    }
  }

  // One Lloyd sweep; true when a sample moved.
  bool Relax() {
    const std::size_t regions = samples_.size();
    std::vector<Point3> centre(regions, Point3{0.0, 0.0, 0.0});
    std::vector<double> count(regions, 0.0);
    for (std::size_t i = 0; i < x_.size(); ++i) {
      if (region_[i] == kNoRegion) continue;
      const auto r = static_cast<std::size_t>(region_[i]);
      for (std::size_t k = 0; k < 3; ++k) centre[r][k] += x_[i][k];
      count[r] += 1.0;
    }
    for (std::size_t r = 0; r < regions; ++r)
      for (double& c : centre[r]) c /= count[r];  // an empty region: NaN, never nearer
    const auto squared = [&](std::size_t i) {
      const Point3& c = centre[static_cast<std::size_t>(region_[i])];
      return std::pow(x_[i][0] - c[0], 2) + std::pow(x_[i][1] - c[1], 2) +
             std::pow(x_[i][2] - c[2], 2);
    };
    std::vector<double> nearest(regions);
    for (std::size_t r = 0; r < regions; ++r) {
      const auto seed = static_cast<std::size_t>(samples_[r]);
      nearest[r] =
          region_[seed] == kNoRegion ? std::numeric_limits<double>::infinity() : squared(seed);
    }
    bool moved = false;
    for (std::size_t i = 0; i < x_.size(); ++i) {
      if (region_[i] == kNoRegion) continue;
      const auto r = static_cast<std::size_t>(region_[i]);
      const double d = squared(i);
      if (d < nearest[r]) {
        nearest[r] = d;
        samples_[r] = static_cast<Index>(i);
        moved = true;
      }
    }
    Measure();
    return moved;
  }

  const std::vector<Point3>& x_;
  bool geodesic_;
  std::vector<std::vector<Index>> around_;
  std::vector<Index> samples_;
  std::vector<double> distance_;
  std::vector<Index> region_;
};

}  // namespace

void MeshSamplerComponent::Build(BuildContext& context) {
  const Parameters& p = context.parameters();
  const auto x = ReadPoints(context, "position");
  if (!x) return;
  const auto edges = ReadElements<2>(context, "edges", static_cast<Index>(x->size()));
  if (!edges) return;
  std::vector<Index> samples;
  std::vector<double> position;
  if (!x->empty()) {
    Sampler sampler(*x, *edges);
    samples = sampler.Sample(static_cast<std::size_t>(p.integer("number")), p.integer("maxIter"));
    for (const Index i : samples) {
      const Point3& point = (*x)[static_cast<std::size_t>(i)];
      position.insert(position.end(), point.begin(), point.end());
    }
  }
  context.SetOutput("outputIndices", std::move(samples));
  context.SetOutput("outputPosition", std::move(position));
}

}  // namespace fluxion::internal
