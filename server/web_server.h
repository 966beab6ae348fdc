// HTTP and WebSocket for the browser view, over Boost.Beast: GET requests and WebSocket
// connections go to the routes given; everything else about the network lives here, with the
// limits a server facing browsers needs (request and message sizes, connections, timeouts, a
// client that does not read). Routes never see a socket, so they are tested without one.
#pragma once

#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace ataxx::server {

struct HttpReply {
  int status = 200;
  std::string content_type = "application/json";
  std::string body;
};

// Sends a text message to one WebSocket's client, from any thread; a no-op once it closed.
using SendText = std::function<void(std::string text)>;

// Takes one WebSocket's messages, in order, on the server's threads (it must not block for
// long); destroyed when the socket closes.
class SocketHandler {
 public:
  virtual ~SocketHandler() = default;
  virtual void on_message(std::string_view text) = 0;
};

struct Routes {
  // A GET request's path and query string (after '?').
  std::function<HttpReply(std::string_view path, std::string_view query)> get;
  // A WebSocket opened at path; nullptr refuses it (the connection is closed unanswered).
  std::function<std::unique_ptr<SocketHandler>(std::string_view path, SendText send)> socket;
};

struct WebServerLimits {
  // Requests must name the server by an IP address, localhost, or one of these names (case does
  // not matter): a page of another site cannot reach it through a DNS name of its own pointed at
  // this machine (DNS rebinding), whatever address it listens on.
  std::vector<std::string> host_names;
  std::size_t max_request_bytes = 16 * 1024;   // a request's headers and body
  std::size_t max_message_bytes = 64 * 1024;   // one WebSocket message from a client
  std::size_t max_queued_messages = 1024;      // to one client that does not read: then it is closed
  int max_connections = 200;                   // at once; more wait for one to close, up to http_timeout
  int max_sockets_per_address = 16;            // WebSockets open at once from one client address; more get 429
  std::chrono::seconds http_timeout{30};
  // A WebSocket is pinged once it has been quiet for half of this, and closed when the other half
  // passes without an answer (a browser's tab answers by itself).
  std::chrono::seconds socket_idle_timeout{60};
};

class WebServer {
 public:
  // Listens at once on address:port (port 0: one the system picks); throws std::runtime_error
  // naming the address when it cannot.
  WebServer(const std::string& address, int port, Routes routes, WebServerLimits limits = {});
  ~WebServer();  // stops and waits for its threads
  WebServer(const WebServer&) = delete;
  WebServer& operator=(const WebServer&) = delete;

  int port() const;
  // Serves on `threads` threads of its own until stop().
  void start(int threads);
  void stop();
  void wait();  // until stopped

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace ataxx::server
