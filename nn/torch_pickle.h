// The pickle of a LibTorch archive (its `data.pkl`), read without LibTorch: the protocol-2 subset
// its serializer writes for modules (objects of `__torch__` classes whose state is a dict of
// attributes), numbers, text, tuples, lists, dicts and tensors (`_rebuild_tensor_v2` of a
// persistent storage). Anything else, and any malformed pickle, is a PickleError. Plain C++.
#pragma once

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace ataxx {

class PickleError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A tensor as the pickle describes it: a view of a storage (the archive's `data/<key>` entry).
struct PickledTensor {
  std::string storage_key;
  std::string storage_type;  // "FloatStorage", "LongStorage", ...
  std::int64_t storage_elements = 0;
  std::int64_t offset = 0;
  std::vector<std::int64_t> sizes, strides;
};

struct PickleValue {
  enum class Kind { kNone, kBool, kInt, kFloat, kString, kTuple, kList, kDict, kObject, kGlobal, kStorage, kTensor };
  Kind kind = Kind::kNone;
  std::int64_t integer = 0;  // kBool, kInt
  double real = 0;           // kFloat
  std::string text;          // kString; kGlobal and kObject: "module name" of the class
  // kTuple and kList: the items; kDict: keys and values alternating; kObject: its state (one
  // value) once built.
  std::vector<std::shared_ptr<PickleValue>> items;
  PickledTensor tensor;  // kTensor; kStorage: the storage fields only
  int depth = 1;         // nesting, bounded (see torch_pickle.cpp)
  bool sealed = false;   // inside another value: no longer changed

  // The value under a string key of a dict (an object's state dict too); null when absent.
  const PickleValue* field(std::string_view key) const;
};

// Throws PickleError.
std::shared_ptr<PickleValue> unpickle(std::string_view bytes);

// A float32 tensor's values, row-major, from its storage's bytes (the archive's `data/<key>`).
// Throws PickleError for another type, or a view (sizes, strides, offset) that reaches past the
// storage, or a storage shorter than the tensor says.
std::vector<float> float_values(const PickledTensor& tensor, std::string_view storage);
// The same for an int64 tensor (a norm's count of batches).
std::vector<std::int64_t> integer_values(const PickledTensor& tensor, std::string_view storage);

}  // namespace ataxx
