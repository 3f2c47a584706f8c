// The numerical core of SOFA's triangular membranes (mechanics/triangle_fem.cpp), in its three
// kinds: large with the current triangle's gradients (TriangleFEMForceField and
// TriangularFEMForceField), large with the rest triangle's (TriangularFEMForceFieldOptim), small
// (the first two's method="small"), on a triangulated square whose triangles start their first
// edge in every direction and have both orientations:
// - patch test: the rest stiffness applied to an affine in-plane displacement gives zero on the
//   interior nodes and −Σ t·(L/2)·σ·n over the boundary edges at the boundary nodes, σ the
//   plane-stress Hooke law written here; the force of a small affine strain (1e-4) gives the
//   same to O(|ε|²) (SOFA's gradients of the current triangle and the corotated frame);
// - rigid rotations (in plane 90°, 135°, and about a tilted axis): no force for large; for
//   small the closed-form force of its strain (1 − cos θ)·I, and a force out of plane;
// - tangent: equal to the central differences of the force at a rotated rest state, O(|ε|)
//   away from them at a strained one (printed); the matrix-free product equals the assembled K;
// - threads: forces, products and the assembled K bit-identical on 1, 2 and 3 threads.
#include <gtest/gtest.h>

#include <Eigen/Geometry>
#include <cmath>
#include <map>
#include <random>

#include "fluxion/threads.h"
#include "forcefields/field_probes.h"
#include "mechanics/triangle_fem.h"

namespace fluxion::internal {
namespace {

using field_probes::At;
using field_probes::FiniteDifferenceStiffness;
using field_probes::Force;
using field_probes::Stiffness;

constexpr double kYoung = 600.0, kPoisson = 0.3;  // SOFA's TriangularFEMForceField.scn
constexpr double kThickness = 0.1;

struct Mesh {
  Vector rest;
  std::vector<std::array<Index, 3>> triangles;
  int n = 0;
};

// [0, 2]² at z = 0.5 cut into n² squares, each into two triangles along one diagonal or the
// other, the vertex order rotated from square to square and every other triangle clockwise:
// node (i, j) = i + (n+1)·j.
Mesh Square(int n) {
  Mesh mesh;
  mesh.n = n;
  const int m = n + 1;
  const double h = 2.0 / n;
  mesh.rest.resize(3 * m * m);
  for (int j = 0; j < m; ++j)
    for (int i = 0; i < m; ++i)
      mesh.rest.segment<3>(3 * (i + m * j)) = Eigen::Vector3d(i * h, j * h, 0.5);
  int k = 0;
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i, ++k) {
      const Index p00 = i + m * j, p10 = p00 + 1, p01 = p00 + m, p11 = p01 + 1;
      std::array<std::array<Index, 3>, 2> pair =
          (k % 2 == 0) ? std::array<std::array<Index, 3>, 2>{{{p00, p10, p11}, {p00, p11, p01}}}
                       : std::array<std::array<Index, 3>, 2>{{{p00, p10, p01}, {p10, p11, p01}}};
      for (auto& t : pair) {
        std::rotate(t.begin(), t.begin() + (k % 3), t.end());
        if ((k / 2) % 2 == 1) std::swap(t[1], t[2]);  // clockwise
        mesh.triangles.push_back(t);
      }
    }
  return mesh;
}

enum class Kind { kLargeCurrent, kLargeRest, kSmall };
const Kind kKinds[] = {Kind::kLargeCurrent, Kind::kLargeRest, Kind::kSmall};
const char* Name(Kind k) {
  return k == Kind::kLargeCurrent ? "large (current gradients)"
         : k == Kind::kLargeRest  ? "large (rest gradients, Optim)"
                                  : "small";
}

// The rest points of each triangle written without the code under test: large, the triangle in
// the frame of its first edge, B = (|b − a|, 0), C = ((c − a)·e, |(b − a) × (c − a)|/|b − a|);
// small, the world's x and y of the edges.
std::unique_ptr<TriangleFem> Field(Kind kind, const Mesh& mesh) {
  std::vector<TriangleFem::Element> elements(mesh.triangles.size());
  const TriangleFem::Material material{kYoung, kPoisson, kThickness, false};
  for (std::size_t t = 0; t < mesh.triangles.size(); ++t) {
    const auto& tri = mesh.triangles[t];
    const Eigen::Vector3d a = mesh.rest.segment<3>(3 * tri[0]);
    const Eigen::Vector3d ab = mesh.rest.segment<3>(3 * tri[1]) - a;
    const Eigen::Vector3d ac = mesh.rest.segment<3>(3 * tri[2]) - a;
    const double area = 0.5 * ab.cross(ac).norm();
    Eigen::Vector2d B, C;
    if (kind == Kind::kSmall) {
      B = ab.head<2>();
      C = ac.head<2>();
    } else {
      B = Eigen::Vector2d(ab.norm(), 0.0);
      C = Eigen::Vector2d(ac.dot(ab) / ab.norm(), 2 * area / ab.norm());
    }
    const std::array<Index, 3> dof = {3 * tri[0], 3 * tri[1], 3 * tri[2]};
    EXPECT_TRUE(TriangleFem::MakeElement(dof, B, C, area, material, elements[t]));
  }
  return std::make_unique<TriangleFem>(
      kind == Kind::kSmall ? TriangleFemMethod::kSmall : TriangleFemMethod::kLarge,
      kind == Kind::kLargeRest ? TriangleFemGradients::kRest : TriangleFemGradients::kCurrent,
      std::move(elements));
}

// Plane-stress Hooke: σ = E/(1−ν²)·((1−ν)·ε + ν·tr ε·I) for a symmetric 2×2 strain.
Eigen::Matrix2d PlaneStress(const Eigen::Matrix2d& strain) {
  return kYoung / (1 - kPoisson * kPoisson) *
         ((1 - kPoisson) * strain + kPoisson * strain.trace() * Eigen::Matrix2d::Identity());
}

// −Σ t·(L/2)·σ·n_out over the boundary edges at each node (the nodal forces of linear triangles
// under the uniform in-plane stress σ), in the plane z = const of the square.
Vector BoundaryForces(const Mesh& mesh, const Eigen::Matrix2d& sigma) {
  std::map<std::pair<Index, Index>, int> count;
  for (const auto& t : mesh.triangles)
    for (int e = 0; e < 3; ++e) {
      const Index u = t[e], v = t[(e + 1) % 3];
      ++count[{std::min(u, v), std::max(u, v)}];
    }
  const Eigen::Vector2d center(1.0, 1.0);
  Vector f = Vector::Zero(mesh.rest.size());
  for (const auto& [edge, n] : count) {
    if (n != 1) continue;
    const Eigen::Vector2d p = mesh.rest.segment<2>(3 * edge.first);
    const Eigen::Vector2d q = mesh.rest.segment<2>(3 * edge.second);
    Eigen::Vector2d normal(q.y() - p.y(), p.x() - q.x());  // |normal| = L
    if (normal.dot(0.5 * (p + q) - center) < 0) normal = -normal;
    const Eigen::Vector2d share = -kThickness * 0.5 * sigma * normal;
    f.segment<2>(3 * edge.first) += share;
    f.segment<2>(3 * edge.second) += share;
  }
  return f;
}

// x = A·(X − o) + o + shift in the plane (A a 2×2 map), z unchanged.
Vector Affine(const Mesh& mesh, const Eigen::Matrix2d& A, const Eigen::Vector2d& shift) {
  Vector x = mesh.rest;
  for (Index i = 0; i < x.size() / 3; ++i)
    x.segment<2>(3 * i) = A * mesh.rest.segment<2>(3 * i) + shift;
  return x;
}

Vector Rotated(const Mesh& mesh, const Eigen::Matrix3d& R, const Eigen::Vector3d& shift) {
  Vector x(mesh.rest.size());
  for (Index i = 0; i < x.size() / 3; ++i)
    x.segment<3>(3 * i) = R * mesh.rest.segment<3>(3 * i) + shift;
  return x;
}

// A symmetric in-plane strain with every component, scaled by `size`.
Eigen::Matrix2d SomeStrain(double size) {
  Eigen::Matrix2d e;
  e << 1.0, 0.35, 0.35, -0.6;
  return size * e;
}

Index InteriorNode(const Mesh& mesh) { return (mesh.n / 2) * (mesh.n + 2); }

// Round-off of forces of order E·t·L·|ε|: 1e-12 relative.
double RoundOff(const Vector& expected) { return 1e-12 * expected.cwiseAbs().maxCoeff() + 1e-14; }

TEST(TriangleFem, RestStiffnessReproducesAnyAffineFieldExactly) {
  // K at rest is the linear element's stiffness for every kind: −K·u of an affine u = G·X is
  // the boundary force of σ(sym G), zero inside (the skew part of G gives no stress).
  const Mesh mesh = Square(4);
  Eigen::Matrix2d G;
  G << 0.02, -0.05, 0.03, -0.01;
  // u = G·X + shift in the plane (Affine keeps z: no z displacement).
  const Vector u =
      Affine(mesh, Eigen::Matrix2d::Identity() + G, Eigen::Vector2d(0.1, -0.2)) - mesh.rest;
  const Vector expected = BoundaryForces(mesh, PlaneStress(0.5 * (G + G.transpose())));
  for (const Kind kind : kKinds) {
    const Eigen::MatrixXd K = Stiffness(*Field(kind, mesh), At(mesh.rest));
    const Vector f = -K * u;
    EXPECT_LT((f - expected).cwiseAbs().maxCoeff(), RoundOff(expected)) << Name(kind);
    EXPECT_LT(f.segment<3>(3 * InteriorNode(mesh)).norm(), RoundOff(expected)) << Name(kind);
    EXPECT_GT(expected.cwiseAbs().maxCoeff(), 0.1);  // t·(L/2)·|σ| ≈ 0.1·0.25·600·0.04
  }
}

TEST(TriangleFem, ForceReproducesASmallStrainToItsSquare) {
  // A symmetric strain of size 1e-4, and the same after a 90° in-plane rotation (large only):
  // SOFA's gradients of the current triangle measure ∂u/∂x instead of ∂u/∂X, and the frame of
  // the first edge turns by O(|ε|) under a pure strain, so the forces deviate from the linear
  // ones by O(|ε|²): relative O(|ε|). Bound: 10·|ε| relative.
  const Mesh mesh = Square(4);
  const double size = 1e-4;
  const Eigen::Matrix2d strain = SomeStrain(size);
  const Vector expected = BoundaryForces(mesh, PlaneStress(strain));
  const Eigen::Matrix2d F = Eigen::Matrix2d::Identity() + strain;
  const Eigen::Matrix2d R = Eigen::Rotation2Dd(M_PI / 2).toRotationMatrix();
  Vector rotated_expected = expected;
  for (Index i = 0; i < expected.size() / 3; ++i)
    rotated_expected.segment<2>(3 * i) = R * expected.segment<2>(3 * i);
  const double bound = 10 * size * expected.cwiseAbs().maxCoeff();
  for (const Kind kind : kKinds) {
    const auto field = Field(kind, mesh);
    const Vector f = Force(*field, At(Affine(mesh, F, Eigen::Vector2d(0.3, -0.1))));
    const double error = (f - expected).cwiseAbs().maxCoeff();
    EXPECT_LT(error, bound) << Name(kind);
    EXPECT_LT(f.segment<3>(3 * InteriorNode(mesh)).norm(), bound) << Name(kind);
    double rotated_error = 0.0;
    if (kind != Kind::kSmall) {
      const Vector g = Force(*field, At(Affine(mesh, R * F, Eigen::Vector2d(0.3, -0.1))));
      rotated_error = (g - rotated_expected).cwiseAbs().maxCoeff();
      EXPECT_LT(rotated_error, bound) << Name(kind);
    }
    std::printf("[ info ] %s: patch error %.3g, rotated 90° %.3g (forces up to %.3g)\n", Name(kind),
                error, rotated_error, expected.cwiseAbs().maxCoeff());
  }
}

TEST(TriangleFem, RigidRotationsGiveNoForceExceptWithSmall) {
  const Mesh mesh = Square(3);
  const Eigen::Vector3d tilted = Eigen::Vector3d(1, 2, 3).normalized();
  for (const double degrees : {90.0, 135.0}) {
    const double theta = degrees * M_PI / 180;
    const Eigen::Matrix3d in_plane(Eigen::AngleAxisd(theta, Eigen::Vector3d::UnitZ()));
    const Eigen::Matrix3d out_of_plane(Eigen::AngleAxisd(theta, tilted));
    for (const Kind kind : kKinds) {
      const auto field = Field(kind, mesh);
      const Vector f = Force(*field, At(Rotated(mesh, in_plane, Eigen::Vector3d(1, -2, 0.3))));
      const Vector g = Force(*field, At(Rotated(mesh, out_of_plane, Eigen::Vector3d(1, -2, 0.3))));
      if (kind == Kind::kSmall) {
        // SOFA's small strain is ∂u/∂x with u = x − X = (I − Rᵀ)·x: (1 − cos θ)·I, an isotropic
        // stress E(1 − cos θ)/(1 − ν) pulling on the rotated boundary: R·(the rest square's
        // boundary forces of that stress).
        const Vector rest_forces = BoundaryForces(
            mesh, kYoung * (1 - std::cos(theta)) / (1 - kPoisson) * Eigen::Matrix2d::Identity());
        Vector expected = rest_forces;
        for (Index i = 0; i < expected.size() / 3; ++i)
          expected.segment<3>(3 * i) = in_plane * rest_forces.segment<3>(3 * i);
        EXPECT_LT((f - expected).cwiseAbs().maxCoeff(), RoundOff(expected)) << degrees;
        EXPECT_GT(f.cwiseAbs().maxCoeff(), 5.0) << degrees;  // E·t·L·(1 − cos θ)/(1 − ν) ≈ 30
        EXPECT_GT(g.cwiseAbs().maxCoeff(), 5.0) << degrees;
        EXPECT_TRUE(g.allFinite());
      } else {
        // Round-off of E·t·|x|·ε_machine per term: 600·0.1·3·1e-16 ≈ 2e-14, tens of terms.
        EXPECT_LT(f.cwiseAbs().maxCoeff(), 1e-11) << Name(kind) << " " << degrees;
        EXPECT_LT(g.cwiseAbs().maxCoeff(), 1e-11) << Name(kind) << " " << degrees;
      }
    }
  }
}

TEST(TriangleFem, StiffnessIsTheDerivativeAtARotatedRestState) {
  // At a rigid motion of the rest shape the strain is zero: the derivatives of the frame and of
  // the gradients that SOFA's tangent leaves out multiply it, so K = −∂f/∂x. Central differences
  // (step 1e-6) of the non-linear force: O(h²·f''') ≈ 1e-12·E and round-off f·ε/h ≈ 1e-8,
  // against K entries of order E·t = 60: 1e-6 relative.
  const Mesh mesh = Square(2);
  const Eigen::Matrix3d R(
      Eigen::AngleAxisd(135 * M_PI / 180, Eigen::Vector3d(1, 2, 3).normalized()));
  for (const Kind kind : kKinds) {
    const Vector x =
        kind == Kind::kSmall ? mesh.rest : Rotated(mesh, R, Eigen::Vector3d(0.5, 0.2, -1));
    const auto field = Field(kind, mesh);
    const Eigen::MatrixXd K = Stiffness(*field, At(x));
    const Eigen::MatrixXd fd = FiniteDifferenceStiffness(*field, At(x));
    EXPECT_LT((K - fd).cwiseAbs().maxCoeff(), 1e-6 * K.cwiseAbs().maxCoeff()) << Name(kind);
    EXPECT_LT((K - K.transpose()).cwiseAbs().maxCoeff(), 1e-13 * K.cwiseAbs().maxCoeff());
  }
}

TEST(TriangleFem, StiffnessDiffersFromTheDerivativeByTheOrderOfTheStrain) {
  // At a strained state SOFA's rotated linear stiffness is not −∂f/∂x (no geometric term, no
  // derivative of the current gradients): the difference is O(|ε|)·|K|. Strains 1e-3 and 1e-2:
  // the difference must scale with them (bounded by 5·|ε|·|K|, and above 0.1·|ε|·|K|, i.e. it
  // exists and is SOFA's approximation, not an error of the finite differences).
  const Mesh mesh = Square(2);
  const Eigen::Matrix3d R(Eigen::AngleAxisd(0.7, Eigen::Vector3d(1, 2, 3).normalized()));
  for (const Kind kind : kKinds) {
    for (const double size : {1e-3, 1e-2}) {
      Vector x =
          Affine(mesh, Eigen::Matrix2d::Identity() + SomeStrain(size), Eigen::Vector2d::Zero());
      if (kind != Kind::kSmall)
        for (Index i = 0; i < x.size() / 3; ++i) x.segment<3>(3 * i) = R * x.segment<3>(3 * i);
      const auto field = Field(kind, mesh);
      const Eigen::MatrixXd K = Stiffness(*field, At(x));
      const double difference =
          (K - FiniteDifferenceStiffness(*field, At(x))).cwiseAbs().maxCoeff() /
          K.cwiseAbs().maxCoeff();
      std::printf("[ info ] %s, strain %.0e: |K − FD|/|K| = %.3g\n", Name(kind), size, difference);
      EXPECT_LT(difference, 5 * size) << Name(kind);
      EXPECT_GT(difference, 0.1 * size) << Name(kind);
    }
  }
}

TEST(TriangleFem, MatrixFreeProductEqualsTheAssembledStiffness) {
  const Mesh mesh = Square(3);
  std::mt19937 random(11);
  std::uniform_real_distribution<double> jitter(-0.05, 0.05);
  Vector x = mesh.rest, v(x.size());
  for (Index i = 0; i < x.size(); ++i) {
    x[i] += jitter(random);
    v[i] = jitter(random);
  }
  for (const Kind kind : kKinds) {
    const auto field = Field(kind, mesh);
    const Eigen::MatrixXd K = Stiffness(*field, At(x));
    std::vector<double> tangent(static_cast<std::size_t>(field->TangentSize()));
    field->LinearizeStiffness(At(x), tangent.data());
    Vector y = Vector::Zero(x.size());
    field->AddTangentProduct(tangent.data(), 0.0, 2.0, v, y);
    const Vector expected = 2.0 * K * v;
    EXPECT_LT((y - expected).cwiseAbs().maxCoeff(), RoundOff(expected)) << Name(kind);
  }
}

TEST(TriangleFem, ResultsDoNotDependOnTheThreadCount) {
  if (!ThreadsAvailable()) GTEST_SKIP() << "built without OpenMP";
  const Mesh mesh = Square(70);  // 9800 triangles: two ranges of 4096 elements or more
  std::mt19937 random(3);
  std::uniform_real_distribution<double> jitter(-0.005, 0.005);
  Vector x = mesh.rest, v(x.size());
  for (Index i = 0; i < x.size(); ++i) {
    x[i] += jitter(random);
    v[i] = jitter(random);
  }
  for (const Kind kind : kKinds) {
    const auto field = Field(kind, mesh);
    std::vector<MatrixEntry> entries;
    field->StiffnessEntries(entries);
    // The system's slots: one per distinct (row, col), shared by the elements that meet there.
    std::map<std::pair<Index, Index>, Index> slot_of;
    std::vector<Index> slots(entries.size());
    for (std::size_t k = 0; k < entries.size(); ++k)
      slots[k] = slot_of.try_emplace({entries[k].row, entries[k].col}, Index(slot_of.size()))
                     .first->second;
    std::vector<Vector> forces, products;
    std::vector<std::vector<double>> matrices;
    for (const int threads : {1, 2, 3}) {
      SetThreadCount(threads);
      forces.push_back(Force(*field, At(x)));
      std::vector<double> tangent(static_cast<std::size_t>(field->TangentSize()));
      field->LinearizeStiffness(At(x), tangent.data());
      Vector y = Vector::Zero(x.size());
      field->AddTangentProduct(tangent.data(), 0.0, 1.0, v, y);
      products.push_back(y);
      matrices.emplace_back(slot_of.size(), 0.0);
      field->AddStiffness(At(x), slots.data(), matrices.back().data());
    }
    SetThreadCount(0);
    for (std::size_t k = 1; k < forces.size(); ++k) {
      EXPECT_TRUE((forces[k].array() == forces[0].array()).all()) << Name(kind) << " " << k;
      EXPECT_TRUE((products[k].array() == products[0].array()).all()) << Name(kind) << " " << k;
      EXPECT_EQ(matrices[k], matrices[0]) << Name(kind) << " " << k;
    }
  }
}

}  // namespace
}  // namespace fluxion::internal
