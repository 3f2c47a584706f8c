// Sources: Sofa/Component/MechanicalLoad/src/sofa/component/mechanicalload/PlaneForceField.inl and
//          SphereForceField.inl, EllipsoidForceField.inl (addForce, addDForce,
//          buildStiffnessMatrix).
#include "mechanics/contact_force_fields.h"

#include <cmath>

namespace fluxion::internal {

// --- Plane --------------------------------------------------------------------------------------

PlanePenalty::PlanePenalty(std::vector<Index> points, int dimension, std::vector<double> normal,
                           double d, double stiffness, double damping, double max_force,
                           bool bilateral)
    : points_(std::move(points)),
      dimension_(dimension),
      normal_(std::move(normal)),
      d_(d),
      stiffness_(stiffness),
      damping_(damping),
      max_force_(max_force),
      bilateral_(bilateral) {}

double PlanePenalty::Depth(const State& state, Index first) const {
  double dot = 0.0;
  for (int a = 0; a < dimension_; ++a)
    dot += state.x[first + a] * normal_[static_cast<std::size_t>(a)];
  return dot - d_;
}

void PlanePenalty::AddForce(const State& state, Vector& f) const {
  const double limit = max_force_ * max_force_;
  for (const Index first : points_) {
    const double d = Depth(state, first);
    if (!(bilateral_ || d < 0)) continue;
    double force[3] = {0, 0, 0};
    double amplitude = 0.0;
    for (int a = 0; a < dimension_; ++a) {
      // SOFA: planeN·(−k·d) − v·(−c·d)
      force[a] = normal_[static_cast<std::size_t>(a)] * (-stiffness_ * d) -
                 state.v[first + a] * (-damping_ * d);
      amplitude += force[a] * force[a];
    }
    const double scale = limit > 0 && amplitude > limit ? std::sqrt(limit / amplitude) : 1.0;
    for (int a = 0; a < dimension_; ++a) f[first + a] += force[a] * scale;
  }
}

void PlanePenalty::StiffnessEntries(std::vector<MatrixEntry>& entries) const {
  for (const Index first : points_)
    for (int r = 0; r < dimension_; ++r)
      for (int c = 0; c < dimension_; ++c) entries.push_back({first + r, first + c});
}

void PlanePenalty::AddStiffness(const State& state, const Index* slots, double* values) const {
  std::size_t k = 0;
  for (const Index first : points_) {
    const double d = Depth(state, first);
    const bool active = bilateral_ || d < 0;
    for (int r = 0; r < dimension_; ++r)
      for (int c = 0; c < dimension_; ++c, ++k)
        if (active)
          values[slots[k]] += stiffness_ * normal_[static_cast<std::size_t>(r)] *
                              normal_[static_cast<std::size_t>(c)];
  }
}

double PlanePenalty::PotentialEnergy(const State& state) const {
  double energy = 0.0;
  for (const Index first : points_) {
    const double d = Depth(state, first);
    if (bilateral_ || d < 0) energy += 0.5 * stiffness_ * d * d;
  }
  return energy;
}

// --- Sphere -------------------------------------------------------------------------------------

SpherePenalty::SpherePenalty(std::vector<Index> points, int dimension, std::vector<double> center,
                             double radius, double stiffness, double damping, bool bilateral)
    : points_(std::move(points)),
      dimension_(dimension),
      center_(std::move(center)),
      radius_(radius),
      stiffness_(stiffness),
      damping_(damping),
      bilateral_(bilateral) {}

namespace {

// p = x − center for one point, and ‖p‖².
double Offset(const State& state, Index first, int dimension, const std::vector<double>& center,
              double* p) {
  double norm2 = 0.0;
  for (int a = 0; a < dimension; ++a) {
    p[a] = state.x[first + a] - center[static_cast<std::size_t>(a)];
    norm2 += p[a] * p[a];
  }
  return norm2;
}

}  // namespace

void SpherePenalty::AddForce(const State& state, Vector& f) const {
  for (const Index first : points_) {
    double p[3];
    const double norm2 = Offset(state, first, dimension_, center_, p);
    if (!(norm2 < radius_ * radius_ || bilateral_) || norm2 == 0.0) continue;
    const double norm = std::sqrt(norm2);
    const double d = norm - radius_;
    const double force_intensity = -stiffness_ * d;
    const double damping_intensity = -damping_ * d;
    for (int a = 0; a < dimension_; ++a)
      f[first + a] += p[a] * (force_intensity / norm) - state.v[first + a] * damping_intensity;
  }
}

void SpherePenalty::StiffnessEntries(std::vector<MatrixEntry>& entries) const {
  for (const Index first : points_)
    for (int r = 0; r < dimension_; ++r)
      for (int c = 0; c < dimension_; ++c) entries.push_back({first + r, first + c});
}

void SpherePenalty::AddStiffness(const State& state, const Index* slots, double* values) const {
  std::size_t k = 0;
  for (const Index first : points_) {
    double p[3];
    const double norm2 = Offset(state, first, dimension_, center_, p);
    const bool active = (norm2 < radius_ * radius_ || bilateral_) && norm2 > 0.0;
    const double norm = std::sqrt(norm2);
    const double fact = active ? radius_ / norm : 0.0;
    for (int r = 0; r < dimension_; ++r)
      for (int c = 0; c < dimension_; ++c, ++k) {
        if (!active) continue;
        const double nr = p[r] / norm, nc = p[c] / norm;
        values[slots[k]] += stiffness_ * (nr * nc * fact + (r == c ? 1.0 - fact : 0.0));
      }
  }
}

double SpherePenalty::PotentialEnergy(const State& state) const {
  double energy = 0.0;
  for (const Index first : points_) {
    double p[3];
    const double norm2 = Offset(state, first, dimension_, center_, p);
    if (!(norm2 < radius_ * radius_ || bilateral_)) continue;
    const double d = std::sqrt(norm2) - radius_;
    energy += 0.5 * stiffness_ * d * d;
  }
  return energy;
}

// --- Ellipsoid ----------------------------------------------------------------------------------

EllipsoidPenalty::EllipsoidPenalty(std::vector<Index> points, int dimension,
                                   std::vector<double> center, std::vector<double> radii,
                                   double stiffness, double damping, bool exact_stiffness)
    : points_(std::move(points)),
      dimension_(dimension),
      center_(std::move(center)),
      stiffness_(stiffness),
      damping_(damping),
      exact_stiffness_(exact_stiffness) {
  for (const double r : radii) inv_r2_.push_back(1.0 / (r * r));
}

bool EllipsoidPenalty::Contact(const State& state, Index first, double* g, double& nu,
                               double& gnorm) const {
  double nu2 = 0.0, g2 = 0.0;
  for (int a = 0; a < dimension_; ++a) {
    const std::size_t s = static_cast<std::size_t>(a);
    const double p = state.x[first + a] - center_[s];
    nu2 += p * p * inv_r2_[s];
    g[a] = p * inv_r2_[s];
    g2 += g[a] * g[a];
  }
  // SOFA's test: inside for a positive stiffness, outside for a negative one.
  if (!((nu2 - 1) * stiffness_ < 0) || g2 == 0.0) return false;
  nu = std::sqrt(nu2);
  gnorm = std::sqrt(g2);
  return true;
}

void EllipsoidPenalty::AddForce(const State& state, Vector& f) const {
  const double k = std::abs(stiffness_);
  for (const Index first : points_) {
    double g[3], nu = 0.0, gnorm = 0.0;
    if (!Contact(state, first, g, nu, gnorm)) continue;
    const double v = nu - 1;
    const double force_intensity = -k * v / gnorm;
    const double damping_intensity = damping_ * std::abs(v);
    for (int a = 0; a < dimension_; ++a)
      f[first + a] += g[a] * force_intensity - state.v[first + a] * damping_intensity;
  }
}

void EllipsoidPenalty::StiffnessEntries(std::vector<MatrixEntry>& entries) const {
  for (const Index first : points_)
    for (int r = 0; r < dimension_; ++r)
      for (int c = 0; c < dimension_; ++c) entries.push_back({first + r, first + c});
}

void EllipsoidPenalty::AddStiffness(const State& state, const Index* slots, double* values) const {
  const double k = std::abs(stiffness_);
  std::size_t entry = 0;
  for (const Index first : points_) {
    double g[3], nu = 0.0, gnorm = 0.0;
    if (!Contact(state, first, g, nu, gnorm)) {
      entry += static_cast<std::size_t>(dimension_ * dimension_);
      continue;
    }
    const double v = nu - 1;
    // ∂f/∂x = g·gᵀ·(fact1 + fact3/r_j²) + diag(fact2/r_i²); K is its negative.
    const double fact1 = -k / (nu * gnorm);
    const double fact2 = -k * v / gnorm;
    const double fact3 = exact_stiffness_ ? k * v / (gnorm * gnorm * gnorm)  // exact
                                          : -k * v / (gnorm * gnorm);        // SOFA's
    for (int r = 0; r < dimension_; ++r)
      for (int c = 0; c < dimension_; ++c, ++entry) {
        const std::size_t cs = static_cast<std::size_t>(c);
        double dfdx = g[r] * g[c] * (fact1 + fact3 * inv_r2_[cs]);
        if (r == c) dfdx += fact2 * inv_r2_[cs];
        values[slots[entry]] -= dfdx;
      }
  }
}

}  // namespace fluxion::internal
