// PLACEHOLDER (being written): bin encoding.
#include "format.h"
#include "error.h"
namespace pl {
std::unique_ptr<ModuleReader> make_binary_reader(ByteSource&) { throw FormatError(Where{}, "bin reader not built yet"); }
std::unique_ptr<ModuleWriter> make_binary_writer(ByteSink&) { throw FormatError(Where{}, "bin writer not built yet"); }
}
