#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Model-check the grace-period engine with Spin: the `scons verify` target.

First checks that the code and tags.pml name each other (tagcheck.py:
every barrier and ordered atomic of rcu/src and the read-side headers
carries "model: tags.pml TAG" or "model: none (reason)", every named tag
exists, every tag is named by the code); --tags-only stops there.

Then runs every model of tests/formal (RUNS below) through spin -a, gcc and pan,
then every mutant of tags.pml: a model with one barrier (or, for the
"MUTANT:" lines, several) removed or weakened must make Spin find an error,
unless tags.pml says it SURVIVES and why the code keeps it: such a mutant
is listed as justified, and with --check-survivors run on every model it
changes, where none may find an error.  A mutant is run on each model it
changes (the generated pan.c differs), the model its tag names first
("KILLED BY:"), then cheapest first, until one kills it.  Prints a table
per model and per mutant; keeps every run's pan output, and the trail of
every error found, under the output directory (a trail replays with
`./pan -r` in its directory).

Exits non-zero when the tag check fails, a model finds an error, a mutant is not killed, a
checked survivor is killed, a tag changes no model, or a search is
incomplete.
"""
import argparse
import concurrent.futures
import hashlib
import os
import re
import resource
import shutil
import subprocess
import sys
import threading
import time

sys.dont_write_bytecode = True	# no __pycache__ in the source tree
import tagcheck  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))

# Memory cap of one pan process (MB): several may run at once.
MEMLIM_MB = 2048

# Each model run: name, model file, spin -D defines, property, hash size
# (pan -w, log2 of the table's slots).  Safety runs check assertions and
# invalid end states (deadlocks); liveness runs check the model's ltl
# property ("<> synchronize_rcu() returns") under weak fairness.
RUNS = [
    # Sharing grace periods: 3 callers once each, 2 callers twice each.
    ('waiters', 'waiters.pml', [], 'safety', 20),
    ('waiters-reuse', 'waiters.pml', ['NC=2', 'NROUND=2'], 'safety', 18),
    ('waiters-wmm', 'waiters.pml', ['WMM'], 'safety', 22),
    ('waiters-reuse-wmm', 'waiters.pml', ['WMM', 'NC=2', 'NROUND=2'],
     'safety', 18),
    # The flavors, x86-TSO.
    ('memb', 'urcu.pml', ['FLAVOR_MEMB'], 'safety', 22),
    ('memb-fallback', 'urcu.pml', ['FLAVOR_MEMB', 'NO_MEMBARRIER'],
     'safety', 22),
    ('mb', 'urcu.pml', ['FLAVOR_MB'], 'safety', 22),
    ('signal', 'urcu.pml', ['FLAVOR_SIGNAL'], 'safety', 24),
    ('bp', 'urcu.pml', ['FLAVOR_BP'], 'safety', 22),
    ('qsbr', 'qsbr.pml', [], 'safety', 22),
    # The flavors, weak memory.  signal-wmm-words: the updater's loads of
    # reader words may be performed early too (STALE_WORDS), one grace
    # period.
    ('memb-wmm', 'urcu.pml', ['FLAVOR_MEMB', 'WMM'], 'safety', 22),
    ('memb-fallback-wmm', 'urcu.pml', ['FLAVOR_MEMB', 'NO_MEMBARRIER', 'WMM'],
     'safety', 24),
    ('mb-wmm', 'urcu.pml', ['FLAVOR_MB', 'WMM'], 'safety', 24),
    ('signal-wmm', 'urcu.pml', ['FLAVOR_SIGNAL', 'WMM'], 'safety', 24),
    ('signal-wmm-words', 'urcu.pml',
     ['FLAVOR_SIGNAL', 'WMM', 'STALE_WORDS', 'NGP=1'], 'safety', 24),
    ('bp-wmm', 'urcu.pml', ['FLAVOR_BP', 'WMM'], 'safety', 22),
    ('qsbr-wmm', 'qsbr.pml', ['WMM'], 'safety', 22),
    # Progress under weak fairness, x86-TSO: callers of synchronize_rcu();
    # synchronize_rcu() while readers run sections forever (signal: one
    # grace period, with a signal lost on the way).
    ('waiters-live', 'waiters.pml', ['LIVENESS'], 'liveness', 22),
    ('memb-live', 'urcu.pml', ['FLAVOR_MEMB', 'LIVENESS'], 'liveness', 24),
    ('mb-live', 'urcu.pml', ['FLAVOR_MB', 'LIVENESS'], 'liveness', 24),
    ('memb-fallback-live', 'urcu.pml',
     ['FLAVOR_MEMB', 'NO_MEMBARRIER', 'LIVENESS'], 'liveness', 24),
    ('bp-live', 'urcu.pml', ['FLAVOR_BP', 'LIVENESS'], 'liveness', 24),
    ('qsbr-live', 'qsbr.pml', ['LIVENESS'], 'liveness', 24),
    ('signal-live', 'urcu.pml',
     ['FLAVOR_SIGNAL', 'LIVENESS', 'MAXLOST=1', 'NGP=1'], 'liveness', 24),
]

# pan's search depth limit; reaching it fails the run (search incomplete).
DEPTH = 100000


class Failure(Exception):
    pass


def parse_tags(path):
    """Return (tags, combos, hints): tags maps each tag to its SURVIVES
    reason (or None), in file order; combos lists (tag tuple, reason) of
    MUTANT: lines; hints maps a tag to the run its comment says kills it
    ("KILLED BY: run"), tried first."""
    text = open(path).read()
    tags = {}
    hints = {}
    for m in re.finditer(r'/\*((?:(?!\*/).)*)\*/\s*#ifndef (\w+)\s*\n'
                         r'#define \2\s+1\s*\n#endif', text, re.S):
        comment = ' '.join(line.strip(' *') for line in m.group(1).splitlines())
        s = re.search(r'SURVIVES:\s*(.*)', comment)
        tags[m.group(2)] = s.group(1).strip() if s else None
        k = re.search(r'KILLED BY:\s*([\w-]+)', comment)
        if k:
            hints[m.group(2)] = k.group(1)
    combos = []
    for m in re.finditer(r'MUTANT:\s*([A-Z0-9_ ]+?)\s*(?:--|:)\s*(.*?)(?:\n \*\s*\n|\*/)',
                         text, re.S):
        names = tuple(m.group(1).split())
        unknown = [n for n in names if n not in tags]
        if unknown:
            raise Failure('tags.pml: MUTANT line names unknown tags: '
                          + ' '.join(unknown))
        reason = ' '.join(l.strip(' *') for l in m.group(2).splitlines())
        combos.append((names, reason))
    return tags, combos, hints


class Runner:
    def __init__(self, out, jobs):
        self.out = out
        self.jobs = jobs
        self.lock = threading.Lock()
        self.pan_sources = {}

    def preprocess(self, run, extra):
        """Hash of the run's model as Spin's preprocessor (cpp) expands it
        with the run's defines plus extra: two runs with the same text
        have the same verifier, and a mutant whose text is the base run's
        does not change that run.  Much cheaper than spin -a."""
        name, model, defines, prop, _ = run
        args = ['gcc', '-std=gnu99', '-E', '-P', '-x', 'c']
        args += ['-D' + d for d in defines + extra]
        args.append(os.path.join(HERE, model))
        p = subprocess.run(args, cwd=HERE, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE)
        if p.returncode != 0:
            raise Failure('%s: preprocessing failed:\n%s'
                          % (name, p.stderr.decode(errors='replace')))
        return hashlib.sha1(p.stdout).hexdigest()

    def generate(self, run, extra, workdir):
        """spin -a the run's model with its defines plus extra (mutant tags
        at 0) in workdir; return the hash of the generated verifier."""
        name, model, defines, prop, _ = run
        os.makedirs(workdir, exist_ok=True)
        args = ['spin', '-a']
        args += ['-D' + d for d in defines + extra]
        args.append(os.path.join(HERE, model))
        p = subprocess.run(args, cwd=workdir, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, universal_newlines=True)
        if p.returncode != 0 or not os.path.exists(os.path.join(workdir, 'pan.c')):
            raise Failure('%s: spin -a failed:\n%s' % (name, p.stdout))
        h = hashlib.sha1()
        for f in sorted(os.listdir(workdir)):
            if f.startswith('pan.') and len(f) == 5:
                with open(os.path.join(workdir, f), 'rb') as fp:
                    h.update(f.encode() + fp.read())
        return h.hexdigest()

    def check(self, run, workdir, mutant=False):
        """Compile and run pan in workdir; return a result dict."""
        name, model, defines, prop, hashsize = run
        # -DCOLLAPSE compresses each stored state losslessly (it stores
        # the components once and the state as indices): the search stays
        # exhaustive, unlike -DHC or -DBITSTATE, which are never used.
        # Big runs are compiled with -O2 (10 s more of gcc, a run two to
        # three times faster), the others with -O0, and so are mutants,
        # which usually end at an early counterexample.
        big = not mutant and (prop == 'liveness' or hashsize >= 24)
        cflags = ['-O2' if big else '-O0', '-w', '-DCOLLAPSE',
                  '-DMEMLIM=%d' % MEMLIM_MB, '-DNFAIR=3']
        if prop == 'safety':
            cflags.append('-DSAFETY')
        p = subprocess.run(['gcc'] + cflags + ['-o', 'pan', 'pan.c'],
                           cwd=workdir, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, universal_newlines=True)
        if p.returncode != 0:
            raise Failure('%s: gcc failed:\n%s' % (name, p.stdout[-3000:]))
        args = ['./pan', '-m%d' % DEPTH, '-w%d' % hashsize]
        if prop == 'liveness':
            args += ['-a', '-f']
        start = time.time()
        p = subprocess.run(args, cwd=workdir, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, universal_newlines=True)
        elapsed = time.time() - start
        with open(os.path.join(workdir, 'pan.out'), 'w') as fp:
            fp.write(' '.join(args) + '\n' + p.stdout)
        text = p.stdout
        r = {'time': elapsed, 'dir': workdir}
        m = re.search(r'errors: (\d+)', text)
        if not m:
            raise Failure('%s: pan did not finish (see %s/pan.out):\n%s'
                          % (name, workdir, text[-2000:]))
        r['errors'] = int(m.group(1))
        m = re.search(r'(\d+) states, stored', text)
        r['states'] = int(m.group(1)) if m else 0
        m = re.search(r'([\d.]+)\s+total actual memory usage', text)
        r['mem'] = float(m.group(1)) if m else 0.0
        r['what'] = ''
        for pat, what in ((r'assertion violated\s+(.*?) \(at depth', 'assert'),
                          (r'invalid end state', 'deadlock'),
                          (r'acceptance cycle', 'no progress'),
                          (r'non-progress cycle', 'no progress')):
            m = re.search(r'pan:\d+:\s+' + pat, text)
            if m:
                r['what'] = what + (': ' + m.group(1) if m.groups() else '')
                break
        incomplete = ('max search depth too small' in text
                      or 'out of memory' in text
                      or 'Search not completed' in text)
        if incomplete and r['errors'] == 0:
            raise Failure('%s: search incomplete (see %s/pan.out)'
                          % (name, workdir))
        for f in os.listdir(workdir):
            if f.endswith('.trail'):
                r['trail'] = os.path.join(workdir, f)
        if r['errors'] == 0:
            # Keep the output; drop the binary and the sources.
            for f in os.listdir(workdir):
                if f.startswith('pan') and f != 'pan.out':
                    os.unlink(os.path.join(workdir, f))
        return r


def print_table_head(title, fmt, names):
    """Prints @title, the column @names laid out by @fmt, and a rule."""
    print(title)
    head = fmt % names
    print(head)
    print('-' * len(head))


def fmt_states(n):
    return '{:,}'.format(n)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--out', default='build/verify',
                    help='output directory (default: build/verify)')
    ap.add_argument('--jobs', type=int, default=1,
                    help='pan processes at a time (default 1)')
    ap.add_argument('--only', action='append', default=[],
                    help='run only this model (repeatable); no mutants')
    ap.add_argument('--check-survivors', action='store_true',
                    help='also run the mutants tags.pml justifies (SURVIVES) '
                    'on every model they change: none may find an error '
                    '(several minutes more)')
    ap.add_argument('--mutant', action='append', default=[],
                    help='run only this mutant (TAG, or TAG+TAG for a '
                    'MUTANT: line; repeatable), and no model beyond '
                    'generating it (for working on one barrier)')
    ap.add_argument('--no-mutants', action='store_true',
                    help='skip the mutation check')
    ap.add_argument('--tags-only', action='store_true',
                    help='only check that the code and tags.pml name each '
                    'other (no Spin run)')
    opts = ap.parse_args()

    # The tie between code and model first: fast, and a model run proves
    # little about code whose barriers no longer match it.
    problems, stats = tagcheck.check(os.path.dirname(os.path.dirname(HERE)),
                                     os.path.join(HERE, 'tags.pml'))
    print('Tag check: %(sites)d barriers and ordered atomics in %(files)d '
          'files, %(tagged)d with a tags.pml tag, %(none)d "model: none"; '
          '%(tags)d tags' % stats)
    if problems:
        print('\n'.join(problems))
        print('FAILED: tag check (%d problems; rules in '
              'tests/formal/tagcheck.py)' % len(problems))
        return 1
    print('tag check ok\n')
    if opts.tags_only:
        return 0

    for tool, pkg in (('spin', 'spin'), ('gcc', 'gcc')):
        if not shutil.which(tool):
            print('error: %s not found: install %s (apt-get install %s)'
                  % (tool, tool, pkg))
            return 1

    out = os.path.abspath(opts.out)
    if os.path.isdir(out):
        shutil.rmtree(out)
    os.makedirs(out)
    runner = Runner(out, opts.jobs)
    started = time.time()
    failed = []

    runs = [r for r in RUNS if not opts.only or r[0] in opts.only]
    if opts.only and len(runs) != len(opts.only):
        print('error: unknown model in --only; models: '
              + ' '.join(r[0] for r in RUNS))
        return 2

    # Base runs: generate and check every model.
    base = {}

    hashes = {}
    hashes_lock = threading.Lock()

    def base_task(run):
        # Models whose verifiers are the same (memb-fallback is mb's
        # protocol) are checked once.
        d = os.path.join(out, 'models', run[0])
        h = runner.preprocess(run, [])
        with hashes_lock:
            first = hashes.setdefault(h, (run[0], threading.Event()))
        if first[0] != run[0]:
            first[1].wait()
            r = dict(base.get(first[0]) or {'errors': 1, 'what': 'failed',
                                             'states': 0, 'mem': 0,
                                             'time': 0, 'dir': d})
            r['same_as'] = first[0]
            r['time'] = 0.0
            r['hash'] = h
            return run[0], r
        try:
            pan_hash = runner.generate(run, [], d)
            if opts.mutant:
                # Not checked: its size for the order is a guess.
                r = {'errors': 0, 'what': '', 'states': 1 << run[4],
                     'mem': 0, 'time': 0.0, 'dir': d, 'skipped': True}
            else:
                r = runner.check(run, d)
            r['hash'] = h
            r['pan_hash'] = pan_hash
            base[run[0]] = r
        finally:
            first[1].set()
        return run[0], r

    print_table_head('Models (2 readers + 1 updater, 2 grace periods; '
                     'waiters: NC callers x NROUND calls)\n',
                     '%-20s %-9s %12s %9s %8s  %s',
                     ('model', 'property', 'states', 'memory', 'time',
                      'result'))
    with concurrent.futures.ThreadPoolExecutor(opts.jobs) as ex:
        futs = [ex.submit(base_task, run) for run in runs]
        for run, fut in zip(runs, futs):
            try:
                name, r = fut.result()
            except Failure as e:
                print('%-20s %s' % (run[0], e))
                failed.append(run[0])
                continue
            base[name] = r
            ok = r['errors'] == 0
            res = 'ok' if ok else 'ERROR (%s) trail: %s' % (
                r['what'], os.path.relpath(r.get('trail', r['dir'])))
            if r.get('skipped'):
                res = 'not run (--mutant)'
            if 'same_as' in r:
                res += ' (same verifier as %s)' % r['same_as']
            if not ok:
                failed.append(name)
            print('%-20s %-9s %12s %7.0fMB %7.1fs  %s'
                  % (name, run[3], fmt_states(r['states']), r['mem'],
                     r['time'], res))
            sys.stdout.flush()

    if opts.no_mutants or opts.only:
        return finish(failed, started, False)

    # Mutants.
    tags, combos, hints = parse_tags(os.path.join(HERE, 'tags.pml'))
    for t, h in hints.items():
        if h not in base:
            raise Failure('tags.pml: %s: KILLED BY names no model run: %s'
                          % (t, h))
    mutants = [((t,), tags[t]) for t in tags]
    mutants += [(names, None) for names, _ in combos]
    if opts.mutant:
        mutants = [m for m in mutants if '+'.join(m[0]) in opts.mutant]
        if len(mutants) != len(opts.mutant):
            print('error: unknown mutant in --mutant')
            return 2
        if any(s is not None for _, s in mutants):
            opts.check_survivors = True
    runs_by_name = dict((r[0], r) for r in runs)
    # Cheapest first: a liveness search costs several times a safety
    # search of as many states (nested search, fairness copies).
    order = sorted((r for r in runs if r[0] in base),
                   key=lambda r: base[r[0]]['states']
                   * (8 if r[3] == 'liveness' else 1))

    def mutant_task(names, survives):
        label = '+'.join(names)
        mdir = os.path.join(out, 'mutants', label)
        extra = [n + '=0' for n in names]
        seen = set()
        affected = []
        first = [r for r in order if len(names) == 1
                 and hints.get(names[0]) == r[0]]
        for run in first + [r for r in order if r not in first]:
            h = runner.preprocess(run, extra)
            if h == base[run[0]]['hash'] or h in seen:
                continue
            seen.add(h)
            # The text differs; the verifier may not (an inline's unused
            # parameter: TSO ignores acquire and release).
            d = os.path.join(mdir, run[0])
            ph = runner.generate(run, extra, d)
            if ph == base[run[0]]['pan_hash'] or ph in seen:
                shutil.rmtree(d)
                continue
            seen.add(ph)
            affected.append(run)
        results = []
        if survives is not None and not opts.check_survivors:
            return label, affected, None
        for run in affected:
            r = runner.check(run, os.path.join(mdir, run[0]),
                             mutant=survives is None)
            results.append((run[0], r))
            if r['errors'] and survives is None:
                break
        return label, affected, results

    print_table_head('\nMutants (a barrier removed or weakened: "killed" = '
                     'Spin finds an error)\n',
                     '%-38s %-9s %-20s %12s %7s  %s',
                     ('mutant', 'result', 'model', 'states', 'time',
                      'error'))
    with concurrent.futures.ThreadPoolExecutor(opts.jobs) as ex:
        futs = [ex.submit(mutant_task, names, surv) for names, surv in mutants]
        for (names, survives), fut in zip(mutants, futs):
            label = '+'.join(names)
            try:
                label, affected, results = fut.result()
            except Failure as e:
                print('%-38s %s' % (label, e))
                failed.append(label)
                continue
            if not affected:
                print('%-38s %-9s %s' % (label, 'UNUSED',
                                         'changes no model'))
                failed.append(label)
                continue
            if results is None:
                print('%-38s %-9s %-20s %12s %7s  %s'
                      % (label, 'justified', '(not run)', '', '',
                         'SURVIVES in tags.pml: ' + survives[:60]
                         + ('...' if len(survives) > 60 else '')))
                continue
            killers = [(n, r) for n, r in results if r['errors']]
            total = sum(r['time'] for _, r in results)
            if killers:
                n, r = killers[0]
                res = 'killed' if survives is None else 'KILLED'
                if survives is not None:
                    failed.append(label)
                print('%-38s %-9s %-20s %12s %6.1fs  %s'
                      % (label, res, n, fmt_states(r['states']), total,
                         r['what']))
            else:
                res = 'survives' if survives is not None else 'SURVIVED'
                if survives is None:
                    failed.append(label)
                print('%-38s %-9s %-20s %12s %6.1fs  %s'
                      % (label, res, ','.join(n for n, _ in results),
                         fmt_states(sum(r['states'] for _, r in results)),
                         total, '(justified in tags.pml)' if survives else
                         'no counterexample in any model'))
            sys.stdout.flush()
    return finish(failed, started)


def finish(failed, started, mutants=True):
    # CPU time of spin, gcc and pan: on a busy machine a steadier measure
    # than the wall-clock time (divide by the jobs for a quiet one).
    ru = resource.getrusage(resource.RUSAGE_CHILDREN)
    print('\ntotal time %.0fs wall-clock, %.0fs CPU'
          % (time.time() - started, ru.ru_utime + ru.ru_stime))
    if failed:
        print('FAILED: ' + ' '.join(failed))
        return 1
    print('all models verified' + ('; every mutant killed or justified'
                                   if mutants else ' (mutants not run)'))
    return 0


if __name__ == '__main__':
    try:
        sys.exit(main())
    except Failure as e:
        print('error: %s' % e)
        sys.exit(1)
