#!/bin/sh
# checkall.sh LOCKSIM OUT: verifies the claims of every report under OUT
# (each directory holding a results.json) with `LOCKSIM check --claims`;
# prints each false claim and a total line; exits 1 when a claim is false
# or a report could not be read (254), 0 otherwise. Used by `make claims`
# and `make claims-sweep` (issue 27).
locksim=$1
out=$2
reports=0
claims=0
bad=0
for r in $(find "$out" -name results.json | sort); do
  d=$(dirname "$r")
  reports=$((reports + 1))
  line=$("$locksim" check --claims "$d" 2>&1)
  code=$?
  n=$(printf '%s\n' "$line" | head -1 | sed -n 's/^\([0-9][0-9]*\) claims.*/\1/p')
  claims=$((claims + ${n:-0}))
  if [ $code -ne 0 ]; then
    bad=$((bad + 1))
    echo "claims: $d (exit $code)"
    printf '%s\n' "$line"
  fi
done
echo "claims: $reports reports, $claims claims, $bad reports with a false claim or unreadable"
if [ "$reports" -eq 0 ]; then
  echo "claims: no report was written under $out"
  exit 1
fi
[ "$bad" -eq 0 ]
