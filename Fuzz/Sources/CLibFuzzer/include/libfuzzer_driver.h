// libFuzzer's entry for programs that have their own main: SwiftPM gives every executable
// its own entry point (and links with it), so the fuzzers call the driver from main.swift
// instead of relying on libFuzzer's main. Linked by -sanitize=fuzzer.
#ifndef LIBFUZZER_DRIVER_H
#define LIBFUZZER_DRIVER_H

#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));

#endif
