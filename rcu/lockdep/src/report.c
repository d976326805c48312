/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * report.c: printing reports (docs/lockdep.md, "Reports").
 *
 * A report starts with "==PID== urcu-lockdep: WARNING: <what>" and ends
 * with "==PID== urcu-lockdep: SUMMARY: ...", like the sanitizers' reports,
 * and is written to stderr with write(2) in one piece per buffer, under
 * the report lock so that reports from several threads do not mix.  A
 * misuse report is made once per kind, class and call site; a cycle is
 * reported once, when its last edge appears.  In abort mode the process
 * aborts after the first report.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lockdep.h"
#include "rawlock.h"

struct ld_rawlock ld_report_lock;
static unsigned long reports;

/* Output buffer (report lock). */
static char out[16384];
static size_t out_len;

/* Misuse reports made so far: kind, class and site (report lock). */
#define LD_SEEN_SLOTS	4096
static uint64_t seen[LD_SEEN_SLOTS];
static unsigned seen_used;

static void flush(void)
{
	size_t done = 0;

	while (done < out_len) {
		ssize_t n = write(2, out + done, out_len - done);

		if (n <= 0)
			break;
		done += (size_t) n;
	}
	out_len = 0;
}

__attribute__((format(printf, 1, 2)))
static void put(const char *fmt, ...)
{
	va_list ap;
	int n;

	if (out_len > sizeof(out) - 1024)
		flush();
	va_start(ap, fmt);
	n = vsnprintf(out + out_len, sizeof(out) - out_len, fmt, ap);
	va_end(ap);
	if (n > 0)
		out_len += (size_t) n < sizeof(out) - out_len ?
			   (size_t) n : sizeof(out) - out_len - 1;
}

static void begin(const char *what)
{
	ld_raw_lock(&ld_report_lock);
	put("==%d== urcu-lockdep: WARNING: %s\n", (int) getpid(), what);
}

/* End a report: count it, print it, and abort in abort mode. */
static void end(void)
{
	/* Relaxed: a count, read at exit. */
	__atomic_add_fetch(&reports, 1, __ATOMIC_RELAXED);
	flush();
	ld_raw_unlock(&ld_report_lock);
	if (ld_mode() == LD_MODE_ABORT) {
		static const char msg[] = "urcu-lockdep: aborting "
			"(URCU_LOCKDEP=abort)\n";

		(void) !write(2, msg, sizeof(msg) - 1);
		abort();
	}
}

unsigned long ld_report_count(void)
{
	return __atomic_load_n(&reports, __ATOMIC_RELAXED);
}

static const char *describe_code(uintptr_t ip, enum ld_detail detail)
{
	static char buf[4][2048];	/* report lock; a few per line */
	static unsigned next;
	char *b = buf[next++ % 4];

	ld_describe_code(b, sizeof(buf[0]), ip, detail);
	return b;
}

/* A class as reports name it: "mutex lock_a", "rcu_read(memb)", ... */
static const char *describe_class(uint32_t id)
{
	static char buf[8][768];	/* report lock; a few per line */
	static unsigned next;
	char *b = buf[next++ % 8];
	struct ld_class *c = ld_class(id);
	const char *kind = ld_kind_name((enum ld_kind) c->kind);
	char where[512];

	switch (c->key_type) {
	case LD_KEY_NAME:
		snprintf(b, sizeof(buf[0]), "%s", c->name);
		break;
	case LD_KEY_STATIC:
		ld_describe_data(where, sizeof(where), c->key[0]);
		snprintf(b, sizeof(buf[0]), "%s %s", kind, where);
		break;
	case LD_KEY_FORK:
		snprintf(b, sizeof(buf[0]), "%s (held across fork)",
			 describe_class((uint32_t) c->key[0]));
		break;
	case LD_KEY_INIT_SITE:
		snprintf(b, sizeof(buf[0]), "%s initialised at %s", kind,
			 describe_code(c->key[0], LD_SITE));
		break;
	default:
		snprintf(b, sizeof(buf[0]), "%s first taken at %s", kind,
			 describe_code(c->key[0], LD_SITE));
		break;
	}
	return b;
}

static void put_thread(const struct ld_context *c)
{
	if (c->tid == getpid())
		put("T%u (main thread, tid %d)", c->thread, (int) c->tid);
	else if (c->start_fn)
		put("T%u (tid %d, thread function %s)", c->thread, (int) c->tid,
		    describe_code(c->start_fn + 1, LD_NAME));
	else
		put("T%u (tid %d)", c->thread, (int) c->tid);
}

/* A backtrace, a line per function (inlined ones included). */
static void put_stack(const struct ld_context *c, const char *indent)
{
	unsigned i, frame = 0;

	for (i = 0; i < c->depth; i++) {
		const char *line = describe_code(c->stack[i], LD_FULL);

		for (;;) {
			const char *nl = strchr(line, '\n');
			int len = nl ? (int) (nl - line) : (int) strlen(line);

			put("%s#%u %.*s\n", indent, frame++, len, line);
			if (!nl)
				break;
			line = nl + 1;
		}
	}
}

static void put_held_site(uint32_t cls, const struct ld_context *c,
			  const char *indent)
{
	if (c->held_ip)
		put("%s%s taken at %s (%s)\n", indent, describe_class(cls),
		    describe_code(c->held_ip, LD_SITE), c->held_op ?
		    c->held_op : "?");
	else if (ld_class(cls)->kind == LD_RCU_READ
		 && ld_flavor_is_qsbr(ld_class(cls)->flavor))
		put("%s%s held: the thread is an online QSBR reader\n", indent,
		    describe_class(cls));
	else if (ld_class(cls)->kind == LD_RCU_READ)
		put("%s%s held: inside a read-side critical section of %s\n",
		    indent, describe_class(cls),
		    ld_flavor_name(ld_class(cls)->flavor));
}

static const char *verb(const struct ld_context *c)
{
	return c->wait ? "waited for" : "taken";
}

static void put_edge(uint32_t from, uint32_t to, const struct ld_context *c,
		     bool now)
{
	put("  %s %s while holding %s\n", describe_class(to), verb(c),
	    describe_class(from));
	put("    by ");
	put_thread(c);
	put(" in %s, %s:\n", c->op, now ? "now" : "first seen");
	put_stack(c, "      ");
	put_held_site(from, c, "    ");
}

void ld_report_cycle(struct ld_edge **path, unsigned n,
		     const struct ld_context *now)
{
	bool rcu = false;
	unsigned i;

	begin("possible deadlock: lock order cycle");
	put("  %s", describe_class(path[0]->from));
	for (i = 0; i < n; i++)
		put(" -> %s", describe_class(path[i]->to));
	put("\n\n");
	/* The last edge is the one being added: print what happens now. */
	for (i = 0; i < n; i++) {
		put_edge(path[i]->from, path[i]->to,
			 i + 1 == n ? now : &path[i]->seen, i + 1 == n);
		put("\n");
	}
	put("  If these run at once, each thread waits for the next one:\n");
	for (i = 0; i < n; i++) {
		const struct ld_context *c = i + 1 == n ? now : &path[i]->seen;
		enum ld_kind kf = (enum ld_kind) ld_class(path[i]->from)->kind;
		enum ld_kind kt = (enum ld_kind) ld_class(path[i]->to)->kind;

		put("    thread %u holds %s and waits for %s", i + 1,
		    describe_class(path[i]->from), describe_class(path[i]->to));
		put(c->wait ? " (%s)\n" : "\n", c->op);
		rcu |= kf >= LD_RCU_READ || kt >= LD_RCU_READ;
	}
	if (rcu)
		put("  (rcu_read(F): held inside read-side critical sections of "
		    "flavor F, and by online\n  QSBR threads; rcu_callback(F), "
		    "rcu_defer(F): held while callbacks of F run.)\n");
	put("==%d== urcu-lockdep: SUMMARY: lock order cycle: %s",
	    (int) getpid(), describe_class(path[0]->from));
	for (i = 0; i < n; i++)
		put(" -> %s", describe_class(path[i]->to));
	put("\n");
	end();
}

/* True the first time (@kind, @cls, @site) is reported; report lock held. */
static bool first_time(enum ld_misuse kind, uint32_t cls, uintptr_t site)
{
	uint64_t key = ((uint64_t) site * 0x9e3779b97f4a7c15ULL)
		       ^ ((uint64_t) cls << 8) ^ kind;
	size_t i;

	key |= 1;	/* never 0, the empty slot */
	for (i = (size_t) (key >> 52);; i++) {
		i &= LD_SEEN_SLOTS - 1;
		if (seen[i] == key)
			return false;
		if (seen[i] == 0)
			break;
	}
	if (seen_used < LD_SEEN_SLOTS / 2) {
		seen[i] = key;
		seen_used++;
	}
	return true;
}

static const char *const headlines[LD_NR_MISUSE] = {
	[LD_RECURSIVE_LOCK] = "recursive acquisition of a non-recursive lock",
	[LD_UNLOCK_NOT_HELD] = "unlock of a lock not held by this thread",
	[LD_EXIT_HOLDING] = "thread exiting while holding locks",
	[LD_EXIT_IN_SECTION] = "thread exiting inside a read-side critical "
			       "section",
	[LD_WAIT_IN_SECTION] = NULL,	/* names the call */
	[LD_WAIT_HOLDING] = "wait for a lock held by the waiting thread",
	[LD_QSBR_BLOCKING] = "blocking call inside a QSBR read-side "
			     "critical section",
	[LD_HELD_OVERFLOW] = "too many locks held at once",
};

void ld_report_misuse(enum ld_misuse kind, struct ld_thread *t, uint32_t cls,
		      int flavor, const struct ld_context *now)
{
	uintptr_t site = now->depth ? now->stack[0] : 0;
	char head[160];
	unsigned i;

	ld_raw_lock(&ld_report_lock);
	if (!first_time(kind, cls, site)) {
		ld_raw_unlock(&ld_report_lock);
		return;
	}
	ld_raw_unlock(&ld_report_lock);
	if (kind == LD_WAIT_IN_SECTION)
		snprintf(head, sizeof(head), "%s inside a read-side critical "
			 "section of %s", now->op, ld_flavor_name(flavor));
	else
		snprintf(head, sizeof(head), "%s", headlines[kind]);
	begin(head);
	put("  ");
	put_thread(now);
	switch (kind) {
	case LD_RECURSIVE_LOCK:
		put(" takes %s in %s, and already holds it:\n",
		    describe_class(cls), now->op);
		put_stack(now, "      ");
		put_held_site(cls, now, "    ");
		put("  The thread waits for itself.\n");
		break;
	case LD_UNLOCK_NOT_HELD:
		put(" releases %s in %s, which it does not hold:\n",
		    describe_class(cls), now->op);
		put_stack(now, "      ");
		break;
	case LD_EXIT_HOLDING:
		put(" exits while holding:\n");
		for (i = 0; i < t->n_held; i++)
			put("    %s, taken at %s (%s)\n",
			    describe_class(t->held[i].cls),
			    describe_code(t->held[i].ip, LD_SITE), t->held[i].op);
		put_stack(now, "      ");
		put("  Threads that take these locks will wait forever.\n");
		break;
	case LD_EXIT_IN_SECTION:
		put(" exits inside a read-side critical section of %s:\n",
		    ld_flavor_name(flavor));
		put_stack(now, "      ");
		put("  Grace periods of %s wait for the section to end.\n",
		    ld_flavor_name(flavor));
		break;
	case LD_WAIT_IN_SECTION:
		put(" calls %s, which waits for a grace period of %s, inside a "
		    "read-side critical section of %s:\n", now->op,
		    ld_flavor_name(flavor), ld_flavor_name(flavor));
		put_stack(now, "      ");
		put("  The grace period waits for the section, which waits for "
		    "the grace period.\n");
		break;
	case LD_WAIT_HOLDING:
		put(" calls %s, which waits for %s, while holding it:\n",
		    now->op, describe_class(cls));
		put_stack(now, "      ");
		put_held_site(cls, now, "    ");
		put("  The thread waits for itself.\n");
		break;
	case LD_QSBR_BLOCKING:
		put(" waits for %s in %s inside a read-side critical section "
		    "of qsbr, online:\n", describe_class(cls), now->op);
		put_stack(now, "      ");
		put("  An online QSBR thread holds up every QSBR grace period "
		    "while it waits, and may\n  not go offline inside a "
		    "section; if what it waits for waits for a QSBR grace\n"
		    "  period, this deadlocks.\n");
		break;
	default:
		put(" takes %s in %s while holding %d locks; the validator "
		    "stops tracking\n  locks taken beyond that:\n",
		    describe_class(cls), now->op, LD_MAX_HELD);
		put_stack(now, "      ");
		break;
	}
	put("==%d== urcu-lockdep: SUMMARY: %s at %s\n", (int) getpid(), head,
	    site ? describe_code(site, LD_SITE) : "thread exit");
	end();
}
