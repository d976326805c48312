#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""check_layers.py TOP: check that every #include of the libraries points
down the layering (README.md, "Layout"), and print the include graph
between folders.

Layers, lowest first:
  rcu/common  include/  public headers of liburcu-common (atomics, lists,
                        wait-free queues and stacks)
              src/      liburcu-common's sources
              internal/ private headers shared by every library
  rcu         include/, src/   the RCU flavors
  ds          include/, src/   liburcu-cds, the RCU-protected structures
  rcu/lockdep src/             the lock validator, liburcu-lockdep.so: it
                               uses the flavors' public headers, and no
                               library uses it (docs/lockdep.md)

For every .c and .h file under those folders, each #include must:
  1. resolve to a file of this tree (a public header through the public
     include roots; a quoted include beside the file, in rcu/common/internal
     or in the file's own src/) or be a system header; the generated
     urcu-build-config.h counts as a library source's own;
  2. point to the file's own layer or a lower one;
  3. from a public header, name a public header only (installed headers
     cannot see src/ or internal/);
  4. reach into src/ only of the file's own folder, and into internal/
     only from a library's src/ (or internal/ itself).
A public header path must also exist under one include root only.

Prints the edges between folders with their counts, then each violation;
exits 1 if there is any.
"""
import os
import re
import sys

# (folder, layer), lowest layer first; a path belongs to the longest match.
LAYERS = [('rcu/common', 0), ('rcu', 1), ('ds', 2), ('rcu/lockdep', 3)]
PUBLIC_ROOTS = ['rcu/common/include', 'rcu/include', 'ds/include']
INTERNAL = 'rcu/common/internal'
GENERATED = {'urcu-build-config.h'}
INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]')


def folder_of(path):
    """(folder, layer, part) of a tree path such as rcu/src/urcu.c."""
    for folder, layer in sorted(LAYERS, key=lambda fl: -len(fl[0])):
        if path.startswith(folder + '/'):
            part = path[len(folder) + 1:].split('/', 1)[0]
            return folder, layer, part
    return None, None, None


def sources(top):
    """Every .c and .h file of the layered folders, as tree paths."""
    found = []
    for folder, _layer in LAYERS:
        for here, dirs, files in os.walk(os.path.join(top, folder)):
            dirs.sort()
            for name in sorted(files):
                if name.endswith(('.c', '.h')):
                    found.append(os.path.relpath(os.path.join(here, name), top))
    # rcu/ also walks rcu/common: keep each file once.
    return sorted(set(found))


def resolve(top, path, bracket, name):
    """Tree path that #include NAME in PATH means, 'generated', or None for
    a system header (angle brackets only)."""
    folder, _layer, part = folder_of(path)
    candidates = []
    if bracket == '"':
        candidates.append(os.path.join(os.path.dirname(path), name))
        if part in ('src', 'internal'):
            candidates += [os.path.join(INTERNAL, name),
                           os.path.join(folder, 'src', name)]
    candidates += [os.path.join(root, name) for root in PUBLIC_ROOTS]
    for candidate in candidates:
        if os.path.isfile(os.path.join(top, candidate)):
            return os.path.normpath(candidate)
    if bracket == '"' and name in GENERATED:
        return 'generated'
    return None if bracket == '<' else 'unresolved'


def check(top):
    edges, problems = {}, []
    seen = {}
    for root in PUBLIC_ROOTS:
        for here, _dirs, files in os.walk(os.path.join(top, root)):
            for name in files:
                rel = os.path.relpath(os.path.join(here, name), os.path.join(top, root))
                if rel in seen:
                    problems.append('<%s> exists under both %s and %s'
                                    % (rel, seen[rel], root))
                seen[rel] = root
    for path in sources(top):
        folder, layer, part = folder_of(path)
        with open(os.path.join(top, path), encoding='utf-8') as text:
            lines = text.read().splitlines()
        for number, line in enumerate(lines, 1):
            match = INCLUDE.match(line)
            if not match:
                continue
            bracket, name = match.groups()
            where = '%s:%d: #include %s%s%s' % (
                path, number, bracket, name, '>' if bracket == '<' else '"')
            target = resolve(top, path, bracket, name)
            if target is None:
                continue
            if target == 'unresolved':
                problems.append(where + ': not found in this tree')
                continue
            if target == 'generated':
                if part != 'src':
                    problems.append(where + ': generated header outside src/')
                continue
            tfolder, tlayer, tpart = folder_of(target)
            key = (-layer, '%s/%s' % (folder, part), '%s/%s' % (tfolder, tpart))
            edges[key] = edges.get(key, 0) + 1
            if tlayer > layer:
                problems.append('%s: points up, to %s' % (where, target))
            if part == 'include' and tpart != 'include':
                problems.append('%s: a public header includes %s' % (where, target))
            if tpart == 'src' and tfolder != folder:
                problems.append("%s: reaches into another folder's src/: %s"
                                % (where, target))
            if tpart == 'internal' and part not in ('src', 'internal'):
                problems.append('%s: internal header outside a library source: %s'
                                % (where, target))
    return edges, problems


def main():
    top = sys.argv[1] if len(sys.argv) > 1 else '.'
    edges, problems = check(top)
    print('include edges between folders (from -> to: #include lines):')
    for key in sorted(edges):
        print('  %-44s %4d' % ('%s -> %s' % key[1:], edges[key]))
    if problems:
        print('layering violations (README.md, "Layout"):')
        for problem in problems:
            print('  ' + problem)
        return 1
    print('layering: ok, %d files, every include points down or within its folder'
          % len(sources(top)))
    return 0


if __name__ == '__main__':
    sys.exit(main())
