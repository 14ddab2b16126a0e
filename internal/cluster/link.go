package cluster

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	toxiproxy "github.com/Shopify/toxiproxy/v2"
)

// Cut modes and directions.
const (
	// CutDrop silently drops bytes: a timeout toxic with timeout 0.
	CutDrop = "drop"
	// CutRefuse disables the proxy: existing connections are closed and new
	// ones are refused.
	CutRefuse = "refuse"
	// DirBoth cuts requests and replies.
	DirBoth = "both"
	// DirReplies cuts only the replies (downstream): commands still run on
	// Redis but the client never hears back.
	DirReplies = "replies"
)

// Toxic names used on a link's proxy.
const (
	toxicCutUp    = "cut_upstream"
	toxicCutDown  = "cut_downstream"
	toxicLatency  = "latency_downstream"
	toxicResetUp  = "reset_upstream"
	upstreamDir   = "upstream"
	downstreamDir = "downstream"
)

// Link is the network path from one client to one node: a toxiproxy proxy
// listening on 127.0.0.1. Its methods are safe for concurrent use.
type Link struct {
	client string
	node   *Node
	name   string
	px     proxyHandle
	addr   string

	mu       sync.Mutex
	toxics   map[string]bool // names of toxics we added
	disabled bool
	closed   bool
}

func newLink(srv *toxiproxy.ApiServer, client string, n *Node) (*Link, error) {
	name := client + "-" + n.name
	p := toxiproxy.NewProxy(srv, name, "127.0.0.1:0", n.Addr())
	if err := p.Start(); err != nil {
		return nil, fmt.Errorf("start proxy %s: %w", name, err)
	}
	// After Start, Listen holds the real address (port chosen by the kernel).
	p.Lock()
	addr := p.Listen
	p.Unlock()
	ports.claimAddr(addr) // kept while a refuse partition stops the proxy
	return &Link{client: client, node: n, name: name, px: inprocProxy{p}, addr: addr, toxics: map[string]bool{}}, nil
}

// proxyHandle is the toxiproxy proxy behind a Link: in this process
// (inprocProxy) or on a toxiproxy server reached through its HTTP API
// (external backend, apiProxy).
type proxyHandle interface {
	addToxic(name, typ, stream string, toxicity float64, attrs map[string]any) error
	// removeToxic returns nil when the toxic is not there.
	removeToxic(name string) error
	// disable closes every connection and stops listening; enable listens
	// again on the same address.
	disable() error
	enable() error
	// stop ends the proxy for good.
	stop()
}

type inprocProxy struct{ p *toxiproxy.Proxy }

func (ip inprocProxy) addToxic(name, typ, stream string, toxicity float64, attrs map[string]any) error {
	body, err := json.Marshal(map[string]any{
		"name":       name,
		"type":       typ,
		"stream":     stream,
		"toxicity":   toxicity,
		"attributes": attrs,
	})
	if err != nil {
		return fmt.Errorf("encode toxic %s: %w", name, err)
	}
	_, err = ip.p.Toxics.AddToxicJson(strings.NewReader(string(body)))
	return err
}

func (ip inprocProxy) removeToxic(name string) error {
	err := ip.p.Toxics.RemoveToxic(context.Background(), name)
	if errors.Is(err, toxiproxy.ErrToxicNotFound) {
		return nil
	}
	return err
}

func (ip inprocProxy) disable() error { ip.p.Stop(); return nil }

func (ip inprocProxy) enable() error {
	if err := ip.p.Start(); err != nil && !errors.Is(err, toxiproxy.ErrProxyAlreadyStarted) {
		return err
	}
	return nil
}

func (ip inprocProxy) stop() { ip.p.Stop() }

// Name returns "<client>-<node>", e.g. "w1-n1" (the proxy's name).
func (l *Link) Name() string { return l.name }

// Client returns the client name of this link.
func (l *Link) Client() string { return l.client }

// Node returns the node this link leads to.
func (l *Link) Node() *Node { return l.node }

// Addr returns the proxy's "127.0.0.1:port"; it stays the same across Cut
// with mode "refuse" and Heal.
func (l *Link) Addr() string { return l.addr }

// Toxics returns the sorted names of the toxics currently on the link, plus
// "disabled" while the proxy is disabled by Cut(refuse).
func (l *Link) Toxics() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []string
	for name := range l.toxics {
		out = append(out, name)
	}
	sort.Strings(out)
	if l.disabled {
		out = append(out, "disabled")
	}
	return out
}

func (l *Link) errf(op string, err error) error {
	return fmt.Errorf("%s link %s: %w", op, l.Name(), err)
}

// Cut partitions the link. mode "drop" adds a timeout toxic with timeout 0
// (bytes vanish, connections stay open, so clients time out); mode "refuse"
// disables the proxy (connections are closed, new ones refused).
// direction "both" cuts both ways; "replies" puts the drop toxic on the
// downstream only, so commands still execute on Redis. "refuse" only
// supports "both". Cutting a cut link again with another mode/direction
// replaces the previous cut. Errors: unknown mode or direction, closed link,
// toxiproxy errors.
func (l *Link) Cut(mode, direction string) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return l.errf("cut", ErrClosed)
	}
	var want []string
	switch {
	case mode == CutDrop && direction == DirBoth:
		want = []string{toxicCutUp, toxicCutDown}
	case mode == CutDrop && direction == DirReplies:
		want = []string{toxicCutDown}
	case mode == CutRefuse && direction == DirBoth:
	case mode != CutDrop && mode != CutRefuse:
		return l.errf("cut", fmt.Errorf("unknown mode %q (want drop or refuse)", mode))
	case direction != DirBoth && direction != DirReplies:
		return l.errf("cut", fmt.Errorf("unknown direction %q (want both or replies)", direction))
	default:
		return l.errf("cut", fmt.Errorf("mode %q supports only direction both", mode))
	}
	// Drop cut toxics that are not wanted any more.
	for _, name := range []string{toxicCutUp, toxicCutDown} {
		if l.toxics[name] && !slices.Contains(want, name) {
			if err := l.removeToxic(name); err != nil {
				return l.errf("cut", err)
			}
		}
	}
	for _, name := range want {
		if l.toxics[name] {
			continue
		}
		stream := upstreamDir
		if name == toxicCutDown {
			stream = downstreamDir
		}
		if err := l.addToxic(name, "timeout", stream, map[string]any{"timeout": 0}); err != nil {
			return l.errf("cut", err)
		}
	}
	if mode == CutRefuse && !l.disabled {
		if err := l.px.disable(); err != nil {
			return l.errf("cut", err)
		}
		l.disabled = true
	} else if mode == CutDrop && l.disabled {
		if err := l.enable(); err != nil {
			return l.errf("cut", err)
		}
	}
	return nil
}

// AddLatency delays every reply (downstream) by latency ± jitter, so a round
// trip takes latency longer on average. Toxiproxy works in whole
// milliseconds: both values are rounded up to the next millisecond. Calling
// it again replaces the previous latency. Errors: negative values, closed
// link, toxiproxy errors.
func (l *Link) AddLatency(latency, jitter time.Duration) error {
	if latency < 0 || jitter < 0 {
		return l.errf("add latency to", fmt.Errorf("negative latency %v or jitter %v", latency, jitter))
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return l.errf("add latency to", ErrClosed)
	}
	if l.toxics[toxicLatency] {
		if err := l.removeToxic(toxicLatency); err != nil {
			return l.errf("add latency to", err)
		}
	}
	attrs := map[string]any{"latency": ceilMillis(latency), "jitter": ceilMillis(jitter)}
	if err := l.addToxic(toxicLatency, "latency", downstreamDir, attrs); err != nil {
		return l.errf("add latency to", err)
	}
	return nil
}

// Reset adds a reset_peer toxic (timeout 0) on the upstream: from now until
// Heal, every connection through the link is torn down as soon as the client
// sends data, and the command never reaches Redis. Connections opened after
// Reset get a TCP RST (SO_LINGER 0); connections that were already open are
// closed (toxiproxy sets the linger option only when a connection starts).
// Errors: closed link, toxiproxy errors.
func (l *Link) Reset() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return l.errf("reset", ErrClosed)
	}
	if l.toxics[toxicResetUp] {
		return nil
	}
	if err := l.addToxic(toxicResetUp, "reset_peer", upstreamDir, map[string]any{"timeout": 0}); err != nil {
		return l.errf("reset", err)
	}
	return nil
}

// Heal removes every toxic this package added and re-enables the proxy on
// the same address. Removing a timeout toxic closes the connections that went
// through it (toxiproxy trait), so clients reconnect. Idempotent. Errors:
// closed link, toxiproxy errors (the proxy's port was taken meanwhile).
func (l *Link) Heal() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return l.errf("heal", ErrClosed)
	}
	var errs []error
	for name := range l.toxics {
		if err := l.removeToxic(name); err != nil {
			errs = append(errs, err)
		}
	}
	if l.disabled {
		if err := l.enable(); err != nil {
			errs = append(errs, err)
		}
	}
	if err := errors.Join(errs...); err != nil {
		return l.errf("heal", err)
	}
	return nil
}

// enable restarts a disabled proxy on its old address; l.mu held.
func (l *Link) enable() error {
	if err := l.px.enable(); err != nil {
		return fmt.Errorf("enable proxy on %s: %w", l.addr, err)
	}
	l.disabled = false
	return nil
}

// addToxic adds one toxic through toxiproxy's JSON API; l.mu held.
func (l *Link) addToxic(name, typ, stream string, attrs map[string]any) error {
	if err := l.px.addToxic(name, typ, stream, 1, attrs); err != nil {
		return fmt.Errorf("add toxic %s: %w", name, err)
	}
	l.toxics[name] = true
	return nil
}

// removeToxic removes one toxic by name; l.mu held.
func (l *Link) removeToxic(name string) error {
	if err := l.px.removeToxic(name); err != nil {
		return fmt.Errorf("remove toxic %s: %w", name, err)
	}
	delete(l.toxics, name)
	return nil
}

// close stops the proxy for good.
func (l *Link) close() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return
	}
	l.closed = true
	l.px.stop()
	l.disabled = true
	if _, inproc := l.px.(inprocProxy); inproc {
		ports.releaseAddr(l.addr)
	}
}

func ceilMillis(d time.Duration) int64 {
	ms := d.Milliseconds()
	if d%time.Millisecond != 0 {
		ms++
	}
	return ms
}
