import CMalloc
import Foundation

// Blocks of 4 MB and more (the parsed tape of a big file, the plan's bytes) always come from mmap and go back to
// the system when freed. By default glibc raises this threshold after the first such block is freed, and a later
// 27 MB tape then stays in the heap after decoding, through all of planning: 9 MB more peak memory on the scale
// fixture (105.6 MB against 97.9 MB). A lower threshold saved no more and cost page faults.
_ = mallopt(M_MMAP_THRESHOLD, 4 << 20)

exit(NudgeCLI.main(Array(CommandLine.arguments.dropFirst())))
