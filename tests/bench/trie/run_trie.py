#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Run the trie benchmark (trie_bench.c) and write its report.

Usage: run_trie.py TRIE_BENCH [--qsbr TRIE_BENCH_QSBR] [--out FILE]
                   [--note TEXT]...

For each flavor of the trie (memb: TRIE_BENCH; qsbr: TRIE_BENCH_QSBR, if
given), key kind (u64, dns) and size (1k, 1M keys) one process builds
every structure once and runs ROUNDS rounds; in each round
every configuration (threads x workload x structure x query) runs for
SECONDS, the competitors of a configuration back to back, starting with a
different one each round.  A cell is the median over the rounds; a ratio
is the median of the per-round ratios, with their range.  The report uses
the CPU-time view (operations per second of the threads' own CPU time,
cmp_cpu_rate() in tests/bench/cmp/cmp_common.h), which drops the time
other processes take from the threads on a shared machine; the wall-clock
medians are in the JSON file.

A control, the trie's exact lookups in a second slot, shows how far a
tie strays from 1 in each configuration; a ratio to critnib (target 1)
below 1 but inside the span of the control rows' median ratios (lowest
to highest, over the whole run) is reported as a tie.

Then: memory per key (trie_bench mem) and, with valgrind installed,
instructions and data cache misses per query from callgrind's cache
simulation (repeatable counts), for 1k and 1M keys.

Knobs (environment): URCU_BENCH_ROUNDS (default 5), URCU_BENCH_SECONDS
(default 0.3), URCU_BENCH_MISSES=0 to skip the valgrind runs,
URCU_BENCH_CALL_RCU=percpu for a pinned call_rcu worker per CPU instead
of the process-wide one (trie_bench reads it; the report says so).
"""
import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys

KINDS = ['u64', 'dns']
SIZES = [1000, 1000000]
THREADS = [1, 2]
WORKLOADS = ['lookup', 'mix90']
FLAVORS = ['memb', 'qsbr']
MISS_QUERIES = 200000
# (flavor, structure, query); the peers' rows need no flavor of their own.
MISS_RUNS = [('memb', 'trie', 'exact'), ('qsbr', 'trie', 'exact'),
             ('memb', 'trie', 'le'), ('memb', 'trie', 'ge'),
             ('memb', 'lfht', 'exact'), ('memb', 'critnib', 'exact'),
             ('memb', 'critnib', 'le'), ('memb', 'critnib', 'ge'),
             ('memb', 'rbtree', 'exact'), ('memb', 'rbtree', 'le')]


def log(msg):
    print('bench: ' + msg, file=sys.stderr, flush=True)


def results(text):
    out = {}
    for line in text.splitlines():
        m = re.match(r'RESULT (\S+) (\S+)$', line.strip())
        if m:
            out[m.group(1)] = float(m.group(2))
    return out


def run(argv, timeout=3600):
    log(' '.join(argv))
    p = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       universal_newlines=True, timeout=timeout)
    if p.returncode:
        log('failed (%d): %s' % (p.returncode, p.stderr.strip()))
        return None
    return results(p.stdout)


def median(values):
    return statistics.median(values) if values else None


def fmt(v, digits=3):
    if v is None:
        return '-'
    if v >= 100:
        return '%.0f' % v
    if v >= 10:
        return '%.1f' % v
    return ('%.' + str(digits) + 'g') % v


class Data:
    """Per-round values of one trie_bench run: (threads, wl, s, q, round)."""

    def __init__(self, res, rounds):
        self.res = res or {}
        self.rounds = rounds

    def values(self, t, wl, s, q, view='cpu'):
        out = []
        for r in range(self.rounds):
            key = 'r%d:%dt:%s:%s:%s' % (r, t, wl, s, q)
            if view == 'cpu':
                key += ':cpu'
            if key in self.res:
                out.append(self.res[key])
        return out

    def cell(self, t, wl, s, q):
        return median(self.values(t, wl, s, q))

    def ratio(self, t, wl, a, b, invert=False):
        """Median and range of per-round a/b (b/a with invert)."""
        va, vb = self.values(t, wl, *a), self.values(t, wl, *b)
        rs = [(y / x if invert else x / y) for x, y in zip(va, vb)
              if x and y]
        if not rs:
            return None
        return (statistics.median(rs), min(rs), max(rs))


def fmt_ratio(r):
    if r is None:
        return '-'
    return '%.2f (%.2f-%.2f)' % r


def verdict(r, target, higher, span=None):
    """ok or miss; with @span, the lowest and highest median ratios of
    the run's control rows (the trie against itself), a median below the
    target but inside that span is a tie: the run cannot tell it from the
    trie against itself (docs/performance.md)."""
    if r is None:
        return '-'
    ok = r[0] >= target if higher else r[0] <= target
    if ok:
        return 'ok'
    if span and span[0] <= r[0] <= span[1]:
        return 'tie (control)'
    return '**miss**'


def misses(benches, kind, n):
    """Per-query Ir, D1mr and DLmr from callgrind's cache simulation."""
    out = {}
    if os.environ.get('URCU_BENCH_MISSES', '1') == '0':
        return out, 'skipped (URCU_BENCH_MISSES=0)'
    if not shutil.which('valgrind'):
        return out, 'skipped: valgrind is not installed (apt-get install valgrind)'
    for fl, s, q in MISS_RUNS:
        if (s == 'critnib' and kind != 'u64') or fl not in benches:
            continue
        bench = benches[fl]
        tmp = os.path.join(os.path.dirname(os.path.abspath(bench)),
                           'trie_bench.callgrind')
        argv = ['valgrind', '--tool=callgrind', '--cache-sim=yes',
                '--collect-atstart=no', '--toggle-collect=bench_queries',
                '--callgrind-out-file=' + tmp, bench, 'misses', s, q, kind,
                str(n), str(MISS_QUERIES)]
        log(' '.join(argv))
        p = subprocess.run(argv, stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL, timeout=3600)
        if p.returncode or not os.path.exists(tmp):
            continue
        with open(tmp) as f:
            text = f.read()
        os.unlink(tmp)
        events = re.search(r'^events: (.*)$', text, re.M).group(1).split()
        totals = re.search(r'^(?:summary|totals): (.*)$', text, re.M)
        vals = dict(zip(events, [int(x) for x in totals.group(1).split()]))
        out[(fl, s, q)] = {k: vals.get(k, 0) / MISS_QUERIES
                           for k in ('Ir', 'D1mr', 'DLmr')}
    return out, None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('bench')
    ap.add_argument('--qsbr')
    ap.add_argument('--out')
    ap.add_argument('--note', action='append', default=[])
    ap.add_argument('--replay', metavar='JSON',
                    help='report the results of an earlier run (its '
                    'trie.json) instead of running')
    args = ap.parse_args()
    rounds = int(os.environ.get('URCU_BENCH_ROUNDS', '5'))
    seconds = float(os.environ.get('URCU_BENCH_SECONDS', '0.3'))
    call_rcu = os.environ.get('URCU_BENCH_CALL_RCU', 'default')
    benches = {'memb': args.bench}
    if args.qsbr:
        benches['qsbr'] = args.qsbr
    flavors = [f for f in FLAVORS if f in benches]

    mem = {}
    miss = {}
    miss_note = None
    if args.replay:
        with open(args.replay) as f:
            old = json.load(f)
        rounds, seconds, raw, mem = (old['rounds'], old['seconds'],
                                     old['runs'], old['mem'])
        uptime = old.get('uptime', 'not recorded')
        call_rcu = old.get('call_rcu', 'default')
        for kn, m in old['misses'].items():
            k, n = kn.split(':')
            miss[(k, int(n))] = {tuple(fsq.split(':')): v
                                 for fsq, v in m.items()}
        if not any(miss.values()):
            miss_note = 'not measured in the run replayed'
        args.note.append('results of the run in %s, reported again.'
                         % args.replay)
    else:
        raw = {}
        for kind in KINDS:
            for n in SIZES:
                for fl in flavors:
                    raw['%s:%d:%s' % (kind, n, fl)] = run(
                        [benches[fl], 'run', kind, str(n), str(rounds),
                         str(seconds)])
        for kind in KINDS:
            mem[kind] = run([args.bench, 'mem', kind, '1000000']) or {}
            for n in SIZES:
                miss[(kind, n)], miss_note = misses(benches, kind, n)
        uptime = subprocess.run(['uptime'], stdout=subprocess.PIPE,
                                universal_newlines=True).stdout.strip()
    data = {(kind, n, fl): Data(raw.get('%s:%d:%s' % (kind, n, fl)), rounds)
            for kind in KINDS for n in SIZES for fl in flavors}

    L = []
    L.append('# Trie benchmark (tests/bench/trie)')
    L.append('')
    L.append('%d rounds of %g s per configuration; `uptime` at the end: %s.'
             % (rounds, seconds, uptime))
    L.append('Cells: million operations per second of CPU time, median of '
             'the rounds; ratios: median of the per-round ratios (range). '
             'Flavor: the RCU flavor of the trie and cds_lfht (the rbtree '
             'and critnib run in the same process, next to them).')
    if call_rcu != 'default':
        args.note.append('call_rcu workers: %s (URCU_BENCH_CALL_RCU), '
                         'not the process-wide worker.' % call_rcu)
    for note in args.note:
        L.append('')
        L.append('Note: ' + note)
    rows = [(k, n, t, wl, fl) for k in KINDS for n in SIZES for t in THREADS
            for wl in WORKLOADS for fl in flavors]

    def label(k, n, t, wl, fl):
        return '%s %s, %dt, %s, %s' % (k, '1M' if n >= 1000000 else '1k', t,
                                       'lookups' if wl == 'lookup'
                                       else '90/10', fl)

    # The trie's exact lookups against themselves in a second slot.
    control = {row: data[row[:2] + (row[4],)].ratio(
        row[2], row[3], ('trie', 'exact'), ('control', 'exact'))
        for row in rows}
    medians = [r[0] for r in control.values() if r]
    span = (min(medians), max(medians)) if medians else None

    L.append('')
    L.append('## Exact lookups: trie vs cds_lfht (target: ratio >= 0.8)')
    L.append('')
    L.append('| keys, threads, workload, flavor | trie | cds_lfht | ratio | target |')
    L.append('|---|---|---|---|---|')
    for k, n, t, wl, fl in rows:
        d = data[(k, n, fl)]
        r = d.ratio(t, wl, ('trie', 'exact'), ('lfht', 'exact'))
        L.append('| %s | %s | %s | %s | %s |' % (
            label(k, n, t, wl, fl), fmt(d.cell(t, wl, 'trie', 'exact')),
            fmt(d.cell(t, wl, 'lfht', 'exact')), fmt_ratio(r),
            verdict(r, 0.8, True)))

    L.append('')
    L.append('## Neighbours of absent keys vs exact lookups of present keys '
             '(target: time ratio <= 1.25)')
    L.append('')
    L.append('Time ratio = exact rate / neighbour rate.')
    L.append('')
    L.append('| keys, threads, workload, flavor | exact | le | ge | le/exact | ge/exact | target |')
    L.append('|---|---|---|---|---|---|---|')
    for k, n, t, wl, fl in rows:
        d = data[(k, n, fl)]
        rle = d.ratio(t, wl, ('trie', 'exact'), ('trie', 'le'))
        rge = d.ratio(t, wl, ('trie', 'exact'), ('trie', 'ge'))
        worst = max([r for r in (rle, rge) if r], default=None,
                    key=lambda r: r[0])
        L.append('| %s | %s | %s | %s | %s | %s | %s |' % (
            label(k, n, t, wl, fl), fmt(d.cell(t, wl, 'trie', 'exact')),
            fmt(d.cell(t, wl, 'trie', 'le')), fmt(d.cell(t, wl, 'trie', 'ge')),
            fmt_ratio(rle), fmt_ratio(rge), verdict(worst, 1.25, False)))

    L.append('')
    L.append('## Integer keys: trie vs critnib (target: ratio >= 1)')
    L.append('')
    L.append('| keys, threads, workload, flavor | query | trie | critnib | ratio | target |')
    L.append('|---|---|---|---|---|---|')
    for k, n, t, wl, fl in rows:
        if k != 'u64':
            continue
        d = data[(k, n, fl)]
        for q in ['exact', 'le', 'ge']:
            r = d.ratio(t, wl, ('trie', q), ('critnib', q))
            L.append('| %s | %s | %s | %s | %s | %s |' % (
                label(k, n, t, wl, fl), q, fmt(d.cell(t, wl, 'trie', q)),
                fmt(d.cell(t, wl, 'critnib', q)), fmt_ratio(r),
                verdict(r, 1.0, True, span)))

    L.append('')
    L.append('## Trie vs a pthread_rwlock red-black tree '
             '(target: ratio >= 3 at 2 threads, 90/10)')
    L.append('')
    L.append('| keys, threads, workload, flavor | query | trie | rbtree | ratio | target |')
    L.append('|---|---|---|---|---|---|')
    for k, n, t, wl, fl in rows:
        d = data[(k, n, fl)]
        for q in ['exact', 'le', 'ge']:
            r = d.ratio(t, wl, ('trie', q), ('rbtree', q))
            target = verdict(r, 3.0, True) if t == 2 and wl == 'mix90' else ''
            L.append('| %s | %s | %s | %s | %s | %s |' % (
                label(k, n, t, wl, fl), q, fmt(d.cell(t, wl, 'trie', q)),
                fmt(d.cell(t, wl, 'rbtree', q)), fmt_ratio(r), target))

    L.append('')
    L.append('## Control: the trie against itself (no target)')
    L.append('')
    L.append('The trie\'s exact lookups run twice in every configuration, '
             'in two slots of the rotation, as two competitors would: their '
             'ratio shows how far a tie strays from 1.00 in this run. A '
             'ratio to critnib below its target of 1 but inside the span '
             'of the control rows\' medians is marked as a tie.')
    L.append('')
    L.append('| keys, threads, workload, flavor | trie | control | ratio |')
    L.append('|---|---|---|---|')
    for k, n, t, wl, fl in rows:
        r = control[(k, n, t, wl, fl)]
        d = data[(k, n, fl)]
        L.append('| %s | %s | %s | %s |' % (
            label(k, n, t, wl, fl), fmt(d.cell(t, wl, 'trie', 'exact')),
            fmt(d.cell(t, wl, 'control', 'exact')), fmt_ratio(r)))
    if span:
        L.append('')
        L.append('Control rows (%d): median ratios %.2f-%.2f.'
                 % (len(medians), span[0], span[1]))

    L.append('')
    L.append('## Memory, 1M keys')
    L.append('')
    L.append('Bytes per key the structure allocates for itself (inner nodes, '
             'bucket arrays), beyond the node embedded in the caller\'s '
             'object, once replaced nodes are reclaimed; that node\'s size '
             'is given apart.')
    L.append('')
    L.append('| keys (mean length) | trie | cds_lfht | trie node | cds_lfht node | rbtree node |')
    L.append('|---|---|---|---|---|---|')
    for k in KINDS:
        m = mem[k]
        L.append('| %s (%s B) | %s | %s | %s | %s | %s |' % (
            k, fmt(m.get('keylen')), fmt(m.get('mem:trie')),
            fmt(m.get('mem:lfht')), fmt(m.get('node:trie')),
            fmt(m.get('node:lfht')), fmt(m.get('node:rbtree'))))

    L.append('')
    L.append('## Instructions and cache misses per query (callgrind --cache-sim=yes)')
    L.append('')
    if miss_note:
        L.append(miss_note)
    else:
        L.append('Ir: instructions; D1mr: level-1 data read misses; DLmr: '
                 'last-level data read misses, in valgrind\'s model of this '
                 'machine\'s caches.  One thread, %d random queries (exact: '
                 'present keys; le, ge: absent keys), the benchmark loop '
                 'included.' % MISS_QUERIES)
        L.append('')
        L.append('| keys | structure, query, flavor | Ir | D1mr | DLmr |')
        L.append('|---|---|---|---|---|')
        for k in KINDS:
            for n in SIZES:
                for fl, s, q in MISS_RUNS:
                    v = miss[(k, n)].get((fl, s, q))
                    if v:
                        L.append('| %s %s | %s %s%s | %.0f | %.2f | %.2f |' % (
                            k, '1M' if n >= 1000000 else '1k', s, q,
                            ', ' + fl if s in ('trie', 'lfht') else '',
                            v['Ir'], v['D1mr'], v['DLmr']))
    L.append('')
    text = '\n'.join(L)
    print(text)
    if args.out:
        with open(args.out, 'w') as f:
            f.write(text)
        with open(os.path.splitext(args.out)[0] + '.json', 'w') as f:
            json.dump({'rounds': rounds, 'seconds': seconds, 'runs': raw,
                       'mem': mem, 'uptime': uptime, 'call_rcu': call_rcu,
                       'misses': {'%s:%d' % kn: {'%s:%s:%s' % fsq: v
                                                 for fsq, v in m.items()}
                                  for kn, m in miss.items()}}, f, indent=1)


if __name__ == '__main__':
    main()
