#include "mechanics/tetrahedron_fem.h"

#include <cmath>
#include <string>

#include <Eigen/SVD>

#include "fluxion/errors.h"
#include "fluxion/threads.h"
#include "mechanics/element_loops.h"
#include "mechanics/element_stress.h"

namespace fluxion::internal {

namespace {

// Elements per thread at least. One element's product costs about 0.1 µs (its force with an SVD
// a few times more), so 2048 elements are ≈ 0.2 ms of work per thread: well above the start and
// the join of a parallel region, even on a loaded machine (with 512, a 1520-element beam ran 7×
// slower on two busy cores than on one).
constexpr Index kTetrahedronGrain = 2048;

// SOFA's accumulateForceSVD: below this volume ratio det(A·A_rest⁻¹) an element is treated as
// inverted or flat and its rotation comes from the stable (rotation-only) SVD.
constexpr double kSvdInversionThreshold = 1e-6;

// g_a = ∇λ_a of the tetrahedron P₀…P₃ (SOFA's shape vectors: the face opposite a over 6V with
// the orientation's sign); g₀ = −(g₁ + g₂ + g₃) so that the forces sum to zero to the last bit.
// Returns the signed 6V.
double ShapeVectors(const std::array<Eigen::Vector3d, 4>& P, std::array<Eigen::Vector3d, 4>& g) {
  const double six_volume = (P[2] - P[0]).cross(P[3] - P[0]).dot(P[1] - P[0]);
  for (int a = 1; a < 4; ++a) {
    const double sign = (a % 2 == 1) ? 1.0 : -1.0;
    g[a] = sign * (P[(a + 2) % 4] - P[(a + 1) % 4]).cross(P[(a + 3) % 4] - P[(a + 1) % 4]) /
           six_volume;
  }
  g[0] = -(g[1] + g[2] + g[3]);
  return six_volume;
}

// The edges from vertex 0 as the rows of a matrix (SOFA's `A`).
Eigen::Matrix3d EdgeRows(const Eigen::Vector3d& x0, const Eigen::Vector3d& x1,
                         const Eigen::Vector3d& x2, const Eigen::Vector3d& x3) {
  Eigen::Matrix3d A;
  A.row(0) = (x1 - x0).transpose();
  A.row(1) = (x2 - x0).transpose();
  A.row(2) = (x3 - x0).transpose();
  return A;
}

// Doubles stored per element by LinearizeStiffness: Q (9, row-major), g₀…g₃ (12), weight.
constexpr std::size_t kTangentStride = 22;

}  // namespace

// --- Rotations ---------------------------------------------------------------------------------

Eigen::Matrix3d PolarFactor(const Eigen::Matrix3d& A) {
  const Eigen::JacobiSVD<Eigen::Matrix3d> svd(A, Eigen::ComputeFullU | Eigen::ComputeFullV);
  return svd.matrixU() * svd.matrixV().transpose();
}

Eigen::Matrix3d StablePolarRotation(const Eigen::Matrix3d& A) {
  const Eigen::JacobiSVD<Eigen::Matrix3d> svd(A, Eigen::ComputeFullU | Eigen::ComputeFullV);
  Eigen::Matrix3d U = svd.matrixU();
  const Eigen::Matrix3d& V = svd.matrixV();
  // Eigen sorts the singular values in decreasing order: column 2 is the smallest.
  if (U.determinant() * V.determinant() < 0.0) U.col(2) = -U.col(2);
  return U * V.transpose();
}

Eigen::Matrix3d EdgeFrame(const Eigen::Vector3d& x0, const Eigen::Vector3d& x1,
                          const Eigen::Vector3d& x2) {
  const Eigen::Vector3d ex = (x1 - x0).normalized();
  const Eigen::Vector3d ez = ex.cross(x2 - x0).normalized();
  const Eigen::Vector3d ey = ez.cross(ex);  // unit: ez ⟂ ex, both unit
  Eigen::Matrix3d r;
  r.row(0) = ex.transpose();
  r.row(1) = ey.transpose();
  r.row(2) = ez.transpose();
  return r;
}

// --- Rest state ----------------------------------------------------------------------------------

long TetrahedronFem::RestElements(TetrahedronFemMethod method,
                                  const std::vector<std::array<Index, 4>>& tetrahedra,
                                  const Vector& rest, Index first_dof,
                                  const std::vector<double>& young,
                                  const std::vector<double>& poisson,
                                  std::vector<Element>& elements) {
  elements.clear();
  elements.reserve(tetrahedra.size());
  for (std::size_t t = 0; t < tetrahedra.size(); ++t) {
    Element e;
    std::array<Eigen::Vector3d, 4> X;
    for (int a = 0; a < 4; ++a) {
      X[a] = rest.segment<3>(3 * tetrahedra[t][a]);
      e.dof[a] = first_dof + 3 * tetrahedra[t][a];
    }
    const double six_volume = (X[2] - X[0]).cross(X[3] - X[0]).dot(X[1] - X[0]);
    if (six_volume == 0.0 || !std::isfinite(six_volume)) return static_cast<long>(t);
    // The rest frame and the rest vertices in it (SOFA's init{Small,Large,Polar,SVD}).
    e.rest_rotation.setIdentity();
    e.inverse_rest_edges.setIdentity();
    const Eigen::Matrix3d A = EdgeRows(X[0], X[1], X[2], X[3]);
    switch (method) {
      case TetrahedronFemMethod::kSmall:
        break;
      case TetrahedronFemMethod::kLarge:
        e.rest_rotation = EdgeFrame(X[0], X[1], X[2]);
        break;
      case TetrahedronFemMethod::kSvd:
        e.inverse_rest_edges = A.inverse();
        [[fallthrough]];
      case TetrahedronFemMethod::kPolar:
        e.rest_rotation = PolarFactor(A);
        break;
      case TetrahedronFemMethod::kGradientPolar:
      case TetrahedronFemMethod::kCentroidPolar:
      case TetrahedronFemMethod::kCentroidStablePolar:
        break;  // the rest element as it is
    }
    const Eigen::Vector3d origin =
        method == TetrahedronFemMethod::kLarge ? X[0] : Eigen::Vector3d::Zero();
    for (int a = 0; a < 4; ++a) e.rest[a] = e.rest_rotation * (X[a] - origin);
    ShapeVectors(e.rest, e.shape_vector);
    e.volume = std::abs(six_volume) / 6.0;
    // Hooke's law from E and ν (SOFA's computeMaterialStiffness).
    const double E = young[t], nu = poisson[t];
    e.lambda = E * nu / ((1.0 + nu) * (1.0 - 2.0 * nu));
    e.mu = E / (2.0 * (1.0 + nu));
    bool finite = true;
    for (const Eigen::Vector3d& g : e.shape_vector) finite = finite && g.allFinite();
    if (!finite) return static_cast<long>(t);
    elements.push_back(e);
  }
  return -1;
}

TetrahedronFem::TetrahedronFem(TetrahedronFemMethod method, bool update_stiffness_matrix,
                               std::vector<Element> elements, int von_mises)
    : method_(method),
      update_stiffness_matrix_(update_stiffness_matrix),
      elements_(std::move(elements)),
      von_mises_(von_mises) {}

// --- One element -----------------------------------------------------------------------------

void TetrahedronFem::ComputeFrame(const Element& e, const Vector& x, Frame& frame) const {
  std::array<Eigen::Vector3d, 4> p;
  for (int a = 0; a < 4; ++a) p[a] = x.segment<3>(e.dof[a]);
  switch (method_) {
    case TetrahedronFemMethod::kSmall:
      frame.rotation.setIdentity();
      break;
    case TetrahedronFemMethod::kLarge:
      frame.rotation = EdgeFrame(p[0], p[1], p[2]);
      break;
    case TetrahedronFemMethod::kPolar:
      frame.rotation = PolarFactor(EdgeRows(p[0], p[1], p[2], p[3]));
      break;
    case TetrahedronFemMethod::kSvd: {
      const Eigen::Matrix3d A = EdgeRows(p[0], p[1], p[2], p[3]);
      const Eigen::Matrix3d G = A * e.inverse_rest_edges;
      frame.rotation = G.determinant() < kSvdInversionThreshold
                           ? Eigen::Matrix3d(StablePolarRotation(G) * e.rest_rotation)
                           : PolarFactor(A);
      break;
    }
    case TetrahedronFemMethod::kGradientPolar: {
      // F = Σ_a x_a ⊗ g_a (the g_a sum to zero: x₀ may be subtracted from each).
      Eigen::Matrix3d F = Eigen::Matrix3d::Zero();
      for (int a = 1; a < 4; ++a) F.noalias() += (p[a] - p[0]) * e.shape_vector[a].transpose();
      frame.rotation = PolarFactor(F).transpose();
      break;
    }
    case TetrahedronFemMethod::kCentroidPolar:
    case TetrahedronFemMethod::kCentroidStablePolar: {
      const Eigen::Vector3d centre = (p[0] + p[1] + p[2] + p[3]) / 4.0;
      const Eigen::Vector3d rest_centre = (e.rest[0] + e.rest[1] + e.rest[2] + e.rest[3]) / 4.0;
      Eigen::Matrix3d H = Eigen::Matrix3d::Zero();
      for (int a = 0; a < 4; ++a)
        H.noalias() += (p[a] - centre) * (e.rest[a] - rest_centre).transpose();
      frame.rotation = (method_ == TetrahedronFemMethod::kCentroidPolar ? PolarFactor(H)
                                                                        : StablePolarRotation(H))
                           .transpose();
      break;
    }
  }
  // The current vertices in the frame; for large relative to vertex 0, as its rest ones.
  const Eigen::Vector3d origin =
      method_ == TetrahedronFemMethod::kLarge ? p[0] : Eigen::Vector3d::Zero();
  for (int a = 0; a < 4; ++a) frame.local[a] = frame.rotation * (p[a] - origin);
  if (update_stiffness_matrix_) {
    // SOFA's updateStiffnessMatrix: J rebuilt from the current element (6V_cur·∇λ_cur) while
    // K keeps 1/(36V): weight V_cur²/V.
    const double six_current = ShapeVectors(frame.local, frame.shape_vector);
    frame.weight = six_current * six_current / (36.0 * e.volume);
  } else {
    frame.shape_vector = e.shape_vector;
    frame.weight = e.volume;
  }
}

void TetrahedronFem::LocalForces(const Element& e, const std::array<Eigen::Vector3d, 4>& g,
                                 double w, const std::array<Eigen::Vector3d, 4>& d,
                                 std::array<Eigen::Vector3d, 4>& out) {
  // H = Σ d_b ⊗ g_b, ε = sym H; out_a = w·σ·g_a.
  Eigen::Matrix3d H = d[0] * g[0].transpose();
  for (int b = 1; b < 4; ++b) H.noalias() += d[b] * g[b].transpose();
  const Eigen::Matrix3d sigma = w * HookeStress(H, e.lambda, e.mu);
  for (int a = 0; a < 4; ++a) out[a].noalias() = sigma * g[a];
}

Eigen::Matrix3d TetrahedronFem::Rotation(std::size_t e, const Vector& x) const {
  Frame frame;
  ComputeFrame(elements_[e], x, frame);
  return frame.rotation;
}

Eigen::Matrix<double, 12, 12> TetrahedronFem::ElementStiffness(std::size_t index,
                                                               const Vector& x) const {
  const Element& e = elements_[index];
  Frame frame;
  ComputeFrame(e, x, frame);
  const auto& g = frame.shape_vector;
  Eigen::Matrix<double, 12, 12> K;
  for (int a = 0; a < 4; ++a)
    for (int b = 0; b < 4; ++b) {
      // K_ab = Qᵀ·w·(λ g_a⊗g_b + μ g_b⊗g_a + μ (g_a·g_b) I)·Q.
      Eigen::Matrix3d local = e.lambda * g[a] * g[b].transpose() + e.mu * g[b] * g[a].transpose();
      local.diagonal().array() += e.mu * g[a].dot(g[b]);
      K.block<3, 3>(3 * a, 3 * b) =
          frame.weight * frame.rotation.transpose() * local * frame.rotation;
    }
  return K;
}

// --- Force -------------------------------------------------------------------------------------

void TetrahedronFem::AddForce(const State& state, Vector& f) const {
  auto loop = [&](int range) {
    Frame frame;
    std::array<Eigen::Vector3d, 4> u, local_force;
    partition_.ForElements(elements_.size(), range, [&](std::size_t index, const auto& owns) {
      const Element& e = elements_[index];
      ComputeFrame(e, state.x, frame);
      for (int a = 0; a < 4; ++a) u[a] = frame.local[a] - e.rest[a];
      LocalForces(e, frame.shape_vector, frame.weight, u, local_force);
      for (int a = 0; a < 4; ++a)
        if (owns(e.dof[a]))
          f.segment<3>(e.dof[a]).noalias() -= frame.rotation.transpose() * local_force[a];
    });
  };
  partition_.Run(elements_, kTetrahedronGrain, loop);
}

double TetrahedronFem::PotentialEnergy(const State& state) const {
  Frame frame;
  double energy = 0.0;
  for (const Element& e : elements_) {
    ComputeFrame(e, state.x, frame);
    Eigen::Matrix3d H = Eigen::Matrix3d::Zero();
    for (int a = 0; a < 4; ++a)
      H.noalias() += (frame.local[a] - e.rest[a]) * frame.shape_vector[a].transpose();
    const Eigen::Matrix3d strain = 0.5 * (H + H.transpose());
    // ½·w·ε:σ = ½·w·(λ tr² ε + 2μ ε:ε).
    energy += 0.5 * frame.weight *
              (e.lambda * strain.trace() * strain.trace() + 2.0 * e.mu * strain.squaredNorm());
  }
  return energy;
}

// --- Assembled stiffness -------------------------------------------------------------------------

void TetrahedronFem::StiffnessEntries(std::vector<MatrixEntry>& entries) const {
  AppendElementBlockEntries(elements_, entries);
}

void TetrahedronFem::AddStiffness(const State& state, const Index* slots, double* values) const {
  // A slot belongs to one column vertex b: the range owning b writes the block (a, b).
  auto loop = [&](int range) {
    partition_.ForElements(elements_.size(), range, [&](std::size_t index, const auto& owns) {
      const Element& e = elements_[index];
      const Eigen::Matrix<double, 12, 12> K = ElementStiffness(index, state.x);
      AddElementBlocks(K, e.dof, slots + index * 144, values, owns);
    });
  };
  partition_.Run(elements_, kTetrahedronGrain, loop);
}

// --- Matrix-free tangent -----------------------------------------------------------------------

std::ptrdiff_t TetrahedronFem::TangentSize() const {
  return static_cast<std::ptrdiff_t>(elements_.size() * kTangentStride);
}

void TetrahedronFem::LinearizeStiffness(const State& state, double* tangent) const {
  // Each element writes its own slice: any split over the threads gives the same numbers.
  ParallelFor(static_cast<Index>(elements_.size()), kTetrahedronGrain, [&](Index begin, Index end) {
    Frame frame;
    for (Index index = begin; index < end; ++index) {
      ComputeFrame(elements_[static_cast<std::size_t>(index)], state.x, frame);
      double* out = tangent + static_cast<std::size_t>(index) * kTangentStride;
      for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) *out++ = frame.rotation(i, j);
      for (const Eigen::Vector3d& g : frame.shape_vector)
        for (int i = 0; i < 3; ++i) *out++ = g[i];
      *out = frame.weight;
    }
  });
}

void TetrahedronFem::AddTangentProduct(const double* tangent, double /*b*/, double k,
                                       const Vector& x, Vector& y) const {
  // y_a += k·Qᵀ·(w·σ(Σ sym(Q x_b ⊗ g_b))·g_a): SOFA's applyStiffnessCorotational.
  auto loop = [&](int range) {
    std::array<Eigen::Vector3d, 4> d, g, out;
    partition_.ForElements(elements_.size(), range, [&](std::size_t index, const auto& owns) {
      const Element& e = elements_[index];
      const double* t = tangent + index * kTangentStride;
      const Eigen::Map<const Eigen::Matrix<double, 3, 3, Eigen::RowMajor>> Q(t);
      for (int a = 0; a < 4; ++a) {
        g[a] = Eigen::Map<const Eigen::Vector3d>(t + 9 + 3 * a);
        d[a].noalias() = Q * x.segment<3>(e.dof[a]);
      }
      LocalForces(e, g, t[21], d, out);
      for (int a = 0; a < 4; ++a)
        if (owns(e.dof[a])) y.segment<3>(e.dof[a]).noalias() += k * (Q.transpose() * out[a]);
    });
  };
  partition_.Run(elements_, kTetrahedronGrain, loop);
}

// --- Topological changes followed in place ---------------------------------------------------

void TetrahedronFem::RemoveElementsMovingLast(std::span<const Index> sorted_descending) {
  for (const Index removed : sorted_descending) {
    const auto slot = static_cast<std::size_t>(removed);
    FLUXION_DEMAND(slot < elements_.size());
    if (slot + 1 != elements_.size()) elements_[slot] = elements_.back();
    elements_.pop_back();
  }
  partition_.Reset();
}

// --- Von Mises -----------------------------------------------------------------------------------

void TetrahedronFem::VonMises(const Vector& x, bool green, double* out) const {
  Frame frame;
  for (std::size_t index = 0; index < elements_.size(); ++index) {
    const Element& e = elements_[index];
    Eigen::Matrix3d strain;
    if (green) {
      // ∇U = Σ x_a ⊗ ∇_X λ_a − I with the world-frame gradients Q₀ᵀ·g_a (Σ X_a ⊗ ∇λ_a = I);
      // E = ½(∇U + ∇Uᵀ + ∇Uᵀ∇U), SOFA's computeVonMisesStress=2.
      Eigen::Matrix3d gradient = -Eigen::Matrix3d::Identity();
      for (int a = 0; a < 4; ++a)
        gradient.noalias() +=
            x.segment<3>(e.dof[a]) * (e.rest_rotation.transpose() * e.shape_vector[a]).transpose();
      strain = 0.5 * (gradient + gradient.transpose() + gradient.transpose() * gradient);
    } else {
      ComputeFrame(e, x, frame);
      Eigen::Matrix3d H = Eigen::Matrix3d::Zero();
      for (int a = 0; a < 4; ++a)
        H.noalias() += (frame.local[a] - e.rest[a]) * e.shape_vector[a].transpose();
      strain = 0.5 * (H + H.transpose());
    }
    out[index] = VonMisesStress(HookeStress(strain, e.lambda, e.mu));
  }
}

void TetrahedronFem::PublishVonMises(std::shared_ptr<const Topology> topology) {
  if (von_mises_ == 0) return;  // SOFA computes nothing then
  PublishOutput(
      Description{"vonMisesPerElement", "Pa", ElementType::kTetrahedron, std::move(topology)});
}

}  // namespace fluxion::internal
