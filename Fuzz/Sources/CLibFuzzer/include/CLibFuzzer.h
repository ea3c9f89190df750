#ifndef CLIBFUZZER_H
#define CLIBFUZZER_H

#include <stddef.h>
#include <stdint.h>

/// libFuzzer's driver entry (compiler-rt, linked by `-sanitize=fuzzer`): parses libFuzzer's flags from argv and
/// fuzzes `callback`. Called from each target's `main.swift`, because SwiftPM renames an executable's entry point
/// and so libFuzzer's own `main` cannot be used.
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));

#endif
