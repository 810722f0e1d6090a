// Atomic loads and increments of a 64-bit counter in memory shared between processes
// (a MAP_SHARED mapping of a small file). Swift's Synchronization.Atomic needs storage Swift
// owns; these wrap the compiler builtins for memory that the kernel maps.
#ifndef SHARED_COUNTER_H
#define SHARED_COUNTER_H

#include <stdint.h>

/// The counter's value, with acquire ordering.
static inline uint64_t shared_counter_load(const uint64_t *counter) {
    return __atomic_load_n(counter, __ATOMIC_ACQUIRE);
}

/// Adds one and returns the new value, with acquire-release ordering.
static inline uint64_t shared_counter_increment(uint64_t *counter) {
    return __atomic_add_fetch(counter, 1, __ATOMIC_ACQ_REL);
}

/// Subtracts one and returns the new value, with acquire-release ordering.
static inline uint64_t shared_counter_decrement(uint64_t *counter) {
    return __atomic_sub_fetch(counter, 1, __ATOMIC_ACQ_REL);
}

/// Sets the counter, with release ordering.
static inline void shared_counter_store(uint64_t *counter, uint64_t value) {
    __atomic_store_n(counter, value, __ATOMIC_RELEASE);
}

#endif
