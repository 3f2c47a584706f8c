#include "mechanics/spring_force_field.h"

#include <Eigen/Dense>
#include <climits>
#include <cstdint>

#include "fluxion/errors.h"
#include "fluxion/threads.h"

namespace fluxion::internal {

SpringForceField::SpringForceField(int dimension, std::vector<Spring> springs,
                                   bool exact_damping_jacobian, double min_length)
    : dimension_(dimension),
      springs_(std::move(springs)),
      exact_damping_jacobian_(exact_damping_jacobian),
      min_length_(min_length) {
  packed_.reserve(springs_.size());
  for (const Spring& spring : springs_) {
    FLUXION_DEMAND(spring.a >= 0 && spring.b >= 0 && spring.a <= INT32_MAX &&
                   spring.b <= INT32_MAX);
    packed_.push_back({static_cast<std::int32_t>(spring.a), static_cast<std::int32_t>(spring.b),
                       spring.stiffness, spring.damping, spring.rest_length});
  }
}

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

template <int kDim, class SpringType>
SpringKinematics<kDim> Evaluate(const SpringType& spring, const State& state, double min_length) {
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

const PointPartition& SpringForceField::Partition(int tasks) const {
  if (partition_.ranges() != tasks) {
    std::vector<Index> ends;
    ends.reserve(2 * springs_.size());
    for (const Spring& spring : springs_) {
      ends.push_back(spring.a);
      ends.push_back(spring.b);
    }
    partition_ = PointPartition(tasks, ends, 2);
  }
  return partition_;
}

template <int kDim>
void SpringForceField::AddForceImpl(const State& state, Vector& f) const {
  const int tasks = ParallelTaskCount(static_cast<Index>(springs_.size()), kSpringGrain);
  if (tasks > 1) {
    Partition(tasks);
    struct Context {
      const SpringForceField* self;
      const State* state;
      Vector* f;
    } context{this, &state, &f};
    RunParallelTasks(
        tasks,
        [](void* c, int range) {
          const Context& ctx = *static_cast<const Context*>(c);
          ctx.self->template AddForceRange<kDim>(*ctx.state, *ctx.f, range);
        },
        &context);
    return;
  }
  for (const PackedSpring& spring : packed_) {
    const SpringKinematics<kDim> k = Evaluate<kDim>(spring, state, min_length_);
    if (!k.active) continue;
    const Vec<kDim> force = k.direction * k.intensity;
    f.segment<kDim>(spring.a) += force;
    f.segment<kDim>(spring.b) -= force;
  }
}

// The serial loop restricted to the ends range `range` owns: the same terms in the same order.
template <int kDim>
void SpringForceField::AddForceRange(const State& state, Vector& f, int range) const {
  const PointPartition& partition = partition_;
  for (const std::uint32_t index : partition.elements(range)) {
    const PackedSpring& spring = packed_[index];
    const SpringKinematics<kDim> k = Evaluate<kDim>(spring, state, min_length_);
    if (!k.active) continue;
    const Vec<kDim> force = k.direction * k.intensity;
    if (partition.Owns(range, spring.a)) f.segment<kDim>(spring.a) += force;
    if (partition.Owns(range, spring.b)) f.segment<kDim>(spring.b) -= force;
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
  const int tasks = ParallelTaskCount(static_cast<Index>(springs_.size()), kSpringGrain);
  if (tasks > 1) {
    Partition(tasks);
    struct Context {
      const SpringForceField* self;
      const State* state;
      const Index* slots;
      double* values;
    } context{this, &state, slots, values};
    RunParallelTasks(
        tasks,
        [](void* c, int range) {
          const Context& ctx = *static_cast<const Context*>(c);
          ctx.self->template AddStiffnessRange<kDim>(*ctx.state, ctx.slots, ctx.values, range);
        },
        &context);
    return;
  }
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

// The serial loop restricted to the blocks whose column point range `range` owns: the blocks
// (a,a), (b,a) of column a and (a,b), (b,b) of column b. A slot belongs to one column, so each is
// written by one thread, with its terms in spring order.
template <int kDim>
void SpringForceField::AddStiffnessRange(const State& state, const Index* slots, double* values,
                                         int range) const {
  constexpr int kBlock = kDim * kDim;
  const PointPartition& partition = partition_;
  for (const std::uint32_t index : partition.elements(range)) {
    const Spring& spring = springs_[index];
    const SpringKinematics<kDim> k = Evaluate<kDim>(spring, state, min_length_);
    if (!k.active) continue;
    const double tangent = k.intensity * k.inverse_length;
    Mat<kDim> D = (spring.stiffness - tangent) * (k.direction * k.direction.transpose());
    D.diagonal().array() += tangent;
    const Index* spring_slots = slots + static_cast<std::size_t>(index) * 4 * kBlock;
    const bool owns[4] = {partition.Owns(range, spring.a), partition.Owns(range, spring.b),
                          partition.Owns(range, spring.a), partition.Owns(range, spring.b)};
    for (int block = 0; block < 4; ++block) {
      if (!owns[block]) continue;
      const double sign = (block == 0 || block == 3) ? 1.0 : -1.0;
      const Index* block_slots = spring_slots + block * kBlock;
      for (int c = 0; c < kDim; ++c)
        for (int r = 0; r < kDim; ++r) values[*block_slots++] += sign * D(r, c);
    }
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
