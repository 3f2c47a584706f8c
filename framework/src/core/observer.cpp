#include "fluxion/observer.h"

namespace fluxion {

ObservedState::~ObservedState() = default;
StateSetter::~StateSetter() = default;
Observer::~Observer() = default;
void Observer::Drive(long /*step*/, StateSetter& /*state*/) {}
void Observer::Begin(const ObservedState& /*state*/) {}
void Observer::AfterStep(const ObservedState& /*state*/) {}
void Observer::End(const ObservedState& /*state*/) {}

}  // namespace fluxion
