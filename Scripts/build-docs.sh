#!/usr/bin/env bash
# Builds the DocC catalog of the DiscoverSearch library with the toolchain's own docc, into
# .build/docs (a static site: open .build/docs/documentation/discoversearch/index.html through
# any web server, or run `docc preview` on the catalog). Warnings are errors, so a broken
# symbol link fails the build. Takes a few seconds once the debug build exists.
#
# Usage: Scripts/build-docs.sh [OUTPUT_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
output=${1:-.build/docs}

# The debug build that `swift test` makes; built here when missing (about a minute).
swift build --target DiscoverSearch >/dev/null
bin=$(swift build --show-bin-path)
triple=$(swift -print-target-info | sed -n 's/.*"triple": *"\([^"]*\)".*/\1/p' | head -n 1)

graphs=$(mktemp -d)
trap 'rm -rf "$graphs"' EXIT
modulemaps=()
for shim in CICU CSQLite CPrefetch CCRC32C CSanitizer; do
  modulemaps+=(-Xcc "-fmodule-map-file=$bin/$shim.build/module.modulemap" -I "Sources/$shim/include")
done
# The public API only: `package` helpers of the CLI and the benchmark stay out.
swift symbolgraph-extract -module-name DiscoverSearch -target "$triple" -I "$bin/Modules" \
  "${modulemaps[@]}" -minimum-access-level public -output-dir "$graphs"

docc convert Sources/DiscoverSearch/DiscoverSearch.docc \
  --additional-symbol-graph-dir "$graphs" \
  --fallback-display-name DiscoverSearch --fallback-bundle-identifier DiscoverSearch \
  --warnings-as-errors --output-path "$output"

# The CLI's and the benchmark's helpers are not public API.
for helper in JSONWriter ISO8601 QueryFile QuerySpec ProgressLine TextFormatting; do
  if grep -q "\"title\":\"$helper\"" "$graphs/DiscoverSearch.symbols.json"; then
    echo "error: $helper is public API; give it package access" >&2
    exit 1
  fi
done
echo "Documentation in $output"
