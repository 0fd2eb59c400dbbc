// The dependency-free check the guard runs: POSIX sh and awk (plus node for JSON, when present), so a build
// or CI job of any language can call it without installing anything. One awk pass covers every skill, so
// the check stays fast with hundreds of them. guardCheck.ts is the same check in TypeScript, which the
// server runs instead of this script (no code from the repository runs unless the caller asks).

export const GUARD_SCRIPT_PATH = 'scripts/check-agent-docs.sh';

export const GUARD_SCRIPT = `#!/bin/sh
# Written by groundwork-adopt: fails the build when the instructions for coding agents go missing or break.
# The full check is \`npx -y @groundwork/adopt verify\`; this one needs nothing but a POSIX shell and awk.
cd "$(dirname "$0")/.." || exit 1
status=0
fail() { echo "check-agent-docs: $1" >&2; status=1; }

for file in AGENTS.md CLAUDE.md; do
  if [ ! -s "$file" ] && [ ! -s ".claude/$file" ]; then fail "$file is missing or empty"; fi
done
# A CLAUDE.md that is a symlink to AGENTS.md is AGENTS.md itself.
if [ -s CLAUDE.md ] && ! [ CLAUDE.md -ef AGENTS.md ] && ! grep -q 'AGENTS[.]md' CLAUDE.md; then fail "CLAUDE.md does not refer to AGENTS.md (add the line @AGENTS.md)"; fi

set -- .claude/skills/*/SKILL.md
if [ -e "$1" ]; then
  for skill in "$@"; do [ -s "$skill" ] || fail "$skill is empty"; done
  # One awk pass over every skill: front matter present, a name (when given; the folder is the default)
  # equal to the folder, a description (on its line or on indented lines below). CRLF and a BOM are fine.
  awk '
    function report(problem) { print "check-agent-docs: " file " " problem > "/dev/stderr"; bad = 1 }
    function check() {
      if (!opened) report("has no front matter")
      else if (hasname && !named) report("must be named " want)
      if (opened && !described) report("has no description")
    }
    { sub(/\\r$/, "") }
    FNR == 1 {
      if (file != "") check()
      sub(/^\\357\\273\\277/, "")
      file = FILENAME; count = split(FILENAME, parts, "/"); want = parts[count - 1]
      opened = ($0 == "---"); inside = opened; hasname = 0; named = 0; described = 0; pending = 0; next
    }
    inside && $0 == "---" { inside = 0; next }
    inside && pending && /^[ \\t]+[^ \\t]/ { described = 1 }
    inside { pending = 0 }
    inside && /^name:/ { hasname = 1; value = $0; sub(/^name:[ \\t]*/, "", value); gsub(/["\\047 \\t]/, "", value); if (value == want) named = 1 }
    inside && /^description:[ \\t]*[^ \\t]/ { described = 1 }
    inside && /^description:[ \\t]*$/ { pending = 1 }
    END { if (file != "") check(); exit bad }
  ' "$@" || status=1
fi

if command -v node >/dev/null 2>&1; then
  for json in .claude/settings.json .mcp.json; do
    if [ -f "$json" ] && ! node -e 'JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"))' "$json" 2>/dev/null; then
      fail "$json is not valid JSON"
    fi
  done
fi

if [ "$status" -eq 0 ]; then echo "check-agent-docs: ok"; fi
exit "$status"
`;
