// PLACEHOLDER (being written): text encoding.
#include "format.h"
#include "error.h"
namespace pl {
std::unique_ptr<ModuleReader> make_text_reader(ByteSource&) { throw FormatError(Where{}, "text reader not built yet"); }
std::unique_ptr<ModuleWriter> make_text_writer(ByteSink&) { throw FormatError(Where{}, "text writer not built yet"); }
}
#include "text_format.h"
namespace pl {
std::string print_node_line(const Function& fn, NodeId id) { return "i" + std::to_string(id) + " = " + std::string(fn.op_name(fn.nodes[id].op)); }
}
