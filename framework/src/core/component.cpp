#include "fluxion/component.h"

namespace fluxion {

BuildContext::~BuildContext() = default;

}  // namespace fluxion
