// PLACEHOLDER (being written): json encoding.
#include "format.h"
#include "error.h"
namespace pl {
std::unique_ptr<ModuleReader> make_json_reader(ByteSource&) { throw FormatError(Where{}, "json reader not built yet"); }
std::unique_ptr<ModuleWriter> make_json_writer(ByteSink&) { throw FormatError(Where{}, "json writer not built yet"); }
}
