// small_vec.h - a vector that keeps up to N elements inside itself.
//
// Node's control inputs, literals and inputs are almost always short (a
// binary operation has one literal and two inputs), so keeping them inline
// saves two or three heap allocations per node: reading a 1M-node function
// no longer makes millions of small mallocs, and the node's operands sit
// next to it in memory. The interface is the subset of std::vector the
// project uses, with the same meaning; elements beyond N go to the heap.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <iterator>
#include <memory>
#include <new>
#include <type_traits>
#include <utility>

namespace pl {

template <typename T, uint32_t N>
class SmallVec {
 public:
  using value_type = T;
  using size_type = size_t;
  using iterator = T*;
  using const_iterator = const T*;
  using reference = T&;
  using const_reference = const T&;

  SmallVec() = default;
  SmallVec(std::initializer_list<T> init) { assign(init.begin(), init.end()); }
  template <typename It, typename = typename std::iterator_traits<It>::iterator_category>
  SmallVec(It first, It last) { assign(first, last); }
  explicit SmallVec(size_t n) { resize(n); }
  SmallVec(size_t n, const T& value) { assign(n, value); }
  SmallVec(const SmallVec& o) { assign(o.begin(), o.end()); }
  SmallVec(SmallVec&& o) noexcept { take(std::move(o)); }
  ~SmallVec() { release(); }

  SmallVec& operator=(const SmallVec& o) {
    if (this != &o) assign(o.begin(), o.end());
    return *this;
  }
  SmallVec& operator=(SmallVec&& o) noexcept {
    if (this != &o) {
      release();
      take(std::move(o));
    }
    return *this;
  }
  SmallVec& operator=(std::initializer_list<T> init) {
    assign(init.begin(), init.end());
    return *this;
  }

  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  size_t capacity() const { return cap_; }
  T* data() { return ptr(); }
  const T* data() const { return ptr(); }
  T* begin() { return ptr(); }
  T* end() { return ptr() + size_; }
  const T* begin() const { return ptr(); }
  const T* end() const { return ptr() + size_; }
  T& operator[](size_t i) { return ptr()[i]; }
  const T& operator[](size_t i) const { return ptr()[i]; }
  T& front() { return ptr()[0]; }
  const T& front() const { return ptr()[0]; }
  T& back() { return ptr()[size_ - 1]; }
  const T& back() const { return ptr()[size_ - 1]; }

  void reserve(size_t n) {
    if (n > cap_) grow_to(n);
  }
  void clear() {
    std::destroy(begin(), end());
    size_ = 0;
  }
  void push_back(const T& v) { emplace_back(v); }
  void push_back(T&& v) { emplace_back(std::move(v)); }
  template <typename... Args>
  T& emplace_back(Args&&... args) {
    if (size_ == cap_) {
      T tmp(std::forward<Args>(args)...);  // args may alias our storage
      grow_to(next_capacity(size_ + 1));
      return *::new (ptr() + size_++) T(std::move(tmp));
    }
    return *::new (ptr() + size_++) T(std::forward<Args>(args)...);
  }
  void pop_back() { std::destroy_at(ptr() + --size_); }
  void resize(size_t n) {
    if (n < size_) {
      std::destroy(begin() + n, end());
    } else {
      reserve(n);
      std::uninitialized_value_construct(end(), begin() + n);
    }
    size_ = static_cast<uint32_t>(n);
  }
  void resize(size_t n, const T& v) {
    if (n < size_) {
      std::destroy(begin() + n, end());
    } else {
      reserve(n);
      std::uninitialized_fill(end(), begin() + n, v);
    }
    size_ = static_cast<uint32_t>(n);
  }
  template <typename It, typename = typename std::iterator_traits<It>::iterator_category>
  void assign(It first, It last) {
    clear();
    reserve(static_cast<size_t>(std::distance(first, last)));
    for (; first != last; ++first) ::new (ptr() + size_++) T(*first);
  }
  void assign(size_t n, const T& v) {
    clear();
    resize(n, v);
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
    size_t old = size_;
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
    size_ = static_cast<uint32_t>(new_end - begin());
    return f;
  }

  friend bool operator==(const SmallVec& a, const SmallVec& b) {
    return std::equal(a.begin(), a.end(), b.begin(), b.end());
  }

 private:
  bool is_inline() const { return heap_ == nullptr; }
  T* ptr() { return heap_ ? heap_ : reinterpret_cast<T*>(inline_); }
  const T* ptr() const { return heap_ ? heap_ : reinterpret_cast<const T*>(inline_); }
  static size_t next_capacity(size_t need) { return std::max<size_t>(need, 2 * static_cast<size_t>(N) + 4); }

  void grow_to(size_t n) {
    if (n > UINT32_MAX) throw std::bad_alloc();
    T* fresh = static_cast<T*>(::operator new(n * sizeof(T), std::align_val_t(alignof(T))));
    std::uninitialized_move(begin(), end(), fresh);
    std::destroy(begin(), end());
    free_heap();
    heap_ = fresh;
    cap_ = static_cast<uint32_t>(n);
  }
  void free_heap() {
    if (heap_) ::operator delete(heap_, std::align_val_t(alignof(T)));
    heap_ = nullptr;
  }
  void release() {
    clear();
    free_heap();
    cap_ = N;
  }
  void take(SmallVec&& o) {
    if (o.heap_) {
      heap_ = o.heap_;
      size_ = o.size_;
      cap_ = o.cap_;
      o.heap_ = nullptr;
      o.size_ = 0;
      o.cap_ = N;
      return;
    }
    std::uninitialized_move(o.begin(), o.end(), ptr());
    size_ = o.size_;
    o.clear();
  }

  T* heap_ = nullptr;
  uint32_t size_ = 0;
  uint32_t cap_ = N;
  alignas(T) unsigned char inline_[N * sizeof(T)];
};

}  // namespace pl
