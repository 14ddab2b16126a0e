package cluster

import (
	"errors"
	"fmt"
	"net"
	"strconv"
	"sync"
)

// ports are the 127.0.0.1 ports this process's nodes and proxies own for
// their whole life, including while they are down: a crashed node waits
// to restart on its port and a proxy cut with mode refuse waits to listen
// again on its own. A node of a parallel run must never take such a port,
// or a client's link would reach another run's Redis.
var ports = portSet{owned: map[int]bool{}}

type portSet struct {
	mu    sync.Mutex
	owned map[int]bool
}

// free returns a port that is free now (the kernel chose it) and that no
// node or proxy of this process owns, and records it as owned.
func (s *portSet) free() (int, error) {
	for range 100 {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return 0, fmt.Errorf("find free port: %w", err)
		}
		port := l.Addr().(*net.TCPAddr).Port
		if err := l.Close(); err != nil {
			return 0, fmt.Errorf("find free port: %w", err)
		}
		if s.claim(port) {
			return port, nil
		}
	}
	return 0, errors.New("find free port: the kernel offered only ports that this process's nodes and proxies own")
}

// claim records port as owned; false when it already was.
func (s *portSet) claim(port int) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.owned[port] {
		return false
	}
	s.owned[port] = true
	return true
}

// claimAddr claims the port of a "host:port" address a proxy listens on.
func (s *portSet) claimAddr(addr string) {
	if port, ok := portOf(addr); ok {
		s.claim(port)
	}
}

// release gives port back (its owner is gone for good).
func (s *portSet) release(port int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.owned, port)
}

// releaseAddr releases the port of a "host:port" address.
func (s *portSet) releaseAddr(addr string) {
	if port, ok := portOf(addr); ok {
		s.release(port)
	}
}

// portOf is the port of a "host:port" address.
func portOf(addr string) (int, bool) {
	_, p, err := net.SplitHostPort(addr)
	if err != nil {
		return 0, false
	}
	port, err := strconv.Atoi(p)
	return port, err == nil
}
