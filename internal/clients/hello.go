package clients

import (
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/locksim/locksim/lock"
)

// ProcessHello is what a lock client process says of itself in its hello
// reply (docs/protocol.md): the protocol version it speaks, its name, and
// the optional operations and events it lists.
type ProcessHello struct {
	Protocol int
	Name     string
	Ops      []string
	Events   []string
}

// Renews reports whether the process sends renewed events (version 2): its
// library renews on its own and says so, so a pause at the in-renew point
// can fire on it.
func (h ProcessHello) Renews() bool {
	return h.Protocol >= 2 && slices.Contains(h.Events, eventRenewed)
}

// helloCache remembers each command's hello.
var helloCache struct {
	sync.Mutex
	m map[string]helloResult
}

type helloResult struct {
	h   ProcessHello
	err error
}

// ProbeHello starts po's command once, as a probe (hello "probe": true, no
// nodes: it connects nowhere), and returns its hello reply; the process is
// then closed. Results are remembered per command and directory, so a
// suite of files naming one adapter starts it once.
func ProbeHello(po ProcessOptions) (ProcessHello, error) {
	key := fmt.Sprintf("%q|%s|%q", po.Command, po.Dir, po.Env)
	helloCache.Lock()
	defer helloCache.Unlock()
	if r, ok := helloCache.m[key]; ok {
		return r.h, r.err
	}
	po.FakeTime = ""
	c := Config{Config: lock.Config{Client: "probe", TTL: time.Second}, Process: &po}
	var h ProcessHello
	p, err := startProcessWith(c, true, nil)
	if err == nil {
		h = ProcessHello{Protocol: p.version, Name: p.name, Events: slices.Clone(p.events)}
		for op := range p.ops {
			h.Ops = append(h.Ops, op)
		}
		slices.Sort(h.Ops)
		p.Close()
	}
	if helloCache.m == nil {
		helloCache.m = map[string]helloResult{}
	}
	helloCache.m[key] = helloResult{h, err}
	return h, err
}
