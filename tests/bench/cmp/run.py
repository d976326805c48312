#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Run the side-by-side benchmarks of tests/bench/cmp/ and report them.

`scons bench` calls this with every program it built, as KEY=PATH pairs:

  rcu:<flavor>:<mode>:<lib>   cmp_rcu.c per flavor, mode inline|call,
                              lib ours|liburcu
  ck_rcu                      ck_rcu.c (ck_epoch)
  lfht:<lib>, ck_hash         cmp_lfht.c, ck_hash.c (ck_hs)
  sq:<lib>, ck_sq             cmp_sq.c, ck_sq.c (ck_stack, ck_fifo)

A missing key leaves its cells empty ("-"); --note says why in the report.

Method (docs/performance.md): the instruction counts come from one
callgrind run per program and function (they do not vary).  Everything
else runs ROUNDS times; within a round the programs that compete for a row
run one after the other (ours, liburcu, ck; the next round starts with
liburcu, and so on), so slow phases of the shared machine hit every column
alike.  A cell is the median of its per-round values, and the ratio is the
median of the per-round ratios ours/liburcu, with their range.

Writes results.md, results.json and, when gnuplot is installed,
read_throughput.png into --out.
"""
import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import time

# The flavors, in report order: --flavors (SConstruct's FLAVORS).
FLAVORS = []
MODES = ['inline', 'call']
LIBS = ['ours', 'liburcu', 'ck']
ICOUNT_N = 100000
# The UPDATER argument of the read runs (cmp_pace() in cmp_common.h): no
# updater, synchronize_rcu() back to back, and paced to a fixed rate of
# grace periods per second (inline builds only), which takes the
# updater's own speed out of the comparison of the readers.  The rate must
# be one that both libraries sustain, or it is not fixed: 2k/s (with two
# busy readers on two cores, liburcu 0.13's memb and bp updaters reach
# 5k-8k/s back to back, 10k/s was too many), and 250/s for signal, whose
# liburcu updater completes only about 400/s against a busy reader (each
# grace period takes it about 2 ms).
PACED = 'paced'
PACED_GPS = {'signal': 250}
PACED_GPS_DEFAULT = 2000
UPDATER_VARIANTS = (0, 1, PACED)
CONTROL_SECTION = ('Control: liburcu\'s program run in the ours slot and in the '
                   'liburcu slot, sections/s (M), no target')


def updater_arg(upd, flavor):
    """The UPDATER argument of cmp_rcu/ck_rcu for variant @upd."""
    return PACED_GPS.get(flavor, PACED_GPS_DEFAULT) if upd == PACED else upd


def updater_title(upd, flavor):
    if upd == PACED:
        rate = updater_arg(upd, flavor)
        return ' + updater at %gk GP/s' % (rate / 1000.0)
    return ' + updater' if upd else ''


UPDATER_PLOT_TITLES = {
    0: 'no updater',
    1: 'with an updater in synchronize_rcu() loop',
    PACED: 'with an updater paced at 2000 grace periods/s (signal: 250/s)'}
RUN_TIMEOUT = 300


def log(msg):
    print('bench: ' + msg, flush=True)


class Group:
    """Runs that compete for the same rows: one argv per library."""

    def __init__(self, gid, title, jobs):
        self.gid = gid
        self.title = title
        self.jobs = jobs            # lib -> argv
        self.results = {lib: [] for lib in jobs}    # lib -> [dict|None]


class Row:
    """One line of the table.

    cells: lib -> (group id, RESULT key); extra: RESULT key shown after
    the value (e.g. the p99 next to the median)."""

    def __init__(self, section, label, unit, better, target, cells,
                 scale=1.0, extra=None, extra_scale=1.0, extra_fmt=' / %s',
                 plot=None):
        self.section = section
        self.label = label
        self.unit = unit
        self.better = better
        self.target = target
        self.cells = cells
        self.scale = scale
        self.extra = extra
        self.extra_scale = extra_scale
        self.extra_fmt = extra_fmt
        self.plot = plot


def parse_results(text):
    out = {}
    for line in text.splitlines():
        m = re.match(r'RESULT (\S+) (\S+)$', line.strip())
        if m:
            out[m.group(1)] = float(m.group(2))
    return out


# Every run that failed or timed out: the report is still written, with
# an empty cell where the run failed, and then the runner exits non-zero.
FAILED_RUNS = []


def run_program(argv):
    try:
        proc = subprocess.run(argv, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True,
                              timeout=RUN_TIMEOUT)
    except subprocess.TimeoutExpired:
        log('timeout: ' + ' '.join(argv))
        FAILED_RUNS.append(' '.join(argv))
        return None
    if proc.returncode != 0:
        log('failed (exit %d): %s\n%s' % (proc.returncode, ' '.join(argv),
                                          proc.stderr.strip()))
        FAILED_RUNS.append(' '.join(argv))
        return None
    return parse_results(proc.stdout)


def callgrind_ir(argv, function):
    """Instructions executed inside FUNCTION (inclusive) under callgrind."""
    out = '/tmp/urcu-bench-callgrind.%d.out' % os.getpid()
    cmd = ['valgrind', '--tool=callgrind', '--callgrind-out-file=' + out,
           '--collect-atstart=no', '--toggle-collect=' + function] + argv
    try:
        proc = subprocess.run(cmd, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True,
                              timeout=RUN_TIMEOUT)
        if proc.returncode != 0:
            log('callgrind failed: %s\n%s' % (' '.join(cmd), proc.stderr[-2000:]))
            FAILED_RUNS.append(' '.join(cmd))
            return None
        with open(out) as f:
            for line in f:
                if line.startswith('totals:') or line.startswith('summary:'):
                    return int(line.split()[1])
    except (OSError, subprocess.TimeoutExpired) as e:
        log('callgrind failed: %s: %s' % (' '.join(cmd), e))
        FAILED_RUNS.append(' '.join(cmd))
    finally:
        if os.path.exists(out):
            os.unlink(out)
    return None


def loadavg():
    try:
        return os.getloadavg()[0]
    except OSError:
        return float('nan')


def cpu_model():
    try:
        out = subprocess.run(['lscpu'], stdout=subprocess.PIPE, text=True).stdout
        for line in out.splitlines():
            if line.startswith('Model name:'):
                return line.split(':', 1)[1].strip()
    except OSError:
        pass
    return 'unknown'


def package_version(name):
    try:
        out = subprocess.run(['dpkg-query', '-W', '-f=${Version}', name],
                             stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                             text=True)
        if out.returncode == 0 and out.stdout:
            return out.stdout
    except OSError:
        pass
    return None


def fmt(value, unit=None):
    if value is None:
        return '-'
    if unit == 'instr':
        return '%.1f' % value
    if value == 0:
        return '0'
    if abs(value) >= 100:
        return '%.0f' % value
    if abs(value) >= 10:
        return '%.1f' % value
    if abs(value) >= 1:
        return '%.2f' % value
    return '%.3g' % value


def build_plan(progs, seconds):
    """Return (icount jobs, groups, rows) for the programs we have."""
    s = '%g' % seconds
    groups = {}
    rows = []
    icount = []     # (row label, lib, argv)

    def group(gid, title, jobs):
        jobs = {lib: argv for lib, argv in jobs.items() if argv}
        if gid not in groups and jobs:
            groups[gid] = Group(gid, title, jobs)
        return gid

    def prog(key, *args):
        return [progs[key]] + list(args) if key in progs else None

    def cells(gid, key, libs):
        return {lib: (gid, key) for lib in libs if gid in groups and lib in groups[gid].jobs}

    # Read side.  UPDATER_VARIANTS: none, back to back, paced.
    for mode in MODES:
        for flavor in FLAVORS:
            for threads in (1, 2):
                for upd in UPDATER_VARIANTS:
                    if upd == PACED and mode != 'inline':
                        continue
                    args = ('read', str(threads),
                            str(updater_arg(upd, flavor)), s)
                    jobs = {lib: prog('rcu:%s:%s:%s' % (flavor, mode, lib), *args)
                            for lib in ('ours', 'liburcu')}
                    if flavor == 'memb' and mode == 'inline':
                        jobs['ck'] = prog('ck_rcu', *args)
                    title = 'read %s %s, %d reader%s%s' % (
                        flavor, mode, threads, 's' if threads > 1 else '',
                        updater_title(upd, flavor))
                    gid = group('read:%s:%s:%d:%s' % (mode, flavor, threads, upd),
                                title, jobs)
                    rows.append(Row('Read side: sections/s (M), higher is better '
                                    '(after @: the updater\'s grace periods/s, k)',
                                    title, 'M/s', 'higher', 'ge1',
                                    cells(gid, 'read', LIBS), scale=1e-6,
                                    extra='read_gps' if upd else None,
                                    extra_scale=1e-3, extra_fmt=' @ %sk',
                                    plot=(mode, upd, flavor, threads)))
    # The same runs, counted per second of reader CPU time (cmp_cpu_rate()
    # in cmp_common.h): time other processes take from the readers on a
    # shared machine drops out of these.
    for mode in MODES:
        for flavor in FLAVORS:
            for threads in (1, 2):
                for upd in UPDATER_VARIANTS:
                    gid = 'read:%s:%s:%d:%s' % (mode, flavor, threads, upd)
                    if gid not in groups:
                        continue
                    title = groups[gid].title
                    rows.append(Row('Read side per second of reader CPU time: '
                                    'sections (M), higher is better',
                                    title + ', per CPU-s', 'M/s', 'higher', 'ge1',
                                    cells(gid, 'read_cpu', LIBS), scale=1e-6))
    # Control: liburcu's QSBR inline program in both columns, run and
    # summarized exactly like a comparison.  Both libraries execute the
    # same instructions in these readers' loops, so ours against liburcu
    # on these rows is a tie by construction; the control's ratio shows
    # how far a tie strays from 1.00 in this run, on this machine.
    for threads in (1, 2):
        for upd in UPDATER_VARIANTS:
            args = ('read', str(threads), str(updater_arg(upd, 'qsbr')), s)
            same = prog('rcu:qsbr:inline:liburcu', *args)
            title = 'control: liburcu against itself, read qsbr inline, %d reader%s%s' % (
                threads, 's' if threads > 1 else '', updater_title(upd, 'qsbr'))
            gid = group('control:%d:%s' % (threads, upd), title,
                        {'ours': same, 'liburcu': same})
            for key, suffix in (('read', ''), ('read_cpu', ', per CPU-s')):
                rows.append(Row(CONTROL_SECTION, title + suffix, 'M/s', 'higher',
                                'control', cells(gid, key, ('ours', 'liburcu')),
                                scale=1e-6))
    # Instructions per section (callgrind).
    for mode in MODES:
        for flavor in FLAVORS:
            label = 'instructions per section beyond the dereference, %s %s' % (
                flavor, mode)
            for lib in ('ours', 'liburcu'):
                argv = prog('rcu:%s:%s:%s' % (flavor, mode, lib), 'icount', str(ICOUNT_N))
                if argv:
                    icount.append((label, lib, argv))
            if flavor == 'memb' and mode == 'inline' and 'ck_rcu' in progs:
                icount.append((label, 'ck', prog('ck_rcu', 'icount', str(ICOUNT_N))))
            target = 'zero' if flavor == 'qsbr' else None
            rows.append(Row('Read side: instructions per section (callgrind), lower is better',
                            label, 'instr', 'lower', target,
                            {lib: ('icount', label) for lib in LIBS}))
    # Update side.
    for flavor in FLAVORS:
        for readers in (0, 1, 2):
            jobs = {lib: prog('rcu:%s:inline:%s' % (flavor, lib), 'sync', str(readers), s)
                    for lib in ('ours', 'liburcu')}
            if flavor == 'memb':
                jobs['ck'] = prog('ck_rcu', 'sync', str(readers), s)
            title = 'synchronize_rcu latency %s, %d reader%s' % (
                flavor, readers, '' if readers == 1 else 's')
            gid = group('sync:%s:%d' % (flavor, readers), title, jobs)
            rows.append(Row('Update side: synchronize_rcu() latency, median / p99 (us), lower is better',
                            title, 'us', 'lower', None,
                            cells(gid, 'sync_median_us', LIBS), extra='sync_p99_us'))
    for flavor in FLAVORS:
        jobs = {lib: prog('rcu:%s:inline:%s' % (flavor, lib), 'sync2', s)
                for lib in ('ours', 'liburcu')}
        if flavor == 'memb':
            jobs['ck'] = prog('ck_rcu', 'sync2', s)
        title = '2 concurrent synchronize_rcu callers + 1 reader, %s' % flavor
        gid = group('sync2:%s' % flavor, title, jobs)
        rows.append(Row('Update side: returns from synchronize_rcu()/s (k), higher is better',
                        title, 'k/s', 'higher', None, cells(gid, 'sync2', LIBS),
                        scale=1e-3))
    for flavor in FLAVORS:
        jobs = {lib: prog('rcu:%s:inline:%s' % (flavor, lib), 'callrcu', s)
                for lib in ('ours', 'liburcu')}
        if flavor == 'memb':
            jobs['ck'] = prog('ck_rcu', 'callrcu', s)
        title = 'call_rcu callbacks, 1 thread, %s' % flavor
        gid = group('callrcu:%s' % flavor, title, jobs)
        rows.append(Row('Update side: call_rcu callbacks/s (M), higher is better',
                        title, 'M/s', 'higher', None, cells(gid, 'callrcu', LIBS),
                        scale=1e-6))
    # Hash table.
    for keys, kname in ((1000, '1k'), (1000000, '1M')):
        jobs = {'ours': prog('lfht:ours', str(keys), s),
                'liburcu': prog('lfht:liburcu', str(keys), s),
                'ck': prog('ck_hash', str(keys), s)}
        gid = group('lfht:%s' % kname, 'hash table, %s keys' % kname, jobs)
        for threads in (1, 2):
            for wl, wname in (('lookup', 'lookup only'), ('mix90', '90% lookup / 10% update'),
                              ('mix50', '50% lookup / 50% update')):
                rows.append(Row('Hash table (cds_lfht; ck: ck_hs): operations/s (M), higher is better',
                                'hash %s keys, %s, %d thread%s' % (
                                    kname, wname, threads, 's' if threads > 1 else ''),
                                'M/s', 'higher', 'ge1' if wl == 'lookup' else None,
                                cells(gid, '%s_%dt' % (wl, threads), LIBS), scale=1e-6))
        rows.append(Row('Hash table resize (ms), lower is better',
                        'hash %s keys, shrink to 1/8 of the buckets' % kname, 'ms',
                        'lower', None, cells(gid, 'shrink_ms', ('ours', 'liburcu'))))
        rows.append(Row('Hash table resize (ms), lower is better',
                        'hash %s keys, grow back 8x (ck: ck_hs_grow to 16 slots/key)' % kname,
                        'ms', 'lower', None, cells(gid, 'grow_ms', LIBS)))
    # Stacks and queues.
    for struct, ck in (('lfstack', 'stack'), ('rculfqueue', 'fifo'), ('wfcqueue', 'fifo')):
        for threads in (1, 2):
            args = (str(threads), s)
            jobs = {'ours': prog('sq:ours', struct, *args),
                    'liburcu': prog('sq:liburcu', struct, *args),
                    'ck': prog('ck_sq', ck, *args)}
            title = '%s, %d thread%s' % (struct, threads, 's' if threads > 1 else '')
            gid = group('sq:%s:%d' % (struct, threads), title, jobs)
            rows.append(Row('Stacks and queues (ck: ck_stack, ck_fifo_mpmc): push+pop operations/s (M), higher is better',
                            title, 'M/s', 'higher', None, cells(gid, 'ops', LIBS),
                            scale=1e-6))
    return icount, groups, rows


def run_icount(icount):
    """label -> lib -> instructions per section beyond the dereference."""
    values = {}
    if not icount:
        return values
    if not shutil.which('valgrind'):
        log('valgrind not found (Debian package valgrind): skipping the '
            'instruction counts')
        return values
    for label, lib, argv in icount:
        log('callgrind: %s (%s)' % (label, lib))
        sections = callgrind_ir(argv, 'bench_sections')
        baseline = callgrind_ir(argv, 'bench_baseline')
        if sections is None or baseline is None:
            continue
        values.setdefault(label, {})[lib] = (sections - baseline) / ICOUNT_N
    return values


def run_rounds(groups, rounds, loads):
    order = list(groups.values())
    for r in range(rounds):
        libs = LIBS[r % 2:] + LIBS[:r % 2]      # alternate who goes first
        for i, g in enumerate(order):
            log('round %d/%d, %d/%d: %s' % (r + 1, rounds, i + 1, len(order), g.title))
            for lib in libs:
                if lib in g.jobs:
                    g.results[lib].append(run_program(g.jobs[lib]))
        loads.append(loadavg())


def summarize(row, groups, icount_values):
    """Cell values, extra values and the ratio of one row."""
    values, extras, per_round = {}, {}, {}
    for lib, (gid, key) in row.cells.items():
        if gid == 'icount':
            v = icount_values.get(key, {}).get(lib)
            if v is not None:
                values[lib] = v
                per_round[lib] = [v]
            continue
        runs = groups[gid].results[lib]
        series = [run.get(key) if run else None for run in runs]
        good = [v * row.scale for v in series if v is not None]
        per_round[lib] = [v * row.scale if v is not None else None for v in series]
        if good:
            values[lib] = statistics.median(good)
        if row.extra:
            ex = [run.get(row.extra) for run in runs if run and row.extra in run]
            if ex:
                extras[lib] = statistics.median(ex) * row.extra_scale
    ratios = []
    a, b = per_round.get('ours', []), per_round.get('liburcu', [])
    # An instruction count near zero makes no meaningful denominator.
    floor = 0.05 if row.unit == 'instr' else 0
    for x, y in zip(a, b):
        if x is not None and y and y > floor:
            ratios.append(x / y)
    return values, extras, ratios


def target_status(row, values, ratio):
    if row.target == 'control':
        return ''
    if row.target == 'ge1':
        if ratio is None:
            return ''
        return 'ok' if ratio >= 1.0 else '**miss**'
    if row.target == 'zero':
        if 'ours' not in values:
            return ''
        return 'ok' if values['ours'] < 0.05 else '**miss**'
    # No target: still say where ours is behind liburcu (median ratio).
    if ratio is not None and (ratio < 1.0 if row.better == 'higher'
                              else ratio > 1.0):
        return 'slower'
    return ''


def render(rows, groups, icount_values, header):
    lines = list(header)
    lines.append('| workload | ours | liburcu | ck | ratio ours/liburcu (range) | target |')
    lines.append('|---|---|---|---|---|---|')
    section = None
    table = []
    for row in rows:
        values, extras, ratios = summarize(row, groups, icount_values)
        if not values:
            continue
        if row.section != section:
            section = row.section
            lines.append('| **%s** | | | | | |' % section)
        ratio = statistics.median(ratios) if ratios else None
        cells = []
        for lib in LIBS:
            text = fmt(values.get(lib), row.unit)
            if lib in extras:
                text += row.extra_fmt % fmt(extras[lib])
            cells.append(text)
        if ratio is None:
            rtext = '-'
        elif len(ratios) > 1:
            rtext = '%.3f (%.2f-%.2f)' % (ratio, min(ratios), max(ratios))
        else:
            rtext = '%.3f' % ratio
        status = target_status(row, values, ratio)
        lines.append('| %s | %s | %s |' % (row.label, ' | '.join(cells), rtext)
                     + ' %s |' % status)
        table.append({'section': row.section, 'workload': row.label,
                      'unit': row.unit, 'better': row.better,
                      'values': values, 'extra': extras, 'ratios': ratios,
                      'ratio': ratio, 'target': status.strip('*')})
    return lines, table


def plot(rows, groups, icount_values, out):
    """read_throughput.png: read-side sections/s per flavor and thread count."""
    gp = shutil.which('gnuplot')
    if not gp:
        log('gnuplot not found (Debian package gnuplot-nox): no plot')
        return None
    panels = {}
    for row in rows:
        if not row.plot:
            continue
        mode, upd, flavor, threads = row.plot
        values, _, _ = summarize(row, groups, icount_values)
        panels.setdefault((mode, upd), []).append(
            ('%s/%d' % (flavor, threads),
             [values.get(lib) for lib in LIBS]))
    if not panels:
        return None
    script = ['set terminal pngcairo noenhanced size 1400,%d font ",10"'
              % (500 * ((len(panels) + 1) // 2)),
              "set output '%s'" % os.path.join(out, 'read_throughput.png'),
              'set multiplot layout %d,2 title "Read-side sections per second '
              % ((len(panels) + 1) // 2) +
              '(millions, log scale), by flavor / reader threads"',
              'set style data histogram', 'set style histogram cluster gap 1',
              'set style fill solid 0.8 border -1', 'set logscale y',
              'set grid ytics', 'set key top left', 'set xtics rotate by -30',
              'set ylabel "M sections/s"']
    for (mode, upd) in sorted(panels, key=lambda k: (MODES.index(k[0]),
                                                    UPDATER_VARIANTS.index(k[1]))):
        data = os.path.join(out, 'read_%s_%s.dat' % (mode, upd))
        with open(data, 'w') as f:
            f.write('# flavor/threads ours liburcu ck\n')
            for name, vals in panels[(mode, upd)]:
                f.write('%s %s\n' % (name, ' '.join(
                    '%g' % v if v else 'NaN' for v in vals)))
        script.append('set title "%s read side, %s"' % (
            'inlined (_LGPL_SOURCE)' if mode == 'inline' else 'out-of-line',
            UPDATER_PLOT_TITLES[upd]))
        series = ["'%s' using 2:xtic(1) title 'ours'" % data]
        titles = {3: 'liburcu', 4: 'ck_epoch'}
        for col, lib in ((3, 'liburcu'), (4, 'ck')):
            if any(vals[LIBS.index(lib)] for _, vals in panels[(mode, upd)]):
                series.append("'' using %d title '%s'" % (col, titles[col]))
        script.append('plot ' + ', '.join(series))
    script.append('unset multiplot')
    proc = subprocess.run([gp], input='\n'.join(script) + '\n', text=True,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if proc.returncode != 0:
        log('gnuplot failed: ' + proc.stderr.strip())
        return None
    return os.path.join(out, 'read_throughput.png')


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--out', required=True, help='directory for the reports')
    ap.add_argument('--rounds', type=int,
                    default=int(os.environ.get('URCU_BENCH_ROUNDS', '5')))
    ap.add_argument('--seconds', type=float,
                    default=float(os.environ.get('URCU_BENCH_SECONDS', '0.3')))
    ap.add_argument('--variant', default='')
    ap.add_argument('--note', action='append', default=[])
    ap.add_argument('--flavors', required=True,
                    help='comma-separated flavor names, in report order')
    ap.add_argument('programs', nargs='*', help='KEY=PATH')
    args = ap.parse_args()
    FLAVORS[:] = args.flavors.split(',')

    progs = {}
    for item in args.programs:
        key, _, path = item.partition('=')
        progs[key] = os.path.abspath(path)
    os.makedirs(args.out, exist_ok=True)
    icount, groups, rows = build_plan(progs, args.seconds)

    loads = [loadavg()]
    started = time.time()
    log('%d programs, %d rounds of %d comparisons, %g s per run; '
        '1-min load average now %.2f' % (len(progs), args.rounds, len(groups),
                                         args.seconds, loads[0]))
    icount_values = run_icount(icount)
    run_rounds(groups, args.rounds, loads)
    elapsed = time.time() - started

    versions = []
    for pkg in ('liburcu-dev', 'libck-dev'):
        v = package_version(pkg)
        if v:
            versions.append('%s %s' % (pkg, v))
    header = [
        '# Benchmarks side by side: ours, liburcu, Concurrency Kit',
        '',
        'Generated by `scons bench` (tests/bench/cmp/run.py)%s on %s UTC.' % (
            ' for build/' + args.variant if args.variant else '',
            time.strftime('%Y-%m-%d %H:%M', time.gmtime(started))),
        '',
        '- Machine: %s, %d CPUs, Linux %s.' % (cpu_model(), os.cpu_count() or 0,
                                               os.uname().release),
        '- 1-minute load average: %.2f at the start; %s after each round; '
        '%.2f at the end (run took %.0f s).' % (
            loads[0], ', '.join('%.2f' % l for l in loads[1:]), loadavg(), elapsed),
        '- %d rounds, %g s per run; cells are medians over the rounds, the '
        'ratio is the median (and range) of the per-round ratios ours/liburcu.'
        % (args.rounds, args.seconds),
        '- Peers: %s.' % (', '.join(versions) if versions else 'versions unknown'),
    ]
    for note in args.note:
        header.append('- ' + note)
    header.append('- ck: ck_epoch appears on the memb rows of the read side and the '
                  'update side (it has no flavors), ck_hs on the hash-table rows, '
                  'ck_stack on the lfstack rows and ck_fifo_mpmc on both queue rows.')
    header.append('- target: the issue asks for ratio >= 1.00 on every read-side '
                  'throughput row and hash-table lookup row, and for zero '
                  'instructions beyond the dereference in QSBR sections; '
                  '`slower` marks a row without a target where the median '
                  'ratio has ours behind liburcu.')
    header.append('- control: rows where liburcu\'s QSBR inline program runs in '
                  'both slots, to show how far a tie strays from 1.00 (their '
                  'section and the line after the table).')
    header.append('')
    lines, table = render(rows, groups, icount_values, header)
    misses = [t['workload'] for t in table if t['target'] == 'miss']
    slower = [t['workload'] for t in table if t['target'] == 'slower']
    lines.append('')
    if misses:
        lines.append('Rows below target (%d): %s.' % (len(misses), '; '.join(misses)))
    else:
        lines.append('Every row with a target meets it.')
    controls = [t['ratio'] for t in table
                if t['section'] == CONTROL_SECTION and t['ratio'] is not None]
    if controls:
        lines.append('')
        lines.append('Control rows (liburcu against itself, %d): median ratios '
                     '%.3f-%.3f. A tie between two builds strays that far from '
                     '1.00 in this run.' % (len(controls), min(controls),
                                           max(controls)))
    if slower:
        lines.append('')
        lines.append('Rows without a target where ours is slower than liburcu '
                     '(%d): %s.' % (len(slower), '; '.join(slower)))
    png = plot(rows, groups, icount_values, args.out)
    if png:
        lines.append('')
        lines.append('Plot: `%s`.' % os.path.basename(png))
    text = '\n'.join(lines) + '\n'
    with open(os.path.join(args.out, 'results.md'), 'w') as f:
        f.write(text)
    with open(os.path.join(args.out, 'results.json'), 'w') as f:
        json.dump({'loads': loads, 'rounds': args.rounds, 'seconds': args.seconds,
                   'rows': table}, f, indent=1)
    print(text, flush=True)
    log('wrote %s' % os.path.join(args.out, 'results.md'))
    if FAILED_RUNS:
        log('%d runs failed, the first: %s' % (len(FAILED_RUNS), FAILED_RUNS[0]))
        return 1
    return 0


if __name__ == '__main__':
    sys.exit(main())
