#!/usr/bin/env python3
"""Every function, initializer, subscript and computed property in the Swift files under the given folders whose
body spans more than LIMIT lines, from the line of its `func`/`init`/`var` to that of its closing brace, both
included. Usage: scripts/long-functions.py [--limit N] [--all] DIR..."""
import os, re, sys

def blank(text):
    """The text with strings' contents and comments replaced by spaces (newlines kept), so braces count."""
    out, i, n = [], 0, len(text)
    stack = []  # for each open string interpolation: the paren depth at which it closes and the string kind
    mode = "code"; kind = None; paren = 0
    while i < n:
        c = text[i]
        if mode == "code":
            if text.startswith("//", i):
                j = text.find("\n", i); j = n if j < 0 else j
                out.append(" " * (j - i)); i = j; continue
            if text.startswith("/*", i):
                depth, j = 1, i + 2
                while j < n and depth:
                    if text.startswith("/*", j): depth += 1; j += 2
                    elif text.startswith("*/", j): depth -= 1; j += 2
                    else: j += 1
                out.append(re.sub(r"[^\n]", " ", text[i:j])); i = j; continue
            m = re.match(r'(#*)("""|")', text[i:i + 8])
            if m:
                kind = (m.group(1), m.group(2)); mode = "string"
                out.append(" " * len(m.group(0))); i += len(m.group(0)); continue
            if c == "(": paren += 1
            elif c == ")":
                paren -= 1
                if stack and stack[-1][0] == paren:
                    _, kind = stack.pop(); mode = "string"; out.append(" "); i += 1; continue
            out.append(c); i += 1; continue
        hashes, quote = kind
        if c == "\\" and text.startswith("\\" + hashes, i):
            k = i + 1 + len(hashes)
            if k < n and text[k] == "(":
                stack.append((paren, kind)); paren += 1; mode = "code"
                out.append(" " * (k + 1 - i)); i = k + 1; continue
            out.append("  " if text[k:k + 1] != "\n" else " \n"); i = k + 1; continue
        if text.startswith(quote + hashes, i):
            out.append(" " * (len(quote) + len(hashes))); i += len(quote) + len(hashes); mode = "code"; continue
        out.append("\n" if c == "\n" else " "); i += 1
    return "".join(out)

DECL = re.compile(r"(?<![.\w])(func\s+([^\s(<]+)|init[?!]?\s*[(<]|subscript\s*[(<]|deinit\b|var\s+(\w+)\s*:)")

def functions(path):
    text = blank(open(path, encoding="utf-8").read())
    line_of = lambda pos: text.count("\n", 0, pos) + 1
    for m in DECL.finditer(text):
        name = m.group(2) or m.group(3) or m.group(1).split("(")[0].split("<")[0].strip()
        is_var = m.group(3) is not None
        depth, j = 0, m.end() - 1 if m.group(0)[-1] in "(<" else m.end()
        body = None
        while j < len(text):
            c = text[j]
            if c in "([": depth += 1
            elif c in ")]": depth -= 1
            elif depth == 0:
                if c == "{": body = j; break
                if c == "}" or (is_var and c == "="): break
                if c == "\n":
                    if is_var: break  # a computed property opens its body on its own line
                    rest = text[j + 1:j + 200].lstrip()
                    if re.match(r"(@|(public|private|internal|fileprivate|static|func|var|let|init|case|mutating|override|final|nonisolated|enum|struct|class|extension|typealias|subscript|deinit|convenience|required|lazy|weak|unowned|protocol)\b|#)", rest):
                        break
            j += 1
        if body is None: continue
        level, k = 0, body
        while k < len(text):
            if text[k] == "{": level += 1
            elif text[k] == "}":
                level -= 1
                if level == 0: break
            k += 1
        yield name, line_of(m.start()), line_of(k) - line_of(m.start()) + 1

def main(argv):
    limit, show_all, dirs = 60, False, []
    it = iter(argv)
    for a in it:
        if a == "--limit": limit = int(next(it))
        elif a == "--all": show_all = True
        else: dirs.append(a)
    rows = []
    for d in dirs:
        for root, _, files in os.walk(d):
            for f in sorted(files):
                if f.endswith(".swift"):
                    p = os.path.join(root, f)
                    for name, line, count in functions(p):
                        if show_all or count > limit:
                            rows.append((count, name, f"{p}:{line}"))
    for count, name, where in sorted(rows, reverse=True):
        print(f"{count:4d}  {name:32s} {where}")

main(sys.argv[1:])
