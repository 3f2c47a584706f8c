#include "mechanics/triangular_biquadratic_springs.h"

#include <cmath>
#include <string>

#include <Eigen/Dense>

#include "fluxion/log.h"
#include "mechanics/element_loops.h"
#include "mechanics/triangle_spring_elements.h"

namespace fluxion::internal {
namespace {

// SOFA's thresholds (addForce): below J = 0.01 the normal is the last valid one; a normal whose
// dot product with the last valid one is −0.5 or less (turned by 120° or more) has flipped.
constexpr double kSmallestValidJ = 1e-2;
constexpr double kFlipDot = -0.5;

Eigen::Matrix3d Skew(const Eigen::Vector3d& v) {  // Skew(v)·w = v × w
  Eigen::Matrix3d m;
  m << 0, -v.z(), v.y(), v.z(), 0, -v.x(), -v.y(), v.x(), 0;
  return m;
}

}  // namespace

bool TriangularBiquadraticSprings::TriangleConstants(const std::array<double, 3>& rest,
                                                     double young, double poisson,
                                                     std::array<double, 3>& stiffness,
                                                     std::array<double, 3>& gamma, double& area) {
  const double lambda = young * poisson / (1 - poisson * poisson);
  const double mu = young * (1 - poisson) / (1 - poisson * poisson);
  std::array<double, 3> square{}, cotangent{};
  for (int j = 0; j < 3; ++j) square[j] = rest[j] * rest[j];
  area = 0;
  for (int j = 0; j < 3; ++j)
    area += square[j] * (square[(j + 1) % 3] + square[(j + 2) % 3] - square[j]);
  area = std::sqrt(area) / 4;
  if (!(area > 0) || !std::isfinite(area)) return false;
  for (int j = 0; j < 3; ++j)
    cotangent[j] = (square[(j + 1) % 3] + square[(j + 2) % 3] - square[j]) / (4 * area);
  for (int j = 0; j < 3; ++j) {
    const int k = (j + 1) % 3, l = (j + 2) % 3;
    gamma[j] = (2 * cotangent[k] * cotangent[l] * (lambda + mu) - mu) / (16 * area);
    stiffness[j] = (2 * cotangent[j] * cotangent[j] * (lambda + mu) + mu) / (16 * area);
  }
  return true;
}

TriangularBiquadraticSprings::TriangularBiquadraticSprings(std::vector<Edge> edges,
                                                           std::vector<Triangle> triangles,
                                                           const Options& options)
    : edges_(std::move(edges)),
      triangles_(std::move(triangles)),
      options_(options),
      lambda_(options.young * options.poisson / (1 - options.poisson * options.poisson)),
      mu_(options.young * (1 - options.poisson) / (1 - options.poisson * options.poisson)),
      measured_(edges_.size()) {
  last_valid_normal_.reserve(triangles_.size());
  for (const Triangle& t : triangles_) last_valid_normal_.push_back(t.rest_normal);
}

void TriangularBiquadraticSprings::MeasureEdges(const State& state) const {
  for (std::size_t e = 0; e < edges_.size(); ++e) {
    const Edge& edge = edges_[e];
    const Eigen::Vector3d p = state.x.segment<3>(edge.a) - state.x.segment<3>(edge.b);
    const Eigen::Vector3d dv = state.v.segment<3>(edge.a) - state.v.segment<3>(edge.b);
    const double square = p.squaredNorm();
    measured_[e].square_length = square;
    measured_[e].delta =
        square - edge.rest_square_length + options_.damping_ratio * dv.dot(p) / square;
  }
}

TriangularBiquadraticSprings::Area TriangularBiquadraticSprings::MeasureArea(
    std::size_t index, const State& state) const {
  const Triangle& t = triangles_[index];
  const auto x = [&](int v) { return Eigen::Vector3d(state.x.segment<3>(t.dof[v])); };
  Area out;
  out.normal = (x(1) - x(0)).cross(x(2) - x(0));  // SOFA's −d_2 × d_1
  out.area = out.normal.norm() / 2;
  out.J = out.area / t.rest_area;
  if (out.J >= 1) return out;
  const Eigen::Vector3d& last = last_valid_normal_[index];
  if (out.J < kSmallestValidJ) {
    out.normal = last;
    return out;
  }
  out.normal /= 2 * out.area;
  if (out.normal.dot(last) > kFlipDot) {
    out.valid = true;
  } else {
    out.flipped = true;
    out.normal = -out.normal;
  }
  return out;
}

void TriangularBiquadraticSprings::AddForce(const State& state, Vector& f) const {
  MeasureEdges(state);
  for (std::size_t e = 0; e < edges_.size(); ++e) {
    const Edge& edge = edges_[e];
    const Eigen::Vector3d p = state.x.segment<3>(edge.a) - state.x.segment<3>(edge.b);
    const Eigen::Vector3d force = p * (edge.stiffness * measured_[e].delta);
    f.segment<3>(edge.b) += force;
    f.segment<3>(edge.a) -= force;
  }
  if (!options_.angular) return;
  const double area_stiffness = 3 * (lambda_ + mu_);
  std::size_t first_flipped = triangles_.size();
  for (std::size_t index = 0; index < triangles_.size(); ++index) {
    const Triangle& t = triangles_[index];
    std::array<Eigen::Vector3d, 3> d;
    for (int j = 0; j < 3; ++j) {
      const int k = (j + 1) % 3, l = (j + 2) % 3;
      d[j] = state.x.segment<3>(t.dof[l]) - state.x.segment<3>(t.dof[k]);
      const Eigen::Vector3d force = -d[j] * (measured_[t.edge[k]].delta * t.gamma[l] +
                                             measured_[t.edge[l]].delta * t.gamma[k]);
      f.segment<3>(t.dof[l]) += force;
      f.segment<3>(t.dof[k]) -= force;
    }
    if (!options_.compressible) continue;
    const Area area = MeasureArea(index, state);
    if (area.J >= 1) continue;
    if (area.valid) last_valid_normal_[index] = area.normal;
    if (area.flipped && first_flipped == triangles_.size()) first_flipped = index;
    const double value = area_stiffness * std::pow(area.J - 1, 3);
    for (int j = 0; j < 3; ++j) f.segment<3>(t.dof[j]) -= area.normal.cross(d[j]) * (value / 2);
  }
  if (first_flipped < triangles_.size() && !warned_flip_) {
    warned_flip_ = true;
    LogWarn("TriangularBiquadraticSpringsForceField: triangle " + std::to_string(first_flipped) +
            " has flipped (its compression force now pushes it back through; further flips are "
            "not reported)");
  }
}

double TriangularBiquadraticSprings::PotentialEnergy(const State& state) const {
  State still = state;  // V has no damping term: the lengths alone
  still.v.setZero();
  MeasureEdges(still);
  double energy = 0;
  for (std::size_t e = 0; e < edges_.size(); ++e)
    energy += 0.25 * edges_[e].stiffness * measured_[e].delta * measured_[e].delta;
  if (!options_.angular) return energy;
  for (std::size_t index = 0; index < triangles_.size(); ++index) {
    const Triangle& t = triangles_[index];
    for (int j = 0; j < 3; ++j)
      energy += 0.5 * t.gamma[j] * measured_[t.edge[(j + 1) % 3]].delta *
                measured_[t.edge[(j + 2) % 3]].delta;
    if (!options_.compressible) continue;
    const double J = MeasureArea(index, still).J;
    if (J < 1) energy += 0.75 * (lambda_ + mu_) * t.rest_area * std::pow(1 - J, 4);
  }
  return energy;
}

std::array<double, 81> TriangularBiquadraticSprings::TriangleStiffness(std::size_t index,
                                                                       const State& state) const {
  MeasureEdges(state);
  return TriangleBlocks(index, state);
}

std::array<double, 81> TriangularBiquadraticSprings::TriangleBlocks(std::size_t index,
                                                                    const State& state) const {
  const Triangle& t = triangles_[index];
  const auto edge = [&](int v) { return measured_[t.edge[v]]; };
  const auto x = [&](int v) { return Eigen::Vector3d(state.x.segment<3>(t.dof[v])); };
  std::array<Eigen::Matrix3d, 3> m;
  for (int k = 0; k < 3; ++k) {
    const int i = (k + 1) % 3, j = (k + 2) % 3;
    const Eigen::Vector3d pk = x(i) - x(j);
    m[k] = -2 * t.stiffness[k] * pk * pk.transpose();
    if (!options_.angular) {
      m[k].diagonal().array() -= t.stiffness[k] * edge(k).delta;
      continue;
    }
    const Eigen::Vector3d pj = x(i) - x(k), pi = x(j) - x(k);
    m[k] += 2 * t.gamma[k] * pj * pi.transpose() - 2 * t.gamma[i] * pj * pk.transpose() +
            2 * t.gamma[j] * pk * pi.transpose();
    m[k].diagonal().array() -=
        t.stiffness[k] * edge(k).delta + t.gamma[i] * edge(j).delta + t.gamma[j] * edge(i).delta;
  }
  if (options_.angular && options_.compressible) {
    const Area area = MeasureArea(index, state);
    if (area.J < 1) {
      const double c = 3 * (lambda_ + mu_), JJ = area.J - 1, h = -JJ;
      const double outer = c * JJ * JJ * 3 / t.rest_area;  // SOFA's val2
      const double s = c * JJ * JJ * JJ / 2;
      const Eigen::Matrix3d nn = area.normal * area.normal.transpose() * (s / (2 * area.area));
      std::array<Eigen::Vector3d, 3> a;  // ∂A/∂x_j = ½·n × d_j
      for (int j = 0; j < 3; ++j) a[j] = area.normal.cross(x((j + 2) % 3) - x((j + 1) % 3)) / 2;
      const double total = edge(0).square_length + edge(1).square_length + edge(2).square_length;
      for (int k = 0; k < 3; ++k) {
        const Eigen::Vector3d& ai = a[(k + 1) % 3];
        const Eigen::Vector3d& aj = a[(k + 2) % 3];
        m[k] += s * Skew(area.normal) + (1 - h) * outer * ai * aj.transpose() +
                nn * (total - 2 * edge(k).square_length);
        m[k].diagonal().array() += h * outer * ai.dot(aj);
      }
    }
  }
  Eigen::Matrix<double, 9, 9> K = Eigen::Matrix<double, 9, 9>::Zero();
  for (int k = 0; k < 3; ++k) {
    const int i = (k + 1) % 3, j = (k + 2) % 3;
    // ∂f_i/∂x_i = m, ∂f_i/∂x_j = −m, ∂f_j/∂x_i = −mᵀ, ∂f_j/∂x_j = mᵀ; K = −∂f/∂x.
    K.block<3, 3>(3 * i, 3 * i) -= m[k];
    K.block<3, 3>(3 * i, 3 * j) += m[k];
    K.block<3, 3>(3 * j, 3 * i) += m[k].transpose();
    K.block<3, 3>(3 * j, 3 * j) -= m[k].transpose();
  }
  std::array<double, 81> out{};
  Eigen::Map<Eigen::Matrix<double, 9, 9, Eigen::RowMajor>>(out.data()) = K;
  return out;
}

void TriangularBiquadraticSprings::StiffnessEntries(std::vector<MatrixEntry>& entries) const {
  AppendElementBlockEntries(triangles_, entries);
}

void TriangularBiquadraticSprings::AddStiffness(const State& state, const Index* slots,
                                                double* values) const {
  // SOFA's addDForce takes the lengths and Δ of the last addForce: those of this state, and the
  // normals as the last AddForce left them.
  MeasureEdges(state);
  for (std::size_t index = 0; index < triangles_.size(); ++index) {
    const std::array<double, 81> k = TriangleBlocks(index, state);
    const Eigen::Map<const Eigen::Matrix<double, 9, 9, Eigen::RowMajor>> K(k.data());
    AddElementBlocks(K, triangles_[index].dof, slots + index * 81, values,
                     [](Index) { return true; });
  }
}

std::ptrdiff_t TriangularBiquadraticSprings::TangentSize() const {
  return static_cast<std::ptrdiff_t>(triangles_.size() * kTriangleSpringTangentStride);
}

void TriangularBiquadraticSprings::LinearizeStiffness(const State& state, double* tangent) const {
  MeasureEdges(state);  // as AddStiffness: the lengths of this state
  for (std::size_t index = 0; index < triangles_.size(); ++index)
    StoreTriangleBlock(TriangleBlocks(index, state),
                       tangent + index * kTriangleSpringTangentStride);
}

void TriangularBiquadraticSprings::AddTangentProduct(const double* tangent, double /*b*/, double k,
                                                     const Vector& x, Vector& y) const {
  if (k != 0.0) AddTriangleBlocksProduct(triangles_, tangent, k, x, y);
}

// --- Topological changes followed in place -----------------------------------------------------

void TriangularBiquadraticSprings::RemoveTrianglesMovingLast(
    std::span<const Index> sorted_descending) {
  RemoveMovingLast(triangles_, sorted_descending);
  RemoveMovingLast(last_valid_normal_, sorted_descending);  // SOFA's TriangleData keeps it
}

void TriangularBiquadraticSprings::RemoveEdgesMovingLast(std::span<const Index> sorted_descending) {
  RemoveMovingLast(edges_, sorted_descending);  // measured_ keeps its size: read up to edges_
}

void TriangularBiquadraticSprings::SetTriangle(std::size_t t, const std::array<Index, 3>& dof,
                                               const std::array<Index, 3>& edges) {
  triangles_[t].dof = dof;
  for (std::size_t j = 0; j < 3; ++j) triangles_[t].edge[j] = static_cast<std::size_t>(edges[j]);
}

void TriangularBiquadraticSprings::SetEdgeEnds(std::size_t e, Index a, Index b) {
  edges_[e].a = a;
  edges_[e].b = b;
}

void TriangularBiquadraticSprings::SumEdgeStiffness(std::size_t e, std::span<const Index> around) {
  edges_[e].stiffness = internal::SumEdgeStiffness(triangles_, e, around);
}

}  // namespace fluxion::internal
