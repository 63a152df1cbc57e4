// depfile.h - dependency files in gcc's layout.
#pragma once

#include <string>
#include <string_view>

namespace pl::pipecc {

// clang's Make-style depfile text rewritten as gcc writes it (see
// depfile.cpp); throws std::runtime_error on text that is not one.
std::string gcc_depfile(std::string_view clang_text);

// Rewrites the depfile at `path` in place (atomically); nothing if absent.
void rewrite_depfile(const std::string& path);

}  // namespace pl::pipecc
