#include "components/builtin_components.h"

#include "components/add_data_repository.h"
#include "components/affine_movement_projective_constraint.h"
#include "components/average_coord.h"
#include "components/barycentric_mapping.h"
#include "components/blender_exporter.h"
#include "components/box_constraint.h"
#include "components/box_roi.h"
#include "components/collision_models.h"
#include "components/collision_pipeline_components.h"
#include "components/conical_force_field.h"
#include "components/constant_force_field.h"
#include "components/cube_topology.h"
#include "components/cylinder_grid_topology.h"
#include "components/diagonal_mass.h"
#include "components/diagonal_velocity_damping_force_field.h"
#include "components/direction_projective_constraint.h"
#include "components/distance_from_target_mapping.h"
#include "components/distance_mapping.h"
#include "components/edge_pressure_force_field.h"
#include "components/edge_set_topology_container.h"
#include "components/element_fem_force_fields.h"
#include "components/ellipsoid_force_field.h"
#include "components/extrude_surface.h"
#include "components/fast_tetrahedral_corotational_force_field.h"
#include "components/fast_triangular_bending_springs.h"
#include "components/fem_mass.h"
#include "components/fixed_plane_projective_constraint.h"
#include "components/fixed_projective_constraint.h"
#include "components/generate_cylinder.h"
#include "components/generate_grid.h"
#include "components/gravity.h"
#include "components/grid_mesh_creator.h"
#include "components/hausdorff_distance.h"
#include "components/hermite_spline_projective_constraint.h"
#include "components/hexa2_quad_topological_mapping.h"
#include "components/hexa2_tetra_topological_mapping.h"
#include "components/hexahedral_fem_force_field.h"
#include "components/hexahedron_fem_force_field.h"
#include "components/hexahedron_fem_force_field_and_mass.h"
#include "components/hexahedron_set_topology_container.h"
#include "components/identity_mapping.h"
#include "components/identity_multi_mapping.h"
#include "components/line_projective_constraint.h"
#include "components/linear_force_field.h"
#include "components/linear_movement_projective_constraint.h"
#include "components/mechanical_object.h"
#include "components/merge_meshes.h"
#include "components/merge_vectors.h"
#include "components/mesh2_point_topological_mapping.h"
#include "components/mesh_barycentric_mapper_engine.h"
#include "components/mesh_boundary_roi.h"
#include "components/mesh_closing_engine.h"
#include "components/mesh_exporter.h"
#include "components/mesh_gmsh_loader.h"
#include "components/mesh_matrix_mass.h"
#include "components/mesh_obj_loader.h"
#include "components/mesh_off_loader.h"
#include "components/mesh_sampler.h"
#include "components/mesh_spring_force_field.h"
#include "components/mesh_stl_loader.h"
#include "components/mesh_subset_engine.h"
#include "components/mesh_tetra_stuffing.h"
#include "components/mesh_topology.h"
#include "components/mesh_trian_loader.h"
#include "components/mesh_vtk_loader.h"
#include "components/monitor.h"
#include "components/newton_raphson_solver.h"
#include "components/nodal_mass_density.h"
#include "components/oscillator_projective_constraint.h"
#include "components/pair_box_roi.h"
#include "components/partial_fixed_projective_constraint.h"
#include "components/patch_test_movement_projective_constraint.h"
#include "components/plane_force_field.h"
#include "components/plane_projective_constraint.h"
#include "components/plane_roi.h"
#include "components/point_projective_constraint.h"
#include "components/point_set_topology_container.h"
#include "components/points_from_indices.h"
#include "components/polynomial_rest_shape_springs_force_field.h"
#include "components/polynomial_springs_force_field.h"
#include "components/quad2_triangle_topological_mapping.h"
#include "components/quad_bending_springs.h"
#include "components/quad_pressure_force_field.h"
#include "components/quad_set_topology_container.h"
#include "components/quadular_bending_springs.h"
#include "components/random_point_distribution_in_surface.h"
#include "components/read_state.h"
#include "components/regular_grid_spring_force_field.h"
#include "components/regular_grid_topology.h"
#include "components/required_plugin.h"
#include "components/rest_shape_springs_force_field.h"
#include "components/sinusoidal_force_field.h"
#include "components/smooth_mesh_engine.h"
#include "components/sparse_grid_topology.h"
#include "components/sphere_force_field.h"
#include "components/sphere_grid_topology.h"
#include "components/sphere_loader.h"
#include "components/sphere_roi.h"
#include "components/spiral.h"
#include "components/spring_force_field.h"
#include "components/square_distance_mapping.h"
#include "components/stl_exporter.h"
#include "components/string_mesh_creator.h"
#include "components/subset_mapping.h"
#include "components/subset_topological_mapping.h"
#include "components/subset_topology.h"
#include "components/surface_pressure_force_field.h"
#include "components/tait_surface_pressure_force_field.h"
#include "components/tetra2_triangle_topological_mapping.h"
#include "components/tetrahedron_fem_force_field.h"
#include "components/tetrahedron_hyperelasticity_fem_force_field.h"
#include "components/tetrahedron_set_topology_container.h"
#include "components/topological_change_processor.h"
#include "components/transform_engine.h"
#include "components/transform_matrix_engine.h"
#include "components/transform_position.h"
#include "components/triangle2_edge_topological_mapping.h"
#include "components/triangle_bending_springs.h"
#include "components/triangle_fem_force_field.h"
#include "components/triangle_pressure_force_field.h"
#include "components/triangle_set_topology_container.h"
#include "components/triangular_bending_springs.h"
#include "components/triangular_biquadratic_springs_force_field.h"
#include "components/triangular_quadratic_springs_force_field.h"
#include "components/triangular_tensor_mass_force_field.h"
#include "components/uniform_mass.h"
#include "components/velocity_damping_force_field.h"
#include "components/visual_model_data.h"
#include "components/volume_from_triangles.h"
#include "components/volume_from_volumetric_elements.h"
#include "components/voxel_grid_loader.h"
#include "components/vtk_exporter.h"
#include "components/write_state.h"
#include "linear/cg_linear_solver.h"
#include "linear/ldl_linear_solver.h"
#include "linear/minres_linear_solver.h"
#include "linear/pcg_linear_solver.h"
#include "linear/precomputed_linear_solver.h"
#include "linear/preconditioners.h"
#include "linear/svd_linear_solver.h"

namespace fluxion::internal {

namespace {

template <class Component>
void Add(PluginRegistrar& registrar) {
  registrar.AddComponent(Component::Spec(), &Component::Build);
}

template <class Solver>
std::unique_ptr<LinearSolver> CreateLinearSolver(const Parameters& parameters) {
  return std::make_unique<Solver>(parameters);
}

void AddIgnored(PluginRegistrar& registrar, const std::string& name, const char* summary) {
  registrar.AddComponent(ComponentSpec{.name = name,
                                       .kind = ComponentKind::kIgnored,
                                       .summary = summary,
                                       .fields = {},
                                       .aliases = {}},
                         nullptr);
}

}  // namespace

void RegisterBuiltinComponents(PluginRegistrar& registrar) {
  Add<MechanicalObjectComponent>(registrar);
  Add<UniformMassComponent>(registrar);
  Add<DiagonalMassComponent>(registrar);
  Add<MeshMatrixMassComponent>(registrar);
  Add<FEMMassComponent>(registrar);
  Add<NodalMassDensityComponent>(registrar);
  Add<SpringForceFieldComponent>(registrar);
  Add<MeshSpringForceFieldComponent>(registrar);
  Add<RegularGridSpringForceFieldComponent>(registrar);
  Add<TriangularBendingSpringsComponent>(registrar);
  Add<TriangularQuadraticSpringsForceFieldComponent>(registrar);
  Add<TriangularTensorMassForceFieldComponent>(registrar);
  Add<TriangularBiquadraticSpringsForceFieldComponent>(registrar);
  Add<QuadularBendingSpringsComponent>(registrar);
  Add<RestShapeSpringsForceFieldComponent>(registrar);
  Add<QuadBendingSpringsComponent>(registrar);
  Add<TriangleBendingSpringsComponent>(registrar);
  Add<FastTriangularBendingSpringsComponent>(registrar);
  Add<PolynomialRestShapeSpringsForceFieldComponent>(registrar);
  Add<PolynomialSpringsForceFieldComponent>(registrar);
  Add<RegularGridTopologyComponent>(registrar);
  Add<CylinderGridTopologyComponent>(registrar);
  Add<CubeTopologyComponent>(registrar);
  Add<SparseGridTopologyComponent>(registrar);
  Add<SparseGridRamificationTopologyComponent>(registrar);
  Add<SphereGridTopologyComponent>(registrar);
  Add<FixedProjectiveConstraintComponent>(registrar);
  Add<BoxConstraintComponent>(registrar);
  Add<PartialFixedProjectiveConstraintComponent>(registrar);
  Add<FixedPlaneProjectiveConstraintComponent>(registrar);
  Add<PlaneProjectiveConstraintComponent>(registrar);
  Add<LineProjectiveConstraintComponent>(registrar);
  Add<DirectionProjectiveConstraintComponent>(registrar);
  Add<PointProjectiveConstraintComponent>(registrar);
  Add<LinearMovementProjectiveConstraintComponent>(registrar);
  Add<AffineMovementProjectiveConstraintComponent>(registrar);
  Add<PatchTestMovementProjectiveConstraintComponent>(registrar);
  Add<HermiteSplineProjectiveConstraintComponent>(registrar);
  Add<OscillatorProjectiveConstraintComponent>(registrar);
  Add<BoxRoiComponent>(registrar);
  Add<PairBoxRoiComponent>(registrar);
  Add<SphereRoiComponent>(registrar);
  Add<PlaneRoiComponent>(registrar);
  Add<MeshBoundaryRoiComponent>(registrar);
  Add<MergeMeshesComponent>(registrar);
  Add<MergeVectorsComponent>(registrar);
  Add<TransformEngineComponent>(registrar);
  Add<GenerateGridComponent>(registrar);
  Add<GenerateCylinderComponent>(registrar);
  Add<SpiralComponent>(registrar);
  Add<TransformPositionComponent>(registrar);
  Add<TranslateTransformMatrixEngineComponent>(registrar);
  Add<RotateTransformMatrixEngineComponent>(registrar);
  Add<ScaleTransformMatrixEngineComponent>(registrar);
  Add<InvertTransformMatrixEngineComponent>(registrar);
  Add<AverageCoordComponent>(registrar);
  Add<PointsFromIndicesComponent>(registrar);
  Add<VolumeFromTrianglesComponent>(registrar);
  Add<VolumeFromVolumetricElementsComponent>(registrar);
  Add<MeshSubsetEngineComponent>(registrar);
  Add<SubsetTopologyComponent>(registrar);
  Add<SmoothMeshEngineComponent>(registrar);
  Add<HausdorffDistanceComponent>(registrar);
  Add<MeshSamplerComponent>(registrar);
  Add<MeshClosingEngineComponent>(registrar);
  Add<MeshBarycentricMapperEngineComponent>(registrar);
  Add<ExtrudeSurfaceComponent>(registrar);
  Add<RandomPointDistributionInSurfaceComponent>(registrar);
  Add<MeshTetraStuffingComponent>(registrar);
  Add<ConstantForceFieldComponent>(registrar);
  Add<PlaneForceFieldComponent>(registrar);
  Add<SphereForceFieldComponent>(registrar);
  Add<ConicalForceFieldComponent>(registrar);
  Add<EllipsoidForceFieldComponent>(registrar);
  Add<SurfacePressureForceFieldComponent>(registrar);
  Add<TaitSurfacePressureForceFieldComponent>(registrar);
  Add<TetrahedronHyperelasticityFEMForceFieldComponent>(registrar);
  Add<TetrahedronFEMForceFieldComponent>(registrar);
  Add<TetrahedralCorotationalFEMForceFieldComponent>(registrar);
  Add<FastTetrahedralCorotationalForceFieldComponent>(registrar);
  Add<HexahedronFEMForceFieldComponent>(registrar);
  Add<HexahedralFEMForceFieldComponent>(registrar);
  Add<HexahedronFEMForceFieldAndMassComponent>(registrar);
  Add<CorotationalFEMForceFieldComponent>(registrar);
  Add<LinearSmallStrainFEMForceFieldComponent>(registrar);
  Add<TriangleFEMForceFieldComponent>(registrar);
  Add<TriangularFEMForceFieldComponent>(registrar);
  Add<TriangularFEMForceFieldOptimComponent>(registrar);
  Add<EdgePressureForceFieldComponent>(registrar);
  Add<TrianglePressureForceFieldComponent>(registrar);
  Add<QuadPressureForceFieldComponent>(registrar);
  Add<UniformVelocityDampingComponent>(registrar);
  Add<DiagonalVelocityDampingForceFieldComponent>(registrar);
  Add<LinearForceFieldComponent>(registrar);
  Add<SinusoidalForceFieldComponent>(registrar);
  Add<GravityComponent>(registrar);
  Add<RequiredPluginComponent>(registrar);
  Add<AddDataRepositoryComponent>(registrar);
  Add<MeshOBJLoaderComponent>(registrar);
  Add<MeshGmshLoaderComponent>(registrar);
  Add<MeshVTKLoaderComponent>(registrar);
  Add<SphereLoaderComponent>(registrar);
  Add<VoxelGridLoaderComponent>(registrar);
  Add<MeshSTLLoaderComponent>(registrar);
  Add<MeshOffLoaderComponent>(registrar);
  Add<MeshTrianLoaderComponent>(registrar);
  Add<StringMeshCreatorComponent>(registrar);
  Add<GridMeshCreatorComponent>(registrar);
  Add<MeshTopologyComponent>(registrar);
  Add<PointSetTopologyContainerComponent>(registrar);
  Add<EdgeSetTopologyContainerComponent>(registrar);
  Add<TriangleSetTopologyContainerComponent>(registrar);
  Add<QuadSetTopologyContainerComponent>(registrar);
  Add<TetrahedronSetTopologyContainerComponent>(registrar);
  Add<HexahedronSetTopologyContainerComponent>(registrar);
  Add<Hexa2QuadTopologicalMappingComponent>(registrar);
  Add<Hexa2TetraTopologicalMappingComponent>(registrar);
  Add<Mesh2PointTopologicalMappingComponent>(registrar);
  Add<Quad2TriangleTopologicalMappingComponent>(registrar);
  Add<Tetra2TriangleTopologicalMappingComponent>(registrar);
  Add<SubsetTopologicalMappingComponent>(registrar);
  Add<Triangle2EdgeTopologicalMappingComponent>(registrar);
  Add<IdentityMappingComponent>(registrar);
  Add<IdentityMultiMappingComponent>(registrar);
  Add<SubsetMappingComponent>(registrar);
  Add<BarycentricMappingComponent>(registrar);
  Add<DistanceMappingComponent>(registrar);
  Add<DistanceFromTargetMappingComponent>(registrar);
  Add<SquareDistanceMappingComponent>(registrar);
  Add<VtkExporterComponent>(registrar);
  Add<MeshExporterComponent>(registrar);
  Add<WriteStateComponent>(registrar);
  Add<ReadStateComponent>(registrar);
  Add<MonitorComponent>(registrar);
  Add<StlExporterComponent>(registrar);
  Add<BlenderExporterComponent>(registrar);
  Add<VisualModelDataComponent>(registrar);  // ignored, but its geometry answers links
  registrar.AddLinearSolver(CgLinearSolver::Spec(), &CreateLinearSolver<CgLinearSolver>);
  registrar.AddLinearSolver(LdlLinearSolver::Spec(), &CreateLinearSolver<LdlLinearSolver>);
  registrar.AddLinearSolver(PcgLinearSolver::Spec(), &CreateLinearSolver<PcgLinearSolver>);
  registrar.AddComponent(PcgLinearSolver::PreconditionedSystemSpec(), nullptr);  // read by PCG
  registrar.AddLinearSolver(AsyncSparseLdlSolver::Spec(),
                            &CreateLinearSolver<AsyncSparseLdlSolver>);
  registrar.AddLinearSolver(JacobiPreconditioner::Spec(),
                            &CreateLinearSolver<JacobiPreconditioner>);
  registrar.AddLinearSolver(BlockJacobiPreconditioner::Spec(),
                            &CreateLinearSolver<BlockJacobiPreconditioner>);
  registrar.AddLinearSolver(SsorPreconditioner::Spec(), &CreateLinearSolver<SsorPreconditioner>);
  registrar.AddLinearSolver(SvdLinearSolver::Spec(), &CreateLinearSolver<SvdLinearSolver>);
  registrar.AddLinearSolver(MinResLinearSolver::Spec(), &CreateLinearSolver<MinResLinearSolver>);
  registrar.AddLinearSolver(PrecomputedLinearSolver::Spec(),
                            &CreateLinearSolver<PrecomputedLinearSolver>);
  registrar.AddComponent(NewtonRaphsonSolverComponent::Spec(), nullptr);  // read by ODE solvers
  // Inert without a collision pipeline, read by it with one (build/collision_pipeline.h).
  for (const ComponentSpec& collision_model : CollisionModelComponents::Specs())
    registrar.AddComponent(collision_model, nullptr);
  for (const ComponentSpec& pipeline_part : CollisionPipelineComponents::Specs())
    registrar.AddComponent(pipeline_part, nullptr);

  for (const char* visual :
       {"VisualStyle", "DefaultVisualManagerLoop", "InteractiveCamera", "LightManager", "SpotLight",
        "DirectionalLight", "PositionalLight", "OglSceneFrame", "BackgroundSetting",
        "AttachBodyButtonSetting", "VisualGrid", "LineAxis"})
    AddIgnored(registrar, visual, "visual only: accepted and ignored");
  // The companions of SOFA's dynamic topology containers: they change or measure a topology over
  // time, which Fluxion's static topologies never do.
  for (const char* shape :
       {"PointSet", "EdgeSet", "TriangleSet", "QuadSet", "TetrahedronSet", "HexahedronSet"}) {
    for (const char* role : {"TopologyModifier", "GeometryAlgorithms", "TopologyAlgorithms"})
      AddIgnored(registrar, std::string(shape) + role,
                 "companion of a static topology container: accepted and ignored");
  }
  // SOFA's components that store the assembled linear system for a linear solver (its
  // `linearSystem` link): Fluxion's solvers assemble their own system in one sparse pattern; the
  // builder keeps a copy of the last system solved in a node that holds one
  // (RecordLinearSystems), which SofaPython3's A(), b(), x() read.
  for (const char* storage : {"MatrixLinearSystem", "TypedMatrixLinearSystem"})
    AddIgnored(registrar, storage,
               "stores SOFA's assembled linear system: Fluxion's solvers assemble their own; "
               "the last system solved in its node is kept for Python (A(), b(), x())");
  // Read by the builder (build/topological_changes.h).
  Add<TopologicalChangeProcessorComponent>(registrar);
  AddIgnored(registrar, "DefaultAnimationLoop",
             "SOFA's default loop: accepted and ignored (Fluxion always runs it)");
}

}  // namespace fluxion::internal
