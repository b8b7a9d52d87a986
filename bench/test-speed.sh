#!/usr/bin/env bash
# Times the parts of `npm test` on a fresh clone and writes them to bench/results/test-speed.md
# (issue #42: a test suite that fits in a stop, goal ≤ 12 min on the 2-core machine).
#
#   bench/test-speed.sh            # clone HEAD into a temporary directory, npm ci, time npm test's parts
#   bench/test-speed.sh --here     # the same in this checkout (no clone, no install)
#   VITEST_ARGS=--maxWorkers=3 PLAYWRIGHT_ARGS=--workers=3 bench/test-speed.sh   # a variant to compare
#
# Runs `npm test` as it runs (scripts/test.mjs: typecheck ‖ lint ‖ build ‖ vitest, the browser
# projects once the build is done, hostile + fuzz alone at the end) and records its wall and CPU
# time (user + sys, GNU time) with the load average before and after, then each part's start, end
# and CPU time (the parts overlap: their wall times do not add up), and the slowest vitest files and
# Playwright specs (their reporters' JSON). The "Latest run" section of the results
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
  read -r wall user sys < <(tail -1 "$work/time")
  rows+=("| $label | $(printf '%.0f' "$wall") s | $(awk "BEGIN { printf \"%.0f\", $user + $sys }") s | $before → $after | $([ "$status" = 0 ] && echo ok || echo "FAILED ($status)") |")
  echo "$label: ${wall}s wall, exit $status"
}

# The local PostgreSQL server's CPU (its processes are not children of npm test): the postmaster's own
# time, its ended children's (cutime + cstime: connection backends, autovacuum workers) and its live
# children's, in seconds. Counts every client's work: meaningful on a quiet machine only.
pg_cpu() {
  local pm
  pm="$(pgrep -o -x postgres)" || return 0
  { cat "/proc/$pm/stat"; for c in $(pgrep -P "$pm"); do cat "/proc/$c/stat" 2>/dev/null; done; } |
    awk -v hz="$(getconf CLK_TCK)" '{ sub(/^.*\) /, ""); t += $12 + $13; if (NR == 1) t += $14 + $15 } END { printf "%.0f", t / hz }'
}

started=$(date +%s)
if [ "$dir" != "$repo" ]; then part "npm ci" npm ci --no-audit --no-fund; fi
pg_before="$(pg_cpu)"
part "npm test" node scripts/test.mjs --report-dir "$work" --vitest-args "${VITEST_ARGS:-}" --playwright-args "${PLAYWRIGHT_ARGS:-}"
total=$(($(date +%s) - started))
pg_after="$(pg_cpu)"
[ -n "$pg_before" ] && rows+=("| PostgreSQL server during npm test (not in the tree above) | – | $((pg_after - pg_before)) s | – | – |")

# The slowest vitest files and Playwright specs (wall time inside the run).
slowest="$(
  node --input-type=module - "$work" <<'EOF'
import fs from "node:fs";
const dir = process.argv[2];
const out = [];
try {
  const parts = JSON.parse(fs.readFileSync(`${dir}/parts.json`, "utf8"));
  out.push("| part of `npm test` | from → to (s) | wall | CPU (user + sys) | exit |", "| --- | --- | ---: | ---: | --- |");
  for (const p of parts) {
    const file = `${dir}/${p.name}.time`;
    const [, user, sys] = fs.existsSync(file) ? fs.readFileSync(file, "utf8").trim().split(/\s+/).slice(-3).map(Number) : [];
    const cpu = user === undefined ? "?" : `${(user + sys).toFixed(0)} s`;
    out.push(`| ${p.name} | ${p.start.toFixed(0)} → ${p.end.toFixed(0)} | ${(p.end - p.start).toFixed(0)} s | ${cpu} | ${p.code} |`);
  }
  out.push("");
} catch (e) { out.push(`parts: no parts.json (${e.message})\n`); }
try {
  const v = JSON.parse(fs.readFileSync(`${dir}/vitest.json`, "utf8"));
  const files = v.testResults.map((f) => [f.name.replace(/^.*?\/(app|server|scripts|tests)\//, "$1/"), (f.endTime - f.startTime) / 1000]);
  files.sort((a, b) => b[1] - a[1]);
  out.push(`vitest: ${v.numPassedTests} passed, ${v.numFailedTests} failed, ${v.numPendingTests} skipped; slowest files (wall s):`);
  for (const [f, s] of files.slice(0, 10)) out.push(`- ${f} ${s.toFixed(1)}`);
} catch (e) { out.push(`vitest: no JSON (${e.message})`); }
// The browser projects and the hostile + fuzz run (scripts/test.mjs) each write a report.
const specs = new Map();
const stats = { expected: 0, unexpected: 0, flaky: 0, skipped: 0 };
for (const name of ["playwright-browser.json", "playwright-alone.json"]) {
  try {
    const p = JSON.parse(fs.readFileSync(`${dir}/${name}`, "utf8"));
    const walk = (suite) => {
      for (const s of suite.specs ?? []) for (const t of s.tests) for (const r of t.results) {
        const key = `${t.projectName} ${s.file}`;
        specs.set(key, (specs.get(key) ?? 0) + r.duration / 1000);
      }
      for (const child of suite.suites ?? []) walk(child);
    };
    for (const suite of p.suites) walk(suite);
    for (const k of Object.keys(stats)) stats[k] += p.stats[k];
  } catch (e) { out.push(`Playwright: no ${name} (${e.message})`); }
}
out.push(`\nPlaywright: ${stats.expected} passed, ${stats.unexpected} failed, ${stats.flaky} flaky, ${stats.skipped} skipped; slowest specs (summed test time, s):`);
for (const [k, s] of [...specs].sort((a, b) => b[1] - a[1]).slice(0, 10)) out.push(`- ${k} ${s.toFixed(1)}`);
console.log(out.join("\n"));
EOF
)"

section="$(
  cat <<EOF
<!-- test-speed.sh:begin -->
## Latest run (bench/test-speed.sh)

- $(date -u '+%Y-%m-%d %H:%M UTC'), commit $commit, $(nproc) cores, Node $(node --version), $([ "$dir" = "$repo" ] && echo "this checkout" || echo "fresh clone + npm ci")$([ -n "${VITEST_ARGS:-}${PLAYWRIGHT_ARGS:-}" ] && echo ", VITEST_ARGS='${VITEST_ARGS:-}' PLAYWRIGHT_ARGS='${PLAYWRIGHT_ARGS:-}'")
- **\`npm test\` parts: $((total / 60)) min $((total % 60)) s** (goal ≤ 12 min; npm ci included when run on a fresh clone)

| command | wall | CPU (user + sys) | load average before → after | result |
| --- | ---: | ---: | --- | --- |
$(printf '%s\n' "${rows[@]}")

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
