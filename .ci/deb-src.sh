#!/usr/bin/env bash
# Prints deb-src entries for the Debian archive this machine already installs from,
# derived from its own apt configuration (deb822 .sources stanzas and one-line lists):
# the same URIs, suites and components, with Types: deb-src. Prints nothing when a
# deb-src entry exists already or no Debian archive is configured.
set -euo pipefail
shopt -s nullglob
lists=(/etc/apt/sources.list /etc/apt/sources.list.d/*.list)
stanzas=(/etc/apt/sources.list.d/*.sources)
if grep -qsE '^(Types:.*deb-src|deb-src )' "${lists[@]}" "${stanzas[@]}"; then
  exit 0
fi
stanzas=("${stanzas[@]/*walkmesh-deb-src.sources}") # never read back what this script wrote
# deb822: a stanza is a paragraph; keep those signed by the Debian archive key.
for f in "${stanzas[@]}"; do
  [ -f "$f" ] || continue
  awk 'BEGIN { RS = ""; ORS = "\n\n" }
       /Signed-By:[^\n]*debian-archive-keyring/ && /Types:[^\n]*deb/ {
         out = ""
         n = split($0, lines, "\n")
         for (i = 1; i <= n; i++) {
           if (lines[i] ~ /^#/) continue
           if (lines[i] ~ /^Types:/) lines[i] = "Types: deb-src"
           out = out lines[i] "\n"
         }
         printf "%s\n", out
       }' "$f"
done
# One-line form: "deb [options] URI suite components..." for a Debian archive.
for f in "${lists[@]}"; do
  [ -f "$f" ] || continue
  awk '$1 == "deb" && $0 ~ /\/debian(-security)?\/? / { $1 = "deb-src"; print }' "$f"
done
