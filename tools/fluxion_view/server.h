// fluxion-view's HTTP and WebSocket server (Boost.Beast, one network thread): the page's static
// files and /scene.json over HTTP, then one WebSocket (/ws) that carries the page's commands in
// and the session's frames and events out. One page at a time: a second WebSocket is refused
// (HTTP 409) while one is open. The server stops when the page has been gone for a few seconds
// (closed, not reloaded), on SIGINT/SIGTERM, or when asked to.
#pragma once

#include <chrono>
#include <map>
#include <memory>
#include <string>

#include "session.h"

namespace fluxion::view {

struct ServerOptions {
  std::string address = "127.0.0.1";
  unsigned short port = 0;  ///< 0: any free port
  /// How long the server waits for a page to come back (a reload) after the last one closed.
  std::chrono::milliseconds linger{3000};
};

/// The files served, by URL path ("/" is index.html), read once at start.
using StaticFiles = std::map<std::string, std::pair<std::string, std::string>>;  // body, type

class Server {
 public:
  /// Binds the address (throws std::runtime_error with the reason when it cannot).
  Server(const ServerOptions& options, Session& session, StaticFiles files);
  ~Server();
  Server(const Server&) = delete;
  Server& operator=(const Server&) = delete;

  /// The port bound (the chosen one for port 0).
  unsigned short port() const;
  /// Serves until the page has gone or a signal came; returns the reason, for the log.
  std::string Run();

  struct Impl;  ///< the network state (server.cpp); public for the connections defined there

 private:
  std::unique_ptr<Impl> impl_;
};

/// Reads the page's files from `folder` (index.html, viewer.js, viewer.css, three.min.js,
/// OrbitControls.js); false with `why` when one is missing.
bool LoadStaticFiles(const std::string& folder, StaticFiles& files, std::string& why);

}  // namespace fluxion::view
