#include "mechanics/triangular_quadratic_springs.h"

#include <cmath>

#include <Eigen/Dense>

#include "mechanics/element_loops.h"
#include "mechanics/triangle_spring_elements.h"

namespace fluxion::internal {

bool TriangularQuadraticSprings::TriangleConstants(const std::array<double, 3>& rest, double young,
                                                   double poisson, std::array<double, 3>& stiffness,
                                                   std::array<double, 3>& gamma) {
  const double lambda = young * poisson / (1 - poisson * poisson);
  const double mu = young * (1 - poisson) / (1 - poisson * poisson);
  std::array<double, 3> square{}, cotangent{};
  for (int j = 0; j < 3; ++j) square[j] = rest[j] * rest[j];
  double area = 0;
  for (int j = 0; j < 3; ++j)
    area += square[j] * (square[(j + 1) % 3] + square[(j + 2) % 3] - square[j]);
  area = std::sqrt(area) / 4;
  if (!(area > 0) || !std::isfinite(area)) return false;
  for (int j = 0; j < 3; ++j)
    cotangent[j] = (square[(j + 1) % 3] + square[(j + 2) % 3] - square[j]) / (4 * area);
  for (int j = 0; j < 3; ++j) {
    const int k = (j + 1) % 3, l = (j + 2) % 3;
    gamma[j] =
        rest[k] * rest[l] * (2 * cotangent[k] * cotangent[l] * (lambda + mu) - mu) / (8 * area);
    stiffness[j] =
        rest[j] * rest[j] * (2 * cotangent[j] * cotangent[j] * (lambda + mu) + mu) / (8 * area);
  }
  return true;
}

TriangularQuadraticSprings::TriangularQuadraticSprings(std::vector<Edge> edges,
                                                       std::vector<Triangle> triangles,
                                                       double damping_ratio, bool angular)
    : edges_(std::move(edges)),
      triangles_(std::move(triangles)),
      damping_ratio_(damping_ratio),
      angular_(angular),
      measured_(edges_.size()) {}

void TriangularQuadraticSprings::MeasureEdges(const State& state) const {
  for (std::size_t e = 0; e < edges_.size(); ++e) {
    const Edge& edge = edges_[e];
    const Eigen::Vector3d p = state.x.segment<3>(edge.a) - state.x.segment<3>(edge.b);
    const Eigen::Vector3d dv = state.v.segment<3>(edge.a) - state.v.segment<3>(edge.b);
    const double length = p.norm();
    measured_[e].length = length;
    measured_[e].dl = length - edge.rest_length + damping_ratio_ * dv.dot(p) / length;
  }
}

void TriangularQuadraticSprings::AddForce(const State& state, Vector& f) const {
  MeasureEdges(state);
  for (std::size_t e = 0; e < edges_.size(); ++e) {
    const Edge& edge = edges_[e];
    const Eigen::Vector3d p = state.x.segment<3>(edge.a) - state.x.segment<3>(edge.b);
    const double value = edge.stiffness * measured_[e].dl / measured_[e].length;
    f.segment<3>(edge.b) += p * value;
    f.segment<3>(edge.a) -= p * value;
  }
  if (!angular_) return;
  for (const Triangle& t : triangles_)
    for (int j = 0; j < 3; ++j) {
      const int k = (j + 1) % 3, l = (j + 2) % 3;
      const Eigen::Vector3d force =
          (state.x.segment<3>(t.dof[k]) - state.x.segment<3>(t.dof[l])) *
          (measured_[t.edge[k]].dl * t.gamma[l] + measured_[t.edge[l]].dl * t.gamma[k]) /
          measured_[t.edge[j]].length;
      f.segment<3>(t.dof[l]) += force;
      f.segment<3>(t.dof[k]) -= force;
    }
}

double TriangularQuadraticSprings::PotentialEnergy(const State& state) const {
  State still = state;  // V has no damping term: the lengths alone
  still.v.setZero();
  MeasureEdges(still);
  double energy = 0;
  for (std::size_t e = 0; e < edges_.size(); ++e)
    energy += 0.5 * edges_[e].stiffness * measured_[e].dl * measured_[e].dl;
  if (angular_)
    for (const Triangle& t : triangles_)
      for (int j = 0; j < 3; ++j)
        energy +=
            t.gamma[j] * measured_[t.edge[(j + 1) % 3]].dl * measured_[t.edge[(j + 2) % 3]].dl;
  return energy;
}

std::array<double, 81> TriangularQuadraticSprings::TriangleStiffness(std::size_t index,
                                                                     const State& state) const {
  MeasureEdges(state);
  return TriangleBlocks(index, state);
}

std::array<double, 81> TriangularQuadraticSprings::TriangleBlocks(std::size_t index,
                                                                  const State& state) const {
  const Triangle& t = triangles_[index];
  const auto edge = [&](int v) { return measured_[t.edge[v]]; };
  const auto rest = [&](int v) { return edges_[t.edge[v]].rest_length; };
  const auto x = [&](int v) { return Eigen::Vector3d(state.x.segment<3>(t.dof[v])); };
  Eigen::Matrix<double, 9, 9> K = Eigen::Matrix<double, 9, 9>::Zero();
  for (int k = 0; k < 3; ++k) {
    const int i = (k + 1) % 3, j = (k + 2) % 3;
    const Eigen::Vector3d pk = x(i) - x(j);
    const double lk = edge(k).length;
    Eigen::Matrix3d m;
    if (!angular_) {
      const double val1 = -t.stiffness[k] * edge(k).dl / lk;
      const double val2 = -t.stiffness[k] * rest(k) / (lk * lk * lk);
      m = val2 * pk * pk.transpose() + val1 * Eigen::Matrix3d::Identity();
    } else {
      const Eigen::Vector3d pj = x(i) - x(k), pi = x(j) - x(k);
      const double c =
          t.stiffness[k] * edge(k).dl + t.gamma[i] * edge(j).dl + t.gamma[j] * edge(i).dl;
      const double val1 = -c / lk;
      const double val2 = (c - t.stiffness[k] * rest(k)) / (lk * lk * lk);
      const double valk = t.gamma[k] / (edge(j).length * edge(i).length);
      const double vali = t.gamma[i] / (edge(j).length * lk);
      const double valj = t.gamma[j] / (lk * edge(i).length);
      m = val2 * pk * pk.transpose() + valk * pj * pi.transpose() - vali * pj * pk.transpose() +
          valj * pk * pi.transpose() + val1 * Eigen::Matrix3d::Identity();
    }
    // ∂f_i/∂x_i = m, ∂f_i/∂x_j = −m, ∂f_j/∂x_i = −mᵀ, ∂f_j/∂x_j = mᵀ; K = −∂f/∂x.
    K.block<3, 3>(3 * i, 3 * i) -= m;
    K.block<3, 3>(3 * i, 3 * j) += m;
    K.block<3, 3>(3 * j, 3 * i) += m.transpose();
    K.block<3, 3>(3 * j, 3 * j) -= m.transpose();
  }
  std::array<double, 81> out{};
  Eigen::Map<Eigen::Matrix<double, 9, 9, Eigen::RowMajor>>(out.data()) = K;
  return out;
}

void TriangularQuadraticSprings::StiffnessEntries(std::vector<MatrixEntry>& entries) const {
  AppendElementBlockEntries(triangles_, entries);
}

void TriangularQuadraticSprings::AddStiffness(const State& state, const Index* slots,
                                              double* values) const {
  // SOFA's addDForce takes the lengths and dl of the last addForce: those of this state.
  MeasureEdges(state);
  for (std::size_t index = 0; index < triangles_.size(); ++index) {
    const std::array<double, 81> k = TriangleBlocks(index, state);
    const Eigen::Map<const Eigen::Matrix<double, 9, 9, Eigen::RowMajor>> K(k.data());
    AddElementBlocks(K, triangles_[index].dof, slots + index * 81, values,
                     [](Index) { return true; });
  }
}

std::ptrdiff_t TriangularQuadraticSprings::TangentSize() const {
  return static_cast<std::ptrdiff_t>(triangles_.size() * kTriangleSpringTangentStride);
}

void TriangularQuadraticSprings::LinearizeStiffness(const State& state, double* tangent) const {
  MeasureEdges(state);  // as AddStiffness: the lengths of this state
  for (std::size_t index = 0; index < triangles_.size(); ++index)
    StoreTriangleBlock(TriangleBlocks(index, state),
                       tangent + index * kTriangleSpringTangentStride);
}

void TriangularQuadraticSprings::AddTangentProduct(const double* tangent, double /*b*/, double k,
                                                   const Vector& x, Vector& y) const {
  if (k != 0.0) AddTriangleBlocksProduct(triangles_, tangent, k, x, y);
}

// --- Topological changes followed in place -----------------------------------------------------

void TriangularQuadraticSprings::RemoveTrianglesMovingLast(
    std::span<const Index> sorted_descending) {
  RemoveMovingLast(triangles_, sorted_descending);
}

void TriangularQuadraticSprings::RemoveEdgesMovingLast(std::span<const Index> sorted_descending) {
  RemoveMovingLast(edges_, sorted_descending);  // measured_ keeps its size: read up to edges_
}

void TriangularQuadraticSprings::SetTriangle(std::size_t t, const std::array<Index, 3>& dof,
                                             const std::array<Index, 3>& edges) {
  triangles_[t].dof = dof;
  for (std::size_t j = 0; j < 3; ++j) triangles_[t].edge[j] = static_cast<std::size_t>(edges[j]);
}

void TriangularQuadraticSprings::SetEdgeEnds(std::size_t e, Index a, Index b) {
  edges_[e].a = a;
  edges_[e].b = b;
}

void TriangularQuadraticSprings::SumEdgeStiffness(std::size_t e, std::span<const Index> around) {
  edges_[e].stiffness = internal::SumEdgeStiffness(triangles_, e, around);
}

}  // namespace fluxion::internal
