#include "fluxion/mapping.h"

namespace fluxion {

Mapping::~Mapping() = default;

void Mapping::GeometricStiffnessEntries(std::vector<MatrixEntry>& /*entries*/) const {}

void Mapping::AddGeometricStiffness(const double* /*parent*/, const double* /*child_force*/,
                                    const Index* /*slots*/, double* /*values*/) const {}

}  // namespace fluxion
