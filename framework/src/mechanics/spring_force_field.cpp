#include "mechanics/spring_force_field.h"

#include <Eigen/Dense>
#include <climits>
#include <cstdint>

#include "fluxion/errors.h"
#include "fluxion/threads.h"
#include "mechanics/element_loops.h"

namespace fluxion::internal {

namespace {
std::vector<PackedSpring> Packed(const std::vector<Spring>& springs) {
  std::vector<PackedSpring> packed;
  packed.reserve(springs.size());
  for (const Spring& spring : springs) {
    FLUXION_DEMAND(spring.a >= 0 && spring.b >= 0 && spring.a <= INT32_MAX &&
                   spring.b <= INT32_MAX);
    packed.push_back({static_cast<std::int32_t>(spring.a), static_cast<std::int32_t>(spring.b),
                      spring.stiffness, spring.damping, spring.rest_length});
  }
  return packed;
}
}  // namespace

SpringForceField::SpringForceField(int dimension, const std::vector<Spring>& springs,
                                   bool exact_damping_jacobian, double min_length)
    : SpringForceField(dimension, Packed(springs), exact_damping_jacobian, min_length) {}

SpringForceField::SpringForceField(int dimension, std::vector<PackedSpring> springs,
                                   bool exact_damping_jacobian, double min_length)
    : dimension_(dimension),
      packed_(std::move(springs)),
      exact_damping_jacobian_(exact_damping_jacobian),
      min_length_(min_length) {
  for (const PackedSpring& spring : packed_) FLUXION_DEMAND(spring.a >= 0 && spring.b >= 0);
}

namespace {
template <int kDim>
using Vec = Eigen::Matrix<double, kDim, 1>;
template <int kDim>
using Mat = Eigen::Matrix<double, kDim, kDim>;

// Calls body.operator()<kDim>() with kDim = dimension (1, 2, or 3 for anything else): one
// dispatch from the field's run-time template to the loops compiled for each dimension.
template <class Body>
void WithDimension(int dimension, Body&& body) {
  if (dimension == 1)
    body.template operator()<1>();
  else if (dimension == 2)
    body.template operator()<2>();
  else
    body.template operator()<3>();
}

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

// (A named namespace: lambdas of the member loops capture it.)
namespace spring_loops {
// Sums a loop's terms into y for springs taken in list order, keeping the sum of the current
// first end in registers while consecutive springs share it. A sorted edge list has runs of two to
// four such springs (a grid point's right, lower and diagonal neighbours); without this, each
// spring stores y_a and the next reloads it — a chain through memory (store, forwarded load, add)
// whose latency, not the arithmetic, bounds the loop. The additions are the same, in the same
// order (x − t is x + (−t)), so the bits are too.
template <int kDim>
class RunningEndSum {
 public:
  explicit RunningEndSum(Vector& y) : y_(y) {}
  /// y_point += term, `point` being the spring's first end.
  void AddToFirst(Index point, const Vec<kDim>& term) {
    if (point != point_) {
      Flush();
      point_ = point;
      sum_ = y_.template segment<kDim>(point);
    }
    sum_ += term;
  }
  /// y_point += term for the other end, which may be the point whose sum is held.
  void AddToSecond(Index point, const Vec<kDim>& term) {
    if (point == point_)
      sum_ += term;
    else
      y_.template segment<kDim>(point) += term;
  }
  /// Stores the held sum; call once after the loop.
  void Flush() {
    if (point_ >= 0) y_.template segment<kDim>(point_) = sum_;
    point_ = -1;
  }

 private:
  Vector& y_;
  Index point_ = -1;
  Vec<kDim> sum_ = Vec<kDim>::Zero();
};
}  // namespace spring_loops

using spring_loops::RunningEndSum;

const PointPartition& SpringForceField::Partition(int tasks) const {
  if (partition_.ranges() != tasks) {
    partition_ = PointPartition(tasks, packed_.size(), 2, [this](std::size_t s, int end) {
      return Index{end == 0 ? packed_[s].a : packed_[s].b};
    });
  }
  return partition_;
}

void SpringForceField::RemoveSpringsMovingLast(std::span<const Index> sorted_descending) {
  for (const Index slot : sorted_descending) {
    packed_[static_cast<std::size_t>(slot)] = packed_.back();
    packed_.pop_back();
  }
  if (!sorted_descending.empty()) partition_ = PointPartition();
}

void SpringForceField::AssignSprings(std::span<const PackedSpring> springs) {
  FLUXION_DEMAND(springs.size() <= packed_.capacity());
  packed_.assign(springs.begin(), springs.end());
  partition_ = PointPartition();
}

template <class RangeLoop>
bool SpringForceField::RunOnRanges(RangeLoop&& loop) const {
  return internal::RunOnRanges(
      static_cast<Index>(packed_.size()), kSpringGrain, [this](int tasks) { Partition(tasks); },
      loop);
}

template <int kDim>
void SpringForceField::AddForceImpl(const State& state, Vector& f) const {
  if (RunOnRanges([&](int range) { AddForceRange<kDim>(state, f, range); })) return;
  RunningEndSum<kDim> sum(f);
  for (const PackedSpring& spring : packed_) {
    const SpringKinematics<kDim> k = Evaluate<kDim>(spring, state, min_length_);
    if (!k.active) continue;
    const Vec<kDim> force = k.direction * k.intensity;
    sum.AddToFirst(spring.a, force);
    sum.AddToSecond(spring.b, -force);
  }
  sum.Flush();
}

// The serial loop restricted to the ends range `range` owns: the same terms in the same order.
template <int kDim>
void SpringForceField::AddForceRange(const State& state, Vector& f, int range) const {
  const PointPartition& partition = partition_;
  RunningEndSum<kDim> sum(f);
  for (const std::uint32_t index : partition.elements(range)) {
    const PackedSpring& spring = packed_[index];
    const SpringKinematics<kDim> k = Evaluate<kDim>(spring, state, min_length_);
    if (!k.active) continue;
    const Vec<kDim> force = k.direction * k.intensity;
    if (partition.Owns(range, spring.a)) sum.AddToFirst(spring.a, force);
    if (partition.Owns(range, spring.b)) sum.AddToSecond(spring.b, -force);
  }
  sum.Flush();
}

void SpringForceField::AddForce(const State& state, Vector& f) const {
  WithDimension(dimension_, [&]<int kDim>() { AddForceImpl<kDim>(state, f); });
}

void SpringForceField::Entries(std::vector<MatrixEntry>& entries) const {
  // Four dim×dim blocks per spring, in the order (a,a), (a,b), (b,a), (b,b), each column-major.
  for (const PackedSpring& spring : packed_) {
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
  if (RunOnRanges([&](int range) { AddStiffnessRange<kDim>(state, slots, values, range); })) return;
  for (const PackedSpring& spring : packed_) {
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
    const PackedSpring& spring = packed_[index];
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
  WithDimension(dimension_, [&]<int kDim>() { AddStiffnessImpl<kDim>(state, slots, values); });
}

void SpringForceField::DampingEntries(std::vector<MatrixEntry>& entries) const {
  if (exact_damping_jacobian_) Entries(entries);
}

template <int kDim>
void SpringForceField::AddDampingImpl(const State& state, const Index* slots,
                                      double* values) const {
  for (const PackedSpring& spring : packed_) {
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
  WithDimension(dimension_, [&]<int kDim>() { AddDampingImpl<kDim>(state, slots, values); });
}

std::ptrdiff_t SpringForceField::TangentSize() const {
  return static_cast<std::ptrdiff_t>(packed_.size() * BlockSize() *
                                     (exact_damping_jacobian_ ? 2 : 1));
}

// One symmetric block per spring, upper triangle row by row: D for K (the tangent of
// AddStiffnessImpl), kd·ûûᵀ for B. An inactive spring stores zeros, as SOFA's dfdx.
namespace {
// A spring's tangent block as stored for the products, its upper triangle row by row: the
// stiffness D = (ks − fi/d)·ûûᵀ + (fi/d)·I (SOFA's dfdx) or the dashpot's kd·ûûᵀ; zero for an
// inactive spring (SOFA stores a zero tangent).
template <int kDim>
void WriteTangentBlock(const PackedSpring& spring, const SpringKinematics<kDim>& k, bool damping,
                       double* out) {
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
    for (int c = r; c < kDim; ++c) *out++ = D(r, c);
}
}  // namespace

template <int kDim>
void SpringForceField::LinearizeImpl(const State& state, bool damping, double* tangent) const {
  constexpr std::size_t kBlock = kDim * (kDim + 1) / 2;
  if (damping) tangent += packed_.size() * kBlock;
  // Each spring writes its own block only: the springs split over the threads in any way.
  ParallelFor(static_cast<Index>(packed_.size()), kSpringGrain, [&](Index begin, Index end) {
    for (Index s = begin; s < end; ++s) {
      const PackedSpring& spring = packed_[static_cast<std::size_t>(s)];
      WriteTangentBlock<kDim>(spring, Evaluate<kDim>(spring, state, min_length_), damping,
                              tangent + static_cast<std::size_t>(s) * kBlock);
    }
  });
}

void SpringForceField::LinearizeStiffness(const State& state, double* tangent) const {
  WithDimension(dimension_, [&]<int kDim>() { LinearizeImpl<kDim>(state, false, tangent); });
}

void SpringForceField::LinearizeDamping(const State& state, double* tangent) const {
  if (!exact_damping_jacobian_) return;
  WithDimension(dimension_, [&]<int kDim>() { LinearizeImpl<kDim>(state, true, tangent); });
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

// y_a −= t, y_b += t for each spring whose term(s, spring, t) gives a t (returns true): every
// spring and every end with range = −1 (the serial loop), otherwise the springs touching the
// partition's range, adding only to the ends it owns — each point gets the same terms in the same
// order either way.
template <int kDim, class Term>
void SpringForceField::ScatterOverRange(Vector& y, int range, Term&& term) const {
  RunningEndSum<kDim> sum(y);
  Vec<kDim> t;
  const auto one = [&](std::size_t s, bool add_a, bool add_b) {
    const PackedSpring& spring = packed_[s];
    if (!term(s, spring, t)) return;
    if (add_a) sum.AddToFirst(spring.a, -t);
    if (add_b) sum.AddToSecond(spring.b, t);
  };
  if (range < 0) {
    for (std::size_t s = 0; s < packed_.size(); ++s) one(s, true, true);
  } else {
    const PointPartition& partition = partition_;
    for (const std::uint32_t s : partition.elements(range))
      one(s, partition.Owns(range, packed_[s].a), partition.Owns(range, packed_[s].b));
  }
  sum.Flush();
}

template <int kDim>
void SpringForceField::AddTangentProductImpl(const double* tangent, double b, double k,
                                             const Vector& x, Vector& y) const {
  if (!RunOnRanges([&](int range) { AddTangentProductRange<kDim>(tangent, b, k, x, y, range); }))
    AddTangentProductRange<kDim>(tangent, b, k, x, y, -1);
}

// t = (k·D + b·B)·(x_b − x_a) per spring from the stored blocks, scattered as ScatterOverRange.
template <int kDim>
void SpringForceField::AddTangentProductRange(const double* tangent, double b, double k,
                                              const Vector& x, Vector& y, int range) const {
  constexpr std::size_t kBlock = kDim * (kDim + 1) / 2;
  const double* damping = tangent + packed_.size() * kBlock;
  const bool with_damping = b != 0.0 && exact_damping_jacobian_;
  ScatterOverRange<kDim>(y, range, [&](std::size_t s, const PackedSpring& spring, Vec<kDim>& t) {
    const Vec<kDim> d = x.segment<kDim>(spring.b) - x.segment<kDim>(spring.a);
    t = k * SymmetricProduct<kDim>(tangent + s * kBlock, d);
    if (with_damping) t += b * SymmetricProduct<kDim>(damping + s * kBlock, d);
    return true;
  });
}

void SpringForceField::AddTangentProduct(const double* tangent, double b, double k, const Vector& x,
                                         Vector& y) const {
  WithDimension(dimension_, [&]<int kDim>() { AddTangentProductImpl<kDim>(tangent, b, k, x, y); });
}

// t = k·D·(x_b − x_a) with D computed from the state as LinearizeImpl stores it (upper triangle,
// then SymmetricProduct: the stored product's bits), scattered as ScatterOverRange.
template <int kDim>
void SpringForceField::AddStiffnessProductRange(const State& state, double k, const Vector& x,
                                                Vector& y, int range) const {
  constexpr std::size_t kBlock = kDim * (kDim + 1) / 2;
  ScatterOverRange<kDim>(y, range, [&](std::size_t, const PackedSpring& spring, Vec<kDim>& t) {
    const SpringKinematics<kDim> kinematics = Evaluate<kDim>(spring, state, min_length_);
    if (!kinematics.active) return false;  // its stored block is zero: nothing to add
    double block[kBlock];
    WriteTangentBlock<kDim>(spring, kinematics, /*damping=*/false, block);
    const Vec<kDim> d = x.segment<kDim>(spring.b) - x.segment<kDim>(spring.a);
    t = k * SymmetricProduct<kDim>(block, d);
    return true;
  });
}

void SpringForceField::AddStiffnessProductAt(const State& state, double k, const Vector& x,
                                             Vector& y) const {
  WithDimension(dimension_, [&]<int kDim>() {
    if (!RunOnRanges([&](int range) { AddStiffnessProductRange<kDim>(state, k, x, y, range); }))
      AddStiffnessProductRange<kDim>(state, k, x, y, -1);
  });
}

// SOFA's SpringForceField::getPotentialEnergy: every spring counts, including one shorter than
// the force's activity threshold (its energy ½·ks·L0² stays continuous at d = 0).
double SpringForceField::PotentialEnergy(const State& state) const {
  double energy = 0.0;
  for (const PackedSpring& spring : packed_) {
    Vector::ConstSegmentReturnType xa = state.x.segment(spring.a, dimension_);
    Vector::ConstSegmentReturnType xb = state.x.segment(spring.b, dimension_);
    const double elongation = (xb - xa).norm() - spring.rest_length;
    energy += elongation * elongation * spring.stiffness / 2;
  }
  return energy;
}

}  // namespace fluxion::internal
