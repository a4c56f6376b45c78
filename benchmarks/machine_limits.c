/* Machine-limit probes for benchmarks/machine.py; compiled at run time with
 * gcc -O3 -march=native -fopenmp so it uses the widest vectors this CPU has.
 *
 *   machine_limits flops THREADS SECONDS   -> peak FP32 FMA throughput
 *   machine_limits triad THREADS N REPS    -> STREAM-style a[i] = b[i] + s*c[i], with
 *                                             plain and with streaming (non-temporal) stores
 *   machine_limits pingpong ROUNDS         -> a cache line passed between two threads' cores
 *
 * Each prints one JSON object on stdout.
 */
#include <immintrin.h>
#include <omp.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(__AVX512F__)
typedef __m512 vec;
#define LANES 16
#define ISA "avx512"
#define VSET1 _mm512_set1_ps
#define VFMA _mm512_fmadd_ps
#define VADD _mm512_add_ps
#define VSUM _mm512_reduce_add_ps
#define VLOAD _mm512_load_ps
#define VSTREAM _mm512_stream_ps
#elif defined(__FMA__) && defined(__AVX2__)
typedef __m256 vec;
#define LANES 8
#define ISA "avx2+fma"
#define VSET1 _mm256_set1_ps
#define VFMA _mm256_fmadd_ps
#define VADD _mm256_add_ps
#define VLOAD _mm256_load_ps
#define VSTREAM _mm256_stream_ps
static float VSUM(__m256 v) {
    float t[8];
    _mm256_storeu_ps(t, v);
    return t[0] + t[1] + t[2] + t[3] + t[4] + t[5] + t[6] + t[7];
}
#else
#error "machine_limits needs AVX2+FMA or AVX-512"
#endif

/* Independent accumulator chains: an FMA has ~4 cycles latency and a core
 * issues up to 2 per cycle, so >= 8 chains are needed to keep both pipes
 * busy; 12 leaves margin and still fits the 16 architectural ymm registers
 * (12 accumulators + 2 operands) on AVX2. */
#define CHAINS 12

static volatile float sink;   /* keeps the results alive past -O3 */
static volatile float seed = 0.999999f;

static float fma_loop(long iters) {
    vec a = VSET1(seed), b = VSET1(1e-7f * seed);
    vec acc[CHAINS];
    for (int j = 0; j < CHAINS; j++) acc[j] = VSET1(seed * (float)j);
    for (long i = 0; i < iters; i++) {
#pragma GCC unroll 12
        for (int j = 0; j < CHAINS; j++) acc[j] = VFMA(acc[j], a, b);
        /* Stop gcc from hoisting or collapsing the chains. */
        __asm__ volatile("" : "+v"(a));
    }
    vec s = acc[0];
    for (int j = 1; j < CHAINS; j++) s = VADD(s, acc[j]);
    return VSUM(s);
}

static int cmd_flops(int threads, double seconds) {
    omp_set_num_threads(threads);
    /* Calibrate on one thread so the timed run lasts about `seconds`. */
    long iters = 1L << 16;
    for (;;) {
        double t0 = omp_get_wtime();
        sink = fma_loop(iters);
        double dt = omp_get_wtime() - t0;
        if (dt > 0.05) { iters = (long)(iters * seconds / dt) + 1; break; }
        iters *= 4;
    }
    double best = 1e30;
    for (int rep = 0; rep < 3; rep++) {   /* best of 3: a peak, not a typical */
        double t0 = omp_get_wtime();
#pragma omp parallel
        {
            float r = fma_loop(iters);
#pragma omp atomic
            sink += r;
        }
        double dt = omp_get_wtime() - t0;
        if (dt < best) best = dt;
    }
    double flops = 2.0 * LANES * CHAINS * (double)iters * threads;
    printf("{\"isa\": \"%s\", \"lanes\": %d, \"chains\": %d, \"threads\": %d, "
           "\"seconds\": %.6f, \"gflops\": %.3f}\n",
           ISA, LANES, CHAINS, threads, best, flops / best / 1e9);
    return 0;
}

static void triad_plain(float *a, const float *b, const float *c, float s, long n) {
#pragma omp parallel for schedule(static)
    for (long i = 0; i < n; i++) a[i] = b[i] + s * c[i];
}

/* The same triad written around the caches: no write-allocate read of a, and
 * no eviction of b and c to make room for it. Whole vectors per thread (the
 * arrays are 64-byte aligned), then a fence so the stores are visible. */
static void triad_streaming(float *a, const float *b, const float *c, float s, long n) {
    const long vectors = n / LANES;
    const vec sv = VSET1(s);
#pragma omp parallel
    {
#pragma omp for schedule(static) nowait
        for (long v = 0; v < vectors; v++)
            VSTREAM(a + v * LANES, VFMA(sv, VLOAD(c + v * LANES), VLOAD(b + v * LANES)));
        _mm_sfence();
    }
    for (long i = vectors * LANES; i < n; i++) a[i] = b[i] + s * c[i];
}

static int cmd_triad(int threads, long n, int reps) {
    omp_set_num_threads(threads);
    float *a = aligned_alloc(64, ((n * sizeof(float) + 63) / 64) * 64);
    float *b = aligned_alloc(64, ((n * sizeof(float) + 63) / 64) * 64);
    float *c = aligned_alloc(64, ((n * sizeof(float) + 63) / 64) * 64);
    if (!a || !b || !c) { fprintf(stderr, "out of memory\n"); return 1; }
    /* First touch with the same static schedule as the triad, so each
     * thread's pages are its own (matters on NUMA machines). */
#pragma omp parallel for schedule(static)
    for (long i = 0; i < n; i++) { a[i] = 0.0f; b[i] = 1.0f; c[i] = 2.0f; }
    const float s = 3.0f;
    /* The two variants alternate, so a change in the host's load hits both. A plain pass runs untimed
     * before each timed one: the streaming pass before it leaves a out of the caches, and for arrays that
     * fit in them the timed pass would pay for refetching a (the 1M-float triad read 87-109 GB/s that
     * way on a Zen 4 host, 168-173 with the warm-up pass). */
    double best_plain = 1e30, best_streaming = 1e30, total = 0.0;
    for (int rep = 0; rep < reps; rep++) {
        triad_plain(a, b, c, s, n);
        double t0 = omp_get_wtime();
        triad_plain(a, b, c, s, n);
        double dt = omp_get_wtime() - t0;
        total += dt;
        if (dt < best_plain) best_plain = dt;
        /* Feed a value back so the repetitions cannot be merged. */
        b[rep % n] = a[(rep * 7919L) % n] * 1e-9f;
        t0 = omp_get_wtime();
        triad_streaming(a, b, c, s, n);
        dt = omp_get_wtime() - t0;
        if (dt < best_streaming) best_streaming = dt;
        b[(rep + 1) % n] = a[(rep * 7919L + 1) % n] * 1e-9f;
    }
    sink = a[n / 2];
    /* STREAM convention: 3 arrays x 4 bytes per element (read b, read c,
     * write a). Plain stores also read a's lines first (write-allocate),
     * so the bus really moves 4 arrays; that figure is reported too. */
    double bytes = 3.0 * sizeof(float) * (double)n;
    double best = best_plain < best_streaming ? best_plain : best_streaming;
    printf("{\"threads\": %d, \"n\": %ld, \"reps\": %d, \"best_seconds\": %.9f, "
           "\"gbps\": %.3f, \"gbps_plain\": %.3f, \"gbps_streaming\": %.3f, "
           "\"gbps_with_write_allocate\": %.3f, \"mean_gbps_plain\": %.3f}\n",
           threads, n, reps, best, bytes / best / 1e9, bytes / best_plain / 1e9,
           bytes / best_streaming / 1e9, bytes * 4.0 / 3.0 / best_plain / 1e9,
           bytes * reps / total / 1e9);
    free(a); free(b); free(c);
    return 0;
}

/* Two threads (OMP_PROC_BIND=close, OMP_PLACES=cores: one per core) pass a
 * flag back and forth; the time per round trip is two cache-line transfers
 * between their cores. Within a core complex (shared L3) that is tens of
 * nanoseconds; between complexes (a virtual machine's vCPUs can land on two)
 * several times more, and then so is every read of data the other thread
 * has just written. Best of 5 batches. */
static _Atomic int ball __attribute__((aligned(64)));

static int cmd_pingpong(long rounds) {
    omp_set_num_threads(2);
    double best = 1e30;
    for (int rep = 0; rep < 5; rep++) {
        double seconds = 0.0;
        atomic_store(&ball, 0);
#pragma omp parallel
        {
            const int me = omp_get_thread_num();
            if (omp_get_num_threads() == 2) {
#pragma omp barrier
                double t0 = omp_get_wtime();
                for (long i = 0; i < rounds; i++) {
                    /* thread 0 waits for even values and makes them odd, thread 1 the reverse */
                    while ((atomic_load_explicit(&ball, memory_order_acquire) & 1) != me) _mm_pause();
                    atomic_fetch_add_explicit(&ball, 1, memory_order_release);
                }
                if (me == 0) seconds = omp_get_wtime() - t0;
            }
        }
        if (seconds > 0 && seconds < best) best = seconds;
    }
    if (best == 1e30) { fprintf(stderr, "pingpong needs two threads\n"); return 1; }
    printf("{\"rounds\": %ld, \"round_trip_ns\": %.1f}\n", rounds, best / rounds * 1e9);
    return 0;
}

int main(int argc, char **argv) {
    if (argc == 4 && strcmp(argv[1], "flops") == 0)
        return cmd_flops(atoi(argv[2]), atof(argv[3]));
    if (argc == 5 && strcmp(argv[1], "triad") == 0)
        return cmd_triad(atoi(argv[2]), atol(argv[3]), atoi(argv[4]));
    if (argc == 3 && strcmp(argv[1], "pingpong") == 0)
        return cmd_pingpong(atol(argv[2]));
    fprintf(stderr, "usage: %s flops THREADS SECONDS | triad THREADS N REPS | pingpong ROUNDS\n", argv[0]);
    return 2;
}
