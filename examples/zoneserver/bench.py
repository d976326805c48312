#!/usr/bin/python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Queries per second of the zoneserver against knotd, with dnsperf.

`scons zoneserver-bench` runs it as

    bench.py ZONESERVER WORKDIR [SECONDS] [ROUNDS] [THREADS]

and it prints a Markdown report (docs/zoneserver.md shows one).  Both
servers serve the same zone with the same number of UDP threads (THREADS,
default: the number of CPUs) on 127.0.0.1; dnsperf sends each the same
query file for SECONDS (default 10) per run; runs alternate between the
servers (knotd first in odd rounds, zoneserver first in even ones) for
ROUNDS rounds (default 3), and the report gives the ratio of each round
and their median.  During every run the zone file is rewritten and the
server told to reload it once a second (SIGHUP; knotc zone-reload).

The query mix: 70% names of the zone (A and AAAA), 15% names that do not
exist (NXDOMAIN), 15% names below a wildcard.  The benchmark fails when
dnsperf loses a query to the zoneserver or when its response codes differ
from the mix (a wrong answer: SERVFAIL, REFUSED, or NOERROR and NXDOMAIN
in other proportions); the same checks on knotd are reported as notes.

Run as root, it moves into a network namespace of its own (unshare -n), as
the differential test does.  The machine's other load counts: compare the
ratio, not the absolute numbers, and rerun when in doubt.
"""
import os
import re
import shutil
import signal
import statistics
import subprocess
import sys
import time

NETNS_MARK = 'ZS_BENCH_IN_NETNS'
NAMES = 10000


def enter_netns():
    if os.geteuid() != 0 or os.environ.get(NETNS_MARK) or not shutil.which('unshare'):
        return
    ip = shutil.which('ip') or '/usr/sbin/ip'
    env = dict(os.environ, **{NETNS_MARK: '1'})
    os.execve(shutil.which('unshare'),
              ['unshare', '-n', '--', '/bin/sh', '-c',
               '%s link set lo up && exec "$@"' % ip, 'sh', sys.executable]
              + sys.argv, env)


def write_zone(path, serial):
    """The zone: NAMES hosts with A (half with AAAA), a wildcard."""
    tmp = path + '.new'
    with open(tmp, 'w') as f:
        f.write('$ORIGIN example.com.\n$TTL 300\n'
                '@ SOA ns hostmaster %d 3600 600 86400 60\n'
                '@ NS ns\nns A 10.0.0.1\n*.wild A 10.0.0.2\n' % serial)
        for i in range(NAMES):
            # One record changes with each version.
            last = serial % 250 + 1 if i == 0 else i % 250 + 1
            f.write('host%d A 10.1.%d.%d\n' % (i, i // 250 % 250, last))
            if i % 2 == 0:
                f.write('host%d AAAA fd00::%x\n' % (i, i))
    os.rename(tmp, path)


def write_queries(path):
    """70% existing, 15% NXDOMAIN, 15% wildcard; returns the NXDOMAIN share."""
    nx = 0
    with open(path, 'w') as f:
        for i in range(20000):
            k = i % 20
            if k < 14:
                f.write('host%d.example.com %s\n' % ((i * 7) % NAMES,
                                                     'AAAA' if i % 4 == 0 and (i * 7) % NAMES % 2 == 0 else 'A'))
            elif k < 17:
                f.write('nx%d.example.com A\n' % i)
                nx += 1
            else:
                f.write('q%d.wild.example.com A\n' % i)
    return nx / 20000.0


def wait_port(port, proc, seconds=30):
    deadline = time.time() + seconds
    while time.time() < deadline:
        if proc.poll() is not None:
            return False
        r = subprocess.run(['kdig', '+norec', '+timeout=1', '+retry=0',
                            '@127.0.0.1', '-p', str(port), 'example.com', 'SOA'],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           universal_newlines=True)
        if 'NOERROR' in r.stdout:
            return True
        time.sleep(0.2)
    return False


def main():
    if len(sys.argv) < 3:
        print(__doc__)
        return 2
    missing = [t for t in ['dnsperf', 'kdig'] if not shutil.which(t)]
    knotc = shutil.which('knotc') or '/usr/sbin/knotc'
    knotd = shutil.which('knotd') or ('/usr/sbin/knotd' if os.path.exists('/usr/sbin/knotd') else None)
    if not knotd:
        missing.append('knotd')
    if missing:
        print('zoneserver-bench: FAIL: missing %s: apt-get install dnsperf knot '
              'knot-dnsutils' % ', '.join(missing))
        return 1
    enter_netns()
    binary, work = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    seconds = int(sys.argv[3]) if len(sys.argv) > 3 else 10
    rounds = int(sys.argv[4]) if len(sys.argv) > 4 else 3
    threads = int(sys.argv[5]) if len(sys.argv) > 5 else os.cpu_count()
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    zone, queries = os.path.join(work, 'example.com.zone'), os.path.join(work, 'queries')
    serial = 1
    write_zone(zone, serial)
    nx_share = write_queries(queries)
    netns = bool(os.environ.get(NETNS_MARK))
    kport, zport = (5311, 5312) if netns else (15311, 15312)

    conf = os.path.join(work, 'knot.conf')
    with open(conf, 'w') as f:
        f.write('server:\n    listen: 127.0.0.1@%d\n    rundir: %s\n'
                '    udp-workers: %d\n    tcp-workers: 1\n    background-workers: 1\n'
                '    identity: ""\n    version: ""\n'
                'database:\n    storage: %s/db\n'
                'log:\n  - target: stderr\n    any: warning\n'
                'template:\n  - id: default\n    storage: %s\n'
                '    semantic-checks: off\n    zonefile-sync: -1\n'
                '    journal-content: none\n'
                'zone:\n  - domain: example.com\n    file: %s\n'
                % (kport, work, threads, work, work, zone))
    klog = open(os.path.join(work, 'knotd.log'), 'w')
    zlog = open(os.path.join(work, 'zoneserver.log'), 'w')
    kproc = subprocess.Popen([knotd, '-c', conf], stdout=klog, stderr=klog)
    zproc = subprocess.Popen([binary, '--port', str(zport), '--threads', str(threads),
                              '--zone', 'example.com=' + zone],
                             stdout=zlog, stderr=subprocess.STDOUT)
    rows, ratios, failed, notes = [], [], [], []
    try:
        for port, proc, what in [(kport, kproc, 'knotd'), (zport, zproc, 'zoneserver')]:
            if not wait_port(port, proc):
                print('zoneserver-bench: FAIL: %s did not start' % what)
                return 1

        def reload(what):
            nonlocal serial
            serial += 1
            write_zone(zone, serial)
            if what == 'zoneserver':
                zproc.send_signal(signal.SIGHUP)
            else:
                subprocess.run([knotc, '-s', os.path.join(work, 'knot.sock'),
                                'zone-reload', 'example.com'],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

        def measure(what, port):
            # Reloads run while dnsperf does.
            proc = subprocess.Popen(['dnsperf', '-s', '127.0.0.1', '-p', str(port), '-d', queries,
                         '-l', str(seconds), '-c', '16', '-T', str(threads), '-q', '400'],
                        stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                        universal_newlines=True)
            reloads = 0
            start = time.time()
            while proc.poll() is None:
                time.sleep(0.05)
                if time.time() - start >= reloads + 1 and time.time() - start < seconds:
                    reload(what)
                    reloads += 1
            out = proc.stdout.read()
            qps = re.search(r'Queries per second:\s+([\d.]+)', out)
            lost = re.search(r'Queries lost:\s+(\d+)', out)
            if not qps or not lost:
                raise RuntimeError('dnsperf failed:\n' + out)
            line = out.split('Response codes:')[-1].splitlines()[0] if 'Response codes:' in out else ''
            codes = dict((c, int(n)) for c, n in re.findall(r'(\w+) (\d+)', line))
            total = sum(codes.values()) or 1
            wrong = [c for c in codes if c not in ('NOERROR', 'NXDOMAIN')]
            share = codes.get('NXDOMAIN', 0) / total
            ok = int(lost.group(1)) == 0 and not wrong and abs(share - nx_share) < 0.01
            # Only the zoneserver is held to "nothing lost, nothing wrong";
            # what knotd loses is reported (it loses a few hundred
            # queries around its reloads here).
            if not ok:
                (failed if what == 'zoneserver' else notes).append('%s: lost %s, codes %s (NXDOMAIN share %.3f, expected %.3f)'
                              % (what, lost.group(1), codes, share, nx_share))
            return float(qps.group(1)), int(lost.group(1)), codes, reloads

        for r in range(rounds):
            order = [('knotd', kport), ('zoneserver', zport)]
            if r % 2:
                order.reverse()
            res = {}
            for what, port in order:
                res[what] = measure(what, port)
                q, lost, codes, reloads = res[what]
                rows.append('| %d | %s | %.0f | %d | %s | %d |'
                            % (r + 1, what, q, lost,
                               ', '.join('%s %d' % kv for kv in sorted(codes.items())),
                               reloads))
            ratios.append(res['zoneserver'][0] / res['knotd'][0])
    finally:
        for proc in (zproc, kproc):
            if proc.poll() is None:
                proc.send_signal(signal.SIGTERM)
                try:
                    proc.wait(timeout=20)
                except subprocess.TimeoutExpired:
                    proc.kill()
    with open(os.path.join(work, 'zoneserver.log')) as f:
        zout = f.read()
    if 'poisoned reads 0' not in zout or zproc.returncode != 0:
        failed.append('zoneserver exited %s: %s' % (zproc.returncode, zout[-500:]))
    ver = subprocess.run(['dnsperf', '-h'], stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT, universal_newlines=True).stdout
    ver = re.search(r'Version ([\d.]+)', ver)
    print('zoneserver against knotd: %d UDP threads each, %d s per run, %d rounds '
          '(interleaved), dnsperf %s (16 clients, %d threads, 400 outstanding), '
          'a reload per second, %d CPUs%s'
          % (threads, seconds, rounds, ver.group(1) if ver else '?', threads,
             os.cpu_count(), ', private network namespace' if netns else ''))
    print()
    print('| round | server | queries/s | lost | response codes | reloads |')
    print('|---|---|---|---|---|---|')
    print('\n'.join(rows))
    print()
    print('zoneserver/knotd ratio per round: %s; median %.2f'
          % (', '.join('%.2f' % x for x in ratios), statistics.median(ratios)))
    for n in notes:
        print('note: ' + n)
    for f in failed:
        print('FAIL: ' + f)
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
