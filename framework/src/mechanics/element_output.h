// Per-element outputs of a force field (SOFA's output data such as TetrahedronFEMForceField's
// vonMisesPerElement): what Simulation::ElementOutputs collects and --vtk writes as cell data.
// An interface beside ForceField rather than in it: few force fields have such outputs, and the
// public ForceField (which plugins implement) stays as it is.
#pragma once

#include <memory>
#include <optional>
#include <span>
#include <string>
#include <utility>

#include "fluxion/errors.h"
#include "fluxion/topology.h"
#include "fluxion/types.h"

namespace fluxion::internal {

class ElementOutputSource {
 public:
  /// What the output is; its elements are `topology`'s list of `type`, in order.
  struct Description {
    std::string name;  ///< SOFA's data name
    std::string unit;
    ElementType type = ElementType::kTetrahedron;
    std::shared_ptr<const Topology> topology;
  };

  /// Null when the component computes no output (SOFA's computeVonMisesStress=0).
  const Description* element_output() const { return output_ ? &*output_ : nullptr; }
  /// One value per element at the positions `x` of the system the force field acts in (the
  /// DOF numbering of its AddForce). Throws UsageError unless `values` has one per element.
  void ComputeElementOutput(const Vector& x, std::span<double> values) const {
    if (values.size() != num_output_values())
      throw UsageError("ComputeElementOutput: " + std::to_string(values.size()) + " values for " +
                       std::to_string(num_output_values()) + " elements");
    ComputeOutput(x, values.data());
  }

 protected:
  ElementOutputSource() = default;
  ~ElementOutputSource() = default;
  /// From now on the field computes the output `description`.
  void PublishOutput(Description description) { output_ = std::move(description); }
  /// From now on the field computes no output (its last element removed: a build from the
  /// reduced mesh makes no field).
  void WithdrawOutput() { output_.reset(); }

 private:
  virtual std::size_t num_output_values() const = 0;
  /// out[e] for each element e at `x`.
  virtual void ComputeOutput(const Vector& x, double* out) const = 0;

  std::optional<Description> output_;
};

}  // namespace fluxion::internal
