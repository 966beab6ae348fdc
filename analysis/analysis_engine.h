// The analysis engine for tools (`ataxx-zero analysis`, `ataxx-engine analysis`), after KataGo's:
// JSON lines in, JSON lines out. A query gives a game (its start and its moves) and the turns to
// analyse; each turn is searched by the net that plays its board, several turns at once (their
// searches share each net's batched evaluator), and answered when it is done, by id and turn
// number, in the order the searches end. docs/analysis.md has every field.
//
//   in   {"id":"q1","initialFen":F,"moves":["b6","a7c5"],"analyzeTurns":[0,2],"maxVisits":400}
//        {"id":"t1","action":"terminate","terminateId":"q1"}  (no terminateId: the query "t1")
//        {"id":"t2","action":"terminate_all"}
//   out  {"id":"q1","turnNumber":2,"isDuringSearch":false,"moveInfos":[...],"rootInfo":{...}}
//        {"id":"q1","turnNumber":0,"isDuringSearch":false,"noResults":true}  (terminated unsearched)
//        {"id":"q1","error":"...","field":"moves"}        a query refused; the engine goes on
//        {"id":"q1","warning":"...","field":"maxvisits"}  the query goes on
#pragma once

#include <condition_variable>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "analysis/query.h"
#include "players/net_shelf.h"

namespace ataxx {
template <typename G>
struct BasicNetworkPlayerOptions;
}  // namespace ataxx

namespace ataxx::analysis {

struct Options {
  const NetShelf* nets = nullptr;  // which net analyses a position
  int threads = 1;                 // turns searched at once
  int search_threads = 1;          // each search's
  int default_visits = 500;        // a query's maxVisits unless it gives one
  Perspective report_as = Perspective::kSideToMove;  // unless a query's reportAnalysisWinratesAs says
};

class Engine {
 public:
  using Send = std::function<void(const std::string&)>;  // one answer line; never called twice at once
  Engine(Options options, Send send);
  ~Engine();  // stops every search (answering each) and waits for them
  Engine(const Engine&) = delete;
  Engine& operator=(const Engine&) = delete;

  void handle(std::string_view line);  // answers a refused line at once; queues a query's turns
  void finish();                        // returns once every turn queued has been answered

 private:
  struct Task;
  using TaskPtr = std::shared_ptr<Task>;

  void send(const nlohmann::ordered_json& answer);
  void queue_query(const Query& query);
  template <typename G>
  std::vector<TaskPtr> tasks_of(const Query& query, const typename G::Position& start);
  template <typename G>
  void analyse(const Query& query, const BasicNetworkPlayerOptions<G>& options, const typename G::Game& game,
               int turn_number, const std::atomic<bool>& stop);
  void terminate(const Action& action);
  void work();  // a worker thread: runs tasks until closing

  Options options_;
  Send send_;
  std::mutex send_mutex_;

  std::mutex mutex_;  // guards everything below
  std::deque<TaskPtr> queued_;
  std::vector<TaskPtr> running_;
  std::condition_variable task_ready_;
  std::condition_variable idle_;
  bool closing_ = false;
  // The evaluators of the nets that analysed a turn, held so that each loads once.
  std::map<std::string, std::shared_ptr<void>> evaluators_;
  std::vector<std::thread> workers_;  // last: started once the rest is made
};

}  // namespace ataxx::analysis
