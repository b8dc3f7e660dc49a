#!/usr/bin/env python3
"""Finds production declarations that only tests use: test hooks, by what the tests read.

    Scripts/check-no-test-hooks.py [--build .build/debug] [--allowlist FILE] [--verbose]

Run after a debug build with tests (`swift build --build-tests`): it reads the index store the compiler wrote while
building (.build/debug/index/store) through the toolchain's libIndexStore.so, so it sees resolved references, not
names — `Frame.text` is told apart from every other `text`. A declaration is flagged when

  - it is declared in Sources/{Ripple,RippleTesting,Calculator,CalculatorTerminal,InternalRippleUtilities},
  - it is referenced from Tests/,
  - and no file under Sources/ references it (the calc and ripple-bench executables count as production; a
    reference on the declaration's own line does not count).

The rule for public API: a `public` or `open` declaration of a library product's module (Ripple, RippleTesting,
Calculator) is API, and API used only by tests is not a hook. Everything else — internal or package declarations
of any module, and public ones of CalculatorTerminal and InternalRippleUtilities, which are no products — is
flagged. Also skipped: protocol witnesses and overrides (production reaches them through the requirement or the
base), accessors (their property is checked), extensions, parameters, generic parameters and locals.

A flagged declaration that is not a hook goes in Scripts/test-hooks-allowlist.txt, one per line:
`Module Parent.name  # why it is not a hook`; an entry without a reason, or one that no longer matches, fails.

Limits: only what the debug build compiled is seen (no `#if` branch of another platform or configuration, no
Fuzz/, no Examples/); the store must be fresh — units of deleted files are ignored, but a stale store of files
that still exist is trusted; a member reached only through a protocol's default implementation or dynamic lookup
(`@dynamicMemberLookup`, key paths written as strings) is not seen as used; use in doc comments and DocC articles
does not count (those examples run as tests anyway).
"""

import argparse
import ctypes
import glob
import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections import defaultdict

CHECKED_MODULES = ["Ripple", "RippleTesting", "Calculator", "CalculatorTerminal", "InternalRippleUtilities"]
PRODUCT_MODULES = {"Ripple", "RippleTesting", "Calculator"}

ROLE_DECLARATION = 1 << 0
ROLE_DEFINITION = 1 << 1
ROLE_REFERENCE = 1 << 2
ROLE_REL_CHILDOF = 1 << 9
ROLE_REL_OVERRIDEOF = 1 << 11
ROLE_REL_ACCESSOROF = 1 << 15

KIND_MODULE, KIND_EXTENSION, KIND_PARAMETER = 1, 9, 25
SUBKIND_ACCESSORS = {3, 4} | set(range(1000, 1004)) | set(range(1014, 1019))
SUBKIND_GENERIC_PARAM = 1013
PROPERTY_LOCAL = 1 << 7


class StringRef(ctypes.Structure):
    _fields_ = [("data", ctypes.c_char_p), ("length", ctypes.c_size_t)]

    def text(self):
        return ctypes.string_at(self.data, self.length).decode() if self.length else ""


def load_library():
    path = os.environ.get("INDEXSTORE_LIB")
    if not path:
        swift = shutil.which("swift")
        if not swift:
            sys.exit("error: no swift on PATH to find libIndexStore.so (or set INDEXSTORE_LIB)")
        path = os.path.join(os.path.dirname(os.path.realpath(swift)), "..", "lib", "libIndexStore.so")
    lib = ctypes.CDLL(path)
    void_p, c_bool, c_uint = ctypes.c_void_p, ctypes.c_bool, ctypes.c_uint
    signatures = {
        "indexstore_store_create": (void_p, [ctypes.c_char_p, ctypes.POINTER(void_p)]),
        "indexstore_store_units_apply_f": (c_bool, [void_p, c_uint, void_p, void_p]),
        "indexstore_unit_reader_create": (void_p, [void_p, ctypes.c_char_p, ctypes.POINTER(void_p)]),
        "indexstore_unit_reader_dispose": (None, [void_p]),
        "indexstore_unit_reader_is_system_unit": (c_bool, [void_p]),
        "indexstore_unit_reader_get_main_file": (StringRef, [void_p]),
        "indexstore_unit_reader_get_module_name": (StringRef, [void_p]),
        "indexstore_unit_reader_dependencies_apply_f": (c_bool, [void_p, void_p, void_p]),
        "indexstore_unit_dependency_get_kind": (ctypes.c_int, [void_p]),
        "indexstore_unit_dependency_is_system": (c_bool, [void_p]),
        "indexstore_unit_dependency_get_filepath": (StringRef, [void_p]),
        "indexstore_unit_dependency_get_name": (StringRef, [void_p]),
        "indexstore_record_reader_create": (void_p, [void_p, ctypes.c_char_p, ctypes.POINTER(void_p)]),
        "indexstore_record_reader_dispose": (None, [void_p]),
        "indexstore_record_reader_occurrences_apply_f": (c_bool, [void_p, void_p, void_p]),
        "indexstore_occurrence_get_symbol": (void_p, [void_p]),
        "indexstore_occurrence_get_roles": (ctypes.c_uint64, [void_p]),
        "indexstore_occurrence_get_line_col": (None, [void_p, ctypes.POINTER(c_uint), ctypes.POINTER(c_uint)]),
        "indexstore_occurrence_relations_apply_f": (c_bool, [void_p, void_p, void_p]),
        "indexstore_symbol_relation_get_roles": (ctypes.c_uint64, [void_p]),
        "indexstore_symbol_relation_get_symbol": (void_p, [void_p]),
        "indexstore_symbol_get_kind": (ctypes.c_int, [void_p]),
        "indexstore_symbol_get_subkind": (ctypes.c_int, [void_p]),
        "indexstore_symbol_get_properties": (ctypes.c_uint64, [void_p]),
        "indexstore_symbol_get_name": (StringRef, [void_p]),
        "indexstore_symbol_get_usr": (StringRef, [void_p]),
        "indexstore_error_get_description": (ctypes.c_char_p, [void_p]),
    }
    for name, (restype, argtypes) in signatures.items():
        function = getattr(lib, name)
        function.restype, function.argtypes = restype, argtypes
    return lib


STRING_APPLIER = ctypes.CFUNCTYPE(ctypes.c_bool, ctypes.c_void_p, StringRef)
POINTER_APPLIER = ctypes.CFUNCTYPE(ctypes.c_bool, ctypes.c_void_p, ctypes.c_void_p)


def production_module(path, root):
    """The checked module a file under Sources/ belongs to, or None."""
    parts = os.path.relpath(path, root).split(os.sep)
    return parts[1] if len(parts) > 2 and parts[0] == "Sources" and parts[1] in CHECKED_MODULES else None


def read_store(lib, store_path, root):
    """Declarations in the checked modules and every reference from Sources/ and Tests/."""
    error = ctypes.c_void_p()
    store = lib.indexstore_store_create(store_path.encode(), ctypes.byref(error))
    if not store:
        sys.exit(f"error: cannot open the index store {store_path}: "
                 f"{lib.indexstore_error_get_description(error).decode()}")

    unit_names = []

    def unit_name(_, name):
        unit_names.append(name.text())
        return True
    lib.indexstore_store_units_apply_f(store, 0, None, STRING_APPLIER(unit_name))

    # The records of source files that still exist under Sources/ and Tests/, each read once.
    records = {}
    sources, tests = os.path.join(root, "Sources") + os.sep, os.path.join(root, "Tests") + os.sep
    for unit_name in unit_names:
        unit = lib.indexstore_unit_reader_create(store, unit_name.encode(), ctypes.byref(error))
        if not unit:
            continue
        main_file = lib.indexstore_unit_reader_get_main_file(unit).text()
        if (not lib.indexstore_unit_reader_is_system_unit(unit) and main_file.startswith((sources, tests))
                and os.path.exists(main_file)):
            def dependency(_, dep):
                # The record (kind 2) of the unit's own file; the others are its imports'.
                if (lib.indexstore_unit_dependency_get_kind(dep) == 2
                        and lib.indexstore_unit_dependency_get_filepath(dep).text() == main_file):
                    records[lib.indexstore_unit_dependency_get_name(dep).text()] = main_file
                return True
            lib.indexstore_unit_reader_dependencies_apply_f(unit, None, POINTER_APPLIER(dependency))
        lib.indexstore_unit_reader_dispose(unit)

    declarations = {}  # usr -> dict(name, module, file, line, parent, access, witness, kind, subkind, local)
    declared_at = defaultdict(set)  # usr -> {(file, line)}
    references = defaultdict(set)  # usr -> {(file, line)}
    line, column = ctypes.c_uint(), ctypes.c_uint()
    for record_name, path in records.items():
        reader = lib.indexstore_record_reader_create(store, record_name.encode(), ctypes.byref(error))
        if not reader:
            continue
        module = production_module(path, root)

        def occurrence(_, occ):
            roles = lib.indexstore_occurrence_get_roles(occ)
            if not roles & (ROLE_DECLARATION | ROLE_DEFINITION | ROLE_REFERENCE):
                return True
            symbol = lib.indexstore_occurrence_get_symbol(occ)
            usr = lib.indexstore_symbol_get_usr(symbol).text()
            lib.indexstore_occurrence_get_line_col(occ, ctypes.byref(line), ctypes.byref(column))
            where = (path, line.value)
            if roles & ROLE_REFERENCE:
                references[usr].add(where)
            if roles & (ROLE_DECLARATION | ROLE_DEFINITION):
                declared_at[usr].add(where)
                if module and usr not in declarations:
                    related = {"parent": "", "witness": False}

                    def relation(_, rel):
                        rel_roles = lib.indexstore_symbol_relation_get_roles(rel)
                        if rel_roles & ROLE_REL_CHILDOF:
                            related["parent"] = lib.indexstore_symbol_get_name(
                                lib.indexstore_symbol_relation_get_symbol(rel)).text()
                        if rel_roles & (ROLE_REL_OVERRIDEOF | ROLE_REL_ACCESSOROF):
                            related["witness"] = True
                        return True
                    lib.indexstore_occurrence_relations_apply_f(occ, None, POINTER_APPLIER(relation))
                    declarations[usr] = {
                        "name": lib.indexstore_symbol_get_name(symbol).text(),
                        "module": module, "file": path, "line": line.value, **related,
                        "local": bool(lib.indexstore_symbol_get_properties(symbol) & PROPERTY_LOCAL),
                        "kind": lib.indexstore_symbol_get_kind(symbol),
                        "subkind": lib.indexstore_symbol_get_subkind(symbol),
                    }
            return True
        lib.indexstore_record_reader_occurrences_apply_f(reader, None, POINTER_APPLIER(occurrence))
        lib.indexstore_record_reader_dispose(reader)
    return declarations, declared_at, references


def public_api(build):
    """The USRs of the product modules' public and open symbols, from their symbol graphs (the index store does not
    record access levels)."""
    extract = shutil.which("swift-symbolgraph-extract")
    if not extract:
        sys.exit("error: no swift-symbolgraph-extract on PATH")
    # C modules (the TSan annotations) are found through the module maps the build wrote.
    flags = [f"-fmodule-map-file={path}" for path in glob.glob(os.path.join(build, "*.build", "module.modulemap"))]
    usrs = set()
    with tempfile.TemporaryDirectory() as output:
        for module in sorted(PRODUCT_MODULES):
            command = [extract, "-module-name", module, "-I", os.path.join(build, "Modules"),
                       "-minimum-access-level", "internal", "-skip-synthesized-members", "-output-dir", output]
            command += [argument for flag in flags for argument in ("-Xcc", flag)]
            if sys.platform.startswith("linux"):
                command += ["-target", f"{os.uname().machine}-unknown-linux-gnu"]
            result = subprocess.run(command, capture_output=True, text=True)
            if result.returncode != 0:
                sys.exit(f"error: swift-symbolgraph-extract failed for {module}:\n{result.stdout}{result.stderr}")
        # Module.symbols.json, and Module@Other.symbols.json for extensions of other modules' types.
        for path in glob.glob(os.path.join(output, "*.symbols.json")):
            with open(path) as graph:
                # Read at internal level: a public symbol hidden from the docs (`@_documentation(visibility:
                # internal)`) is left out of a public-level graph, but is public API all the same.
                usrs.update(symbol["identifier"]["precise"] for symbol in json.load(graph)["symbols"]
                            if symbol["accessLevel"] in ("public", "open"))
    return usrs


def flagged(declarations, declared_at, references, api, root):
    """The test-only declarations, each with the first test reference."""
    sources, tests = os.path.join(root, "Sources") + os.sep, os.path.join(root, "Tests") + os.sep
    found = []
    for usr, decl in declarations.items():
        if (decl["kind"] in (KIND_MODULE, KIND_EXTENSION, KIND_PARAMETER) or decl["subkind"] in SUBKIND_ACCESSORS
                or decl["subkind"] == SUBKIND_GENERIC_PARAM or decl["local"] or decl["witness"]):
            continue
        if usr in api:
            continue  # public API of a library product
        uses = references.get(usr, set()) - declared_at[usr]
        test_uses = sorted(where for where in uses if where[0].startswith(tests))
        if test_uses and not any(where[0].startswith(sources) for where in uses):
            found.append((decl, test_uses))
    return sorted(found, key=lambda item: (item[0]["file"], item[0]["line"]))


def key(decl):
    return f"{decl['module']} {decl['parent'] + '.' if decl['parent'] else ''}{decl['name']}"


def read_allowlist(path):
    entries, problems = {}, []
    if not os.path.exists(path):
        return entries, problems
    with open(path) as lines:
        for number, text in enumerate(lines, 1):
            text = text.strip()
            if not text or text.startswith("#"):
                continue
            entry, _, reason = text.partition("#")
            if not reason.strip():
                problems.append(f"{path}:{number}: '{entry.strip()}' gives no reason")
            entries[" ".join(entry.split())] = number
    return entries, problems


def main():
    root = os.path.realpath(os.path.join(os.path.dirname(__file__), ".."))
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", default=os.path.join(root, ".build", "debug"),
                        help="the debug build directory, holding index/store and Modules")
    parser.add_argument("--allowlist", default=os.path.join(root, "Scripts", "test-hooks-allowlist.txt"))
    parser.add_argument("--verbose", action="store_true", help="list every test reference of a flagged symbol")
    args = parser.parse_args()
    store = os.path.join(args.build, "index", "store")
    if not os.path.isdir(store):
        sys.exit(f"error: no index store at {store}: run `swift build --build-tests` first")

    declarations, declared_at, references = read_store(load_library(), store, root)
    if not declarations:
        sys.exit(f"error: the index store at {store} holds no declaration of {', '.join(CHECKED_MODULES)}")
    tests = os.path.join(root, "Tests") + os.sep
    if not any(where[0].startswith(tests) for uses in references.values() for where in uses):
        sys.exit(f"error: the index store at {store} holds no test file: run `swift build --build-tests` first")
    api = public_api(args.build)
    allowlist, problems = read_allowlist(args.allowlist)
    hooks, allowed = [], set()
    for decl, test_uses in flagged(declarations, declared_at, references, api, root):
        if key(decl) in allowlist:
            allowed.add(key(decl))
        else:
            hooks.append((decl, test_uses))
    problems += [f"{args.allowlist}:{number}: '{entry}' matches no test-only declaration any more"
                 for entry, number in allowlist.items() if entry not in allowed]

    for decl, test_uses in hooks:
        print(f"{os.path.relpath(decl['file'], root)}:{decl['line']}: error: {key(decl)} is used only by "
              f"tests, first at {os.path.relpath(test_uses[0][0], root)}:{test_uses[0][1]}"
              + (f" and {len(test_uses) - 1} more" if len(test_uses) > 1 and not args.verbose else ""))
        if args.verbose:
            for path, number in test_uses[1:]:
                print(f"    also {os.path.relpath(path, root)}:{number}")
    for problem in problems:
        print(f"error: {problem}")
    if hooks or problems:
        print(f"error: {len(hooks)} production declaration(s) only tests use; remove them, or list a genuine "
              f"non-hook in {os.path.relpath(args.allowlist, root)} with the reason", file=sys.stderr)
        return 1
    print(f"no test hooks: {len(declarations)} declarations of {', '.join(CHECKED_MODULES)} checked"
          + (f", {len(allowed)} allowed by {os.path.relpath(args.allowlist, root)}" if allowed else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
