#include "mechanics/triangular_tensor_mass.h"

#include <cmath>
#include <utility>

namespace fluxion::internal {

TriangularTensorMass::TriangularTensorMass(std::vector<Edge> edges) : edges_(std::move(edges)) {}

void TriangularTensorMass::LameCoefficients(double young, double poisson, double& lambda,
                                            double& mu) {
  const double denominator = 1 - poisson * poisson;
  lambda = young * poisson / denominator;
  mu = young * (1 - poisson) / denominator;
}

bool TriangularTensorMass::AddTriangle(const std::array<std::array<double, 3>, 3>& p, double lambda,
                                       double mu, const std::array<std::array<double, 9>*, 3>& edge,
                                       const std::array<bool, 3>& edge_starts_at_l) {
  const auto minus = [](const std::array<double, 3>& a, const std::array<double, 3>& b) {
    return std::array<double, 3>{a[0] - b[0], a[1] - b[1], a[2] - b[2]};
  };
  const auto square = [](const std::array<double, 3>& a) {
    return a[0] * a[0] + a[1] * a[1] + a[2] * a[2];
  };
  std::array<double, 3> a{};
  for (int j = 0; j < 3; ++j) a[j] = square(minus(p[(j + 1) % 3], p[(j + 2) % 3]));
  double sixteen_area_squared = 0;
  for (int j = 0; j < 3; ++j)
    sixteen_area_squared += a[j] * (a[(j + 1) % 3] + a[(j + 2) % 3] - a[j]);
  if (!(sixteen_area_squared > 0)) return false;
  const double area = std::sqrt(sixteen_area_squared) / 4;
  const double lambda_star = lambda / (4 * area), mu_star = mu / (8 * area);
  for (int j = 0; j < 3; ++j) {
    const int k = (j + 1) % 3, l = (j + 2) % 3;
    const double cotangent = (a[k] + a[l] - a[j]) / (4 * area);
    const std::array<double, 3> dpl = minus(p[j], p[k]), dpk = minus(p[j], p[l]);
    std::array<double, 9>& m = *edge[j];
    for (int u = 0; u < 3; ++u) {
      for (int v = 0; v < 3; ++v) {
        const double value = lambda_star * dpl[u] * dpk[v] + mu_star * dpk[u] * dpl[v];
        m[edge_starts_at_l[j] ? 3 * u + v : 3 * v + u] += value;
      }
      m[3 * u + u] -= cotangent * (lambda + mu) / 2;
    }
  }
  return true;
}

void TriangularTensorMass::AddForce(const State& state, Vector& f) const {
  for (const Edge& e : edges_) {
    std::array<double, 3> dp{};
    for (int u = 0; u < 3; ++u)
      dp[u] = (state.x[e.v1 + u] - e.rest1[u]) - (state.x[e.v0 + u] - e.rest0[u]);
    for (int u = 0; u < 3; ++u) {
      double row = 0, column = 0;
      for (int v = 0; v < 3; ++v) {
        row += e.d[3 * u + v] * dp[v];     // (D·dp)_u
        column += e.d[3 * v + u] * dp[v];  // (Dᵀ·dp)_u
      }
      f[e.v1 + u] += row;
      f[e.v0 + u] -= column;
    }
  }
}

void TriangularTensorMass::StiffnessEntries(std::vector<MatrixEntry>& entries) const {
  for (const Edge& e : edges_)
    for (const auto& [row, col] : {std::pair{e.v1, e.v1}, std::pair{e.v1, e.v0},
                                   std::pair{e.v0, e.v1}, std::pair{e.v0, e.v0}})
      for (int u = 0; u < 3; ++u)
        for (int v = 0; v < 3; ++v) entries.push_back({row + u, col + v});
}

void TriangularTensorMass::AddStiffness(const State& /*state*/, const Index* slots,
                                        double* values) const {
  std::size_t k = 0;
  for (const Edge& e : edges_) {
    // K_v1v1 = −D, K_v1v0 = D, K_v0v1 = Dᵀ, K_v0v0 = −Dᵀ, in StiffnessEntries' order.
    for (int block = 0; block < 4; ++block)
      for (int u = 0; u < 3; ++u)
        for (int v = 0; v < 3; ++v) {
          const double d = block < 2 ? e.d[3 * u + v] : e.d[3 * v + u];
          values[slots[k++]] += (block == 0 || block == 3) ? -d : d;
        }
  }
}

}  // namespace fluxion::internal
