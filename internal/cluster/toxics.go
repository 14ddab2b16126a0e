package cluster

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"sync"

	"github.com/Shopify/toxiproxy/v2/toxics"
)

// Every toxiproxy toxic on a link (issue 17). AddToxic puts one toxic of
// any toxiproxy type on one stream of the link, with toxiproxy's own
// attributes and a toxicity.
//
// Toxicity. toxiproxy decides, per connection, whether a toxic applies:
// each time a toxic starts on a connection's stream (when the connection
// opens, and again whenever a toxic of the link is added or removed) it
// draws rand.Float32() < toxicity from Go's process-wide math/rand, which
// locksim cannot seed (toxiproxy's own -seed calls rand.Seed, a no-op
// since Go 1.24). So for an in-process link with a toxicity below 1
// locksim registers the toxic as a wrapper ("locksim_seeded") that makes
// the same per-connection, per-start draw from a generator seeded by the
// step's seed (drawn from the run's seed when the plan is resolved): the
// sequence of draws is the seed's; which connection gets which draw
// follows the order connections start in. On an external toxiproxy server
// the toxicity is toxiproxy's own, unseeded.

// Toxic streams.
const (
	StreamUpstream   = "upstream"   // client → node: the requests
	StreamDownstream = "downstream" // node → client: the replies
)

// ToxicTypes are toxiproxy's toxic types.
func ToxicTypes() []string {
	return []string{"latency", "bandwidth", "slow_close", "timeout", "reset_peer", "slicer", "limit_data"}
}

// AddToxic adds a toxic named name of toxiproxy type typ on stream
// (StreamUpstream or StreamDownstream) with toxiproxy's attributes (ms,
// KB/s, bytes). toxicity in (0, 1] is the probability a connection gets
// it (1 when 0); seed drives those draws. A toxic of the same name is
// replaced. Errors: unknown type or stream, bad toxicity, closed link,
// toxiproxy errors.
func (l *Link) AddToxic(name, typ, stream string, toxicity float64, seed uint64, attrs map[string]any) error {
	if !slices.Contains(ToxicTypes(), typ) {
		return l.errf("add toxic to", fmt.Errorf("unknown toxic type %q", typ))
	}
	if stream != StreamUpstream && stream != StreamDownstream {
		return l.errf("add toxic to", fmt.Errorf("unknown stream %q (want upstream or downstream)", stream))
	}
	if toxicity == 0 {
		toxicity = 1
	}
	if !(toxicity > 0 && toxicity <= 1) {
		return l.errf("add toxic to", fmt.Errorf("toxicity %v not in (0, 1]", toxicity))
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return l.errf("add toxic to", ErrClosed)
	}
	if l.toxics[name] {
		if err := l.removeToxic(name); err != nil {
			return l.errf("add toxic to", err)
		}
	}
	typName, tox, a := typ, toxicity, attrs
	if _, inproc := l.px.(inprocProxy); inproc && toxicity < 1 {
		registerSeeded()
		raw, err := json.Marshal(attrs)
		if err != nil {
			return l.errf("add toxic to", err)
		}
		typName, tox = seededType, 1
		a = map[string]any{"inner": typ, "seed": seed, "toxicity": toxicity, "attrs": json.RawMessage(raw)}
	}
	if err := l.px.addToxic(name, typName, stream, tox, a); err != nil {
		return l.errf("add toxic to", fmt.Errorf("add toxic %s: %w", name, err))
	}
	l.toxics[name] = true
	return nil
}

// RemoveToxic removes a toxic AddToxic added; idempotent.
func (l *Link) RemoveToxic(name string) error { return l.remove("remove toxic from", name) }

const seededType = "locksim_seeded"

var registerSeededOnce sync.Once

func registerSeeded() {
	registerSeededOnce.Do(func() { toxics.Register(seededType, new(seededToxic)) })
}

// seededToxic runs an inner toxic on a connection's stream with
// probability Toxicity, drawn from its own seeded generator (see above).
// toxiproxy decodes the attributes into a fresh value per toxic.
type seededToxic struct {
	Inner    string          `json:"inner"`
	Seed     uint64          `json:"seed"`
	Toxicity float64         `json:"toxicity"`
	Attrs    json.RawMessage `json:"attrs"`

	once  sync.Once
	inner toxics.Toxic
	mu    sync.Mutex
	rng   *rand.Rand
}

func (t *seededToxic) init() {
	t.once.Do(func() {
		t.rng = rand.New(rand.NewPCG(t.Seed, 0x746f786963)) // "toxic"
		orig, ok := toxics.ToxicRegistry[t.Inner]
		if !ok {
			t.inner = new(toxics.NoopToxic)
			return
		}
		inner := reflect.New(reflect.TypeOf(orig).Elem()).Interface().(toxics.Toxic)
		if len(t.Attrs) > 0 {
			_ = json.Unmarshal(t.Attrs, inner)
		}
		t.inner = inner
	})
}

// Pipe draws, as toxiproxy does at each start of a toxic on a stream,
// whether this connection gets the toxic.
func (t *seededToxic) Pipe(stub *toxics.ToxicStub) {
	t.init()
	t.mu.Lock()
	on := t.rng.Float64() < t.Toxicity
	t.mu.Unlock()
	if on {
		t.inner.Pipe(stub)
		return
	}
	new(toxics.NoopToxic).Pipe(stub)
}

// NewState is the inner toxic's per-connection state (limit_data counts
// bytes there).
func (t *seededToxic) NewState() any {
	t.init()
	if s, ok := t.inner.(toxics.StatefulToxic); ok {
		return s.NewState()
	}
	return nil
}

// GetBufferSize is latency's buffer (toxiproxy asks before the
// attributes are known).
func (t *seededToxic) GetBufferSize() int { return 1024 }

// Cleanup is the inner toxic's (timeout closes the connection).
func (t *seededToxic) Cleanup(stub *toxics.ToxicStub) {
	t.init()
	if c, ok := t.inner.(toxics.CleanupToxic); ok {
		c.Cleanup(stub)
	}
}
