#!/bin/sh
# walkmesh generate on flat grid OBJs of growing size (a 60 m square in 2 N^2 triangles), up to
# 10 million triangles: wall time and peak resident memory of the whole command, per input
# triangle, and the growth exponent between the first and the last size.
#   bench/generate_scale.sh WALKMESH [N ...]     (default N: 250 707 2237 = 125k, 1M, 10M triangles)
set -u
walkmesh=$1; shift
[ $# -gt 0 ] || set -- 250 707 2237
work=$(mktemp -d "${TMPDIR:-/tmp}/walkmesh-generate-scale-XXXXXX")
trap 'rm -rf "$work"' EXIT
first_t= first_s= last_t= last_s=
for n in "$@"; do
  awk -v n="$n" 'BEGIN { s = 60 / n
    for (j = 0; j <= n; j++) for (i = 0; i <= n; i++) printf "v %.4f 0 %.4f\n", i * s, -j * s
    for (j = 0; j < n; j++) for (i = 0; i < n; i++) { a = j * (n + 1) + i + 1; b = a + 1; c = a + n + 1; d = c + 1
      printf "f %d %d %d\nf %d %d %d\n", a, b, d, a, d, c } }' > "$work/grid.obj"
  triangles=$((2 * n * n))
  /usr/bin/time -f "%e %M" -o "$work/time" "$walkmesh" generate "$work/grid.obj" "$work/grid.wok" --force -q
  status=$?
  read -r seconds kb < "$work/time"
  printf '%9d triangles: exit %d, %6.2f s, peak %7.1f MB, %5.1f bytes per triangle\n' \
    "$triangles" "$status" "$seconds" "$(echo "$kb / 1024" | bc -l)" "$(echo "$kb * 1024 / $triangles" | bc -l)"
  [ -n "$first_t" ] || { first_t=$triangles first_s=$seconds; }
  last_t=$triangles last_s=$seconds
done
[ "$first_t" != "$last_t" ] && printf 'growth exponent (time): %.2f\n' \
  "$(echo "l($last_s / $first_s) / l($last_t / $first_t)" | bc -l)"
