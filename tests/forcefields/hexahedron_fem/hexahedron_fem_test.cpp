// The numerical core of HexahedronFEMForceField (mechanics/hexahedron_fem.cpp), for each method,
// on a box of 2 × 2 × 2 hexahedra with unequal spacings (and a variant whose interior node is
// moved, so that its eight elements are not parallelepipeds):
// - element stiffness: SOFA's 2×2×2 Gauss rule on a (sheared, rotated) parallelepiped equals
//   ∫Bᵀ·C·B written here in tensor form (λ, μ) and integrated with 3×3×3 Gauss points;
// - patch test: an affine displacement gives zero force on the interior node and, on boundary
//   nodes, −Σ (area/4)·σ·n over their boundary faces (the consistent load of a bilinear face
//   under a uniform traction) with σ = λ tr ε I + 2μ ε written here;
// - rigid rotations (90°, 135°): no force for large/polar; for small, the force of the strain
//   sym(R − I) = (cos θ − 1)(I − n⊗n);
// - tangent: for small, K = −∂f/∂x (central differences, exact for a linear force); for the
//   corotational methods K is SOFA's rotated linear stiffness: at a rotated rest state it equals
//   R·K_small·Rᵀ built by hand (and the finite differences), at a strained state it differs from
//   them by O(strain), printed; the matrix-free product equals the assembled K;
// - small's force is minus the gradient of its energy;
// - threads: forces, K and products bit-identical on 1, 2 and 3 threads.
#include <gtest/gtest.h>

#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <random>

#include "fluxion/threads.h"
#include "forcefields/field_probes.h"
#include "mechanics/hexahedron_fem.h"

namespace fluxion::internal {
namespace {

using field_probes::At;
using field_probes::FiniteDifferenceStiffness;
using field_probes::Force;
using field_probes::RotateBlocks;
using field_probes::Stiffness;

constexpr double kYoung = 4000.0, kPoisson = 0.3;  // SOFA's HexahedronFEMForceField.scn
const double kLambda = kYoung * kPoisson / ((1 + kPoisson) * (1 - 2 * kPoisson));
const double kMu = kYoung / (2 * (1 + kPoisson));

struct Mesh {
  Vector rest;
  std::vector<std::array<Index, 8>> hexahedra;
  int nx = 0, ny = 0, nz = 0;
  Index Node(int i, int j, int k) const { return i + (nx + 1) * (j + (ny + 1) * k); }
};

// [0, 2] × [0, 1.5] × [0, 1] cut into n × n × n boxes, RegularGridTopology's numbering and
// SOFA's vertex order (0 1 2 3 at the bottom counterclockwise, 4 5 6 7 above).
Mesh Box(int n) {
  Mesh mesh;
  mesh.nx = mesh.ny = mesh.nz = n;
  const int m = n + 1;
  mesh.rest.resize(3 * m * m * m);
  for (int k = 0; k < m; ++k)
    for (int j = 0; j < m; ++j)
      for (int i = 0; i < m; ++i)
        mesh.rest.segment<3>(3 * mesh.Node(i, j, k)) =
            Eigen::Vector3d(2.0 * i / n, 1.5 * j / n, 1.0 * k / n);
  for (int k = 0; k < n; ++k)
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < n; ++i)
        mesh.hexahedra.push_back({mesh.Node(i, j, k), mesh.Node(i + 1, j, k),
                                  mesh.Node(i + 1, j + 1, k), mesh.Node(i, j + 1, k),
                                  mesh.Node(i, j, k + 1), mesh.Node(i + 1, j, k + 1),
                                  mesh.Node(i + 1, j + 1, k + 1), mesh.Node(i, j + 1, k + 1)});
  return mesh;
}

// Box(2) with its interior node moved off centre: its eight hexahedra are general (not
// parallelepipeds), the boundary faces are unchanged.
Mesh DistortedBox() {
  Mesh mesh = Box(2);
  mesh.rest.segment<3>(3 * mesh.Node(1, 1, 1)) += Eigen::Vector3d(0.17, -0.11, 0.08);
  return mesh;
}

std::unique_ptr<HexahedronFem> Field(HexahedronFemMethod method, const Mesh& mesh,
                                     bool update = false) {
  std::vector<HexahedronFem::Element> elements;
  std::vector<HexahedronFem::Stiffness> stiffnesses;
  const std::vector<double> young(mesh.hexahedra.size(), kYoung),
      poisson(mesh.hexahedra.size(), kPoisson);
  EXPECT_EQ(HexahedronFem::RestElements(method, mesh.hexahedra, mesh.rest, 0, young, poisson,
                                        elements, stiffnesses),
            -1);
  return std::make_unique<HexahedronFem>(method, update, std::move(elements),
                                         std::move(stiffnesses));
}

// −Σ (area/4)·σ·n over the boundary faces (faces of one hexahedron only) at each of their four
// corners: the consistent nodal forces of a bilinear parallelogram face under the uniform
// traction σ·n (each corner's shape function integrates to a quarter of the area).
Vector BoundaryForces(const Mesh& mesh, const Eigen::Matrix3d& sigma) {
  static constexpr int kFaces[6][4] = {{0, 3, 2, 1}, {4, 5, 6, 7}, {0, 1, 5, 4},
                                       {3, 7, 6, 2}, {0, 4, 7, 3}, {1, 2, 6, 5}};
  std::map<std::array<Index, 4>, std::pair<int, std::array<Index, 4>>> faces;
  for (const auto& hexa : mesh.hexahedra)
    for (const auto& face : kFaces) {
      std::array<Index, 4> corners;
      for (int c = 0; c < 4; ++c) corners[c] = hexa[face[c]];
      std::array<Index, 4> key = corners;
      std::sort(key.begin(), key.end());
      auto& entry = faces[key];
      entry.first += 1;
      entry.second = corners;
    }
  const auto X = [&](Index v) -> Eigen::Vector3d { return mesh.rest.segment<3>(3 * v); };
  Vector f = Vector::Zero(mesh.rest.size());
  for (const auto& [key, entry] : faces) {
    if (entry.first != 1) continue;
    const auto& c = entry.second;  // outward by the order of kFaces
    const Eigen::Vector3d area_normal = (X(c[1]) - X(c[0])).cross(X(c[3]) - X(c[0]));
    for (const Index v : c) f.segment<3>(3 * v) -= sigma * area_normal / 4.0;
  }
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

const HexahedronFemMethod kMethods[] = {
    HexahedronFemMethod::kSmall, HexahedronFemMethod::kLarge, HexahedronFemMethod::kPolar,
    HexahedronFemMethod::kCentroidPolar, HexahedronFemMethod::kCentroidStablePolar};
const char* Name(HexahedronFemMethod m) {
  switch (m) {
    case HexahedronFemMethod::kSmall:
      return "small";
    case HexahedronFemMethod::kLarge:
      return "large";
    case HexahedronFemMethod::kPolar:
      return "polar";
    case HexahedronFemMethod::kCentroidPolar:
      return "centroid polar";
    case HexahedronFemMethod::kCentroidStablePolar:
      return "centroid stable polar";
  }
  return "?";
}

Eigen::Matrix3d SomeStrain(double size) {
  Eigen::Matrix3d e;
  e << 1.0, 0.3, -0.2, 0.3, -0.5, 0.4, -0.2, 0.4, 0.7;
  return size * e;
}

// Round-off of forces of order E·area·|ε|: 1e-12 relative.
double RoundOff(const Vector& expected) { return 1e-12 * expected.cwiseAbs().maxCoeff() + 1e-12; }

TEST(HexahedronFem, GaussStiffnessOfAParallelepipedIsExact) {
  // A sheared, rotated parallelepiped: X(ξ) = X₀ + ½·M·(ξ + 1), M's columns the edges. ∇N_a =
  // M⁻ᵀ·∂N_a/∂ξ·2 and K_ab = ∫ (λ ∇N_a⊗∇N_b + μ ∇N_b⊗∇N_a + μ (∇N_a·∇N_b) I) dV, here with
  // 3×3×3 Gauss points (exact for degree 5 per variable; the integrand has degree 2).
  Eigen::Matrix3d M;
  M << 1.0, 0.2, 0.1, 0.0, 0.8, -0.15, 0.05, 0.0, 1.3;
  M = Eigen::AngleAxisd(0.6, Eigen::Vector3d(1, -1, 2).normalized()) * M;
  const int corner[8][3] = {{-1, -1, -1}, {1, -1, -1}, {1, 1, -1}, {-1, 1, -1},
                            {-1, -1, 1},  {1, -1, 1},  {1, 1, 1},  {-1, 1, 1}};
  std::array<Eigen::Vector3d, 8> nodes;
  for (int a = 0; a < 8; ++a)
    nodes[a] = M * Eigen::Vector3d(corner[a][0] + 1, corner[a][1] + 1, corner[a][2] + 1) / 2;
  HexahedronFem::Stiffness K;
  ASSERT_TRUE(HexahedronFem::ElementStiffnessMatrix(nodes, kYoung, kPoisson, K));
  const double point[3] = {-std::sqrt(0.6), 0.0, std::sqrt(0.6)},
               weight[3] = {5. / 9, 8. / 9, 5. / 9};
  const Eigen::Matrix3d J = M / 2, inverse_transpose = J.inverse().transpose();
  HexahedronFem::Stiffness expected = HexahedronFem::Stiffness::Zero();
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j)
      for (int k = 0; k < 3; ++k) {
        const Eigen::Vector3d xi(point[i], point[j], point[k]);
        std::array<Eigen::Vector3d, 8> g;
        for (int a = 0; a < 8; ++a) {
          Eigen::Vector3d dxi;
          for (int c = 0; c < 3; ++c) {
            dxi[c] = corner[a][c] / 8.0;
            for (int o = 0; o < 3; ++o)
              if (o != c) dxi[c] *= 1 + corner[a][o] * xi[o];
          }
          g[a] = inverse_transpose * dxi;
        }
        const double w = weight[i] * weight[j] * weight[k] * J.determinant();
        for (int a = 0; a < 8; ++a)
          for (int b = 0; b < 8; ++b)
            expected.block<3, 3>(3 * a, 3 * b) +=
                w * (kLambda * g[a] * g[b].transpose() + kMu * g[b] * g[a].transpose() +
                     kMu * g[a].dot(g[b]) * Eigen::Matrix3d::Identity());
      }
  EXPECT_LT((K - expected).cwiseAbs().maxCoeff(), 1e-12 * expected.cwiseAbs().maxCoeff());
  // Rigid translations are in its kernel, and it is exactly symmetric.
  for (int c = 0; c < 3; ++c) {
    Eigen::Matrix<double, 24, 1> t = Eigen::Matrix<double, 24, 1>::Zero();
    for (int a = 0; a < 8; ++a) t[3 * a + c] = 1.0;
    EXPECT_LT((K * t).cwiseAbs().maxCoeff(), 1e-12 * K.cwiseAbs().maxCoeff());
  }
  EXPECT_TRUE((K.array() == K.transpose().array()).all());
}

TEST(HexahedronFem, IdenticalElementsShareOneStiffness) {
  // A regular grid: every element is the same box (to round-off: 2/3 − 0 and 4/3 − 2/3 differ in
  // the last bit), one 24×24 matrix for all (large, small); moving the interior node makes its
  // eight elements distinct.
  EXPECT_EQ(Field(HexahedronFemMethod::kSmall, Box(3))->num_stiffnesses(), 1u);
  EXPECT_EQ(Field(HexahedronFemMethod::kLarge, Box(3))->num_stiffnesses(), 1u);
  EXPECT_EQ(Field(HexahedronFemMethod::kSmall, DistortedBox())->num_stiffnesses(), 8u);
}

TEST(HexahedronFem, SmallReproducesAnyAffineFieldExactly) {
  // Small is linear in the displacement, and trilinear elements contain the affine fields: exact
  // for any A on the regular and on the distorted box (its skew part gives no stress).
  Eigen::Matrix3d A;
  A << 0.02, -0.05, 0.01, 0.03, -0.01, 0.04, 0.02, 0.06, 0.015;
  for (const Mesh& mesh : {Box(2), DistortedBox()}) {
    const Vector x = Affine(mesh, Eigen::Matrix3d::Identity() + A, Eigen::Vector3d(0.1, -0.2, 0.3));
    const Vector expected = BoundaryForces(mesh, Stress(0.5 * (A + A.transpose())));
    const Vector f = Force(*Field(HexahedronFemMethod::kSmall, mesh), At(x));
    EXPECT_LT((f - expected).cwiseAbs().maxCoeff(), RoundOff(expected));
    EXPECT_LT(f.segment<3>(3 * mesh.Node(1, 1, 1)).norm(), RoundOff(expected));
    EXPECT_GT(expected.cwiseAbs().maxCoeff(), 10.0);  // E·area·|ε| ≈ 4000·0.375·0.05
  }
}

TEST(HexahedronFem, CorotationalMethodsReproduceASmallStrainToItsSquare) {
  // A symmetric strain ε of size 1e-4 (and the same strain seen after a 90° rotation): the frames
  // turn by O(|ε|) under a pure strain (large: the mean x edge follows it; polar: the polar
  // factor of the mean-edge matrix D·Fᵀ, D = diag of the edge lengths, not of F), so the forces
  // deviate from the linear ones by O(|ε|²) — relative O(|ε|). Bound: 10·|ε| relative.
  const double size = 1e-4;
  const Eigen::Matrix3d strain = SomeStrain(size);
  const Eigen::Matrix3d R(Eigen::AngleAxisd(M_PI / 2, Eigen::Vector3d(1, 2, 3).normalized()));
  for (const Mesh& mesh : {Box(2), DistortedBox()}) {
    const Vector expected = BoundaryForces(mesh, Stress(strain));
    Vector rotated_expected(expected.size());
    for (Index i = 0; i < expected.size() / 3; ++i)
      rotated_expected.segment<3>(3 * i) = R * expected.segment<3>(3 * i);
    const double bound = 10 * size * expected.cwiseAbs().maxCoeff();
    for (const HexahedronFemMethod method : kMethods) {
      if (method == HexahedronFemMethod::kSmall) continue;
      const auto field = Field(method, mesh);
      const Eigen::Matrix3d F = Eigen::Matrix3d::Identity() + strain;
      const Vector f = Force(*field, At(Affine(mesh, F, Eigen::Vector3d(0.3, 0.1, -0.2))));
      const double error = (f - expected).cwiseAbs().maxCoeff();
      EXPECT_LT(error, bound) << Name(method);
      EXPECT_LT(f.segment<3>(3 * mesh.Node(1, 1, 1)).norm(), bound) << Name(method);
      const Vector g = Force(*field, At(Affine(mesh, R * F, Eigen::Vector3d(0.3, 0.1, -0.2))));
      const double rotated_error = (g - rotated_expected).cwiseAbs().maxCoeff();
      EXPECT_LT(rotated_error, bound) << Name(method);
      std::printf("[ info ] %s: patch error %.3g, rotated 90° %.3g (forces up to %.3g)\n",
                  Name(method), error, rotated_error, expected.cwiseAbs().maxCoeff());
    }
  }
}

TEST(HexahedronFem, RigidRotationsGiveNoForceExceptWithSmall) {
  const Mesh mesh = Box(2);
  const Eigen::Vector3d axis = Eigen::Vector3d(1, 2, 3).normalized();
  for (const double degrees : {90.0, 135.0}) {
    const double theta = degrees * M_PI / 180;
    const Eigen::Matrix3d R(Eigen::AngleAxisd(theta, axis));
    const Vector x = Affine(mesh, R, Eigen::Vector3d(1, -2, 0.5));
    // small: the linear strain of u = (R − I)X, sym(R − I) = (cos θ − 1)(I − n⊗n).
    const Eigen::Matrix3d strain =
        (std::cos(theta) - 1) * (Eigen::Matrix3d::Identity() - axis * axis.transpose());
    const Vector expected = BoundaryForces(mesh, Stress(strain));
    for (const HexahedronFemMethod method : kMethods) {
      const Vector f = Force(*Field(method, mesh), At(x));
      if (method == HexahedronFemMethod::kSmall) {
        EXPECT_LT((f - expected).cwiseAbs().maxCoeff(), RoundOff(expected)) << degrees;
        EXPECT_GT(f.cwiseAbs().maxCoeff(), 100.0) << degrees;  // E·area·|ε| ≈ 4000·0.4·0.5
      } else {
        // Round-off of |K|·|x|·ε_machine: 1e4 · 3 · 1e-16 per term, tens of terms.
        EXPECT_LT(f.cwiseAbs().maxCoeff(), 1e-9) << Name(method) << " " << degrees;
      }
    }
  }
}

TEST(HexahedronFem, SmallStiffnessIsTheExactDerivative) {
  const Mesh mesh = DistortedBox();
  std::mt19937 random(7);
  std::uniform_real_distribution<double> jitter(-0.05, 0.05);
  Vector x = mesh.rest;
  for (Index i = 0; i < x.size(); ++i) x[i] += jitter(random);
  const auto field = Field(HexahedronFemMethod::kSmall, mesh);
  const Eigen::MatrixXd K = Stiffness(*field, At(x));
  const Eigen::MatrixXd fd = FiniteDifferenceStiffness(*field, At(x));
  // Central differences of a linear force: exact up to round-off of f/h = 1e3·1e-16/1e-6.
  EXPECT_LT((K - fd).cwiseAbs().maxCoeff(), 1e-6 * K.cwiseAbs().maxCoeff());
  EXPECT_LT((K - K.transpose()).cwiseAbs().maxCoeff(), 1e-12 * K.cwiseAbs().maxCoeff());
}

TEST(HexahedronFem, SmallForceIsMinusTheEnergyGradient) {
  // V = ½·uᵀ·K·u is quadratic for small: central differences of step 1e-6 are exact up to
  // round-off (energy ≈ 10, ε_machine·10/1e-6 ≈ 1e-9).
  const Mesh mesh = DistortedBox();
  std::mt19937 random(5);
  std::uniform_real_distribution<double> jitter(-0.05, 0.05);
  Vector x = mesh.rest;
  for (Index i = 0; i < x.size(); ++i) x[i] += jitter(random);
  const auto field = Field(HexahedronFemMethod::kSmall, mesh);
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

TEST(HexahedronFem, CorotationalStiffnessIsTheRotatedLinearOne) {
  for (const Mesh& mesh : {Box(1), DistortedBox()}) {
    const Eigen::MatrixXd K_small =
        Stiffness(*Field(HexahedronFemMethod::kSmall, mesh), At(mesh.rest));
    const double scale = K_small.cwiseAbs().maxCoeff();
    const Eigen::Matrix3d R(Eigen::AngleAxisd(2.3, Eigen::Vector3d(-1, 0.5, 2).normalized()));
    const Vector rotated = Affine(mesh, R, Eigen::Vector3d(0.2, 0.4, -1));
    const Vector strained =
        Affine(mesh, R * (Eigen::Matrix3d::Identity() + SomeStrain(0.02)), Eigen::Vector3d::Zero());
    for (const HexahedronFemMethod method : kMethods) {
      if (method == HexahedronFemMethod::kSmall) continue;
      const auto field = Field(method, mesh);
      // At the rotated rest shape the frame is R₀·Rᵀ and Kₑ = R₀·K_small,e·R₀ᵀ (blockwise), so
      // K = R·K_small·Rᵀ for any element; and the finite differences agree (the rotation's
      // derivative multiplies a zero strain). FD error: round-off f/h ≈ 1e-10·scale.
      const Eigen::MatrixXd K = Stiffness(*field, At(rotated));
      EXPECT_LT((K - RotateBlocks(K_small, R)).cwiseAbs().maxCoeff(), 1e-12 * scale)
          << Name(method);
      const double fd_rest =
          (K - FiniteDifferenceStiffness(*field, At(rotated))).cwiseAbs().maxCoeff() / scale;
      EXPECT_LT(fd_rest, 1e-6) << Name(method);
      // At a strained state K is still symmetric (R K₀ Rᵀ) but not the exact derivative.
      const Eigen::MatrixXd Ks = Stiffness(*field, At(strained));
      const double fd_gap =
          (Ks - FiniteDifferenceStiffness(*field, At(strained))).cwiseAbs().maxCoeff() / scale;
      EXPECT_LT((Ks - Ks.transpose()).cwiseAbs().maxCoeff(), 1e-12 * scale) << Name(method);
      EXPECT_GT(fd_gap, 1e-4) << Name(method);  // the geometric term SOFA leaves out
      EXPECT_LT(fd_gap, 0.1) << Name(method);   // O(|ε|) = 0.02·(a few)
      std::printf(
          "[ info ] %s, %zu hexahedra: |K − FD|/|K| at the rotated rest %.3g, at a 2%% strain "
          "%.3g\n",
          Name(method), mesh.hexahedra.size(), fd_rest, fd_gap);
    }
  }
}

TEST(HexahedronFem, CorotationalStiffnessIsRKRtOfTheElementByHand) {
  // One element, polar and large, at an arbitrary strained state: the assembled K equals
  // Rᵀ·Kₑ·R per block with R = Rotation() and Kₑ = ElementStiffnessMatrix of the rest element
  // (built here from the public pieces, the frame's rows checked orthonormal).
  const Mesh mesh = DistortedBox();
  std::mt19937 random(13);
  std::uniform_real_distribution<double> jitter(-0.05, 0.05);
  Vector x = Affine(mesh, Eigen::Matrix3d(Eigen::AngleAxisd(0.8, Eigen::Vector3d::UnitX())),
                    Eigen::Vector3d::Zero());
  for (Index i = 0; i < x.size(); ++i) x[i] += jitter(random);
  for (const HexahedronFemMethod method : kMethods) {
    const auto field = Field(method, mesh);
    for (std::size_t e = 0; e < field->num_elements(); ++e) {
      const Eigen::Matrix3d R = field->Rotation(e, x);
      EXPECT_LT((R * R.transpose() - Eigen::Matrix3d::Identity()).norm(), 1e-14);
      EXPECT_NEAR(R.determinant(), 1.0, 1e-14);
      // The rest element in its rest frame R₀ (R₀ = the frame at the rest positions).
      const Eigen::Matrix3d R0 = field->Rotation(e, mesh.rest);
      std::array<Eigen::Vector3d, 8> nodes;
      for (int a = 0; a < 8; ++a)
        nodes[a] = R0 * (mesh.rest.segment<3>(3 * mesh.hexahedra[e][a]) -
                         mesh.rest.segment<3>(3 * mesh.hexahedra[e][0]));
      HexahedronFem::Stiffness Ke;
      ASSERT_TRUE(HexahedronFem::ElementStiffnessMatrix(nodes, kYoung, kPoisson, Ke));
      HexahedronFem::Stiffness expected;
      for (int a = 0; a < 8; ++a)
        for (int b = 0; b < 8; ++b)
          expected.block<3, 3>(3 * a, 3 * b) = R.transpose() * Ke.block<3, 3>(3 * a, 3 * b) * R;
      EXPECT_LT((field->ElementStiffness(e, x) - expected).cwiseAbs().maxCoeff(),
                1e-12 * Ke.cwiseAbs().maxCoeff())
          << Name(method) << " " << e;
    }
  }
}

TEST(HexahedronFem, CentroidPolarRotationIsThePolarFactorOfTheVerticesMoment) {
  // SOFA's element FEM polar: R (rest → current) is the orthogonal polar factor of
  // H = Σ_a (x_a − x̄)(X_a − X̄)ᵀ, computed here as H·(HᵀH)^(−1/2) (not the code's SVD); the
  // element's Rotation is its transpose. On distorted elements, rotated by 0.8 rad and jittered.
  const Mesh mesh = DistortedBox();
  std::mt19937 random(17);
  std::uniform_real_distribution<double> jitter(-0.05, 0.05);
  Vector x =
      Affine(mesh, Eigen::Matrix3d(Eigen::AngleAxisd(0.8, Eigen::Vector3d(1, 1, 0).normalized())),
             Eigen::Vector3d(0.5, 0, -1));
  for (Index i = 0; i < x.size(); ++i) x[i] += jitter(random);
  for (const HexahedronFemMethod method :
       {HexahedronFemMethod::kCentroidPolar, HexahedronFemMethod::kCentroidStablePolar}) {
    const auto field = Field(method, mesh);
    for (std::size_t e = 0; e < field->num_elements(); ++e) {
      Eigen::Vector3d centre = Eigen::Vector3d::Zero(), rest_centre = Eigen::Vector3d::Zero();
      for (const Index v : mesh.hexahedra[e]) {
        centre += x.segment<3>(3 * v) / 8.0;
        rest_centre += mesh.rest.segment<3>(3 * v) / 8.0;
      }
      Eigen::Matrix3d H = Eigen::Matrix3d::Zero();
      for (const Index v : mesh.hexahedra[e])
        H += (x.segment<3>(3 * v) - centre) *
             (mesh.rest.segment<3>(3 * v) - rest_centre).transpose();
      const Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d> eigen(H.transpose() * H);
      const Eigen::Matrix3d expected = H * eigen.operatorInverseSqrt();
      EXPECT_LT((field->Rotation(e, x) - expected.transpose()).cwiseAbs().maxCoeff(), 1e-13)
          << Name(method) << " element " << e;
    }
  }
}

TEST(HexahedronFem, VonMisesOfAUniformStrainIsTheClosedForm) {
  // A stretch e along x (ε = e·x⊗x): σ = diag(λ+2μ, λ, λ)·e and the von Mises stress is
  // |σxx − σyy| = 2μ·|e| in every element; the box's elements stay axis-aligned, so the
  // corotational frames are the identity and every method gives it. Then a shear γ (ε_xy = γ/2):
  // σ_xy = μ·γ, von Mises √3·μ·|γ| (small only: the corotational frames turn with a shear).
  // A rigid rotation by 90°: no stress in a corotational frame; small sees the strain
  // sym(R − I), of order 1.
  const Mesh mesh = DistortedBox();
  const Mesh box = Box(2);
  const double e = 1e-3, gamma = 2e-3;
  Eigen::Matrix3d stretch = Eigen::Matrix3d::Identity(), shear = Eigen::Matrix3d::Identity();
  stretch(0, 0) += e;
  shear(0, 1) += gamma;
  for (const HexahedronFemMethod method : kMethods) {
    const auto field = Field(method, box);
    std::vector<double> vm(field->num_elements());
    field->VonMises(Affine(box, stretch, Eigen::Vector3d(0.1, 0.2, 0.3)), vm.data());
    for (const double value : vm) EXPECT_NEAR(value, 2 * kMu * e, 1e-9 * kMu * e) << Name(method);
  }
  {
    const auto field = Field(HexahedronFemMethod::kSmall, mesh);
    std::vector<double> vm(field->num_elements());
    field->VonMises(Affine(mesh, shear, Eigen::Vector3d::Zero()), vm.data());
    for (const double value : vm) EXPECT_NEAR(value, std::sqrt(3.0) * kMu * gamma, 1e-9 * kMu);
  }
  const Eigen::Matrix3d R(Eigen::AngleAxisd(M_PI / 2, Eigen::Vector3d(1, 2, 3).normalized()));
  for (const HexahedronFemMethod method : kMethods) {
    const auto field = Field(method, mesh);
    std::vector<double> vm(field->num_elements());
    field->VonMises(Affine(mesh, R, Eigen::Vector3d(1, 0, 0)), vm.data());
    for (const double value : vm) {
      if (method == HexahedronFemMethod::kSmall)
        EXPECT_GT(value, 0.1 * kYoung) << Name(method);  // the strain of R − I is of order 1
      else
        EXPECT_LT(value, 1e-9 * kYoung) << Name(method);
    }
  }
}

TEST(HexahedronFem, MatrixFreeProductEqualsTheAssembledMatrix) {
  const Mesh mesh = DistortedBox();
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
    for (const HexahedronFemMethod method : kMethods) {
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

TEST(HexahedronFem, UpdateStiffnessMatrixUsesTheCurrentShape) {
  // updateStiffnessMatrix: Kₑ of the current element in its frame. A box stretched by 10 % along
  // x has, in small, the stiffness of the stretched box (built here from ElementStiffnessMatrix);
  // without the option, that of the rest box.
  const Mesh mesh = Box(1);
  const Eigen::Matrix3d stretch = Eigen::Vector3d(1.1, 1, 1).asDiagonal();
  const Vector x = Affine(mesh, stretch, Eigen::Vector3d::Zero());
  std::array<Eigen::Vector3d, 8> current, rest;
  for (int a = 0; a < 8; ++a) {
    current[a] = x.segment<3>(3 * mesh.hexahedra[0][a]);
    rest[a] = mesh.rest.segment<3>(3 * mesh.hexahedra[0][a]);
  }
  HexahedronFem::Stiffness K_current, K_rest;
  ASSERT_TRUE(HexahedronFem::ElementStiffnessMatrix(current, kYoung, kPoisson, K_current));
  ASSERT_TRUE(HexahedronFem::ElementStiffnessMatrix(rest, kYoung, kPoisson, K_rest));
  const double scale = K_rest.cwiseAbs().maxCoeff();
  EXPECT_GT((K_current - K_rest).cwiseAbs().maxCoeff(), 0.01 * scale);
  // (ElementStiffness: in the element's vertex order, not the mesh's.)
  EXPECT_LT((Field(HexahedronFemMethod::kSmall, mesh, true)->ElementStiffness(0, x) - K_current)
                .cwiseAbs()
                .maxCoeff(),
            1e-12 * scale);
  EXPECT_LT((Field(HexahedronFemMethod::kSmall, mesh, false)->ElementStiffness(0, x) - K_rest)
                .cwiseAbs()
                .maxCoeff(),
            1e-12 * scale);
}

TEST(HexahedronFem, ResultsDoNotDependOnTheThreadCount) {
  if (!ThreadsAvailable()) GTEST_SKIP() << "built without OpenMP";
  const Mesh mesh = Box(12);  // 1728 hexahedra: three ranges of 512 elements or more
  std::mt19937 random(3);
  std::uniform_real_distribution<double> jitter(-0.01, 0.01);
  Vector x = mesh.rest, v(x.size());
  for (Index i = 0; i < x.size(); ++i) {
    x[i] += jitter(random);
    v[i] = jitter(random);
  }
  for (const HexahedronFemMethod method : kMethods) {
    const auto field = Field(method, mesh);
    std::vector<Vector> forces, products;
    std::vector<std::vector<double>> values;
    std::vector<MatrixEntry> entries;
    field->StiffnessEntries(entries);
    std::map<std::pair<Index, Index>, Index> slot_of;
    std::vector<Index> slots(entries.size());
    for (std::size_t k = 0; k < entries.size(); ++k)
      slots[k] =
          slot_of.try_emplace({entries[k].row, entries[k].col}, static_cast<Index>(slot_of.size()))
              .first->second;
    for (const int threads : {1, 2, 3}) {
      SetThreadCount(threads);
      forces.push_back(Force(*field, At(x)));
      std::vector<double> tangent(static_cast<std::size_t>(field->TangentSize()));
      field->LinearizeStiffness(At(x), tangent.data());
      Vector y = Vector::Zero(x.size());
      field->AddTangentProduct(tangent.data(), 0.0, 1.0, v, y);
      products.push_back(y);
      values.emplace_back(slot_of.size(), 0.0);
      field->AddStiffness(At(x), slots.data(), values.back().data());
    }
    SetThreadCount(0);
    for (std::size_t k = 1; k < forces.size(); ++k) {
      EXPECT_TRUE((forces[k].array() == forces[0].array()).all()) << Name(method) << " " << k;
      EXPECT_TRUE((products[k].array() == products[0].array()).all()) << Name(method) << " " << k;
      EXPECT_EQ(values[k], values[0]) << Name(method) << " " << k;
    }
  }
}

TEST(HexahedronFem, InvertedRestElementIsRefused) {
  // Vertices 0–3 and 4–7 swapped: the element is its own mirror image, det J < 0.
  Mesh mesh = Box(1);
  auto& h = mesh.hexahedra[0];
  h = {h[4], h[5], h[6], h[7], h[0], h[1], h[2], h[3]};
  std::vector<HexahedronFem::Element> elements;
  std::vector<HexahedronFem::Stiffness> stiffnesses;
  EXPECT_EQ(HexahedronFem::RestElements(HexahedronFemMethod::kSmall, mesh.hexahedra, mesh.rest, 0,
                                        {kYoung}, {kPoisson}, elements, stiffnesses),
            0);
}

}  // namespace
}  // namespace fluxion::internal
