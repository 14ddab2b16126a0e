// Command gencatalogue writes the checker's catalogue corpus,
// internal/checker/testdata/catalogue.tar.gz: the history of every run of
// every shipped scenario (scenarios/ and scenarios/field/), three seeds
// each, as a real `locksim run … --count 3` makes them (real redis-server,
// toxiproxy, the nemesis). The metamorphic test (metamorphic_test.go)
// mutates them. Run it from internal/checker:
//
//	go generate ./internal/checker            # every scenario, afresh
//	go run ./gencatalogue -missing            # only scenarios the corpus lacks
//
// Entries are named <scenario>/seed<N>.jsonl; the archive is written in
// name order with zero times, so two runs that saw the same histories
// write the same bytes. A run that comes out unknown against its
// expectation is run again, alone (--retry-unknown 2): a busy machine's
// history still serves, but a quiet one's serves the lessons better.
package main

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/locksim/locksim/internal/cli"
	_ "github.com/locksim/locksim/internal/clients" // the built-in algorithms
	"github.com/locksim/locksim/internal/history"
)

func main() {
	root := flag.String("root", "../..", "the repository root (where scenarios/ is)")
	out := flag.String("out", "testdata/catalogue.tar.gz", "the archive to write")
	missing := flag.Bool("missing", false, "run only the scenarios the archive lacks (or holds fewer than 3 runs of), keep the rest (and drop scenarios no longer shipped)")
	parallel := flag.Int("parallel", 4, "runs at the same time")
	flag.Parse()
	if err := run(*root, *out, *missing, *parallel); err != nil {
		fmt.Fprintln(os.Stderr, "gencatalogue:", err)
		os.Exit(1)
	}
}

func run(root, out string, missing bool, parallel int) error {
	out, err := filepath.Abs(out)
	if err != nil {
		return err
	}
	if err := os.Chdir(root); err != nil { // scenario paths, as a user's own run names them
		return err
	}
	files, err := scenarioFiles(".")
	if err != nil {
		return err
	}
	all := slices.Clone(files)
	entries := map[string][]byte{}
	if missing {
		if entries, err = readArchive(out); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		if entries == nil {
			entries = map[string][]byte{}
		}
		for name := range entries {
			if !slices.Contains(names(files), strings.Split(name, "/")[0]) {
				delete(entries, name)
			}
		}
		files = slices.DeleteFunc(files, func(f string) bool { return count(entries, scenarioName(f)) >= 3 })
	}
	if len(files) > 0 {
		dir, err := os.MkdirTemp("", "locksim-catalogue-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(dir)
		args := append([]string{"run"}, files...)
		args = append(args, "--count", "3", "--parallel", fmt.Sprint(parallel), "--retry-unknown", "2", "--out", dir)
		code := cli.Main(args, io.Discard, os.Stderr)
		if code == 254 || code == 130 || code == 143 {
			return fmt.Errorf("locksim run exited %d", code)
		}
		// 255: some run had no verdict (a node that would not start on a
		// loaded machine); the others' histories serve, and -missing
		// fills the gap later.
		if err := collect(dir, entries); err != nil {
			return err
		}
	}
	if err := writeArchive(out, entries); err != nil {
		return err
	}
	runs := map[string]int{}
	for name := range entries {
		runs[strings.Split(name, "/")[0]]++
	}
	for _, f := range all {
		if n := runs[scenarioName(f)]; n < 3 {
			fmt.Fprintf(os.Stderr, "gencatalogue: %s has %d of 3 runs; run again with -missing\n", scenarioName(f), n)
		}
	}
	return nil
}

// scenarioFiles lists the shipped scenario files, sorted.
func scenarioFiles(root string) ([]string, error) {
	var files []string
	for _, d := range []string{"scenarios", filepath.Join("scenarios", "field")} {
		m, err := filepath.Glob(filepath.Join(root, d, "*.yaml"))
		if err != nil {
			return nil, err
		}
		files = append(files, m...)
	}
	slices.Sort(files)
	if len(files) == 0 {
		return nil, fmt.Errorf("no scenarios under %s", root)
	}
	return files, nil
}

func scenarioName(file string) string { return strings.TrimSuffix(filepath.Base(file), ".yaml") }

func names(files []string) []string {
	out := make([]string, len(files))
	for i, f := range files {
		out[i] = scenarioName(f)
	}
	return out
}

// count is how many runs of scenario entries holds.
func count(entries map[string][]byte, scenario string) int {
	n := 0
	for name := range entries {
		if strings.HasPrefix(name, scenario+"/") {
			n++
		}
	}
	return n
}

// collect adds every history under dir (<scenario>/<run>/history.jsonl),
// named by its header's scenario and seed.
func collect(dir string, entries map[string][]byte) error {
	return filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || d.Name() != "history.jsonl" {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		h, err := history.Decode(bytes.NewReader(b))
		if err != nil {
			return fmt.Errorf("%s: %w", p, err)
		}
		entries[fmt.Sprintf("%s/seed%d.jsonl", h.Header.Scenario, h.Header.Seed)] = b
		return nil
	})
}

func readArchive(path string) (map[string][]byte, error) {
	entries := map[string][]byte{}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	tr := tar.NewReader(zr)
	for {
		hd, err := tr.Next()
		if err == io.EOF {
			return entries, nil
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		if entries[hd.Name], err = io.ReadAll(tr); err != nil {
			return nil, fmt.Errorf("%s: %s: %w", path, hd.Name, err)
		}
	}
}

func writeArchive(path string, entries map[string][]byte) error {
	var buf bytes.Buffer
	zw, err := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	if err != nil {
		return err
	}
	tw := tar.NewWriter(zw)
	keys := make([]string, 0, len(entries))
	for k := range entries {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		hd := &tar.Header{Name: k, Mode: 0o644, Size: int64(len(entries[k])), ModTime: time.Unix(0, 0), Format: tar.FormatPAX}
		if err := tw.WriteHeader(hd); err != nil {
			return err
		}
		if _, err := tw.Write(entries[k]); err != nil {
			return err
		}
	}
	if err := tw.Close(); err != nil {
		return err
	}
	if err := zw.Close(); err != nil {
		return err
	}
	return os.WriteFile(path, buf.Bytes(), 0o644)
}
