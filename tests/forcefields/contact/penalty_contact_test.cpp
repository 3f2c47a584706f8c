// SOFA's penalty contact response (mechanics/penalty_contact_force_field.h,
// mechanics/contact_response.h) on detection outputs made by hand: the force and its matrix-free
// stiffness against finite differences, contact sides through a mapping, SOFA's placement rule
// and duplicate ids, a point resting on a static floor (ks·pen = m·g), momentum in a head-on
// collision, and implicit Euler's stability with and without the contact stiffness in its
// tangent.
#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <cmath>

#include "forcefields/field_probes.h"
#include "mechanics/assembled_system.h"
#include "mechanics/contact_response.h"
#include "mechanics/field_tangent.h"
#include "mechanics/simple_force_fields.h"

namespace fluxion::internal {
namespace {

using collision::CollisionModelDescription;
using collision::DetectionOutput;
using collision::ElementKind;
using collision::ModelPairContacts;
using collision::Vec3;
using field_probes::At;
using field_probes::FiniteDifferenceStiffness;
using field_probes::Force;

// K from the field's matrix-free product, column by column, linearised at `state`.
Eigen::MatrixXd TangentStiffness(const ForceField& field, const State& state) {
  const Index n = state.x.size();
  field.LinearizeStiffness(state, nullptr);
  Eigen::MatrixXd K = Eigen::MatrixXd::Zero(n, n);
  for (Index j = 0; j < n; ++j) {
    Vector column = Vector::Zero(n);
    field.AddTangentProduct(nullptr, 0.0, 1.0, Vector::Unit(n, j), column);
    K.col(j) = column;
  }
  return K;
}

// A static floor triangle (model 0, its own object) and point models.
CollisionModelDescription Floor() {
  CollisionModelDescription floor;
  floor.path = "root/floor/TriangleCollisionModel";
  floor.kind = ElementKind::kTriangle;
  floor.object = 0;
  floor.simulated = false;
  floor.moving = false;
  floor.topology.num_points = 3;
  floor.topology.triangles = {{0, 1, 2}};
  return floor;
}
CollisionModelDescription PointModel(int object, double stiffness) {
  CollisionModelDescription point;
  point.path = "root/body/PointCollisionModel";
  point.kind = ElementKind::kPoint;
  point.object = object;
  point.contact_stiffness = stiffness;
  return point;
}
// Where a model's node and object are (every field given: -Wmissing-field-initializers).
ContactModelPlacement Placement(int node_system, int object_system = -1, Index offset = 0,
                                const LinearMapping* mapping = nullptr) {
  return {.node_system = node_system,
          .node_path = "root/node" + std::to_string(node_system),
          .object_system = object_system,
          .offset = offset,
          .mapping = mapping};
}
const Vector kFloorPoints = (Vector(9) << -1, -1, 0, 2, -1, 0, -1, 2, 0).finished();

// One output: point `p` of the body above the floor's triangle, normal +z (from the floor).
DetectionOutput AboveFloor(const Vec3& p, std::int64_t id = 0) {
  DetectionOutput output;
  output.element = {0, 0};
  output.point = {Vec3(p.x(), p.y(), 0.0), p};
  output.normal = Vec3::UnitZ();
  output.value = p.z();
  output.id = id;
  return output;
}

TEST(PenaltyContactForceField, ForceAndTangentAgainstFiniteDifferences) {
  // Two contacts over four 3-D points with mixed weights, both in penetration, and a third that
  // is not (pen < 0): no force, no stiffness.
  PenaltyContactForceField field;
  field.AddContact(50.0, 0.3);  // pen = 0.3 − gᵀx
  for (const auto& [dof, g] : {std::pair{0, -0.6}, {1, -0.8}, {6, 0.3}, {7, 0.4}, {8, 0.0}})
    field.AddTerm(dof, g);
  field.AddContact(20.0, 1.0);
  for (const auto& [dof, g] : {std::pair{2, -1.0}, {5, 0.5}, {11, 0.5}}) field.AddTerm(dof, g);
  field.AddContact(1e3, -5.0);
  field.AddTerm(9, 1.0);
  const Vector x =
      (Vector(12) << 0.1, 0.0, 0.2, 0.0, 0.0, 0.5, 0.2, 0.1, 0.0, 0.3, 0, 0.4).finished();
  const State state = At(x);
  ASSERT_GT(field.Penetration(0, state), 0.0);
  ASSERT_GT(field.Penetration(1, state), 0.0);
  ASSERT_LT(field.Penetration(2, state), 0.0);
  // f = Σ ks·pen·g; the force is linear in x while the active set holds, so central differences
  // are exact up to round-off (|f| ~ 10, h = 1e-6: ~1e-9 per entry).
  constexpr double kRoundOff = 1e-7;
  const Eigen::MatrixXd K = TangentStiffness(field, state);
  EXPECT_LT((K - FiniteDifferenceStiffness(field, state)).norm(), kRoundOff);
  EXPECT_LT((K - K.transpose()).norm(), 1e-14);
  // The force's closed form on one DOF: f[0] = ks·pen·g[0] for contact 0.
  EXPECT_DOUBLE_EQ(Force(field, state)[0], 50.0 * field.Penetration(0, state) * -0.6);
  EXPECT_EQ(Force(field, state)[9], 0.0);
  EXPECT_DOUBLE_EQ(field.PotentialEnergy(state),
                   0.5 * 50 * std::pow(field.Penetration(0, state), 2) +
                       0.5 * 20 * std::pow(field.Penetration(1, state), 2));
}

PenaltyContactForceField& NewField(std::vector<std::unique_ptr<ForceField>>& fields) {
  auto field = std::make_unique<PenaltyContactForceField>();
  PenaltyContactForceField& result = *field;
  fields.push_back(std::move(field));
  return result;
}

// The response over a static floor (object 0) and a body (object 1) whose point 0 is in
// system 0 at DOF offset `offset`, or mapped through `mapping`.
struct FloorScene {
  std::vector<CollisionModelDescription> models;
  collision::IntersectionSettings intersection;
  std::vector<std::unique_ptr<ForceField>> fields;  // the contact field, as a system holds it
  PenaltyContactForceField& field;
  std::unique_ptr<ContactResponse> response;

  FloorScene(double body_stiffness, const LinearMapping* mapping, Index offset = 0)
      : field(NewField(fields)) {
    models = {Floor(), PointModel(1, body_stiffness)};
    intersection.contact_distance = 0.01;
    const ContactModelPlacement floor = Placement(-1);
    const ContactModelPlacement body = Placement(0, 0, offset, mapping);
    response = std::make_unique<ContactResponse>(models, std::vector{floor, body}, intersection, 0,
                                                 "root", std::vector{&field});
  }
  // Detection made by hand: the body's point above the floor.
  std::vector<Contact> Detect(const Vector& body_points, std::vector<DetectionOutput> outputs) {
    const std::vector<const double*> positions = {kFloorPoints.data(), body_points.data()};
    std::vector<ModelPairContacts> pairs = {{0, 1, std::move(outputs)}};
    std::vector<Contact> contacts;
    response->Apply(positions, pairs, contacts);
    return contacts;
  }
};

TEST(ContactResponse, DistanceStiffnessAndDuplicateIds) {
  FloorScene scene(30.0, nullptr);
  const Vector body = Eigen::Vector3d(0.2, 0.3, 0.004);
  // Two outputs with one id: the smaller value is kept (SOFA's setDetectionOutputs).
  DetectionOutput worse = AboveFloor(body, 7);
  worse.value = 1.0;
  const std::vector<Contact> contacts = scene.Detect(body, {worse, AboveFloor(body, 7)});
  ASSERT_EQ(contacts.size(), 1u);
  ASSERT_EQ(scene.field.num_contacts(), 1);
  // d = intersection (0.01) + models (0); ks = 10·30/d; pen = d − 0.004.
  EXPECT_DOUBLE_EQ(contacts[0].distance, 0.01);
  EXPECT_NEAR(contacts[0].penetration, 0.006, 1e-15);
  EXPECT_EQ(contacts[0].solver_node, 0);
  const Vector f = Force(scene.field, At(body));
  EXPECT_NEAR(f[2], 10.0 * 30.0 / 0.01 * 0.006, 1e-9);  // up, ks·pen
  EXPECT_EQ(f[0], 0.0);
}

// The duplicate search has a linear form for ids below a few times the number of outputs (or
// twice the larger model's elements) and a sorting one beyond (NewProximity's triangle–triangle
// ids reach 12 × the elements): both keep, per id, the first output of smallest value, in output
// order.
TEST(ContactResponse, DuplicateIdsSmallOrHugeKeepTheFirstSmallestValue) {
  for (const std::int64_t id : {std::int64_t{3}, std::int64_t{50'000'000}}) {
    FloorScene scene(30.0, nullptr);
    const Vector body = Eigen::Vector3d(0.2, 0.3, 0.004);
    DetectionOutput worse = AboveFloor(body, id), best = AboveFloor(body, id),
                    tie = AboveFloor(body, id), other = AboveFloor(body, id + 1);
    worse.value = 1.0;
    best.value = tie.value = -0.5;
    best.point[0] = Vec3(0.2, 0.3, 0.0);
    tie.point[0] = Vec3(0.25, 0.3, 0.0);  // the same value, later: not kept
    other.value = 0.7;
    other.point[0] = Vec3(0.3, 0.3, 0.0);
    const std::vector<Contact> contacts = scene.Detect(body, {worse, best, other, tie});
    ASSERT_EQ(contacts.size(), 2u) << id;
    EXPECT_EQ(contacts[0].point[0][0], 0.2) << id;  // `best`, in output order before `other`
    EXPECT_EQ(contacts[1].point[0][0], 0.3) << id;
  }
}

TEST(ContactResponse, SideThroughAMappingActsOnTheParents) {
  // The collision point is mapped: x_c = 0.25·a + 0.75·b (a, b: parent points at DOFs 0 and 3;
  // a BarycentricMapping's row), so the contact force reaches a and b in those proportions.
  Eigen::SparseMatrix<double, Eigen::RowMajor, int> J(3, 6);
  for (int axis = 0; axis < 3; ++axis) {
    J.insert(axis, axis) = 0.25;
    J.insert(axis, 3 + axis) = 0.75;
  }
  const LinearMapping mapping(J);
  FloorScene scene(30.0, &mapping);
  const Vector parents = (Vector(6) << 0.2, 0.3, 0.008, 0.2, 0.3, 0.0).finished();
  Vector child(3);
  mapping.Apply(parents.data(), child.data());  // z = 0.002
  scene.Detect(child, {AboveFloor(child)});
  const Vector f = Force(scene.field, At(parents));
  const double push = 10.0 * 30.0 / 0.01 * (0.01 - 0.002);
  EXPECT_NEAR(f[2], 0.25 * push, 1e-9);
  EXPECT_NEAR(f[5], 0.75 * push, 1e-9);
  // Its stiffness is Jᵀ·ks·n·nᵀ·J (checked against the force's finite differences).
  EXPECT_LT((TangentStiffness(scene.field, At(parents)) -
             FiniteDifferenceStiffness(scene.field, At(parents)))
                .norm(),
            1e-4);  // entries ~3e4: h = 1e-6 leaves ~1e-5 of round-off
}

TEST(ContactResponse, PlacementRule) {
  // Models: 0 static, 1 and 2 simulated in nodes under systems 1 and 2; the pipeline's node
  // under system 0, or under none.
  std::vector<CollisionModelDescription> models = {Floor(), PointModel(1, 1.0), PointModel(2, 1.0)};
  const std::vector<ContactModelPlacement> placements = {Placement(-1), Placement(1), Placement(2)};
  std::vector<PenaltyContactForceField*> none(3, nullptr);
  const ContactResponse with_root_solver(models, placements, {}, 0, "root", none);
  EXPECT_EQ(with_root_solver.ReceivingSystem(0, 1), 1);  // the simulated model's node
  EXPECT_EQ(with_root_solver.ReceivingSystem(2, 0), 2);
  EXPECT_EQ(with_root_solver.ReceivingSystem(1, 2), 0);  // both simulated: the pipeline's node
  const ContactResponse without(models, placements, {}, -1, "root", none);
  EXPECT_EQ(without.ReceivingSystem(1, 2), -1);  // no solver above the pipeline: explicit
  models[1].simulated = false;
  models[2].simulated = false;
  const ContactResponse inert(models, placements, {}, 0, "root", none);
  EXPECT_EQ(inert.ReceivingSystem(1, 2), -1);
}

TEST(ContactResponse, IgnoredPairIsListedWithoutForce) {
  std::vector<CollisionModelDescription> models = {PointModel(0, 1.0), PointModel(1, 1.0)};
  PenaltyContactForceField field;
  ContactResponse response(models, {Placement(1), Placement(2)}, {}, -1, "root",
                           {&field, nullptr, nullptr});
  const Vector a = Eigen::Vector3d(0, 0, 0), b = Eigen::Vector3d(0, 0, 0.1);
  DetectionOutput output;
  output.point = {Vec3(a), Vec3(b)};
  output.normal = Vec3::UnitZ();
  std::vector<Contact> contacts;
  response.Apply(std::vector<const double*>{a.data(), b.data()}, {{0, 1, {output}}}, contacts);
  ASSERT_EQ(contacts.size(), 1u);
  EXPECT_EQ(contacts[0].solver_node, -1);
  EXPECT_EQ(field.num_contacts(), 0);
}

// One point of mass m over the static floor, gravity −g·z, stepped by implicit Euler
// (SOFA's EulerImplicitSolver: (M + h²K)·Δv = h·(f − h·K·v), x += h·(v + Δv)) with the response
// run at the start of every step, as the runtime does, and K from the system's matrix-free
// tangent (FieldTangent over the contact field). `contact_in_tangent` false leaves the contact
// field out of the tangent: its force is then explicit.
struct FallingPoint {
  static constexpr double kMass = 0.1, kGravity = 9.81;
  FloorScene scene;
  Vector mass = Vector::Constant(3, kMass);
  std::vector<std::unique_ptr<ForceField>> no_fields;
  FieldTangent tangent;
  State state;
  FallingPoint(double body_stiffness, double height, bool contact_in_tangent)
      : scene(body_stiffness, nullptr),
        tangent(mass, {}, contact_in_tangent ? scene.fields : no_fields),
        state(At(Eigen::Vector3d(0.2, 0.3, height))) {}
  // One step; false when the state is no longer finite.
  bool Step(double h) {
    scene.Detect(state.x, {AboveFloor(Vec3(state.x))});
    Vector f = Force(scene.field, state);
    f[2] -= kMass * kGravity;
    tangent.LinearizeStiffness(state);
    Eigen::Matrix3d A;  // M + h²K, column by column from the operator
    Vector column(3);
    for (Index j = 0; j < 3; ++j) {
      tangent.Multiply(1.0, 0.0, h * h, Vector::Unit(3, j), column);
      A.col(j) = column;
    }
    Vector Kv(3);
    tangent.Multiply(0.0, 0.0, 1.0, state.v, Kv);
    state.v += A.ldlt().solve(h * (f - h * Kv));
    state.x += h * state.v;
    return state.x.allFinite();
  }
  double penetration() const { return scene.field.Penetration(0, state); }
};

// SOFA's examples: dt = 0.01, contact stiffness of the order of 10–1000 per model over
// d ~ 0.01: ks·h²/m ≫ 1 for a light body, where an explicit penalty force overshoots.
constexpr double kStep = 0.01;
constexpr double kBodyStiffness = 5.0;  // ks = 10·5/0.01 = 5000 N/m: ω·h = √(5000/0.1)·0.01 ≈ 2.2

TEST(ContactResponse, PointSettlesOnStaticFloorWhereStiffnessBalancesWeight) {
  FallingPoint point(kBodyStiffness, 0.05, true);
  for (int step = 0; step < 2000; ++step) ASSERT_TRUE(point.Step(kStep));
  // At rest, ks·pen = m·g: pen = 0.1·9.81 / 5000. Implicit Euler damps the bounce to round-off
  // in 20 s (its damping per step is 1/(1 + ω²h²) in amplitude).
  const double ks = 10.0 * kBodyStiffness / 0.01;
  EXPECT_NEAR(point.penetration(), FallingPoint::kMass * FallingPoint::kGravity / ks, 1e-12);
  EXPECT_LT(point.state.v.norm(), 1e-10);
}

TEST(ContactResponse, ImplicitEulerNeedsTheContactStiffnessInItsTangent) {
  // The same fall: bounded with the contact term in the tangent; without it the contact force is
  // explicit (symplectic Euler for the contact spring) with ω·h ≈ 2.2 > 2, whose amplification
  // is 2.6 per step in contact: each bounce throws the point higher, until it is 100 times as
  // high as it started (or the state overflows).
  FallingPoint stable(kBodyStiffness, 0.05, true), explicit_contact(kBodyStiffness, 0.05, false);
  double highest = 0.0;
  bool finite = true;
  for (int step = 0; step < 5000 && finite && highest < 100 * 0.05; ++step) {
    ASSERT_TRUE(stable.Step(kStep));
    finite = explicit_contact.Step(kStep);
    highest = std::max(highest, std::abs(explicit_contact.state.x[2]));
  }
  EXPECT_LT(std::abs(stable.state.x[2]), 0.05);
  EXPECT_TRUE(!finite || highest > 100 * 0.05) << "highest " << highest;
}

TEST(ContactResponse, HeadOnCollisionConservesMomentum) {
  // Two spheres (radius 0.1, masses 1 and 3) under one system, no gravity, approaching along x;
  // the detection made by hand gives their centres' contact whenever they are within reach.
  CollisionModelDescription sphere = PointModel(0, 20.0);
  sphere.kind = ElementKind::kSphere;
  sphere.radius = 0.1;
  std::vector<CollisionModelDescription> models = {sphere, sphere};
  models[1].object = 1;
  std::vector<std::unique_ptr<ForceField>> fields;
  PenaltyContactForceField& field = NewField(fields);
  collision::IntersectionSettings intersection;
  intersection.contact_distance = 0.0;
  ContactResponse response(models, {Placement(0, 0, 0), Placement(0, 0, 3)}, intersection, 0,
                           "root", {&field});
  const Vector mass = (Vector(6) << 1, 1, 1, 3, 3, 3).finished();
  State state = At((Vector(6) << 0, 0, 0, 0.5, 0.01, 0).finished());
  state.v << 1.0, 0.0, 0.0, -0.2, 0.0, 0.0;
  const Vector momentum = mass.cwiseProduct(state.v);
  const Vec3 p0 = momentum.head<3>() + momentum.tail<3>();
  FieldTangent tangent(mass, {}, fields);
  std::vector<Contact> contacts;
  int steps_in_contact = 0;
  for (int step = 0; step < 200; ++step) {
    const Vec3 a = state.x.head<3>(), b = state.x.tail<3>();
    DetectionOutput output;
    output.element = {0, 0};
    output.normal = (b - a).normalized();
    output.point = {a, b};
    std::vector<ModelPairContacts> pairs;
    if ((b - a).norm() < 0.3) pairs.push_back({0, 1, {output}});
    response.Apply(std::vector<const double*>{state.x.data(), state.x.data() + 3}, pairs, contacts);
    steps_in_contact += field.num_contacts() > 0 && field.Penetration(0, state) > 0 ? 1 : 0;
    // Implicit Euler as above, 6 DOFs.
    Vector f = Force(field, state);
    tangent.LinearizeStiffness(state);
    Eigen::MatrixXd A(6, 6);
    Vector column(6), Kv(6);
    for (Index j = 0; j < 6; ++j) {
      tangent.Multiply(1.0, 0.0, kStep * kStep, Vector::Unit(6, j), column);
      A.col(j) = column;
    }
    tangent.Multiply(0.0, 0.0, 1.0, state.v, Kv);
    state.v += A.ldlt().solve(kStep * (f - kStep * Kv));
    state.x += kStep * state.v;
  }
  ASSERT_GT(steps_in_contact, 3);
  EXPECT_LT(state.v[0], state.v[3]);  // they bounced apart
  // Σ f = 0 and the rows of K sum to 0 pairwise: momentum is kept to the solve's round-off
  // (|p| ~ 1, a few hundred steps: 1e-13).
  const Vector after = mass.cwiseProduct(state.v);
  EXPECT_LT((after.head<3>() + after.tail<3>() - p0).norm(), 1e-13);
}

}  // namespace
}  // namespace fluxion::internal
