#include "analysis/query.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <string_view>

#include "util/text.h"

namespace ataxx::analysis {
namespace {

using json = nlohmann::ordered_json;

std::string id_of(const json& line) {
  if (!line.contains("id")) throw QueryError("id", "a query needs an \"id\"");
  if (!line["id"].is_string()) throw QueryError("id", "\"id\" must be a string");
  return line["id"];
}

std::string string_field(const json& line, const char* field) {
  if (!line.contains(field)) return {};
  if (!line[field].is_string()) throw QueryError(field, std::string("\"") + field + "\" must be a string");
  return line[field];
}

bool bool_field(const json& line, const char* field) {
  if (!line.contains(field)) return false;
  if (!line[field].is_boolean()) throw QueryError(field, std::string("\"") + field + "\" must be true or false");
  return line[field];
}

// `name`: the setting within `field` where it is one (overrideSettings' analysisPVLen).
int int_in(const json& value, const char* field, int min, int max, const char* name = nullptr) {
  const bool whole = value.is_number_integer() || value.is_number_unsigned();
  if (!whole || value.get<double>() < min || value.get<double>() > max)
    throw QueryError(field, std::string("\"") + (name ? name : field) + "\" must be a whole number from " +
                                std::to_string(min) + " to " + std::to_string(max));
  return value.get<int>();
}

std::optional<std::vector<int>> turns_field(const json& line, const char* field) {
  if (!line.contains(field)) return std::nullopt;
  if (!line[field].is_array()) throw QueryError(field, std::string("\"") + field + "\" must be a list of turn numbers");
  std::vector<int> turns;
  for (const json& turn : line[field]) turns.push_back(int_in(turn, field, 0, 1'000'000));
  return turns;
}

// [{"player":"x","moves":["b6","a7c5"],"untilDepth":1}, ...]
std::vector<MoveRestriction> restrictions_field(const json& line, const char* field) {
  if (!line.contains(field)) return {};
  const std::string what = std::string("\"") + field + "\" must be a list of {\"player\", \"moves\", \"untilDepth\"}";
  if (!line[field].is_array()) throw QueryError(field, what);
  std::vector<MoveRestriction> restrictions;
  for (const json& entry : line[field]) {
    if (!entry.is_object() || !entry.contains("player") || !entry.contains("moves") || !entry.contains("untilDepth"))
      throw QueryError(field, what);
    for (const auto& [key, value] : entry.items())
      if (key != "player" && key != "moves" && key != "untilDepth")
        throw QueryError(field, std::string("\"") + field + "\": unknown key '" + key + "'");
    MoveRestriction restriction;
    if (!entry["player"].is_string() || !entry["moves"].is_array()) throw QueryError(field, what);
    restriction.player = entry["player"];
    for (const json& move : entry["moves"]) {
      if (!move.is_string()) throw QueryError(field, std::string("\"") + field + "\": each move must be a string");
      restriction.moves.push_back(move);
    }
    const json& depth = entry["untilDepth"];
    if (!(depth.is_number_integer() || depth.is_number_unsigned()) || depth.get<double>() != 1)
      throw QueryError(field,
                       std::string("\"") + field + "\": untilDepth must be 1 (only the turn's own move is restricted)");
    restrictions.push_back(std::move(restriction));
  }
  return restrictions;
}

// The search options a query may override, by their player spec names (docs/engine.md).
// clang-format off
constexpr std::array<std::string_view, 7> kSearchSettings = {"cpuct", "fpu", "ptemp", "lcb", "lead", "solver", "transpose"};
// clang-format on

Perspective perspective_of(const json& value) {
  const auto view = value.is_string() ? perspective_named(value.get<std::string>()) : std::nullopt;
  if (!view)
    throw QueryError("overrideSettings", "\"reportAnalysisWinratesAs\" must be \"BLACK\", \"WHITE\" or \"SIDETOMOVE\"");
  return *view;
}

// {"reportAnalysisWinratesAs":"BLACK","analysisPVLen":5,"maxTime":2,"cpuct":1.2}; `unknown` gets
// "overrideSettings.NAME" for a setting it does not know.
Settings settings_field(const json& line, std::vector<std::string>& unknown) {
  Settings settings;
  if (!line.contains("overrideSettings")) return settings;
  const json& given = line["overrideSettings"];
  if (!given.is_object()) throw QueryError("overrideSettings", "\"overrideSettings\" must be an object of settings");
  for (const auto& [name, value] : given.items()) {
    if (name == "reportAnalysisWinratesAs") {
      settings.report_as = perspective_of(value);
    } else if (name == "analysisPVLen") {
      settings.pv_length = int_in(value, "overrideSettings", 0, 1000, "analysisPVLen");
    } else if (name == "maxTime") {  // a cap beside the visits, as KataGo's
      if (!value.is_number() || value.get<double>() <= 0 || value.get<double>() > 3600)
        throw QueryError("overrideSettings", "\"maxTime\" must be seconds above 0, at most 3600");
      settings.max_time_s = value;
    } else if (std::ranges::find(kSearchSettings, name) != kSearchSettings.end()) {
      const bool switch_setting = name == "solver" || name == "transpose";
      if (!value.is_number() && !(switch_setting && value.is_boolean()))
        throw QueryError("overrideSettings",
                         "\"" + name + "\" must be " + (switch_setting ? "true or false" : "a number"));
      const std::string text = value.is_boolean() ? (value.get<bool>() ? "1" : "0") : value.dump();
      settings.search_spec += (settings.search_spec.empty() ? "" : ",") + name + "=" + text;
    } else {
      unknown.push_back("overrideSettings." + name);
    }
  }
  return settings;
}

}  // namespace

std::optional<Perspective> perspective_named(const std::string& name) {
  const std::string lower = lower_case(name);
  if (lower == "black") return Perspective::kBlack;
  if (lower == "white") return Perspective::kWhite;
  if (lower == "sidetomove") return Perspective::kSideToMove;
  return std::nullopt;
}

Query read_query(const json& line, std::vector<std::string>& unknown) {
  // clang-format off
  constexpr std::array<std::string_view, 17> kFields = {
      "id", "initialFen", "variant", "moves", "analyzeTurns", "maxVisits", "includePolicy", "includeOwnership",
      "includeOwnershipStdev", "includeMovesOwnership", "includeMovesOwnershipStdev", "includePVVisits",
      "reportDuringSearchEvery", "priority", "avoidMoves", "allowMoves", "overrideSettings"};
  // clang-format on
  Query query;
  query.id = id_of(line);
  for (const auto& [field, value] : line.items())
    if (std::ranges::find(kFields, field) == kFields.end()) unknown.push_back(field);
  query.initial_fen = string_field(line, "initialFen");
  query.variant = string_field(line, "variant");
  if (line.contains("initialFen") && query.initial_fen.empty())
    throw QueryError("initialFen", "\"initialFen\" is empty: give a FEN, or leave it out for the variant's start");
  if (line.contains("variant") && query.variant.empty())
    throw QueryError("variant", "\"variant\" is empty: name one, or leave it out for the game of initialFen");
  if (line.contains("moves")) {
    if (!line["moves"].is_array()) throw QueryError("moves", "\"moves\" must be a list of moves");
    for (const json& move : line["moves"]) {
      if (!move.is_string()) throw QueryError("moves", "\"moves\" must be a list of moves, each a string");
      query.moves.push_back(move);
    }
  }
  const std::optional<std::vector<int>> turns = turns_field(line, "analyzeTurns");
  if (turns && turns->empty())
    throw QueryError(
        "analyzeTurns",
        "\"analyzeTurns\" is empty: name the turns to analyse, or leave it out for the turn after the last move");
  query.analyze_turns = turns.value_or(std::vector<int>{});
  std::ranges::sort(query.analyze_turns);  // each turn once, in order
  query.analyze_turns.erase(std::ranges::unique(query.analyze_turns).begin(), query.analyze_turns.end());
  if (line.contains("priority")) query.priority = int_in(line["priority"], "priority", -1'000'000, 1'000'000);
  if (line.contains("maxVisits")) query.max_visits = int_in(line["maxVisits"], "maxVisits", 1, kMostVisits);
  query.include_policy = bool_field(line, "includePolicy");
  query.include_ownership = bool_field(line, "includeOwnership");
  query.include_ownership_stdev = bool_field(line, "includeOwnershipStdev");
  query.include_moves_ownership = bool_field(line, "includeMovesOwnership");
  query.include_moves_ownership_stdev = bool_field(line, "includeMovesOwnershipStdev");
  query.include_pv_visits = bool_field(line, "includePVVisits");
  if (line.contains("reportDuringSearchEvery")) {
    const json& every = line["reportDuringSearchEvery"];
    if (!every.is_number() || every.get<double>() < 0.01 || every.get<double>() > 3600)
      throw QueryError("reportDuringSearchEvery", "\"reportDuringSearchEvery\" must be seconds from 0.01 to 3600");
    query.report_every_s = every;
  }
  query.avoid_moves = restrictions_field(line, "avoidMoves");
  query.allow_moves = restrictions_field(line, "allowMoves");
  if (query.allow_moves.size() > 1) throw QueryError("allowMoves", "\"allowMoves\" takes one entry at most");
  query.settings = settings_field(line, unknown);
  return query;
}

Action read_action(const json& line) {
  Action action;
  action.id = id_of(line);
  action.name = string_field(line, "action");
  if (action.name != "terminate" && action.name != "terminate_all" && action.name != "query_version" &&
      action.name != "clear_cache")
    throw QueryError("action",
                     "unknown action '" + action.name + "' (terminate, terminate_all, query_version or clear_cache)");
  action.terminate_id = line.contains("terminateId") ? string_field(line, "terminateId") : action.id;
  action.turns = turns_field(line, "turnNumbers");
  return action;
}

}  // namespace ataxx::analysis
