// SOFA's element FEM components (CorotationalFEMForceField, LinearSmallStrainFEMForceField on
// Vec3 tetrahedra and hexahedra; NodalMassDensity and FEMMass) through scenes, against values
// computed here independently:
// - one element, deformed with a large rotation: the force equals SOFA's formula written out
//   here (Kₑ by its quadrature in world coordinates, R = Fᵀ·F₀ from the element frames,
//   u = Rᵀ(x − c) − (X − c₀), f = −R·Kₑ·u);
// - patch tests: an affine field leaves interior nodes without force and loads a face with
//   σ·n·area (Hooke's σ of the field's strain), for both formulations (the corotational one
//   under a rigid rotation on top, for hexahedra);
// - rigid rotations by 90° and 135°: no force from the corotational elements; from the linear
//   ones, the patch-test force of the "strain" sym(Q − I);
// - the tangent (Simulation::ComponentMatrix) against central differences of the force;
// - FEMMass against the trilinear mass matrix and its weight M·g;
// - bit-identical results on 1 and 2 threads, for both strategies; bad input as one error.
// (The cantilever, allocation and SOFA's validation scenes: element_fem_cantilever_test.cpp.)
// The force at a state is read with one explicit Euler step from rest with unit point masses
// and h = 1: v₁ = h·M⁻¹·f = f, exactly.
#include <gmock/gmock.h>

#include <array>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include <Eigen/Dense>

#include "fluxion/threads.h"
#include "support/test_support.h"

namespace fluxion {
namespace {

using ::testing::HasSubstr;
using testing::LoadErrors;
using testing::LoadScene;

class ElementFemScenes : public testing::QuietTest {};

constexpr double kYoung = 2e6, kPoisson = 0.3;

std::string Numbers(const Eigen::VectorXd& v) {
  std::string text;
  char buffer[32];
  for (Eigen::Index i = 0; i < v.size(); ++i) {
    std::snprintf(buffer, sizeof buffer, "%.17g ", v[i]);
    text += buffer;
  }
  return text;
}

// The force field element of a scene: `component` on `shape` ("Tetrahedron", "Hexahedron").
std::string Field(const std::string& component, const std::string& shape,
                  const std::string& extra = "") {
  return "<" + component + " name=\"FEM\" template=\"Vec3," + shape + "\" youngModulus=\"" +
         std::to_string(kYoung) + "\" poissonRatio=\"" + std::to_string(kPoisson) + "\" " + extra +
         "/>";
}

// A mesh: points and elements as a MeshTopology.
struct Mesh {
  Eigen::VectorXd rest;
  std::string topology;  // the MeshTopology element
};

Mesh OneTetrahedron() {
  Mesh mesh;
  mesh.rest.resize(12);
  mesh.rest << 0.1, 0.2, 0.0, 1.3, 0.1, 0.2, 0.2, 0.9, -0.1, 0.3, 0.4, 1.1;
  mesh.topology = "<MeshTopology name=\"mesh\" position=\"" + Numbers(mesh.rest) +
                  "\" tetrahedra=\"0 1 2 3\"/>";
  return mesh;
}

constexpr int kCorner[8][3] = {{-1, -1, -1}, {1, -1, -1}, {1, 1, -1}, {-1, 1, -1},
                               {-1, -1, 1},  {1, -1, 1},  {1, 1, 1},  {-1, 1, 1}};

// A general hexahedron (no two faces parallel), in SOFA's vertex order.
Mesh OneHexahedron() {
  Mesh mesh;
  mesh.rest.resize(24);
  const double size[3] = {0.6, 0.8, 1.0};
  const double jitter[8][3] = {{0.01, 0.02, 0.0},    {0.05, -0.03, 0.02}, {-0.04, 0.06, 0.01},
                               {0.02, 0.0, -0.03},   {0.0, 0.03, 0.05},   {0.03, 0.01, -0.02},
                               {-0.02, -0.05, 0.04}, {0.06, 0.02, 0.0}};
  for (int a = 0; a < 8; ++a)
    for (int k = 0; k < 3; ++k)
      mesh.rest[3 * a + k] = (kCorner[a][k] > 0 ? size[k] : 0.0) + jitter[a][k];
  mesh.topology = "<MeshTopology name=\"mesh\" position=\"" + Numbers(mesh.rest) +
                  "\" hexahedra=\"0 1 2 3 4 5 6 7\"/>";
  return mesh;
}

// The scene whose one explicit step from `x` reads the force (see the file comment).
std::string ProbeScene(const std::string& topology, const std::string& field) {
  return R"(<Node name="root" dt="1" gravity="0 0 0">
  <EulerExplicitSolver/>
  )" + topology +
         R"(
  <MechanicalObject name="body"/>
  <UniformMass vertexMass="1"/>
  )" + field +
         "\n</Node>";
}

Eigen::VectorXd ForceAt(const std::string& scene, const Eigen::VectorXd& x) {
  Simulation simulation = LoadScene(scene);
  simulation.SetPosition(0, x);
  simulation.Step();
  return simulation.velocity(0);
}

Eigen::MatrixXd StiffnessAt(const std::string& scene, const Eigen::VectorXd& x) {
  Simulation simulation = LoadScene(scene);
  simulation.SetPosition(0, x);
  return Eigen::MatrixXd(simulation.ComponentMatrix("root/FEM", ComponentMatrixKind::kStiffness));
}

Eigen::Matrix3d Rotation(double angle, Eigen::Vector3d axis) {
  return Eigen::AngleAxisd(angle, axis.normalized()).toRotationMatrix();
}

// --- SOFA's formula, written out independently ---------------------------------------------------

// Hooke's 6×6 matrix (Voigt order xx, yy, zz, xy, yz, zx; engineering shear).
Eigen::Matrix<double, 6, 6> Hooke() {
  const double lambda = kYoung * kPoisson / ((1 + kPoisson) * (1 - 2 * kPoisson));
  const double mu = kYoung / (2 * (1 + kPoisson));
  Eigen::Matrix<double, 6, 6> C = Eigen::Matrix<double, 6, 6>::Zero();
  C.topLeftCorner<3, 3>().setConstant(lambda);
  C.topLeftCorner<3, 3>().diagonal().array() += 2 * mu;
  C.bottomRightCorner<3, 3>().diagonal().setConstant(mu);
  return C;
}

// B (6 × 3N) from the shape gradients dN (N × 3).
Eigen::MatrixXd StrainDisplacement(const Eigen::MatrixXd& dN) {
  Eigen::MatrixXd B = Eigen::MatrixXd::Zero(6, 3 * dN.rows());
  for (Eigen::Index a = 0; a < dN.rows(); ++a) {
    const double gx = dN(a, 0), gy = dN(a, 1), gz = dN(a, 2);
    B(0, 3 * a) = gx;
    B(1, 3 * a + 1) = gy;
    B(2, 3 * a + 2) = gz;
    B(3, 3 * a) = gy;
    B(3, 3 * a + 1) = gx;
    B(4, 3 * a + 1) = gz;
    B(4, 3 * a + 2) = gy;
    B(5, 3 * a) = gz;
    B(5, 3 * a + 2) = gx;
  }
  return B;
}

// Kₑ by SOFA's quadrature on the rest element in world coordinates.
Eigen::MatrixXd ElementStiffness(const Eigen::VectorXd& X) {
  const Eigen::Index n = X.size() / 3;
  Eigen::MatrixXd K = Eigen::MatrixXd::Zero(3 * n, 3 * n);
  const auto add = [&](const Eigen::MatrixXd& dN_ref, double weight) {
    Eigen::Matrix3d J = Eigen::Matrix3d::Zero();  // J(i, k) = ∂X_i/∂ξ_k
    for (Eigen::Index a = 0; a < n; ++a) J += X.segment<3>(3 * a) * dN_ref.row(a);
    const Eigen::MatrixXd dN = dN_ref * J.inverse();
    const Eigen::MatrixXd B = StrainDisplacement(dN);
    K += weight * std::abs(J.determinant()) * B.transpose() * Hooke() * B;
  };
  if (n == 4) {
    Eigen::MatrixXd dN(4, 3);
    dN << -1, -1, -1, 1, 0, 0, 0, 1, 0, 0, 0, 1;
    add(dN, 1.0 / 6.0);
  } else {
    const double g = 1.0 / std::sqrt(3.0);
    for (const auto& q : kCorner) {
      Eigen::MatrixXd dN(8, 3);
      for (int a = 0; a < 8; ++a) {
        const double f[3] = {1 + kCorner[a][0] * q[0] * g, 1 + kCorner[a][1] * q[1] * g,
                             1 + kCorner[a][2] * q[2] * g};
        dN(a, 0) = kCorner[a][0] * f[1] * f[2] / 8;
        dN(a, 1) = f[0] * kCorner[a][1] * f[2] / 8;
        dN(a, 2) = f[0] * f[1] * kCorner[a][2] / 8;
      }
      add(dN, 1.0);
    }
  }
  return K;
}

// The frame SOFA's rotation methods take (rows e_x, e_y, e_z): tetrahedra from the first face,
// hexahedra from the mean edges.
Eigen::Matrix3d Frame(const Eigen::VectorXd& x) {
  const auto p = [&](int a) { return Eigen::Vector3d(x.segment<3>(3 * a)); };
  Eigen::Vector3d ex, along;
  if (x.size() == 12) {
    ex = p(1) - p(0);
    along = p(2) - p(0);
  } else {
    ex = (p(1) - p(0) + p(2) - p(3) + p(5) - p(4) + p(6) - p(7)) / 4;
    along = (p(3) - p(0) + p(2) - p(1) + p(7) - p(4) + p(6) - p(5)) / 4;
  }
  ex.normalize();
  const Eigen::Vector3d ez = ex.cross(along).normalized();
  Eigen::Matrix3d F;
  F.row(0) = ex;
  F.row(1) = ez.cross(ex);
  F.row(2) = ez;
  return F;
}

Eigen::VectorXd SofaForce(const Eigen::VectorXd& X, const Eigen::VectorXd& x, bool corotational) {
  const Eigen::Index n = X.size() / 3;
  const Eigen::Matrix3d R =
      corotational ? Eigen::Matrix3d(Frame(x).transpose() * Frame(X)) : Eigen::Matrix3d::Identity();
  Eigen::Vector3d c = Eigen::Vector3d::Zero(), c0 = Eigen::Vector3d::Zero();
  for (Eigen::Index a = 0; a < n; ++a) {
    c += x.segment<3>(3 * a) / static_cast<double>(n);
    c0 += X.segment<3>(3 * a) / static_cast<double>(n);
  }
  Eigen::VectorXd u(3 * n);
  for (Eigen::Index a = 0; a < n; ++a)
    u.segment<3>(3 * a) = R.transpose() * (x.segment<3>(3 * a) - c) - (X.segment<3>(3 * a) - c0);
  const Eigen::VectorXd Ku = ElementStiffness(X) * u;
  Eigen::VectorXd f(3 * n);
  for (Eigen::Index a = 0; a < n; ++a) f.segment<3>(3 * a) = -R * Ku.segment<3>(3 * a);
  return f;
}

// A deformation with a large rotation: x = Q·(X + D·X) + t, D a general (non-symmetric) 10 %
// gradient.
Eigen::VectorXd Deformed(const Eigen::VectorXd& X, const Eigen::Matrix3d& Q) {
  Eigen::Matrix3d D;
  D << 0.08, -0.03, 0.05, 0.02, -0.06, 0.04, -0.05, 0.07, 0.1;
  Eigen::VectorXd x(X.size());
  for (Eigen::Index a = 0; a < X.size() / 3; ++a)
    x.segment<3>(3 * a) =
        Q * (X.segment<3>(3 * a) + D * X.segment<3>(3 * a)) + Eigen::Vector3d(0.3, -0.2, 0.5);
  return x;
}

struct Case {
  const char* component;
  const char* shape;
  bool corotational;
};
const Case kCases[] = {{"CorotationalFEMForceField", "Tetrahedron", true},
                       {"CorotationalFEMForceField", "Hexahedron", true},
                       {"LinearSmallStrainFEMForceField", "Tetrahedron", false},
                       {"LinearSmallStrainFEMForceField", "Hexahedron", false}};

Mesh OneElement(const Case& c) {
  return std::string(c.shape) == "Tetrahedron" ? OneTetrahedron() : OneHexahedron();
}

TEST_F(ElementFemScenes, OneElementGivesSofasForce) {
  // Forces of size E·L²·|D| ≈ 1e5: round-off of the two computations ≈ 1e-16·E·L²·(a few
  // hundred operations); 1e-9 relative leaves room and still sees any wrong term.
  for (const Case& c : kCases) {
    const Mesh mesh = OneElement(c);
    const Eigen::VectorXd x = Deformed(mesh.rest, Rotation(2.3, {1.0, -2.0, 0.5}));
    const Eigen::VectorXd expected = SofaForce(mesh.rest, x, c.corotational);
    const Eigen::VectorXd f = ForceAt(ProbeScene(mesh.topology, Field(c.component, c.shape)), x);
    EXPECT_LT((f - expected).norm(), 1e-9 * expected.norm()) << c.component << " " << c.shape;
    EXPECT_GT(expected.norm(), 1e3);
  }
}

TEST_F(ElementFemScenes, RigidRotationsMoveOnlyTheLinearElements) {
  // Rotations by 90° about z and by 135° about (1, 1, 1): the corotational force vanishes (to
  // round-off of E·L²: 1e-9·E); the linear one is −Kₑ·(Q − I)·X, SOFA's formula with R = I.
  for (const Case& c : kCases) {
    const Mesh mesh = OneElement(c);
    for (const auto& [angle, axis] : {std::pair{M_PI / 2, Eigen::Vector3d(0, 0, 1)},
                                      std::pair{3 * M_PI / 4, Eigen::Vector3d(1, 1, 1)}}) {
      const Eigen::Matrix3d Q = Rotation(angle, axis);
      Eigen::VectorXd x(mesh.rest.size());
      for (Eigen::Index a = 0; a < x.size() / 3; ++a)
        x.segment<3>(3 * a) = Q * mesh.rest.segment<3>(3 * a) + Eigen::Vector3d(1, 2, 3);
      const Eigen::VectorXd f = ForceAt(ProbeScene(mesh.topology, Field(c.component, c.shape)), x);
      if (c.corotational) {
        EXPECT_LT(f.norm(), 1e-9 * kYoung) << c.shape << " " << angle;
      } else {
        const Eigen::VectorXd expected = SofaForce(mesh.rest, x, false);
        EXPECT_GT(expected.norm(), 0.1 * kYoung) << c.shape << " " << angle;
        EXPECT_LT((f - expected).norm(), 1e-9 * expected.norm()) << c.shape << " " << angle;
      }
    }
  }
}

// --- Patch tests on a 2 × 2 × 2 grid -------------------------------------------------------------

// A 2 × 2 × 2 box of 2 × 2 × 2 cells (27 nodes, node 13 inside), as hexahedra or as the
// tetrahedra of Hexa2TetraTopologicalMapping.
std::string PatchScene(const Case& c) {
  const std::string grid =
      R"(<RegularGridTopology name="grid" n="3 3 3" min="0 0 0" max="2 2 2"/>)";
  const bool tetrahedra = std::string(c.shape) == "Tetrahedron";
  return R"(<Node name="root" dt="1" gravity="0 0 0">
  <EulerExplicitSolver/>
  )" + grid +
         R"(
  <MechanicalObject name="body"/>
  <UniformMass vertexMass="1"/>
  )" +
         (tetrahedra ? std::string(R"(<Node name="fem">
    <TetrahedronSetTopologyContainer name="tets"/>
    <Hexa2TetraTopologicalMapping input="@../grid" output="@tets"/>
    )") + Field(c.component, c.shape) +
                           "\n  </Node>"
                     : Field(c.component, c.shape)) +
         "\n</Node>";
}

TEST_F(ElementFemScenes, AffineFieldsPassThePatchTest) {
  // x = Q·(X + G·X) with G = diag(1, −2, 3)·1e-3 (a strain ε = G): σ = λ·tr ε·I + 2μ·ε; the
  // elements pull the nodes of the face x = 2 (area 4) back by σ_xx·4 along Q·e_x in all (the
  // opposite of the traction σ·n·area that holds the body in that state);
  // the interior node 13 carries nothing. Q = I for the linear elements; for the corotational
  // ones also Q = 90° about z: the hexahedra's mean edges stay along the axes under G, so
  // their R is Q exactly; the tetrahedra's face frames turn by O(|G|) under G (SOFA's
  // "triangle" method), a rotation that strains nothing to first order: a force error
  // O(|G|²)·E·area, O(|G|) = 3e-3 of σ·area (measured 1.0e-3).
  const double lambda = kYoung * kPoisson / ((1 + kPoisson) * (1 - 2 * kPoisson));
  const double mu = kYoung / (2 * (1 + kPoisson));
  const Eigen::Vector3d strain(1e-3, -2e-3, 3e-3);
  const double sigma_xx = lambda * strain.sum() + 2 * mu * strain.x();
  for (const Case& c : kCases) {
    const std::string scene = PatchScene(c);
    const Eigen::VectorXd rest = LoadScene(scene).position(0);
    std::vector<Eigen::Matrix3d> rotations = {Eigen::Matrix3d::Identity()};
    if (c.corotational) rotations.push_back(Rotation(M_PI / 2, {0, 0, 1}));
    for (const Eigen::Matrix3d& Q : rotations) {
      Eigen::VectorXd x(rest.size());
      for (Eigen::Index a = 0; a < x.size() / 3; ++a)
        x.segment<3>(3 * a) =
            Q * (rest.segment<3>(3 * a) + strain.cwiseProduct(rest.segment<3>(3 * a)));
      const Eigen::VectorXd f = ForceAt(scene, x);
      Eigen::Vector3d face = Eigen::Vector3d::Zero();
      for (Eigen::Index a = 0; a < x.size() / 3; ++a)
        if (rest[3 * a] > 1.5) face += f.segment<3>(3 * a);
      const bool exact = !c.corotational || std::string(c.shape) == "Hexahedron";
      const double tolerance = (exact ? 1e-9 : 3e-3) * std::abs(sigma_xx) * 4;
      // Only the x component: the faces y, z = 0, 2 load the edge nodes of this face along y
      // and z (σ is diagonal), never along x.
      EXPECT_NEAR((Q.transpose() * face).x(), -sigma_xx * 4, tolerance)
          << c.component << " " << c.shape;
      EXPECT_LT(f.segment<3>(3 * 13).norm(), tolerance) << c.component << " " << c.shape;
    }
  }
}

// --- Tangent -------------------------------------------------------------------------------------

TEST_F(ElementFemScenes, TangentIsTheDerivativeOfTheForce) {
  // K = −∂f/∂x by central differences (step 1e-6 of a 1 m element: the force's second
  // derivative, O(E·|Δx|) ≈ 1e-6·E, bounds the error; 1e-6 of ‖K‖ leaves room). Linear
  // elements: at a deformed state (f is linear). Corotational ones: at a rigidly rotated rest
  // state, where SOFA's tangent R·Kₑ·Rᵀ (without ∂R/∂x, which multiplies u = 0) is exact.
  const double h = 1e-6;
  for (const Case& c : kCases) {
    const Mesh mesh = OneElement(c);
    const std::string scene = ProbeScene(mesh.topology, Field(c.component, c.shape));
    const Eigen::Matrix3d Q = Rotation(2.0, {0.3, 1.0, -0.4});
    Eigen::VectorXd x(mesh.rest.size());
    if (c.corotational) {
      for (Eigen::Index a = 0; a < x.size() / 3; ++a)
        x.segment<3>(3 * a) = Q * mesh.rest.segment<3>(3 * a);
    } else {
      x = Deformed(mesh.rest, Eigen::Matrix3d::Identity());
    }
    const Eigen::MatrixXd K = StiffnessAt(scene, x);
    Eigen::MatrixXd fd(x.size(), x.size());
    for (Eigen::Index j = 0; j < x.size(); ++j) {
      Eigen::VectorXd plus = x, minus = x;
      plus[j] += h;
      minus[j] -= h;
      fd.col(j) = -(ForceAt(scene, plus) - ForceAt(scene, minus)) / (2 * h);
    }
    EXPECT_LT((K - fd).norm(), 1e-6 * K.norm()) << c.component << " " << c.shape;
  }
}

// --- FEMMass -------------------------------------------------------------------------------------

std::string MassScene(const std::string& density, const std::string& extra = "") {
  return R"(<Node name="root" dt="0.5" gravity="0 -9.81 0">
  <EulerExplicitSolver/>
  <SparseLDLSolver/>
  <RegularGridTopology name="grid" n="3 2 2" min="0 0 0" max="2 0.5 0.25"/>
  <MechanicalObject name="body"/>
  <NodalMassDensity name="density" property=")" +
         density + R"("/>
  <FEMMass name="mass" template="Vec3,Hexahedron" )" +
         extra + R"(/>
</Node>)";
}

TEST_F(ElementFemScenes, FemMassIsTheTrilinearMassMatrix) {
  // Two 1 × 0.5 × 0.25 boxes side by side along x, ρ = 1100: each box contributes
  // ρV·Π_k m_k (m = ⅓ same end, ⅙ opposite ends of axis k) between its vertices.
  Simulation simulation = LoadScene(MassScene("1100"));
  const Eigen::MatrixXd M(simulation.ComponentMatrix("root/mass", ComponentMatrixKind::kMass));
  const double box = 1100.0 * 0.125;  // ρV of one box
  const double tolerance = 1e-13 * box;
  // Grid points: i + 3·(j + 2·k). Point 0: a corner of one box; point 1 (x = 1) is in both.
  EXPECT_NEAR(M(0, 0), box / 27, tolerance);
  EXPECT_NEAR(M(3, 3), 2 * box / 27, tolerance);                  // point 1, x axis
  EXPECT_NEAR(M(0, 3), box / 54, tolerance);                      // 0–1: an edge along x
  EXPECT_NEAR(M(3 * 1 + 1, 3 * 4 + 1), 2 * box / 54, tolerance);  // 1–4: edge along y, shared
  EXPECT_NEAR(M(0, 3 * 10), box / 216, tolerance);                // 0–10: the box's diagonal
  EXPECT_NEAR(M(0, 3 * 2), 0.0, tolerance);                       // 0–2: no common box
  EXPECT_NEAR(M(0, 1), 0.0, tolerance);                           // no coupling between axes
  EXPECT_NEAR(M.sum(), 3 * 2 * box, 1e-12 * box);                 // ρV per axis
  // Its weight is M·g: every point falls with g exactly (v₁ = h·M⁻¹·M·g).
  simulation.Step();
  const auto v = simulation.velocity(0);
  for (Eigen::Index a = 0; a < v.size() / 3; ++a) {
    EXPECT_NEAR(v[3 * a], 0.0, 1e-12);
    EXPECT_NEAR(v[3 * a + 1], -9.81 * 0.5, 1e-12);
  }
}

TEST_F(ElementFemScenes, NodalDensityPastTheListIsItsLast) {
  // property="1000 2000": point 0 has 1000, every other point 2000 (SOFA's getNodeProperty).
  // The mass is then Σ_e Σ_ab ∫ρ N_a N_b = ∫ρ with ρ trilinear: the box at x < 1 holds
  // (7·2000 + 1000)/8·ρ-weighted volume 0.125, the other 2000·0.125.
  Simulation simulation = LoadScene(MassScene("1000 2000"));
  const Eigen::MatrixXd M(simulation.ComponentMatrix("root/mass", ComponentMatrixKind::kMass));
  const double total = 0.125 * (7 * 2000.0 + 1000.0) / 8 + 0.125 * 2000.0;
  EXPECT_NEAR(M.sum() / 3, total, 1e-12 * total);
  // A link by name finds the same component.
  Simulation linked = LoadScene(MassScene("1000 2000", "nodalMassDensity=\"@density\""));
  EXPECT_EQ(Eigen::MatrixXd(linked.ComponentMatrix("root/mass", ComponentMatrixKind::kMass)), M);
}

// --- Threads and strategies --------------------------------------------------------------------

TEST_F(ElementFemScenes, ThreadsAndStrategiesGiveTheSameBits) {
  // Meshes large enough to split over two threads (1280 hexahedra, 4608 tetrahedra above the
  // kernels' grains of 512 and 2048), two implicit steps (assembled: SparseLDLSolver; matrix
  // free: CGLinearSolver, h = 0.1 ms so that it converges in a few iterations) under gravity,
  // on 1 and 2 threads with the parallel strategy and on 2 with the sequenced one.
  if (!ThreadsAvailable()) GTEST_SKIP() << "built without OpenMP";
  for (const char* component : {"CorotationalFEMForceField", "LinearSmallStrainFEMForceField"})
    for (const char* shape : {"Hexahedron", "Tetrahedron"})
      for (const char* solver :
           {"<SparseLDLSolver/>",
            R"(<CGLinearSolver iterations="1000" tolerance="1e-10" threshold="1e-30"/>)"}) {
        std::vector<Eigen::VectorXd> results;
        for (const auto& [strategy, threads] :
             {std::pair{"parallel", 1}, std::pair{"parallel", 2}, std::pair{"sequenced", 2}}) {
          SetThreadCount(threads);
          const bool tetrahedra = std::string(shape) == "Tetrahedron";
          const std::string xml = std::string(R"(<Node name="root" dt="1e-4" gravity="0 -9.81 0">
  <EulerImplicitSolver rayleighMass="0.1"/>
  )") + solver + R"(
  <RegularGridTopology name="grid" n=")" +
                                  (tetrahedra ? "9 9 13" : "9 9 21") +
                                  R"(" min="0 0 0" max="0.1 0.1 1"/>
  <MechanicalObject name="beam"/>
  <NodalMassDensity property="1100"/>
  <FEMMass template="Vec3,Hexahedron"/>
  )" +
                                  (tetrahedra ? R"(<Node name="fem">
  <TetrahedronSetTopologyContainer name="tets"/>
  <Hexa2TetraTopologicalMapping input="@../grid" output="@tets" swapping="true"/>
  )"
                                              : "") +
                                  "<" + component + " template=\"Vec3," + shape +
                                  "\" youngModulus=\"2e6\" poissonRatio=\"0.45\"" +
                                  " computeForceStrategy=\"" + strategy +
                                  "\" computeForceDerivStrategy=\"" + strategy + "\"/>" +
                                  (tetrahedra ? "</Node>" : "") + R"(
  <BoxROI name="clamp" box="-1 -1 -0.001 1 1 0.001"/>
  <FixedProjectiveConstraint indices="@clamp.indices"/>
</Node>)";
          Simulation simulation = LoadScene(xml);
          const Eigen::VectorXd rest = simulation.position(0);
          for (int step = 0; step < 2; ++step) simulation.Step();
          results.emplace_back(simulation.position(0));
          EXPECT_GT((results.back() - rest).norm(), 0.0);  // it moved
        }
        SetThreadCount(0);
        for (std::size_t r = 1; r < results.size(); ++r)
          EXPECT_EQ(results[r], results[0])
              << component << " " << shape << " " << solver << " " << r;
      }
}

// --- Bad input -----------------------------------------------------------------------------------

TEST_F(ElementFemScenes, BadInputIsOneErrorAtTheComponent) {
  const Mesh mesh = OneTetrahedron();
  const auto errors = [&](const std::string& field) {
    return LoadErrors(ProbeScene(mesh.topology, field));
  };
  EXPECT_THAT(errors(R"(<CorotationalFEMForceField template="Vec3,Triangle"/>)"),
              ::testing::ElementsAre(
                  HasSubstr("inline.scn:6: CorotationalFEMForceField template=\"Vec3,Triangle\" is "
                            "not supported")));
  EXPECT_THAT(errors(R"(<LinearSmallStrainFEMForceField/>)"),
              ::testing::ElementsAre(HasSubstr(
                  "inline.scn:6: LinearSmallStrainFEMForceField needs a template (expected "
                  "\"Vec3,Tetrahedron\" or \"Vec3,Hexahedron\"")));
  EXPECT_THAT(
      errors(
          R"(<CorotationalFEMForceField template="Vec3,Tetrahedron" rotationMethod="hexahedron"/>)"),
      ::testing::ElementsAre(HasSubstr(
          "rotationMethod=\"hexahedron\" is not SOFA's for this element (expected \"triangle\", "
          "\"polar\", \"stable_polar\" or \"identity\")")));
  EXPECT_THAT(errors(R"(<LinearSmallStrainFEMForceField template="Vec3,Hexahedron"/>)"),
              ::testing::ElementsAre(HasSubstr("needs a topology with hexahedra")));
  EXPECT_THAT(
      errors(R"(<LinearSmallStrainFEMForceField template="Vec3,Tetrahedron" poissonRatio="0.5"/>)"),
      ::testing::ElementsAre(HasSubstr("'poissonRatio' has 0.500000")));
  EXPECT_THAT(LoadErrors(R"(<Node name="root" dt="1">
  <EulerImplicitSolver/>
  <SparseLDLSolver/>
  )" + mesh.topology + R"(
  <MechanicalObject/>
  <FEMMass template="Vec3,Tetrahedron"/>
</Node>)"),
              ::testing::ElementsAre(HasSubstr(
                  "inline.scn:6: FEMMass needs a NodalMassDensity in node 'root' or above")));
}

}  // namespace
}  // namespace fluxion
