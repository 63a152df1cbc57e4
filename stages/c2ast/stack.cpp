// stack.cpp - room for recursion over deeply nested C.
//
// clang and c2ast both walk expression trees recursively in places (clang's
// -Wunsequenced checker does so whatever the warning flags), and a
// 100,000-term `a+a+...+a` is a tree that deep. So clang and the conversion
// run on a thread with a large stack (kStackSizes; only the pages touched
// are ever mapped), and FunctionBuilder::deep() moves the conversion to a
// fresh such thread when less than kStackReserve is left on the current
// one. Exceptions thrown on a helper thread are rethrown on the caller's.
#include <pthread.h>

#include <cstdint>
#include <stdexcept>

#include "c2ast.h"

namespace pl::c2ast {

namespace {

// Stack sizes to try, largest first (a system may refuse to reserve the
// first); only the pages touched are ever mapped.
constexpr size_t kStackSizes[] = {size_t{512} << 20, size_t{64} << 20};
constexpr size_t kStackReserve = size_t{1} << 20;

struct ThreadCall {
  llvm::function_ref<void()> fn;
  std::exception_ptr error;
};

void* thread_entry(void* arg) {
  auto* call = static_cast<ThreadCall*>(arg);
  try {
    call->fn();
  } catch (...) {
    call->error = std::current_exception();
  }
  return nullptr;
}

}  // namespace

uintptr_t stack_limit() {
  pthread_attr_t attr;
  void* low = nullptr;
  size_t size = 0;
  if (pthread_getattr_np(pthread_self(), &attr) != 0) return 0;
  pthread_attr_getstack(&attr, &low, &size);
  pthread_attr_destroy(&attr);
  return reinterpret_cast<uintptr_t>(low) + kStackReserve;
}

void run_on_new_stack(llvm::function_ref<void()> fn) {
  ThreadCall call{fn, nullptr};
  for (size_t size : kStackSizes) {
    pthread_attr_t attr;
    pthread_t thread;
    if (pthread_attr_init(&attr) != 0) break;
    bool started = pthread_attr_setstacksize(&attr, size) == 0 &&
                   pthread_create(&thread, &attr, thread_entry, &call) == 0;
    pthread_attr_destroy(&attr);
    if (!started) continue;
    pthread_join(thread, nullptr);
    if (call.error) std::rethrow_exception(call.error);
    return;
  }
  throw std::runtime_error("cannot start a thread with a large stack for deeply nested code");
}

}  // namespace pl::c2ast
