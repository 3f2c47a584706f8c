// Ownership of objects created by plugin code (solvers, linear solvers, force fields).
#pragma once

#include <memory>

namespace fluxion {

/// Deletes an object created by plugin code while keeping the plugin's library loaded: the
/// destructor runs inside the library, which is released only after it returns.
template <class T>
struct PinnedDeleter {
  std::shared_ptr<const void> library;
  void operator()(T* object) const { delete object; }
};

}  // namespace fluxion
