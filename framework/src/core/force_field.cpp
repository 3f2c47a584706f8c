#include "fluxion/force_field.h"

namespace fluxion {

// Out of line: the vtable and type information live in libfluxion, one copy for every plugin.
ForceField::~ForceField() = default;
void ForceField::StiffnessEntries(std::vector<MatrixEntry>& /*entries*/) const {}
void ForceField::AddStiffness(const State& /*state*/, const Index* /*slots*/,
                              double* /*values*/) const {}
void ForceField::DampingEntries(std::vector<MatrixEntry>& /*entries*/) const {}
void ForceField::AddDamping(const State& /*state*/, const Index* /*slots*/,
                            double* /*values*/) const {}
std::ptrdiff_t ForceField::TangentSize() const { return -1; }
void ForceField::LinearizeStiffness(const State& /*state*/, double* /*tangent*/) const {}
void ForceField::LinearizeDamping(const State& /*state*/, double* /*tangent*/) const {}
void ForceField::AddTangentProduct(const double* /*tangent*/, double /*b*/, double /*k*/,
                                   const Vector& /*x*/, Vector& /*y*/) const {}
double ForceField::PotentialEnergy(const State& /*state*/) const { return 0.0; }

}  // namespace fluxion
