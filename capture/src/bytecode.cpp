// CPython 3.11 bytecode decoding, the only place that knows the version's
// encoding. Opcode numbers and inline cache sizes come from the running
// interpreter's `opcode` module; EXTENDED_ARG, relative jumps, the operands'
// packing (decode_operand), the exception table and line table formats are the
// 3.11 ones. Later versions add their own branch here.
#include "bytecode.h"

#include <Python.h>

#include <unordered_map>

#include "interned.h"

namespace fxcap {
namespace {

struct OpcodeTables {
  std::vector<Op> op_of_raw = std::vector<Op>(256, Op::Unknown);
  std::vector<std::string> name_of_raw = std::vector<std::string>(256);
  std::vector<int> cache_entries = std::vector<int>(256, 0);
  std::vector<bool> relative_jump = std::vector<bool>(256, false);
  std::vector<bool> backward_jump = std::vector<bool>(256, false);
};

const OpcodeTables& tables() {
  static OpcodeTables* t = [] {
    auto* out = new OpcodeTables();
    static const std::unordered_map<std::string, Op> by_name = {
#define FXCAP_NAME(name) {#name, Op::name},
        FXCAP_OPCODES(FXCAP_NAME)
#undef FXCAP_NAME
    };
    py::module_ opcode = py::module_::import("opcode");
    py::list names = opcode.attr(interned("opname"));
    py::list caches = opcode.attr(interned("_inline_cache_entries"));
    for (int raw = 0; raw < 256 && raw < static_cast<int>(names.size()); ++raw) {
      std::string name = py::str(names[raw]);
      out->name_of_raw[raw] = name;
      auto it = by_name.find(name);
      if (it != by_name.end()) out->op_of_raw[raw] = it->second;
      if (raw < static_cast<int>(caches.size())) out->cache_entries[raw] = caches[raw].cast<int>();
      out->backward_jump[raw] = name.find("BACKWARD") != std::string::npos;
    }
    for (auto raw : opcode.attr(interned("hasjrel"))) out->relative_jump[raw.cast<int>()] = true;
    return out;
  }();
  return *t;
}

// 3.11 exception table: varints of 6-bit groups, 0x40 = more follows,
// 0x80 marks the first byte of an entry.
int read_varint(const unsigned char* data, size_t size, size_t& pos) {
  if (pos >= size) return -1;
  unsigned char b = data[pos++];
  int value = b & 63;
  while (b & 64) {
    if (pos >= size) return -1;
    b = data[pos++];
    value = (value << 6) | (b & 63);
  }
  return value;
}

// The operand's meaning for the handlers (bytecode.h). Most 3.11 operands are
// already it; these are the ones 3.11 packs, or spreads over instructions.
// `kw_names` carries a KW_NAMES operand to the CALL it precedes.
void decode_operand(Instr& in, int& kw_names) {
  in.arg = in.oparg;
  switch (in.op) {
    case Op::LOAD_GLOBAL:  // the name index shifted left; the low bit asks for a NULL first
      in.arg = in.oparg >> 1;
      in.push_null = (in.oparg & 1) != 0;
      break;
    case Op::UNPACK_EX:  // targets before the starred one in the low byte, after it above
      in.arg = in.oparg & 0xFF;
      in.arg2 = in.oparg >> 8;
      break;
    case Op::KW_NAMES:  // names the keyword arguments of the next CALL (PRECALL sits between)
      kw_names = in.oparg;
      break;
    case Op::CALL:
      in.kw_names = kw_names;
      kw_names = -1;
      break;
    // 3.11's NB_* numbering is BinaryOperator's; an unknown one is reported when run.
    case Op::BINARY_OP:
    // 3.11's operand is the rich comparison (Py_LT ... Py_GE) itself.
    case Op::COMPARE_OP:
    // 3.11's flag bits are the ones bytecode.h names (for FORMAT_VALUE, checked below).
    case Op::MAKE_FUNCTION:
    case Op::FORMAT_VALUE:
    default:
      break;
  }
}

static_assert(kFormatConversionMask == FVC_MASK && kFormatStr == FVC_STR && kFormatRepr == FVC_REPR &&
              kFormatAscii == FVC_ASCII && kFormatHasSpec == FVS_HAVE_SPEC);

bool op_supported(Op op) {
  switch (op) {
    case Op::Unknown:
    case Op::CACHE:
    case Op::EXTENDED_ARG:
      return false;
    default:
      return true;
  }
}

DecodedCode decode_uncached(py::handle code) {
  const OpcodeTables& t = tables();
  DecodedCode out;
  out.code = py::reinterpret_borrow<py::object>(code);
  out.names = code.attr(interned("co_names"));
  out.consts = code.attr(interned("co_consts"));
  out.name = py::str(code.attr(interned("co_name")));
  out.filename = py::str(code.attr(interned("co_filename")));
  out.firstlineno = code.attr(interned("co_firstlineno")).cast<int>();
  out.argcount = code.attr(interned("co_argcount")).cast<int>();
  out.posonlyargcount = code.attr(interned("co_posonlyargcount")).cast<int>();
  out.kwonlyargcount = code.attr(interned("co_kwonlyargcount")).cast<int>();
  out.flags = code.attr(interned("co_flags")).cast<int>();

  // Fast locals, then cell variables that are not arguments, then free variables.
  for (auto n : code.attr(interned("co_varnames"))) out.localsplus_names.push_back(py::str(n));
  out.nlocals = static_cast<int>(out.localsplus_names.size());
  for (auto n : code.attr(interned("co_cellvars"))) {
    std::string name = py::str(n);
    bool shared = false;
    for (int i = 0; i < out.nlocals; ++i) shared |= out.localsplus_names[i] == name;
    if (!shared) out.localsplus_names.push_back(name);
  }
  out.first_free = static_cast<int>(out.localsplus_names.size());
  for (auto n : code.attr(interned("co_freevars"))) out.localsplus_names.push_back(py::str(n));

  py::bytes raw_code = code.attr(interned("co_code"));
  std::string bytes = raw_code;
  std::vector<int> index_at_byte(bytes.size() + 2, -1);
  int ext = 0;
  int ext_start = -1;
  int kw_names = -1;
  for (size_t pos = 0; pos + 1 < bytes.size();) {
    int raw = static_cast<unsigned char>(bytes[pos]);
    int arg = static_cast<unsigned char>(bytes[pos + 1]) | ext;
    if (t.op_of_raw[raw] == Op::EXTENDED_ARG) {
      ext = arg << 8;
      if (ext_start < 0) ext_start = static_cast<int>(pos);
      pos += 2;
      continue;
    }
    Instr in;
    in.op = t.op_of_raw[raw];
    in.opname = t.name_of_raw[raw];
    in.oparg = arg;
    decode_operand(in, kw_names);
    in.offset = static_cast<int>(pos);
    int index = static_cast<int>(out.instrs.size());
    index_at_byte[pos] = index;
    if (ext_start >= 0) index_at_byte[ext_start] = index;  // jumps may land on the prefix
    if (t.relative_jump[raw]) {
      int next = static_cast<int>(pos) + 2;  // 3.11 jumps are relative to the next code unit
      in.target = t.backward_jump[raw] ? next - 2 * arg : next + 2 * arg;  // byte offset for now
    }
    out.instrs.push_back(in);
    ext = 0;
    ext_start = -1;
    pos += 2 + 2 * static_cast<size_t>(t.cache_entries[raw]);
  }
  for (auto& in : out.instrs) {
    if (in.target >= 0) {
      int byte = in.target;
      in.target = (byte >= 0 && byte < static_cast<int>(index_at_byte.size())) ? index_at_byte[byte] : -1;
      if (in.target < 0) in.op = Op::Unknown;  // malformed jump: refuse rather than guess
    }
  }

  // Source lines: co_lines() yields (start, end, line) byte ranges.
  for (auto item : code.attr(interned("co_lines"))()) {
    auto tup = py::reinterpret_borrow<py::tuple>(item);
    int start = tup[0].cast<int>();
    int end = tup[1].cast<int>();
    if (tup[2].is_none()) continue;
    int line = tup[2].cast<int>();
    for (auto& in : out.instrs)
      if (in.offset >= start && in.offset < end) in.line = line;
  }
  int last_line = out.firstlineno;
  for (auto& in : out.instrs) {
    if (in.line < 0) in.line = last_line;
    last_line = in.line;
  }

  py::bytes table_obj = code.attr(interned("co_exceptiontable"));
  std::string table = table_obj;
  const auto* data = reinterpret_cast<const unsigned char*>(table.data());
  size_t pos = 0;
  auto index_at = [&](int units) {
    int byte = units * 2;
    if (byte >= static_cast<int>(index_at_byte.size())) return static_cast<int>(out.instrs.size());
    // The first instruction at or after this byte.
    for (int b = byte; b < static_cast<int>(index_at_byte.size()); ++b)
      if (index_at_byte[b] >= 0) return index_at_byte[b];
    return static_cast<int>(out.instrs.size());
  };
  while (pos < table.size()) {
    int start = read_varint(data, table.size(), pos);
    int length = read_varint(data, table.size(), pos);
    int target = read_varint(data, table.size(), pos);
    int depth_lasti = read_varint(data, table.size(), pos);
    if (start < 0 || length < 0 || target < 0 || depth_lasti < 0) break;
    HandlerEntry e;
    e.start = index_at(start);
    e.end = index_at(start + length);
    e.target = index_at(target);
    e.depth = depth_lasti >> 1;
    e.push_lasti = (depth_lasti & 1) != 0;
    out.handlers.push_back(e);
  }

  for (size_t i = 0; i < out.instrs.size(); ++i) {
    if (!op_supported(out.instrs[i].op)) {
      out.first_unsupported = static_cast<int>(i);
      break;
    }
  }
  return out;
}

}  // namespace

int DecodedCode::argument_slots() const {
  return argcount + kwonlyargcount + ((flags & kCoVarargs) ? 1 : 0) + ((flags & kCoVarkeywords) ? 1 : 0);
}

int DecodedCode::index_of_offset(int offset) const {
  for (size_t i = 0; i < instrs.size(); ++i)
    if (instrs[i].offset >= offset) return static_cast<int>(i);
  return static_cast<int>(instrs.size());
}

const HandlerEntry* DecodedCode::handler_for(int i) const {
  for (const auto& e : handlers)
    if (i >= e.start && i < e.end) return &e;
  return nullptr;
}

const DecodedCode& decode(py::handle code) {
  // Code objects are immutable; the cache holds a reference so ids stay unique.
  static std::unordered_map<PyObject*, DecodedCode>* cache = new std::unordered_map<PyObject*, DecodedCode>();
  auto it = cache->find(code.ptr());
  if (it != cache->end()) return it->second;
  return cache->emplace(code.ptr(), decode_uncached(code)).first->second;
}

}  // namespace fxcap
