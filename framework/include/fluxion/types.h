// Numeric types shared by the framework and every plugin.
#pragma once

#include <Eigen/Core>
#include <Eigen/SparseCore>

namespace fluxion {

/// Index of a degree of freedom (DOF) or a matrix entry.
using Index = Eigen::Index;

/// A dense column vector of DOF values: positions, velocities, forces (double precision, SI units).
using Vector = Eigen::VectorXd;

/// Sparse matrices (mass, stiffness, damping, system matrices) are column-major and compressed.
using SparseMatrix = Eigen::SparseMatrix<double, Eigen::ColMajor, int>;

}  // namespace fluxion
