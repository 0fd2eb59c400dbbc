// The dependency-free check the guard runs: POSIX sh (plus node for JSON, when present), so a build or CI
// job of any language can call it without installing anything.

export const GUARD_SCRIPT_PATH = 'scripts/check-agent-docs.sh';

export const GUARD_SCRIPT = `#!/bin/sh
# Written by groundwork-adopt: fails the build when the instructions for coding agents go missing or break.
# The full check is \`npx -y @groundwork/adopt verify\`; this one needs nothing but a POSIX shell.
cd "$(dirname "$0")/.." || exit 1
status=0
fail() { echo "check-agent-docs: $1" >&2; status=1; }

for file in AGENTS.md CLAUDE.md; do
  if [ ! -s "$file" ] && [ ! -s ".claude/$file" ]; then fail "$file is missing or empty"; fi
done
if [ -s CLAUDE.md ] && ! grep -q 'AGENTS\\.md' CLAUDE.md; then fail "CLAUDE.md does not refer to AGENTS.md (add the line @AGENTS.md)"; fi

for skill in .claude/skills/*/SKILL.md; do
  [ -e "$skill" ] || continue
  name=$(basename "$(dirname "$skill")")
  if [ "$(head -n 1 "$skill")" != "---" ]; then fail "$skill has no front matter"; continue; fi
  grep -q "^name: *['\\"]\\{0,1\\}$name['\\"]\\{0,1\\} *$" "$skill" || fail "$skill must be named $name"
  grep -q '^description: *[^ ]' "$skill" || fail "$skill has no description"
done

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
