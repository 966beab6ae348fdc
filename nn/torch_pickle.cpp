#include "nn/torch_pickle.h"

#include <bit>
#include <cstring>
#include <map>
#include <utility>

namespace ataxx {
namespace {

using Value = std::shared_ptr<PickleValue>;
using Kind = PickleValue::Kind;

// Deep enough for any module tree; shallow enough that walking or freeing a value cannot exhaust
// the stack however the pickle nests.
constexpr int kMaxDepth = 64;

Value make(Kind kind) {
  auto value = std::make_shared<PickleValue>();
  value->kind = kind;
  return value;
}

Value make_int(std::int64_t integer, Kind kind = Kind::kInt) {
  Value value = make(kind);
  value->integer = integer;
  return value;
}

Value make_text(std::string text, Kind kind) {
  Value value = make(kind);
  value->text = std::move(text);
  return value;
}

// Puts `child` into `parent`. Values already inside another one are never changed again, so no
// value can come to hold itself, and each value's depth stays what it was when it was built.
void adopt(PickleValue& parent, const Value& child) {
  if (parent.sealed) throw PickleError("pickle: a value changed after it was placed in another");
  if (child.get() == &parent) throw PickleError("pickle: a value placed in itself");
  child->sealed = true;
  parent.depth = std::max(parent.depth, child->depth + 1);
  if (parent.depth > kMaxDepth) throw PickleError("pickle: values nested deeper than " + std::to_string(kMaxDepth));
  parent.items.push_back(child);
}

Value make_container(Kind kind, std::vector<Value> items) {
  Value value = make(kind);
  for (const Value& item : items) adopt(*value, item);
  return value;
}

std::vector<std::int64_t> integers_of(const PickleValue& tuple, const char* what) {
  if (tuple.kind != Kind::kTuple) throw PickleError(std::string("pickle: a tensor's ") + what + " is not a tuple");
  std::vector<std::int64_t> values;
  for (const Value& item : tuple.items) {
    if (item->kind != Kind::kInt) throw PickleError(std::string("pickle: a tensor's ") + what + " holds a non-integer");
    values.push_back(item->integer);
  }
  return values;
}

// `persistent_id` of a storage: ('storage', <torch XStorage>, key, location, elements).
Value storage_of(const PickleValue& id) {
  const auto& f = id.items;
  if (id.kind != Kind::kTuple || f.size() != 5 || f[0]->kind != Kind::kString || f[0]->text != "storage" ||
      f[1]->kind != Kind::kGlobal || !f[1]->text.starts_with("torch ") || f[2]->kind != Kind::kString ||
      f[3]->kind != Kind::kString || f[4]->kind != Kind::kInt || f[4]->integer < 0)
    throw PickleError("pickle: a persistent id that is not a tensor storage");
  Value storage = make(Kind::kStorage);
  storage->tensor.storage_type = f[1]->text.substr(6);
  storage->tensor.storage_key = f[2]->text;
  storage->tensor.storage_elements = f[4]->integer;
  return storage;
}

// torch._utils._rebuild_tensor_v2(storage, offset, sizes, strides, requires_grad, hooks[, metadata])
Value tensor_of(const PickleValue& args) {
  const auto& a = args.items;
  if (a.size() < 4 || a[0]->kind != Kind::kStorage || a[1]->kind != Kind::kInt)
    throw PickleError("pickle: _rebuild_tensor_v2 with arguments it does not take");
  Value tensor = make(Kind::kTensor);
  tensor->tensor = a[0]->tensor;
  tensor->tensor.offset = a[1]->integer;
  tensor->tensor.sizes = integers_of(*a[2], "sizes");
  tensor->tensor.strides = integers_of(*a[3], "strides");
  if (tensor->tensor.sizes.size() != tensor->tensor.strides.size())
    throw PickleError("pickle: a tensor with as many sizes as strides");
  return tensor;
}

class Unpickler {
 public:
  explicit Unpickler(std::string_view bytes) : bytes_(bytes) {}

  Value run() {
    while (true) {
      const auto op = static_cast<unsigned char>(take(1)[0]);
      if (op == '.') break;
      step(op);
    }
    if (stack_.size() != 1 || !marks_.empty()) throw PickleError("pickle: STOP with a stack of other than one value");
    return stack_.back();
  }

 private:
  // One opcode, each on a line: the protocol's table as the code.
  void step(unsigned char op) {
    // clang-format off
    switch (op) {
      case 0x80: take(1); return;                                 // PROTO
      case 'c': push(global()); return;                           // GLOBAL
      case 'q': memo_[number<std::uint8_t>()] = top(); return;   // BINPUT
      case 'r': memo_[number<std::uint32_t>()] = top(); return;  // LONG_BINPUT
      case 'h': push(memo(number<std::uint8_t>())); return;      // BINGET
      case 'j': push(memo(number<std::uint32_t>())); return;     // LONG_BINGET
      case '(': marks_.push_back(stack_.size()); return;          // MARK
      case ')': push(make(Kind::kTuple)); return;                 // EMPTY_TUPLE
      case 't': push(make_container(Kind::kTuple, pop_to_mark())); return;
      case 0x85: case 0x86: case 0x87: push(make_container(Kind::kTuple, pop_n(op - 0x84))); return;  // TUPLE1-3
      case ']': push(make(Kind::kList)); return;                  // EMPTY_LIST
      case 'a': append(pop_n(1)); return;                         // APPEND
      case 'e': append(pop_to_mark()); return;                    // APPENDS
      case '}': push(make(Kind::kDict)); return;                  // EMPTY_DICT
      case 's': append(pop_n(2), Kind::kDict); return;            // SETITEM
      case 'u': append(pop_to_mark(), Kind::kDict); return;       // SETITEMS
      case 'X': push(make_text(std::string(take(number<std::uint32_t>())), Kind::kString)); return;  // BINUNICODE
      case 0x8c: push(make_text(std::string(take(number<std::uint8_t>())), Kind::kString)); return;  // SHORT_BINUNICODE
      case 'K': push(make_int(number<std::uint8_t>())); return;   // BININT1
      case 'M': push(make_int(number<std::uint16_t>())); return;  // BININT2
      case 'J': push(make_int(number<std::int32_t>())); return;   // BININT
      case 0x8a: push(make_int(long1())); return;                 // LONG1
      case 'G': push(binfloat()); return;                         // BINFLOAT
      case 'N': push(make(Kind::kNone)); return;                  // NONE
      case 0x88: push(make_int(1, Kind::kBool)); return;          // NEWTRUE
      case 0x89: push(make_int(0, Kind::kBool)); return;          // NEWFALSE
      case 'Q': push(storage_of(*pop())); return;                 // BINPERSID
      case 0x81: new_object(); return;                            // NEWOBJ
      case 'R': reduce(); return;                                 // REDUCE
      case 'b': build(); return;                                  // BUILD
      default: break;
    }
    // clang-format on
    throw PickleError("pickle: opcode 0x" + hex(op) + " at byte " + std::to_string(at_ - 1) +
                      " is not one LibTorch's archives use");
  }

  std::string_view take(std::uint64_t n) {
    if (n > bytes_.size() - at_) throw PickleError("pickle: truncated");
    const std::string_view taken = bytes_.substr(at_, n);
    at_ += n;
    return taken;
  }
  template <typename T>
  T number() {
    T value;
    std::memcpy(&value, take(sizeof value).data(), sizeof value);
    return value;
  }
  std::int64_t long1() {
    const std::uint8_t n = number<std::uint8_t>();
    if (n > 8) throw PickleError("pickle: an integer wider than 64 bits");
    const std::string_view digits = take(n);
    std::uint64_t value = 0;
    for (std::size_t i = 0; i < n; ++i) value |= std::uint64_t{static_cast<std::uint8_t>(digits[i])} << (8 * i);
    if (n > 0 && n < 8 && (digits[n - 1] & 0x80)) value |= ~std::uint64_t{0} << (8 * n);  // sign-extended
    return static_cast<std::int64_t>(value);
  }
  std::string line() {
    const std::size_t end = bytes_.find('\n', at_);
    if (end == std::string_view::npos) throw PickleError("pickle: truncated");
    std::string text(bytes_.substr(at_, end - at_));
    at_ = end + 1;
    return text;
  }
  Value binfloat() {
    Value real = make(Kind::kFloat);
    real->real = std::bit_cast<double>(__builtin_bswap64(number<std::uint64_t>()));  // big-endian
    return real;
  }
  Value global() {
    std::string module = line();  // the two reads in order: an expression's operands are not sequenced
    return make_text(module + " " + line(), Kind::kGlobal);
  }
  static std::string hex(unsigned char op) {
    constexpr char kDigits[] = "0123456789abcdef";
    return {kDigits[op >> 4], kDigits[op & 15]};
  }

  void push(Value value) { stack_.push_back(std::move(value)); }
  const Value& top() const {
    if (stack_.empty() || (!marks_.empty() && marks_.back() == stack_.size()))
      throw PickleError("pickle: stack underflow");
    return stack_.back();
  }
  Value pop() {
    Value value = top();
    stack_.pop_back();
    return value;
  }
  std::vector<Value> pop_n(std::size_t n) {
    std::vector<Value> values(n);
    for (std::size_t i = n; i-- > 0;) values[i] = pop();
    return values;
  }
  std::vector<Value> pop_to_mark() {
    if (marks_.empty()) throw PickleError("pickle: no mark to pop to");
    const std::size_t mark = marks_.back();
    marks_.pop_back();
    std::vector<Value> values(stack_.begin() + static_cast<std::ptrdiff_t>(mark), stack_.end());
    stack_.resize(mark);
    return values;
  }
  Value memo(std::uint32_t key) const {
    const auto it = memo_.find(key);
    if (it == memo_.end()) throw PickleError("pickle: no memo entry " + std::to_string(key));
    return it->second;
  }

  // APPEND(S) to the list, SETITEM(S) to the dict, below the values.
  void append(const std::vector<Value>& values, Kind kind = Kind::kList) {
    if (kind == Kind::kDict && values.size() % 2 != 0) throw PickleError("pickle: a key without its value");
    const Value& container = top();
    if (container->kind != kind) throw PickleError("pickle: items added to a value of another kind");
    for (const Value& value : values) adopt(*container, value);
  }
  void new_object() {
    const Value args = pop(), cls = pop();
    if (cls->kind != Kind::kGlobal || !cls->text.starts_with("__torch__") || args->kind != Kind::kTuple ||
        !args->items.empty())
      throw PickleError("pickle: NEWOBJ of anything but a module class");
    push(make_text(cls->text, Kind::kObject));
  }
  void reduce() {
    const Value args = pop(), callable = pop();
    if (callable->kind != Kind::kGlobal || args->kind != Kind::kTuple)
      throw PickleError("pickle: REDUCE of a non-global");
    if (callable->text == "torch._utils _rebuild_tensor_v2") return push(tensor_of(*args));
    if (callable->text == "collections OrderedDict" && args->items.empty()) return push(make(Kind::kDict));
    throw PickleError("pickle: a call of '" + callable->text + "', which LibTorch's archives do not make");
  }
  void build() {
    const Value state = pop();
    const Value& object = top();
    if (object->kind != Kind::kObject || !object->items.empty()) throw PickleError("pickle: BUILD of a non-object");
    adopt(*object, state);
  }

  std::string_view bytes_;
  std::size_t at_ = 0;
  std::vector<Value> stack_;
  std::vector<std::size_t> marks_;
  std::map<std::uint32_t, Value> memo_;
};

}  // namespace

const PickleValue* PickleValue::field(std::string_view key) const {
  const PickleValue* dict = kind == Kind::kObject && !items.empty() ? items.front().get() : this;
  if (dict->kind != Kind::kDict) return nullptr;
  for (std::size_t i = 0; i + 1 < dict->items.size(); i += 2)
    if (dict->items[i]->kind == Kind::kString && dict->items[i]->text == key) return dict->items[i + 1].get();
  return nullptr;
}

std::shared_ptr<PickleValue> unpickle(std::string_view bytes) { return Unpickler(bytes).run(); }

namespace {

template <typename T>
std::vector<T> stored_values(const PickledTensor& tensor, std::string_view storage, std::string_view type,
                             std::string_view name) {
  if (tensor.storage_type != type) throw PickleError("it is a " + tensor.storage_type + ", not " + std::string(name));
  const auto elements = static_cast<std::uint64_t>(tensor.storage_elements);
  if (elements > storage.size() / sizeof(T)) throw PickleError("its storage is shorter than it says");
  std::uint64_t count = 1;
  for (std::size_t d = 0; d < tensor.sizes.size(); ++d) {
    if (tensor.sizes[d] < 0 || tensor.strides[d] < 0) throw PickleError("it has a negative size or stride");
    count *= static_cast<std::uint64_t>(tensor.sizes[d]);
    if (count > elements) throw PickleError("it has more elements than its storage");
  }
  if (count == 0) return {};
  // The last element the view reads, each step checked before it is taken: no sum can wrap.
  if (tensor.offset < 0 || static_cast<std::uint64_t>(tensor.offset) >= elements)
    throw PickleError("it reaches past its storage");
  std::uint64_t last = static_cast<std::uint64_t>(tensor.offset);
  for (std::size_t d = 0; d < tensor.sizes.size(); ++d) {
    const auto reach = static_cast<std::uint64_t>(tensor.sizes[d] - 1),
               stride = static_cast<std::uint64_t>(tensor.strides[d]);
    if (stride > 0 && reach > (elements - 1 - last) / stride) throw PickleError("it reaches past its storage");
    last += reach * stride;
  }
  std::vector<T> values;
  values.reserve(count);
  std::vector<std::int64_t> index(tensor.sizes.size(), 0);
  for (std::uint64_t i = 0; i < count; ++i) {
    std::uint64_t at = static_cast<std::uint64_t>(tensor.offset);
    for (std::size_t d = 0; d < index.size(); ++d) at += static_cast<std::uint64_t>(index[d] * tensor.strides[d]);
    T value;
    std::memcpy(&value, storage.data() + at * sizeof(T), sizeof value);
    values.push_back(value);
    for (std::size_t d = index.size(); d-- > 0 && ++index[d] == tensor.sizes[d];) index[d] = 0;  // the next index
  }
  return values;
}

}  // namespace

std::vector<float> float_values(const PickledTensor& tensor, std::string_view storage) {
  return stored_values<float>(tensor, storage, "FloatStorage", "float32");
}

std::vector<std::int64_t> integer_values(const PickledTensor& tensor, std::string_view storage) {
  return stored_values<std::int64_t>(tensor, storage, "LongStorage", "int64");
}

}  // namespace ataxx
