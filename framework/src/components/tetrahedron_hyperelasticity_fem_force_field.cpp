#include "components/tetrahedron_hyperelasticity_fem_force_field.h"

#include <Eigen/Geometry>
#include <cmath>
#include <string>

#include "components/element_topology.h"
#include "mechanics/element_loops.h"

namespace fluxion::internal {

// --- The force field ---------------------------------------------------------------------------

long TetrahedronHyperelasticity::RestElements(const std::vector<std::array<Index, 4>>& tetrahedra,
                                              const Vector& rest, Index first_dof,
                                              std::vector<Element>& elements) {
  elements.clear();
  elements.reserve(tetrahedra.size());
  for (std::size_t t = 0; t < tetrahedra.size(); ++t) {
    const auto& tet = tetrahedra[t];
    std::array<Eigen::Vector3d, 4> X;
    Element element;
    for (int a = 0; a < 4; ++a) {
      X[a] = rest.segment<3>(3 * tet[a]);
      element.dof[a] = first_dof + 3 * tet[a];
    }
    // Six times the signed volume, SOFA's `volume`.
    const double six_volume = (X[2] - X[0]).cross(X[3] - X[0]).dot(X[1] - X[0]);
    // g_a = ∇λ_a: the face opposite a, oriented by the signed volume (SOFA's shape vectors).
    for (int a = 1; a < 4; ++a) {
      const double sign = (a % 2 == 1) ? 1.0 : -1.0;
      element.shape_vector[a] =
          sign * (X[(a + 2) % 4] - X[(a + 1) % 4]).cross(X[(a + 3) % 4] - X[(a + 1) % 4]) /
          six_volume;
    }
    element.shape_vector[0] =
        -(element.shape_vector[1] + element.shape_vector[2] + element.shape_vector[3]);
    element.rest_volume = std::abs(six_volume) / 6.0;
    bool finite = six_volume != 0.0 && std::isfinite(six_volume);
    for (const Eigen::Vector3d& g : element.shape_vector) finite = finite && g.allFinite();
    if (!finite) return static_cast<long>(t);
    elements.push_back(element);
  }
  return -1;
}

TetrahedronHyperelasticity::TetrahedronHyperelasticity(
    std::vector<Element> elements, std::unique_ptr<HyperelasticMaterial> material)
    : elements_(std::move(elements)), material_(std::move(material)) {}

Eigen::Matrix3d TetrahedronHyperelasticity::DeformationGradient(const Element& e,
                                                                const Vector& x) const {
  // F = Σ_{a≥1} (x_a − x₀) ⊗ g_a: differences from vertex 0, as SOFA's addForce.
  const Eigen::Vector3d x0 = x.segment<3>(e.dof[0]);
  Eigen::Matrix3d F;
  F.noalias() = (x.segment<3>(e.dof[1]) - x0) * e.shape_vector[1].transpose();
  F.noalias() += (x.segment<3>(e.dof[2]) - x0) * e.shape_vector[2].transpose();
  F.noalias() += (x.segment<3>(e.dof[3]) - x0) * e.shape_vector[3].transpose();
  return F;
}

void TetrahedronHyperelasticity::AddForce(const State& state, Vector& f) const {
  const bool volume = material_->uses_volume();
  Strain strain;
  for (const Element& e : elements_) {
    const Eigen::Matrix3d F = DeformationGradient(e, state.x);
    ComputeStrain(F, volume, strain);
    const Eigen::Matrix3d S = StressFromInvariants(strain, material_->Derivatives(strain));
    // f_a = −|V|·P·g_a with P = F·S, the first Piola–Kirchhoff stress.
    const Eigen::Matrix3d P = e.rest_volume * F * S;
    for (int a = 0; a < 4; ++a) f.segment<3>(e.dof[a]).noalias() -= P * e.shape_vector[a];
  }
}

void TetrahedronHyperelasticity::StiffnessEntries(std::vector<MatrixEntry>& entries) const {
  // Per element, blocks (a, b) in row-major order, each 3×3 row-major (AddStiffness's order).
  AppendElementBlockEntries(elements_, entries);
}

void TetrahedronHyperelasticity::AddStiffness(const State& state, const Index* slots,
                                              double* values) const {
  const bool volume = material_->uses_volume();
  Strain strain;
  std::size_t k = 0;
  for (const Element& e : elements_) {
    const Eigen::Matrix3d F = DeformationGradient(e, state.x);
    ComputeStrain(F, volume, strain);
    const InvariantDerivatives d = material_->Derivatives(strain);
    const Eigen::Matrix3d S = StressFromInvariants(strain, d);
    // dS for a unit move of vertex b along axis i: dC = g_b⊗f_i + f_i⊗g_b, f_i = Fᵀe_i.
    std::array<std::array<Eigen::Matrix3d, 3>, 4> dS;
    for (int b = 0; b < 4; ++b)
      for (int i = 0; i < 3; ++i) {
        const Eigen::Vector3d fi = F.row(i).transpose();
        const Eigen::Matrix3d H =
            e.shape_vector[b] * fi.transpose() + fi * e.shape_vector[b].transpose();
        dS[b][i] = DStressFromInvariants(strain, d, H);
      }
    for (int a = 0; a < 4; ++a)
      for (int b = 0; b < 4; ++b) {
        // K_ab = |V|·[(g_a·S·g_b)·I + columns F·dS[b][j]·g_a].
        const double geometric = e.shape_vector[a].dot(S * e.shape_vector[b]);
        Eigen::Matrix3d block;
        for (int j = 0; j < 3; ++j) block.col(j) = F * (dS[b][j] * e.shape_vector[a]);
        block.diagonal().array() += geometric;
        block *= e.rest_volume;
        for (int i = 0; i < 3; ++i)
          for (int j = 0; j < 3; ++j) values[slots[k++]] += block(i, j);
      }
  }
}

double TetrahedronHyperelasticity::PotentialEnergy(const State& state) const {
  const bool volume = material_->uses_volume();
  Strain strain;
  double energy = 0.0;
  for (const Element& e : elements_) {
    ComputeStrain(DeformationGradient(e, state.x), volume, strain);
    energy += e.rest_volume * material_->Energy(strain);
  }
  return energy;
}

// --- The component -----------------------------------------------------------------------------

ComponentSpec TetrahedronHyperelasticityFEMForceFieldComponent::Spec() {
  return ComponentSpec{
      .name = "TetrahedronHyperelasticityFEMForceField",
      .kind = ComponentKind::kForceField,
      .summary =
          "Hyperelastic linear tetrahedra (St Venant–Kirchhoff, Neo-Hookean, …), total "
          "Lagrangian",
      .fields = {FieldSpec::Text("materialName", "ArrudaBoyce",
                                 "the material: " + SupportedMaterialNames() +
                                     " (SOFA's Costa, Ogden and VerondaWestman are not supported)"),
                 FieldSpec::RealList(
                     "ParameterSet",
                     "the material's parameters, in SOFA's order: StVenantKirchhoff, "
                     "NeoHookean, StableNeoHookean: mu lambda [Pa]; MooneyRivlin: c1 "
                     "c2 k0 [Pa]; ArrudaBoyce: mu k0 [Pa]"),
                 FieldSpec::RealList("AnisotropyDirections",
                                     "directions of anisotropy, 3 numbers each (no effect on the "
                                     "supported, isotropic materials, as in SOFA)"),
                 FieldSpec::Bool("matrixRegularization", false,
                                 "SOFA option that SOFA itself never reads: ignored"),
                 FieldSpec::Link(
                     "topology",
                     "the topology, e.g. topology=\"@../Container\" (default: the node's)")},
      .aliases = {}};
}

void TetrahedronHyperelasticityFEMForceFieldComponent::Build(BuildContext& context) {
  const ObjectModel* found = context.NodeObject();
  if (found == nullptr) return;
  const ObjectModel& object = *found;
  const Parameters& p = context.parameters();
  const std::string type = context.type();
  // The material and its parameters.
  const std::string& name = p.text("materialName");
  const MaterialInfo* info = FindMaterial(name);
  if (info == nullptr) {
    const bool sofa = name == "Costa" || name == "Ogden" || name == "VerondaWestman";
    context.Error(type + " materialName '" + name + "' is " +
                  (sofa ? "a SOFA material Fluxion does not have" : "not a material") +
                  " (expected one of " + SupportedMaterialNames() + ")");
    return;
  }
  const std::vector<double>& parameters = p.reals("ParameterSet");
  if (parameters.size() != info->count) {
    context.Error(type + " 'ParameterSet' has " + std::to_string(parameters.size()) +
                  " numbers (expected " + std::to_string(info->count) + " for " +
                  std::string(info->name) + ": " + std::string(info->parameters) + ")");
    return;
  }
  if (p.reals("AnisotropyDirections").size() % 3 != 0) {
    context.Error(type + " 'AnisotropyDirections' has " +
                  std::to_string(p.reals("AnisotropyDirections").size()) +
                  " numbers (expected 3 per direction)");
    return;
  }
  const std::shared_ptr<const Topology> topology =
      ElementTopology(context, object, &Topology::tetrahedra, "tetrahedra",
                      "object must have a Tetrahedral Set Topology");
  if (!topology) return;  // reported
  std::vector<TetrahedronHyperelasticity::Element> elements;
  const long degenerate = TetrahedronHyperelasticity::RestElements(
      topology->tetrahedra, object.rest_position, object.offset, elements);
  if (degenerate >= 0) {
    const auto& tet = topology->tetrahedra[static_cast<std::size_t>(degenerate)];
    context.Error(type + ": tetrahedron " + std::to_string(degenerate) + " (" +
                  std::to_string(tet[0]) + " " + std::to_string(tet[1]) + " " +
                  std::to_string(tet[2]) + " " + std::to_string(tet[3]) +
                  ") has zero rest volume (expected four points not in one plane)");
    return;
  }
  context.AddForceField(object, std::make_unique<TetrahedronHyperelasticity>(
                                    std::move(elements), MakeMaterial(name, parameters)));
}

}  // namespace fluxion::internal
