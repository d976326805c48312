/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * urcu/arch.h - per-architecture facts and CPU memory barriers.
 *
 * Provides the URCU_ARCH_* detection macros, CAA_CACHE_LINE_SIZE, the
 * cmm_*mb() fences, the cmm_*mc() cache-coherence hooks, caa_cpu_relax()
 * and caa_get_cycles().
 *
 * All fences are C11 fences spelled with the __atomic builtins, so the
 * compiler both emits the right instruction for the target and treats
 * them as compiler barriers of the matching strength.  Where the target
 * is TSO (x86), acquire and release fences cost nothing at run time;
 * only the full fence emits an instruction.
 *
 * No inline assembly is used where a compiler builtin exists; the one
 * remaining asm (the ARM "yield" hint) is replaced by a compiler barrier
 * under static analyzers (__clang_analyzer__, __COVERITY__), which then
 * see builtins only.
 */
#ifndef _URCU_ARCH_H
#define _URCU_ARCH_H

#include <stdint.h>
#include <time.h>
#include <urcu/compiler.h>
#include <urcu/config.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------ */
/* Architecture detection.                                             */
/* ------------------------------------------------------------------ */

#if defined(__x86_64__) || defined(__amd64__)
# define URCU_ARCH_X86 1
# define URCU_ARCH_AMD64 1
#elif defined(__i386__)
# define URCU_ARCH_X86 1
# define URCU_ARCH_I386 1
#elif defined(__aarch64__)
# define URCU_ARCH_AARCH64 1
#elif defined(__arm__)
# define URCU_ARCH_ARM 1
# if defined(__ARM_ARCH) && __ARM_ARCH >= 7
#  define URCU_ARCH_ARMV7 1
# endif
#elif defined(__powerpc64__) || defined(__ppc64__)
# define URCU_ARCH_PPC 1
# define URCU_ARCH_PPC64 1
#elif defined(__powerpc__) || defined(__ppc__)
# define URCU_ARCH_PPC 1
#elif defined(__riscv)
# define URCU_ARCH_RISCV 1
#elif defined(__s390__) || defined(__s390x__)
# define URCU_ARCH_S390 1
#elif defined(__loongarch__)
# define URCU_ARCH_LOONGARCH 1
#elif defined(__mips__)
# define URCU_ARCH_MIPS 1
#elif defined(__sparc__)
# define URCU_ARCH_SPARC64 1
#elif defined(__alpha__)
# define URCU_ARCH_ALPHA 1
#elif defined(__ia64__)
# define URCU_ARCH_IA64 1
#elif defined(__hppa__)
# define URCU_ARCH_HPPA 1
#elif defined(__m68k__)
# define URCU_ARCH_M68K 1
#elif defined(__sh__)
# define URCU_ARCH_SUPERH 1
#elif defined(__nios2__)
# define URCU_ARCH_NIOS2 1
#else
/* Unknown CPU: everything below falls back to the generic builtins. */
# define URCU_ARCH_GENERIC 1
#endif

/* Analyzers get builtins only: no inline assembly. */
#if defined(__clang_analyzer__) || defined(__COVERITY__)
# define _URCU_ARCH_BUILTINS_ONLY 1
#endif

/* ------------------------------------------------------------------ */
/* Cache line size (used to pad and align data against false sharing). */
/* ------------------------------------------------------------------ */

/*
 * This value is part of the layout of padded structures in public
 * headers, so it is fixed per architecture and cannot be overridden.
 *
 * x86: lines are 64 bytes, but Intel's L2 "adjacent line" (spatial)
 *   prefetcher pulls lines in 128-byte aligned pairs, so two hot
 *   variables 64 bytes apart still bounce between cores.  128 avoids it.
 * aarch64: most cores use 64-byte lines, but Apple M-series and Cavium
 *   ThunderX use 128; padding to 128 costs some memory, false sharing
 *   on those parts costs much more.
 * POWER and ia64 use 128-byte lines; z/Architecture uses 256.
 * Everything else: 64, the common line size.
 */
#if defined(URCU_ARCH_X86) || defined(URCU_ARCH_AARCH64) || \
	defined(URCU_ARCH_PPC) || defined(URCU_ARCH_IA64)
# define CAA_CACHE_LINE_SIZE	128
#elif defined(URCU_ARCH_S390)
# define CAA_CACHE_LINE_SIZE	256
#else
# define CAA_CACHE_LINE_SIZE	64
#endif

/* ------------------------------------------------------------------ */
/* Fence primitives.                                                   */
/* ------------------------------------------------------------------ */

/*
 * GCC >= 11 warns (-Wtsan) that ThreadSanitizer does not model
 * stand-alone fences; with -Werror that breaks every TSan build of code
 * using these headers.  The fence is still needed for the hardware, so
 * under TSan it is emitted from a small inline function compiled with
 * that one warning disabled.  TSan keeps not modelling it: code that
 * must be TSan-clean has to express its cross-thread hand-offs with
 * acquire/release atomic accesses (rcu_dereference, rcu_assign_pointer,
 * uatomic_*), not with relaxed accesses plus fences alone.
 */
#if defined(__SANITIZE_THREAD__) && !defined(__clang__) && \
	defined(__GNUC__) && __GNUC__ >= 11
# define _URCU_QUIET_TSAN_FENCE 1
#endif

#ifdef _URCU_QUIET_TSAN_FENCE
# pragma GCC diagnostic push
# pragma GCC diagnostic ignored "-Wtsan"
static inline void _cmm_tsan_fence_seq_cst(void)
{
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
}
static inline void _cmm_tsan_fence_acquire(void)
{
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
}
static inline void _cmm_tsan_fence_release(void)
{
	__atomic_thread_fence(__ATOMIC_RELEASE);
}
# pragma GCC diagnostic pop
# define _cmm_fence_seq_cst()	_cmm_tsan_fence_seq_cst()
# define _cmm_fence_acquire()	_cmm_tsan_fence_acquire()
# define _cmm_fence_release()	_cmm_tsan_fence_release()
#else
# define _cmm_fence_seq_cst()	__atomic_thread_fence(__ATOMIC_SEQ_CST)
# define _cmm_fence_acquire()	__atomic_thread_fence(__ATOMIC_ACQUIRE)
# define _cmm_fence_release()	__atomic_thread_fence(__ATOMIC_RELEASE)
#endif

/*
 * SMP barriers: order this thread's accesses to ordinary (write-back,
 * cache-coherent) memory as observed by other threads.
 */

/*
 * Full barrier: every load and store before it is ordered before every
 * load and store after it, including store->load, the one reordering
 * TSO allows.  Not a no-op on x86 (mfence or a locked instruction).
 * Pairs with a full barrier (or a seq_cst atomic) in the other thread.
 */
#define cmm_smp_mb()	_cmm_fence_seq_cst()

/*
 * Read barrier (acquire fence): loads before it are ordered before
 * loads and stores after it.  Pairs with cmm_smp_wmb() or a release
 * operation in the writer.  TSO never reorders a load with a later
 * access, so on x86 this only stops the compiler.
 */
#define cmm_smp_rmb()	_cmm_fence_acquire()

/*
 * Write barrier (release fence): loads and stores before it are ordered
 * before stores after it.  Pairs with cmm_smp_rmb() or an acquire
 * operation in the reader.  TSO never reorders a store with an earlier
 * access, so on x86 this only stops the compiler.
 */
#define cmm_smp_wmb()	_cmm_fence_release()

/*
 * Mandatory barriers (cmm_mb/rmb/wmb): same contracts as the SMP ones
 * above.  On x86, cmm_rmb()/cmm_wmb() also order weakly-ordered accesses
 * (non-temporal loads/stores, write-combining mappings), which C11
 * acquire/release fences compile to nothing for: the fence is followed
 * by lfence/sfence (compiler builtins, no asm).
 *
 * Full barrier; pairs with a full barrier in the other thread.  On x86
 * the compiler emits MFENCE or a LOCK-prefixed no-op; to order
 * non-temporal stores, use cmm_wmb(), whose SFENCE is meant for that.
 */
#define cmm_mb()	_cmm_fence_seq_cst()

#if defined(URCU_ARCH_X86) && defined(__SSE2__)
/* Acquire fence for cacheable memory; lfence for weakly-ordered loads. */
# define cmm_rmb()	\
	((void) (_cmm_fence_acquire(), __builtin_ia32_lfence()))
#else
/* Acquire fence: loads before, loads and stores after. */
# define cmm_rmb()	_cmm_fence_acquire()
#endif

#if defined(URCU_ARCH_X86) && defined(__SSE__)
/* Release fence for cacheable memory; sfence for non-temporal stores. */
# define cmm_wmb()	\
	((void) (_cmm_fence_release(), __builtin_ia32_sfence()))
#else
/* Release fence: loads and stores before, stores after. */
# define cmm_wmb()	_cmm_fence_release()
#endif

/*
 * Data-dependency barriers.  Only Alpha can reorder a load with a later
 * load whose address depends on it; everywhere else address dependencies
 * already order the two loads and these do nothing.  rcu_dereference()
 * uses a consume load and does not need them.
 */
#ifdef URCU_ARCH_ALPHA
# define cmm_read_barrier_depends()	cmm_mb()
# define cmm_smp_read_barrier_depends()	cmm_smp_mb()
#else
# define cmm_read_barrier_depends()	((void) 0)
# define cmm_smp_read_barrier_depends()	((void) 0)
#endif

/*
 * Cache-coherence hooks ("memory commit").  Meant for machines whose
 * caches must be flushed explicitly for other CPUs to see writes.  Every
 * supported target is cache coherent, so these only stop the compiler.
 */
#define cmm_mc()	cmm_barrier()
#define cmm_rmc()	cmm_barrier()
#define cmm_wmc()	cmm_barrier()
#define cmm_smp_mc()	cmm_mc()
#define cmm_smp_rmc()	cmm_rmc()
#define cmm_smp_wmc()	cmm_wmc()

/* ------------------------------------------------------------------ */
/* Busy-wait hint.                                                     */
/* ------------------------------------------------------------------ */

/*
 * caa_cpu_relax(): call in the body of a spin-wait loop.  Tells the CPU
 * it is spinning (saves power, yields to the sibling hyperthread) and is
 * also a compiler barrier, so the loop condition is re-read.
 */
#if defined(URCU_ARCH_X86)
/* PAUSE: spin-loop hint; also avoids a memory-order mis-speculation flush. */
# define caa_cpu_relax()	((void) (__builtin_ia32_pause(), cmm_barrier()))
#elif !defined(_URCU_ARCH_BUILTINS_ONLY) && (defined(URCU_ARCH_AARCH64) || \
	(defined(URCU_ARCH_ARM) && defined(__ARM_ARCH) && __ARM_ARCH >= 7))
/* YIELD hint: GCC has no builtin for it, hence the asm. */
# define caa_cpu_relax()	\
	((void) __extension__ ({ __asm__ __volatile__ ("yield" ::: "memory"); }))
#else
# define caa_cpu_relax()	cmm_barrier()
#endif

/* ------------------------------------------------------------------ */
/* Cycle counter (for benchmarks; unrelated to synchronization).       */
/* ------------------------------------------------------------------ */

typedef uint64_t caa_cycles_t;

#if defined(URCU_ARCH_X86)
# define HAS_CAA_GET_CYCLES 1
/* Time-stamp counter; not serializing, good enough for coarse timing. */
static inline caa_cycles_t caa_get_cycles(void)
{
	return (caa_cycles_t) __builtin_ia32_rdtsc();
}
#elif defined(CLOCK_MONOTONIC) && defined(_POSIX_C_SOURCE) && \
	_POSIX_C_SOURCE >= 199309L
# define HAS_CAA_GET_CYCLES 1
/* No portable cycle counter: monotonic nanoseconds stand in for cycles. */
static inline caa_cycles_t caa_get_cycles(void)
{
	struct timespec ts;

	if (caa_unlikely(clock_gettime(CLOCK_MONOTONIC, &ts) != 0))
		return 0;
	return (caa_cycles_t) ts.tv_sec * 1000000000u +
		(caa_cycles_t) ts.tv_nsec;
}
#endif

#ifdef __cplusplus
}
#endif

#endif /* _URCU_ARCH_H */
