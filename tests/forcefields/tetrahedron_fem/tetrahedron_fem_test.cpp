// The numerical core of TetrahedronFEMForceField (mechanics/tetrahedron_fem.cpp), for each
// method, on a cube of Kuhn tetrahedra:
// - patch test: an affine displacement gives zero net force on interior nodes and, on boundary
//   nodes, −Σ (area/3)·σ·n over their boundary faces with σ = λ tr ε I + 2μ ε written here
//   (closed form of linear elasticity, computed without the code under test);
// - rigid rotations (90°, 135°): no force for large/polar/svd; for small, the force of the
//   strain sym(R − I) = (cos θ − 1)(I − n⊗n), which is what SOFA's small method computes;
// - tangent: for small, K = −∂f/∂x (central differences, exact for a linear force); for the
//   corotational methods K is SOFA's rotated linear stiffness: at a rotated rest state it equals
//   R·K_small·Rᵀ built by hand from the small field and the known R (and then also the finite
//   differences, the rotation's derivative multiplying a zero strain); at a strained state it
//   differs from them by O(strain), printed; the matrix-free product equals the assembled K;
// - inversion: svd's rotation-only SVD turns an inverted element back, polar's reflection does not;
// - small's force is minus the gradient of its energy (central differences);
// - threads: forces, K and products bit-identical on 1, 2 and 3 threads.
#include <gtest/gtest.h>

#include <Eigen/Geometry>
#include <cmath>
#include <map>
#include <random>

#include "fluxion/threads.h"
#include "forcefields/field_probes.h"
#include "mechanics/tetrahedron_fem.h"

namespace fluxion::internal {
namespace {

using field_probes::At;
using field_probes::FiniteDifferenceStiffness;
using field_probes::Force;
using field_probes::RotateBlocks;
using field_probes::Stiffness;

constexpr double kYoung = 1000.0, kPoisson = 0.4;  // SOFA's TetrahedronFEMForceField.scn
const double kLambda = kYoung * kPoisson / ((1 + kPoisson) * (1 - 2 * kPoisson));
const double kMu = kYoung / (2 * (1 + kPoisson));

struct Mesh {
  Vector rest;
  std::vector<std::array<Index, 4>> tets;
};

// [0, 2]³ cut into n³ cubes, each into the six Kuhn tetrahedra around its diagonal (0, 7):
// conforming, half of them negatively oriented, node (i, j, k) = i + (n+1)(j + (n+1)k).
Mesh Cube(int n) {
  Mesh mesh;
  const int m = n + 1;
  const double h = 2.0 / n;
  mesh.rest.resize(3 * m * m * m);
  for (int k = 0; k < m; ++k)
    for (int j = 0; j < m; ++j)
      for (int i = 0; i < m; ++i)
        mesh.rest.segment<3>(3 * (i + m * (j + m * k))) = Eigen::Vector3d(i * h, j * h, k * h);
  const int bit[3] = {1, 2, 4};
  for (int k = 0; k < n; ++k)
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < n; ++i) {
        const auto corner = [&](int c) {
          return Index{(i + (c & 1)) + m * ((j + ((c >> 1) & 1)) + m * (k + (c >> 2)))};
        };
        for (int p = 0; p < 3; ++p)
          for (int q = 0; q < 3; ++q)
            if (q != p)
              mesh.tets.push_back({corner(0), corner(bit[p]), corner(bit[p] + bit[q]), corner(7)});
      }
  return mesh;
}

std::unique_ptr<TetrahedronFem> Field(TetrahedronFemMethod method, const Mesh& mesh,
                                      bool update = false) {
  std::vector<TetrahedronFem::Element> elements;
  const std::vector<double> young(mesh.tets.size(), kYoung), poisson(mesh.tets.size(), kPoisson);
  EXPECT_EQ(TetrahedronFem::RestElements(method, mesh.tets, mesh.rest, 0, young, poisson, elements),
            -1);
  return std::make_unique<TetrahedronFem>(method, update, std::move(elements));
}

// −Σ (area/3)·σ·n over the boundary faces (faces of one tetrahedron only) at each node: the
// nodal forces of linear tetrahedra under the uniform stress σ.
Vector BoundaryForces(const Mesh& mesh, const Eigen::Matrix3d& sigma) {
  std::map<std::array<Index, 3>, std::pair<int, Eigen::Vector3d>> faces;  // count, area·n
  for (const auto& tet : mesh.tets)
    for (int opposite = 0; opposite < 4; ++opposite) {
      std::array<Index, 3> face;
      int k = 0;
      for (int a = 0; a < 4; ++a)
        if (a != opposite) face[k++] = tet[a];
      const Eigen::Vector3d p0 = mesh.rest.segment<3>(3 * face[0]);
      Eigen::Vector3d area_normal =
          0.5 *
          (mesh.rest.segment<3>(3 * face[1]) - p0).cross(mesh.rest.segment<3>(3 * face[2]) - p0);
      if (area_normal.dot(p0 - mesh.rest.segment<3>(3 * tet[opposite])) < 0) area_normal *= -1;
      std::sort(face.begin(), face.end());
      auto& entry = faces[face];
      entry.first += 1;
      entry.second = area_normal;
    }
  Vector f = Vector::Zero(mesh.rest.size());
  for (const auto& [face, entry] : faces)
    if (entry.first == 1)
      for (const Index v : face) f.segment<3>(3 * v) -= sigma * entry.second / 3.0;
  return f;
}

Eigen::Matrix3d Stress(const Eigen::Matrix3d& strain) {
  return kLambda * strain.trace() * Eigen::Matrix3d::Identity() + 2 * kMu * strain;
}

Vector Affine(const Mesh& mesh, const Eigen::Matrix3d& map, const Eigen::Vector3d& shift) {
  Vector x(mesh.rest.size());
  for (Index i = 0; i < x.size() / 3; ++i)
    x.segment<3>(3 * i) = map * mesh.rest.segment<3>(3 * i) + shift;
  return x;
}

const TetrahedronFemMethod kMethods[] = {TetrahedronFemMethod::kSmall,
                                         TetrahedronFemMethod::kLarge,
                                         TetrahedronFemMethod::kPolar,
                                         TetrahedronFemMethod::kSvd,
                                         TetrahedronFemMethod::kGradientPolar,
                                         TetrahedronFemMethod::kCentroidPolar,
                                         TetrahedronFemMethod::kCentroidStablePolar};
const char* Name(TetrahedronFemMethod m) {
  switch (m) {
    case TetrahedronFemMethod::kSmall:
      return "small";
    case TetrahedronFemMethod::kLarge:
      return "large";
    case TetrahedronFemMethod::kPolar:
      return "polar";
    case TetrahedronFemMethod::kSvd:
      return "svd";
    case TetrahedronFemMethod::kGradientPolar:
      return "gradient polar";
    case TetrahedronFemMethod::kCentroidPolar:
      return "centroid polar";
    case TetrahedronFemMethod::kCentroidStablePolar:
      return "centroid stable polar";
  }
  return "?";
}

// A strain with every component, scaled by `size`.
Eigen::Matrix3d SomeStrain(double size) {
  Eigen::Matrix3d e;
  e << 1.0, 0.3, -0.2, 0.3, -0.5, 0.4, -0.2, 0.4, 0.7;
  return size * e;
}

// Round-off of forces of order E·area·|ε| = 1000·1·size: 1e-12 relative.
double RoundOff(const Vector& expected) { return 1e-12 * expected.cwiseAbs().maxCoeff() + 1e-13; }

TEST(TetrahedronFem, SmallReproducesAnyAffineFieldExactly) {
  // Small is linear in the displacement: exact for any A (its skew part gives no stress).
  const Mesh mesh = Cube(2);
  Eigen::Matrix3d A;
  A << 0.02, -0.05, 0.01, 0.03, -0.01, 0.04, 0.02, 0.06, 0.015;
  const Vector x = Affine(mesh, Eigen::Matrix3d::Identity() + A, Eigen::Vector3d(0.1, -0.2, 0.3));
  const Vector expected = BoundaryForces(mesh, Stress(0.5 * (A + A.transpose())));
  const Vector f = Force(*Field(TetrahedronFemMethod::kSmall, mesh), At(x));
  EXPECT_LT((f - expected).cwiseAbs().maxCoeff(), RoundOff(expected));
  // The interior node (1, 1, 1) = 13 gets zero, and the total force is zero.
  EXPECT_LT(f.segment<3>(3 * 13).norm(), RoundOff(expected));
}

TEST(TetrahedronFem, CorotationalMethodsReproduceASmallStrainToItsSquare) {
  // A symmetric strain ε of size 1e-4 (and the same strain seen after a 90° rotation): the
  // corotational frames turn by O(|ε|) under a pure strain (large: the first edge follows it;
  // polar: the polar factor of the edge matrix, not of F), so the forces deviate from the
  // linear ones by O(|ε|²) — relative O(|ε|). Bound: 10·|ε| relative.
  const Mesh mesh = Cube(2);
  const double size = 1e-4;
  const Eigen::Matrix3d strain = SomeStrain(size);
  const Vector expected = BoundaryForces(mesh, Stress(strain));
  const Eigen::Matrix3d R(Eigen::AngleAxisd(M_PI / 2, Eigen::Vector3d(1, 2, 3).normalized()));
  Vector rotated_expected(expected.size());
  for (Index i = 0; i < expected.size() / 3; ++i)
    rotated_expected.segment<3>(3 * i) = R * expected.segment<3>(3 * i);
  const double bound = 10 * size * expected.cwiseAbs().maxCoeff();
  for (const TetrahedronFemMethod method : kMethods) {
    if (method == TetrahedronFemMethod::kSmall) continue;
    const auto field = Field(method, mesh);
    const Eigen::Matrix3d F = Eigen::Matrix3d::Identity() + strain;
    const Vector f = Force(*field, At(Affine(mesh, F, Eigen::Vector3d(0.3, 0.1, -0.2))));
    const double error = (f - expected).cwiseAbs().maxCoeff();
    EXPECT_LT(error, bound) << Name(method);
    // The deformation gradient's polar factor of a symmetric F is I: exact up to round-off
    // (measured 8e-12 relative, against 1e-5 for the other frames).
    if (method == TetrahedronFemMethod::kGradientPolar) {
      EXPECT_LT(error, 1e-9 * expected.cwiseAbs().maxCoeff()) << Name(method);
    }
    EXPECT_LT(f.segment<3>(3 * 13).norm(), bound) << Name(method);
    const Vector g = Force(*field, At(Affine(mesh, R * F, Eigen::Vector3d(0.3, 0.1, -0.2))));
    const double rotated_error = (g - rotated_expected).cwiseAbs().maxCoeff();
    EXPECT_LT(rotated_error, bound) << Name(method);
    std::printf("[ info ] %s: patch error %.3g, rotated 90° %.3g (forces up to %.3g)\n",
                Name(method), error, rotated_error, expected.cwiseAbs().maxCoeff());
  }
}

TEST(TetrahedronFem, RigidRotationsGiveNoForceExceptWithSmall) {
  const Mesh mesh = Cube(2);
  const Eigen::Vector3d axis = Eigen::Vector3d(1, 2, 3).normalized();
  for (const double degrees : {90.0, 135.0}) {
    const double theta = degrees * M_PI / 180;
    const Eigen::Matrix3d R(Eigen::AngleAxisd(theta, axis));
    const Vector x = Affine(mesh, R, Eigen::Vector3d(1, -2, 0.5));
    // small: the linear strain of u = (R − I)X, sym(R − I) = (cos θ − 1)(I − n⊗n).
    const Eigen::Matrix3d strain =
        (std::cos(theta) - 1) * (Eigen::Matrix3d::Identity() - axis * axis.transpose());
    const Vector expected = BoundaryForces(mesh, Stress(strain));
    for (const TetrahedronFemMethod method : kMethods) {
      const Vector f = Force(*Field(method, mesh), At(x));
      if (method == TetrahedronFemMethod::kSmall) {
        EXPECT_LT((f - expected).cwiseAbs().maxCoeff(), RoundOff(expected)) << degrees;
        EXPECT_GT(f.cwiseAbs().maxCoeff(), 100.0) << degrees;  // E·area·|ε| ≈ 1000·0.3·1
      } else {
        // Round-off of E·|x|·ε_machine per term: 1000 · 4 · 1e-16 ≈ 1e-12, a few hundred terms.
        EXPECT_LT(f.cwiseAbs().maxCoeff(), 1e-10) << Name(method) << " " << degrees;
      }
    }
  }
}

TEST(TetrahedronFem, SvdTurnsAnInvertedElementBackWherePolarReflectsIt) {
  // The tetrahedron X₀ = 0, X₁ = e₁, X₂ = 2e₂, X₃ = 3e₃ (V = 1, g₁ = e₁, g₂ = e₂/2, g₃ = e₃/3,
  // rest frames the identity) with vertex 1 pushed through the opposite face to −0.5·e₁:
  // G = A·A_rest⁻¹ = diag(−0.5, 1, 1), det G < 0.
  // svd: the rotation-only SVD of G is the identity, so u₁ = −1.5·e₁, ε = −1.5·e₁⊗e₁,
  //   σ = diag(−1.5(λ+2μ), −1.5λ, −1.5λ) and f_a = −σ·g_a: f₁ = 1.5(λ+2μ)·e₁ pushes back.
  // polar: the polar factor of diag(−0.5, 2, 3) is the reflection diag(−1, 1, 1): the element
  //   looks like its mirror image stretched, u₁ = −0.5·e₁ in that frame and
  //   f₁ = −0.5(λ+2μ)·e₁ pushes further through (SOFA's polar has the same weakness).
  Mesh mesh;
  mesh.rest.resize(12);
  mesh.rest << 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 3;
  mesh.tets = {{0, 1, 2, 3}};
  Vector x = mesh.rest;
  x[3] = -0.5;
  const Eigen::Matrix3d sigma =
      Eigen::Vector3d(-1.5 * (kLambda + 2 * kMu), -1.5 * kLambda, -1.5 * kLambda).asDiagonal();
  const Eigen::Vector3d g[4] = {-Eigen::Vector3d(1, 0.5, 1.0 / 3), Eigen::Vector3d(1, 0, 0),
                                Eigen::Vector3d(0, 0.5, 0), Eigen::Vector3d(0, 0, 1.0 / 3)};
  Vector expected(12);
  for (int a = 0; a < 4; ++a) expected.segment<3>(3 * a) = -sigma * g[a];
  const Vector svd = Force(*Field(TetrahedronFemMethod::kSvd, mesh), At(x));
  EXPECT_LT((svd - expected).cwiseAbs().maxCoeff(), RoundOff(expected));
  const Vector polar = Force(*Field(TetrahedronFemMethod::kPolar, mesh), At(x));
  EXPECT_NEAR(polar[3], -0.5 * (kLambda + 2 * kMu), 1e-12 * kYoung);
}

// The rotation R (rest → current) as its definition gives it, computed another way than the
// code's SVD: R = M·(MᵀM)^(−1/2) for invertible M (the orthogonal polar factor).
Eigen::Matrix3d PolarByEigen(const Eigen::Matrix3d& M) {
  const Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d> eigen(M.transpose() * M);
  return M * eigen.operatorInverseSqrt();
}

TEST(TetrahedronFem, WholeElementPolarRotationsAreThePolarFactorsOfTheirMatrices) {
  // The tetrahedron X = (0, e₁, 2e₂, 3e₃) (shape vectors g₁ = e₁, g₂ = e₂/2, g₃ = e₃/3) under an
  // affine map x = M·X + c. FastTetrahedral's polar takes the polar factor of the deformation
  // gradient, here M itself; the element FEM's polar that of H = Σ (x_a − x̄)(X_a − X̄)ᵀ = M·S
  // with S the rest vertices' second moment about their centroid. The element's Rotation is
  // world → frame: the transpose.
  Mesh mesh;
  mesh.rest.resize(12);
  mesh.rest << 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 3;
  mesh.tets = {{0, 1, 2, 3}};
  Eigen::Matrix3d M;
  M << 0.9, -0.5, 0.3, 0.6, 1.1, -0.2, -0.1, 0.4, 1.3;
  ASSERT_GT(M.determinant(), 0.0);
  const Vector x = Affine(mesh, M, Eigen::Vector3d(0.4, -1, 2));
  Eigen::Matrix3d S = Eigen::Matrix3d::Zero();
  const Eigen::Vector3d centroid(0.25, 0.5, 0.75);
  for (int a = 0; a < 4; ++a) {
    const Eigen::Vector3d d = mesh.rest.segment<3>(3 * a) - centroid;
    S += d * d.transpose();
  }
  const Eigen::Matrix3d gradient = PolarByEigen(M), centroid_polar = PolarByEigen(M * S);
  const auto rotation = [&](TetrahedronFemMethod method) {
    return Field(method, mesh)->Rotation(0, x);
  };
  EXPECT_LT(
      (rotation(TetrahedronFemMethod::kGradientPolar) - gradient.transpose()).cwiseAbs().maxCoeff(),
      1e-14);
  EXPECT_LT((rotation(TetrahedronFemMethod::kCentroidPolar) - centroid_polar.transpose())
                .cwiseAbs()
                .maxCoeff(),
            1e-14);
  EXPECT_LT((rotation(TetrahedronFemMethod::kCentroidStablePolar) - centroid_polar.transpose())
                .cwiseAbs()
                .maxCoeff(),
            1e-14);
  // S is not isotropic: the two definitions give different rotations.
  const double angle =
      Eigen::AngleAxisd(Eigen::Matrix3d(gradient.transpose() * centroid_polar)).angle();
  std::printf("[ info ] gradient and centroid polar factors differ by %.2f°\n", angle * 180 / M_PI);
  EXPECT_GT(angle, 0.05);

  // Vertex 1 pushed through the opposite face (x₁ = −0.5·e₁): H inverts. The polar factor is
  // then a reflection; the stable one is the rotation Q with QᵀH symmetric and only its
  // smallest eigenvalue negative (the closest rotation, Kabsch).
  Vector inverted = mesh.rest;
  inverted[3] = -0.5;
  const Eigen::Matrix3d reflection =
      Field(TetrahedronFemMethod::kCentroidPolar, mesh)->Rotation(0, inverted);
  EXPECT_NEAR(reflection.determinant(), -1.0, 1e-14);
  const Eigen::Matrix3d Q =
      Field(TetrahedronFemMethod::kCentroidStablePolar, mesh)->Rotation(0, inverted).transpose();
  Eigen::Matrix3d H = Eigen::Matrix3d::Zero();
  Eigen::Vector3d current_centroid = Eigen::Vector3d::Zero();
  for (int a = 0; a < 4; ++a) current_centroid += inverted.segment<3>(3 * a) / 4.0;
  for (int a = 0; a < 4; ++a)
    H += (inverted.segment<3>(3 * a) - current_centroid) *
         (mesh.rest.segment<3>(3 * a) - centroid).transpose();
  EXPECT_NEAR(Q.determinant(), 1.0, 1e-14);
  EXPECT_LT((Q.transpose() * Q - Eigen::Matrix3d::Identity()).cwiseAbs().maxCoeff(), 1e-14);
  const Eigen::Matrix3d stretch = Q.transpose() * H;
  EXPECT_LT((stretch - stretch.transpose()).cwiseAbs().maxCoeff(), 1e-13);
  const Eigen::Vector3d values =
      Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d>(0.5 * (stretch + stretch.transpose()))
          .eigenvalues();  // ascending
  EXPECT_LT(values[0], 0.0);
  EXPECT_GT(values[1], std::abs(values[0]));
}

TEST(TetrahedronFem, SmallStiffnessIsTheExactDerivative) {
  const Mesh mesh = Cube(1);
  std::mt19937 random(7);
  std::uniform_real_distribution<double> jitter(-0.05, 0.05);
  Vector x = mesh.rest;
  for (Index i = 0; i < x.size(); ++i) x[i] += jitter(random);
  const auto field = Field(TetrahedronFemMethod::kSmall, mesh);
  const Eigen::MatrixXd K = Stiffness(*field, At(x));
  const Eigen::MatrixXd fd = FiniteDifferenceStiffness(*field, At(x));
  // Central differences of a linear force: exact up to round-off of f/h = 1e3·1e-16/1e-6.
  EXPECT_LT((K - fd).cwiseAbs().maxCoeff(), 1e-6 * K.cwiseAbs().maxCoeff());
  EXPECT_LT((K - K.transpose()).cwiseAbs().maxCoeff(), 1e-12 * K.cwiseAbs().maxCoeff());
}

TEST(TetrahedronFem, SmallForceIsMinusTheEnergyGradient) {
  // V = Σ ½·V_e·ε:σ is quadratic for small: central differences of step 1e-6 are exact up to
  // round-off (energy ≈ 10, ε_machine·10/1e-6 ≈ 1e-9).
  const Mesh mesh = Cube(1);
  std::mt19937 random(5);
  std::uniform_real_distribution<double> jitter(-0.05, 0.05);
  Vector x = mesh.rest;
  for (Index i = 0; i < x.size(); ++i) x[i] += jitter(random);
  const auto field = Field(TetrahedronFemMethod::kSmall, mesh);
  const Vector f = Force(*field, At(x));
  for (Index j = 0; j < x.size(); ++j) {
    Vector plus = x, minus = x;
    plus[j] += 1e-6;
    minus[j] -= 1e-6;
    const double gradient =
        (field->PotentialEnergy(At(plus)) - field->PotentialEnergy(At(minus))) / 2e-6;
    EXPECT_NEAR(f[j], -gradient, 1e-6 * f.cwiseAbs().maxCoeff()) << j;
  }
}

TEST(TetrahedronFem, CorotationalStiffnessIsTheRotatedLinearOne) {
  const Mesh mesh = Cube(1);
  const Eigen::MatrixXd K_small =
      Stiffness(*Field(TetrahedronFemMethod::kSmall, mesh), At(mesh.rest));
  const double scale = K_small.cwiseAbs().maxCoeff();
  const Eigen::Matrix3d R(Eigen::AngleAxisd(2.3, Eigen::Vector3d(-1, 0.5, 2).normalized()));
  const Vector rotated = Affine(mesh, R, Eigen::Vector3d(0.2, 0.4, -1));
  const Vector strained =
      Affine(mesh, R * (Eigen::Matrix3d::Identity() + SomeStrain(0.02)), Eigen::Vector3d::Zero());
  for (const TetrahedronFemMethod method : kMethods) {
    if (method == TetrahedronFemMethod::kSmall) continue;
    const auto field = Field(method, mesh);
    // At the rotated rest shape: K = R·K_small·Rᵀ, and the finite differences agree (the
    // rotation's derivative multiplies a zero strain). FD error: h²·f''' ≈ 1e-12·scale, plus
    // round-off f/h ≈ 1e-10·scale.
    const Eigen::MatrixXd K = Stiffness(*field, At(rotated));
    EXPECT_LT((K - RotateBlocks(K_small, R)).cwiseAbs().maxCoeff(), 1e-12 * scale) << Name(method);
    EXPECT_LT((K - FiniteDifferenceStiffness(*field, At(rotated))).cwiseAbs().maxCoeff(),
              1e-6 * scale)
        << Name(method);
    // At a strained state K is still symmetric (R K₀ Rᵀ) but not the exact derivative.
    const Eigen::MatrixXd Ks = Stiffness(*field, At(strained));
    const double fd_gap =
        (Ks - FiniteDifferenceStiffness(*field, At(strained))).cwiseAbs().maxCoeff() / scale;
    EXPECT_LT((Ks - Ks.transpose()).cwiseAbs().maxCoeff(), 1e-12 * scale) << Name(method);
    EXPECT_GT(fd_gap, 1e-4) << Name(method);  // the geometric term SOFA leaves out
    EXPECT_LT(fd_gap, 0.1) << Name(method);   // O(|ε|) = 0.02·(a few)
    std::printf("[ info ] %s: |K − FD|/|K| at a 2%% strain = %.3g\n", Name(method), fd_gap);
  }
}

TEST(TetrahedronFem, MatrixFreeProductEqualsTheAssembledMatrix) {
  const Mesh mesh = Cube(2);
  std::mt19937 random(11);
  std::uniform_real_distribution<double> jitter(-0.1, 0.1);
  Vector x = Affine(mesh, Eigen::Matrix3d(Eigen::AngleAxisd(1.0, Eigen::Vector3d::UnitY())),
                    Eigen::Vector3d::Zero());
  Vector v(x.size());
  for (Index i = 0; i < x.size(); ++i) {
    x[i] += jitter(random);
    v[i] = jitter(random);
  }
  for (const bool update : {false, true})
    for (const TetrahedronFemMethod method : kMethods) {
      const auto field = Field(method, mesh, update);
      const Eigen::MatrixXd K = Stiffness(*field, At(x));
      std::vector<double> tangent(static_cast<std::size_t>(field->TangentSize()));
      field->LinearizeStiffness(At(x), tangent.data());
      Vector y = Vector::Zero(x.size());
      field->AddTangentProduct(tangent.data(), 0.0, 2.0, v, y);
      const Vector expected = 2.0 * K * v;
      EXPECT_LT((y - expected).cwiseAbs().maxCoeff(), 1e-12 * expected.cwiseAbs().maxCoeff())
          << Name(method) << " update " << update;
    }
}

TEST(TetrahedronFem, ResultsDoNotDependOnTheThreadCount) {
  if (!ThreadsAvailable()) GTEST_SKIP() << "built without OpenMP";
  const Mesh mesh = Cube(11);  // 7986 tetrahedra: three ranges of 2048 elements or more
  std::mt19937 random(3);
  std::uniform_real_distribution<double> jitter(-0.02, 0.02);
  Vector x = mesh.rest, v(x.size());
  for (Index i = 0; i < x.size(); ++i) {
    x[i] += jitter(random);
    v[i] = jitter(random);
  }
  for (const TetrahedronFemMethod method : kMethods) {
    const auto field = Field(method, mesh);
    std::vector<Vector> forces, products;
    std::vector<Eigen::MatrixXd> matrices;
    for (const int threads : {1, 2, 3}) {
      SetThreadCount(threads);
      forces.push_back(Force(*field, At(x)));
      std::vector<double> tangent(static_cast<std::size_t>(field->TangentSize()));
      field->LinearizeStiffness(At(x), tangent.data());
      Vector y = Vector::Zero(x.size());
      field->AddTangentProduct(tangent.data(), 0.0, 1.0, v, y);
      products.push_back(y);
    }
    SetThreadCount(0);
    for (std::size_t k = 1; k < forces.size(); ++k) {
      EXPECT_TRUE((forces[k].array() == forces[0].array()).all()) << Name(method) << " " << k;
      EXPECT_TRUE((products[k].array() == products[0].array()).all()) << Name(method) << " " << k;
    }
  }
}

TEST(TetrahedronFem, AssembledStiffnessDoesNotDependOnTheThreadCount) {
  if (!ThreadsAvailable()) GTEST_SKIP() << "built without OpenMP";
  const Mesh mesh = Cube(11);
  Vector x = Affine(mesh, Eigen::Matrix3d::Identity() + SomeStrain(0.01), Eigen::Vector3d::Zero());
  const auto field = Field(TetrahedronFemMethod::kLarge, mesh);
  std::vector<MatrixEntry> entries;
  field->StiffnessEntries(entries);
  // The system's slots: one per distinct (row, col), shared by the elements that meet there.
  std::map<std::pair<Index, Index>, Index> slot_of;
  std::vector<Index> slots(entries.size());
  for (std::size_t k = 0; k < entries.size(); ++k)
    slots[k] =
        slot_of.try_emplace({entries[k].row, entries[k].col}, static_cast<Index>(slot_of.size()))
            .first->second;
  std::vector<std::vector<double>> values;
  for (const int threads : {1, 2, 3}) {
    SetThreadCount(threads);
    values.emplace_back(slot_of.size(), 0.0);
    field->AddStiffness(At(x), slots.data(), values.back().data());
  }
  SetThreadCount(0);
  EXPECT_EQ(values[1], values[0]);
  EXPECT_EQ(values[2], values[0]);
}

TEST(TetrahedronFem, VonMisesOfAUniaxialStressIsItsMagnitude) {
  // ε = diag(e, −νe, −νe) is uniaxial stress σ₁₁ = E·e: von Mises = |σ₁₁| for both measures
  // (Green's strain adds O(e²): e = 1e-5, relative 1e-5).
  const Mesh mesh = Cube(1);
  const double e = 1e-5;
  const Eigen::Matrix3d F =
      Eigen::Matrix3d::Identity() +
      Eigen::Vector3d(e, -kPoisson * e, -kPoisson * e).asDiagonal().toDenseMatrix();
  const Eigen::Matrix3d R(Eigen::AngleAxisd(0.7, Eigen::Vector3d::UnitZ()));
  for (const TetrahedronFemMethod method : kMethods) {
    const auto field = Field(method, mesh);
    std::vector<double> vm(field->num_elements());
    field->VonMises(Affine(mesh, F, Eigen::Vector3d::Zero()), true, vm.data());
    for (const double value : vm) EXPECT_NEAR(value, kYoung * e, 1e-4 * kYoung * e);
    if (method == TetrahedronFemMethod::kSmall) continue;
    // Corotated strain: invariant under a rotation of the deformed body; O(e) frame turn.
    field->VonMises(Affine(mesh, R * F, Eigen::Vector3d::Zero()), false, vm.data());
    for (const double value : vm)
      EXPECT_NEAR(value, kYoung * e, 20 * e * kYoung * e) << Name(method);
  }
}

}  // namespace
}  // namespace fluxion::internal
