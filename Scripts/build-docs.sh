#!/usr/bin/env bash
# Builds the static documentation of Ripple, RippleTesting and Calculator into .build/docs with the toolchain's
# `docc`, from the symbol graphs of a debug build, and fails on any docc warning or on a public symbol without a
# doc comment of its own.
#
#   Scripts/build-docs.sh              # then: python3 -m http.server -d .build/docs 8000
#                                      # and open http://localhost:8000/Ripple/documentation/ripple/
#
# Each module becomes a static site under .build/docs/<Module>, hosted at /<Module>. Each catalog is converted on
# its own, so links between the three modules are Markdown links to the page's path on that site, checked below.
set -euo pipefail
cd "$(dirname "$0")/.."

modules=(Ripple RippleTesting Calculator)
output=.build/docs
graphs=.build/docs-symbol-graphs

step() { printf '\n==> %s\n' "$*"; }

if command -v docc >/dev/null 2>&1; then
  docc=(docc)
elif command -v xcrun >/dev/null 2>&1; then
  docc=(xcrun docc)
else
  echo "error: docc not found; it ships with the Swift toolchain" >&2
  exit 1
fi

step "symbol graphs (swift package dump-symbol-graph)"
# Extension block symbols put the operators on `AsyncSequence` under an "Extended Modules" page of their own.
dump_log=$(swift package dump-symbol-graph --emit-extension-block-symbols 2>&1) || {
  printf '%s\n' "$dump_log" >&2
  exit 1
}
dumped=$(printf '%s\n' "$dump_log" | sed -n 's/^Files written to //p' | tail -n 1)
if [[ -z $dumped || ! -d $dumped ]]; then
  printf '%s\n' "$dump_log" >&2
  echo "error: could not find where dump-symbol-graph wrote the symbol graphs" >&2
  exit 1
fi
rm -rf "$graphs" "$output"
mkdir -p "$output"
for module in "${modules[@]}"; do
  mkdir -p "$graphs/$module"
  # The module's own graph, plus one per module it extends (Ripple@_Concurrency.symbols.json).
  cp "$dumped/$module.symbols.json" "$graphs/$module/"
  find "$dumped" -maxdepth 1 -name "$module@*.symbols.json" -exec cp {} "$graphs/$module/" \;
done

step "doc comments: every public symbol declared in the sources has one of its own"
python3 - "$graphs" "${modules[@]}" <<'PY'
import glob, json, os, re, sys

graphs, modules = sys.argv[1], sys.argv[2:]
failures = []
texts, pending = {}, []
for module in modules:
    declared = 0
    for path in sorted(glob.glob(os.path.join(graphs, module, "*.symbols.json"))):
        for symbol in json.load(open(path))["symbols"]:
            location = symbol.get("location")
            kind = symbol["kind"]["identifier"]
            # Only declarations in this module's sources: members inherited from protocols of other modules
            # (map, filter, ...) carry no location here, and extension blocks are not declarations.
            if not location or f"/Sources/{module}/" not in location["uri"] or kind == "swift.extension":
                continue
            declared += 1
            name = "/".join(symbol["pathComponents"])
            # Internals are internal: plumbing is `package` or internal, never public with a leading underscore.
            if any(component.startswith("_") for component in symbol["pathComponents"]):
                failures.append(f"{module}: {name} ({kind}) is public but named as an internal")
            comment = symbol.get("docComment")
            text = "\n".join(line["text"] for line in comment["lines"]) if comment else ""
            if not comment or comment.get("uri") != location["uri"] or not text.strip():
                failures.append(f"{module}: {name} ({kind}) has no doc comment of its own")
                continue
            # Entry points (top-level declarations and the operators on AsyncSequence) show an example, or link
            # to the sequence type whose comment carries it (the example and the edges are said once, there).
            # A sequence type links to the operator that creates it.
            entry = len(symbol["pathComponents"]) == 1 or symbol["pathComponents"][0] == "AsyncSequence"
            returned = name.startswith("Async") and name.endswith("Sequence")
            if entry:
                texts[name] = text
            if entry and not returned and "```" not in text:
                pending.append((module, name, kind, re.findall(r"``(Async\w*Sequence)``", text)))
            if entry and returned and "``" not in text:
                failures.append(f"{module}: {name} ({kind}) does not link to the operator that creates it")
    for module, name, kind, links in pending:
        if not any("```" in texts.get(link, "") for link in links):
            failures.append(f"{module}: {name} ({kind}) has no example, nor links to a type that shows one")
    pending.clear()
    print(f"{module}: {declared} public symbols, each with a doc comment")
if failures:
    print("\n".join(failures), file=sys.stderr)
    sys.exit(1)
PY

step "guides name only public symbols"
# A guide (a .docc article) that names, in code voice, a declaration of the package's sources that is not public
# sends the reader to something they cannot use (`_startOperatorTask`, say). The first name of each code span is
# checked against the types and the `_`-prefixed declarations of the sources; a name public anywhere in the three
# modules' symbol graphs, or a module's name, is fine. (Names of other libraries' types that the sources also
# declare internally would be flagged too, so SwiftUI's `State`, Foundation's `Timer` and Combine's `Record`, which
# the Combine migration guides name, are allowed by name.)
python3 - "$graphs" "${modules[@]}" <<'PY'
import glob, json, os, re, sys

graphs, modules = sys.argv[1], sys.argv[2:]
public = set(modules) | {"Ripple", "RippleTesting", "Calculator", "InternalRippleUtilities", "CalculatorTerminal"}
public_types = set()
for path in glob.glob(os.path.join(graphs, "*", "*.symbols.json")):
    for symbol in json.load(open(path))["symbols"]:
        for component in symbol["pathComponents"]:
            public.add(re.split(r"[(<]", component)[0])
        if len(symbol["pathComponents"]) == 1 and symbol["kind"]["identifier"] in (
            "swift.struct", "swift.class", "swift.enum", "swift.protocol", "swift.typealias"):
            public_types.add(symbol["pathComponents"][0])
declared = {}
declaration = re.compile(r"\b(struct|class|enum|protocol|actor|typealias|func|var|let|case)\s+`?([A-Za-z_]\w*)")
for path in glob.glob("Sources/**/*.swift", recursive=True):
    for number, line in enumerate(open(path, encoding="utf-8"), 1):
        for kind, name in declaration.findall(line.split("//")[0]):
            if len(name) < 2 or (kind in ("func", "var", "let", "case") and not name.startswith("_")):
                continue
            declared.setdefault(name, f"{path}:{number}")
foreign = {"State", "Timer", "Record"}
hidden = {name: where for name, where in declared.items() if name not in public | foreign}
failures = []
for path in sorted(glob.glob("Sources/*/*.docc/*.md")):
    # A guide's example that declares a type of the same name as one of the package's public types does not compile
    # beside that module's import (the guides' own two-field `Input` against `Calculator.Input`, once): one name per
    # meaning. Combine originals, quoted as users have them, are exempt.
    for block in re.findall(r"^```swift\n(.*?)^```", open(path, encoding="utf-8").read(), flags=re.S | re.M):
        if "import Combine" in block:
            continue
        for name in re.findall(r"\b(?:struct|class|enum|actor|protocol|typealias)\s+(\w+)", block):
            if name in public_types:
                failures.append(f"{path}: an example declares {name}, the name of a public type of the package")
    text = re.sub(r"^```.*?^```", "", open(path, encoding="utf-8").read(), flags=re.S | re.M)
    for span in re.findall(r"(?<!`)`([^`\n]+)`(?!`)", text):
        for name in re.findall(r"^\W*([A-Za-z_]\w*)", span):
            if name in hidden:
                failures.append(f"{path}: `{span}` names {name}, which is not public ({hidden[name]})")
if failures:
    print("\n".join(failures), file=sys.stderr)
    sys.exit(1)
print(f"{len(glob.glob('Sources/*/*.docc/*.md'))} guides: every symbol they name in code voice is public")
PY

warnings=0
failures=0
for module in "${modules[@]}"; do
  step "docc convert $module"
  log=$(mktemp)
  status=0
  "${docc[@]}" convert "Sources/$module/$module.docc" \
    --additional-symbol-graph-dir "$graphs/$module" \
    --output-path "$output/$module" \
    --hosting-base-path "$module" \
    --fallback-display-name "$module" \
    --fallback-bundle-identifier "org.ripple.$module" \
    --fallback-default-module-kind "Framework" \
    --analyze \
    --warnings-as-errors >"$log" 2>&1 || status=$?
  cat "$log"
  # A symbol left uncurated gets no page of its own (the parents of the extensions on `Sequence` and the collection
  # initialisers were 404s), though docc reports it only as a note: count it as a warning.
  count=$(grep -cE "^(warning|error):|^note: You haven't curated" "$log" || true)
  rm -f "$log"
  warnings=$((warnings + count))
  if ((status != 0 || count != 0)); then
    echo "error: docc reported $count warnings or errors for $module (exit status $status)" >&2
    failures=$((failures + 1))
    continue
  fi

  # Every top-level symbol is curated in a topic group of the landing page: nothing is left for docc to list
  # under a generated group, except the page of the extended `_Concurrency` module.
  if ! python3 - "$output/$module" "$module" <<'PY'
import json, os, sys

archive, module = sys.argv[1], sys.argv[2]
landing = json.load(open(os.path.join(archive, "data", "documentation", module.lower() + ".json")))
generated = [
    identifier
    for section in landing.get("topicSections", [])
    if section.get("generated") and section.get("title") != "Extended Modules"
    for identifier in section["identifiers"]
]
if generated:
    print(f"error: {module}: not curated on the landing page: " + ", ".join(generated), file=sys.stderr)
    sys.exit(1)
print(f"{module}: every top-level symbol is curated on the landing page")
PY
  then
    failures=$((failures + 1))
  fi
done

step "links between the modules' documentation lead to pages"
# Each catalog is converted on its own, so a guide links to another module's page by its path on the docs site
# (`/RippleTesting/documentation/rippletesting/...`); each such link must name a page that was built.
python3 - "$output" "${modules[@]}" <<'PY'
import glob, os, re, sys

output, modules = sys.argv[1], sys.argv[2:]
broken, count = [], 0
for path in sorted(glob.glob("Sources/*/*.docc/*.md")):
    for target in re.findall(r"\]\((/(?:%s)/documentation/[^)#\s]*)" % "|".join(modules), open(path).read()):
        count += 1
        module, page = target.split("/documentation/", 1)
        if not os.path.exists(os.path.join(output, module.strip("/"), "data", "documentation", page.rstrip("/") + ".json")):
            broken.append(f"{path}: {target} is not a page of the built documentation")
if broken:
    print("\n".join(broken), file=sys.stderr)
    sys.exit(1)
print(f"{count} links between modules, each to a built page")
PY

step "result"
if ((warnings != 0 || failures != 0)); then
  echo "error: $warnings docc warnings; $failures modules failed" >&2
  exit 1
fi
echo "0 warnings; documentation in $output/{$(
  IFS=,
  echo "${modules[*]}"
)}"
