// var_homes.h - where each ast:var of a function lives at the cfg level.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "ir/ir.h"

namespace pl {

// Size in bytes of a value type (i1 and i8: 1, ..., i64 and ptr: 8);
// nullopt for anything else.
std::optional<uint64_t> value_type_size(std::string_view type);

// For each node of an ast function: 1 if it is an ast:var that can live in
// an ssa: slot, 0 otherwise. A var can when it is used at least once, every
// use is the address (input 0) of an ast:load or ast:store (not volatile),
// all these accesses have one type, and that type's size is the var's size.
// Every other var (its address taken, an array, a struct, a volatile one)
// lives in a stackslot. One pass over the nodes.
std::vector<uint8_t> find_slot_vars(const Function& ast);

}  // namespace pl
