#!/usr/bin/env python3
"""layers.py BUILD [--src DIR] [--allow FILE]: the layer rules of
docs/INTERNALS.md section 2, checked on the object files of the build
folder BUILD (BUILD/obj) and on the source tree DIR (default: this
file's repository):

  1. no two object files of one folder tree (pangaea_lib, logs, toplevel,
     coordinator, xview: the first part of the folders of the allowed
     list) use each other's symbols, directly or round a circle;
  2. an object of one folder uses a symbol defined in another folder's
     objects only along an edge of the allowed list (FILE, default
     tests/layers.allow);
  3. no folder of the source tree holds more than 20 C files directly;
  4. the objects of a folder the list calls neutral were compiled without
     a message-passing layer's header (pvm3.h, mpi.h): their dependency
     files (BUILD/obj/FOLDER/*.d, which the Makefile's -MD writes with
     the system headers) do not name one.

Prints one line per breach and a summary; exits 1 if any rule is broken.
An object whose source (DIR/P.c, or BUILD/obj/P.c if generated) is gone
is a leftover of an earlier build and is left out."""
import os
import subprocess
import sys

MAX_C_FILES = 20
LAYER_HEADERS = ("pvm3.h", "mpi.h")  # rule 4: a binding's own headers


def fail_usage(msg):
    """Print MSG and the usage, exit 2."""
    print("layers: " + msg, file=sys.stderr)
    print("usage: layers.py BUILD [--src DIR] [--allow FILE]", file=sys.stderr)
    sys.exit(2)


def parse_args(argv):
    """Return (build, src, allow) from the command line."""
    here = os.path.dirname(os.path.abspath(__file__))
    build, src, allow = None, os.path.dirname(here), None
    args = list(argv)
    while args:
        a = args.pop(0)
        if a in ("--src", "--allow") and args:
            if a == "--src":
                src = args.pop(0)
            else:
                allow = args.pop(0)
        elif build is None and not a.startswith("-"):
            build = a
        else:
            fail_usage("bad argument " + a)
    if build is None:
        fail_usage("no build folder")
    return build, src, allow or os.path.join(here, "layers.allow")


def read_allow(path):
    """Return (folders, allowed, pending, neutral) of the allowed list at
    PATH: allowed and pending map (from, to) to their line, neutral is the
    set of neutral folders; errors are fatal."""
    folders, allowed, pending, neutral = set(), {}, {}, set()
    with open(path) as f:
        for n, line in enumerate(f, 1):
            text, _, why = line.partition("#")
            words = text.split()
            if not words:
                continue
            where = "%s:%d" % (path, n)
            if not why.strip():
                fail_usage(where + ": say why, after a #")
            kind = allowed
            if words[0] == "neutral" and len(words) == 2:
                neutral.add(words[1])
                continue
            if words[0] == "pending":
                kind, words = pending, words[1:]
            if len(words) == 1 and kind is allowed:
                folders.add(words[0])
            elif len(words) == 3 and words[1] == "->":
                kind[(words[0], words[2])] = where
                folders.update((words[0], words[2]))
            else:
                fail_usage(where + ": not FROM -> TO, FOLDER or neutral "
                           "FOLDER")
    return folders, allowed, pending, neutral


def allow_cycles(allowed):
    """Return the cycles of the allowed list itself (it must be a ranking)."""
    nodes = sorted({f for e in allowed for f in e})
    edges = {v: sorted(t for (f, t) in allowed if f == v) for v in nodes}
    return [c for c in sccs(nodes, edges) if len(c) > 1]


def nm_symbols(path):
    """Return (defined, used) global symbols of the object file PATH."""
    out = subprocess.run(["nm", path], capture_output=True, text=True,
                         check=True).stdout
    defined, used = set(), set()
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 2 and parts[0] == "U":
            used.add(parts[1])
        elif len(parts) == 3 and parts[1] in "TDBRCGSVW":
            defined.add(parts[2])
    return defined, used


def find_objects(build, src, trees):
    """Return ({object: (defined, used)}, leftovers) for the objects under
    BUILD/obj/TREE of each tree; names are relative to BUILD/obj."""
    obj = os.path.join(build, "obj")
    info, leftovers = {}, []
    for tree in sorted(trees):
        for root, _, files in os.walk(os.path.join(obj, tree)):
            for name in sorted(files):
                if not name.endswith(".o"):
                    continue
                rel = os.path.relpath(os.path.join(root, name), obj)
                c = rel[:-2] + ".c"
                if not (os.path.exists(os.path.join(src, c)) or
                        os.path.exists(os.path.join(obj, c))):
                    leftovers.append(rel)
                    continue
                info[rel] = nm_symbols(os.path.join(obj, rel))
    return info, leftovers


def sccs(nodes, edges):
    """Return the strongly connected components of the graph (Tarjan)."""
    index, low, stack, on, out = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in edges[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            out.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for v in nodes:
        if v not in index:
            visit(v)
    return out


def tree_cycles(info, tree):
    """Rule 1: return the cycles of objects within the folder tree TREE."""
    objs = sorted(o for o in info if o.startswith(tree + "/"))
    owner = {}
    for o in objs:
        for s in sorted(info[o][0]):
            owner.setdefault(s, o)
    edges = {o: sorted({owner[s] for s in info[o][1]
                        if s in owner and owner[s] != o}) for o in objs}
    return [c for c in sccs(objs, edges) if len(c) > 1]


def folder_uses(info):
    """Return {(from, to): [(object, symbol, defining object)]}: the uses
    of a symbol defined in another folder (none when defined in its own)."""
    owners = {}
    for o in sorted(info):
        for s in info[o][0]:
            owners.setdefault(s, []).append(o)
    uses = {}
    for o in sorted(info):
        here = os.path.dirname(o)
        for s in sorted(info[o][1]):
            defs = owners.get(s, [])
            if any(os.path.dirname(d) == here for d in defs):
                continue
            for d in defs:
                uses.setdefault((here, os.path.dirname(d)), []).append(
                    (o, s, d))
    return uses


def source_c_files(src, build):
    """Return the C files of the source tree SRC, relative to it: those git
    knows of (tracked, or new and not ignored) in a checkout, else every
    one below SRC but in hidden folders and the build folder BUILD."""
    git = subprocess.run(["git", "-C", src, "ls-files", "-co",
                          "--exclude-standard", "--", "*.c"],
                         capture_output=True, text=True)
    if git.returncode == 0:
        return [f for f in git.stdout.splitlines()
                if os.path.exists(os.path.join(src, f))]
    skip = os.path.realpath(build)
    out = []
    for root, dirs, files in os.walk(src):
        dirs[:] = [d for d in dirs if not d.startswith(".") and
                   os.path.realpath(os.path.join(root, d)) != skip]
        out += [os.path.relpath(os.path.join(root, f), src)
                for f in files if f.endswith(".c")]
    return out


def crowded_folders(src, build):
    """Rule 3: return [(folder, count)] of the source tree's folders that
    hold more than MAX_C_FILES C files directly."""
    count = {}
    for f in source_c_files(src, build):
        d = os.path.dirname(f) or "."
        count[d] = count.get(d, 0) + 1
    return sorted((d, n) for d, n in count.items() if n > MAX_C_FILES)


def check_folders(info, folders):
    """Print each folder of objects the layer map lacks (a breach) and each
    folder of the map without objects (a note); return the breaches."""
    have = {}
    for o in sorted(info):
        have.setdefault(os.path.dirname(o), o)
    for f in sorted(folders - set(have)):
        print("layers: note: %s, in the layer map, has no objects" % f)
    for f in sorted(set(have) - folders):
        print("layers: folder %s (%s) is not in the layer map: add it to "
              "tests/layers.allow" % (f, have[f]))
    return len(set(have) - folders)


def check_uses(uses, folders, allowed, pending):
    """Rule 2: print each use not allowed and each pending one; return the
    number of breaches."""
    bad = 0
    for (f, t), list_ in sorted(uses.items()):
        if (f, t) in allowed or f not in folders or t not in folders:
            continue
        tag = "pending" if (f, t) in pending else "not allowed"
        for o, s, d in list_:
            print("layers: %s -> %s %s: %s uses %s (defined in %s)"
                  % (f, t, tag, o, s, d))
        if (f, t) not in pending:
            bad += 1
    for (f, t), where in sorted(pending.items()):
        if (f, t) not in uses:
            print("layers: %s -> %s is no longer used: delete its pending "
                  "line (%s)" % (f, t, where))
            bad += 1
    return bad


def layer_headers(build, neutral):
    """Rule 4: print each object of a neutral folder whose dependency file
    names a message-passing layer's header; return their number."""
    bad = 0
    for folder in sorted(neutral):
        d = os.path.join(build, "obj", folder)
        names = sorted(os.listdir(d)) if os.path.isdir(d) else []
        for name in names:
            if not name.endswith(".d"):
                continue
            with open(os.path.join(d, name)) as f:
                deps = f.read().replace("\\\n", " ").split()
            hit = sorted({h for h in LAYER_HEADERS for p in deps
                          if os.path.basename(p) == h})
            if hit:
                print("layers: %s/%s.o is built with %s, and %s is neutral"
                      % (folder, name[:-2], " ".join(hit), folder))
                bad += 1
    return bad


def main(argv):
    """Check the four rules; return the exit status."""
    build, src, allow = parse_args(argv)
    folders, allowed, pending, neutral = read_allow(allow)
    bad = 0
    for c in allow_cycles(allowed):
        print("layers: the allowed list goes round a circle: " + " ".join(c))
        bad += 1
    trees = {f.split("/")[0] for f in folders}
    info, leftovers = find_objects(build, src, trees)
    for o in leftovers:
        print("layers: note: %s has no source (a leftover): left out" % o)
    bad += check_folders(info, folders)
    cycles = [c for t in sorted(trees) for c in tree_cycles(info, t)]
    for c in cycles:
        print("layers: cycle of object files: " + " ".join(c))
    uses = folder_uses(info)
    bad += len(cycles) + check_uses(uses, folders, allowed, pending)
    bad += layer_headers(build, neutral)
    for folder, n in crowded_folders(src, build):
        print("layers: %s holds %d C files directly (at most %d)"
              % (folder, n, MAX_C_FILES))
        bad += 1
    print("layers: %d objects in %d folders, %d folder-to-folder uses, "
          "%d cycles, %d breaches" % (len(info), len({os.path.dirname(o)
          for o in info}), len(uses), len(cycles), bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
