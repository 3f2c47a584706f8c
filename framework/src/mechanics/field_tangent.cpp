#include "mechanics/field_tangent.h"

#include <algorithm>
#include <numeric>

#include "fluxion/threads.h"
#include "mechanics/spring_force_field.h"

namespace fluxion::internal {

FieldTangent::FieldTangent(const Vector& mass_diagonal,
                           const std::vector<Eigen::Triplet<double, int>>& mass_couplings,
                           const std::vector<std::unique_ptr<ForceField>>& fields,
                           TangentEvaluation evaluation)
    : mass_diagonal_(mass_diagonal), mass_couplings_(mass_couplings) {
  std::size_t native_size = 0, largest = 0;
  std::vector<MatrixEntry> entries;
  for (const auto& field : fields) {
    Part part;
    part.field = field.get();
    const std::ptrdiff_t size = field->TangentSize();
    const auto* springs = dynamic_cast<const SpringForceField*>(field.get());
    if (evaluation == TangentEvaluation::kRecomputed && springs != nullptr &&
        !springs->exact_damping_jacobian()) {
      part.recomputed = springs;  // no B; K from the state at each product
    } else if (size >= 0) {
      part.native = true;
      part.offset = native_size;
      part.capacity = static_cast<std::size_t>(size);
      native_size += static_cast<std::size_t>(size);
    } else {
      const auto collect = [&](AssembledEntries& list, bool damping) {
        entries.clear();
        if (damping)
          field->DampingEntries(entries);
        else
          field->StiffnessEntries(entries);
        for (const MatrixEntry& e : entries) {
          list.rows.push_back(e.row);
          list.cols.push_back(e.col);
        }
        list.values.assign(entries.size(), 0.0);
        largest = std::max(largest, entries.size());
      };
      collect(part.stiffness, false);
      collect(part.damping, true);
    }
    parts_.push_back(std::move(part));
  }
  native_.assign(native_size, 0.0);
  identity_slots_.resize(largest);
  std::iota(identity_slots_.begin(), identity_slots_.end(), Index{0});
}

bool FieldTangent::FollowsSystemChanges() const {
  return mass_couplings_.empty() && std::all_of(parts_.begin(), parts_.end(), [](const Part& part) {
           return part.native || part.recomputed != nullptr ||
                  (part.stiffness.rows.empty() && part.damping.rows.empty());
         });
}

void FieldTangent::FollowGrowth() {
  bool grown = false;
  for (const Part& part : parts_)
    grown = grown ||
            (part.native && static_cast<std::size_t>(part.field->TangentSize()) > part.capacity);
  if (!grown) return;
  std::size_t offset = 0;
  for (Part& part : parts_) {
    if (!part.native) continue;
    const auto size = static_cast<std::size_t>(part.field->TangentSize());
    if (size > part.capacity) part.capacity = std::max(size, 2 * part.capacity);
    part.offset = offset;
    offset += part.capacity;
  }
  native_.assign(offset, 0.0);
}

void FieldTangent::LinearizeStiffness(const State& state) {
  FollowGrowth();
  state_ = &state;
  for (Part& part : parts_) {
    if (part.recomputed != nullptr) continue;
    if (part.native) {
      part.field->LinearizeStiffness(state, native_.data() + part.offset);
    } else {
      std::fill(part.stiffness.values.begin(), part.stiffness.values.end(), 0.0);
      part.field->AddStiffness(state, identity_slots_.data(), part.stiffness.values.data());
    }
  }
}

void FieldTangent::LinearizeDamping(const State& state) {
  FollowGrowth();
  for (Part& part : parts_) {
    if (part.native) {
      part.field->LinearizeDamping(state, native_.data() + part.offset);
    } else if (!part.damping.values.empty()) {
      std::fill(part.damping.values.begin(), part.damping.values.end(), 0.0);
      part.field->AddDamping(state, identity_slots_.data(), part.damping.values.data());
    }
  }
}

namespace {
// y += factor · (entries)·x.
void AddEntriesProduct(const std::vector<Index>& rows, const std::vector<Index>& cols,
                       const std::vector<double>& values, double factor, const Vector& x,
                       Vector& y) {
  for (std::size_t e = 0; e < values.size(); ++e) y[rows[e]] += factor * values[e] * x[cols[e]];
}
}  // namespace

void FieldTangent::Multiply(double m, double b, double k, const Vector& x, Vector& y) const {
  if (m != 0.0) {
    y.resize(x.size());
    ParallelFor(x.size(), kVectorGrain, [&](Index begin, Index end) {
      for (Index i = begin; i < end; ++i) y[i] = (m * mass_diagonal_[i]) * x[i];
    });
    for (const auto& e : mass_couplings_) y[e.row()] += m * e.value() * x[e.col()];
  } else {
    y.setZero(x.size());
  }
  if (b == 0.0 && k == 0.0) return;
  for (const Part& part : parts_) {
    if (part.recomputed != nullptr) {
      if (k != 0.0 && state_ != nullptr) part.recomputed->AddStiffnessProductAt(*state_, k, x, y);
      continue;
    }
    if (part.native) {
      part.field->AddTangentProduct(native_.data() + part.offset, b, k, x, y);
      continue;
    }
    if (k != 0.0)
      AddEntriesProduct(part.stiffness.rows, part.stiffness.cols, part.stiffness.values, k, x, y);
    if (b != 0.0)
      AddEntriesProduct(part.damping.rows, part.damping.cols, part.damping.values, b, x, y);
  }
}

}  // namespace fluxion::internal
