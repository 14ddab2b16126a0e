#!/bin/sh
# Installs what the lock client adapters in adapters/ need (make adapters,
# run by make test). Outside CI a missing tool is a line saying what is
# missing and how to get it, and the tests and scenarios of that adapter
# are skipped; under CI=true it is an error: nothing may be skipped.
cd "$(dirname "$0")" || exit 1
status=0
missing() {
  if [ "$CI" = true ]; then
    echo "adapters: $1 is missing and CI=true: $2" >&2
    status=1
  else
    echo "adapters: SKIPPED $3: $1 is missing; $2"
  fi
}

# Node.js adapters: node-redlock and redis-semaphore, pinned in
# node/package-lock.json. npm ci runs again when the lock file changed.
if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
  missing "Node.js with npm" "install Node.js 18 or later with its npm (e.g. apt-get install nodejs from NodeSource), then make adapters" "the node-redlock and redis-semaphore adapters"
elif [ ! -f node/node_modules/.package-lock.json ] || [ node/package-lock.json -nt node/node_modules/.package-lock.json ]; then
  echo "adapters: npm ci (adapters/node)"
  (cd node && npm ci --no-audit --no-fund --loglevel=error) || status=1
fi
# Each Node adapter as one file, dist/<adapter>.js, rebuilt when a source
# is newer (node/bundle.js: a quarter less CPU at each start).
if [ -d node/node_modules/esbuild ]; then
  (cd node && node bundle.js) || status=1
fi

# Python adapter: redis-py's Lock from Debian's python3-redis.
if ! /usr/bin/python3 -c 'import redis' >/dev/null 2>&1; then
  missing "Debian's python3-redis for /usr/bin/python3" "apt-get install python3-redis" "the redis-py adapter"
fi

# Client clock faults reach a process through libfaketime.
if ! ls /usr/lib/*/faketime/libfaketime.so.1 >/dev/null 2>&1 && [ -z "$LOCKSIM_LIBFAKETIME" ]; then
  missing "libfaketime" "apt-get install faketime" "the client clock tests of the adapters"
fi
exit $status
