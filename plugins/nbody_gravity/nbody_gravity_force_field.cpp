// NBodyGravityForceField — mutual gravitation between all points of one MechanicalObject.
//
// The model for plugin force fields: a class implementing fluxion::ForceField (force, tangent
// stiffness, potential energy), a ComponentSpec declaring its fields, one FLUXION_PLUGIN call.
//
// Law. Every pair {i, j} of points with non-zero mass (a massless point neither attracts nor is
// attracted) interacts through, with d = x_j − x_i, s = |d|² + ε² (ε the softening length) and
// c = G·m_i·m_j:
//
//   f_i += c·d / s^((p+1)/2),   f_j −= the same               (Newton's third law, pair by pair)
//   U    = −c / ((p − 1)·s^((p−1)/2))   for p ≠ 1,   U = c·½·ln s   for p = 1
//
// p = 2 is Newton's 1/r² law (seed 001, Sachs's Kepler problem; seed 003, Fazarinc's 100
// particles); p = 1 is the planar 1/r law of Hoffmann's three-body examples (seed 000, appendices
// C and D), whose code integrates a_i = Σ_j (x_j − x_i)/r_ij². Check f = −∇U with ∂s/∂x_i = −2d:
// for p ≠ 1, ∂U/∂x_i = −c/(p−1)·(−(p−1)/2)·s^(−(p+1)/2)·(−2d) = −c·d·s^(−(p+1)/2); for p = 1,
// ∂U/∂x_i = c·½·(−2d)/s = −c·d/s. Softening ε > 0 (Plummer's) keeps the force finite
// when two points meet; with ε = 0 a pair at zero distance gives non-finite values (0·∞), and the
// framework's divergence check stops the run, naming the step and the time.
//
// Tangent stiffness. K = −∂f/∂x. Differentiating f_i = c·d·s^(−(p+1)/2) with ∂d/∂x_j = I and
// ∂s/∂x_j = 2dᵀ:
//
//   ∂f_i/∂x_j = c·s^(−(p+1)/2)·I + c·d·(−(p+1)/2)·s^(−(p+3)/2)·2dᵀ
//             = c·s^(−(p+1)/2)·(I − (p+1)·d·dᵀ/s)  =: J           (symmetric)
//   ∂f_i/∂x_i = −J,   ∂f_j/∂x_j = J,   ∂f_j/∂x_i = −J
//   ⇒ K_ii += J,  K_jj += J,  K_ij −= J,  K_ji −= J.
// J is indefinite (the attraction is unstable along d for p > 0): implicit solvers see a K that
// is not positive definite, which is physics, not a bug. No damping (B = 0).
//
// Cost. O(N²): N(N−1)/2 pairs per force evaluation, and a dense stiffness pattern — one d×d block
// per ordered pair of massive points plus one diagonal block per point, N²·d² entries. Objects
// with more than kMaxMassivePoints massive points are refused (ConfigError) rather than
// assembling a pattern of many millions of entries; a tree code (Barnes–Hut) is the remedy for
// larger systems, not this field. Nothing is allocated after construction: the bodies' DOFs and
// masses are copied once, and AddForce / AddStiffness only loop.
//
// Hoffmann's inconsistency (seed 000, appendix D). His energy control uses
// E = Σ v²/2 − Σ 1/r_ij, the potential of the 1/r² law, while his code integrates the 1/r force
// (a = d/r²) whose potential is Σ ln r_ij. His "constant" energy is therefore not conserved by
// the exact flow he integrates. With exponent p = 1 this field's PotentialEnergy is the
// consistent one, G·m_i·m_j·ln r_ij (ε = 0), so the total energy scene-runner reports is conserved.
//
// Not a SOFA component (SOFA has no N-body gravity); the fields follow SOFA's naming style.
#include <fluxion/errors.h>
#include <fluxion/plugin.h>

#include <Eigen/Core>
#include <cmath>
#include <string>
#include <vector>

namespace {

using fluxion::FieldSpec;
using fluxion::Index;

class NBodyGravityForceField final : public fluxion::ForceField {
 public:
  /// The dense stiffness pattern has N²·d² entries: 2.25·10⁶ at 500 points in 3-D (about 36 MB
  /// of entries and slots, plus the sparse matrix built on them, and a dense factorisation for
  /// implicit solvers). 500 massive points is the largest object this field accepts.
  static constexpr Index kMaxMassivePoints = 500;

  static fluxion::ComponentSpec Spec() {
    return {.name = "NBodyGravityForceField",
            .kind = fluxion::ComponentKind::kForceField,
            .summary =
                "Mutual gravitation G·m_i·m_j·d/(|d|² + ε²)^((p+1)/2) between all points "
                "of its node's MechanicalObject (O(N²) pairs)",
            .fields = {FieldSpec::Real("G", 6.67430e-11,
                                       "gravitational constant [m³/(kg·s²)] (CODATA 2018; use 1 "
                                       "for scaled units)")
                           .GreaterThan(0),
                       FieldSpec::Real("softening", 0.0,
                                       "Plummer softening length ε [m]: the force uses |d|² + ε² "
                                       "(0: exact law, infinite at zero distance)")
                           .AtLeast(0),
                       FieldSpec::Real("exponent", 2.0,
                                       "p in the force law 1/r^p: 2 Newton's inverse square, 1 "
                                       "Hoffmann's planar 1/r law")
                           .GreaterThan(0)},
            .aliases = {}};
  }

  NBodyGravityForceField(const fluxion::Parameters& parameters,
                         const fluxion::ForceFieldContext& context)
      : dimension_(context.dimension),
        gravity_(parameters.real("G")),
        softening_squared_(parameters.real("softening") * parameters.real("softening")),
        exponent_(parameters.real("exponent")) {
    // Only the massive points take part: copy their first DOF and mass once.
    for (Index i = 0; i < context.num_points; ++i) {
      const double mass = context.point_mass[static_cast<std::size_t>(i)];
      if (mass != 0.0) bodies_.push_back({context.first_dof + i * dimension_, mass});
    }
    const Index n = static_cast<Index>(bodies_.size());
    if (n > kMaxMassivePoints) {
      throw fluxion::ConfigError(
          "", "'" + std::string(context.object) + "' has " + std::to_string(n) +
                  " points with mass (expected at most " + std::to_string(kMaxMassivePoints) +
                  ": every pair interacts, the stiffness pattern is dense)");
    }
    if (!std::isfinite(softening_squared_)) {
      throw fluxion::ConfigError("softening", "ε² overflows (expected |softening| < 1e154)");
    }
  }

  void AddForce(const fluxion::State& state, fluxion::Vector& f) const override {
    switch (dimension_) {
      case 1:
        AddForceImpl<1>(state, f);
        break;
      case 2:
        AddForceImpl<2>(state, f);
        break;
      default:
        AddForceImpl<3>(state, f);
        break;
    }
  }

  // The pattern: first one diagonal block per body (body k at entry k·d²), then both
  // off-diagonal blocks of each pair a < b, (a, b) then (b, a); every block column-major.
  void StiffnessEntries(std::vector<fluxion::MatrixEntry>& entries) const override {
    const auto add_block = [&](Index row_dof, Index col_dof) {
      for (int c = 0; c < dimension_; ++c)
        for (int r = 0; r < dimension_; ++r) entries.push_back({row_dof + r, col_dof + c});
    };
    for (const Body& body : bodies_) add_block(body.dof, body.dof);
    for (std::size_t a = 0; a < bodies_.size(); ++a) {
      for (std::size_t b = a + 1; b < bodies_.size(); ++b) {
        add_block(bodies_[a].dof, bodies_[b].dof);
        add_block(bodies_[b].dof, bodies_[a].dof);
      }
    }
  }

  void AddStiffness(const fluxion::State& state, const Index* slots,
                    double* values) const override {
    switch (dimension_) {
      case 1:
        AddStiffnessImpl<1>(state, slots, values);
        break;
      case 2:
        AddStiffnessImpl<2>(state, slots, values);
        break;
      default:
        AddStiffnessImpl<3>(state, slots, values);
        break;
    }
  }

  double PotentialEnergy(const fluxion::State& state) const override {
    double energy = 0.0;
    for (std::size_t a = 0; a < bodies_.size(); ++a) {
      for (std::size_t b = a + 1; b < bodies_.size(); ++b) {
        const double s = (state.x.segment(bodies_[b].dof, dimension_) -
                          state.x.segment(bodies_[a].dof, dimension_))
                             .squaredNorm() +
                         softening_squared_;
        const double c = gravity_ * bodies_[a].mass * bodies_[b].mass;
        energy += exponent_ == 1.0
                      ? c * 0.5 * std::log(s)
                      : -c / ((exponent_ - 1.0) * std::pow(s, 0.5 * (exponent_ - 1.0)));
      }
    }
    return energy;
  }

 private:
  template <int kDim>
  using Vec = Eigen::Matrix<double, kDim, 1>;
  template <int kDim>
  using Mat = Eigen::Matrix<double, kDim, kDim>;

  struct Body {
    Index dof;    // system DOF of the point's first axis
    double mass;  // [kg], non-zero
  };

  // s^(−(p+1)/2), with the two common laws computed without pow: p = 1 gives 1/s (as Hoffmann's
  // code divides by r²), p = 2 gives 1/(s·√s).
  double Intensity(double s) const {
    if (exponent_ == 1.0) return 1.0 / s;
    if (exponent_ == 2.0) return 1.0 / (s * std::sqrt(s));
    return std::pow(s, -0.5 * (exponent_ + 1.0));
  }

  template <int kDim>
  void AddForceImpl(const fluxion::State& state, fluxion::Vector& f) const {
    for (std::size_t a = 0; a < bodies_.size(); ++a) {
      const Vec<kDim> xa = state.x.segment<kDim>(bodies_[a].dof);
      for (std::size_t b = a + 1; b < bodies_.size(); ++b) {
        const Vec<kDim> d = state.x.segment<kDim>(bodies_[b].dof) - xa;
        const double s = d.squaredNorm() + softening_squared_;
        const Vec<kDim> force = (gravity_ * bodies_[a].mass * bodies_[b].mass * Intensity(s)) * d;
        f.segment<kDim>(bodies_[a].dof) += force;
        f.segment<kDim>(bodies_[b].dof) -= force;
      }
    }
  }

  // values[slots[first + k]] += sign·J(k), J's entries column-major.
  template <int kDim>
  static void AddBlock(const Mat<kDim>& J, double sign, const Index* slots, std::size_t first,
                       double* values) {
    for (int c = 0; c < kDim; ++c)
      for (int r = 0; r < kDim; ++r) values[slots[first + c * kDim + r]] += sign * J(r, c);
  }

  template <int kDim>
  void AddStiffnessImpl(const fluxion::State& state, const Index* slots, double* values) const {
    constexpr std::size_t kBlock = kDim * kDim;
    std::size_t pair_entry = bodies_.size() * kBlock;  // after the diagonal blocks
    for (std::size_t a = 0; a < bodies_.size(); ++a) {
      const Vec<kDim> xa = state.x.segment<kDim>(bodies_[a].dof);
      for (std::size_t b = a + 1; b < bodies_.size(); ++b) {
        // J = c·s^(−(p+1)/2)·(I − (p+1)·d·dᵀ/s).
        const Vec<kDim> d = state.x.segment<kDim>(bodies_[b].dof) - xa;
        const double s = d.squaredNorm() + softening_squared_;
        const double scale = gravity_ * bodies_[a].mass * bodies_[b].mass * Intensity(s);
        Mat<kDim> J = (-scale * (exponent_ + 1.0) / s) * (d * d.transpose());
        J.diagonal().array() += scale;
        AddBlock<kDim>(J, 1.0, slots, a * kBlock, values);
        AddBlock<kDim>(J, 1.0, slots, b * kBlock, values);
        AddBlock<kDim>(J, -1.0, slots, pair_entry, values);
        AddBlock<kDim>(J, -1.0, slots, pair_entry + kBlock, values);
        pair_entry += 2 * kBlock;
      }
    }
  }

  int dimension_;
  double gravity_;            // G
  double softening_squared_;  // ε²
  double exponent_;           // p
  std::vector<Body> bodies_;  // the points with non-zero mass, in point order
};

}  // namespace

FLUXION_PLUGIN("nbody_gravity", "1.0.0") {
  registrar.AddForceField<NBodyGravityForceField>(NBodyGravityForceField::Spec());
}
