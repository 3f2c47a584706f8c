#include "mechanics/hexahedron_fem.h"

#include <cmath>
#include <cstring>
#include <map>

#include "fluxion/errors.h"
#include "fluxion/threads.h"
#include "mechanics/element_loops.h"
#include "mechanics/element_stress.h"
#include "mechanics/tetrahedron_fem.h"  // PolarFactor, EdgeFrame

namespace fluxion::internal {

namespace {

// Elements per thread at least. One element's product (a 24×24 matrix times a vector, two
// rotations) costs about 0.4 µs: 512 elements are ≈ 0.2 ms of work per thread, well above the
// start and the join of a parallel region (the tetrahedra's 2048 × 0.1 µs).
constexpr Index kHexahedronGrain = 512;

// SOFA's test that an element is a parallelepiped: the opposite edges agree to this fraction of
// the edge length (computeElementStiffness).
constexpr double kParallelepipedTolerance = 0.001;

// Elements whose vertices (relative to vertex 0, in their frame) agree to this fraction of their
// diagonal share one stiffness matrix (RestElements).
constexpr double kShapeResolution = 1e-12;

// The reference corner ξ_a ∈ {−1, 1}³ of vertex a (SOFA's _coef).
constexpr int kCorner[8][3] = {{-1, -1, -1}, {1, -1, -1}, {1, 1, -1}, {-1, 1, -1},
                               {-1, -1, 1},  {1, -1, 1},  {1, 1, 1},  {-1, 1, 1}};

Eigen::Vector3d Point(const Vector& x, Index dof) { return x.segment<3>(dof); }

}  // namespace

std::array<Eigen::Vector3d, 3> HexahedronMeanEdges(const std::array<Eigen::Vector3d, 8>& x) {
  return {(x[1] - x[0] + x[2] - x[3] + x[5] - x[4] + x[6] - x[7]) * 0.25,
          (x[3] - x[0] + x[2] - x[1] + x[7] - x[4] + x[6] - x[5]) * 0.25,
          (x[4] - x[0] + x[5] - x[1] + x[7] - x[3] + x[6] - x[2]) * 0.25};
}

// --- Element stiffness -------------------------------------------------------------------------

bool HexahedronFem::ElementStiffnessMatrix(const std::array<Eigen::Vector3d, 8>& n, double young,
                                           double poisson, Stiffness& K) {
  // Hooke's matrix as SOFA builds it (computeMaterialStiffness): U on the normal diagonal, V off
  // it, W on the shear diagonal.
  const double scale = young * (1.0 - poisson) / ((1.0 + poisson) * (1.0 - 2.0 * poisson));
  const double U = scale;
  const double V = poisson / (1.0 - poisson) * scale;
  const double W = (1.0 - 2.0 * poisson) / (2.0 * (1.0 - poisson)) * scale;

  // A parallelepiped has one constant Jacobian, from three edges at vertex 0.
  const Eigen::Vector3d lx = n[1] - n[0], ly = n[3] - n[0], lz = n[4] - n[0];
  const double tx = lx.norm() * kParallelepipedTolerance, tz = lz.norm() * kParallelepipedTolerance;
  const bool parallelepiped = (n[3] + lx - n[2]).norm() < tx && (n[0] + lz - n[4]).norm() < tz &&
                              (n[1] + lz - n[5]).norm() < tz && (n[2] + lz - n[6]).norm() < tz &&
                              (n[3] + lz - n[7]).norm() < tz;
  Eigen::Matrix3d J, inverse_J;
  double det_J = 1.0;
  if (parallelepiped) {
    J.col(0) = lx / 2;
    J.col(1) = ly / 2;
    J.col(2) = lz / 2;
    det_J = J.determinant();
    inverse_J = J.inverse();
  }

  K.setZero();
  const double gauss = 1.0 / std::sqrt(3.0);
  for (int g1 = -1; g1 <= 1; g1 += 2)
    for (int g2 = -1; g2 <= 1; g2 += 2)
      for (int g3 = -1; g3 <= 1; g3 += 2) {
        const double x1 = g1 * gauss, x2 = g2 * gauss, x3 = g3 * gauss;
        if (!parallelepiped) {
          // J(i, k) = ∂X_i/∂ξ_k at this Gauss point (trilinear map).
          for (int c = 0; c < 3; ++c) {
            J(c, 0) = (n[1][c] - n[0][c]) * (1 - x2) * (1 - x3) / 8 +
                      (n[2][c] - n[3][c]) * (1 + x2) * (1 - x3) / 8 +
                      (n[5][c] - n[4][c]) * (1 - x2) * (1 + x3) / 8 +
                      (n[6][c] - n[7][c]) * (1 + x2) * (1 + x3) / 8;
            J(c, 1) = (n[3][c] - n[0][c]) * (1 - x1) * (1 - x3) / 8 +
                      (n[2][c] - n[1][c]) * (1 + x1) * (1 - x3) / 8 +
                      (n[7][c] - n[4][c]) * (1 - x1) * (1 + x3) / 8 +
                      (n[6][c] - n[5][c]) * (1 + x1) * (1 + x3) / 8;
            J(c, 2) = (n[4][c] - n[0][c]) * (1 - x1) * (1 - x2) / 8 +
                      (n[5][c] - n[1][c]) * (1 + x1) * (1 - x2) / 8 +
                      (n[6][c] - n[2][c]) * (1 + x1) * (1 + x2) / 8 +
                      (n[7][c] - n[3][c]) * (1 - x1) * (1 + x2) / 8;
          }
          det_J = J.determinant();
          inverse_J = J.inverse();
        }
        if (!(det_J > 0.0)) return false;  // flat, inverted or not finite
        // q_a = ∇N_a = J⁻ᵀ·∂N_a/∂ξ at this point.
        std::array<Eigen::Vector3d, 8> q;
        for (int a = 0; a < 8; ++a) {
          const double s0 = kCorner[a][0], s1 = kCorner[a][1], s2 = kCorner[a][2];
          const double d1 = s0 * (1 + s1 * x2) * (1 + s2 * x3) / 8.0;
          const double d2 = (1 + s0 * x1) * s1 * (1 + s2 * x3) / 8.0;
          const double d3 = (1 + s0 * x1) * (1 + s1 * x2) * s2 / 8.0;
          for (int k = 0; k < 3; ++k)
            q[a][k] = d1 * inverse_J(0, k) + d2 * inverse_J(1, k) + d3 * inverse_J(2, k);
        }
        // Upper blocks b ≥ a of Bₐᵀ·C·B_b·det J (the products in SOFA's order).
        for (int a = 0; a < 8; ++a)
          for (int b = a; b < 8; ++b) {
            const Eigen::Vector3d& p = q[a];
            const Eigen::Vector3d& r = q[b];
            Eigen::Matrix3d k;
            k(0, 0) = r[0] * (U * p[0]) + r[1] * (W * p[1]) + r[2] * (W * p[2]);
            k(1, 1) = r[1] * (U * p[1]) + r[0] * (W * p[0]) + r[2] * (W * p[2]);
            k(2, 2) = r[2] * (U * p[2]) + r[1] * (W * p[1]) + r[0] * (W * p[0]);
            for (int m = 0; m < 3; ++m)
              for (int l = 0; l < 3; ++l)
                if (m != l) k(m, l) = r[l] * (V * p[m]) + r[m] * (W * p[l]);
            K.block<3, 3>(3 * a, 3 * b) += k * det_J;
          }
      }
  // Mirror the upper triangle (SOFA sums only it).
  for (int i = 0; i < 24; ++i)
    for (int j = i + 1; j < 24; ++j) K(j, i) = K(i, j);
  return K.allFinite();
}

// --- Rest state ----------------------------------------------------------------------------------

long HexahedronFem::RestElements(HexahedronFemMethod method,
                                 const std::vector<std::array<Index, 8>>& hexahedra,
                                 const Vector& rest, Index first_dof,
                                 const std::vector<double>& young,
                                 const std::vector<double>& poisson, std::vector<Element>& elements,
                                 std::vector<Stiffness>& stiffnesses) {
  elements.clear();
  stiffnesses.clear();
  elements.reserve(hexahedra.size());
  // Elements with the same shape in their frame and the same material share their Kₑ: the key
  // is P_a − P₀ (a = 1…7) in units of kShapeResolution of the element's diagonal, and E and ν
  // exactly. (The coordinates of a grid's nodes differ from an exact lattice by round-off, which
  // this resolution ignores; elements on either side of a rounding boundary merely do not
  // share.)
  std::map<std::array<std::int64_t, 23>, std::uint32_t> shared;
  for (std::size_t h = 0; h < hexahedra.size(); ++h) {
    Element e;
    std::array<Eigen::Vector3d, 8> X;
    for (int a = 0; a < 8; ++a) {
      X[a] = Point(rest, 3 * hexahedra[h][a]);
      e.dof[a] = first_dof + 3 * hexahedra[h][a];
    }
    // The rest frame (SOFA's init{Small,Large,Polar}).
    Eigen::Matrix3d R0 = Eigen::Matrix3d::Identity();
    const std::array<Eigen::Vector3d, 3> edges = HexahedronMeanEdges(X);
    if (method == HexahedronFemMethod::kLarge) {
      R0 = EdgeFrame(Eigen::Vector3d::Zero(), edges[0], edges[1]);
    } else if (method == HexahedronFemMethod::kPolar) {
      Eigen::Matrix3d A;
      for (int r = 0; r < 3; ++r) A.row(r) = edges[static_cast<std::size_t>(r)].transpose();
      R0 = PolarFactor(A);
    }
    if (!R0.allFinite()) return static_cast<long>(h);
    for (int a = 0; a < 8; ++a) e.rest[a] = R0 * X[a];
    e.young = young[h];
    e.poisson = poisson[h];
    std::array<Eigen::Vector3d, 8> relative;
    for (int a = 0; a < 8; ++a) relative[a] = e.rest[a] - e.rest[0];
    const double size = relative[6].norm();
    if (!(size > 0.0) || !std::isfinite(size)) return static_cast<long>(h);
    std::array<std::int64_t, 23> key{};
    for (int a = 1; a < 8; ++a)
      for (int c = 0; c < 3; ++c)
        key[static_cast<std::size_t>(3 * (a - 1) + c)] =
            std::llround(relative[a][c] / size / kShapeResolution);
    std::memcpy(&key[21], &e.young, sizeof(double));
    std::memcpy(&key[22], &e.poisson, sizeof(double));
    const auto found = shared.find(key);
    if (found != shared.end()) {
      e.stiffness = found->second;
    } else {
      Stiffness K;
      if (!ElementStiffnessMatrix(relative, e.young, e.poisson, K)) return static_cast<long>(h);
      e.stiffness = static_cast<std::uint32_t>(stiffnesses.size());
      stiffnesses.push_back(K);
      shared.emplace(key, e.stiffness);
    }
    elements.push_back(e);
  }
  return -1;
}

HexahedronFem::HexahedronFem(HexahedronFemMethod method, bool update_stiffness_matrix,
                             std::vector<Element> elements, std::vector<Stiffness> stiffnesses)
    : method_(method),
      update_stiffness_matrix_(update_stiffness_matrix),
      elements_(std::move(elements)),
      stiffnesses_(std::move(stiffnesses)) {}

// --- One element -----------------------------------------------------------------------------

Eigen::Matrix3d HexahedronFem::FrameRotation(const Element& e, const Vector& x,
                                             std::array<Eigen::Vector3d, 8>& local) const {
  std::array<Eigen::Vector3d, 8> p;
  for (int a = 0; a < 8; ++a) p[a] = Point(x, e.dof[a]);
  Eigen::Matrix3d R = Eigen::Matrix3d::Identity();
  if (method_ == HexahedronFemMethod::kCentroidPolar ||
      method_ == HexahedronFemMethod::kCentroidStablePolar) {
    Eigen::Vector3d centre = Eigen::Vector3d::Zero(), rest_centre = Eigen::Vector3d::Zero();
    for (int a = 0; a < 8; ++a) {
      centre += p[a];
      rest_centre += e.rest[a];  // R₀ = I: the rest positions themselves
    }
    centre /= 8.0;
    rest_centre /= 8.0;
    Eigen::Matrix3d H = Eigen::Matrix3d::Zero();
    for (int a = 0; a < 8; ++a)
      H.noalias() += (p[a] - centre) * (e.rest[a] - rest_centre).transpose();
    R = (method_ == HexahedronFemMethod::kCentroidPolar ? PolarFactor(H) : StablePolarRotation(H))
            .transpose();
  } else if (method_ != HexahedronFemMethod::kSmall) {
    const std::array<Eigen::Vector3d, 3> edges = HexahedronMeanEdges(p);
    if (method_ == HexahedronFemMethod::kLarge) {
      R = EdgeFrame(Eigen::Vector3d::Zero(), edges[0], edges[1]);
    } else {
      Eigen::Matrix3d A;
      for (int r = 0; r < 3; ++r) A.row(r) = edges[static_cast<std::size_t>(r)].transpose();
      R = PolarFactor(A);
    }
  }
  // The current vertices in the frame (absolute, as SOFA's `deformed`).
  for (int a = 0; a < 8; ++a) local[a].noalias() = R * p[a];
  return R;
}

const HexahedronFem::Stiffness& HexahedronFem::CurrentStiffness(
    const Element& e, const std::array<Eigen::Vector3d, 8>& local, Stiffness& scratch) const {
  if (!update_stiffness_matrix_) return stiffnesses_[e.stiffness];
  // SOFA's updateStiffnessMatrix: Kₑ of the current element in its frame. (An element turned
  // inside out gets the stiffness of its negative Jacobian, as in SOFA.)
  std::array<Eigen::Vector3d, 8> relative;
  for (int a = 0; a < 8; ++a) relative[a] = local[a] - local[0];
  ElementStiffnessMatrix(relative, e.young, e.poisson, scratch);
  return scratch;
}

Eigen::Matrix3d HexahedronFem::Rotation(std::size_t e, const Vector& x) const {
  std::array<Eigen::Vector3d, 8> local;
  return FrameRotation(elements_[e], x, local);
}

HexahedronFem::Stiffness HexahedronFem::ElementStiffness(std::size_t index, const Vector& x) const {
  const Element& e = elements_[index];
  std::array<Eigen::Vector3d, 8> local;
  const Eigen::Matrix3d R = FrameRotation(e, x, local);
  Stiffness scratch;
  const Stiffness& Ke = CurrentStiffness(e, local, scratch);
  Stiffness K;
  for (int a = 0; a < 8; ++a)
    for (int b = 0; b < 8; ++b)
      K.block<3, 3>(3 * a, 3 * b).noalias() = R.transpose() * Ke.block<3, 3>(3 * a, 3 * b) * R;
  return K;
}

// --- Force -------------------------------------------------------------------------------------

void HexahedronFem::AddForce(const State& state, Vector& f) const {
  auto loop = [&](int range) {
    std::array<Eigen::Vector3d, 8> local;
    Eigen::Matrix<double, 24, 1> u, force;
    Stiffness scratch;
    partition_.ForElements(elements_.size(), range, [&](std::size_t index, const auto& owns) {
      const Element& e = elements_[index];
      const Eigen::Matrix3d R = FrameRotation(e, state.x, local);
      for (int a = 0; a < 8; ++a) u.segment<3>(3 * a) = local[a] - e.rest[a];
      // f_a = −Rᵀ·(Kₑ·u)_a.
      force.noalias() = CurrentStiffness(e, local, scratch) * u;
      for (int a = 0; a < 8; ++a)
        if (owns(e.dof[a]))
          f.segment<3>(e.dof[a]).noalias() -= R.transpose() * force.segment<3>(3 * a);
    });
  };
  partition_.Run(elements_, kHexahedronGrain, loop);
}

double HexahedronFem::PotentialEnergy(const State& state) const {
  std::array<Eigen::Vector3d, 8> local;
  Eigen::Matrix<double, 24, 1> u;
  Stiffness scratch;
  double energy = 0.0;
  for (const Element& e : elements_) {
    FrameRotation(e, state.x, local);
    for (int a = 0; a < 8; ++a) u.segment<3>(3 * a) = local[a] - e.rest[a];
    energy += 0.5 * u.dot(CurrentStiffness(e, local, scratch) * u);
  }
  return energy;
}

// --- Assembled stiffness -------------------------------------------------------------------------

void HexahedronFem::StiffnessEntries(std::vector<MatrixEntry>& entries) const {
  AppendElementBlockEntries(elements_, entries);
}

void HexahedronFem::AddStiffness(const State& state, const Index* slots, double* values) const {
  auto loop = [&](int range) {
    partition_.ForElements(elements_.size(), range, [&](std::size_t index, const auto& owns) {
      const Stiffness K = ElementStiffness(index, state.x);
      AddElementBlocks(K, elements_[index].dof, slots + index * 576, values, owns);
    });
  };
  partition_.Run(elements_, kHexahedronGrain, loop);
}

// --- Matrix-free tangent -----------------------------------------------------------------------

// Doubles stored per element by LinearizeStiffness: R (9, row-major), and with
// updateStiffnessMatrix the element's Kₑ at that state (576, column-major).
std::size_t HexahedronFem::TangentStride() const { return update_stiffness_matrix_ ? 9 + 576 : 9; }

std::ptrdiff_t HexahedronFem::TangentSize() const {
  return static_cast<std::ptrdiff_t>(elements_.size() * TangentStride());
}

void HexahedronFem::LinearizeStiffness(const State& state, double* tangent) const {
  // Each element writes its own slice: any split over the threads gives the same numbers.
  const std::size_t stride = TangentStride();
  ParallelFor(static_cast<Index>(elements_.size()), kHexahedronGrain, [&](Index begin, Index end) {
    std::array<Eigen::Vector3d, 8> local;
    for (Index index = begin; index < end; ++index) {
      const Element& e = elements_[static_cast<std::size_t>(index)];
      double* out = tangent + static_cast<std::size_t>(index) * stride;
      const Eigen::Matrix3d R = FrameRotation(e, state.x, local);
      Eigen::Map<Eigen::Matrix<double, 3, 3, Eigen::RowMajor>> rotation(out);
      rotation = R;
      if (update_stiffness_matrix_) {
        Stiffness scratch;
        Eigen::Map<Stiffness>(out + 9) = CurrentStiffness(e, local, scratch);
      }
    }
  });
}

void HexahedronFem::AddTangentProduct(const double* tangent, double /*b*/, double k,
                                      const Vector& x, Vector& y) const {
  // y_a += k·Rᵀ·(Kₑ·(R·x_b)_b)_a: SOFA's addDForce.
  const std::size_t stride = TangentStride();
  auto loop = [&](int range) {
    Eigen::Matrix<double, 24, 1> d, out;
    partition_.ForElements(elements_.size(), range, [&](std::size_t index, const auto& owns) {
      const Element& e = elements_[index];
      const double* t = tangent + index * stride;
      const Eigen::Map<const Eigen::Matrix<double, 3, 3, Eigen::RowMajor>> R(t);
      for (int a = 0; a < 8; ++a) d.segment<3>(3 * a).noalias() = R * Point(x, e.dof[a]);
      if (update_stiffness_matrix_)
        out.noalias() = Eigen::Map<const Stiffness>(t + 9) * d;
      else
        out.noalias() = stiffnesses_[e.stiffness] * d;
      for (int a = 0; a < 8; ++a)
        if (owns(e.dof[a]))
          y.segment<3>(e.dof[a]).noalias() += k * (R.transpose() * out.segment<3>(3 * a));
    });
  };
  partition_.Run(elements_, kHexahedronGrain, loop);
}

// --- Per-element output --------------------------------------------------------------------

void HexahedronFem::VonMises(const Vector& x, double* out) const {
  std::array<Eigen::Vector3d, 8> local;
  for (std::size_t index = 0; index < elements_.size(); ++index) {
    const Element& e = elements_[index];
    FrameRotation(e, x, local);                   // local_a = R·x_a
    Eigen::Matrix3d J = Eigen::Matrix3d::Zero();  // ∂X/∂ξ at the centre, in the frame
    for (int a = 0; a < 8; ++a)
      J.noalias() += e.rest[a] *
                     Eigen::Vector3d(kCorner[a][0], kCorner[a][1], kCorner[a][2]).transpose() / 8.0;
    const Eigen::Matrix3d inverse_transpose = J.inverse().transpose();
    Eigen::Matrix3d H = Eigen::Matrix3d::Zero();
    for (int a = 0; a < 8; ++a) {
      const Eigen::Vector3d gradient =
          inverse_transpose * Eigen::Vector3d(kCorner[a][0], kCorner[a][1], kCorner[a][2]) / 8.0;
      H.noalias() += (local[a] - e.rest[a]) * gradient.transpose();
    }
    const double nu = e.poisson;
    const double lambda = e.young * nu / ((1.0 + nu) * (1.0 - 2.0 * nu));
    const double mu = e.young / (2.0 * (1.0 + nu));
    out[index] = VonMisesStress(HookeStress(H, lambda, mu));
  }
}

void HexahedronFem::PublishVonMises(std::shared_ptr<const Topology> topology) {
  PublishOutput(
      Description{"vonMisesPerElement", "Pa", ElementType::kHexahedron, std::move(topology)});
}

void HexahedronFem::RemoveElementsMovingLast(std::span<const Index> sorted_descending) {
  for (const Index removed : sorted_descending) {
    const auto slot = static_cast<std::size_t>(removed);
    FLUXION_DEMAND(slot < elements_.size());
    if (slot + 1 != elements_.size()) elements_[slot] = elements_.back();
    elements_.pop_back();
  }
  partition_.Reset();
}

bool HexahedronFem::SharedStiffnessesExact() const {
  // The first element of each shared matrix, then every other one against it, bit for bit.
  std::vector<std::size_t> first(stiffnesses_.size(), elements_.size());
  for (std::size_t index = 0; index < elements_.size(); ++index) {
    const Element& e = elements_[index];
    std::size_t& representative = first[e.stiffness];
    if (representative == elements_.size()) {
      representative = index;
      continue;
    }
    const Element& r = elements_[representative];
    for (int a = 1; a < 8; ++a)
      for (int c = 0; c < 3; ++c)
        if (e.rest[a][c] - e.rest[0][c] != r.rest[a][c] - r.rest[0][c]) return false;
  }
  return true;
}

}  // namespace fluxion::internal
