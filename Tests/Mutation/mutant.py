"""A mutant: what it is, and where it goes in a tree of sources.

A mutant file (mutants/NNN-short-name.mutant) is a small text format:

    Mutant: one sentence saying what mistake this is
    Tests: HistoryStoreTests|ListCommandTests
    File: Sources/FetchHistoryStore/Store/Database+Reading.swift
    Find:
    "SELECT … ORDER BY started_at DESC, seq DESC LIMIT ?",
    Replace:
    "SELECT … ORDER BY started_at DESC, seq LIMIT ?",

A `Find:` block runs to the `Replace:` line, a `Replace:` block to the next
`Find:` or `File:` line or the end; blank lines that open or close a block are
not part of it, and an empty `Replace:` deletes. More `Find:`/`Replace:` pairs
may follow, in the same file or after another `File:`.

The Find lines must stand, as whole consecutive lines, exactly once in the
file; indentation and trailing spaces are not compared, so a re-indented or
moved block is still found. The Replace lines keep their indentation relative
to the first Find line, shifted to where that line stands now.

When the file no longer holds the text, it is looked for, in this order, in
files of the same name elsewhere (a file moved to another folder or module),
in the rest of the file's module, then anywhere under Sources/ and
Migrations/: the first of these places that holds it must hold it exactly
once, and the mutant goes there ("moved"; `refresh` rewrites its File: line).

    python3 mutant.py apply MUTANT TREE

puts one mutant into the tree at TREE (what `run` does in its scratch copy):
it prints each file it changed, relative to TREE, one a line; for each edit
found away from its File:, "moved: PATH (…)" on stderr; exit status 1 when a
text is missing or ambiguous (nothing is changed then), 2 when the mutant
file is malformed.
"""
import os
import sys

SEARCHED = ("Sources", "Migrations")
HEADERS = ("Mutant", "Tests")


class FormatError(Exception):
    pass


class Stale(Exception):
    """The text of an edit is missing or stands more than once."""


class Edit:
    def __init__(self, file, line):
        self.file = file
        self.line = line  # where its Find: stands in the mutant file, for messages
        self.find = []
        self.replace = []


class Mutant:
    def __init__(self, path):
        self.path = path
        self.name = os.path.basename(path)[: -len(".mutant")] if path.endswith(".mutant") else os.path.basename(path)
        self.headers = {}
        self.edits = []


def _trimmed(lines):
    while lines and not lines[0].strip():
        lines.pop(0)
    while lines and not lines[-1].strip():
        lines.pop()
    return [line.rstrip() for line in lines]


def parse(path):
    with open(path, encoding="utf-8") as file:
        text = file.read()
    mutant = Mutant(path)
    file_name = None
    block = None  # the list the current lines go into
    edit = None
    for number, line in enumerate(text.split("\n"), start=1):
        word = line.rstrip()
        if word == "Find:":
            if file_name is None:
                raise FormatError(f"{path}:{number}: Find: before any File: line")
            if edit is not None and block is edit.find:
                raise FormatError(f"{path}:{number}: Find: where a Replace: was due")
            edit = Edit(file_name, number)
            mutant.edits.append(edit)
            block = edit.find
        elif word == "Replace:":
            if edit is None or block is not edit.find:
                raise FormatError(f"{path}:{number}: Replace: without a Find: before it")
            block = edit.replace
        elif line.startswith("File:"):
            if edit is not None and block is edit.find:
                raise FormatError(f"{path}:{number}: File: where a Replace: was due")
            file_name = line[len("File:"):].strip()
            if not file_name or os.path.isabs(file_name) or ".." in file_name.split("/"):
                raise FormatError(f"{path}:{number}: File: takes a path inside the repository")
            block = None
            edit = None
        elif block is not None:
            block.append(line)
        elif any(line.startswith(key + ":") for key in HEADERS) and file_name is None:
            key, value = line.split(":", 1)
            if key in mutant.headers:
                raise FormatError(f"{path}:{number}: a second {key}: line")
            mutant.headers[key] = value.strip()
        elif line.strip():
            raise FormatError(f"{path}:{number}: expected Mutant:, Tests:, File:, Find: or Replace:, not: {line.strip()[:60]}")
    if edit is not None and block is edit.find:
        raise FormatError(f"{path}: the last Find: has no Replace:")
    for key in HEADERS:
        if not mutant.headers.get(key):
            raise FormatError(f"{path}: no {key}: line")
    if not mutant.edits:
        raise FormatError(f"{path}: no File:, Find: and Replace:")
    for edit in mutant.edits:
        edit.find = _trimmed(edit.find)
        edit.replace = _trimmed(edit.replace)
        if not edit.find:
            raise FormatError(f"{path}:{edit.line}: an empty Find:")
        if [line.strip() for line in edit.find] == [line.strip() for line in edit.replace]:
            raise FormatError(f"{path}:{edit.line}: Replace: changes nothing but indentation")
    return mutant


def _indentation(line):
    return len(line) - len(line.lstrip(" \t"))


class Files:
    """The files under a root, each read once (checking the whole catalogue
    reads each source file once, not once a mutant)."""

    def __init__(self, root):
        self.root = root
        self.texts = {}
        self.listing = []
        for top in SEARCHED:
            for folder, folders, names in os.walk(os.path.join(root, top)):
                folders.sort()
                self.listing += [os.path.relpath(os.path.join(folder, name), root) for name in sorted(names)]

    def text(self, path):
        if path not in self.texts:
            try:
                with open(os.path.join(self.root, path), encoding="utf-8") as file:
                    self.texts[path] = file.read()
            except (FileNotFoundError, IsADirectoryError, NotADirectoryError, UnicodeDecodeError):
                self.texts[path] = None
        return self.texts[path]


class Tree:
    """One mutant's view of the files: edited in memory, never on disk."""

    def __init__(self, files):
        self.files = files
        self.edited = {}

    def lines(self, path):
        if path not in self.edited:
            text = self.files.text(path)
            self.edited[path] = None if text is None else text.split("\n")
        return self.edited[path]

    def listing(self):
        return self.files.listing

    def occurrences(self, path, find):
        lines = self.lines(path)
        if lines is None:
            return []
        key = [line.strip() for line in find]
        first, count = key[0], len(key)
        return [
            start
            for start in range(len(lines) - count + 1)
            if lines[start].strip() == first and [line.strip() for line in lines[start : start + count]] == key
        ]


def _module(path):
    """Sources/NAME for a file under Sources/, else the file's top folder."""
    parts = path.split("/")
    return "/".join(parts[:2]) if parts[0] == "Sources" and len(parts) > 2 else parts[0]


def locate(tree, edit):
    """(path, start) of the one place of edit's text, or raises Stale."""
    named = edit.file
    others = [path for path in tree.listing() if path != named]
    tiers = [
        [named],
        [path for path in others if os.path.basename(path) == os.path.basename(named)],
        [path for path in others if path.startswith(_module(named) + "/")],
        others,
    ]
    searched = set()
    for paths in tiers:
        paths = [path for path in paths if path not in searched]
        searched.update(paths)
        places = [(path, start) for path in paths for start in tree.occurrences(path, edit.find)]
        if len(places) == 1:
            return places[0]
        if places:
            listed = ", ".join(f"{path}:{start + 1}" for path, start in places[:6])
            raise Stale(f"the Find: on line {edit.line} stands {len(places)} times ({listed}): add a line of context")
    missing = "is gone" if tree.lines(named) is None else "does not hold it"
    raise Stale(f"the Find: on line {edit.line} is nowhere: {named} {missing}, nor does any file under Sources/ or Migrations/")


def place(tree, mutant):
    """Makes the mutant's edits in the tree's memory; returns [(edit, path)]."""
    placed = []
    for edit in mutant.edits:
        path, start = locate(tree, edit)
        lines = tree.lines(path)
        shift = _indentation(lines[start]) - _indentation(edit.find[0])
        replacement = []
        for line in edit.replace:
            if not line:
                replacement.append("")
            elif shift >= 0:
                replacement.append(" " * shift + line)
            else:
                replacement.append(line[min(-shift, _indentation(line)):])
        lines[start : start + len(edit.find)] = replacement
        placed.append((edit, path))
    return placed


def serialize(mutant, files):
    """The mutant's text, each edit under the File: given (files[i] for edit i)."""
    out = [f"{key}: {mutant.headers[key]}" for key in HEADERS] + [""]
    current = None
    for edit, path in zip(mutant.edits, files):
        if path != current:
            out.append(f"File: {path}")
            current = path
        out += ["Find:"] + edit.find + ["Replace:"] + edit.replace
    return "\n".join(out) + "\n"


def apply(mutant_path, root):
    try:
        mutant = parse(mutant_path)
    except FormatError as error:
        print(error, file=sys.stderr)
        return 2
    tree = Tree(Files(root))
    try:
        placed = place(tree, mutant)
    except Stale as error:
        print(error, file=sys.stderr)
        return 1
    changed = []
    for edit, path in placed:
        if path != edit.file:
            print(f"moved: {path} (File: says {edit.file}; the Find: on line {edit.line})", file=sys.stderr)
        if path not in changed:
            changed.append(path)
    for path in changed:
        with open(os.path.join(root, path), "w", encoding="utf-8") as file:
            file.write("\n".join(tree.lines(path)))
        print(path)
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 4 or sys.argv[1] != "apply":
        sys.exit("usage: python3 mutant.py apply MUTANT TREE")
    sys.exit(apply(sys.argv[2], sys.argv[3]))
