#pragma once
// Gives freed heap pages back to the system at once, for the steps that free much memory in
// one thread's arena while another allocates (the analysis workers' results moved into the
// merged project lists).

namespace cnready {

/// glibc: malloc_trim. jemalloc (the programs link it when installed; core does not depend on
/// it, so it is looked up at run time): purge every arena's dirty pages now instead of letting
/// them decay over the next seconds. Values are unchanged; only resident memory drops.
void releaseFreedMemory();

} // namespace cnready
