/* The bytes a process holds from C's heap, and their peak, for bench/hall_tls_heap.py.

   Preloaded (LD_PRELOAD) into MicroPython's unix port, whose mbedTLS allocates from
   C's heap: malloc, calloc, realloc and free are counted by their usable sizes.
   SIGUSR1 sets the peak to what is held now (a mark), SIGUSR2 writes
   "malloc held H peak P" on standard error. Before the real allocator is found
   (dlsym itself may ask calloc for memory) a static area serves. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <malloc.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static long held, peak;
static int found;
static void *(*real_malloc)(size_t);
static void *(*real_calloc)(size_t, size_t);
static void *(*real_realloc)(void *, size_t);
static void (*real_free)(void *);
static char early[65536];
static size_t early_used;

static void find(void) {
    real_malloc = dlsym(RTLD_NEXT, "malloc");
    real_calloc = dlsym(RTLD_NEXT, "calloc");
    real_realloc = dlsym(RTLD_NEXT, "realloc");
    real_free = dlsym(RTLD_NEXT, "free");
    found = 1;
}

static int is_early(void *p) { return (char *)p >= early && (char *)p < early + sizeof early; }

static void taken(void *p) {
    if (p) {
        held += (long)malloc_usable_size(p);
        if (held > peak) peak = held;
    }
}

static void given_back(void *p) {
    if (p) held -= (long)malloc_usable_size(p);
}

void *malloc(size_t size) {
    if (!found) find();
    void *p = real_malloc(size);
    taken(p);
    return p;
}

void *calloc(size_t count, size_t size) {
    if (!found) {
        void *p = early + early_used;
        early_used += (count * size + 15) & ~(size_t)15;
        memset(p, 0, count * size);
        return p;
    }
    void *p = real_calloc(count, size);
    taken(p);
    return p;
}

void *realloc(void *old, size_t size) {
    if (!found) find();
    if (is_early(old)) {
        void *p = real_malloc(size);
        memcpy(p, old, size);
        taken(p);
        return p;
    }
    given_back(old);
    void *p = real_realloc(old, size);
    taken(p);
    return p;
}

void free(void *p) {
    if (!p || is_early(p)) return;
    if (!found) find();
    given_back(p);
    real_free(p);
}

static void on_mark(int signal_number) {
    (void)signal_number;
    peak = held;
}

static void on_report(int signal_number) {
    (void)signal_number;
    char line[80];
    int length = snprintf(line, sizeof line, "malloc held %ld peak %ld\n", held, peak);
    if (write(2, line, (size_t)length) < 0) return;
}

__attribute__((constructor)) static void start(void) {
    signal(SIGUSR1, on_mark);
    signal(SIGUSR2, on_report);
}
