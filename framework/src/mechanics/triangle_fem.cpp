#include "mechanics/triangle_fem.h"

#include <cmath>
#include <string>

#include "fluxion/errors.h"
#include "fluxion/threads.h"
#include "mechanics/element_stress.h"
#include "mechanics/tetrahedron_fem.h"

namespace fluxion::internal {

namespace {

// Elements per thread at least. A triangle's force costs a few tens of nanoseconds (a frame,
// a 3×3 product), half a tetrahedron's: twice the tetrahedra's 2048 keeps ≈ 0.1 ms of work per
// thread, well above the start and the join of a parallel region.
constexpr Index kTriangleGrain = 4096;

// Doubles stored per element by LinearizeStiffness: E (2×3, row-major), g_a, g_b, g_c.
constexpr std::size_t kTriangleTangentStride = 12;

// g_b = (c_y, −c_x)/Δ, g_c = (−b_y, b_x)/Δ, g_a = −(g_b + g_c) (the forces then sum to zero to
// the last bit): the gradients of the linear shape functions of the triangle (0, b, c) when
// Δ = b_x·c_y − b_y·c_x.
void Gradients(const Eigen::Vector2d& b, const Eigen::Vector2d& c, double inverse_delta,
               std::array<Eigen::Vector2d, 3>& g) {
  g[1] = Eigen::Vector2d(c.y(), -c.x()) * inverse_delta;
  g[2] = Eigen::Vector2d(-b.y(), b.x()) * inverse_delta;
  g[0] = -(g[1] + g[2]);
}

}  // namespace

bool TriangleFem::MakeElement(const std::array<Index, 3>& dof, const Eigen::Vector2d& rest_b,
                              const Eigen::Vector2d& rest_c, double area, const Material& m,
                              Element& element) {
  const double delta = rest_b.x() * rest_c.y() - rest_b.y() * rest_c.x();
  if (delta == 0.0 || !std::isfinite(delta) || !std::isfinite(area)) return false;
  element.dof = dof;
  element.rest_b = rest_b;
  element.rest_c = rest_c;
  Gradients(rest_b, rest_c, 1.0 / delta, element.rest_gradient);
  // SOFA's materialMatrix: Hooke's plane-stress (or plane-strain) matrix times the weight.
  const double nu = m.poisson;
  Eigen::Matrix3d D = Eigen::Matrix3d::Zero();
  if (m.plane_strain) {
    D << 1 - nu, nu, 0, nu, 1 - nu, 0, 0, 0, 0.5 - nu;
    D *= m.young / ((1 + nu) * (1 - 2 * nu));
  } else {
    D << 1, nu, 0, nu, 1, 0, 0, 0, 0.5 * (1 - nu);
    D *= m.young / (1 - nu * nu);
  }
  element.weight = m.thickness * area;
  element.material = element.weight * D;
  element.out_of_plane = m.plane_strain ? nu : 0.0;
  return true;
}

TriangleFem::TriangleFem(TriangleFemMethod method, TriangleFemGradients gradients,
                         std::vector<Element> elements)
    : method_(method), gradients_(gradients), elements_(std::move(elements)) {}

// --- One element -----------------------------------------------------------------------------

void TriangleFem::ComputeFrame(const Element& e, const Vector& x, Frame& frame) const {
  const Eigen::Vector3d a = x.segment<3>(e.dof[0]);
  const Eigen::Vector3d ab = x.segment<3>(e.dof[1]) - a;
  const Eigen::Vector3d ac = x.segment<3>(e.dof[2]) - a;
  double inverse_delta = 0.0;
  if (method_ == TriangleFemMethod::kLarge) {
    // SOFA's computeRotationLarge; b' lies on e_x (its y taken as exactly 0, as SOFA does).
    const Eigen::Matrix3d r = EdgeFrame(a, a + ab, a + ac);
    frame.axes = r.topRows<2>();
    frame.b = Eigen::Vector2d(r.row(0).dot(ab), 0.0);
    frame.c = frame.axes * ac;
    inverse_delta = 1.0 / (frame.b.x() * frame.c.y());
  } else {
    // The world's xy plane; Δ is the 3-D norm of the cross product, as SOFA's
    // computeStrainDisplacementGlobal (the sign of Δ cancels in g·D·g).
    frame.axes << 1, 0, 0, 0, 1, 0;
    frame.b = ab.head<2>();
    frame.c = ac.head<2>();
    inverse_delta = 1.0 / ab.cross(ac).norm();
  }
  if (gradients_ == TriangleFemGradients::kCurrent)
    Gradients(frame.b, frame.c, inverse_delta, frame.gradient);
  else
    frame.gradient = e.rest_gradient;
}

Eigen::Vector3d TriangleFem::Strain(const std::array<Eigen::Vector2d, 3>& g,
                                    const std::array<Eigen::Vector2d, 3>& d) {
  Eigen::Vector3d strain = Eigen::Vector3d::Zero();
  for (int v = 0; v < 3; ++v) {
    strain[0] += g[v].x() * d[v].x();
    strain[1] += g[v].y() * d[v].y();
    strain[2] += g[v].y() * d[v].x() + g[v].x() * d[v].y();
  }
  return strain;
}

void TriangleFem::NodalForces(const std::array<Eigen::Vector2d, 3>& g, const Eigen::Vector3d& sigma,
                              std::array<Eigen::Vector2d, 3>& out) {
  for (int v = 0; v < 3; ++v)
    out[v] = Eigen::Vector2d(g[v].x() * sigma[0] + g[v].y() * sigma[2],
                             g[v].y() * sigma[1] + g[v].x() * sigma[2]);
}

Eigen::Matrix<double, 9, 9> TriangleFem::ElementStiffness(std::size_t index,
                                                          const Vector& x) const {
  const Element& e = elements_[index];
  Frame frame;
  ComputeFrame(e, x, frame);
  std::array<Eigen::Matrix<double, 3, 2>, 3> G;  // ε = Σ G_v·d_v
  for (int v = 0; v < 3; ++v) {
    const Eigen::Vector2d& g = frame.gradient[v];
    G[v] << g.x(), 0, 0, g.y(), g.y(), g.x();
  }
  Eigen::Matrix<double, 9, 9> K;
  for (int u = 0; u < 3; ++u)
    for (int v = 0; v < 3; ++v)
      K.block<3, 3>(3 * u, 3 * v) =
          frame.axes.transpose() * (G[u].transpose() * e.material * G[v]) * frame.axes;
  return K;
}

// --- Force -------------------------------------------------------------------------------------

void TriangleFem::AddForce(const State& state, Vector& f) const {
  auto loop = [&](int range) {
    Frame frame;
    std::array<Eigen::Vector2d, 3> d, local_force;
    d[0].setZero();
    partition_.ForElements(elements_.size(), range, [&](std::size_t index, const auto& owns) {
      const Element& e = elements_[index];
      ComputeFrame(e, state.x, frame);
      // SOFA's D = rest − current, so F = Gᵀ·D·ε is the restoring force.
      d[1] = e.rest_b - frame.b;
      d[2] = e.rest_c - frame.c;
      NodalForces(frame.gradient, e.material * Strain(frame.gradient, d), local_force);
      for (int v = 0; v < 3; ++v)
        if (owns(e.dof[v]))
          f.segment<3>(e.dof[v]).noalias() += frame.axes.transpose() * local_force[v];
    });
  };
  partition_.Run(elements_, kTriangleGrain, loop);
}

double TriangleFem::PotentialEnergy(const State& state) const {
  Frame frame;
  std::array<Eigen::Vector2d, 3> d;
  d[0].setZero();
  double energy = 0.0;
  for (const Element& e : elements_) {
    ComputeFrame(e, state.x, frame);
    d[1] = e.rest_b - frame.b;
    d[2] = e.rest_c - frame.c;
    const Eigen::Vector3d strain = Strain(frame.gradient, d);
    energy += 0.5 * strain.dot(e.material * strain);
  }
  return energy;
}

// --- Assembled stiffness -------------------------------------------------------------------------

void TriangleFem::StiffnessEntries(std::vector<MatrixEntry>& entries) const {
  AppendElementBlockEntries(elements_, entries);
}

void TriangleFem::AddStiffness(const State& state, const Index* slots, double* values) const {
  // A slot belongs to one column vertex: the range owning it writes the block.
  auto loop = [&](int range) {
    partition_.ForElements(elements_.size(), range, [&](std::size_t index, const auto& owns) {
      const Eigen::Matrix<double, 9, 9> K = ElementStiffness(index, state.x);
      AddElementBlocks(K, elements_[index].dof, slots + index * 81, values, owns);
    });
  };
  partition_.Run(elements_, kTriangleGrain, loop);
}

// --- Matrix-free tangent -----------------------------------------------------------------------

std::ptrdiff_t TriangleFem::TangentSize() const {
  return static_cast<std::ptrdiff_t>(elements_.size() * kTriangleTangentStride);
}

void TriangleFem::LinearizeStiffness(const State& state, double* tangent) const {
  // Each element writes its own slice: any split over the threads gives the same numbers.
  ParallelFor(static_cast<Index>(elements_.size()), kTriangleGrain, [&](Index begin, Index end) {
    Frame frame;
    for (Index index = begin; index < end; ++index) {
      ComputeFrame(elements_[static_cast<std::size_t>(index)], state.x, frame);
      double* out = tangent + static_cast<std::size_t>(index) * kTriangleTangentStride;
      for (int i = 0; i < 2; ++i)
        for (int j = 0; j < 3; ++j) *out++ = frame.axes(i, j);
      for (const Eigen::Vector2d& g : frame.gradient) {
        *out++ = g.x();
        *out++ = g.y();
      }
    }
  });
}

void TriangleFem::AddTangentProduct(const double* tangent, double /*b*/, double k, const Vector& x,
                                    Vector& y) const {
  // y_v += k·Eᵀ·G_vᵀ·D·Σ_u G_u·E·x_u: SOFA's applyStiffness{Small,Large} and Optim's addDForce.
  auto loop = [&](int range) {
    std::array<Eigen::Vector2d, 3> d, g, out;
    partition_.ForElements(elements_.size(), range, [&](std::size_t index, const auto& owns) {
      const Element& e = elements_[index];
      const double* t = tangent + index * kTriangleTangentStride;
      const Eigen::Map<const Eigen::Matrix<double, 2, 3, Eigen::RowMajor>> axes(t);
      for (int v = 0; v < 3; ++v) {
        g[v] = Eigen::Map<const Eigen::Vector2d>(t + 6 + 2 * v);
        d[v].noalias() = axes * x.segment<3>(e.dof[v]);
      }
      NodalForces(g, e.material * Strain(g, d), out);
      for (int v = 0; v < 3; ++v)
        if (owns(e.dof[v])) y.segment<3>(e.dof[v]).noalias() += k * (axes.transpose() * out[v]);
    });
  };
  partition_.Run(elements_, kTriangleGrain, loop);
}

// --- Topological changes followed in place -----------------------------------------------------

void TriangleFem::RemoveElementsMovingLast(std::span<const Index> sorted_descending) {
  for (const Index removed : sorted_descending) {
    const auto slot = static_cast<std::size_t>(removed);
    FLUXION_DEMAND(slot < elements_.size());
    if (slot + 1 != elements_.size()) elements_[slot] = elements_.back();
    elements_.pop_back();
  }
  partition_.Reset();
}

void TriangleFem::AppendElements(std::span<const Element> added) {
  elements_.insert(elements_.end(), added.begin(), added.end());
  partition_.Reset();
}

void TriangleFem::SetElementDofs(std::size_t e, const std::array<Index, 3>& dof) {
  elements_[e].dof = dof;
  partition_.Reset();
}

// --- Per-element output ------------------------------------------------------------------------

void TriangleFem::VonMises(const Vector& x, double* out) const {
  Frame frame;
  std::array<Eigen::Vector2d, 3> d;
  d[0].setZero();
  for (std::size_t index = 0; index < elements_.size(); ++index) {
    const Element& e = elements_[index];
    ComputeFrame(e, x, frame);
    d[1] = e.rest_b - frame.b;
    d[2] = e.rest_c - frame.c;
    // SOFA's D = rest − current gives −ε: the sign does not change the measure.
    const Eigen::Vector3d sigma = e.material * Strain(frame.gradient, d) / e.weight;
    Eigen::Matrix3d s = Eigen::Matrix3d::Zero();
    s(0, 0) = sigma[0];
    s(1, 1) = sigma[1];
    s(0, 1) = s(1, 0) = sigma[2];
    s(2, 2) = e.out_of_plane * (sigma[0] + sigma[1]);
    out[index] = VonMisesStress(s);
  }
}

void TriangleFem::PublishVonMises(std::shared_ptr<const Topology> topology) {
  PublishOutput(
      Description{"vonMisesPerElement", "Pa", ElementType::kTriangle, std::move(topology)});
}

}  // namespace fluxion::internal
