// small_vec.h - a vector that keeps up to N elements inside itself.
//
// Node's control inputs, literals and inputs are almost always short (a
// binary operation has one literal and two inputs), so keeping them inline
// saves two or three heap allocations per node: reading a 1M-node function
// no longer makes millions of small mallocs, and the node's operands sit
// next to it in memory. The interface is the subset of std::vector the
// project uses, with the same meaning; elements beyond N go to the heap.
//
// Layout (small, because a function holds millions of these): one 32-bit
// word (size, plus a flag bit saying the elements are on the heap) and a
// buffer that holds either the inline elements or the heap pointer. The
// heap block keeps its capacity in a small header in front of the elements.
// So SmallVec<uint32_t, 1> is 12 bytes (and holds 2 inline: the pointer's
// room), SmallVec<uint32_t, 3> 16 bytes. The size is limited to 2^31 - 1.
//
// Element types that are trivially relocatable (moving one and destroying
// the source is a byte copy: trivially copyable types, and those that say so
// with is_trivially_relocatable, like Literal) are moved with memcpy.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <iterator>
#include <memory>
#include <new>
#include <type_traits>
#include <utility>

namespace pl {

// Specialize to true for types whose move-then-destroy is a byte copy.
template <typename T>
struct is_trivially_relocatable : std::is_trivially_copyable<T> {};

// Specialize with `static bool test(const unsigned char* bytes)`, true when
// the element whose storage starts at `bytes` may own something its
// destructor must release (tested on any inline slot, live or not), so
// clearing a short inline list takes no branch per element.
template <typename T>
struct may_own_resources {
  static bool test(const unsigned char*) { return true; }
};

template <typename T, uint32_t N>
class SmallVec {
  static constexpr size_t kBufBytes = N * sizeof(T) > sizeof(T*) ? N * sizeof(T) : sizeof(T*);
  static constexpr size_t kBufAlign = alignof(T) > alignof(uint32_t) ? alignof(T) : alignof(uint32_t);
  static constexpr uint32_t kInline = static_cast<uint32_t>(kBufBytes / sizeof(T));
  static constexpr uint32_t kHeapBit = 0x80000000u;
  static constexpr uint32_t kSizeMask = 0x7FFFFFFFu;
  // Heap block: capacity (uint32_t) in a header that keeps the elements aligned.
  static constexpr size_t kHeader = alignof(T) > 8 ? alignof(T) : 8;
  static constexpr bool kRelocatable = is_trivially_relocatable<T>::value;
  static_assert(alignof(T) <= __STDCPP_DEFAULT_NEW_ALIGNMENT__);
  static_assert(N >= 1);

 public:
  using value_type = T;
  using size_type = size_t;
  using iterator = T*;
  using const_iterator = const T*;
  using reference = T&;
  using const_reference = const T&;

  SmallVec() noexcept {}
  SmallVec(std::initializer_list<T> init) { assign(init.begin(), init.end()); }
  template <typename It, typename = typename std::iterator_traits<It>::iterator_category>
  SmallVec(It first, It last) { assign(first, last); }
  explicit SmallVec(size_t n) { resize(n); }
  SmallVec(size_t n, const T& value) { assign(n, value); }
  SmallVec(const SmallVec& o) { assign(o.begin(), o.end()); }
  SmallVec(SmallVec&& o) noexcept { take(o); }
  ~SmallVec() {
    if constexpr (std::is_trivially_destructible_v<T>) {
      if (word_ & kHeapBit) free_block(heap());
    } else {
      release();
    }
  }

  SmallVec& operator=(const SmallVec& o) {
    if (this != &o) assign(o.begin(), o.end());
    return *this;
  }
  SmallVec& operator=(SmallVec&& o) noexcept {
    if (this != &o) {
      release();
      take(o);
    }
    return *this;
  }
  SmallVec& operator=(std::initializer_list<T> init) {
    assign(init.begin(), init.end());
    return *this;
  }

  size_t size() const { return word_ & kSizeMask; }
  bool empty() const { return size() == 0; }
  size_t capacity() const { return on_heap() ? heap_capacity() : kInline; }
  T* data() { return ptr(); }
  const T* data() const { return ptr(); }
  T* begin() { return ptr(); }
  T* end() { return ptr() + size(); }
  const T* begin() const { return ptr(); }
  const T* end() const { return ptr() + size(); }
  T& operator[](size_t i) { return ptr()[i]; }
  const T& operator[](size_t i) const { return ptr()[i]; }
  T& front() { return ptr()[0]; }
  const T& front() const { return ptr()[0]; }
  T& back() { return ptr()[size() - 1]; }
  const T& back() const { return ptr()[size() - 1]; }

  void reserve(size_t n) {
    if (n > capacity()) grow_to(n);
  }
  void clear() {
    if constexpr (!std::is_trivially_destructible_v<T>) {
      if (!on_heap()) {
        // One test over every inline slot: the element count (about random
        // in a node list) is not a branch to mispredict.
        const size_t n = size();
        bool release = false;
        for (size_t k = 0; k < kInline; ++k)
          release |= (k < n) & may_own_resources<T>::test(buf_ + k * sizeof(T));
        if (release) [[unlikely]]
          std::destroy(inline_ptr(), inline_ptr() + n);
      } else {
        std::destroy(begin(), end());
      }
    }
    set_size(0);
  }
  // Moves the elements back inline when they fit (frees the heap block).
  void shrink_to_fit() {
    if (!on_heap() || size() > kInline) return;
    T* block = heap();
    const size_t n = size();
    if constexpr (kRelocatable) {
      if (n) std::memcpy(static_cast<void*>(buf_), static_cast<const void*>(block), n * sizeof(T));
    } else {
      std::uninitialized_move(block, block + n, inline_ptr());
      std::destroy(block, block + n);
    }
    free_block(block);
    word_ = static_cast<uint32_t>(n);
  }
  void push_back(const T& v) { emplace_back(v); }
  void push_back(T&& v) { emplace_back(std::move(v)); }
  template <typename... Args>
  T& emplace_back(Args&&... args) {
    const size_t n = size();
    if (n == capacity()) {
      T tmp(std::forward<Args>(args)...);  // args may alias our storage
      grow_to(next_capacity(n + 1));
      T* slot = ::new (ptr() + n) T(std::move(tmp));
      set_size(n + 1);
      return *slot;
    }
    T* slot = ::new (ptr() + n) T(std::forward<Args>(args)...);
    set_size(n + 1);
    return *slot;
  }
  // emplace_back when size() < capacity() is known (as in
  // std::inplace_vector): no growth check.
  template <typename... Args>
  T& unchecked_emplace_back(Args&&... args) {
    const size_t n = size();
    T* slot = ::new (ptr() + n) T(std::forward<Args>(args)...);
    set_size(n + 1);
    return *slot;
  }
  void pop_back() {
    const size_t n = size() - 1;
    std::destroy_at(ptr() + n);
    set_size(n);
  }
  void resize(size_t n) {
    const size_t old = size();
    if (n < old) {
      std::destroy(begin() + n, end());
    } else {
      reserve(n);
      std::uninitialized_value_construct(ptr() + old, ptr() + n);
    }
    set_size(n);
  }
  void resize(size_t n, const T& v) {
    const size_t old = size();
    if (n < old) {
      std::destroy(begin() + n, end());
    } else if (n > old) {
      if (n > capacity()) {
        T copy(v);  // v may alias our storage
        grow_to(n);
        std::uninitialized_fill(ptr() + old, ptr() + n, copy);
      } else {
        std::uninitialized_fill(ptr() + old, ptr() + n, v);
      }
    }
    set_size(n);
  }
  template <typename It, typename = typename std::iterator_traits<It>::iterator_category>
  void assign(It first, It last) {
    const size_t n = static_cast<size_t>(std::distance(first, last));
    if constexpr (std::is_trivially_copyable_v<T> && std::is_pointer_v<It> &&
                  std::is_same_v<std::remove_cv_t<std::remove_pointer_t<It>>, T>) {
      // Plain values from an array (the readers' case): a short list goes
      // inline (a heap block left from a longer list is freed: the readers
      // reuse nodes, and small lists in scattered blocks miss the cache),
      // copied element by element, without a call to memcpy.
      if (n <= kInline) {
        if (on_heap()) [[unlikely]]
          free_block(heap());
        T* out = inline_ptr();
        for (size_t k = 0; k < kInline; ++k)
          if (k < n) out[k] = first[k];
        word_ = static_cast<uint32_t>(n);
        return;
      }
      set_size(0);
      reserve(n);
      if (n) std::memcpy(static_cast<void*>(ptr()), first, n * sizeof(T));
    } else {
      clear();
      reserve(n);
      T* out = ptr();
      for (size_t k = 0; first != last; ++first, ++k) ::new (out + k) T(*first);
    }
    set_size(n);
  }
  // For the encodings' bulk copies of plain values (trivially copyable T),
  // without a branch per element on the usual short lists:
  // assign_padded(first, n) is assign(first, first + n) where
  // first[0 .. max(n, kInlineCapacity)) may all be read;
  // copy_padded(out) copies the elements to out[0 .. size()) and may write
  // out[size() .. kInlineCapacity) too.
  static constexpr size_t kInlineCapacity = kInline;
  void assign_padded(const T* first, size_t n) {
    static_assert(std::is_trivially_copyable_v<T>);
    if (n <= kInline) {
      if (on_heap()) [[unlikely]]
        free_block(heap());
      std::memcpy(buf_, first, kInline * sizeof(T));
      word_ = static_cast<uint32_t>(n);
      return;
    }
    assign(first, first + n);
  }
  void copy_padded(T* out) const {
    static_assert(std::is_trivially_copyable_v<T>);
    if (!on_heap()) {
      std::memcpy(out, buf_, kInline * sizeof(T));
      return;
    }
    std::memcpy(out, heap(), size() * sizeof(T));
  }
  void assign(size_t n, const T& v) {
    if (n > capacity()) {
      T copy(v);  // v may alias our storage
      clear();
      resize(n, copy);
    } else {
      clear();
      resize(n, v);
    }
  }
  void assign(std::initializer_list<T> init) { assign(init.begin(), init.end()); }
  T* insert(const T* pos, T v) {
    size_t at = static_cast<size_t>(pos - begin());
    emplace_back(std::move(v));
    std::rotate(begin() + at, end() - 1, end());
    return begin() + at;
  }
  template <typename It, typename = typename std::iterator_traits<It>::iterator_category>
  T* insert(const T* pos, It first, It last) {
    size_t at = static_cast<size_t>(pos - begin());
    size_t old = size();
    for (; first != last; ++first) emplace_back(*first);
    std::rotate(begin() + at, begin() + old, end());
    return begin() + at;
  }
  T* erase(const T* pos) { return erase(pos, pos + 1); }
  T* erase(const T* first, const T* last) {
    T* f = begin() + (first - begin());
    T* l = begin() + (last - begin());
    T* new_end = std::move(l, end(), f);
    std::destroy(new_end, end());
    set_size(static_cast<size_t>(new_end - begin()));
    return f;
  }

  friend bool operator==(const SmallVec& a, const SmallVec& b) {
    return std::equal(a.begin(), a.end(), b.begin(), b.end());
  }

 private:
  bool on_heap() const { return (word_ & kHeapBit) != 0; }
  T* heap() const {
    T* p;
    std::memcpy(&p, buf_, sizeof p);
    return p;
  }
  T* inline_ptr() { return std::launder(reinterpret_cast<T*>(buf_)); }
  const T* inline_ptr() const { return std::launder(reinterpret_cast<const T*>(buf_)); }
  T* ptr() { return on_heap() ? heap() : inline_ptr(); }
  const T* ptr() const { return on_heap() ? heap() : inline_ptr(); }
  void set_size(size_t n) { word_ = (word_ & kHeapBit) | static_cast<uint32_t>(n); }
  size_t heap_capacity() const {
    uint32_t cap;
    std::memcpy(&cap, reinterpret_cast<const unsigned char*>(heap()) - kHeader, sizeof cap);
    return cap;
  }
  static size_t next_capacity(size_t need) {
    return std::max<size_t>({need, 2 * static_cast<size_t>(kInline) + 4, 2 * (need - 1)});
  }

  static T* alloc_block(size_t n) {
    auto* raw = static_cast<unsigned char*>(::operator new(kHeader + n * sizeof(T)));
    const auto cap = static_cast<uint32_t>(n);
    std::memcpy(raw, &cap, sizeof cap);
    return reinterpret_cast<T*>(raw + kHeader);
  }
  static void free_block(T* p) { ::operator delete(reinterpret_cast<unsigned char*>(p) - kHeader); }

  // Moves the elements to a new heap block of capacity n (n >= size()).
  void grow_to(size_t n) {
    if (n > kSizeMask) throw std::bad_alloc();
    T* fresh = alloc_block(n);
    const size_t count = size();
    T* old = ptr();
    if constexpr (kRelocatable) {
      if (count) std::memcpy(static_cast<void*>(fresh), static_cast<const void*>(old), count * sizeof(T));
    } else {
      std::uninitialized_move(old, old + count, fresh);
      std::destroy(old, old + count);
    }
    if (on_heap()) free_block(old);
    std::memcpy(buf_, &fresh, sizeof fresh);
    word_ = kHeapBit | static_cast<uint32_t>(count);
  }
  void release() {
    clear();
    if (on_heap()) free_block(heap());
    word_ = 0;
  }
  // Takes o's elements (this is empty and inline); leaves o empty. Copying
  // the whole buffer, unused bytes included, is deliberate (one fixed-size
  // copy, no branch on the size); GCC cannot see that the unused bytes are
  // never read and warns, so the warning is off here alone.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
  void take(SmallVec& o) {
    if (o.on_heap() || kRelocatable) {
      std::memcpy(buf_, o.buf_, sizeof buf_);
      word_ = o.word_;
      o.word_ = 0;
      return;
    }
    const size_t n = o.size();
    std::uninitialized_move(o.begin(), o.end(), inline_ptr());
    word_ = static_cast<uint32_t>(n);
    o.clear();
  }
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

  uint32_t word_ = 0;  // size | kHeapBit
  alignas(kBufAlign) unsigned char buf_[kBufBytes] = {};  // zeroed: every slot test reads set bytes
};

}  // namespace pl
