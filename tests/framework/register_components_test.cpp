// Host::RegisterComponents (fluxion/host.h): a program registers components of its own, from its
// own process, as a plugin's registration function does; the Python module registers its
// PythonForceField this way (docs/python.md, "Writing a component in Python").
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "fluxion/errors.h"
#include "fluxion/host.h"
#include "support/test_support.h"

namespace fluxion {
namespace {

// f = F on every DOF of its object, F its `force` field [N].
class UniformPull final : public ForceField {
 public:
  UniformPull(const Parameters& p, const ForceFieldContext& c)
      : force_(p.real("force")), first_(c.first_dof), count_(c.num_points * c.dimension) {}
  void AddForce(const State& /*state*/, Vector& f) const override {
    for (Index k = first_; k < first_ + count_; ++k) f[k] += force_;
  }

 private:
  double force_;
  Index first_, count_;
};

void RegisterPull(PluginRegistrar& registrar) {
  registrar.AddForceField<UniformPull>(
      {.name = "UniformPull",
       .kind = ComponentKind::kForceField,
       .summary = "a constant force on every DOF (test)",
       .fields = {FieldSpec::Real("force", 0.0, "force on each DOF [N]")},
       .aliases = {}});
}

Host HostWithPlugins() {
  HostOptions options;
  options.default_plugin_directories = false;
  options.plugin_directories = {testing::PluginDirectory()};
  return Host(options);
}

TEST(RegisterComponents, AComponentOfTheHostsOwnBuildsIntoScenes) {
  Host host = HostWithPlugins();
  host.RegisterComponents("test program", &RegisterPull);
  const ComponentInfo* info = host.FindComponent("UniformPull");
  ASSERT_NE(info, nullptr);
  EXPECT_EQ(info->origin, "test program");
  Simulation simulation = host.LoadString(R"(<Node name="root" dt="0.1" gravity="0 0 0">
  <EulerExplicitSolver symplectic="true"/>
  <MechanicalObject name="dofs" position="0 0 0"/>
  <UniformMass vertexMass="2"/>
  <UniformPull force="3"/>
</Node>
)");
  simulation.Step();
  // Symplectic Euler from rest: v = h·F/m = 0.1·3/2, x = h·v.
  const auto x = simulation.position(simulation.FindObject("root/dofs"));
  EXPECT_DOUBLE_EQ(x[0], 0.1 * (0.1 * 3.0 / 2.0));
}

TEST(RegisterComponents, ANameRegisteredTwiceIsAPluginError) {
  Host host = HostWithPlugins();
  host.RegisterComponents("test program", &RegisterPull);
  try {
    host.RegisterComponents("another", &RegisterPull);
    FAIL() << "registered twice";
  } catch (const PluginError& error) {
    EXPECT_NE(std::string(error.what())
                  .find("'UniformPull' is registered twice: by test program "
                        "and by another"),
              std::string::npos)
        << error.what();
  }
}

TEST(RegisterComponents, OtherHostsDoNotSeeIt) {
  const Host host = HostWithPlugins();
  EXPECT_EQ(host.FindComponent("UniformPull"), nullptr);
}

}  // namespace
}  // namespace fluxion
