# SPDX-License-Identifier: LGPL-2.1-or-later
"""Check that the code and tests/formal/tags.pml still name each other.

The rule (docs/design.md, "What the model checker proves"):

  * A site is a barrier or an ordered atomic in rcu/src/*.[ch] or the
    read-side headers rcu/include/urcu/static/*.h: an __atomic_* builtin
    with an explicit order other than __ATOMIC_RELAXED or __ATOMIC_SEQ_CST
    among its own arguments (any non-relaxed order for the fences
    __atomic_thread_fence / __atomic_signal_fence); a cmm_* fence or
    compiler barrier (cmm_smp_mb, cmm_smp_rmb, cmm_smp_wmb, cmm_mb,
    cmm_barrier, ...); a uatomic_*_mo with a non-relaxed order, or a
    uatomic_xchg / cmpxchg / add_return / sub_return (full barriers); a
    use of the RCU pointer macros (rcu_dereference, rcu_set_pointer,
    rcu_assign_pointer, rcu_xchg_pointer, rcu_cmpxchg_pointer, with or
    without the leading underscore) outside their own #define.
  * A site's comment is the comment that starts on the site's line, or
    else the nearest comment that ends on or above it, at most
    MAX_GAP lines above: the comment just before the statement (or the
    function's header comment when the function is that short).
  * That comment carries "model: tags.pml TAG[, TAG...]" (tags defined in
    tags.pml) or "model: none (reason)".  Every "model:" in a comment has
    one of those two forms.
  * Every tag of tags.pml is named by at least one code comment, and the
    function its tags.pml comment names first ("TAG: function(), ...")
    is defined in a file that names the tag, or in a file the tag's
    comment names ("(gp-observe.h)").

The rcu/common/include/urcu/static headers (wfcqueue, wfstack) hold no
read side of the grace period and are not scanned.
"""
import glob
import os
import re

MAX_GAP = 15

SCANNED = ('rcu/src/*.c', 'rcu/src/*.h', 'rcu/include/urcu/static/*.h')

ORDERS = r'__ATOMIC_(?:ACQUIRE|RELEASE|ACQ_REL|CONSUME)'
FENCES = ('cmm_smp_mb', 'cmm_smp_rmb', 'cmm_smp_wmb', 'cmm_mb', 'cmm_rmb',
          'cmm_wmb', 'cmm_barrier', 'cmm_smp_mc', 'cmm_smp_rmc',
          'cmm_smp_wmc', 'cmm_mc', 'cmm_rmc', 'cmm_wmc',
          'cmm_smp_read_barrier_depends', 'cmm_read_barrier_depends')
FULL_UATOMICS = ('uatomic_xchg', 'uatomic_cmpxchg', 'uatomic_add_return',
                 'uatomic_sub_return')
POINTER_MACROS = ('rcu_dereference', 'rcu_set_pointer', 'rcu_assign_pointer',
                  'rcu_xchg_pointer', 'rcu_cmpxchg_pointer')

CALL = re.compile(r'\b(_?[A-Za-z_]\w*)\s*\(')
TAG_WORD = re.compile(r'\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+\b')


def split_comments(text):
    """Return (code, comments): code is text with comments and string
    literals blanked (newlines kept); comments lists (first line, last
    line, text with the leading ' * ' of each line dropped, joined)."""
    code = []
    comments = []
    i, n, line = 0, len(text), 1
    while i < n:
        c = text[i]
        if text.startswith('/*', i) or text.startswith('//', i):
            end = (text.find('*/', i + 2) + 2 if text[i + 1] == '*'
                   else text.find('\n', i))
            if end < 2 or end == -1:
                end = n
            body = text[i:end]
            lines = [l.strip().lstrip('/*').rstrip('*/').strip()
                     for l in body.splitlines()]
            comments.append((line, line + body.count('\n'),
                             ' '.join(l for l in lines if l)))
            code.append(''.join(ch if ch == '\n' else ' ' for ch in body))
            line += body.count('\n')
            i = end
        elif c in '"\'':
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == '\\' else 1
            body = text[i:j + 1]
            code.append(c + ''.join(ch if ch == '\n' else ' '
                                    for ch in body[1:-1]) + c)
            line += body.count('\n')
            i = j + 1
        else:
            if c == '\n':
                line += 1
            code.append(c)
            i += 1
    return ''.join(code), comments


def top_level_args(code, open_paren):
    """Arguments of the call whose '(' is at open_paren, nested calls
    blanked."""
    depth, j, out = 0, open_paren, []
    while j < len(code):
        ch = code[j]
        if ch == '(':
            depth += 1
        elif ch == ')':
            depth -= 1
            if depth == 0:
                break
        if depth == 1 and ch not in '()':
            out.append(ch)
        elif depth > 1:
            out.append(' ')
        j += 1
    return ''.join(out)


def find_sites(code):
    """(line, what) of every barrier or ordered atomic in code."""
    sites = []
    for m in CALL.finditer(code):
        name = m.group(1)
        base = name.lstrip('_')
        args = None
        line = code.count('\n', 0, m.start()) + 1
        line_start = code.rfind('\n', 0, m.start()) + 1
        if (base in POINTER_MACROS
                and re.match(r'\s*#\s*define\s+_?rcu_', code[line_start:])):
            continue	# one pointer macro defined by another
        if name.startswith('__atomic_'):
            args = top_level_args(code, m.end() - 1)
            if name in ('__atomic_thread_fence', '__atomic_signal_fence'):
                ordered = '__ATOMIC_RELAXED' not in args
            else:
                ordered = re.search(ORDERS, args)
        elif name in FENCES:
            ordered = True
        elif name.startswith('uatomic_') and name.endswith('_mo'):
            args = top_level_args(code, m.end() - 1)
            ordered = not re.search(r'\bCMM_RELAXED\b\s*$', args)
        elif name in FULL_UATOMICS:
            ordered = True
        elif base in POINTER_MACROS and name in (base, '_' + base):
            ordered = True
        else:
            ordered = False
        if ordered:
            sites.append((line, name))
    return sites


def parse_model(text):
    """Parse every "model:" of a comment's text: return (tags, nones,
    errors)."""
    tags, nones, errors = [], [], []
    for m in re.finditer(r'\bmodel:\s*', text):
        rest = text[m.end():]
        t = re.match(r'tags\.pml\s+', rest)
        if t:
            # The sentence after "tags.pml", parenthesized asides
            # (model statements: "(reader.pml rd_lock, RD_FENCE)") dropped.
            span = rest[t.end():]
            while re.search(r'\([^()]*\)', span):
                span = re.sub(r'\([^()]*\)', ' ', span)
            span = re.split(r'\.\s|\.$|;|\(', span, 1)[0]
            found = TAG_WORD.findall(span)
            if not found:
                errors.append('"model: tags.pml" names no tag')
            tags += found
            continue
        t = re.match(r'none\s*\(', rest)
        if t:
            depth, j = 1, t.end()
            while j < len(rest) and depth:
                depth += {'(': 1, ')': -1}.get(rest[j], 0)
                j += 1
            reason = rest[t.end():j - 1].strip()
            if depth or not reason:
                errors.append('"model: none (" without a reason and ")"')
            else:
                nones.append(reason)
            continue
        errors.append('"model:" followed by neither "tags.pml TAG" nor '
                      '"none (reason)": "model: %s..."' % rest[:40])
    return tags, nones, errors


def defines_function(code, name):
    return re.search(r'(?m)^(?:[^\s#].*)?\b' + re.escape(name) + r'\s*\(',
                     code) or re.search(r'(?m)^\s*#\s*define\s+'
                                        + re.escape(name) + r'\b', code)


def tag_function(comment):
    m = re.match(r'\s*(\w+)\s*\(\)', comment)
    return m.group(1) if m else None


def check(root, tags_pml):
    """Return (problems, stats): problems lists "file:line: message"."""
    text = open(tags_pml).read()
    tag_comments = {}
    for m in re.finditer(r'/\*((?:(?!\*/).)*)\*/\s*#ifndef (\w+)\s*\n'
                         r'#define \2\s+1\s*\n#endif', text, re.S):
        body = ' '.join(l.strip(' *') for l in m.group(1).splitlines())
        if body.strip().startswith(m.group(2) + ':'):
            body = body.strip()[len(m.group(2)) + 1:]
        tag_comments[m.group(2)] = body
    problems = []
    refs = {}		# tag -> files naming it
    codes = {}
    nsites = nnone = ntagged = 0
    files = sorted(f for pat in SCANNED
                   for f in glob.glob(os.path.join(root, pat)))
    for path in files:
        rel = os.path.relpath(path, root)
        code, comments = split_comments(open(path).read())
        codes[rel] = code
        parsed = {}
        for first, last, body in comments:
            tags, nones, errors = parse_model(body)
            parsed[(first, last)] = (tags, nones)
            for e in errors:
                problems.append('%s:%d: %s' % (rel, first, e))
            for t in tags:
                if t not in tag_comments:
                    problems.append('%s:%d: model: tags.pml %s: no such tag '
                                    'in tags.pml' % (rel, first, t))
                refs.setdefault(t, set()).add(rel)
        for line, what in find_sites(code):
            nsites += 1
            same = [c for c in comments if c[0] == line]
            above = [c for c in comments if c[1] <= line
                     and c[1] >= line - MAX_GAP]
            c = same[0] if same else (max(above, key=lambda c: c[1])
                                      if above else None)
            tags, nones = parsed[(c[0], c[1])] if c else ([], [])
            if tags:
                ntagged += 1
            elif nones:
                nnone += 1
            else:
                problems.append(
                    '%s:%d: %s() has no "model: tags.pml TAG" or "model: '
                    'none (reason)" in its comment (%s)'
                    % (rel, line, what,
                       'comment at line %d' % c[0] if c else
                       'no comment within %d lines above' % MAX_GAP))
    for tag, comment in tag_comments.items():
        if tag not in refs:
            problems.append('tests/formal/tags.pml: %s: no comment in rcu/ '
                            'names it ("model: tags.pml %s")' % (tag, tag))
            continue
        fn = tag_function(comment)
        if not fn:
            problems.append('tests/formal/tags.pml: %s: the comment does not '
                            'start with the function ("%s: name(), ...")'
                            % (tag, tag))
            continue
        where = set(refs[tag])
        for f in re.findall(r'\b([\w-]+\.[ch])\b', comment):
            where.update(r for r in codes if os.path.basename(r) == f)
        if not any(defines_function(codes[r], fn) for r in where):
            problems.append('tests/formal/tags.pml: %s: %s() is defined in '
                            'none of %s' % (tag, fn, ', '.join(sorted(where))))
    stats = {'files': len(files), 'sites': nsites, 'tagged': ntagged,
             'none': nnone, 'tags': len(tag_comments)}
    return problems, stats
