// The declaration is in the header; libFuzzer itself comes with -sanitize=fuzzer.
