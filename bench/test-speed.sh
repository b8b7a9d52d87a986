#!/usr/bin/env bash
# Times the parts of `npm test` on a fresh clone and writes them to bench/results/test-speed.md
# (issue #42: a test suite that fits in a stop, goal ≤ 12 min on the 2-core machine).
#
#   bench/test-speed.sh            # clone HEAD into a temporary directory, npm ci, time npm test's parts
#   bench/test-speed.sh --here     # the same in this checkout (no clone, no install)
#   VITEST_ARGS=--maxWorkers=3 PLAYWRIGHT_ARGS=--workers=3 bench/test-speed.sh   # a variant to compare
#
# Parts, run as `npm test` runs them: typecheck ‖ lint ‖ build (scripts/run-parallel.mjs), vitest,
# Playwright. Each part: wall time, CPU time of it and its children (user + sys, GNU time), load
# average before and after; the slowest vitest files and Playwright specs (their reporters' JSON).
# A failing part is recorded and the next parts still run. The "Latest run" section of the results
# file (between its markers) is replaced; the rest of the file is kept. TEST_DATABASE_URL defaults
# to the local PostgreSQL server, as in .ci/run.
set -uo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
results="$repo/bench/results/test-speed.md"
export TEST_DATABASE_URL="${TEST_DATABASE_URL:-postgres://postgres@127.0.0.1:5432/postgres}"
export CI="${CI:-true}" FORCE_COLOR=0

work="$(mktemp -d /tmp/test-speed-XXXXXX)"
if [ "${1:-}" = "--here" ]; then
  dir="$repo"
else
  git clone -q "$repo" "$work/clone"
  dir="$work/clone"
fi
cd "$dir" || exit 1
commit="$(git rev-parse --short HEAD)"
rows=()
load() { cut -d' ' -f1-3 /proc/loadavg; }

# part <label> <command…>: runs it, appends a table row.
part() {
  local label="$1"
  shift
  local before after status
  before="$(load)"
  /usr/bin/time -f "%e %U %S" -o "$work/time" "$@" >"$work/$label.log" 2>&1
  status=$?
  after="$(load)"
  read -r wall user sys <"$work/time"
  rows+=("| $label | $(printf '%.0f' "$wall") s | $(awk "BEGIN { printf \"%.0f\", $user + $sys }") s | $before → $after | $([ "$status" = 0 ] && echo ok || echo "FAILED ($status)") |")
  echo "$label: ${wall}s wall, exit $status"
}

started=$(date +%s)
if [ "$dir" != "$repo" ]; then part "npm ci" npm ci --no-audit --no-fund; fi
part "typecheck ‖ lint ‖ build" node scripts/run-parallel.mjs typecheck lint build
# shellcheck disable=SC2086 # the extra arguments are meant to split
part "vitest run" npx vitest run ${VITEST_ARGS:-} --reporter=default --reporter=json --outputFile="$work/vitest.json"
part "playwright test" env PLAYWRIGHT_JSON_OUTPUT_NAME="$work/playwright.json" npx playwright test ${PLAYWRIGHT_ARGS:-} --reporter=list,json
total=$(($(date +%s) - started))

# The slowest vitest files and Playwright specs (wall time inside the run).
slowest="$(
  node --input-type=module - "$work" <<'EOF'
import fs from "node:fs";
const dir = process.argv[2];
const out = [];
try {
  const v = JSON.parse(fs.readFileSync(`${dir}/vitest.json`, "utf8"));
  const files = v.testResults.map((f) => [f.name.replace(/^.*?\/(app|server|scripts|tests)\//, "$1/"), (f.endTime - f.startTime) / 1000]);
  files.sort((a, b) => b[1] - a[1]);
  out.push(`vitest: ${v.numPassedTests} passed, ${v.numFailedTests} failed, ${v.numPendingTests} skipped; slowest files (wall s):`);
  for (const [f, s] of files.slice(0, 10)) out.push(`- ${f} ${s.toFixed(1)}`);
} catch (e) { out.push(`vitest: no JSON (${e.message})`); }
try {
  const p = JSON.parse(fs.readFileSync(`${dir}/playwright.json`, "utf8"));
  const specs = new Map();
  const walk = (suite, project) => {
    for (const s of suite.specs ?? []) for (const t of s.tests) for (const r of t.results) {
      const key = `${t.projectName} ${s.file}`;
      specs.set(key, (specs.get(key) ?? 0) + r.duration / 1000);
    }
    for (const child of suite.suites ?? []) walk(child, project);
  };
  for (const suite of p.suites) walk(suite);
  const st = p.stats;
  out.push(`\nPlaywright: ${st.expected} passed, ${st.unexpected} failed, ${st.flaky} flaky, ${st.skipped} skipped; slowest specs (summed test time, s):`);
  for (const [k, s] of [...specs].sort((a, b) => b[1] - a[1]).slice(0, 10)) out.push(`- ${k} ${s.toFixed(1)}`);
} catch (e) { out.push(`Playwright: no JSON (${e.message})`); }
console.log(out.join("\n"));
EOF
)"

section="$(
  cat <<EOF
<!-- test-speed.sh:begin -->
## Latest run (bench/test-speed.sh)

- $(date -u '+%Y-%m-%d %H:%M UTC'), commit $commit, $(nproc) cores, Node $(node --version), $([ "$dir" = "$repo" ] && echo "this checkout" || echo "fresh clone + npm ci")$([ -n "${VITEST_ARGS:-}${PLAYWRIGHT_ARGS:-}" ] && echo ", VITEST_ARGS='${VITEST_ARGS:-}' PLAYWRIGHT_ARGS='${PLAYWRIGHT_ARGS:-}'")
- **\`npm test\` parts: $((total / 60)) min $((total % 60)) s** (goal ≤ 12 min; npm ci included when run on a fresh clone)

| part | wall | CPU (user + sys) | load average before → after | result |
| --- | ---: | ---: | --- | --- |
$(printf '%s\n' "${rows[@]}")

Static checks, each (scripts/run-parallel.mjs): $(grep -E '^(ok  |FAIL) ' "$work/typecheck ‖ lint ‖ build.log" | tr '\n' ';' | sed 's/;$//')

$slowest
<!-- test-speed.sh:end -->
EOF
)"

node --input-type=module - "$results" "$section" <<'EOF'
import fs from "node:fs";
const [file, section] = process.argv.slice(2);
const old = fs.existsSync(file) ? fs.readFileSync(file, "utf8") : "# Test-suite speed\n";
const re = /<!-- test-speed.sh:begin -->[\s\S]*<!-- test-speed.sh:end -->/;
fs.writeFileSync(file, re.test(old) ? old.replace(re, section) : `${old.trimEnd()}\n\n${section}\n`);
EOF
echo "written to $results ($((total / 60)) min $((total % 60)) s); logs in $work"
