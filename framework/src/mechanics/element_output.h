// Per-element outputs of a force field (SOFA's output data such as TetrahedronFEMForceField's
// vonMisesPerElement): what Simulation::ElementOutputs collects and --vtk writes as cell data.
// An interface beside ForceField rather than in it: few force fields have such outputs, and the
// public ForceField (which plugins implement) stays as it is.
#pragma once

#include <memory>
#include <span>
#include <string>

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
  virtual const Description* element_output() const = 0;
  /// One value per element at the positions `x` of the system the force field acts in (the
  /// DOF numbering of its AddForce).
  virtual void ComputeElementOutput(const Vector& x, std::span<double> values) const = 0;

 protected:
  ~ElementOutputSource() = default;
};

}  // namespace fluxion::internal
