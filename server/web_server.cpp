#include "server/web_server.h"

// Before Asio, whose headers of 1.74 use std::exchange without including it.
#include <algorithm>
#include <atomic>
#include <cctype>
#include <chrono>
#include <deque>
#include <map>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <thread>
#include <utility>
#include <vector>

#include <boost/asio.hpp>
#include <boost/beast.hpp>

namespace ataxx::server {
namespace {

namespace beast = boost::beast;
namespace http = beast::http;
namespace websocket = beast::websocket;
namespace net = boost::asio;
using tcp = net::ip::tcp;

constexpr auto kWaitBeforeRetrying = std::chrono::milliseconds(10);

struct Shared {
  Routes routes;
  WebServerLimits limits;
  std::atomic<int> connections{0};
  std::mutex sockets_mutex;
  std::map<net::ip::address, int> sockets_by_address;  // open WebSockets
};

// Held by each WebSocket: the count of those open from its client's address.
class SocketToken {
 public:
  SocketToken(std::shared_ptr<Shared> shared, net::ip::address address)
      : shared_(std::move(shared)), address_(std::move(address)) {}
  ~SocketToken() {
    const std::lock_guard lock(shared_->sockets_mutex);
    if (--shared_->sockets_by_address[address_] == 0) shared_->sockets_by_address.erase(address_);
  }
  SocketToken(const SocketToken&) = delete;
  SocketToken& operator=(const SocketToken&) = delete;

  // A token for one more WebSocket from `address`, or none where it has its most open.
  static std::unique_ptr<SocketToken> take(const std::shared_ptr<Shared>& shared, const net::ip::address& address) {
    const std::lock_guard lock(shared->sockets_mutex);
    int& open = shared->sockets_by_address[address];
    if (open >= shared->limits.max_sockets_per_address) return nullptr;
    ++open;
    return std::make_unique<SocketToken>(shared, address);
  }

 private:
  std::shared_ptr<Shared> shared_;
  net::ip::address address_;
};

// Held by each connection: the count of open ones.
class ConnectionToken {
 public:
  explicit ConnectionToken(std::shared_ptr<Shared> shared) : shared_(std::move(shared)) { ++shared_->connections; }
  ~ConnectionToken() { --shared_->connections; }
  ConnectionToken(const ConnectionToken&) = delete;
  ConnectionToken& operator=(const ConnectionToken&) = delete;
  Shared& shared() const { return *shared_; }
  const std::shared_ptr<Shared>& shared_pointer() const { return shared_; }

 private:
  std::shared_ptr<Shared> shared_;
};

std::string_view view(beast::string_view text) { return {text.data(), text.size()}; }

// The host name of a Host header ("localhost:8080" -> "localhost", "[::1]:80" -> "[::1]").
std::string_view host_name(std::string_view host) {
  const std::size_t colon = host.rfind(':');
  if (colon != std::string_view::npos && host.find(']', colon) == std::string_view::npos) host = host.substr(0, colon);
  return host;
}

// A name a request may reach the server by: an IP address or localhost (no DNS name of another
// site can stand for them), or a name it was given.
bool allowed_host(std::string_view name, const std::vector<std::string>& names) {
  std::string lower(name);
  std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
  if (lower == "localhost") return true;
  if (std::find(names.begin(), names.end(), lower) != names.end()) return true;
  std::string_view address = lower;
  if (address.starts_with('[') && address.ends_with(']')) address = address.substr(1, address.size() - 2);
  boost::system::error_code not_an_address;
  net::ip::make_address(std::string(address), not_an_address);
  return !not_an_address;
}

// A page of another site must not reach a server on this machine: through a DNS name that points
// here (a Host of its own), or through a WebSocket opened from its page (an Origin of its own).
std::optional<std::string> refusal(const http::request<http::string_body>& request, const Shared& shared) {
  if (const std::size_t hosts = request.count(http::field::host); hosts > 1)  // which would a proxy have read?
    return "this server answers requests with one Host header, not " + std::to_string(hosts);
  const std::string_view host = view(request[http::field::host]);
  if (!allowed_host(host_name(host), shared.limits.host_names))
    return "this server answers requests naming it by its address, localhost or a name given to it with "
           "--allow-host, not '" +
           std::string(host) + "'";
  const std::string_view origin = view(request[http::field::origin]);
  if (!origin.empty() && origin != "http://" + std::string(host))
    return "WebSocket from another origin ('" + std::string(origin) + "') refused";
  return std::nullopt;
}

class WebSocketSession : public std::enable_shared_from_this<WebSocketSession> {
 public:
  WebSocketSession(beast::tcp_stream&& stream, std::shared_ptr<ConnectionToken> token,
                   std::unique_ptr<SocketToken> socket_token)
      : ws_(std::move(stream)), token_(std::move(token)), socket_token_(std::move(socket_token)) {}

  SendText sender() {
    return [weak = weak_from_this()](std::string text) {
      if (auto self = weak.lock())
        net::post(self->ws_.get_executor(),
                  [self, text = std::move(text)]() mutable { self->queue(std::move(text)); });
    };
  }

  void accept(http::request<http::string_body> request, std::unique_ptr<SocketHandler> handler) {
    handler_ = std::move(handler);
    beast::get_lowest_layer(ws_).expires_never();  // the stream's own timeouts below take over
    websocket::stream_base::timeout timeouts = websocket::stream_base::timeout::suggested(beast::role_type::server);
    timeouts.idle_timeout = token_->shared().limits.socket_idle_timeout;
    timeouts.keep_alive_pings = true;
    ws_.set_option(timeouts);
    ws_.read_message_max(token_->shared().limits.max_message_bytes);
    // A close frame ends the client's session now: the connection itself may stay open until the
    // client ends it or the handshake timeout does (30 s).
    ws_.control_callback([this](websocket::frame_type kind, beast::string_view) {
      if (kind == websocket::frame_type::close) handler_.reset();
    });
    ws_.async_accept(request, beast::bind_front_handler(&WebSocketSession::on_accept, shared_from_this()));
  }

 private:
  void on_accept(beast::error_code error) {
    if (error) return close();
    accepted_ = true;
    if (!outbox_.empty()) write_next();
    read();
  }

  void read() {
    ws_.async_read(buffer_, beast::bind_front_handler(&WebSocketSession::on_read, shared_from_this()));
  }

  void on_read(beast::error_code error, std::size_t) {
    if (error) return close();  // closed, or a message above the limit
    const std::string text = beast::buffers_to_string(buffer_.data());
    buffer_.consume(buffer_.size());
    if (handler_) handler_->on_message(text);
    read();
  }

  void queue(std::string text) {
    if (closed_) return;
    if (outbox_.size() >= token_->shared().limits.max_queued_messages) return close();
    outbox_.push_back(std::move(text));
    if (accepted_ && outbox_.size() == 1) write_next();
  }

  void write_next() {
    ws_.text(true);
    ws_.async_write(net::buffer(outbox_.front()),
                    beast::bind_front_handler(&WebSocketSession::on_write, shared_from_this()));
  }

  void on_write(beast::error_code error, std::size_t) {
    if (closed_) return;  // the queue was left as it was: the write's message is still its first
    if (error) return close();
    outbox_.pop_front();
    if (!outbox_.empty()) write_next();
  }

  // Leaves the queue to the session's end: a write may still be sending its first message.
  void close() {
    if (closed_) return;
    closed_ = true;
    handler_.reset();  // stops whatever the handler runs for this client
    socket_token_.reset();
    beast::error_code ignored;
    beast::get_lowest_layer(ws_).socket().shutdown(tcp::socket::shutdown_both, ignored);
    beast::get_lowest_layer(ws_).close();
  }

  websocket::stream<beast::tcp_stream> ws_;
  std::shared_ptr<ConnectionToken> token_;
  std::unique_ptr<SocketToken> socket_token_;
  beast::flat_buffer buffer_;
  std::unique_ptr<SocketHandler> handler_;
  std::deque<std::string> outbox_;
  bool accepted_ = false;
  bool closed_ = false;
};

class HttpSession : public std::enable_shared_from_this<HttpSession> {
 public:
  HttpSession(tcp::socket&& socket, std::shared_ptr<ConnectionToken> token)
      : stream_(std::move(socket)), token_(std::move(token)) {}

  void run() { net::dispatch(stream_.get_executor(), beast::bind_front_handler(&HttpSession::read, shared_from_this())); }

 private:
  const WebServerLimits& limits() const { return token_->shared().limits; }

  void read() {
    parser_.emplace();
    parser_->header_limit(static_cast<std::uint32_t>(limits().max_request_bytes));
    parser_->body_limit(limits().max_request_bytes);
    stream_.expires_after(limits().http_timeout);
    http::async_read(stream_, buffer_, *parser_, beast::bind_front_handler(&HttpSession::on_read, shared_from_this()));
  }

  void on_read(beast::error_code error, std::size_t) {
    if (error == http::error::body_limit || error == http::error::header_limit)
      return reply({413, "text/plain", "request too large\n"}, false);
    if (error == http::error::end_of_stream || error == http::error::partial_message) return close();
    if (error.category() == beast::error_code(http::error::bad_version).category())  // a request that is not HTTP/1
      return reply({400, "text/plain", "bad request (" + error.message() + ")\n"}, false);
    if (error) return close();
    http::request<http::string_body> request = parser_->release();
    if (const auto why = refusal(request, token_->shared())) return reply({403, "text/plain", *why + "\n"}, false);
    if (request.method() != http::verb::get) return reply({405, "text/plain", "only GET\n"}, false);
    const std::string_view target = view(request.target());
    const std::size_t question = target.find('?');
    const std::string_view path = target.substr(0, question);
    const std::string_view query = question == std::string_view::npos ? "" : target.substr(question + 1);
    if (websocket::is_upgrade(request)) return upgrade(std::move(request), path);
    HttpReply answer;
    try {
      answer = token_->shared().routes.get(path, query);
    } catch (const std::exception& e) {
      answer = {500, "text/plain", std::string(e.what()) + "\n"};
    }
    reply(std::move(answer), request.keep_alive());
  }

  void upgrade(http::request<http::string_body> request, std::string_view path) {
    beast::error_code error;
    const net::ip::address client = stream_.socket().remote_endpoint(error).address();
    if (error) return close();
    auto socket_token = SocketToken::take(token_->shared_pointer(), client);
    if (!socket_token)
      return reply({429, "text/plain",
                    "too many WebSockets open from " + client.to_string() + " (at most " +
                        std::to_string(limits().max_sockets_per_address) + ")\n"},
                   false);
    auto session = std::make_shared<WebSocketSession>(std::move(stream_), token_, std::move(socket_token));
    std::unique_ptr<SocketHandler> handler;
    try {
      handler = token_->shared().routes.socket(path, session->sender());
    } catch (const std::exception&) {
    }
    if (!handler) return;  // the stream went to the session, which closes unaccepted
    session->accept(std::move(request), std::move(handler));
  }

  void reply(HttpReply answer, bool keep_alive) {
    auto response = std::make_shared<http::response<http::string_body>>(static_cast<http::status>(answer.status), 11);
    response->set(http::field::server, "ataxx-zero");
    response->set(http::field::content_type, answer.content_type);
    response->set(http::field::cache_control, "no-store");
    response->set("X-Content-Type-Options", "nosniff");
    response->keep_alive(keep_alive);
    response->body() = std::move(answer.body);
    response->prepare_payload();
    http::async_write(stream_, *response,
                      [self = shared_from_this(), response](beast::error_code error, std::size_t) {
                        if (error || !response->keep_alive()) return self->close();
                        self->read();
                      });
  }

  void close() {
    beast::error_code ignored;
    stream_.socket().shutdown(tcp::socket::shutdown_send, ignored);
  }

  beast::tcp_stream stream_;
  std::shared_ptr<ConnectionToken> token_;
  beast::flat_buffer buffer_;
  std::optional<http::request_parser<http::string_body>> parser_;
};

}  // namespace

// Handlers capture the Impl by pointer: it outlives the threads that run them (~WebServer).
// The acceptor has a strand of its own: its handlers and stop() would otherwise meet on two threads.
struct WebServer::Impl {
  net::io_context io;
  tcp::acceptor acceptor{net::make_strand(io)};
  int port = 0;
  std::shared_ptr<Shared> shared = std::make_shared<Shared>();
  std::vector<std::thread> threads;

  net::steady_timer wait_timer{acceptor.get_executor()};  // while at capacity, or out of file descriptors

  void accept_next() {
    acceptor.async_accept(net::make_strand(io), [self = this](beast::error_code error, tcp::socket socket) {
      if (!self->acceptor.is_open()) return;
      // At once would spin while the error lasts (EMFILE).
      if (error) return self->after_a_while([self] { self->accept_next(); });
      const auto deadline = std::chrono::steady_clock::now() + self->shared->limits.http_timeout;
      self->admit(std::make_shared<tcp::socket>(std::move(socket)), deadline);
    });
  }

  // At capacity a connection waits until one closes (those after it wait in the listen backlog),
  // for at most the HTTP timeout, then is closed: a client that connects right after others
  // closed is served, not dropped because the server has yet to see them close.
  void admit(std::shared_ptr<tcp::socket> socket, std::chrono::steady_clock::time_point deadline) {
    if (shared->connections < shared->limits.max_connections) {
      std::make_shared<HttpSession>(std::move(*socket), std::make_shared<ConnectionToken>(shared))->run();
      return accept_next();
    }
    if (std::chrono::steady_clock::now() >= deadline) {
      beast::error_code ignored;
      socket->close(ignored);
      return accept_next();
    }
    after_a_while([this, socket, deadline] { admit(socket, deadline); });
  }

  // Runs next on the acceptor's strand a little later, unless the server stopped meanwhile.
  template <typename Next>
  void after_a_while(Next next) {
    wait_timer.expires_after(kWaitBeforeRetrying);
    wait_timer.async_wait([this, next = std::move(next)](beast::error_code error) {
      if (!error && acceptor.is_open()) next();
    });
  }
};

WebServer::WebServer(const std::string& address, int port, Routes routes, WebServerLimits limits)
    : impl_(std::make_unique<Impl>()) {
  impl_->shared->routes = std::move(routes);
  impl_->shared->limits = std::move(limits);
  for (std::string& name : impl_->shared->limits.host_names)
    std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) { return std::tolower(c); });
  boost::system::error_code not_an_address;
  const net::ip::address ip = net::ip::make_address(address, not_an_address);
  if (not_an_address)
    throw std::runtime_error("cannot listen on '" + address +
                             "': give an IP address of this machine (127.0.0.1, ::1, or 0.0.0.0 for every one)");
  try {
    const tcp::endpoint endpoint(ip, static_cast<unsigned short>(port));
    impl_->acceptor.open(endpoint.protocol());
    impl_->acceptor.set_option(net::socket_base::reuse_address(true));
    impl_->acceptor.bind(endpoint);
    impl_->acceptor.listen(net::socket_base::max_listen_connections);
    impl_->port = impl_->acceptor.local_endpoint().port();
  } catch (const boost::system::system_error& e) {
    throw std::runtime_error("cannot listen on " + address + ":" + std::to_string(port) + ": " + e.code().message());
  }
}

WebServer::~WebServer() {
  stop();
  wait();
}

int WebServer::port() const { return impl_->port; }

void WebServer::start(int threads) {
  impl_->accept_next();
  for (int i = 0; i < threads; ++i) impl_->threads.emplace_back([impl = impl_.get()] { impl->io.run(); });
}

void WebServer::stop() {
  net::post(impl_->acceptor.get_executor(), [impl = impl_.get()] {
    beast::error_code ignored;
    impl->acceptor.close(ignored);
    impl->io.stop();
  });
}

void WebServer::wait() {
  for (auto& thread : impl_->threads)
    if (thread.joinable()) thread.join();
  impl_->threads.clear();
}

}  // namespace ataxx::server
