#!/usr/bin/python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Differential test of the zoneserver against Knot DNS (docs/zoneserver.md).

Loads the same zone files into knotd and into the zoneserver on 127.0.0.1,
sends both the same queries (every owner name and type of the zones, names
below and beside them, random case, absent types and names, names outside
every zone, meta and DNSSEC types, EDNS variants, other classes and
opcodes; over UDP and over TCP, several queries per connection) and
requires identical responses:

  - header: rcode (extended rcode included), opcode, every flag bit;
  - question: as sent back, byte for byte (case included);
  - answer, authority, additional: equal as sets of records, a record being
    (owner, class, type, TTL, RDATA in canonical form).  Owner names and
    names inside RDATA compare without regard to case (RFC 4343); TTLs
    compare exactly (both servers are authoritative: nothing decrements);
    TXT and other opaque data compare byte for byte;
  - OPT: present in both or neither; then version, payload size, DO bit and
    the options (code and data) must match.

Any difference prints the query and both responses.  Exit status 0 when
every response matched, 1 otherwise, 2 when a tool is missing (knotd, kdig,
dnspython: the message says what to install).

Run as root, it re-executes itself in a new network namespace (unshare -n)
with only loopback up, so its fixed ports cannot collide with anything;
otherwise it picks free ports.

usage: difftest.py ZONESERVER ZONEDIR [WORKDIR]
"""
import os
import random
import shutil
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import time

MISSING = []
try:
    import dns.edns
    import dns.flags
    import dns.message
    import dns.name
    import dns.opcode
    import dns.rcode
    import dns.rdataclass
    import dns.rdatatype
    import dns.zone
except ImportError:
    MISSING.append('python3-dnspython (apt-get install python3-dnspython)')

SEED = int(os.environ.get('ZS_DIFFTEST_SEED', '20261204'))
TIMEOUT = 3.0 * float(os.environ.get('CK_TIMEOUT_MULTIPLIER', '1'))
NETNS_MARK = 'ZS_DIFFTEST_IN_NETNS'
# Both servers identify themselves so (RFC 5001) when asked.
NSID = 'difftest'

# Types asked at every name besides the ones it has.
EXTRA_TYPES = ['A', 'AAAA', 'NS', 'SOA', 'CNAME', 'MX', 'TXT', 'PTR', 'SRV',
               'DS', 'ANY']
# Meta and DNSSEC types, asked at a few names of each zone.
META_TYPES = [0, 'OPT', 'RRSIG', 'NSEC', 'NSEC3', 'DNSKEY', 'TKEY', 'TSIG',
              'IXFR', 'AXFR', 'MAILA', 'MAILB', 'NULL', 'CDS', 65535, 65280]
OUTSIDE = ['www.example.net.', 'example.net.', 'com.', '.', 'org.',
           'example.org.', 'in-addr.arpa.', '11.in-addr.arpa.', 'test.',
           'xexample.com.', 'ample.com.']


def fail_missing(what):
    print('difftest: FAIL: cannot run: %s' % '; '.join(what))
    print('difftest: install knot and knot-dnsutils (and python3-dnspython):'
          ' apt-get install knot knot-dnsutils python3-dnspython')
    sys.exit(2)


def enter_netns():
    """As root: rerun in a private network namespace with lo up."""
    if os.geteuid() != 0 or os.environ.get(NETNS_MARK):
        return False
    unshare = shutil.which('unshare')
    ip = shutil.which('ip') or '/usr/sbin/ip'
    if not unshare or not os.path.exists(ip):
        return False
    env = dict(os.environ, **{NETNS_MARK: '1'})
    inner = '%s link set lo up && exec "$@"' % ip
    os.execve(unshare, [unshare, '-n', '--', '/bin/sh', '-c', inner, 'sh',
                        sys.executable] + sys.argv, env)
    return True


def free_port():
    """A port free for both UDP and TCP on 127.0.0.1 (racy, but rarely)."""
    for _ in range(50):
        u = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        u.bind(('127.0.0.1', 0))
        port = u.getsockname()[1]
        t = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        try:
            t.bind(('127.0.0.1', port))
            return port
        except OSError:
            continue
        finally:
            u.close()
            t.close()
    raise RuntimeError('no free port')


def zone_files(zonedir):
    zones = []
    for f in sorted(os.listdir(zonedir)):
        if f.endswith('.zone'):
            zones.append((f[:-5] + '.', os.path.join(zonedir, f)))
    return zones


def start_knotd(knotd, work, port, zones):
    conf = os.path.join(work, 'knot.conf')
    with open(conf, 'w') as f:
        f.write('server:\n    listen: 127.0.0.1@%d\n    rundir: %s\n'
                '    identity: ""\n    version: ""\n    nsid: "%s"\n'
                'database:\n    storage: %s/db\n'
                'log:\n  - target: stderr\n    any: warning\n'
                'template:\n  - id: default\n    storage: %s\n'
                '    semantic-checks: off\n    zonefile-sync: -1\n'
                '    journal-content: none\n'
                'zone:\n' % (port, work, NSID, work, work))
        for origin, path in zones:
            f.write('  - domain: %s\n    file: %s\n' % (origin, os.path.abspath(path)))
    log = open(os.path.join(work, 'knotd.log'), 'w')
    return subprocess.Popen([knotd, '-c', conf], stdout=log, stderr=log)


def start_zoneserver(binary, work, port, zones):
    log = open(os.path.join(work, 'zoneserver.log'), 'w')
    args = [binary, '--port', str(port), '--threads', '2', '--nsid', NSID]
    for origin, path in zones:
        args += ['--zone', '%s=%s' % (origin, path)]
    return subprocess.Popen(args, stdout=log, stderr=subprocess.STDOUT)


def udp_exchange(wire, port):
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.settimeout(TIMEOUT)
    try:
        s.sendto(wire, ('127.0.0.1', port))
        data, _ = s.recvfrom(65535)
        return data
    except socket.timeout:
        return None
    finally:
        s.close()


def recv_exact(s, n):
    buf = b''
    while len(buf) < n:
        chunk = s.recv(n - len(buf))
        if not chunk:
            return None
        buf += chunk
    return buf


def tcp_exchange_many(wires, port):
    """Sends all queries on one connection, pipelined; replies in order."""
    s = socket.create_connection(('127.0.0.1', port), timeout=TIMEOUT)
    out = []
    try:
        s.sendall(b''.join(struct.pack('!H', len(w)) + w for w in wires))
        for _ in wires:
            head = recv_exact(s, 2)
            if head is None:
                out.append(None)
                continue
            out.append(recv_exact(s, struct.unpack('!H', head)[0]))
    except (socket.timeout, OSError):
        out += [None] * (len(wires) - len(out))
    finally:
        s.close()
    return out


def wait_ready(port, origin, proc, seconds=20.0):
    q = dns.message.make_query(origin, 'SOA')
    deadline = time.time() + seconds * float(os.environ.get('CK_TIMEOUT_MULTIPLIER', '1'))
    while time.time() < deadline:
        if proc.poll() is not None:
            return False
        try:
            r = udp_exchange(q.to_wire(), port)
            if r and dns.message.from_wire(r).rcode() == dns.rcode.NOERROR:
                return True
        except Exception:
            pass
        time.sleep(0.1)
    return False


# --------------------------------------------------------------------------
# The query set.

class Query:
    def __init__(self, name, rdtype, tcp=False, edns=0, payload=1232,
                 do=False, rdclass='IN', options=None, opcode=None,
                 flags=None):
        self.name, self.rdtype, self.tcp = name, rdtype, tcp
        self.edns, self.payload, self.do = edns, payload, do
        self.rdclass, self.options, self.opcode = rdclass, options, opcode
        self.flags = flags

    def wire(self, qid):
        m = dns.message.make_query(self.name, self.rdtype, rdclass=self.rdclass,
                                   use_edns=self.edns if self.edns >= 0 else False,
                                   payload=self.payload, want_dnssec=self.do,
                                   options=self.options or [])
        m.id = qid
        m.flags = dns.flags.RD if self.flags is None else self.flags
        if self.opcode is not None:
            m.set_opcode(self.opcode)
        return m.to_wire()

    def describe(self):
        t = self.rdtype if isinstance(self.rdtype, str) else 'TYPE%d' % self.rdtype
        bits = ['%s %s %s' % (self.name, self.rdclass, t),
                'tcp' if self.tcp else 'udp']
        bits.append('edns%d/%d' % (self.edns, self.payload) if self.edns >= 0
                    else 'no-edns')
        if self.do:
            bits.append('DO')
        if self.options:
            bits.append('options=%s' % ','.join(str(o.otype) for o in self.options))
        if self.opcode is not None:
            bits.append('opcode=%s' % dns.opcode.to_text(self.opcode))
        if self.flags is not None:
            bits.append('flags=%s' % dns.flags.to_text(self.flags))
        return ' '.join(bits)


def random_case(rng, name):
    return ''.join(c.upper() if rng.random() < 0.5 else c.lower() for c in name)


def build_queries(zones, rng):
    names, per_zone = {}, []
    for origin, path in zones:
        z = dns.zone.from_file(path, origin=origin, relativize=False,
                               check_origin=False)
        owners = []
        for name, node in z.nodes.items():
            types = [dns.rdatatype.to_text(rds.rdtype) for rds in node.rdatasets]
            names[name.to_text()] = types
            owners.append(name)
        per_zone.append((origin, owners))

    basic = []
    for name, types in sorted(names.items()):
        for t in sorted(set(types + EXTRA_TYPES)):
            basic.append((name, t))
        n = dns.name.from_text(name)
        # Below, deeper below, and beside each name.
        for below in ['zz-below.' + name, 'a.b.' + name, '*.' + name,
                      'zz-below.x.' + name]:
            basic.append((below, 'A'))
            basic.append((below, 'TXT'))
        if len(n.labels) > 1:
            first = n.labels[0].decode('ascii', 'replace')
            beside = dns.name.Name([(first + '-x').encode()] +
                                   list(n.labels[1:])).to_text()
            basic.append((beside, 'A'))
    # Empty non-terminals: every ancestor between an owner and its apex.
    for origin, owners in per_zone:
        o = dns.name.from_text(origin)
        for name in owners:
            p = name.parent() if name != o else o
            while p != o and p.is_subdomain(o) and len(p) > len(o):
                if p.to_text() not in names:
                    basic.append((p.to_text(), 'A'))
                    basic.append((p.to_text(), 'ANY'))
                p = p.parent()
    for name in OUTSIDE:
        basic.append((name, 'A'))
        basic.append((name, 'SOA'))

    queries = []
    for name, t in basic:
        queries.append(Query(name, t))
        queries.append(Query(name, t, edns=-1))
        queries.append(Query(name, t, tcp=True))
    # Random case over UDP and TCP.
    for name, t in rng.sample(basic, min(300, len(basic))):
        queries.append(Query(random_case(rng, name), t, tcp=rng.random() < 0.3))
    # Meta and DNSSEC types at the apex and one other name of each zone.
    for origin, owners in per_zone:
        for name in [origin, 'www.' + origin, 'zz-nx.' + origin]:
            for t in META_TYPES:
                queries.append(Query(name, t))
                queries.append(Query(name, t, tcp=True))
    for t in META_TYPES:
        queries.append(Query('www.example.net.', t))
    # EDNS: versions, DO, NSID and other options, payload sizes.
    edns_names = ['www.example.com.', 'big.example.com.', 'bigtxt.example.com.',
                  'zz-nx.example.com.', 'www.example.net.', 'tobig.example.com.',
                  'bigmx.example.com.', 'www.deleg.example.com.']
    for name in edns_names:
        for t in ['A', 'TXT', 'MX']:
            queries.append(Query(name, t, edns=1))
            queries.append(Query(name, t, do=True))
            queries.append(Query(name, t, options=[dns.edns.GenericOption(3, b'')]))
            queries.append(Query(name, t, options=[dns.edns.GenericOption(10, b'\1' * 8)]))
            for payload in [0, 100, 512, 700, 1232, 4096]:
                queries.append(Query(name, t, payload=payload))
            queries.append(Query(name, t, edns=-1, tcp=True))
    # Other classes, opcodes and header bits.
    for name in ['www.example.com.', 'www.example.net.', 'version.bind.',
                 'id.server.']:
        for cls in ['CH', 'ANY', 'NONE', 'HS']:
            queries.append(Query(name, 'TXT', rdclass=cls))
            queries.append(Query(name, 'A', rdclass=cls, edns=-1))
    for opcode in [dns.opcode.IQUERY, dns.opcode.STATUS, dns.opcode.NOTIFY,
                   dns.opcode.UPDATE]:
        queries.append(Query('example.com.', 'SOA', opcode=opcode, edns=-1))
    for flags in [0, dns.flags.CD, dns.flags.AD, dns.flags.RD | dns.flags.CD,
                  dns.flags.AA | dns.flags.RA, dns.flags.TC]:
        queries.append(Query('www.example.com.', 'A', flags=flags))
    return queries


# --------------------------------------------------------------------------
# Comparison.

def rr_set(section):
    out = set()
    for rrset in section:
        for rd in rrset:
            out.add((rrset.name.canonicalize().to_text(), rrset.rdclass,
                     rrset.rdtype, rrset.ttl,
                     rd.to_digestable(dns.name.root)))
    return out


def summary(wire):
    if wire is None:
        return None
    try:
        m = dns.message.from_wire(wire)
    except Exception as e:
        return ('unparsable', str(e))
    opt = None
    if m.edns >= 0:
        opt = (m.edns, m.payload, m.ednsflags & dns.flags.DO,
               tuple(sorted((o.otype, o.to_wire()) for o in m.options)))
    return {
        'rcode': m.rcode(),
        'opcode': m.opcode(),
        'flags': m.flags & 0x87b0,	# QR AA TC RD RA AD CD
        'question': [q.to_text() for q in m.question],
        'answer': rr_set(m.answer),
        'authority': rr_set(m.authority),
        'additional': rr_set(m.additional),
        'opt': opt,
    }


def show(wire):
    if wire is None:
        return '    (no response)'
    try:
        return '\n'.join('    ' + line for line in
                         dns.message.from_wire(wire).to_text().splitlines())
    except Exception as e:
        return '    (unparsable: %s) %r' % (e, wire)


def differences(a, b):
    if a == b:
        return []
    if a is None or b is None or isinstance(a, tuple) or isinstance(b, tuple):
        return ['response']
    return [k for k in a if a[k] != b[k]]


def run(queries, kport, zport):
    udp = [(i, q) for i, q in enumerate(queries) if not q.tcp]
    tcp = [(i, q) for i, q in enumerate(queries) if q.tcp]
    answers = {}
    retried = {'knotd': 0, 'zoneserver': 0}
    for i, q in udp:
        w = q.wire(i & 0xffff)
        k, z = udp_exchange(w, kport), udp_exchange(w, zport)
        # A datagram lost on a loaded machine: ask again once, as a
        # client would.  Counted and reported; a second loss is a diff.
        if k is None:
            retried['knotd'] += 1
            k = udp_exchange(w, kport)
        if z is None:
            retried['zoneserver'] += 1
            z = udp_exchange(w, zport)
        answers[i] = (k, z)
    for what, n in sorted(retried.items()):
        if n:
            print('difftest: %s: %d UDP queries asked twice (no response '
                  'within %.0f s)' % (what, n, TIMEOUT))
    # TCP: batches of 16 queries per connection, pipelined.
    for start in range(0, len(tcp), 16):
        batch = tcp[start:start + 16]
        wires = [q.wire(i & 0xffff) for i, q in batch]
        ks = tcp_exchange_many(wires, kport)
        zs = tcp_exchange_many(wires, zport)
        for (i, _), k, z in zip(batch, ks, zs):
            answers[i] = (k, z)
    bad = 0
    for i, q in enumerate(queries):
        k, z = answers[i]
        diff = differences(summary(k), summary(z))
        if diff:
            bad += 1
            if bad <= 40:
                print('DIFF (%s): %s' % (', '.join(diff), q.describe()))
                print('  knotd:')
                print(show(k))
                print('  zoneserver:')
                print(show(z))
    return bad


def main():
    if len(sys.argv) < 3:
        print(__doc__)
        return 2
    binary, zonedir = os.path.abspath(sys.argv[1]), sys.argv[2]
    knotd = shutil.which('knotd') or ('/usr/sbin/knotd'
                                      if os.path.exists('/usr/sbin/knotd') else None)
    if not knotd:
        MISSING.append('knotd (apt-get install knot)')
    if not shutil.which('kdig'):
        MISSING.append('kdig (apt-get install knot-dnsutils)')
    if MISSING:
        fail_missing(MISSING)
    netns = enter_netns() or bool(os.environ.get(NETNS_MARK))
    if netns:
        kport, zport = 5301, 5302
    else:
        kport, zport = free_port(), free_port()
    work = sys.argv[3] if len(sys.argv) > 3 else tempfile.mkdtemp(prefix='zs-difftest-')
    os.makedirs(work, exist_ok=True)
    zones = zone_files(zonedir)
    kproc = start_knotd(knotd, work, kport, zones)
    zproc = start_zoneserver(binary, work, zport, zones)
    status = 1
    try:
        for port, proc, what in [(kport, kproc, 'knotd'), (zport, zproc, 'zoneserver')]:
            if not all(wait_ready(port, origin, proc) for origin, _ in zones):
                print('difftest: FAIL: %s did not start serving; its log:' % what)
                with open(os.path.join(work, what + '.log')) as f:
                    print(f.read())
                return 1
        # kdig must agree that knotd is up (and be installed and working).
        kd = subprocess.run(['kdig', '+norec', '+nocookie', '@127.0.0.1', '-p',
                             str(kport), zones[0][0], 'SOA'],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            universal_newlines=True)
        if 'NOERROR' not in kd.stdout:
            print('difftest: FAIL: kdig could not query knotd:\n' + kd.stdout)
            return 1
        rng = random.Random(SEED)
        queries = build_queries(zones, rng)
        bad = run(queries, kport, zport)
        ntcp = sum(1 for q in queries if q.tcp)
        print('difftest: %d queries (%d UDP, %d TCP), %d zones, seed %d%s: '
              '%d identical, %d different'
              % (len(queries), len(queries) - ntcp, ntcp, len(zones), SEED,
                 ', private network namespace' if netns else '',
                 len(queries) - bad, bad))
        status = 0 if bad == 0 else 1
    finally:
        for proc in (zproc, kproc):
            if proc.poll() is None:
                proc.send_signal(signal.SIGTERM)
                try:
                    proc.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    proc.kill()
        if zproc.returncode not in (0, None):
            print('difftest: FAIL: zoneserver exited %s' % zproc.returncode)
            status = 1
        with open(os.path.join(work, 'zoneserver.log')) as f:
            zlog = f.read()
        tail = zlog.splitlines()[-1:]
        if 'Sanitizer' in zlog or 'runtime error' in zlog:
            print('difftest: FAIL: sanitizer report from the zoneserver:\n' + zlog[-3000:])
            status = 1
        print('difftest: zoneserver: %s' % ' '.join(tail))
    print('difftest: %s' % ('PASS' if status == 0 else 'FAIL'))
    return status


if __name__ == '__main__':
    sys.exit(main())
