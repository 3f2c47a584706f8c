#include "mechanics/simple_force_fields.h"

#include "fluxion/threads.h"

namespace fluxion::internal {

ConstantForce::ConstantForce(std::vector<Index> dofs, std::vector<double> values)
    : dofs_(std::move(dofs)), values_(std::move(values)) {
  for (std::size_t k = 1; k < dofs_.size(); ++k)
    increasing_ = increasing_ && dofs_[k - 1] < dofs_[k];
  if (increasing_ && dofs_.size() >= 2) {
    stride_ = dofs_[1] - dofs_[0];
    for (std::size_t k = 1; k < dofs_.size() && stride_ > 0; ++k)
      if (dofs_[k] != dofs_[0] + static_cast<Index>(k) * stride_) stride_ = 0;
  }
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

double ConstantForce::PotentialEnergy(const State& state) const {
  double energy = 0.0;
  for (std::size_t k = 0; k < dofs_.size(); ++k) energy -= values_[k] * state.x[dofs_[k]];
  return energy;
}

}  // namespace fluxion::internal
