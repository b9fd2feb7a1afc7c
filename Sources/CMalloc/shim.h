// glibc's malloc tuning (mallopt), which Swift's Glibc module does not include. See Sources/nudge/main.swift.
#include <malloc.h>
