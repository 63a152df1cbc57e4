// PLACEHOLDER (being written): text encoding.
#include "format.h"
#include "error.h"
namespace pl {
std::unique_ptr<ModuleReader> make_text_reader(ByteSource&) { throw FormatError(Where{}, "text reader not built yet"); }
std::unique_ptr<ModuleWriter> make_text_writer(ByteSink&) { throw FormatError(Where{}, "text writer not built yet"); }
}
