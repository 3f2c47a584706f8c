#include "mechanics/simple_force_fields.h"

#include <algorithm>

#include "fluxion/threads.h"

namespace fluxion::internal {

ConstantForce::ConstantForce(std::vector<Index> dofs, std::vector<double> values)
    : dofs_(std::move(dofs)), values_(std::move(values)) {
  FindLayout();
}

void ConstantForce::FindLayout() {
  increasing_ = true;
  stride_ = 0;
  for (std::size_t k = 1; k < dofs_.size(); ++k)
    increasing_ = increasing_ && dofs_[k - 1] < dofs_[k];
  if (increasing_ && dofs_.size() >= 2) {
    stride_ = dofs_[1] - dofs_[0];
    for (std::size_t k = 1; k < dofs_.size() && stride_ > 0; ++k)
      if (dofs_[k] != dofs_[0] + static_cast<Index>(k) * stride_) stride_ = 0;
  }
}

void ConstantForce::EraseEntries(std::size_t first, std::size_t count) {
  FLUXION_DEMAND(first + count <= values_.size());
  const auto begin = static_cast<std::ptrdiff_t>(first),
             end = begin + static_cast<std::ptrdiff_t>(count);
  dofs_.erase(dofs_.begin() + begin, dofs_.begin() + end);
  values_.erase(values_.begin() + begin, values_.begin() + end);
  FindLayout();
}

void ConstantForce::SetDofs(std::size_t first, std::span<const Index> dofs) {
  FLUXION_DEMAND(first + dofs.size() <= dofs_.size());
  std::copy(dofs.begin(), dofs.end(), dofs_.begin() + static_cast<std::ptrdiff_t>(first));
  FindLayout();
}

void ConstantForce::AppendEntries(std::span<const Index> dofs, std::span<const double> values) {
  FLUXION_DEMAND(dofs.size() == values.size());
  dofs_.insert(dofs_.end(), dofs.begin(), dofs.end());
  values_.insert(values_.end(), values.begin(), values.end());
  FindLayout();
}

void ConstantForce::MoveLastEntriesInto(std::size_t first, std::size_t count) {
  FLUXION_DEMAND(first + count <= values_.size());
  const std::size_t last = values_.size() - count;
  for (std::size_t i = 0; i < count && first != last; ++i) {
    dofs_[first + i] = dofs_[last + i];
    values_[first + i] = values_[last + i];
  }
  dofs_.resize(last);
  values_.resize(last);
  FindLayout();
}

void ConstantForce::RemoveEntriesMovingLast(std::size_t first, std::size_t count) {
  FLUXION_DEMAND(first + count <= values_.size() && count <= values_.size());
  const std::size_t last = values_.size() - count;
  for (std::size_t i = 0; i < count && first != last; ++i) values_[first + i] = values_[last + i];
  dofs_.resize(last);
  values_.resize(last);
}

bool ConstantForce::SetValueAt(Index dof, double value) {
  std::size_t k = dofs_.size();
  if (stride_ > 0) {
    if (dof >= dofs_[0] && (dof - dofs_[0]) % stride_ == 0)
      k = static_cast<std::size_t>((dof - dofs_[0]) / stride_);
  } else {
    k = static_cast<std::size_t>(std::find(dofs_.begin(), dofs_.end(), dof) - dofs_.begin());
  }
  if (k >= dofs_.size() || dofs_[k] != dof) return false;
  values_[k] = value;
  return true;
}

void ConstantForce::AddForce(const State& /*state*/, Vector& f) const {
  // Gravity's m·g on every DOF: split over the threads when no DOF is listed twice (then each
  // entry gets its one term, the same whatever the split).
  const Index* dofs = dofs_.data();
  const double* values = values_.data();
  double* out = f.data();
  const auto add = [dofs, values, out](Index begin, Index end) {
    for (Index k = begin; k < end; ++k) out[dofs[k]] += values[k];
  };
  if (stride_ > 0) {  // the same additions without reading the indices
    double* first = out + dofs_.front();
    const Index stride = stride_;
    ParallelFor(static_cast<Index>(dofs_.size()), kVectorGrain,
                [first, stride, values](Index begin, Index end) {
                  for (Index k = begin; k < end; ++k) first[k * stride] += values[k];
                });
  } else if (increasing_) {
    ParallelFor(static_cast<Index>(dofs_.size()), kVectorGrain, add);
  } else {
    add(0, static_cast<Index>(dofs_.size()));
  }
}

bool ConstantForce::SetForce(Vector& f) const {
  if (stride_ <= 0) return false;
  const Index first = dofs_.front(), stride = stride_, count = static_cast<Index>(dofs_.size());
  const double* values = values_.data();
  double* out = f.data();
  ParallelFor(f.size(), kVectorGrain, [=](Index begin, Index end) {
    // Block by block, small enough to stay in the L1 cache: zeros, then the listed entries of the
    // block, first + k·stride, each 0 + value as f = 0 followed by f += value would give.
    constexpr Index kBlock = 2048;
    Index k = begin <= first ? 0 : (begin - first + stride - 1) / stride;
    for (Index block = begin; block < end; block += kBlock) {
      const Index block_end = std::min(end, block + kBlock);
      std::fill(out + block, out + block_end, 0.0);
      for (; k < count && first + k * stride < block_end; ++k)
        out[first + k * stride] = 0.0 + values[k];
    }
  });
  return true;
}

double ConstantForce::PotentialEnergy(const State& state) const {
  double energy = 0.0;
  for (std::size_t k = 0; k < dofs_.size(); ++k) energy -= values_[k] * state.x[dofs_[k]];
  return energy;
}

}  // namespace fluxion::internal
