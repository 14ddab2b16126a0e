package algo

import (
	"sync"
)

// Host is the simulated process a lock client runs in: one JVM, one Node
// worker, one Python interpreter. Clients a scenario places in one process
// (`clients: {w1: {process: p1}, w2: {process: p1}}`) share one Host, as
// the threads of one service share its lock registry: its owner identity
// and its in-process state. A client that names no process has a Host of
// its own. Safe for concurrent use.
type Host struct {
	// Name is the scenario's name of the process, or the client's own name
	// when the scenario places it in none.
	Name string
	// ID is an owner identity drawn once per process from the run's seed
	// (32 hex digits): what a library that identifies a lock's owner by
	// its process (a registry's client id, a PID) stores under the key.
	ID string

	mu     sync.Mutex
	locals map[string]*sync.Mutex
	vals   map[string]string

	smu    sync.Mutex
	shared map[string]sharedVal
}

// sharedVal is one Shared value, or the error making it gave.
type sharedVal struct {
	v   any
	err error
}

// NewHost returns the Host of one simulated process.
func NewHost(name, id string) *Host {
	return &Host{Name: name, ID: id}
}

// Local is the process-local mutex of key, the same one for every client
// of the process (a registry's cached in-JVM lock per key).
func (h *Host) Local(key string) *sync.Mutex {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.locals == nil {
		h.locals = map[string]*sync.Mutex{}
	}
	m, ok := h.locals[key]
	if !ok {
		m = &sync.Mutex{}
		h.locals[key] = m
	}
	return m
}

// Do calls f with the process's shared table of strings (a lock object's
// one token slot that its threads share, say) while holding its mutex.
func (h *Host) Do(f func(vals map[string]string)) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.vals == nil {
		h.vals = map[string]string{}
	}
	f(h.vals)
}

// Shared is the value of key that every client of the process shares,
// made by mk for the first client that asks (the others wait meanwhile);
// an error of mk is every later caller's too. A lock client process that
// serves all of a simulated process's clients is one (clients.process).
func (h *Host) Shared(key string, mk func() (any, error)) (any, error) {
	h.smu.Lock()
	defer h.smu.Unlock()
	if sv, ok := h.shared[key]; ok {
		return sv.v, sv.err
	}
	v, err := mk()
	if h.shared == nil {
		h.shared = map[string]sharedVal{}
	}
	h.shared[key] = sharedVal{v, err}
	return v, err
}
