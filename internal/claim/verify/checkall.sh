#!/bin/sh
# checkall.sh LOCKSIM OUT: verifies the claims of every report under OUT
# (each directory holding a results.json) with `LOCKSIM check --claims`,
# four reports at a time (CHECK_PARALLEL=N for another number); prints
# each false claim and a total line; exits 1 when a claim is false or a
# report could not be read (254), 0 otherwise. Used by `make claims` and
# `make claims-sweep` (issue 27).
locksim=$1
out=$2
tmp=$(mktemp -d -t locksim-checkall-XXXXXX) || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
find "$out" -name results.json | sort >"$tmp/list"
# Each report's check writes its output and exit code to a file of its own
# (numbered in list order), so the summary below reads them in order.
# (Report paths hold no blanks: locksim names its directories.)
awk '{ print NR, $0 }' "$tmp/list" |
  xargs -P "${CHECK_PARALLEL:-4}" -n 2 sh -c '
    "$0" check --claims "$(dirname "$3")" >"$1/$2.out" 2>&1
    echo $? >"$1/$2.code"' "$locksim" "$tmp"
reports=0
claims=0
bad=0
while IFS= read -r r; do
  reports=$((reports + 1))
  d=$(dirname "$r")
  code=$(cat "$tmp/$reports.code" 2>/dev/null || echo 255)
  line=$(cat "$tmp/$reports.out" 2>/dev/null)
  n=$(printf '%s\n' "$line" | head -1 | sed -n 's/^\([0-9][0-9]*\) claims.*/\1/p')
  claims=$((claims + ${n:-0}))
  if [ "$code" -ne 0 ]; then
    bad=$((bad + 1))
    echo "claims: $d (exit $code)"
    printf '%s\n' "$line"
  fi
done <"$tmp/list"
echo "claims: $reports reports, $claims claims, $bad reports with a false claim or unreadable"
if [ "$reports" -eq 0 ]; then
  echo "claims: no report was written under $out"
  exit 1
fi
[ "$bad" -eq 0 ]
