#include "server.h"

#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket.hpp>
#include <chrono>
#include <csignal>
#include <deque>
#include <fstream>
#include <mutex>
#include <sstream>
#include <stdexcept>
#include <vector>

#include "fluxion/log.h"

namespace fluxion::view {

namespace beast = boost::beast;
namespace http = beast::http;
namespace websocket = beast::websocket;
namespace net = boost::asio;
using tcp = net::ip::tcp;

namespace {

// The largest command a page sends (a field's values included) [bytes].
constexpr std::size_t kMostCommandBytes = 1 << 20;
// How long a browser may take to send a request's header [s] (keep-alive connections idle longer
// are closed; the browser opens another).
constexpr int kRequestSeconds = 30;

class WsConnection;

}  // namespace

struct Server::Impl {
  Impl(const ServerOptions& options_in, Session& session_in, StaticFiles files_in)
      : session(session_in), files(std::move(files_in)), options(options_in) {}

  void Accept();
  void Stop(const std::string& reason);
  bool HostAllowed(std::string_view host) const;
  void OnOpened(const std::shared_ptr<WsConnection>& connection);
  void OnClosed(const WsConnection* connection);
  void DeliverFrame();

  net::io_context ioc{1};
  tcp::acceptor acceptor{ioc};
  net::signal_set signals{ioc, SIGINT, SIGTERM};
  net::steady_timer linger{ioc};
  Session& session;
  StaticFiles files;
  ServerOptions options;
  std::vector<std::string> allowed_hosts;  // empty: any (a wildcard address)
  std::weak_ptr<WsConnection> active;
  std::string stop_reason;
  bool stopping = false;

  // A frame from the simulation thread, waiting for the network thread.
  std::mutex frame_mutex;
  std::vector<unsigned char> incoming;
  bool incoming_ready = false;
};

namespace {

// The page's one WebSocket: commands in; events (text) and frames (binary) out, one write at a
// time, events first.
class WsConnection : public std::enable_shared_from_this<WsConnection> {
 public:
  WsConnection(tcp::socket&& socket, Server::Impl& server)
      : ws_(std::move(socket)), server_(server) {}

  void Start(http::request<http::string_body> request) {
    ws_.set_option(websocket::stream_base::timeout::suggested(beast::role_type::server));
    ws_.read_message_max(kMostCommandBytes);
    // A frame goes out as one WebSocket message in one frame: Beast's default cuts a message into
    // 4 kB frames, 384 of them (and as many writes) for the 256² cloth's 1.57 MB.
    ws_.auto_fragment(false);
    ws_.async_accept(request, [self = shared_from_this()](beast::error_code error) {
      if (error) return self->Closed();
      self->open_ = true;
      self->Write();  // what was queued during the handshake
      self->Read();
    });
  }

  void QueueText(std::string text) {
    texts_.push_back(std::move(text));
    Write();
  }

  /// Takes `frame` (swapped: the buffers keep their capacity) when no frame is being written.
  bool OfferFrame(std::vector<unsigned char>& frame) {
    if (closed_ || frame_pending_ || writing_frame_) return false;
    frame_.swap(frame);
    frame_pending_ = true;
    Write();
    return true;
  }

  void Close() {
    if (closed_) return;
    closed_ = true;
    beast::error_code ignored;
    beast::get_lowest_layer(ws_).socket().close(ignored);
  }

 private:
  void Read() {
    ws_.async_read(buffer_, [self = shared_from_this()](beast::error_code error, std::size_t) {
      if (error) return self->Closed();
      const std::string text = beast::buffers_to_string(self->buffer_.data());
      self->buffer_.consume(self->buffer_.size());
      if (self->ws_.got_text()) {
        // The page's most frequent message, recognised without parsing it.
        if (text == R"({"cmd":"frame"})")
          self->server_.session.RequestFrame(false, /*exact=*/false);
        else if (text == R"({"cmd":"frame","exact":true})")
          self->server_.session.RequestFrame(false, /*exact=*/true);
        else
          self->server_.session.Submit(text);
      }
      self->Read();
    });
  }

  void Write() {
    if (writing_ || closed_ || !open_) return;
    const auto done = [self = shared_from_this()](beast::error_code error, std::size_t) {
      if (self->writing_frame_) self->FrameWritten();
      self->writing_ = self->writing_frame_ = false;
      if (error) return self->Closed();
      self->Write();
      self->server_.DeliverFrame();  // one may have waited for this write
    };
    if (!texts_.empty()) {
      writing_ = true;
      text_ = std::move(texts_.front());
      texts_.pop_front();
      ws_.text(true);
      ws_.async_write(net::buffer(text_), done);
    } else if (frame_pending_) {
      frame_pending_ = false;
      writing_ = writing_frame_ = true;
      write_start_ = Clock::now();
      ws_.binary(true);
      ws_.async_write(net::buffer(frame_), done);
    }
  }

  // The network's share of a frame's time: from handing a frame to the socket until the socket
  // has taken all of it (the page's "timing" events, docs/viewer.md "Measured").
  void FrameWritten() {
    const Clock::time_point now = Clock::now();
    write_seconds_ += std::chrono::duration<double>(now - write_start_).count();
    ++writes_;
    if (now - report_start_ < std::chrono::seconds(1)) return;
    std::ostringstream text;
    text << R"({"type":"timing","write_ms":)" << 1e3 * write_seconds_ / writes_ << "}";
    texts_.push_back(text.str());
    report_start_ = now;
    write_seconds_ = 0.0;
    writes_ = 0;
  }

  void Closed() {
    if (!closed_) {
      closed_ = true;
      beast::error_code ignored;
      beast::get_lowest_layer(ws_).socket().close(ignored);
    }
    if (!reported_) {
      reported_ = true;
      server_.OnClosed(this);
    }
  }

  websocket::stream<beast::tcp_stream> ws_;
  Server::Impl& server_;
  beast::flat_buffer buffer_;
  std::deque<std::string> texts_;
  std::string text_;
  std::vector<unsigned char> frame_;
  bool frame_pending_ = false, writing_ = false, writing_frame_ = false;
  using Clock = std::chrono::steady_clock;
  Clock::time_point write_start_, report_start_;
  double write_seconds_ = 0.0;
  long writes_ = 0;
  bool open_ = false;  // the handshake is done: messages may be written
  bool closed_ = false, reported_ = false;
};

// One HTTP connection: static files and /scene.json, or the upgrade to the page's WebSocket.
class HttpConnection : public std::enable_shared_from_this<HttpConnection> {
 public:
  HttpConnection(tcp::socket&& socket, Server::Impl& server)
      : stream_(std::move(socket)), server_(server) {}

  void Read() {
    parser_.emplace();
    parser_->body_limit(kMostCommandBytes);
    stream_.expires_after(std::chrono::seconds(kRequestSeconds));
    http::async_read(stream_, buffer_, *parser_,
                     [self = shared_from_this()](beast::error_code error, std::size_t) {
                       if (error) return self->Shutdown();
                       self->Handle(self->parser_->release());
                     });
  }

 private:
  void Handle(http::request<http::string_body> request) {
    const std::string host(request[http::field::host]);
    if (!server_.HostAllowed(host))
      return Respond(request, http::status::forbidden, "text/plain",
                     "fluxion-view answers only requests addressed to its own address\n");
    std::string target(request.target());
    target = target.substr(0, target.find('?'));
    if (websocket::is_upgrade(request)) {
      if (target != "/ws")
        return Respond(request, http::status::not_found, "text/plain", "no such WebSocket\n");
      // Same origin only: a page of another site the browser shows may not drive the simulation.
      if (request[http::field::origin] != "http://" + host)
        return Respond(request, http::status::forbidden, "text/plain",
                       "fluxion-view accepts WebSockets from its own page only\n");
      if (!server_.active.expired())
        return Respond(request, http::status::conflict, "text/plain",
                       "another page is already connected to this fluxion-view (one page at a "
                       "time: close it first)\n");
      stream_.expires_never();
      auto connection = std::make_shared<WsConnection>(stream_.release_socket(), server_);
      server_.OnOpened(connection);
      connection->Start(std::move(request));
      return;
    }
    if (request.method() != http::verb::get && request.method() != http::verb::head)
      return Respond(request, http::status::method_not_allowed, "text/plain",
                     "only GET and HEAD (expected a page's request)\n");
    if (target == "/scene.json")
      return Respond(request, http::status::ok, "application/json", server_.session.description());
    const auto file = server_.files.find(target == "/" ? "/index.html" : target);
    if (file == server_.files.end())
      return Respond(request, http::status::not_found, "text/plain", "not found\n");
    Respond(request, http::status::ok, file->second.second, file->second.first);
  }

  void Respond(const http::request<http::string_body>& request, http::status status,
               const std::string& type, const std::string& body) {
    response_ = std::make_shared<http::response<http::string_body>>(status, request.version());
    response_->set(http::field::server, "fluxion-view");
    response_->set(http::field::content_type, type);
    response_->set(http::field::cache_control, "no-store");
    response_->keep_alive(request.keep_alive());
    if (request.method() != http::verb::head) response_->body() = body;
    response_->prepare_payload();
    if (request.method() == http::verb::head) response_->content_length(body.size());
    http::async_write(stream_, *response_,
                      [self = shared_from_this()](beast::error_code error, std::size_t) {
                        const bool keep = self->response_->keep_alive();
                        self->response_.reset();
                        if (error || !keep) return self->Shutdown();
                        self->Read();
                      });
  }

  void Shutdown() {
    beast::error_code ignored;
    stream_.socket().shutdown(tcp::socket::shutdown_send, ignored);
  }

  beast::tcp_stream stream_;
  Server::Impl& server_;
  beast::flat_buffer buffer_;
  std::optional<http::request_parser<http::string_body>> parser_;
  std::shared_ptr<http::response<http::string_body>> response_;
};

}  // namespace

void Server::Impl::Accept() {
  acceptor.async_accept([this](beast::error_code error, tcp::socket socket) {
    if (stopping) return;
    if (!error) std::make_shared<HttpConnection>(std::move(socket), *this)->Read();
    Accept();
  });
}

void Server::Impl::Stop(const std::string& reason) {
  if (stopping) return;
  stopping = true;
  stop_reason = reason;
  beast::error_code ignored;
  acceptor.close(ignored);
  signals.cancel(ignored);
  linger.cancel();
  if (const auto connection = active.lock()) connection->Close();
  ioc.stop();
}

bool Server::Impl::HostAllowed(std::string_view host) const {
  if (allowed_hosts.empty()) return true;
  for (const std::string& allowed : allowed_hosts)
    if (host == allowed) return true;
  return false;
}

void Server::Impl::OnOpened(const std::shared_ptr<WsConnection>& connection) {
  active = connection;
  linger.cancel();
  LogInfo("a page connected");
  session.RequestFrame(/*current_state_too=*/true);
  session.Submit(R"({"cmd":"status"})");
}

void Server::Impl::OnClosed(const WsConnection* connection) {
  const auto current = active.lock();
  if (current.get() != connection) return;
  active.reset();
  LogInfo("the page closed; stopping unless it comes back within " +
          std::to_string(options.linger.count()) + " ms");
  linger.expires_after(options.linger);
  linger.async_wait([this](beast::error_code error) {
    if (!error && active.expired()) Stop("the page closed");
  });
}

void Server::Impl::DeliverFrame() {
  const auto connection = active.lock();
  std::lock_guard lock(frame_mutex);
  if (!incoming_ready) return;
  if (!connection) {
    incoming_ready = false;  // nobody to show it to
    return;
  }
  if (connection->OfferFrame(incoming)) incoming_ready = false;
}

Server::Server(const ServerOptions& options, Session& session, StaticFiles files)
    : impl_(std::make_unique<Impl>(options, session, std::move(files))) {
  beast::error_code error;
  const net::ip::address address = net::ip::make_address(options.address, error);
  if (error)
    throw std::runtime_error("--host " + options.address +
                             ": not an IP address (expected e.g. 127.0.0.1)");
  const tcp::endpoint endpoint(address, options.port);
  impl_->acceptor.open(endpoint.protocol(), error);
  if (!error) impl_->acceptor.set_option(net::socket_base::reuse_address(true), error);
  if (!error) impl_->acceptor.bind(endpoint, error);
  if (!error) impl_->acceptor.listen(net::socket_base::max_listen_connections, error);
  if (error)
    throw std::runtime_error("--port " + std::to_string(options.port) + " on " + options.address +
                             ": " + error.message() +
                             " (expected a free port, or --port 0 for any)");
  const std::string port = std::to_string(this->port());
  if (!address.is_unspecified()) {
    const std::string shown =
        address.is_v6() ? "[" + address.to_string() + "]" : address.to_string();
    impl_->allowed_hosts = {shown + ":" + port};
    if (address.is_loopback())
      impl_->allowed_hosts.insert(impl_->allowed_hosts.end(),
                                  {"localhost:" + port, "127.0.0.1:" + port, "[::1]:" + port});
  }
}

Server::~Server() = default;

unsigned short Server::port() const { return impl_->acceptor.local_endpoint().port(); }

std::string Server::Run() {
  Impl& impl = *impl_;
  impl.signals.async_wait([&impl](beast::error_code error, int signal) {
    if (!error) impl.Stop(signal == SIGINT ? "interrupted (Ctrl-C)" : "terminated");
  });
  impl.session.Start(SessionSink{.frame =
                                     [&impl](std::span<const unsigned char> frame) {
                                       {
                                         std::lock_guard lock(impl.frame_mutex);
                                         impl.incoming.assign(frame.begin(), frame.end());
                                         impl.incoming_ready = true;
                                       }
                                       net::post(impl.ioc, [&impl] { impl.DeliverFrame(); });
                                     },
                                 .event =
                                     [&impl](std::string text) {
                                       net::post(impl.ioc,
                                                 [&impl, text = std::move(text)]() mutable {
                                                   if (const auto connection = impl.active.lock())
                                                     connection->QueueText(std::move(text));
                                                 });
                                     }});
  impl.Accept();
  impl.ioc.run();
  impl.session.Stop();
  return impl.stop_reason;
}

bool LoadStaticFiles(const std::string& folder, StaticFiles& files, std::string& why) {
  const std::pair<const char*, const char*> names[] = {
      {"index.html", "text/html; charset=utf-8"},
      {"viewer.js", "text/javascript; charset=utf-8"},
      {"viewer.css", "text/css; charset=utf-8"},
      {"three.min.js", "text/javascript; charset=utf-8"},
      {"OrbitControls.js", "text/javascript; charset=utf-8"}};
  for (const auto& [name, type] : names) {
    const std::string path = folder + "/" + name;
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    if (!in || text.str().empty()) {
      why = path +
            ": cannot read the viewer's page (expected the files built or installed with "
            "fluxion-view)";
      return false;
    }
    files["/" + std::string(name)] = {text.str(), type};
  }
  return true;
}

}  // namespace fluxion::view
