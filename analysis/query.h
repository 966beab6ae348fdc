// A query of the analysis engine (analysis/analysis_engine.h) as its JSON line gives it, checked
// field by field before the game it names is known.
#pragma once

#include <nlohmann/json_fwd.hpp>

#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace ataxx::analysis {

// allowMoves / avoidMoves (KataGo's): at the turns where `player` is to move, the search plays only
// these moves, or leaves them out. Only the turn's own move is restricted (untilDepth 1).
struct MoveRestriction {
  std::string player;              // a side's name in the game: "x", "o"; Schataxx "white", "black"
  std::vector<std::string> moves;  // in the game's notation
};

// Whose view a query's win rates, leads, bounds and ownership are from (KataGo's
// reportAnalysisWinratesAs): the side to move at each turn, or one side throughout by its PGN colour
// (Ataxx's x is Black; Schataxx's white is White).
enum class Perspective { kSideToMove, kBlack, kWhite };
// KataGo's names, in any case: "BLACK", "WHITE", "SIDETOMOVE"; none for another.
std::optional<Perspective> perspective_named(const std::string& name);

// overrideSettings (KataGo's): the analysis's own settings and the search's, for one query.
struct Settings {
  std::optional<Perspective> report_as;  // none: the engine's (Options::report_as)
  int pv_length = -1;       // analysisPVLen: the moves a line shows after its first; -1: all the tree has
  double max_time_s = 0;    // maxTime: a turn's search stops after this long, or at its visits; 0: visits alone
  std::string search_spec;  // the search options given, as a player spec's "cpuct=1,ptemp=2" (docs/engine.md)
};

struct Query {
  std::string id;
  std::string initial_fen;  // "": the start of `variant`
  std::string variant;      // a game's or a variant's name; "": the game whose FEN initial_fen is
  std::vector<std::string> moves;   // in the game's notation, from initial_fen
  std::vector<int> analyze_turns;   // 0 before the first move; empty: after the last one
  int max_visits = 0;               // 0: the engine's default
  bool include_policy = false;      // every legal move's prior at each turn
  bool include_ownership = false;   // the search's ownership of each turn (KataGo's tree ownership)
  bool include_ownership_stdev = false;  // and its standard deviation over the tree
  bool include_moves_ownership = false;  // each move's: the ownership of its subtree
  bool include_moves_ownership_stdev = false;
  bool include_pv_visits = false;        // each line's visits, move by move
  double report_every_s = 0;        // reportDuringSearchEvery: interim answers; 0 for none
  int priority = 0;                 // turns of higher priority are searched first (KataGo's)
  std::vector<MoveRestriction> avoid_moves;
  std::vector<MoveRestriction> allow_moves;  // at most one, as KataGo's
  Settings settings;
};

// A query or action refused, naming the field at fault ("" for the line as a whole).
class QueryError : public std::invalid_argument {
 public:
  QueryError(std::string field, const std::string& message) : std::invalid_argument(message), field_(std::move(field)) {}
  const std::string& field() const { return field_; }

 private:
  std::string field_;
};

// {"id":"t1","action":"terminate","terminateId":"q1","turnNumbers":[2]}: the turns of the queries
// with id terminate_id (all of them without turnNumbers; none for an empty list, as KataGo's) stop;
// terminate_all stops every query.
// query_version and clear_cache (KataGo's) are answered at once.
struct Action {
  std::string id;
  std::string name;          // "terminate", "terminate_all", "query_version" or "clear_cache"
  std::string terminate_id;  // the query's id; without terminateId, the action's own id
  std::optional<std::vector<int>> turns;
};

constexpr int kMostVisits = 100'000'000;

// Throws QueryError for a field of the wrong type or out of range; `unknown` gets the names of the
// fields it does not know (answered with a warning: a misspelt field is not silently dropped).
Query read_query(const nlohmann::ordered_json& line, std::vector<std::string>& unknown);
Action read_action(const nlohmann::ordered_json& line);

}  // namespace ataxx::analysis
