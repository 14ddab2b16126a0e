package clients_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/bsm/redislock"
	"github.com/redis/go-redis/v9"

	"github.com/locksim/locksim/internal/clients"
	"github.com/locksim/locksim/internal/clients/clientstest"
)

// The adapter of docs/library.md, "Test your own lock library", verbatim:
// this test keeps it compiling and passing the conformance suite.

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

// TestTheDocsShowTheTestedAdapter keeps the documentation's copy of the
// adapter identical to the code above.
func TestTheDocsShowTheTestedAdapter(t *testing.T) {
	src, err := os.ReadFile("example_adapter_test.go")
	if err != nil {
		t.Fatal(err)
	}
	start := bytes.Index(src, []byte("// myLock adapts"))
	end := bytes.Index(src, []byte("func TestTheDocumentedAdapter"))
	if start < 0 || end < start {
		t.Fatal("adapter markers not found in example_adapter_test.go")
	}
	code := bytes.TrimSpace(src[start:end])
	found := false
	for _, doc := range []string{"../../README.md", "../../docs/library.md"} {
		text, err := os.ReadFile(doc)
		if err != nil || !bytes.Contains(text, []byte("## Test your own lock library")) {
			continue
		}
		found = true
		t.Run(doc+" shows the adapter exactly as tested", func(t *testing.T) {
			if !bytes.Contains(text, code) {
				t.Errorf("%s does not contain the adapter of example_adapter_test.go verbatim", doc)
			}
		})
	}
	if !found {
		t.Fatal(`no README.md or docs/library.md has the section "Test your own lock library"`)
	}
}
