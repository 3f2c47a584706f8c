// Meshes and model descriptions for the detection tests: hand-placed elements and jittered grids
// from a fixed pseudorandom sequence.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

#include "collision/detection.h"
#include "collision/element_pair.h"
#include "collision/model_elements.h"

namespace fluxion::internal::collision::testing {

/// Round-off of a few operations on coordinates of order 1: the tests' closed forms are worked
/// out by hand, differently from the element tests' Cramer solves and square roots.
inline constexpr double kRoundOff = 1e-14;

/// `actual` equals `expected` to round-off.
inline ::testing::AssertionResult NearVec(const Vec3& actual, const Vec3& expected) {
  if ((actual - expected).norm() <= kRoundOff) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure()
         << "(" << actual.transpose() << ") is not (" << expected.transpose() << ")";
}

/// A model of `kind` over the points `x` (3 doubles each) with the given elements.
inline CollisionModelDescription Model(ElementKind kind, int node, int object,
                                       const std::vector<double>& x,
                                       std::vector<std::array<Index, 2>> edges = {},
                                       std::vector<std::array<Index, 3>> triangles = {}) {
  CollisionModelDescription d;
  d.path = "test";
  d.kind = kind;
  d.node = node;
  d.object = object;
  d.topology.num_points = static_cast<Index>(x.size() / 3);
  d.topology.edges = std::move(edges);
  d.topology.triangles = std::move(triangles);
  return d;
}

/// The pair (a, b) with the given distances, for calling element tests directly.
inline ElementPair Pair(const ModelElements& a, const std::vector<double>& xa,
                        const ModelElements& b, const std::vector<double>& xb, double alarm,
                        double contact, const IntersectionSettings& settings) {
  ElementPair pair;
  pair.elements[0] = &a;
  pair.elements[1] = &b;
  pair.positions[0] = xa.data();
  pair.positions[1] = xb.data();
  pair.alarm_distance = alarm;
  pair.contact_distance = contact;
  pair.settings = &settings;
  return pair;
}

/// A pseudorandom number in [−1, 1) (a 64-bit LCG: the same sequence everywhere).
struct Jitter {
  std::uint64_t state;
  double operator()() {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<double>(state >> 11) / 4503599627370496.0 - 1.0;
  }
};

/// An n × n grid of points over [0, size]² at height z(x, y), each coordinate moved by up to
/// `jitter`, two triangles per cell.
struct GridMesh {
  std::vector<double> x;
  std::vector<std::array<Index, 3>> triangles;
};
template <class Height>
GridMesh Grid(int n, double size, double jitter, std::uint64_t seed, const Height& z) {
  GridMesh mesh;
  Jitter random{seed};
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i) {
      const double u = size * i / (n - 1), v = size * j / (n - 1);
      mesh.x.push_back(u + jitter * random());
      mesh.x.push_back(v + jitter * random());
      mesh.x.push_back(z(u, v) + jitter * random());
    }
  for (int j = 0; j + 1 < n; ++j)
    for (int i = 0; i + 1 < n; ++i) {
      const Index a = j * n + i, b = a + 1, c = a + n, d = c + 1;
      mesh.triangles.push_back({a, b, d});
      mesh.triangles.push_back({a, d, c});
    }
  return mesh;
}

inline bool SameBits(const Vec3& a, const Vec3& b) {
  return std::memcmp(&a, &b, sizeof(Vec3)) == 0;
}

/// Every field, bit for bit: same pairs, same outputs in the same order.
inline void ExpectSameContacts(const std::vector<ModelPairContacts>& a,
                               const std::vector<ModelPairContacts>& b) {
  ASSERT_EQ(a.size(), b.size());
  for (std::size_t p = 0; p < a.size(); ++p) {
    EXPECT_EQ(a[p].model1, b[p].model1);
    EXPECT_EQ(a[p].model2, b[p].model2);
    ASSERT_EQ(a[p].outputs.size(), b[p].outputs.size()) << "pair " << p;
    for (std::size_t k = 0; k < a[p].outputs.size(); ++k) {
      const DetectionOutput& x = a[p].outputs[k];
      const DetectionOutput& y = b[p].outputs[k];
      ASSERT_EQ(x.element, y.element) << "pair " << p << " output " << k;
      EXPECT_TRUE(SameBits(x.point[0], y.point[0]) && SameBits(x.point[1], y.point[1]) &&
                  SameBits(x.normal, y.normal) &&
                  std::memcmp(&x.value, &y.value, sizeof(double)) == 0)
          << "pair " << p << " output " << k;
      EXPECT_EQ(x.id, y.id);
    }
  }
}

inline std::size_t CountOutputs(const std::vector<ModelPairContacts>& contacts) {
  std::size_t n = 0;
  for (const ModelPairContacts& c : contacts) n += c.outputs.size();
  return n;
}

}  // namespace fluxion::internal::collision::testing
