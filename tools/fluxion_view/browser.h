// Opening the page in the user's browser, when there is a desktop to show it on.
#pragma once

#include <string>

namespace fluxion::view {

/// Starts `xdg-open URL` (detached; its output discarded) when DISPLAY or WAYLAND_DISPLAY is set.
/// False, with `why`, when no browser can be opened: the caller then says where the page is.
bool OpenBrowser(const std::string& url, std::string& why);

}  // namespace fluxion::view
