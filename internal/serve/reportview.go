package serve

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync"

	"github.com/locksim/locksim/internal/report"
	"github.com/locksim/locksim/internal/scenario"
	"github.com/locksim/locksim/internal/suite"
)

// cachePrefix names the server's temporary directory (the prefix of the
// nodes' own: a directory whose owner.pid names a dead process is removed
// by the next run that starts nodes).
const cachePrefix = "locksim-serve-"

// rendered is the directory of stored report p written in lang: p's own
// when it was written in lang, else a copy in the server's temporary
// directory, rendered once from p's history, scenario and results
// (suite.Redraw, what `locksim check --lang` does).
func (s *Server) rendered(ctx context.Context, p pastRun, lang report.Lang) (string, error) {
	base, err := s.cache()
	if err != nil {
		return "", err
	}
	dir := filepath.Join(base, string(lang), filepath.FromSlash(p.Rel))
	key := dir
	s.cacheMu.Lock()
	mu := s.renders[key]
	if mu == nil {
		mu = new(sync.Mutex)
		s.renders[key] = mu
	}
	s.cacheMu.Unlock()
	mu.Lock()
	defer mu.Unlock()
	if _, err := os.Stat(filepath.Join(dir, report.IndexFile)); err == nil {
		return dir, nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	for _, f := range []string{"history.jsonl", "results.json", "scenario.yaml"} {
		b, err := os.ReadFile(filepath.Join(p.Dir, f))
		if err != nil {
			return "", fmt.Errorf("report %s: %w", p.Rel, err)
		}
		if err := os.WriteFile(filepath.Join(dir, f), b, 0o644); err != nil {
			return "", err
		}
	}
	data, err := os.ReadFile(filepath.Join(dir, "scenario.yaml"))
	if err != nil {
		return "", err
	}
	sc, err := scenario.Parse(filepath.Join(p.Dir, "scenario.yaml"), data)
	if err != nil {
		return "", fmt.Errorf("report %s: %w", p.Rel, err)
	}
	if _, err := suite.Redraw(ctx, dir, sc, lang, s.o.Version); err != nil {
		return "", err
	}
	return dir, nil
}

// cache is the server's temporary directory, made on first use.
func (s *Server) cache() (string, error) {
	s.cacheMu.Lock()
	defer s.cacheMu.Unlock()
	if s.cacheDir != "" {
		return s.cacheDir, nil
	}
	d, err := os.MkdirTemp("", cachePrefix+"*")
	if err != nil {
		return "", err
	}
	if err := os.WriteFile(filepath.Join(d, "owner.pid"), []byte(fmt.Sprint(os.Getpid())), 0o644); err != nil {
		_ = os.RemoveAll(d)
		return "", err
	}
	s.cacheDir = d
	return d, nil
}
