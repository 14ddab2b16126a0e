package clients_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/bsm/redislock"
	"github.com/redis/go-redis/v9"

	"github.com/locksim/locksim/internal/clients"
	"github.com/locksim/locksim/internal/clients/clientstest"
)

// An adapter written against the internal names (clients.Config,
// clients.Locker): the aliases of package lock keep it compiling and
// passing the conformance suite. The README's adapter is examples/mylock.

// myLock adapts bsm/redislock to locksim's Locker.
type myLock struct {
	client *redislock.Client
	ttl    time.Duration
	mu     sync.Mutex
	held   map[string]*redislock.Lock // by token, for Release
}

func NewMyLock(c clients.Config) (clients.Locker, error) {
	cmd := c.Nodes[0].Cmd.(redis.Scripter) // the client's proxied connection
	return &myLock{client: redislock.New(cmd), ttl: c.TTL, held: map[string]*redislock.Lock{}}, nil
}

func (m *myLock) Name() string { return "my-lock" }

func (m *myLock) Acquire(ctx context.Context, key string) (clients.Lease, error) {
	lk, err := m.client.Obtain(ctx, key, m.ttl, nil)
	if errors.Is(err, redislock.ErrNotObtained) {
		return clients.Lease{}, clients.ErrNotAcquired // definitely not granted
	} else if err != nil {
		return clients.Lease{}, err // anything else: the outcome is unknown
	}
	m.mu.Lock()
	m.held[lk.Token()] = lk
	m.mu.Unlock()
	return clients.Lease{Key: key, Token: lk.Token(), ValidUntil: time.Now().Add(m.ttl)}, nil
}

func (m *myLock) Release(ctx context.Context, l clients.Lease) error {
	m.mu.Lock()
	lk := m.held[l.Token]
	delete(m.held, l.Token)
	m.mu.Unlock()
	err := lk.Release(ctx) // a nil *Lock says ErrLockNotHeld
	if errors.Is(err, redislock.ErrLockNotHeld) {
		return clients.ErrNotHeld // definitely removed nothing
	}
	return err
}

func TestTheDocumentedAdapterPassesTheConformanceSuite(t *testing.T) {
	clientstest.Run(t, NewMyLock, clientstest.Expect{})
}

// TestTheDocsShowTheTestedCode keeps the Go code of docs/go-api.md and of
// the README's "Test your own lock in Go" identical to the module under
// examples/ that make test builds and tests: every chunk of every Go block
// (the interface summary aside) is in one of its files, verbatim.
func TestTheDocsShowTheTestedCode(t *testing.T) {
	var examples [][]byte
	for _, f := range []string{"mylock/mylock.go", "mylock/mylock_test.go", "cmd/mylocksim/main.go"} {
		b, err := os.ReadFile(filepath.Join("..", "..", "examples", f))
		if err != nil {
			t.Fatal(err)
		}
		examples = append(examples, b)
	}
	for _, doc := range []struct {
		file, from, to string
		want           int
	}{
		{"docs/go-api.md", "# Test your own lock in Go", "## Go libraries shipped with locksim", 3},
		{"README.md", "## Test your own lock in Go", "## Test your own lock in any language", 1},
	} {
		t.Run(doc.file+" shows the code of examples/", func(t *testing.T) {
			text, err := os.ReadFile(filepath.Join("..", "..", doc.file))
			if err != nil {
				t.Fatal(err)
			}
			start := bytes.Index(text, []byte(doc.from))
			end := bytes.Index(text, []byte(doc.to))
			if start < 0 || end < start {
				t.Fatalf("%s has no section %q ending at %q", doc.file, doc.from, doc.to)
			}
			if n := goBlocksIn(t, doc.file, text[start:end], examples); n < doc.want {
				t.Fatalf("%s shows %d blocks of examples/ code, want %d", doc.file, n, doc.want)
			}
		})
	}
}

// goBlocksIn checks every ```go block of section against examples and
// returns how many it checked.
func goBlocksIn(t *testing.T, file string, section []byte, examples [][]byte) int {
	t.Helper()
	blocks := 0
	for {
		i := bytes.Index(section, []byte("```go\n"))
		if i < 0 {
			return blocks
		}
		section = section[i+len("```go\n"):]
		j := bytes.Index(section, []byte("```"))
		block := section[:j]
		section = section[j+3:]
		if bytes.HasPrefix(block, []byte("type Locker interface")) {
			continue // the interface as a summary, with comments of its own
		}
		blocks++
		for _, chunk := range bytes.Split(bytes.TrimSpace(block), []byte("\n\n")) {
			found := false
			for _, e := range examples {
				found = found || bytes.Contains(e, chunk)
			}
			if !found {
				t.Errorf("%s shows code that is in no file of examples/:\n%s", file, chunk)
			}
		}
	}
}
