// The adapters' start-up bundles (issue 32: CPU per run). Node spends
// about a quarter of an adapter's start resolving and reading the ~60
// files that require('ioredis') and the lock library pull in, one by one;
// `make adapters` (adapters/setup.sh) writes each adapter with everything
// it requires into one file, dist/<adapter>.js, with esbuild (pinned in
// package.json). The code is the same: the libraries' own files, joined.
//
// An adapter's first line hands over to its bundle when one is there and
// newer than every file it was built from (the adapters, this file, the
// installed packages' lock); otherwise it goes on from its own source, as
// before, so an edited adapter runs as edited until `make adapters`
// rebuilds. LOCKSIM_NODE_BUNDLE=0 runs the sources whatever dist/ holds.
//
// Measured (30 starts each, stdin closed at once; Node 20, 2 CPUs):
// redlock.js 0.23 CPU-s a start from its sources, 0.17 from its bundle.
'use strict';

const fs = require('fs');
const path = require('path');

// SOURCES are what a bundle is built from (paths from this directory).
const SOURCES = ['protocol.js', 'redis.js', 'redlock.js', 'semaphore.js', 'bundle.js', 'node_modules/.package-lock.json'];

// handOver runs the bundle of the adapter in file (its __filename) and
// returns true, or returns false when there is no fresh bundle: the
// caller then goes on from its source. Inside a bundle it is always false
// (esbuild defines LOCKSIM_BUNDLED there).
function handOver(file) {
  if (process.env.LOCKSIM_BUNDLED === '1' || process.env.LOCKSIM_NODE_BUNDLE === '0') {
    return false;
  }
  const dist = path.join(__dirname, 'dist', path.basename(file));
  if (!fresh(dist)) {
    return false;
  }
  require(dist);
  return true;
}

// ADAPTERS are the adapters bundled, each into dist/ under its own name.
const ADAPTERS = ['redlock.js', 'semaphore.js'];

// build writes dist/<adapter>.js for each adapter whose bundle is missing
// or older than a source, with esbuild's own API; it throws what esbuild
// reports. `node bundle.js` (make adapters) runs it.
function build() {
  const esbuild = require('esbuild');
  for (const a of ADAPTERS) {
    const out = path.join(__dirname, 'dist', a);
    if (fresh(out)) {
      continue;
    }
    esbuild.buildSync({
      entryPoints: [path.join(__dirname, a)],
      outfile: out,
      bundle: true,
      platform: 'node',
      target: 'node18',
      // handOver is false inside the bundle.
      define: { 'process.env.LOCKSIM_BUNDLED': '"1"' },
      // build's own require: never run inside a bundle.
      external: ['esbuild'],
      logLevel: 'warning',
    });
  }
}

// fresh reports whether the file at out exists and is newer than every
// source.
function fresh(out) {
  try {
    const built = fs.statSync(out).mtimeMs;
    return SOURCES.every((src) => fs.statSync(path.join(__dirname, src)).mtimeMs <= built);
  } catch {
    return false;
  }
}

if (require.main === module) {
  build();
}

module.exports = { handOver, build, SOURCES };
