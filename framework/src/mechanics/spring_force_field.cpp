#include "mechanics/spring_force_field.h"

#include <Eigen/Dense>

namespace fluxion::internal {

SpringForceField::SpringForceField(int dimension, std::vector<Spring> springs,
                                   bool exact_damping_jacobian, double min_length)
    : dimension_(dimension),
      springs_(std::move(springs)),
      exact_damping_jacobian_(exact_damping_jacobian),
      min_length_(min_length) {}

namespace {
template <int kDim>
using Vec = Eigen::Matrix<double, kDim, 1>;
template <int kDim>
using Mat = Eigen::Matrix<double, kDim, kDim>;

// The spring's geometry and force intensity at a state: what force and tangent share.
template <int kDim>
struct SpringKinematics {
  bool active = false;
  Vec<kDim> direction;          // û
  double length = 0.0;          // d
  double inverse_length = 0.0;  // 1/d
  double intensity = 0.0;       // fi = ks·e + kd·ė
  double elongation = 0.0;      // e
};

template <int kDim>
SpringKinematics<kDim> Evaluate(const Spring& spring, const State& state, double min_length) {
  SpringKinematics<kDim> k;
  const Vec<kDim> u = state.x.segment<kDim>(spring.b) - state.x.segment<kDim>(spring.a);
  k.length = u.norm();
  if (!(k.length > min_length)) return k;
  k.active = true;
  // SOFA multiplies by the inverse length (u·(1/d), fi·(1/d)) rather than dividing: same bits.
  k.inverse_length = 1.0 / k.length;
  k.direction = u * k.inverse_length;
  k.elongation = k.length - spring.rest_length;
  const Vec<kDim> relative_velocity =
      state.v.segment<kDim>(spring.b) - state.v.segment<kDim>(spring.a);
  const double elongation_rate = k.direction.dot(relative_velocity);
  k.intensity = spring.stiffness * k.elongation + spring.damping * elongation_rate;
  return k;
}
}  // namespace

template <int kDim>
void SpringForceField::AddForceImpl(const State& state, Vector& f) const {
  for (const Spring& spring : springs_) {
    const SpringKinematics<kDim> k = Evaluate<kDim>(spring, state, min_length_);
    if (!k.active) continue;
    const Vec<kDim> force = k.direction * k.intensity;
    f.segment<kDim>(spring.a) += force;
    f.segment<kDim>(spring.b) -= force;
  }
}

void SpringForceField::AddForce(const State& state, Vector& f) const {
  switch (dimension_) {
    case 1:
      AddForceImpl<1>(state, f);
      break;
    case 2:
      AddForceImpl<2>(state, f);
      break;
    default:
      AddForceImpl<3>(state, f);
      break;
  }
}

void SpringForceField::Entries(std::vector<MatrixEntry>& entries) const {
  // Four dim×dim blocks per spring, in the order (a,a), (a,b), (b,a), (b,b), each column-major.
  for (const Spring& spring : springs_) {
    const Index ends[2] = {spring.a, spring.b};
    for (const Index row_point : ends)
      for (const Index col_point : ends)
        for (int c = 0; c < dimension_; ++c)
          for (int r = 0; r < dimension_; ++r) entries.push_back({row_point + r, col_point + c});
  }
}

void SpringForceField::StiffnessEntries(std::vector<MatrixEntry>& entries) const {
  Entries(entries);
}

namespace {
// Adds the block pattern [D −D; −D D] for one spring at the spring's slots.
template <int kDim>
const Index* AddSpringBlocks(const Mat<kDim>& D, const Index* slots, double* values) {
  for (int block = 0; block < 4; ++block) {
    const double sign = (block == 0 || block == 3) ? 1.0 : -1.0;
    for (int c = 0; c < kDim; ++c)
      for (int r = 0; r < kDim; ++r) values[*slots++] += sign * D(r, c);
  }
  return slots;
}
}  // namespace

template <int kDim>
void SpringForceField::AddStiffnessImpl(const State& state, const Index* slots,
                                        double* values) const {
  for (const Spring& spring : springs_) {
    const SpringKinematics<kDim> k = Evaluate<kDim>(spring, state, min_length_);
    if (!k.active) {  // SOFA stores a zero tangent for an inactive spring
      slots += 4 * kDim * kDim;
      continue;
    }
    const double tangent = k.intensity * k.inverse_length;
    Mat<kDim> D = (spring.stiffness - tangent) * (k.direction * k.direction.transpose());
    D.diagonal().array() += tangent;
    slots = AddSpringBlocks<kDim>(D, slots, values);
  }
}

void SpringForceField::AddStiffness(const State& state, const Index* slots, double* values) const {
  switch (dimension_) {
    case 1:
      AddStiffnessImpl<1>(state, slots, values);
      break;
    case 2:
      AddStiffnessImpl<2>(state, slots, values);
      break;
    default:
      AddStiffnessImpl<3>(state, slots, values);
      break;
  }
}

void SpringForceField::DampingEntries(std::vector<MatrixEntry>& entries) const {
  if (exact_damping_jacobian_) Entries(entries);
}

template <int kDim>
void SpringForceField::AddDampingImpl(const State& state, const Index* slots,
                                      double* values) const {
  for (const Spring& spring : springs_) {
    const SpringKinematics<kDim> k = Evaluate<kDim>(spring, state, min_length_);
    if (!k.active) {
      slots += 4 * kDim * kDim;
      continue;
    }
    const Mat<kDim> block = spring.damping * (k.direction * k.direction.transpose());
    slots = AddSpringBlocks<kDim>(block, slots, values);
  }
}

void SpringForceField::AddDamping(const State& state, const Index* slots, double* values) const {
  if (!exact_damping_jacobian_) return;
  switch (dimension_) {
    case 1:
      AddDampingImpl<1>(state, slots, values);
      break;
    case 2:
      AddDampingImpl<2>(state, slots, values);
      break;
    default:
      AddDampingImpl<3>(state, slots, values);
      break;
  }
}

std::ptrdiff_t SpringForceField::TangentSize() const {
  return static_cast<std::ptrdiff_t>(springs_.size() * BlockSize() *
                                     (exact_damping_jacobian_ ? 2 : 1));
}

// One symmetric block per spring, upper triangle row by row: D for K (the tangent of
// AddStiffnessImpl), kd·ûûᵀ for B. An inactive spring stores zeros, as SOFA's dfdx.
template <int kDim>
void SpringForceField::LinearizeImpl(const State& state, bool damping, double* tangent) const {
  constexpr std::size_t kBlock = kDim * (kDim + 1) / 2;
  if (damping) tangent += springs_.size() * kBlock;
  for (const Spring& spring : springs_) {
    const SpringKinematics<kDim> k = Evaluate<kDim>(spring, state, min_length_);
    Mat<kDim> D = Mat<kDim>::Zero();
    if (k.active) {
      if (damping) {
        D = spring.damping * (k.direction * k.direction.transpose());
      } else {
        const double tangent_factor = k.intensity * k.inverse_length;
        D = (spring.stiffness - tangent_factor) * (k.direction * k.direction.transpose());
        D.diagonal().array() += tangent_factor;
      }
    }
    for (int r = 0; r < kDim; ++r)
      for (int c = r; c < kDim; ++c) *tangent++ = D(r, c);
  }
}

void SpringForceField::LinearizeStiffness(const State& state, double* tangent) const {
  switch (dimension_) {
    case 1:
      LinearizeImpl<1>(state, false, tangent);
      break;
    case 2:
      LinearizeImpl<2>(state, false, tangent);
      break;
    default:
      LinearizeImpl<3>(state, false, tangent);
      break;
  }
}

void SpringForceField::LinearizeDamping(const State& state, double* tangent) const {
  if (!exact_damping_jacobian_) return;
  switch (dimension_) {
    case 1:
      LinearizeImpl<1>(state, true, tangent);
      break;
    case 2:
      LinearizeImpl<2>(state, true, tangent);
      break;
    default:
      LinearizeImpl<3>(state, true, tangent);
      break;
  }
}

namespace {
// t = S·d for a symmetric block stored as its upper triangle, row by row.
template <int kDim>
Vec<kDim> SymmetricProduct(const double* s, const Vec<kDim>& d) {
  Vec<kDim> t;
  if constexpr (kDim == 1) {
    t[0] = s[0] * d[0];
  } else if constexpr (kDim == 2) {
    t[0] = s[0] * d[0] + s[1] * d[1];
    t[1] = s[1] * d[0] + s[2] * d[1];
  } else {
    t[0] = s[0] * d[0] + s[1] * d[1] + s[2] * d[2];
    t[1] = s[1] * d[0] + s[3] * d[1] + s[4] * d[2];
    t[2] = s[2] * d[0] + s[4] * d[1] + s[5] * d[2];
  }
  return t;
}
}  // namespace

template <int kDim>
void SpringForceField::AddTangentProductImpl(const double* tangent, double b, double k,
                                             const Vector& x, Vector& y) const {
  constexpr std::size_t kBlock = kDim * (kDim + 1) / 2;
  const double* damping = tangent + springs_.size() * kBlock;
  const bool with_damping = b != 0.0 && exact_damping_jacobian_;
  for (const Spring& spring : springs_) {
    const Vec<kDim> d = x.segment<kDim>(spring.b) - x.segment<kDim>(spring.a);
    Vec<kDim> t = k * SymmetricProduct<kDim>(tangent, d);
    if (with_damping) t += b * SymmetricProduct<kDim>(damping, d);
    y.segment<kDim>(spring.a) -= t;
    y.segment<kDim>(spring.b) += t;
    tangent += kBlock;
    damping += kBlock;
  }
}

void SpringForceField::AddTangentProduct(const double* tangent, double b, double k, const Vector& x,
                                         Vector& y) const {
  switch (dimension_) {
    case 1:
      AddTangentProductImpl<1>(tangent, b, k, x, y);
      break;
    case 2:
      AddTangentProductImpl<2>(tangent, b, k, x, y);
      break;
    default:
      AddTangentProductImpl<3>(tangent, b, k, x, y);
      break;
  }
}

// SOFA's SpringForceField::getPotentialEnergy: every spring counts, including one shorter than
// the force's activity threshold (its energy ½·ks·L0² stays continuous at d = 0).
double SpringForceField::PotentialEnergy(const State& state) const {
  double energy = 0.0;
  for (const Spring& spring : springs_) {
    Vector::ConstSegmentReturnType xa = state.x.segment(spring.a, dimension_);
    Vector::ConstSegmentReturnType xb = state.x.segment(spring.b, dimension_);
    const double elongation = (xb - xa).norm() - spring.rest_length;
    energy += elongation * elongation * spring.stiffness / 2;
  }
  return energy;
}

}  // namespace fluxion::internal
