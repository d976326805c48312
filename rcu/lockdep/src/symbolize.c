/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * symbolize.c: backtraces, and names for code and data addresses.
 *
 * Backtraces come from glibc's backtrace() (the unwinder reads .eh_frame;
 * no frame pointers needed), taken only when an edge is new or a report
 * is made.  Names come from libdw when the validator was built with it
 * (function, file:line, and static variables through the symbol tables),
 * else from dladdr(), which only knows exported symbols.  Symbolizing runs
 * under the report lock (report.c), so the libdw session needs no other.
 */
#include <dlfcn.h>
#include <execinfo.h>
#include <link.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#ifdef LD_HAVE_LIBDW
#include <dwarf.h>
#include <elfutils/libdwfl.h>
#include <stdlib.h>
#endif

#include "lockdep.h"

#define LD_MAX_UNWIND	64

/* The validator's own code, whose frames backtraces leave out. */
static uintptr_t own_start, own_end;

unsigned ld_backtrace(uintptr_t *out, unsigned max, uintptr_t ip)
{
	void *frames[LD_MAX_UNWIND];
	int n, i, start = -1;
	unsigned k = 0;

	if (!ip || !max)
		return 0;
	n = backtrace(frames, LD_MAX_UNWIND);
	/* Drop the validator's own frames: start at the caller's call. */
	for (i = 0; i < n; i++) {
		if ((uintptr_t) frames[i] == ip) {
			start = i;
			break;
		}
	}
	if (start < 0) {
		out[0] = ip;
		return 1;
	}
	for (i = start; i < n && k < max; i++) {
		uintptr_t a = (uintptr_t) frames[i];

		/* The validator's wrappers of main() and thread functions. */
		if (a < own_start || a >= own_end)
			out[k++] = a;
	}
	return k;
}

static int find_own(struct dl_phdr_info *info, size_t size, void *arg)
{
	uintptr_t self = (uintptr_t) arg;
	int i;

	(void) size;
	for (i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		uintptr_t start = info->dlpi_addr + ph->p_vaddr;

		if (ph->p_type == PT_LOAD && (ph->p_flags & PF_X)
		    && self >= start && self < start + ph->p_memsz) {
			own_start = start;
			own_end = start + ph->p_memsz;
			return 1;
		}
	}
	return 0;
}

void ld_symbolize_init(void)
{
	void *frame;

	/* The first backtrace() loads libgcc_s: do it now, not in a lock call. */
	(void) backtrace(&frame, 1);
	dl_iterate_phdr(find_own, (void *) (uintptr_t) ld_backtrace);
}

static const char *base_name(const char *path)
{
	const char *slash = path ? strrchr(path, '/') : NULL;

	return slash ? slash + 1 : path ? path : "?";
}

#ifdef LD_HAVE_LIBDW
static char *debuginfo_path;
static const Dwfl_Callbacks callbacks = {
	.find_elf = dwfl_linux_proc_find_elf,
	.find_debuginfo = dwfl_standard_find_debuginfo,
	.debuginfo_path = &debuginfo_path,
};
static Dwfl *session;

/* A session over the objects mapped now; @fresh: report them again. */
static Dwfl *dwfl(bool fresh)
{
	if (session && !fresh)
		return session;
	if (session)
		dwfl_end(session);
	session = dwfl_begin(&callbacks);
	if (session && (dwfl_linux_proc_report(session, getpid()) != 0
			|| dwfl_report_end(session, NULL, NULL) != 0)) {
		dwfl_end(session);
		session = NULL;
	}
	return session;
}

static Dwfl_Module *module_of(uintptr_t a)
{
	Dwfl *d = dwfl(false);
	Dwfl_Module *m = d ? dwfl_addrmodule(d, a) : NULL;

	if (!m && d) {		/* loaded since: look again */
		d = dwfl(true);
		m = d ? dwfl_addrmodule(d, a) : NULL;
	}
	return m;
}

/* One level of a frame: a function, inlined or not, and where in it. */
struct ld_level {
	const char *fn, *file;
	int line;
};

#define LD_MAX_INLINE	8

static const char *die_name(Dwarf_Die *die)
{
	Dwarf_Attribute at;

	/* Integrate: an inlined copy names its abstract origin. */
	return dwarf_formstring(dwarf_attr_integrate(die, DW_AT_name, &at));
}

/*
 * The functions at @a in module @m, innermost (inlined) first, each with
 * the line it is at: the innermost's from the line table, each caller's
 * from the call site its inlined callee records.  Returns their number.
 */
static unsigned dw_levels(Dwfl_Module *m, uintptr_t a, struct ld_level *out)
{
	Dwarf_Addr bias;
	Dwarf_Die *cu = dwfl_module_addrdie(m, a, &bias), *scopes = NULL;
	Dwarf_Die *chain = NULL;
	Dwfl_Line *l = dwfl_module_getsrc(m, a);
	Dwarf_Files *files = NULL;
	const char *file = NULL;
	size_t nfiles = 0;
	unsigned k = 0;
	int line = 0, n, i;

	if (l)
		file = dwfl_lineinfo(l, NULL, &line, NULL, NULL, NULL);
	if (!cu || (n = dwarf_getscopes(cu, a - bias, &scopes)) <= 0)
		return 0;
	/*
	 * Past an inlined instance, dwarf_getscopes() goes on with the
	 * scopes of its abstract definition; the concrete callers come
	 * from the scopes of the instance itself.
	 */
	for (i = 0; i < n; i++) {
		int tag = dwarf_tag(&scopes[i]);

		if (tag == DW_TAG_subprogram)
			break;
		if (tag == DW_TAG_inlined_subroutine) {
			int c = dwarf_getscopes_die(&scopes[i], &chain);

			if (c > 0) {
				free(scopes);
				scopes = chain;
				n = c;
			}
			break;
		}
	}
	if (dwarf_getsrcfiles(cu, &files, &nfiles) != 0)
		files = NULL;
	for (i = 0; i < n && k < LD_MAX_INLINE; i++) {
		int tag = dwarf_tag(&scopes[i]);
		Dwarf_Attribute at;
		Dwarf_Word w;

		if (tag != DW_TAG_inlined_subroutine && tag != DW_TAG_subprogram)
			continue;
		out[k++] = (struct ld_level) {
			.fn = die_name(&scopes[i]), .file = file, .line = line,
		};
		if (tag == DW_TAG_subprogram)
			break;
		/* Where the caller inlined it. */
		file = NULL;
		line = 0;
		if (dwarf_formudata(dwarf_attr(&scopes[i], DW_AT_call_line, &at),
				    &w) == 0)
			line = (int) w;
		if (files && dwarf_formudata(dwarf_attr(&scopes[i],
				DW_AT_call_file, &at), &w) == 0 && w < nfiles)
			file = dwarf_filesrc(files, w, NULL, NULL);
	}
	free(scopes);
	return k;
}

static size_t put_level(char *buf, size_t size, const struct ld_level *lv,
			const char *fallback)
{
	size_t n = (size_t) snprintf(buf, size, "%s", lv->fn ? lv->fn :
				     fallback ? fallback : "??");

	if (lv->file && n < size)
		n += (size_t) snprintf(buf + n, size - n, " %s:%d", lv->file,
				       lv->line);
	return n;
}

static bool dw_code(char *buf, size_t size, uintptr_t a,
		    enum ld_detail detail)
{
	Dwfl_Module *m = module_of(a);
	struct ld_level levels[LD_MAX_INLINE];
	const char *sym, *mod;
	Dwarf_Addr base;
	GElf_Off off;
	GElf_Sym elf_sym;
	unsigned k, i;
	size_t n = 0;

	if (!m)
		return false;
	sym = dwfl_module_addrinfo(m, a, &off, &elf_sym, NULL, NULL, NULL);
	mod = dwfl_module_info(m, NULL, &base, NULL, NULL, NULL, NULL, NULL);
	k = dw_levels(m, a, levels);
	if (!k) {
		levels[0] = (struct ld_level) { .fn = sym };
		k = 1;
	}
	/* The outermost level is the function the symbol table names. */
	levels[k - 1].fn = sym ? sym : levels[k - 1].fn;
	if (detail == LD_NAME) {
		snprintf(buf, size, "%s", levels[k - 1].fn ? levels[k - 1].fn
						      : "??");
		return true;
	}
	if (detail == LD_SITE) {
		put_level(buf, size, &levels[k - 1], NULL);
		return true;
	}
	/* One line per level, innermost first; inlined ones say so. */
	for (i = 0; i < k && n < size; i++) {
		n += put_level(buf + n, size - n, &levels[i], NULL);
		if (n < size && i + 1 < k)
			n += (size_t) snprintf(buf + n, size - n,
					       " (inlined)\n");
	}
	if (n < size)
		snprintf(buf + n, size - n, " (%s+0x%lx)", base_name(mod),
			 (unsigned long) (a + 1 - base));
	return true;
}

static bool dw_data(char *buf, size_t size, uintptr_t a)
{
	Dwfl_Module *m = module_of(a);
	const char *name;
	GElf_Off off;
	GElf_Sym sym;

	if (!m)
		return false;
	name = dwfl_module_addrinfo(m, a, &off, &sym, NULL, NULL, NULL);
	if (!name || off >= (sym.st_size ? sym.st_size : 1))
		return false;
	if (off)
		snprintf(buf, size, "%s+%lu", name, (unsigned long) off);
	else
		snprintf(buf, size, "%s", name);
	return true;
}
#endif

/*
 * Describe the code at return address @ip (the call is the byte before):
 * "function file:line (object+0xoffset)" (LD_FULL), without the object
 * (LD_SITE), or just the function (LD_NAME).  With libdw, LD_FULL gives
 * a line per function inlined there, innermost first, each but the last
 * ending with "(inlined)"; the others name the function that was called
 * and its line where the inlined code began.
 */
void ld_describe_code(char *buf, size_t size, uintptr_t ip,
		      enum ld_detail detail)
{
	uintptr_t a = ip - 1;
	Dl_info info;
	const char *fn;

#ifdef LD_HAVE_LIBDW
	if (dw_code(buf, size, a, detail))
		return;
#endif
	if (dladdr((void *) a, &info) && info.dli_fname) {
		fn = info.dli_sname ? info.dli_sname : "??";
		if (detail == LD_FULL)
			snprintf(buf, size, "%s (%s+0x%lx)", fn,
				 base_name(info.dli_fname),
				 (unsigned long) (ip - (uintptr_t) info.dli_fbase));
		else
			snprintf(buf, size, "%s", fn);
		return;
	}
	snprintf(buf, size, "0x%lx", (unsigned long) ip);
}

/* Describe the data at @addr: its variable's name, or the address. */
void ld_describe_data(char *buf, size_t size, uintptr_t addr)
{
	Dl_info info;

#ifdef LD_HAVE_LIBDW
	if (dw_data(buf, size, addr))
		return;
#endif
	if (dladdr((void *) addr, &info) && info.dli_sname
	    && (uintptr_t) info.dli_saddr == addr) {
		snprintf(buf, size, "%s", info.dli_sname);
		return;
	}
	snprintf(buf, size, "at 0x%lx", (unsigned long) addr);
}
